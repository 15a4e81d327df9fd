//! What the pointer does on the canvas: painting, shapes, dragging markers, panning and
//! zooming; and what is drawn over the map (path, markers, tool previews).

use egui::{Align2, Color32, FontId, Painter, Pos2, Rect, RichText, Sense, Stroke, Ui, Vec2};

use crate::grid::{Cell, TerrainId};

use super::app::EditorApp;
use super::edit::{Edit, Redraw};
use super::gesture::{Gesture, Marker};
use super::stroke::Stroke as BrushStroke;
use super::tools::{self, BrushTip, Tool};

/// The pointer's state in one frame, read once.
struct Pointer {
    pos: Option<Pos2>,
    pressed: bool,
    down: bool,
    middle_pressed: bool,
    any_down: bool,
    delta: Vec2,
    space: bool,
    alt: bool,
    shift: bool,
    scroll: f32,
    zoom: f32,
}

impl EditorApp {
    /// The canvas: the map, what lies over it, and the pointer's work on it.
    pub(super) fn canvas_ui(&mut self, ui: &mut Ui) {
        let (rect, response) = ui.allocate_exact_size(ui.available_size(), Sense::click_and_drag());
        response.widget_info(|| egui::WidgetInfo::labeled(egui::Role::Canvas, true, "Map canvas"));
        self.canvas.set_rect(rect, &self.document.map.grid);
        let pointer = ui.input(|i| Pointer {
            pos: i.pointer.latest_pos(),
            pressed: i.pointer.primary_pressed(),
            down: i.pointer.primary_down(),
            middle_pressed: i.pointer.button_pressed(egui::PointerButton::Middle),
            any_down: i.pointer.any_down(),
            delta: i.pointer.delta(),
            space: i.key_down(egui::Key::Space),
            alt: i.modifiers.alt,
            shift: i.modifiers.shift,
            scroll: i.smooth_scroll_delta.y,
            zoom: i.zoom_delta(),
        });
        let over = response.hovered() && pointer.pos.is_some_and(|p| rect.contains(p));
        self.hovered = pointer
            .pos
            .filter(|_| over)
            .and_then(|p| self.canvas.grid_cell_at(p, &self.document.map.grid));
        if over && let Some(pos) = pointer.pos {
            let factor = pointer.zoom * (pointer.scroll / 300.0).exp();
            if (factor - 1.0).abs() > 1e-4 {
                self.canvas.zoom_by(factor, pos);
            }
        }
        if self.gesture.is_none() && over && self.dialog.is_none() {
            self.begin_gesture(&pointer);
        }
        if self.gesture.is_some() {
            self.continue_gesture(&pointer);
        }
        if response.secondary_clicked() {
            self.context_cell = self.hovered;
        }
        response.context_menu(|ui| self.context_menu_ui(ui));
        self.canvas.sync_texture(ui.ctx(), &self.document.map.grid);
        let painter = ui.painter_at(rect);
        self.canvas
            .paint(&painter, &self.document.map.grid, self.grid_lines);
        self.view.paint(
            ui.ctx(),
            &painter,
            &self.planner,
            &self.canvas,
            &self.document.map.grid,
        );
        self.paint_preview(&painter, if over { pointer.pos } else { None });
        self.paint_markers(&painter);
        if matches!(self.gesture, Some(Gesture::Pan)) || (over && pointer.space) {
            ui.ctx().set_cursor_icon(egui::CursorIcon::Grab);
        }
    }

    fn begin_gesture(&mut self, p: &Pointer) {
        let Some(pos) = p.pos else { return };
        if p.middle_pressed || (p.pressed && p.space) {
            self.gesture = Some(Gesture::Pan);
            return;
        }
        if !p.pressed {
            return;
        }
        let grid = &self.document.map.grid;
        let Some(cell) = self.canvas.grid_cell_at(pos, grid) else {
            return;
        };
        if p.alt || self.tool == Tool::Eyedropper {
            if let Some(id) = grid.get(cell) {
                let text = format!("Picked {}.", grid.terrain(id).name);
                self.active = id;
                self.say(text, false);
            }
            return;
        }
        if let Some(marker) = self.marker_at(pos) {
            self.gesture = Some(Gesture::Marker(marker));
            return;
        }
        let terrain = if self.tool == Tool::Eraser {
            0
        } else {
            self.active
        };
        self.gesture = match self.tool {
            Tool::Brush | Tool::Eraser if p.shift => Some(Gesture::Line {
                from: cell,
                to: cell,
                terrain,
            }),
            Tool::Brush | Tool::Eraser => {
                let mut stroke = BrushStroke::new(terrain, cell);
                let cells = tools::brush(
                    cell,
                    self.brush_size,
                    self.brush_tip,
                    grid.width(),
                    grid.height(),
                );
                let region = stroke.paint(&mut self.document.map.grid, &cells);
                self.canvas.redraw(Redraw::Cells(region));
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
                if let Some(edit) = Edit::paint(&mut self.document.map.grid, &region, self.active) {
                    self.apply_shape(edit);
                }
                None
            }
            Tool::Start => self
                .set_marker(Marker::Start, cell)
                .then_some(Gesture::Marker(Marker::Start)),
            Tool::Goal => self
                .set_marker(Marker::Goal, cell)
                .then_some(Gesture::Marker(Marker::Goal)),
            Tool::Eyedropper => None,
        };
    }

    fn continue_gesture(&mut self, p: &Pointer) {
        let grid = &self.document.map.grid;
        let cell = p.pos.map(|pos| self.canvas.clamped_cell_at(pos, grid));
        match &mut self.gesture {
            Some(Gesture::Pan) => self.canvas.pan(p.delta),
            Some(Gesture::Paint(stroke)) => {
                if let Some(cell) = cell
                    && cell != stroke.last()
                {
                    let (w, h) = (grid.width(), grid.height());
                    let cells = tools::brush_line(
                        stroke.last(),
                        cell,
                        self.brush_size,
                        self.brush_tip,
                        w,
                        h,
                    );
                    let region = stroke.paint(&mut self.document.map.grid, &cells);
                    stroke.move_to(cell);
                    self.canvas.redraw(Redraw::Cells(region));
                }
            }
            Some(Gesture::Line { to, .. } | Gesture::Rectangle { to, .. }) => {
                if let Some(cell) = cell {
                    *to = cell;
                }
            }
            Some(Gesture::Marker(marker)) => {
                let marker = *marker;
                if let Some(cell) = cell
                    && grid.is_passable(cell)
                {
                    self.place_marker(marker, cell);
                }
            }
            None => {}
        }
        let still = if matches!(self.gesture, Some(Gesture::Pan)) {
            p.any_down
        } else {
            p.down
        };
        if !still {
            self.end_gesture();
        }
    }

    fn end_gesture(&mut self) {
        let Some(gesture) = self.gesture.take() else {
            return;
        };
        let grid = &mut self.document.map.grid;
        let (w, h) = (grid.width(), grid.height());
        let edit = match gesture {
            Gesture::Paint(stroke) => stroke.finish(grid),
            Gesture::Line { from, to, terrain } => {
                let cells = tools::brush_line(from, to, self.brush_size, self.brush_tip, w, h);
                let indices = indices(grid.width(), &cells);
                Edit::paint(grid, &indices, terrain)
            }
            Gesture::Rectangle { from, to } => {
                let cells = tools::rectangle(from, to, self.filled, w, h);
                let indices = indices(grid.width(), &cells);
                Edit::paint(grid, &indices, self.active)
            }
            Gesture::Marker(_) | Gesture::Pan => None,
        };
        if let Some(edit) = edit {
            self.apply_shape(edit);
        }
    }

    /// Redraws the cells of an edit that was just made and records it.
    fn apply_shape(&mut self, edit: Edit) {
        if let Edit::Cells(changes) = &edit {
            let mut region = super::region::Region::EMPTY;
            for change in changes {
                region.include(self.document.map.grid.cell_at(change.index as usize));
            }
            self.canvas.redraw(Redraw::Cells(region));
        }
        self.commit(edit);
    }

    /// Puts a marker on a cell the user chose; a cell that is off the map or impassable is
    /// refused with a message. Returns whether the marker is there.
    pub(super) fn set_marker(&mut self, marker: Marker, cell: Cell) -> bool {
        let grid = &self.document.map.grid;
        let what = match marker {
            Marker::Start => "start",
            Marker::Goal => "goal",
        };
        match grid.get(cell) {
            Some(id) if !grid.terrain(id).is_passable() => {
                let text = format!(
                    "The {what} cannot go on {cell}: {} is impassable.",
                    grid.terrain(id).name
                );
                self.say(text, true);
                false
            }
            Some(_) => {
                self.place_marker(marker, cell);
                self.say(format!("The {what} is on {cell}."), false);
                true
            }
            None => false,
        }
    }

    /// The menu of a right-click on the map: put the start or the goal on the cell clicked.
    fn context_menu_ui(&mut self, ui: &mut Ui) {
        let Some(cell) = self.context_cell else {
            ui.close();
            return;
        };
        ui.label(RichText::new(format!("Cell {cell}")).weak());
        if ui.button("Set start here").clicked() {
            self.set_marker(Marker::Start, cell);
            ui.close();
        }
        if ui.button("Set goal here").clicked() {
            self.set_marker(Marker::Goal, cell);
            ui.close();
        }
    }

    fn place_marker(&mut self, marker: Marker, cell: Cell) {
        let map = &mut self.document.map;
        let slot = match marker {
            Marker::Start => &mut map.start,
            Marker::Goal => &mut map.goal,
        };
        if *slot != Some(cell) {
            *slot = Some(cell);
            self.document.dirty = true;
            self.replan();
        }
    }

    fn marker_radius(&self) -> f32 {
        (self.canvas.zoom() * 0.6).clamp(7.0, 16.0)
    }

    fn marker_at(&self, pos: Pos2) -> Option<Marker> {
        let map = &self.document.map;
        let reach = self.marker_radius() + 3.0;
        [(Marker::Goal, map.goal), (Marker::Start, map.start)]
            .into_iter()
            .filter_map(|(m, cell)| Some((m, self.canvas.screen_from_cell_center(cell?))))
            .find(|(_, centre)| centre.distance(pos) <= reach)
            .map(|(m, _)| m)
    }

    fn paint_markers(&self, painter: &Painter) {
        let map = &self.document.map;
        let radius = self.marker_radius();
        let markers = [
            (map.start, Color32::from_rgb(40, 200, 90), "S"),
            (map.goal, Color32::from_rgb(230, 60, 60), "G"),
        ];
        for (cell, colour, letter) in markers {
            let Some(cell) = cell else { continue };
            let centre = self.canvas.screen_from_cell_center(cell);
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

    /// The outline of the shape being dragged, or of the brush under the pointer.
    fn paint_preview(&self, painter: &Painter, pointer: Option<Pos2>) {
        let outline = Stroke::new(1.5, Color32::WHITE);
        let shadow = Stroke::new(3.0, Color32::from_black_alpha(120));
        let cell_rect = |a: Cell, b: Cell| {
            let min = Pos2::new(a.x.min(b.x) as f32, a.y.min(b.y) as f32);
            let max = Pos2::new(a.x.max(b.x) as f32 + 1.0, a.y.max(b.y) as f32 + 1.0);
            Rect::from_min_max(
                self.canvas.screen_from_cell(min),
                self.canvas.screen_from_cell(max),
            )
        };
        match &self.gesture {
            Some(Gesture::Rectangle { from, to }) => {
                let rect = cell_rect(*from, *to);
                for stroke in [shadow, outline] {
                    painter.rect_stroke(rect, 0.0, stroke, egui::StrokeKind::Middle);
                }
            }
            Some(Gesture::Line { from, to, .. }) => {
                let a = self.canvas.screen_from_cell_center(*from);
                let b = self.canvas.screen_from_cell_center(*to);
                let width = (self.brush_size as f32 * self.canvas.zoom()).max(1.5);
                let colour = self.terrain_colour(self.active).gamma_multiply(0.7);
                painter.line_segment([a, b], Stroke::new(width, colour));
                painter.line_segment([a, b], outline);
            }
            _ => {
                let Some(pos) = pointer else { return };
                let other_gesture =
                    self.gesture.is_some() && !matches!(self.gesture, Some(Gesture::Paint(_)));
                if !self.tool.uses_brush() || other_gesture {
                    return;
                }
                let Some(cell) = self.canvas.grid_cell_at(pos, &self.document.map.grid) else {
                    return;
                };
                let lo = -((self.brush_size as i64 - 1) / 2) as f32;
                let side = self.brush_size as f32;
                let min = Pos2::new(cell.x as f32 + lo, cell.y as f32 + lo);
                let rect = Rect::from_min_size(
                    self.canvas.screen_from_cell(min),
                    Vec2::splat(side * self.canvas.zoom()),
                );
                if self.brush_tip == BrushTip::Round && self.brush_size > 2 {
                    painter.circle_stroke(rect.center(), rect.width() / 2.0, outline);
                } else {
                    painter.rect_stroke(rect, 0.0, outline, egui::StrokeKind::Middle);
                }
            }
        }
    }

    fn terrain_colour(&self, id: TerrainId) -> Color32 {
        let grid = &self.document.map.grid;
        grid.terrains()
            .get(usize::from(id))
            .map_or(Color32::GRAY, |t| super::canvas::color_of(t.color))
    }
}

fn indices(width: u32, cells: &[Cell]) -> Vec<u32> {
    cells.iter().map(|c| c.y * width + c.x).collect()
}
