//! The bars around the canvas: the menus, the toolbar and the status bar, drawn from what the
//! editor shows them and answering with what the user asked for.

use std::path::PathBuf;

use egui::{Button, RichText, Ui};

use crate::grid::{Cell, Grid};

use super::canvas::tools::{BrushTip, MAX_BRUSH, Tool, ToolSettings};
use super::commands::{self, Command};
use super::palette::cost_text;

/// What the menus show of the editor.
pub struct MenuState<'a> {
    /// Whether there is an edit to undo.
    pub can_undo: bool,
    /// Whether there is an edit to redo.
    pub can_redo: bool,
    /// The recent files, newest first.
    pub recent: &'a [PathBuf],
    /// Whether there is a path to export.
    pub has_path: bool,
    /// The brush's size.
    pub brush_size: u32,
}

/// What the user chose in the menus.
#[derive(Clone, Debug, PartialEq)]
pub enum MenuAction {
    /// A command.
    Command(Command),
    /// Open one of the recent files.
    OpenRecent(PathBuf),
    /// Forget the recent files.
    ClearRecent,
}

/// What the status bar shows.
pub struct StatusLine<'a> {
    /// The map.
    pub grid: &'a Grid,
    /// The cell under the pointer.
    pub hovered: Option<Cell>,
    /// The search's view of that cell (the inspector).
    pub inspected: Option<String>,
    /// The zoom, in screen points per cell.
    pub zoom: f32,
    /// Whether the map has unsaved changes.
    pub dirty: bool,
    /// The latest message, and whether it is an error.
    pub notice: Option<(&'a str, bool)>,
}

/// A menu entry of a command, named and with its shortcut as the table says; returns whether
/// it was clicked.
fn item(ui: &mut Ui, command: Command, enabled: bool, actions: &mut Vec<MenuAction>) {
    let name = commands::binding(command).map_or_else(|| fallback_name(command), |b| b.name);
    let mut button = Button::new(name);
    if let Some(shortcut) = commands::shortcut(command) {
        button = button.shortcut_text(commands::key_text(ui.ctx(), shortcut));
    }
    if ui.add_enabled(enabled, button).clicked() {
        actions.push(MenuAction::Command(command));
    }
}

/// The names of the commands that have no keys.
fn fallback_name(command: Command) -> &'static str {
    match command {
        Command::ImportImage => "Import image…",
        Command::ImportMovingAi => "Import Moving AI map…",
        Command::ImportHeights => "Import heights…",
        Command::ImportLevel => "Import Tiled or LDtk level…",
        Command::ExportMovingAi => "Export Moving AI map…",
        Command::ExportTiled => "Export Tiled map…",
        Command::ExportPng => "Export PNG…",
        Command::ExportPath => "Export path…",
        Command::Quit => "Quit",
        Command::ResizeMap => "Resize map…",
        _ => "",
    }
}

/// The menu bar: File, Edit, View, Tools, Help.
pub fn menu_bar_ui(ui: &mut Ui, state: &MenuState<'_>, grid_lines: &mut bool) -> Vec<MenuAction> {
    let mut actions = Vec::new();
    let a = &mut actions;
    ui.menu_button("File", |ui| file_menu_ui(ui, state, a));
    ui.menu_button("Edit", |ui| {
        item(ui, Command::Undo, state.can_undo, a);
        item(ui, Command::Redo, state.can_redo, a);
        ui.separator();
        item(ui, Command::ResizeMap, true, a);
    });
    ui.menu_button("View", |ui| {
        item(ui, Command::Fit, true, a);
        item(ui, Command::OneToOne, true, a);
        ui.checkbox(grid_lines, "Grid lines when zoomed in");
    });
    ui.menu_button("Tools", |ui| {
        for tool in Tool::ALL {
            item(ui, Command::Tool(tool), true, a);
        }
        ui.separator();
        item(ui, Command::SmallerBrush, state.brush_size > 1, a);
        item(ui, Command::LargerBrush, state.brush_size < MAX_BRUSH, a);
    });
    ui.menu_button("Help", |ui| item(ui, Command::Shortcuts, true, a));
    actions
}

/// The File menu: new, open, recent files, save, import, export, quit.
fn file_menu_ui(ui: &mut Ui, state: &MenuState<'_>, a: &mut Vec<MenuAction>) {
    item(ui, Command::New, true, a);
    item(ui, Command::Open, true, a);
    ui.add_enabled_ui(!state.recent.is_empty(), |ui| {
        ui.menu_button("Open recent", |ui| {
            for path in state.recent {
                let name = path.file_name().map_or_else(
                    || path.display().to_string(),
                    |n| n.to_string_lossy().into_owned(),
                );
                if ui
                    .button(name)
                    .on_hover_text(path.display().to_string())
                    .clicked()
                {
                    a.push(MenuAction::OpenRecent(path.clone()));
                }
            }
            ui.separator();
            if ui.button("Clear recent files").clicked() {
                a.push(MenuAction::ClearRecent);
            }
        });
    });
    ui.separator();
    item(ui, Command::Save, true, a);
    item(ui, Command::SaveAs, true, a);
    ui.separator();
    item(ui, Command::ImportImage, true, a);
    item(ui, Command::ImportMovingAi, true, a);
    item(ui, Command::ImportLevel, true, a);
    item(ui, Command::ImportHeights, true, a);
    ui.separator();
    item(ui, Command::ExportMovingAi, true, a);
    item(ui, Command::ExportTiled, true, a);
    item(ui, Command::ExportPng, true, a);
    item(ui, Command::ExportPath, state.has_path, a);
    ui.separator();
    item(ui, Command::Quit, true, a);
}

/// The toolbar, on one row: the tools (each tooltip names its key), then the brush's
/// settings. The settings are changed in place; the tools come back as commands. Fit map and
/// 1:1 are in the View menu.
pub fn toolbar_ui(ui: &mut Ui, tools: &mut ToolSettings) -> Vec<Command> {
    let mut out = Vec::new();
    let key = |ui: &Ui, command| {
        commands::shortcut(command).map_or_else(String::new, |k| commands::key_text(ui.ctx(), k))
    };
    ui.horizontal(|ui| {
        // Tighter than the default, so that the thirteen tools and the brush fit a window of
        // 1200 points.
        ui.spacing_mut().item_spacing.x = 4.0;
        ui.spacing_mut().button_padding.x = 5.0;
        for tool in Tool::ALL {
            let selected = tools.tool == tool;
            let text = RichText::new(tool.name());
            let text = if selected { text.strong() } else { text };
            let hint = format!(
                "{} ({}): {}",
                tool.name(),
                key(ui, Command::Tool(tool)),
                tool.about()
            );
            if ui
                .add(Button::selectable(selected, text))
                .on_hover_text(hint)
                .clicked()
            {
                out.push(Command::Tool(tool));
            }
        }
        ui.separator();
        ui.spacing_mut().slider_width = 72.0;
        ui.add_enabled_ui(tools.tool.uses_brush(), |ui| {
            ui.horizontal(|ui| brush_ui(ui, tools, &key));
        });
        ui.add_enabled_ui(tools.tool == Tool::Rectangle, |ui| {
            ui.checkbox(&mut tools.filled, "Filled")
                .on_hover_text("Rectangles are filled (on) or outlined (off)");
        });
    });
    out
}

/// The brush's size and tip.
fn brush_ui(ui: &mut Ui, tools: &mut ToolSettings, key: &dyn Fn(&Ui, Command) -> String) {
    let hint = format!(
        "Brush size in cells ({} smaller, {} larger)",
        key(ui, Command::SmallerBrush),
        key(ui, Command::LargerBrush)
    );
    ui.add(egui::Slider::new(&mut tools.brush_size, 1..=MAX_BRUSH).text("Size"))
        .on_hover_text(hint);
    ui.selectable_value(&mut tools.brush_tip, BrushTip::Round, "Round")
        .on_hover_text("Round brush tip");
    ui.selectable_value(&mut tools.brush_tip, BrushTip::Square, "Square")
        .on_hover_text("Square brush tip");
}

/// The status bar: the cell under the pointer, zoom, map size, unsaved changes and the
/// latest message.
pub fn status_ui(ui: &mut Ui, line: &StatusLine<'_>) {
    ui.horizontal(|ui| {
        let grid = line.grid;
        match line.hovered.and_then(|c| Some((c, grid.get(c)?))) {
            Some((cell, id)) => {
                let terrain = grid.terrain(id);
                ui.label(RichText::new(format!("{cell}")).monospace());
                ui.label(format!("{} · cost {}", terrain.name, cost_text(terrain)));
                if grid.heights().is_some() {
                    ui.label(format!("height {}", grid.height_at(cell) as f32));
                }
            }
            None => {
                ui.label(RichText::new("(–, –)").monospace());
            }
        }
        if let Some(inspected) = &line.inspected {
            ui.separator();
            ui.label(RichText::new(inspected).monospace());
        }
        ui.separator();
        ui.label(format!("Zoom {:.0}%", line.zoom * 100.0));
        ui.separator();
        ui.label(format!("{} × {} cells", grid.width(), grid.height()));
        if line.dirty {
            ui.separator();
            ui.colored_label(ui.visuals().warn_fg_color, "• Unsaved changes")
                .on_hover_text("Save (Ctrl+S) writes them; the window title shows * too.");
        }
        if let Some((text, error)) = line.notice {
            ui.separator();
            if error {
                ui.colored_label(ui.visuals().error_fg_color, text);
            } else {
                ui.label(text);
            }
        }
    });
}

/// The shortcuts window (F1): every key of the table the keyboard handling reads. Escape
/// closes it.
pub fn shortcuts_window(ctx: &egui::Context, open: &mut bool) {
    if *open && ctx.input_mut(|i| i.consume_key(egui::Modifiers::NONE, egui::Key::Escape)) {
        *open = false;
    }
    egui::Window::new("Keyboard shortcuts")
        .open(open)
        .collapsible(false)
        .resizable(false)
        .show(ctx, |ui| {
            egui::Grid::new("shortcuts")
                .num_columns(2)
                .striped(true)
                .show(ui, |ui| {
                    for (name, keys) in commands::help_rows(ctx) {
                        ui.label(name);
                        ui.label(RichText::new(keys).monospace());
                        ui.end_row();
                    }
                    let mouse = [
                        ("Pan", "Middle drag, or Space + drag"),
                        ("Zoom", "Wheel or pinch, at the pointer"),
                        ("Zoom into a box", "Right-drag"),
                        ("Pick a terrain", "Alt + click"),
                        ("Straight line", "Shift + drag with the brush"),
                        ("Set start or goal", "Right-click the map"),
                    ];
                    for (name, how) in mouse {
                        ui.label(name);
                        ui.label(RichText::new(how).weak());
                        ui.end_row();
                    }
                });
        });
}
