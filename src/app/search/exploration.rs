//! What a search explored, laid out per cell: for shading the explored cells, replaying the
//! search step by step, and the cell inspector's g, h, f and parent.

use egui::{Color32, ColorImage};

use crate::grid::Cell;
use crate::search::Trace;

use crate::app::region::Region;

/// A cell the search left on its open list (the frontier), in [`Exploration::rank`].
const OPEN: u32 = u32::MAX;

/// How explored cells are shaded.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Shade {
    /// By when the cell was expanded: early cells cool, late cells warm.
    #[default]
    Order,
    /// By the cell's cost from the start.
    Cost,
}

/// The colour of the frontier (the final open set).
pub const FRONTIER: Color32 = Color32::from_rgb(0, 200, 225);

/// What one search explored, per cell.
#[derive(Debug)]
pub struct Exploration {
    width: u32,
    height: u32,
    /// Per cell: 0 when not expanded, `k + 1` when it was the `k`-th expansion, [`OPEN`] when
    /// it was left on the open list.
    rank: Vec<u32>,
    trace: Trace,
    max_g: f32,
    /// The smallest region holding every expanded and open cell.
    bounds: Region,
}

/// What the inspector shows of one explored cell.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Inspection {
    /// The cell.
    pub cell: Cell,
    /// When it was expanded: 0 for the first expansion.
    pub step: usize,
    /// Its cost from the search's origin.
    pub g: f32,
    /// Its estimate towards the goal.
    pub h: f32,
    /// The cell it was reached from (itself where a search began).
    pub parent: Cell,
}

impl Inspection {
    /// g + h.
    pub fn f(&self) -> f32 {
        self.g + self.h
    }
}

impl Exploration {
    /// Lays a search's trace out over a `width` × `height` map.
    pub fn new(width: u32, height: u32, trace: Trace) -> Self {
        let mut rank = vec![0u32; width as usize * height as usize];
        let index = |c: Cell| c.y as usize * width as usize + c.x as usize;
        let mut bounds = Region::EMPTY;
        for cell in &trace.open {
            rank[index(*cell)] = OPEN;
            bounds.include(*cell);
        }
        for cell in &trace.expanded {
            bounds.include(*cell);
        }
        // A cell expanded twice (IDA* re-expands) keeps its first expansion.
        for (k, cell) in trace.expanded.iter().enumerate().rev() {
            rank[index(*cell)] = k as u32 + 1;
        }
        let max_g = trace
            .g
            .iter()
            .copied()
            .filter(|g| g.is_finite())
            .fold(0.0f32, f32::max);
        Self {
            width,
            height,
            rank,
            trace,
            max_g,
            bounds,
        }
    }

    /// The smallest region holding every cell the search touched: the only cells whose
    /// overlay is not transparent.
    pub fn bounds(&self) -> Region {
        self.bounds
    }

    /// How many expansions the search made.
    pub fn expanded(&self) -> usize {
        self.trace.expanded.len()
    }

    /// The cells left on the open list.
    pub fn open(&self) -> &[Cell] {
        &self.trace.open
    }

    /// The map size this exploration covers.
    pub fn size(&self) -> (u32, u32) {
        (self.width, self.height)
    }

    /// The `step`-th expanded cell.
    pub fn expanded_cell(&self, step: usize) -> Option<Cell> {
        self.trace.expanded.get(step).copied()
    }

    /// g, h, f, parent and step of an expanded cell, if it was expanded by `upto` (the replay
    /// position).
    pub fn inspect(&self, cell: Cell, upto: usize) -> Option<Inspection> {
        if cell.x >= self.width || cell.y >= self.height {
            return None;
        }
        let rank = self.rank[cell.y as usize * self.width as usize + cell.x as usize];
        if rank == 0 || rank == OPEN || rank as usize > upto {
            return None;
        }
        let step = rank as usize - 1;
        Some(Inspection {
            cell,
            step,
            g: self.trace.g[step],
            h: self.trace.h[step],
            parent: self.trace.parents[step],
        })
    }

    /// The colour of a cell when the replay has shown `upto` expansions; the frontier shows
    /// only when `frontier` is set.
    fn color(&self, rank: u32, upto: usize, show: Show) -> Color32 {
        match rank {
            0 => Color32::TRANSPARENT,
            OPEN if show.frontier => FRONTIER,
            OPEN => Color32::TRANSPARENT,
            k if k as usize > upto || !show.explored => Color32::TRANSPARENT,
            k => {
                let step = k as usize - 1;
                let t = match show.shade {
                    Shade::Order => step as f32 / self.expanded().max(1) as f32,
                    Shade::Cost if self.max_g > 0.0 && self.trace.g[step].is_finite() => {
                        self.trace.g[step] / self.max_g
                    }
                    Shade::Cost => 0.0,
                };
                ramp(t)
            }
        }
    }

    /// The overlay image of a region: one pixel per cell, opaque where something shows (the
    /// layer's opacity is applied when it is drawn).
    pub fn image(&self, region: Region, upto: usize, show: Show) -> ColorImage {
        let (w, h) = (region.width() as usize, region.height() as usize);
        let stride = self.width as usize;
        let mut pixels = Vec::with_capacity(w * h);
        for y in region.y0 as usize..region.y1 as usize {
            let row = &self.rank[y * stride + region.x0 as usize..y * stride + region.x1 as usize];
            pixels.extend(row.iter().map(|&r| self.color(r, upto, show)));
        }
        ColorImage::new([w, h], pixels)
    }

    /// The smallest region holding the cells expanded between steps `a` and `b` (either order).
    pub fn region_between(&self, a: usize, b: usize) -> Region {
        let (lo, hi) = (a.min(b), a.max(b).min(self.expanded()));
        let mut region = Region::EMPTY;
        for &cell in &self.trace.expanded[lo.min(hi)..hi] {
            region.include(cell);
        }
        region
    }
}

/// What the overlay image shows: the expanded cells (shaded how) and the frontier, each on its
/// own.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Show {
    /// The expanded cells.
    pub explored: bool,
    /// How expanded cells are shaded.
    pub shade: Shade,
    /// The cells left open.
    pub frontier: bool,
}

/// A perceptually even-ish ramp from deep blue through violet to orange (opaque: layers are
/// drawn with an opacity of their own).
pub fn ramp(t: f32) -> Color32 {
    let t = t.clamp(0.0, 1.0);
    let stops: [(f32, [f32; 3]); 4] = [
        (0.0, [40.0, 70.0, 200.0]),
        (0.4, [120.0, 60.0, 190.0]),
        (0.75, [220.0, 70.0, 110.0]),
        (1.0, [250.0, 160.0, 40.0]),
    ];
    let mut rgb = stops[3].1;
    for pair in stops.windows(2) {
        let ((t0, a), (t1, b)) = (pair[0], pair[1]);
        if t <= t1 {
            let u = (t - t0) / (t1 - t0);
            rgb = [0, 1, 2].map(|i| a[i] + (b[i] - a[i]) * u);
            break;
        }
    }
    let [r, g, b] = rgb.map(|c| c as u8);
    Color32::from_rgb(r, g, b)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn trace() -> Trace {
        Trace {
            expanded: vec![Cell::new(0, 0), Cell::new(1, 0), Cell::new(1, 1)],
            g: vec![0.0, 1.0, 2.0],
            h: vec![2.0, 1.0, 0.0],
            parents: vec![Cell::new(0, 0), Cell::new(0, 0), Cell::new(1, 0)],
            open: vec![Cell::new(0, 1)],
        }
    }

    #[test]
    fn cells_are_ranked_by_expansion_and_inspected_up_to_the_replay() {
        let exploration = Exploration::new(3, 2, trace());
        let seen = exploration.inspect(Cell::new(1, 1), 3).unwrap();
        assert_eq!(seen.step, 2);
        assert_eq!(seen.parent, Cell::new(1, 0));
        assert_eq!(seen.f(), 2.0);
        assert!(
            exploration.inspect(Cell::new(1, 1), 2).is_none(),
            "not yet replayed"
        );
        assert!(
            exploration.inspect(Cell::new(0, 1), 3).is_none(),
            "open, not expanded"
        );
        assert!(
            exploration.inspect(Cell::new(2, 0), 3).is_none(),
            "never reached"
        );
        let bounds = exploration.bounds();
        assert_eq!((bounds.x0, bounds.y0, bounds.x1, bounds.y1), (0, 0, 2, 2));
    }

    #[test]
    fn the_image_shows_expanded_cells_up_to_the_replay_and_the_frontier_when_asked() {
        let exploration = Exploration::new(3, 2, trace());
        let whole = Region::whole(3, 2);
        let show = |explored, frontier| Show {
            explored,
            shade: Shade::Order,
            frontier,
        };
        let image = exploration.image(whole, 3, show(true, true));
        assert_eq!(image.size, [3, 2]);
        assert_ne!(image.pixels[0], Color32::TRANSPARENT);
        assert_eq!(image.pixels[2], Color32::TRANSPARENT);
        assert_eq!(image.pixels[3], FRONTIER);
        let early = exploration.image(whole, 1, show(true, false));
        assert_ne!(early.pixels[0], Color32::TRANSPARENT);
        assert_eq!(early.pixels[1], Color32::TRANSPARENT);
        assert_eq!(early.pixels[3], Color32::TRANSPARENT);
        let frontier_alone = exploration.image(whole, 3, show(false, true));
        assert_eq!(frontier_alone.pixels[0], Color32::TRANSPARENT);
        assert_eq!(
            frontier_alone.pixels[3], FRONTIER,
            "the frontier needs no explored cells"
        );
        let region = exploration.region_between(1, 3);
        assert_eq!((region.x0, region.y0, region.x1, region.y1), (1, 0, 2, 2));
    }
}
