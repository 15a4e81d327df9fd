//! The painting tools and the cells each one covers, as pure functions of the map's size.
//!
//! Every shape is clipped at the map's edges: a brush half off the map paints the half that
//! is on it, and never a cell outside.

use std::collections::VecDeque;

use crate::grid::{Cell, Grid, TerrainId, Topology};

/// The largest brush size, in cells.
pub const MAX_BRUSH: u32 = 64;

/// A painting tool of the toolbar.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Tool {
    /// Paints the brush's footprint along the pointer; Shift+drag paints a straight line.
    #[default]
    Brush,
    /// Paints a straight line of brush footprints from where the drag starts to where it ends.
    Line,
    /// Paints a rectangle, filled or outlined, between the drag's corners.
    Rectangle,
    /// Repaints the connected region of one terrain under the pointer.
    Fill,
    /// A brush that paints the map's base terrain (terrain 0).
    Eraser,
    /// Picks the terrain under the pointer as the active one (also Alt+click with any tool).
    Eyedropper,
    /// Puts the start on the passable cell clicked (and follows a drag).
    Start,
    /// Puts the goal on the passable cell clicked (and follows a drag).
    Goal,
    /// Adds a unit of the team by a drag from its start to its goal; a click picks a unit.
    Agents,
    /// Measures between two cells: the straight line's length and cost, and the cheapest
    /// path's.
    Measure,
    /// Raises the ground under the brush by the height step (once per stroke).
    Raise,
    /// Lowers the ground under the brush by the height step (once per stroke).
    Lower,
    /// Levels the ground under the brush to the height where the stroke starts.
    Flatten,
}

impl Tool {
    /// Every tool, in toolbar order.
    pub const ALL: [Tool; 13] = [
        Tool::Brush,
        Tool::Line,
        Tool::Rectangle,
        Tool::Fill,
        Tool::Eraser,
        Tool::Eyedropper,
        Tool::Start,
        Tool::Goal,
        Tool::Measure,
        Tool::Agents,
        Tool::Raise,
        Tool::Lower,
        Tool::Flatten,
    ];

    /// The name shown on its button.
    pub fn name(self) -> &'static str {
        match self {
            Tool::Brush => "Brush",
            Tool::Line => "Line",
            Tool::Rectangle => "Rectangle",
            Tool::Fill => "Fill",
            Tool::Eraser => "Eraser",
            Tool::Eyedropper => "Eyedropper",
            Tool::Start => "Start",
            Tool::Goal => "Goal",
            Tool::Measure => "Measure",
            Tool::Agents => "Agents",
            Tool::Raise => "Raise",
            Tool::Lower => "Lower",
            Tool::Flatten => "Flatten",
        }
    }

    /// What it does, for its tooltip.
    pub fn about(self) -> &'static str {
        match self {
            Tool::Brush => "Paint with the active terrain. Shift+drag paints a straight line.",
            Tool::Line => "Drag to paint a straight line of brush width.",
            Tool::Rectangle => "Drag to paint a rectangle, filled or outlined.",
            Tool::Fill => "Click to repaint the connected region of one terrain.",
            Tool::Eraser => "Paint the base terrain (the first of the palette).",
            Tool::Eyedropper => {
                "Click to pick the terrain under the pointer (Alt+click with any tool)."
            }
            Tool::Start => {
                "Click a passable cell to start the path there (or right-click the map)."
            }
            Tool::Goal => "Click a passable cell to end the path there (or right-click the map).",
            Tool::Measure => {
                "Drag between two cells: the straight line's length and cost, and the cheapest path's."
            }
            Tool::Agents => {
                "Drag from a start to a goal to add a unit of the team (Agents panel); click a unit to follow its path."
            }
            Tool::Raise => {
                "Raise the ground under the brush by the height step (a flat map gets heights)."
            }
            Tool::Lower => "Lower the ground under the brush by the height step.",
            Tool::Flatten => "Level the ground under the brush to the height where you start.",
        }
    }

    /// Whether it paints with the brush's size and tip.
    pub fn uses_brush(self) -> bool {
        matches!(
            self,
            Tool::Brush | Tool::Line | Tool::Eraser | Tool::Raise | Tool::Lower | Tool::Flatten
        )
    }

    /// Whether it changes heights rather than terrain.
    pub fn sculpts(self) -> bool {
        matches!(self, Tool::Raise | Tool::Lower | Tool::Flatten)
    }
}

/// The brush sizes the keys step through: each a similar share larger than the one before.
pub const BRUSH_STEPS: [u32; 12] = [1, 2, 3, 4, 6, 8, 12, 16, 24, 32, 48, MAX_BRUSH];

/// The brush size one step up (`delta` > 0) or down from `size`, which may lie between steps.
pub fn brush_step(size: u32, delta: i32) -> u32 {
    if delta > 0 {
        BRUSH_STEPS
            .into_iter()
            .find(|&s| s > size)
            .unwrap_or(MAX_BRUSH)
    } else {
        BRUSH_STEPS
            .into_iter()
            .rev()
            .find(|&s| s < size)
            .unwrap_or(1)
    }
}

/// The toolbar's settings, which the canvas paints with.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ToolSettings {
    /// The tool in hand.
    pub tool: Tool,
    /// The brush's size in cells (1–[`MAX_BRUSH`]).
    pub brush_size: u32,
    /// The brush's shape.
    pub brush_tip: BrushTip,
    /// Whether rectangles are filled or outlined.
    pub filled: bool,
    /// The terrain the tools paint.
    pub active: TerrainId,
    /// How much Raise and Lower change the ground per stroke.
    pub height_step: f32,
    /// The height of white in a heightmap imported with File → Import heights (black is 0).
    pub heightmap_white: f32,
}

impl Default for ToolSettings {
    fn default() -> Self {
        Self {
            tool: Tool::Brush,
            brush_size: 1,
            brush_tip: BrushTip::Round,
            filled: true,
            active: 0,
            height_step: 1.0,
            heightmap_white: 10.0,
        }
    }
}

/// The shape of the brush's footprint.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum BrushTip {
    /// A disc of the brush's diameter.
    #[default]
    Round,
    /// A square of the brush's side.
    Square,
}

/// The cells under a brush of `size` (1–[`MAX_BRUSH`], clamped) centred on `center`, on a
/// `width` × `height` map.
///
/// An odd size is centred on the cell; an even one reaches one cell further right and down.
pub fn brush(center: Cell, size: u32, tip: BrushTip, width: u32, height: u32) -> Vec<Cell> {
    brush_on(Topology::Square, center, size, tip, width, height)
}

/// The cells of the straight line from `a` to `b`, both included (Bresenham), clipped to a
/// `width` × `height` map.
pub fn line(a: Cell, b: Cell, width: u32, height: u32) -> Vec<Cell> {
    line_on(Topology::Square, a, b, width, height)
}

/// The cells a brush covers as it is dragged along the line from `a` to `b`, each once.
pub fn brush_line(
    a: Cell,
    b: Cell,
    size: u32,
    tip: BrushTip,
    width: u32,
    height: u32,
) -> Vec<Cell> {
    brush_line_on(Topology::Square, a, b, size, tip, width, height)
}

/// The cells under a brush of `size` on a map of `topology` ([`Topology::brush`]): [`brush`]
/// on squares; on hexes the hexes within `size − 1` steps of `center` (the tip has no say
/// there).
pub fn brush_on(
    topology: Topology,
    center: Cell,
    size: u32,
    tip: BrushTip,
    width: u32,
    height: u32,
) -> Vec<Cell> {
    let size = size.clamp(1, MAX_BRUSH);
    topology
        .brush(center, size, tip == BrushTip::Round)
        .into_iter()
        .filter_map(|(x, y)| clip(x, y, width, height))
        .collect()
}

/// The cells of the straight line from `a` to `b` on a map of `topology`
/// ([`Topology::line`]), both included, clipped to a `width` × `height` map.
pub fn line_on(topology: Topology, a: Cell, b: Cell, width: u32, height: u32) -> Vec<Cell> {
    topology
        .line(a, b)
        .into_iter()
        .filter_map(|(x, y)| clip(x, y, width, height))
        .collect()
}

/// The cells a brush covers as it is dragged along the line from `a` to `b` on a map of
/// `topology`, each once.
pub fn brush_line_on(
    topology: Topology,
    a: Cell,
    b: Cell,
    size: u32,
    tip: BrushTip,
    width: u32,
    height: u32,
) -> Vec<Cell> {
    let mut cells: Vec<Cell> = line_on(topology, a, b, width, height)
        .into_iter()
        .flat_map(|c| brush_on(topology, c, size, tip, width, height))
        .collect();
    cells.sort_unstable_by_key(|c| (c.y, c.x));
    cells.dedup();
    cells
}

/// The cells of the rectangle with opposite corners `a` and `b`: all of them when `filled`,
/// else its one-cell-wide outline; clipped to a `width` × `height` map.
pub fn rectangle(a: Cell, b: Cell, filled: bool, width: u32, height: u32) -> Vec<Cell> {
    let (x0, x1) = (a.x.min(b.x), a.x.max(b.x).min(width.saturating_sub(1)));
    let (y0, y1) = (a.y.min(b.y), a.y.max(b.y).min(height.saturating_sub(1)));
    let mut cells = Vec::new();
    if x0 > x1 || y0 > y1 {
        return cells;
    }
    for y in y0..=y1 {
        if filled || y == y0 || y == a.y.max(b.y) {
            cells.extend((x0..=x1).map(|x| Cell::new(x, y)));
        } else {
            if x0 == a.x.min(b.x) {
                cells.push(Cell::new(x0, y));
            }
            if x1 == a.x.max(b.x) && x1 != x0 {
                cells.push(Cell::new(x1, y));
            }
        }
    }
    cells
}

/// The cells, as indices of [`Grid::cells`], of the connected region of one terrain that
/// holds `seed` (4-connected on squares, through the six neighbours on hexes); empty when the
/// seed is off the map.
pub fn flood_fill(grid: &Grid, seed: Cell) -> Vec<u32> {
    let Some(target) = grid.get(seed) else {
        return Vec::new();
    };
    let (w, h) = (grid.width() as usize, grid.height() as usize);
    let cells = grid.cells();
    let mut seen = vec![false; w * h];
    let mut region = Vec::new();
    let mut queue = VecDeque::new();
    let first = grid.index(seed);
    seen[first] = true;
    queue.push_back(first);
    while let Some(i) = queue.pop_front() {
        region.push(i as u32);
        let (x, y) = ((i % w) as i64, (i / w) as i64);
        let neighbours = grid
            .topology()
            .side_neighbours(x, y)
            .into_iter()
            .filter_map(|(x, y)| clip(x, y, grid.width(), grid.height()))
            .map(|c| grid.index(c));
        for n in neighbours {
            if !seen[n] && cells[n] == target {
                seen[n] = true;
                queue.push_back(n);
            }
        }
    }
    region
}

fn clip(x: i64, y: i64, width: u32, height: u32) -> Option<Cell> {
    (x >= 0 && y >= 0 && x < i64::from(width) && y < i64::from(height))
        .then(|| Cell::new(x as u32, y as u32))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sorted(mut cells: Vec<Cell>) -> Vec<(u32, u32)> {
        cells.sort_unstable_by_key(|c| (c.y, c.x));
        cells.into_iter().map(|c| (c.x, c.y)).collect()
    }

    #[test]
    fn a_size_one_brush_is_one_cell() {
        for tip in [BrushTip::Round, BrushTip::Square] {
            assert_eq!(sorted(brush(Cell::new(2, 3), 1, tip, 10, 10)), [(2, 3)]);
        }
    }

    #[test]
    fn a_square_brush_covers_its_side_squared() {
        let cells = brush(Cell::new(10, 10), 5, BrushTip::Square, 40, 40);
        assert_eq!(cells.len(), 25);
        let xs: Vec<u32> = cells.iter().map(|c| c.x).collect();
        assert_eq!(xs.iter().min(), Some(&8));
        assert_eq!(xs.iter().max(), Some(&12));
        // An even size reaches one cell further right and down.
        let even = sorted(brush(Cell::new(5, 5), 2, BrushTip::Square, 40, 40));
        assert_eq!(even, [(5, 5), (6, 5), (5, 6), (6, 6)]);
    }

    #[test]
    fn a_round_brush_is_a_disc() {
        let plus = sorted(brush(Cell::new(5, 5), 3, BrushTip::Round, 20, 20));
        assert_eq!(plus, [(5, 4), (4, 5), (5, 5), (6, 5), (5, 6)]);
        let disc = brush(Cell::new(32, 32), 21, BrushTip::Round, 64, 64);
        // A disc of diameter 21 covers close to π·10.5² ≈ 346 cells, well short of 441.
        assert!((320..=370).contains(&disc.len()), "{} cells", disc.len());
        for c in &disc {
            let (dx, dy) = (f64::from(c.x) - 32.0, f64::from(c.y) - 32.0);
            assert!(
                dx * dx + dy * dy <= 10.5 * 10.5,
                "{c} lies outside the disc"
            );
        }
        // Symmetric about the centre for odd sizes.
        assert!(disc.contains(&Cell::new(22, 32)) && disc.contains(&Cell::new(42, 32)));
        assert!(!disc.contains(&Cell::new(22, 22)));
    }

    #[test]
    fn brushes_are_clipped_at_the_edges() {
        let corner = brush(Cell::new(0, 0), 5, BrushTip::Square, 10, 10);
        assert_eq!(corner.len(), 9);
        assert!(corner.iter().all(|c| c.x < 3 && c.y < 3));
        let far = brush(Cell::new(9, 4), 64, BrushTip::Round, 10, 5);
        assert!(far.iter().all(|c| c.x < 10 && c.y < 5));
        assert_eq!(far.len(), 50, "a huge brush covers the whole small map");
        let sizes = brush(Cell::new(3, 3), 500, BrushTip::Square, 200, 200);
        assert_eq!(
            sizes.len(),
            36 * 36,
            "sizes clamp to 64: 3 + 32 + 1 columns"
        );
    }

    #[test]
    fn lines_join_their_ends_without_gaps() {
        let cells = line(Cell::new(0, 0), Cell::new(7, 3), 10, 10);
        assert_eq!(cells.first(), Some(&Cell::new(0, 0)));
        assert_eq!(cells.last(), Some(&Cell::new(7, 3)));
        assert_eq!(cells.len(), 8, "one cell per column of the longer axis");
        for pair in cells.windows(2) {
            let (dx, dy) = (pair[0].x.abs_diff(pair[1].x), pair[0].y.abs_diff(pair[1].y));
            assert!(
                dx <= 1 && dy <= 1 && dx + dy > 0,
                "gap between {} and {}",
                pair[0],
                pair[1]
            );
        }
        let back = line(Cell::new(7, 3), Cell::new(0, 0), 10, 10);
        assert_eq!(back.len(), 8);
        assert_eq!(
            sorted(line(Cell::new(4, 4), Cell::new(4, 4), 10, 10)),
            [(4, 4)]
        );
        let vertical = sorted(line(Cell::new(2, 5), Cell::new(2, 1), 10, 10));
        assert_eq!(vertical, [(2, 1), (2, 2), (2, 3), (2, 4), (2, 5)]);
    }

    #[test]
    fn a_brush_line_is_wide_and_unique() {
        let cells = brush_line(
            Cell::new(0, 5),
            Cell::new(9, 5),
            3,
            BrushTip::Square,
            10,
            10,
        );
        assert_eq!(cells.len(), 30, "three rows of ten, each cell once");
        let edge = brush_line(
            Cell::new(0, 0),
            Cell::new(9, 0),
            3,
            BrushTip::Square,
            10,
            10,
        );
        assert_eq!(edge.len(), 20, "the row above the map is clipped");
    }

    #[test]
    fn rectangles_filled_and_outlined() {
        let filled = rectangle(Cell::new(5, 4), Cell::new(2, 1), true, 10, 10);
        assert_eq!(filled.len(), 16);
        let outline = sorted(rectangle(Cell::new(1, 1), Cell::new(3, 3), false, 10, 10));
        assert_eq!(
            outline,
            [
                (1, 1),
                (2, 1),
                (3, 1),
                (1, 2),
                (3, 2),
                (1, 3),
                (2, 3),
                (3, 3)
            ]
        );
        let thin = rectangle(Cell::new(1, 1), Cell::new(1, 4), false, 10, 10);
        assert_eq!(thin.len(), 4, "a one-column outline has each cell once");
    }

    #[test]
    fn rectangles_are_clipped_at_the_edges() {
        // Corners past the map (as a drag off the canvas gives) lose the sides that are off it.
        let cells = rectangle(Cell::new(7, 7), Cell::new(12, 15), false, 10, 10);
        let expected = [(7, 7), (8, 7), (9, 7), (7, 8), (7, 9)];
        assert_eq!(sorted(cells), expected);
        let filled = rectangle(Cell::new(7, 7), Cell::new(12, 15), true, 10, 10);
        assert_eq!(filled.len(), 9);
        assert!(rectangle(Cell::new(12, 12), Cell::new(15, 15), true, 10, 10).is_empty());
    }

    #[test]
    fn flood_fill_stays_in_its_region() {
        let grid = Grid::from_ascii(&["..#~", "..#.", "###.", "~..."]).unwrap();
        let mut left: Vec<u32> = flood_fill(&grid, Cell::new(1, 1));
        left.sort_unstable();
        assert_eq!(left, [0, 1, 4, 5]);
        let right = flood_fill(&grid, Cell::new(3, 1));
        assert_eq!(right.len(), 5, "(3,1) down and round to (1,3)");
        assert_eq!(
            flood_fill(&grid, Cell::new(3, 0)),
            [3],
            "diagonal neighbours are not joined"
        );
        assert!(flood_fill(&grid, Cell::new(4, 0)).is_empty());
        let walls = flood_fill(&grid, Cell::new(0, 2));
        assert_eq!(walls.len(), 5);
    }
}
