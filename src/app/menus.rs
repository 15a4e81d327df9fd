//! The bars around the canvas: menus, toolbar, status bar, and the search panel.

use egui::{Button, KeyboardShortcut, RichText, Ui};

use super::app::{
    EditorApp, FIT, LARGER_BRUSH, NEW, ONE_TO_ONE, OPEN, REDO, REDO_Y, SAVE, SAVE_AS,
    SMALLER_BRUSH, UNDO,
};
use super::dialog::{Dialog, Pending};
use super::palette::cost_text;
use super::resize::Anchor;
use super::tools::{BrushTip, MAX_BRUSH, Tool};

/// A menu entry with its shortcut shown; returns whether it was clicked.
fn item(ui: &mut Ui, text: &str, shortcut: Option<&KeyboardShortcut>, enabled: bool) -> bool {
    let mut button = Button::new(text);
    if let Some(shortcut) = shortcut {
        button = button.shortcut_text(ui.ctx().format_shortcut(shortcut));
    }
    ui.add_enabled(enabled, button).clicked()
}

impl EditorApp {
    /// The menu bar: File, Edit, View, Tools.
    pub(super) fn menu_ui(&mut self, ui: &mut Ui) {
        let ctx = ui.ctx().clone();
        ui.menu_button("File", |ui| self.file_menu_ui(ui));
        ui.menu_button("Edit", |ui| {
            if item(ui, "Undo", Some(&UNDO), self.history.can_undo()) {
                self.undo();
            }
            let redo = format!("Redo ({})", ctx.format_shortcut(&REDO_Y));
            if item(ui, &redo, Some(&REDO), self.history.can_redo()) {
                self.redo();
            }
            ui.separator();
            if item(ui, "Resize map…", None, true) {
                let grid = &self.document.map.grid;
                self.dialog = Some(Dialog::Resize {
                    width: grid.width(),
                    height: grid.height(),
                    anchor: Anchor::TopLeft,
                });
            }
        });
        ui.menu_button("View", |ui| {
            if item(ui, "Fit map", Some(&FIT), true) {
                self.fit_map();
            }
            if item(ui, "1:1", Some(&ONE_TO_ONE), true) {
                self.canvas.one_to_one();
            }
            ui.checkbox(&mut self.grid_lines, "Grid lines when zoomed in");
        });
        ui.menu_button("Tools", |ui| {
            for tool in Tool::ALL {
                if item(ui, tool.name(), Some(&tool.shortcut()), true) {
                    self.select_tool(tool);
                }
            }
            ui.separator();
            if item(
                ui,
                "Smaller brush",
                Some(&SMALLER_BRUSH),
                self.tools.brush_size > 1,
            ) {
                self.change_brush(-1);
            }
            if item(
                ui,
                "Larger brush",
                Some(&LARGER_BRUSH),
                self.tools.brush_size < MAX_BRUSH,
            ) {
                self.change_brush(1);
            }
        });
    }

    /// The File menu: new, open, recent files, save, import, export, quit.
    fn file_menu_ui(&mut self, ui: &mut Ui) {
        let ctx = ui.ctx().clone();
        if item(ui, "New…", Some(&NEW), true) {
            self.guard(&ctx, Pending::NewMap);
        }
        if item(ui, "Open…", Some(&OPEN), true) {
            self.open_dialog();
        }
        let recent = self.recent_files().to_vec();
        ui.add_enabled_ui(!recent.is_empty(), |ui| {
            ui.menu_button("Open recent", |ui| {
                for path in &recent {
                    let name = path.file_name().map_or_else(
                        || path.display().to_string(),
                        |n| n.to_string_lossy().into_owned(),
                    );
                    let clicked = ui
                        .button(name)
                        .on_hover_text(path.display().to_string())
                        .clicked();
                    if clicked {
                        self.open_file(&ctx, path);
                    }
                }
                ui.separator();
                if ui.button("Clear recent files").clicked() {
                    self.preferences.recent.clear();
                }
            });
        });
        ui.separator();
        if item(ui, "Save", Some(&SAVE), true) {
            self.save_then(ui.ctx(), None);
        }
        if item(ui, "Save as…", Some(&SAVE_AS), true) {
            self.save_as_then(None);
        }
        ui.separator();
        if item(ui, "Import image…", None, true) {
            self.import_image_dialog();
        }
        if item(ui, "Import Moving AI map…", None, true) {
            self.import_movingai_dialog();
        }
        if item(ui, "Import Tiled or LDtk level…", None, true) {
            self.import_level_dialog();
        }
        ui.separator();
        if item(ui, "Export Moving AI map…", None, true) {
            self.export_map_dialog("Moving AI map", "map");
        }
        if item(ui, "Export Tiled map…", None, true) {
            self.export_map_dialog("Tiled map", "tmj");
        }
        if item(ui, "Export PNG…", None, true) {
            self.export_map_dialog("PNG image", "png");
        }
        let has_path = self.search_result().is_some();
        if item(ui, "Export path…", None, has_path) {
            self.export_path_dialog();
        }
        ui.separator();
        if item(ui, "Quit", None, true) {
            self.guard(&ctx, Pending::Quit);
        }
    }

    /// The toolbar: tools, brush settings and view commands.
    pub(super) fn toolbar_ui(&mut self, ui: &mut Ui) {
        ui.horizontal_wrapped(|ui| {
            for tool in Tool::ALL {
                let key = ui.ctx().format_shortcut(&tool.shortcut());
                let selected = self.tools.tool == tool;
                let text = RichText::new(tool.name());
                let text = if selected { text.strong() } else { text };
                if ui
                    .add(Button::selectable(selected, text))
                    .on_hover_text(format!("{} ({key}): {}", tool.name(), tool.about()))
                    .clicked()
                {
                    self.select_tool(tool);
                }
            }
            ui.separator();
            let enabled = self.tools.tool.uses_brush();
            ui.add_enabled_ui(enabled, |ui| {
                ui.add(
                    egui::Slider::new(&mut self.tools.brush_size, 1..=MAX_BRUSH).text("Brush size"),
                )
                .on_hover_text(format!(
                    "Brush size in cells ({} smaller, {} larger)",
                    ui.ctx().format_shortcut(&SMALLER_BRUSH),
                    ui.ctx().format_shortcut(&LARGER_BRUSH)
                ));
                ui.selectable_value(&mut self.tools.brush_tip, BrushTip::Round, "Round")
                    .on_hover_text("Round brush tip");
                ui.selectable_value(&mut self.tools.brush_tip, BrushTip::Square, "Square")
                    .on_hover_text("Square brush tip");
            });
            ui.add_enabled_ui(self.tools.tool == Tool::Rectangle, |ui| {
                ui.checkbox(&mut self.tools.filled, "Filled")
                    .on_hover_text("Rectangles are filled (on) or outlined (off)");
            });
            ui.separator();
            if ui
                .button("Fit map")
                .on_hover_text(format!(
                    "Show the whole map ({})",
                    ui.ctx().format_shortcut(&FIT)
                ))
                .clicked()
            {
                self.fit_map();
            }
            if ui
                .button("1:1")
                .on_hover_text(format!(
                    "One cell per screen point ({})",
                    ui.ctx().format_shortcut(&ONE_TO_ONE)
                ))
                .clicked()
            {
                self.canvas.one_to_one();
            }
        });
    }

    /// The status bar: the cell under the pointer, zoom, map size and the latest message.
    pub(super) fn status_ui(&mut self, ui: &mut Ui) {
        ui.horizontal(|ui| {
            let grid = &self.document.map.grid;
            match self.input.hovered().and_then(|c| Some((c, grid.get(c)?))) {
                Some((cell, id)) => {
                    let terrain = grid.terrain(id);
                    ui.label(RichText::new(format!("{cell}")).monospace());
                    ui.label(format!("{} · cost {}", terrain.name, cost_text(terrain)));
                }
                None => {
                    ui.label(RichText::new("(–, –)").monospace());
                }
            }
            if let Some(inspected) = self
                .view
                .inspector_text(&self.planner, self.input.hovered())
            {
                ui.separator();
                ui.label(RichText::new(inspected).monospace());
            }
            ui.separator();
            ui.label(format!("Zoom {:.0}%", self.canvas.zoom() * 100.0));
            ui.separator();
            ui.label(format!("{} × {} cells", grid.width(), grid.height()));
            if let Some(notice) = &self.notice {
                ui.separator();
                if notice.error {
                    ui.colored_label(ui.visuals().error_fg_color, &notice.text);
                } else {
                    ui.label(&notice.text);
                }
            }
        });
    }
}
