//! The timeline of a plan: the tick shown (a fraction between two ticks while playing), play
//! and pause, speed, and where each unit is drawn at that moment.

use egui::Pos2;

use crate::grid::Cell;

/// The speeds offered, in ticks per second.
pub const SPEEDS: [f32; 7] = [0.5, 1.0, 2.0, 4.0, 8.0, 16.0, 32.0];

/// Where the timeline stands.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Playback {
    /// The moment shown, in ticks from 0 (the starts); between two ticks units are drawn
    /// between their cells.
    pub tick: f32,
    /// Whether time runs.
    pub playing: bool,
    /// Ticks per second.
    pub speed: f32,
    /// Whether playing starts again from tick 0 at the end.
    pub looping: bool,
    /// Whether a unit that has arrived for good is no longer drawn.
    pub hide_arrived: bool,
    /// How many ticks of the past each unit's trail shows.
    pub trail: u32,
}

impl Default for Playback {
    fn default() -> Self {
        Self {
            tick: 0.0,
            playing: false,
            speed: 4.0,
            looping: false,
            hide_arrived: false,
            trail: 6,
        }
    }
}

impl Playback {
    /// Moves time on by `dt` seconds on a plan whose last tick is `makespan`; returns whether
    /// it is still playing (and wants the next frame).
    pub fn advance(&mut self, dt: f32, makespan: usize) -> bool {
        if !self.playing {
            return false;
        }
        let end = makespan as f32;
        self.tick += dt.clamp(0.0, 0.25) * self.speed;
        if self.tick >= end {
            if self.looping && end > 0.0 {
                self.tick %= end;
            } else {
                self.tick = end;
                self.playing = false;
            }
        }
        self.playing
    }

    /// Starts or pauses; playing from the end starts again from tick 0.
    pub fn toggle(&mut self, makespan: usize) {
        if !self.playing && self.tick >= makespan as f32 {
            self.tick = 0.0;
        }
        self.playing = !self.playing;
    }

    /// The whole tick at or before the moment shown.
    pub fn whole_tick(&self) -> usize {
        self.tick.max(0.0).floor() as usize
    }
}

/// The cell of `path` at tick `t`: its last cell after it ends.
pub fn cell_at(path: &[Cell], t: usize) -> Option<Cell> {
    path.get(t).or_else(|| path.last()).copied()
}

/// Where a unit following `path` is at moment `tick`, in cell coordinates (a cell's centre is
/// at x + 0.5, y + 0.5): between two cells it moves with an ease in and out, so that a unit
/// that stops does not jerk.
pub fn position(path: &[Cell], tick: f32) -> Option<Pos2> {
    let tick = tick.max(0.0);
    let t = tick.floor() as usize;
    let a = cell_at(path, t)?;
    let b = cell_at(path, t + 1)?;
    let f = tick - t as f32;
    let f = f * f * (3.0 - 2.0 * f);
    let centre = |c: Cell| Pos2::new(c.x as f32 + 0.5, c.y as f32 + 0.5);
    Some(centre(a).lerp(centre(b), f))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn units_move_between_cells_and_stay_at_the_end() {
        let path = [Cell::new(0, 0), Cell::new(1, 0), Cell::new(1, 1)];
        assert_eq!(position(&path, 0.0), Some(Pos2::new(0.5, 0.5)));
        assert_eq!(position(&path, 0.5), Some(Pos2::new(1.0, 0.5)));
        assert_eq!(position(&path, 2.0), Some(Pos2::new(1.5, 1.5)));
        assert_eq!(position(&path, 9.0), Some(Pos2::new(1.5, 1.5)));
        assert_eq!(position(&[], 1.0), None);
    }

    #[test]
    fn playing_stops_at_the_end_or_loops() {
        let mut p = Playback {
            playing: true,
            speed: 2.0,
            ..Playback::default()
        };
        assert!(p.advance(0.25, 10));
        assert_eq!(p.tick, 0.5);
        p.tick = 9.8;
        assert!(!p.advance(0.25, 10));
        assert_eq!(p.tick, 10.0);
        p.toggle(10);
        assert!(p.playing);
        assert_eq!(p.tick, 0.0);
        p.looping = true;
        p.tick = 9.8;
        assert!(p.advance(0.25, 10));
        assert!(p.tick < 1.0);
    }
}
