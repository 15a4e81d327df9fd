//! What the pointer does on the canvas: painting, shapes, dragging markers, panning and
//! zooming; and what is drawn over the map while it does (tool previews, markers).
//!
//! [`CanvasInput`] is a component: it owns the gesture under way and the cell under the
//! pointer, paints strokes straight onto the map it is given (as a text field edits its
//! string), and returns what the editor must carry out — an edit to record, a marker to put
//! down, a terrain picked — as [`CanvasIntent`]s.

use egui::{
    Align2, Color32, FontId, Painter, Pos2, Rect, Response, RichText, Sense, Stroke, Ui, Vec2,
};

use crate::grid::{Cell, Map, Outline, TerrainId, Topology};
use crate::smooth::Segment;

use super::canvas::{Canvas, color_of};
use super::gesture::{Gesture, Marker};
use super::sculpt::{HeightStroke, Sculpt};
use super::stroke::Stroke as BrushStroke;
use super::tools::{self, BrushTip, Tool, ToolSettings};
use crate::app::edit::{Edit, Redraw};

/// What the canvas asks the editor to do.
#[derive(Clone, Debug, PartialEq)]
pub enum CanvasIntent {
    /// A stroke, line, rectangle or fill was made on the map: record it as one step.
    Edit(Edit),
    /// Put a marker on the cell the user chose; an impassable cell is refused with a message.
    SetMarker(Marker, Cell),
    /// A dragged marker reached another passable cell.
    MoveMarker(Marker, Cell),
    /// Add a waypoint on a cell (after the others).
    AddWaypoint(Cell),
    /// Remove a waypoint, by its place in the map's list.
    RemoveWaypoint(usize),
    /// Remove every waypoint.
    ClearWaypoints,
    /// The eyedropper (or Alt+click) picked the terrain of a cell.
    Pick(TerrainId),
    /// A measurement between two cells ended: find the cheapest path between them.
    Measured(Cell, Cell),
    /// A drag of the Agents tool ended: add a unit from the first cell to the second.
    AddAgent(Cell, Cell),
    /// The Agents tool clicked a cell: pick the unit there.
    PickAgent(Cell),
}

/// The smallest right-drag, in points each way, that zooms into its box (less is a click).
const ZOOM_BOX_MIN: f32 = 8.0;

/// The ruler's last measurement, shown until the next one.
#[derive(Clone, Debug, PartialEq)]
pub struct Measurement {
    /// Where it starts.
    pub from: Cell,
    /// Where it ends.
    pub to: Cell,
    /// The cheapest path between them, as text, once the editor has searched for it.
    pub path: Option<String>,
}

impl Measurement {
    /// The straight line between the cells' centres: its length, and its cost through the
    /// terrain it crosses (or that it crosses a wall).
    pub fn straight_text(&self, map: &Map) -> String {
        let topology = map.grid.topology();
        if !topology.has_diagonals() {
            // Hex steps, and whether the straight line of hexes meets a wall.
            let steps = topology.step_count(self.from, self.to);
            let (width, height) = (map.grid.width(), map.grid.height());
            let cells = tools::line_on(topology, self.from, self.to, width, height);
            let walled = cells.iter().any(|&c| !map.grid.is_passable(c));
            let wall = if walled { ", crosses a wall" } else { "" };
            return format!("Straight: {steps} hex steps{wall}");
        }
        let segment = Segment::between_centres(self.from, self.to);
        let length = segment.length();
        let cost = match segment.cost(&map.grid) {
            Some(cost) => format!("cost {cost:.2}"),
            None => "crosses a wall".to_owned(),
        };
        let metres = map.metadata.as_ref().map_or(String::new(), |m| {
            format!(" ({:.2} m)", length * m.resolution)
        });
        format!("Straight: {length:.2} cells{metres}, {cost}")
    }
}

/// A length as the ruler says it, in the map's own unit: hex steps on a hex map (where every
/// step between neighbours is one), cells between centres on squares.
pub fn length_text(topology: Topology, length: f64) -> String {
    if topology.has_diagonals() {
        format!("{length:.2} cells")
    } else {
        format!("{length:.0} hex steps")
    }
}

/// The pointer's state in one frame, read once.
struct Pointer {
    pos: Option<Pos2>,
    pressed: bool,
    down: bool,
    middle_pressed: bool,
    secondary_pressed: bool,
    secondary_down: bool,
    any_down: bool,
    delta: Vec2,
    space: bool,
    alt: bool,
    shift: bool,
    scroll: f32,
    zoom: f32,
}

/// The pointer's work on the canvas.
#[derive(Default)]
pub struct CanvasInput {
    gesture: Option<Gesture>,
    hovered: Option<Cell>,
    /// Where the pointer is over the canvas, for the brush outline.
    pointer: Option<Pos2>,
    /// Whether the space bar is held over the canvas (the hand cursor).
    panning_key: bool,
    /// The cell of the last right-click on the map, for its menu.
    context_cell: Option<Cell>,
    /// The ruler's last measurement.
    measured: Option<Measurement>,
}

impl CanvasInput {
    /// The map cell under the pointer.
    pub fn hovered(&self) -> Option<Cell> {
        self.hovered
    }

    /// Whether no drag is under way (undo waits for the end of a stroke).
    pub fn is_idle(&self) -> bool {
        self.gesture.is_none()
    }

    /// The ruler's last measurement.
    pub fn measurement(&self) -> Option<&Measurement> {
        self.measured.as_ref()
    }

    /// Gives the ruler's measurement the cheapest path found between its ends.
    pub fn set_measured_path(&mut self, text: String) {
        if let Some(measured) = &mut self.measured {
            measured.path = Some(text);
        }
    }

    /// Whether a marker is being dragged.
    pub fn is_dragging_marker(&self) -> bool {
        matches!(self.gesture, Some(Gesture::Marker(_)))
    }

    /// Drops the gesture under way (the map was replaced).
    pub fn reset(&mut self) {
        self.gesture = None;
    }

    /// Takes the canvas's area of `ui` and the pointer's work in it: zooms and pans `canvas`,
    /// paints strokes onto `map`, and returns the painter to draw the map with and what the
    /// editor must do. `accepts_input` is false while a modal dialog is open; `order` is the
    /// route's stops in the order visited, which numbers the waypoints in the map's menu.
    pub fn ui(
        &mut self,
        ui: &mut Ui,
        canvas: &mut Canvas,
        map: &mut Map,
        tools: &ToolSettings,
        accepts_input: bool,
        order: Option<&[Cell]>,
    ) -> (Painter, Vec<CanvasIntent>) {
        let (rect, response) = ui.allocate_exact_size(ui.available_size(), Sense::click_and_drag());
        response.widget_info(|| egui::WidgetInfo::labeled(egui::Role::Canvas, true, "Map canvas"));
        canvas.set_rect(rect, &map.grid);
        let pointer = ui.input(|i| Pointer {
            pos: i.pointer.latest_pos(),
            pressed: i.pointer.primary_pressed(),
            down: i.pointer.primary_down(),
            middle_pressed: i.pointer.button_pressed(egui::PointerButton::Middle),
            secondary_pressed: i.pointer.secondary_pressed(),
            secondary_down: i.pointer.secondary_down(),
            any_down: i.pointer.any_down(),
            delta: i.pointer.delta(),
            space: i.key_down(egui::Key::Space),
            alt: i.modifiers.alt,
            shift: i.modifiers.shift,
            scroll: i.smooth_scroll_delta.y,
            zoom: i.zoom_delta(),
        });
        let over = response.hovered() && pointer.pos.is_some_and(|p| rect.contains(p));
        self.pointer = pointer.pos.filter(|_| over);
        self.panning_key = over && pointer.space;
        self.hovered = self.pointer.and_then(|p| canvas.grid_cell_at(p, &map.grid));
        if let Some(pos) = self.pointer {
            // A wheel notch (50 points) zooms by about 1.5×.
            let factor = pointer.zoom * (pointer.scroll / 120.0).exp();
            if (factor - 1.0).abs() > 1e-4 {
                canvas.zoom_by(factor, pos);
            }
        }
        let mut intents = Vec::new();
        if self.gesture.is_none() && over && accepts_input {
            self.begin_gesture(&pointer, canvas, map, tools, &mut intents);
        }
        if self.gesture.is_some() {
            self.continue_gesture(&pointer, canvas, map, tools, &mut intents);
        }
        self.context_menu(&response, map, order, &mut intents);
        if matches!(self.gesture, Some(Gesture::Pan)) || self.panning_key {
            ui.ctx().set_cursor_icon(egui::CursorIcon::Grab);
        }
        (ui.painter_at(rect), intents)
    }

    fn begin_gesture(
        &mut self,
        p: &Pointer,
        canvas: &mut Canvas,
        map: &mut Map,
        tools: &ToolSettings,
        intents: &mut Vec<CanvasIntent>,
    ) {
        let Some(pos) = p.pos else { return };
        if p.middle_pressed || (p.pressed && p.space) {
            self.gesture = Some(Gesture::Pan);
            return;
        }
        if p.secondary_pressed {
            // A right-drag zooms into its box; a right-click (no drag) opens the menu.
            self.gesture = Some(Gesture::ZoomBox { from: pos, to: pos });
            return;
        }
        if !p.pressed {
            return;
        }
        if let Some(point) = canvas.cell_from_minimap(&map.grid, pos)
            && canvas
                .minimap_rect(&map.grid)
                .is_some_and(|r| r.contains(pos))
        {
            canvas.center_on(point);
            self.gesture = Some(Gesture::Minimap);
            return;
        }
        let grid = &map.grid;
        let Some(cell) = canvas.grid_cell_at(pos, grid) else {
            return;
        };
        if p.alt || tools.tool == Tool::Eyedropper {
            if let Some(id) = grid.get(cell) {
                intents.push(CanvasIntent::Pick(id));
            }
            return;
        }
        if let Some(marker) = marker_at(canvas, map, pos) {
            self.gesture = Some(Gesture::Marker(marker));
            return;
        }
        if tools.tool.sculpts() {
            let sculpt = match tools.tool {
                Tool::Raise => Sculpt::Raise(tools.height_step),
                Tool::Lower => Sculpt::Lower(tools.height_step),
                _ => Sculpt::Flatten,
            };
            let mut stroke = HeightStroke::new(sculpt, grid, cell);
            let (w, h) = (grid.width(), grid.height());
            let cells = tools::brush_on(
                grid.topology(),
                cell,
                tools.brush_size,
                tools.brush_tip,
                w,
                h,
            );
            let redraw = stroke
                .apply(&mut map.grid, &cells)
                .map_or(Redraw::All, Redraw::Cells);
            canvas.redraw(redraw);
            self.gesture = Some(Gesture::Sculpt(stroke));
            return;
        }
        let terrain = if tools.tool == Tool::Eraser {
            0
        } else {
            tools.active
        };
        self.gesture = match tools.tool {
            Tool::Brush | Tool::Eraser if p.shift => Some(Gesture::Line {
                from: cell,
                to: cell,
                terrain,
            }),
            Tool::Brush | Tool::Eraser => {
                let mut stroke = BrushStroke::new(terrain, cell);
                let (w, h) = (grid.width(), grid.height());
                let topology = grid.topology();
                let cells =
                    tools::brush_on(topology, cell, tools.brush_size, tools.brush_tip, w, h);
                let region = stroke.paint(&mut map.grid, &cells);
                canvas.redraw(Redraw::Cells(region));
                Some(Gesture::Paint(stroke))
            }
            Tool::Line => Some(Gesture::Line {
                from: cell,
                to: cell,
                terrain,
            }),
            Tool::Rectangle => Some(Gesture::Rectangle {
                from: cell,
                to: cell,
            }),
            Tool::Fill => {
                let region = tools::flood_fill(grid, cell);
                if let Some(edit) = Edit::paint(&mut map.grid, &region, tools.active) {
                    intents.push(CanvasIntent::Edit(edit));
                }
                None
            }
            Tool::Start | Tool::Goal => {
                let marker = if tools.tool == Tool::Start {
                    Marker::Start
                } else {
                    Marker::Goal
                };
                intents.push(CanvasIntent::SetMarker(marker, cell));
                grid.is_passable(cell).then_some(Gesture::Marker(marker))
            }
            Tool::Measure => {
                self.measured = None;
                Some(Gesture::Measure {
                    from: cell,
                    to: cell,
                })
            }
            Tool::Agents => Some(Gesture::Agent {
                from: cell,
                to: cell,
            }),
            Tool::Eyedropper | Tool::Raise | Tool::Lower | Tool::Flatten => None,
        };
    }

    fn continue_gesture(
        &mut self,
        p: &Pointer,
        canvas: &mut Canvas,
        map: &mut Map,
        tools: &ToolSettings,
        intents: &mut Vec<CanvasIntent>,
    ) {
        let grid = &map.grid;
        let cell = p.pos.map(|pos| canvas.clamped_cell_at(pos, grid));
        match &mut self.gesture {
            Some(Gesture::Pan) => canvas.pan(p.delta),
            Some(Gesture::ZoomBox { .. }) => {}
            Some(Gesture::Minimap) => {
                if let Some(point) = p.pos.and_then(|pos| canvas.cell_from_minimap(grid, pos)) {
                    canvas.center_on(point);
                }
            }
            Some(Gesture::Paint(stroke)) => {
                if let Some(cell) = cell
                    && cell != stroke.last()
                {
                    let cells = brush_segment(tools, grid, stroke.last(), cell);
                    let region = stroke.paint(&mut map.grid, &cells);
                    stroke.move_to(cell);
                    canvas.redraw(Redraw::Cells(region));
                }
            }
            Some(Gesture::Sculpt(stroke)) => {
                if let Some(cell) = cell
                    && cell != stroke.last()
                {
                    let cells = brush_segment(tools, grid, stroke.last(), cell);
                    let redraw = stroke
                        .apply(&mut map.grid, &cells)
                        .map_or(Redraw::All, Redraw::Cells);
                    stroke.move_to(cell);
                    canvas.redraw(redraw);
                }
            }
            Some(
                Gesture::Line { to, .. }
                | Gesture::Rectangle { to, .. }
                | Gesture::Measure { to, .. }
                | Gesture::Agent { to, .. },
            ) => {
                if let Some(cell) = cell {
                    *to = cell;
                }
            }
            Some(Gesture::Marker(marker)) => {
                if let Some(cell) = cell
                    && grid.is_passable(cell)
                {
                    intents.push(CanvasIntent::MoveMarker(*marker, cell));
                }
            }
            None => {}
        }
        if let (Some(Gesture::ZoomBox { to, .. }), Some(pos)) = (&mut self.gesture, p.pos) {
            *to = pos;
        }
        let still = match self.gesture {
            Some(Gesture::Pan) => p.any_down,
            Some(Gesture::ZoomBox { .. }) => p.secondary_down,
            _ => p.down,
        };
        if !still && let Some(Gesture::ZoomBox { from, to }) = self.gesture {
            let dragged = (to - from).abs();
            if dragged.x >= ZOOM_BOX_MIN && dragged.y >= ZOOM_BOX_MIN {
                let a = canvas.cell_from_screen(from);
                let b = canvas.cell_from_screen(to);
                canvas.zoom_to_cells(a.min(b), a.max(b));
            }
        }
        if !still {
            self.end_gesture(map, tools, intents);
        }
    }

    fn end_gesture(
        &mut self,
        map: &mut Map,
        tools: &ToolSettings,
        intents: &mut Vec<CanvasIntent>,
    ) {
        let Some(gesture) = self.gesture.take() else {
            return;
        };
        let grid = &mut map.grid;
        let (w, h) = (grid.width(), grid.height());
        let edit = match gesture {
            Gesture::Paint(stroke) => stroke.finish(grid),
            Gesture::Sculpt(stroke) => stroke.finish(grid),
            Gesture::Line { from, to, terrain } => {
                let (size, tip) = (tools.brush_size, tools.brush_tip);
                let cells = tools::brush_line_on(grid.topology(), from, to, size, tip, w, h);
                Edit::paint(grid, &indices(w, &cells), terrain)
            }
            Gesture::Rectangle { from, to } => {
                let cells = tools::rectangle(from, to, tools.filled, w, h);
                Edit::paint(grid, &indices(w, &cells), tools.active)
            }
            Gesture::Measure { from, to } => {
                self.measured = Some(Measurement {
                    from,
                    to,
                    path: None,
                });
                intents.push(CanvasIntent::Measured(from, to));
                None
            }
            Gesture::Agent { from, to } => {
                intents.push(if from == to {
                    CanvasIntent::PickAgent(from)
                } else {
                    CanvasIntent::AddAgent(from, to)
                });
                None
            }
            Gesture::Marker(_) | Gesture::Pan | Gesture::Minimap | Gesture::ZoomBox { .. } => None,
        };
        if let Some(edit) = edit {
            intents.push(CanvasIntent::Edit(edit));
        }
    }

    /// The menu of a right-click on the map: put the start, the goal or a waypoint on the
    /// cell clicked, or remove waypoints.
    fn context_menu(
        &mut self,
        response: &Response,
        map: &Map,
        order: Option<&[Cell]>,
        intents: &mut Vec<CanvasIntent>,
    ) {
        let labels = waypoint_labels(map, order);
        if response.secondary_clicked() {
            self.context_cell = self.hovered;
        }
        let context_cell = self.context_cell;
        response.context_menu(|ui| {
            let Some(cell) = context_cell else {
                ui.close();
                return;
            };
            ui.label(RichText::new(format!("Cell {cell}")).weak());
            if ui.button("Set start here").clicked() {
                intents.push(CanvasIntent::SetMarker(Marker::Start, cell));
                ui.close();
            }
            if ui.button("Set goal here").clicked() {
                intents.push(CanvasIntent::SetMarker(Marker::Goal, cell));
                ui.close();
            }
            ui.separator();
            match map.waypoints.iter().position(|&w| w == cell) {
                Some(i) => {
                    let label = labels.get(i).map_or("", String::as_str);
                    if ui.button(format!("Remove waypoint {label}")).clicked() {
                        intents.push(CanvasIntent::RemoveWaypoint(i));
                        ui.close();
                    }
                }
                None => {
                    if ui.button("Add waypoint here").clicked() {
                        intents.push(CanvasIntent::AddWaypoint(cell));
                        ui.close();
                    }
                }
            }
            if !map.waypoints.is_empty() && ui.button("Clear waypoints").clicked() {
                intents.push(CanvasIntent::ClearWaypoints);
                ui.close();
            }
        });
    }

    /// Draws what lies over the map and the search: the outline of the shape being dragged
    /// or of the brush under the pointer, and the markers.
    /// `order` is the route's stops in the order visited, when the path is a route: the
    /// waypoints are numbered in that order. `markers` is false while the team is shown: the
    /// single path's markers would cover its units.
    pub fn paint_over(
        &self,
        painter: &Painter,
        canvas: &Canvas,
        map: &Map,
        tools: &ToolSettings,
        order: Option<&[Cell]>,
        markers: bool,
    ) {
        self.paint_preview(painter, canvas, map, tools);
        if markers {
            paint_markers(painter, canvas, map, order);
        }
        let ruler = match &self.gesture {
            Some(Gesture::Measure { from, to }) => Some(Measurement {
                from: *from,
                to: *to,
                path: None,
            }),
            _ => self.measured.clone(),
        };
        if let Some(ruler) = ruler {
            paint_ruler(painter, canvas, map, &ruler);
        }
    }

    /// The outline of the shape being dragged, or of the brush under the pointer.
    fn paint_preview(&self, painter: &Painter, canvas: &Canvas, map: &Map, tools: &ToolSettings) {
        let outline = Stroke::new(1.5, Color32::WHITE);
        let shadow = Stroke::new(3.0, Color32::from_black_alpha(120));
        // The box around the cells of the rectangle's four corners (on hexes, its offset
        // rows and columns).
        let cell_rect = |a: Cell, b: Cell| {
            let corners = [a, b, Cell::new(a.x, b.y), Cell::new(b.x, a.y)];
            let points: Vec<Pos2> = corners
                .into_iter()
                .flat_map(|c| canvas.cell_outline(c))
                .collect();
            Rect::from_points(&points)
        };
        match &self.gesture {
            Some(Gesture::ZoomBox { from, to }) => {
                let rect = Rect::from_two_pos(*from, *to);
                painter.rect_filled(rect, 0.0, Color32::from_white_alpha(24));
                for stroke in [shadow, outline] {
                    painter.rect_stroke(rect, 0.0, stroke, egui::StrokeKind::Middle);
                }
            }
            Some(Gesture::Rectangle { from, to }) => {
                let rect = cell_rect(*from, *to);
                for stroke in [shadow, outline] {
                    painter.rect_stroke(rect, 0.0, stroke, egui::StrokeKind::Middle);
                }
            }
            Some(Gesture::Agent { from, to }) if from != to => {
                let a = canvas.screen_from_cell_center(*from);
                let b = canvas.screen_from_cell_center(*to);
                let radius = (0.38 * canvas.zoom()).max(3.0);
                painter.arrow(a, b - a, Stroke::new(3.0, Color32::from_black_alpha(120)));
                painter.arrow(a, b - a, outline);
                painter.circle_stroke(a, radius, outline);
                painter.circle_stroke(b, radius, outline);
            }
            Some(Gesture::Line { from, to, .. }) => {
                let a = canvas.screen_from_cell_center(*from);
                let b = canvas.screen_from_cell_center(*to);
                let width = (tools.brush_size as f32 * canvas.zoom()).max(1.5);
                let colour = map
                    .grid
                    .terrains()
                    .get(usize::from(tools.active))
                    .map_or(Color32::GRAY, |t| color_of(t.color))
                    .gamma_multiply(0.7);
                painter.line_segment([a, b], Stroke::new(width, colour));
                painter.line_segment([a, b], outline);
            }
            _ => {
                let Some(pos) = self.pointer else { return };
                let other_gesture =
                    self.gesture.is_some() && !matches!(self.gesture, Some(Gesture::Paint(_)));
                if !tools.tool.uses_brush() || other_gesture {
                    return;
                }
                let Some(cell) = canvas.grid_cell_at(pos, &map.grid) else {
                    return;
                };
                let at =
                    |(x, y): (f64, f64)| canvas.screen_from_cell(Pos2::new(x as f32, y as f32));
                let rect = match map.grid.topology().brush_outline(cell, tools.brush_size) {
                    Outline::Disc { centre, radius } => {
                        // The hexes within size − 1 steps: the disc around them.
                        let radius = radius as f32 * canvas.zoom();
                        painter.circle_stroke(at(centre), radius, outline);
                        return;
                    }
                    Outline::Rect { min, max } => Rect::from_min_max(at(min), at(max)),
                };
                if tools.brush_tip == BrushTip::Round && tools.brush_size > 2 {
                    painter.circle_stroke(rect.center(), rect.width() / 2.0, outline);
                } else {
                    painter.rect_stroke(rect, 0.0, outline, egui::StrokeKind::Middle);
                }
            }
        }
    }
}

/// The ruler's line, with what it measured beside its end.
fn paint_ruler(painter: &Painter, canvas: &Canvas, map: &Map, ruler: &Measurement) {
    let a = canvas.screen_from_cell_center(ruler.from);
    let b = canvas.screen_from_cell_center(ruler.to);
    painter.line_segment([a, b], Stroke::new(4.0, Color32::from_black_alpha(140)));
    painter.line_segment([a, b], Stroke::new(2.0, Color32::from_rgb(255, 230, 90)));
    for end in [a, b] {
        painter.circle_filled(end, 3.5, Color32::from_rgb(255, 230, 90));
    }
    let mut text = ruler.straight_text(map);
    if let Some(path) = &ruler.path {
        text.push('\n');
        text.push_str(path);
    }
    let font = FontId::proportional(13.0);
    let galley = painter.layout_no_wrap(text, font, Color32::from_gray(240));
    // Beside the end, kept inside the canvas.
    let room = canvas.rect().shrink(8.0);
    let size = galley.size();
    let mut at = b + Vec2::new(12.0, 8.0);
    at.x = at.x.min(room.right() - size.x).max(room.left());
    at.y = at.y.min(room.bottom() - size.y).max(room.top());
    let band = Rect::from_min_size(at, size).expand2(Vec2::new(6.0, 3.0));
    painter.rect_filled(band, 4.0, Color32::from_black_alpha(190));
    painter.galley(at, galley, Color32::from_gray(240));
}

/// The cells the brush covers moving from `from` to `to`.
fn brush_segment(
    tools: &ToolSettings,
    grid: &crate::grid::Grid,
    from: Cell,
    to: Cell,
) -> Vec<Cell> {
    let (w, h) = (grid.width(), grid.height());
    let (size, tip) = (tools.brush_size, tools.brush_tip);
    tools::brush_line_on(grid.topology(), from, to, size, tip, w, h)
}

fn marker_radius(canvas: &Canvas) -> f32 {
    (canvas.zoom() * 0.6).clamp(7.0, 16.0)
}

/// The marker drawn under a screen position.
fn marker_at(canvas: &Canvas, map: &Map, pos: Pos2) -> Option<Marker> {
    let reach = marker_radius(canvas) + 3.0;
    let waypoints = map
        .waypoints
        .iter()
        .enumerate()
        .rev()
        .map(|(i, &c)| (Marker::Waypoint(i), Some(c)));
    [(Marker::Goal, map.goal), (Marker::Start, map.start)]
        .into_iter()
        .chain(waypoints)
        .filter_map(|(m, cell)| Some((m, canvas.screen_from_cell_center(cell?))))
        .find(|(_, centre)| centre.distance(pos) <= reach)
        .map(|(m, _)| m)
}

/// The number on each waypoint's marker: its place in the route's order of visits (`order`,
/// start first), or, with no route planned, in the map's list.
pub fn waypoint_labels(map: &Map, order: Option<&[Cell]>) -> Vec<String> {
    let visits = order.map_or(&[][..], |o| o.get(1..).unwrap_or(&[]));
    map.waypoints
        .iter()
        .enumerate()
        .map(|(i, cell)| {
            let place = visits.iter().position(|c| c == cell).unwrap_or(i);
            (place + 1).to_string()
        })
        .collect()
}

fn paint_markers(painter: &Painter, canvas: &Canvas, map: &Map, order: Option<&[Cell]>) {
    let radius = marker_radius(canvas);
    let numbers = waypoint_labels(map, order);
    let waypoints = map
        .waypoints
        .iter()
        .zip(&numbers)
        .map(|(&c, n)| (Some(c), Color32::from_rgb(235, 160, 30), n.as_str()));
    let markers = waypoints.chain([
        (map.start, Color32::from_rgb(40, 200, 90), "S"),
        (map.goal, Color32::from_rgb(230, 60, 60), "G"),
    ]);
    for (cell, colour, letter) in markers {
        let Some(cell) = cell else { continue };
        let centre = canvas.screen_from_cell_center(cell);
        painter.circle(centre, radius, colour, Stroke::new(2.0, Color32::WHITE));
        painter.text(
            centre,
            Align2::CENTER_CENTER,
            letter,
            FontId::proportional(radius * 1.1),
            Color32::WHITE,
        );
    }
}

fn indices(width: u32, cells: &[Cell]) -> Vec<u32> {
    cells.iter().map(|c| c.y * width + c.x).collect()
}
