//! What a topology answers for the searches, the formats and the command line, so that they
//! ask it rather than tell squares from hexes themselves: which cells the square-only
//! formats and searches hold, how distance is measured, where a unit of several cells is
//! placed, and what the cells are called in files and messages.
//!
//! The geometric questions (a cell's corners, the cells a brush covers) are
//! [`geometry`](super::geometry)'s; the arithmetic of each shape is
//! [`topology`](super::topology)'s. A new topology answers each question here in one arm.

use super::cell::Cell;
use super::topology::{Hex, HexLayout, StaggerAxis, StaggerIndex, Topology};

/// The count of steps from any cell to one target cell, with what the count needs worked out
/// once ([`Topology::steps_to`]): a search asks it of every cell it ranks.
#[derive(Clone, Copy, Debug)]
pub struct StepsTo {
    layout: HexLayout,
    target: Hex,
}

impl StepsTo {
    /// The count of steps from the cell at `(x, y)` to the target.
    #[inline]
    pub fn from(&self, x: i64, y: i64) -> u64 {
        self.layout.to_hex(x, y).distance(self.target)
    }
}

impl Topology {
    /// Whether the cells are the unit squares of a lattice: what the formats of square cells
    /// (Moving AI, ROS), a scenario's optima, the multi-agent model and the searches built on
    /// square geometry (jump points, straight segments, cluster entrances) require.
    ///
    /// ```
    /// use gridpath_core::grid::{HexLayout, Topology};
    ///
    /// assert!(Topology::Square.has_square_cells());
    /// assert!(!Topology::Hex(HexLayout::ODD_R).has_square_cells());
    /// ```
    pub fn has_square_cells(self) -> bool {
        match self {
            Topology::Square => true,
            Topology::Hex(_) => false,
        }
    }

    /// Whether the distance between two cells is the count of steps between them whichever
    /// way they lie (hex distance, which then stands in for every estimate but zero), rather
    /// than one of the estimates a diagonal rule chooses among (manhattan, octile and the
    /// rest, on squares).
    pub fn distance_counts_steps(self) -> bool {
        match self {
            Topology::Square => false,
            Topology::Hex(_) => true,
        }
    }

    /// The count of steps to `target` from any cell, when distance counts steps
    /// ([`Topology::distance_counts_steps`]); `None` otherwise.
    ///
    /// ```
    /// use gridpath_core::grid::{Cell, HexLayout, Topology};
    ///
    /// assert!(Topology::Square.steps_to(Cell::new(0, 0)).is_none());
    /// let steps = Topology::Hex(HexLayout::ODD_R).steps_to(Cell::new(3, 4)).unwrap();
    /// assert_eq!(steps.from(0, 0), 5);
    /// ```
    pub fn steps_to(self, target: Cell) -> Option<StepsTo> {
        match self {
            Topology::Square => None,
            Topology::Hex(layout) => Some(StepsTo {
                layout,
                target: layout.to_hex(i64::from(target.x), i64::from(target.y)),
            }),
        }
    }

    /// How many lines of text a row of cells takes when the map is drawn one character a
    /// cell ([`Topology::text_place`]): one, or two on hexes in staggered columns.
    pub fn text_lines_per_row(self) -> usize {
        match self {
            Topology::Hex(HexLayout {
                axis: StaggerAxis::X,
                ..
            }) => 2,
            _ => 1,
        }
    }

    /// Where the cell at `(x, y)` stands when the map is drawn one character a cell, as the
    /// line within its row's [lines](Topology::text_lines_per_row) and the column: squares side
    /// by side; hexes a space apart, the staggered rows pushed one column right (pointy-top)
    /// or the staggered columns on the row's lower line (flat-top).
    ///
    /// ```
    /// use gridpath_core::grid::{HexLayout, Topology};
    ///
    /// assert_eq!(Topology::Square.text_place(3, 1), (0, 3));
    /// assert_eq!(Topology::Hex(HexLayout::ODD_R).text_place(3, 1), (0, 7));
    /// assert_eq!(Topology::Hex(HexLayout::ODD_Q).text_place(3, 1), (1, 6));
    /// ```
    pub fn text_place(self, x: i64, y: i64) -> (usize, usize) {
        match self {
            Topology::Square => (0, x as usize),
            Topology::Hex(layout) => match layout.axis {
                StaggerAxis::Y => (0, 2 * x as usize + usize::from(layout.is_staggered(y))),
                StaggerAxis::X => (usize::from(layout.is_staggered(x)), 2 * x as usize),
            },
        }
    }

    /// Whether a unit of several cells is placed by the cell at its centre (on hexes: the
    /// hexes within `size` − 1 steps of it) rather than by its top-left cell (on squares: the
    /// `size` × `size` block that cell starts).
    pub fn places_units_by_centre(self) -> bool {
        match self {
            Topology::Square => false,
            Topology::Hex(_) => true,
        }
    }

    /// The cell a unit of several cells is placed by, as exports name it: `"centre"` or
    /// `"top-left"` ([`Topology::places_units_by_centre`]).
    pub fn units_placed_by(self) -> &'static str {
        if self.places_units_by_centre() {
            "centre"
        } else {
            "top-left"
        }
    }

    /// How far the centre of a unit of `size` lies from the centre of the cell it is placed
    /// by, along x and along y: a unit of N × N squares on cell (x, y) covers x..x + N and
    /// y..y + N, so its centre is (N − 1) / 2 past the cell's; a unit placed by its centre
    /// hex lies on it.
    ///
    /// ```
    /// use gridpath_core::grid::{HexLayout, Topology};
    ///
    /// assert_eq!(Topology::Square.body_offset(1), 0.0);
    /// assert_eq!(Topology::Square.body_offset(4), 1.5);
    /// assert_eq!(Topology::Hex(HexLayout::ODD_R).body_offset(4), 0.0);
    /// ```
    pub fn body_offset(self, size: u32) -> f64 {
        if self.places_units_by_centre() {
            0.0
        } else {
            (f64::from(size.max(1)) - 1.0) / 2.0
        }
    }

    /// What the cells are called in messages: `"cells"` or `"hexes"`.
    pub fn cells_name(self) -> &'static str {
        match self {
            Topology::Square => "cells",
            Topology::Hex(_) => "hexes",
        }
    }

    /// The topology in the editor's words: `Squares`, or the hexes' shape and layout, as in
    /// `Hexes (pointy-top, rows, odd-r)`.
    ///
    /// ```
    /// use gridpath_core::grid::{HexLayout, Topology};
    ///
    /// assert_eq!(Topology::Square.description(), "Squares");
    /// assert_eq!(
    ///     Topology::Hex(HexLayout::EVEN_Q).description(),
    ///     "Hexes (flat-top, columns, even-q)"
    /// );
    /// ```
    pub fn description(self) -> String {
        match self {
            Topology::Square => "Squares".to_owned(),
            Topology::Hex(layout) => {
                let shape = if layout.is_pointy_top() {
                    "pointy-top, rows"
                } else {
                    "flat-top, columns"
                };
                format!("Hexes ({shape}, {})", layout.name())
            }
        }
    }

    /// The name files and exports write ([`Topology::name`]), or `None` for squares, which
    /// every file that names no topology (and every one written before there were others)
    /// implies.
    ///
    /// ```
    /// use gridpath_core::grid::{HexLayout, Topology};
    ///
    /// assert_eq!(Topology::Square.explicit_name(), None);
    /// assert_eq!(Topology::Hex(HexLayout::EVEN_Q).explicit_name(), Some("even-q"));
    /// ```
    pub fn explicit_name(self) -> Option<&'static str> {
        match self {
            Topology::Square => None,
            Topology::Hex(layout) => Some(layout.name()),
        }
    }

    /// How many turns lie between the step `(dx, dy)` that enters the cell at `(x, y)` and the
    /// step that leaves it: 45° turns on squares (0 to 4), 60° turns on hexes (0 to 3); 0 for
    /// what is not a step of the topology.
    ///
    /// ```
    /// use gridpath_core::grid::{HexLayout, Topology};
    ///
    /// assert_eq!(Topology::Square.turns_between(3, 3, (1, 0), (0, 1)), 2, "a right angle");
    /// assert_eq!(Topology::Square.turns_between(3, 3, (1, 0), (-1, 0)), 4, "straight back");
    /// let hexes = Topology::Hex(HexLayout::ODD_R);
    /// assert_eq!(hexes.turns_between(3, 3, (1, 0), (-1, 0)), 3, "straight back");
    /// ```
    pub fn turns_between(self, x: i64, y: i64, enter: (i64, i64), leave: (i64, i64)) -> u32 {
        match self {
            Topology::Square => {
                let unit = |(dx, dy): (i64, i64)| {
                    let angle = (dy as f64).atan2(dx as f64) / std::f64::consts::FRAC_PI_4;
                    (angle.round() as i64).rem_euclid(8)
                };
                let d = (unit(enter) - unit(leave)).unsigned_abs() as u32;
                d.min(8 - d)
            }
            Topology::Hex(layout) => {
                let entered = layout.direction_of_step(x - enter.0, y - enter.1, enter.0, enter.1);
                let leaving = layout.direction_of_step(x, y, leave.0, leave.1);
                match (entered, leaving) {
                    (Some(a), Some(b)) => {
                        let d = a.abs_diff(b) as u32;
                        d.min(6 - d)
                    }
                    _ => 0,
                }
            }
        }
    }

    /// The most turns one change of direction counts (turning straight back): 4 on squares,
    /// 3 on hexes.
    pub fn most_turns(self) -> u32 {
        match self {
            Topology::Square => 4,
            Topology::Hex(_) => 3,
        }
    }

    /// Whether the turns between two steps depend on the cell they are made in — on hexes a
    /// step's direction depends on its row (or column) — so that a search cannot table them once.
    pub fn turns_depend_on_place(self) -> bool {
        matches!(self, Topology::Hex(_))
    }

    /// The topology as files name it: its shape (`"square"` or `"hex"`) and, for hexes, the
    /// stagger axis (`"x"` or `"y"`) and index (`"odd"` or `"even"`) — the words of gridpath's
    /// JSON maps and of Tiled.
    ///
    /// ```
    /// use gridpath_core::grid::{HexLayout, Topology};
    ///
    /// assert_eq!(Topology::Square.file_names(), ("square", None));
    /// assert_eq!(Topology::Hex(HexLayout::EVEN_Q).file_names(), ("hex", Some(("x", "even"))));
    /// ```
    pub fn file_names(self) -> (&'static str, Option<(&'static str, &'static str)>) {
        match self {
            Topology::Square => ("square", None),
            Topology::Hex(layout) => {
                let axis = match layout.axis {
                    StaggerAxis::X => "x",
                    StaggerAxis::Y => "y",
                };
                let index = match layout.index {
                    StaggerIndex::Odd => "odd",
                    StaggerIndex::Even => "even",
                };
                ("hex", Some((axis, index)))
            }
        }
    }

    /// The topology a file names by [`Topology::file_names`]' words; a hex's axis defaults to
    /// `"y"` and its index to `"odd"`. The error says which word is wrong.
    ///
    /// ```
    /// use gridpath_core::grid::{HexLayout, Topology};
    ///
    /// assert_eq!(Topology::from_file_names("hex", Some("x"), Some("even")), Ok(Topology::Hex(HexLayout::EVEN_Q)));
    /// assert!(Topology::from_file_names("triangle", None, None).is_err());
    /// ```
    pub fn from_file_names(
        shape: &str,
        axis: Option<&str>,
        index: Option<&str>,
    ) -> Result<Topology, String> {
        match shape {
            "square" => Ok(Topology::Square),
            "hex" => {
                let axis = match axis {
                    Some("x") => StaggerAxis::X,
                    Some("y") | None => StaggerAxis::Y,
                    Some(other) => {
                        return Err(format!(
                            "\"staggeraxis\" is {other:?}, expected \"x\" or \"y\""
                        ));
                    }
                };
                let index = match index {
                    Some("odd") | None => StaggerIndex::Odd,
                    Some("even") => StaggerIndex::Even,
                    Some(other) => {
                        return Err(format!(
                            "\"staggerindex\" is {other:?}, expected \"odd\" or \"even\""
                        ));
                    }
                };
                Ok(Topology::Hex(HexLayout::new(axis, index)))
            }
            other => Err(format!(
                "\"shape\" is {other:?}, expected \"square\" or \"hex\""
            )),
        }
    }
}
