//! The map in ASCII with a path drawn on it.

use gridpath::grid::Grid;
use gridpath::search::SearchResult;

/// Draws the grid with `S` at the start, `E` at the end, `*` on the path and `#` on blocked
/// cells; other cells show their terrain's symbol (or `.` when that symbol would be confusing).
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
    let mut out = String::with_capacity(canvas.len() + grid.height() as usize);
    for row in canvas.chunks(w) {
        out.extend(row);
        out.push('\n');
    }
    out
}
