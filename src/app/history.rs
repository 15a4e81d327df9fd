//! Undo and redo: a bounded stack of [`Edit`]s.

use std::collections::VecDeque;

use crate::grid::{GridError, Map};

use super::edit::{Edit, Redraw};

/// The edits that can be undone and redone, oldest first.
///
/// Each state the edits lead to has a number ([`History::state`]): the editor notes the state
/// it saved, so that undoing back to it leaves no unsaved changes.
#[derive(Clone, Debug)]
pub struct History {
    done: VecDeque<Edit>,
    undone: Vec<Edit>,
    /// The state after each edit of `done`.
    done_states: VecDeque<u64>,
    /// The state after each edit of `undone`.
    undone_states: Vec<u64>,
    /// The state before the oldest edit of `done`.
    base: u64,
    /// The number the next new state gets.
    next_state: u64,
    limit: usize,
}

impl Default for History {
    fn default() -> Self {
        Self::with_limit(Self::DEFAULT_LIMIT)
    }
}

impl History {
    /// How many steps a history keeps unless told otherwise.
    pub const DEFAULT_LIMIT: usize = 1000;

    /// An empty history keeping at most `limit` steps (at least one).
    pub fn with_limit(limit: usize) -> Self {
        Self {
            done: VecDeque::new(),
            undone: Vec::new(),
            done_states: VecDeque::new(),
            undone_states: Vec::new(),
            base: 0,
            next_state: 1,
            limit: limit.max(1),
        }
    }

    /// The number of the state the map is in: the same after undoing back to it, a new one
    /// after every new or merged edit.
    pub fn state(&self) -> u64 {
        self.done_states.back().copied().unwrap_or(self.base)
    }

    /// A number no state had before.
    fn new_state(&mut self) -> u64 {
        self.next_state += 1;
        self.next_state - 1
    }

    /// Records an edit that was just made; it clears what could be redone.
    pub fn record(&mut self, edit: Edit) {
        self.undone.clear();
        self.undone_states.clear();
        if self.done.len() == self.limit {
            self.done.pop_front();
            if let Some(state) = self.done_states.pop_front() {
                self.base = state;
            }
        }
        self.done.push_back(edit);
        let state = self.new_state();
        self.done_states.push_back(state);
    }

    /// Records an edit, folding it into the previous step when both recolour the same
    /// terrain (a colour picker sends one change per frame while the user drags in it) or
    /// both change the slope rules.
    pub fn record_or_merge(&mut self, edit: Edit) {
        if let (Some(last), Some(id)) = (self.done.back_mut(), edit.recolours())
            && self.undone.is_empty()
            && last.recolours() == Some(id)
            && let (Edit::Catalog { after, .. }, Edit::Catalog { after: newer, .. }) =
                (last, edit.clone())
        {
            *after = newer;
            self.renumber_latest();
            return;
        }
        // One slope field dragged: one step from its first value to its last.
        if let (Some(Edit::Slope { before, after }), Edit::Slope { after: newer, .. }) =
            (self.done.back_mut(), &edit)
            && self.undone.is_empty()
            && fields_changed(before, after) == fields_changed(after, newer)
        {
            *after = *newer;
            self.renumber_latest();
            return;
        }
        self.record(edit);
    }

    /// Gives the state after the latest edit, changed in place, a new number.
    fn renumber_latest(&mut self) {
        let state = self.new_state();
        if let Some(latest) = self.done_states.back_mut() {
            *latest = state;
        }
    }

    /// Whether there is an edit to undo.
    pub fn can_undo(&self) -> bool {
        !self.done.is_empty()
    }

    /// Whether there is an edit to redo.
    pub fn can_redo(&self) -> bool {
        !self.undone.is_empty()
    }

    /// The number of steps that can be undone.
    pub fn undo_steps(&self) -> usize {
        self.done.len()
    }

    /// Undoes the latest edit; `None` when there is none.
    pub fn undo(&mut self, map: &mut Map) -> Option<Result<Redraw, GridError>> {
        let edit = self.done.pop_back()?;
        let outcome = edit.revert(map);
        self.undone.push(edit);
        if let Some(state) = self.done_states.pop_back() {
            self.undone_states.push(state);
        }
        Some(outcome)
    }

    /// Redoes the latest undone edit; `None` when there is none.
    pub fn redo(&mut self, map: &mut Map) -> Option<Result<Redraw, GridError>> {
        let edit = self.undone.pop()?;
        let outcome = edit.redo(map);
        self.done.push_back(edit);
        if let Some(state) = self.undone_states.pop() {
            self.done_states.push_back(state);
        }
        Some(outcome)
    }

    /// The edit undone last, while it can be redone.
    pub fn latest_undone(&self) -> Option<&Edit> {
        self.undone.last()
    }

    /// The edit made or redone last, while it can be undone.
    pub fn latest_done(&self) -> Option<&Edit> {
        self.done.back()
    }

    /// Forgets every step (a new document).
    pub fn clear(&mut self) {
        self.done.clear();
        self.undone.clear();
        self.done_states.clear();
        self.undone_states.clear();
        self.base = self.new_state();
    }
}

/// Which of the slope rules differ between two sets: uphill, downhill, the climb limit.
fn fields_changed(a: &crate::grid::Slope, b: &crate::grid::Slope) -> [bool; 3] {
    [
        a.uphill != b.uphill,
        a.downhill != b.downhill,
        a.max_climb != b.max_climb,
    ]
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::grid::{Cell, Grid};

    #[test]
    fn five_hundred_strokes_undo_back_to_the_start() {
        let grid = Grid::from_ascii(&["..........", ".........."]).unwrap();
        let original = grid.clone();
        let mut map = Map::new("t", grid);
        let mut history = History::default();
        for step in 0..600u32 {
            let index = step % 20;
            let terrain = (step % 3 + 1) as u8;
            if let Some(edit) = Edit::paint(&mut map.grid, &[index], terrain) {
                history.record(edit);
            }
        }
        assert!(history.undo_steps() >= 500);
        while let Some(outcome) = history.undo(&mut map) {
            outcome.unwrap();
        }
        assert_eq!(map.grid, original);
        assert_eq!(
            history.redo(&mut map),
            Some(Ok(Redraw::Cells(crate::app::region::Region {
                x0: 0,
                y0: 0,
                x1: 1,
                y1: 1
            })))
        );
        assert_eq!(map.grid.get(Cell::new(0, 0)), Some(1));
    }

    #[test]
    fn the_oldest_steps_fall_off_past_the_limit() {
        let mut map = Map::new("t", Grid::from_ascii(&["...."]).unwrap());
        let mut history = History::with_limit(2);
        for (i, terrain) in [1u8, 2, 3].into_iter().enumerate() {
            let edit = Edit::paint(&mut map.grid, &[i as u32], terrain).unwrap();
            history.record(edit);
        }
        assert_eq!(history.undo_steps(), 2);
        while history.undo(&mut map).is_some() {}
        assert_eq!(
            map.grid.cells(),
            &[1, 0, 0, 0],
            "the first stroke can no longer be undone"
        );
    }

    #[test]
    fn a_new_edit_clears_the_redo_steps() {
        let mut map = Map::new("t", Grid::from_ascii(&["...."]).unwrap());
        let mut history = History::default();
        history.record(Edit::paint(&mut map.grid, &[0], 1).unwrap());
        history.undo(&mut map);
        assert!(history.can_redo());
        history.record(Edit::paint(&mut map.grid, &[1], 2).unwrap());
        assert!(!history.can_redo());
    }
}
