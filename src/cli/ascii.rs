//! The map in ASCII with a path drawn on it.

use gridpath::grid::Grid;
use gridpath::search::SearchResult;

/// Draws the grid with `S` at the start, `E` at the end, `*` on the path and `#` on blocked
/// cells; other cells show their terrain's symbol (or `.` when that symbol would be confusing).
///
/// A hex map reads as hexes: its cells stand a space apart, and the staggered rows are pushed
/// one character right (pointy-top); with staggered columns (flat-top) each row takes two
/// lines, the staggered columns on the lower one.
pub fn render(grid: &Grid, result: &SearchResult) -> String {
    let w = grid.width() as usize;
    let symbols: Vec<char> = grid
        .terrains()
        .iter()
        .map(|t| match t.symbol {
            _ if !t.is_passable() => '#',
            'S' | 'E' | '*' | '#' => '.',
            s => s,
        })
        .collect();
    let mut canvas: Vec<char> = grid
        .cells()
        .iter()
        .map(|&id| symbols[usize::from(id)])
        .collect();
    for cell in &result.path {
        canvas[grid.index(*cell)] = '*';
    }
    canvas[grid.index(result.start)] = 'S';
    canvas[grid.index(result.goal)] = 'E';
    // Each row takes its lines of text, every cell at the place the topology gives it.
    let topology = grid.topology();
    let lines = topology.text_lines_per_row();
    let mut out = String::with_capacity(canvas.len() * 2 * lines + grid.height() as usize * 2);
    let mut text = vec![Vec::with_capacity(w * 2 + 1); lines];
    for (y, row) in canvas.chunks(w).enumerate() {
        for line in &mut text {
            line.clear();
        }
        for (x, &c) in row.iter().enumerate() {
            let (line, column) = topology.text_place(x as i64, y as i64);
            let line = &mut text[line];
            if line.len() <= column {
                line.resize(column + 1, ' ');
            }
            line[column] = c;
        }
        for line in &text {
            out.extend(line);
            out.push('\n');
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use gridpath::grid::{Cell, HexLayout, Topology};
    use gridpath::search::{SearchRequest, solve};

    #[test]
    fn hex_maps_print_as_hexes() {
        let square = Grid::from_ascii(&["...", "...", "..."]).expect("a valid map");
        let request = SearchRequest::new(Cell::new(0, 0), Cell::new(2, 2));
        // Squares side by side, a line a row.
        let result = solve(&square, &request).expect("plans");
        let text = render(&square, &result);
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines.len(), 3);
        assert!(lines.iter().all(|l| l.len() == 3 && !l.contains(' ')));
        assert!(lines[0].starts_with('S') && lines[2].ends_with('E'));
        let grid = square
            .clone()
            .with_topology(Topology::Hex(HexLayout::ODD_R));
        let result = solve(&grid, &request).expect("plans");
        let text = render(&grid, &result);
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines.len(), 3);
        // Odd rows pushed right by one character; cells a space apart.
        assert!(lines[0].starts_with('S') && lines[1].starts_with(' '));
        assert_eq!(lines[0].len(), 5);
        assert!(lines[2].ends_with('E'));
        // Flat-top: two lines a row, the staggered (odd) columns on the lower one.
        let grid = square.with_topology(Topology::Hex(HexLayout::ODD_Q));
        let result = solve(&grid, &request).expect("plans");
        let text = render(&grid, &result);
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines.len(), 6);
        assert!(lines[0].starts_with('S') && lines[1].starts_with("  "));
        assert_eq!(lines[4].chars().nth(4), Some('E'));
    }
}
