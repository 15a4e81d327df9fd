//! The painting tools' shapes on hex maps: a brush is the hexes within a number of steps, a
//! line the hexes a straight line between two centres passes ([`HexLayout::line`]).

use crate::grid::{Cell, HexLayout};

/// The hexes within `radius` steps of `center`, clipped to a `width` × `height` map.
pub fn brush(layout: HexLayout, center: Cell, radius: u32, width: u32, height: u32) -> Vec<Cell> {
    let centre = layout.to_hex(i64::from(center.x), i64::from(center.y));
    let r = i64::from(radius);
    let mut cells = Vec::new();
    for dq in -r..=r {
        for dr in (-r).max(-dq - r)..=r.min(-dq + r) {
            let hex = crate::grid::Hex::new(centre.q + dq, centre.r + dr);
            let (x, y) = layout.to_offset(hex);
            if let Some(cell) = clip(x, y, width, height) {
                cells.push(cell);
            }
        }
    }
    cells
}

/// The hexes of the straight line from `a` to `b`, both included, clipped to the map.
pub fn line(layout: HexLayout, a: Cell, b: Cell, width: u32, height: u32) -> Vec<Cell> {
    layout
        .line(a, b)
        .into_iter()
        .filter_map(|(x, y)| clip(x, y, width, height))
        .collect()
}

/// The neighbours of `cell` on the map, of the six.
pub fn neighbours(layout: HexLayout, cell: Cell, width: u32, height: u32) -> Vec<Cell> {
    layout
        .neighbours(i64::from(cell.x), i64::from(cell.y))
        .into_iter()
        .filter_map(|(x, y)| clip(x, y, width, height))
        .collect()
}

fn clip(x: i64, y: i64, width: u32, height: u32) -> Option<Cell> {
    (x >= 0 && y >= 0 && x < i64::from(width) && y < i64::from(height))
        .then(|| Cell::new(x as u32, y as u32))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_brush_holds_the_hexes_within_its_radius_and_no_others() {
        for layout in HexLayout::ALL {
            let center = Cell::new(10, 9);
            for radius in 0..4 {
                let cells = brush(layout, center, radius, 30, 30);
                assert_eq!(
                    cells.len() as u32,
                    3 * radius * (radius + 1) + 1,
                    "{layout:?}"
                );
                let mut inside = 0;
                for y in 0..30 {
                    for x in 0..30 {
                        let cell = Cell::new(x, y);
                        let near = layout.distance(center, cell) <= u64::from(radius);
                        assert_eq!(cells.contains(&cell), near, "{layout:?} {cell}");
                        inside += u32::from(near);
                    }
                }
                assert_eq!(inside as usize, cells.len());
            }
            assert!(brush(layout, Cell::new(0, 0), 2, 30, 30).len() < 19);
        }
    }

    #[test]
    fn a_line_steps_from_neighbour_to_neighbour() {
        for layout in HexLayout::ALL {
            let (a, b) = (Cell::new(1, 2), Cell::new(9, 6));
            let cells = line(layout, a, b, 20, 20);
            assert_eq!(cells.first(), Some(&a));
            assert_eq!(cells.last(), Some(&b));
            assert_eq!(cells.len() as u64, layout.distance(a, b) + 1);
            for pair in cells.windows(2) {
                assert_eq!(layout.distance(pair[0], pair[1]), 1, "{layout:?}");
            }
            assert!(neighbours(layout, Cell::new(0, 0), 20, 20).len() < 6);
            assert_eq!(neighbours(layout, Cell::new(5, 5), 20, 20).len(), 6);
        }
    }
}
