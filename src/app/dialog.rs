//! The modal dialogs: new map, resize, unsaved changes, terrain replacement, restoring
//! unsaved work, messages.

use egui::{Id, Modal, Ui};

use crate::grid::{Grid, TerrainId, Topology};

use super::document::Replacement;
use super::resize::Anchor;

/// What to do once unsaved changes are dealt with.
#[derive(Clone, Debug, PartialEq)]
pub enum Pending {
    /// Show the new-map dialog.
    NewMap,
    /// Put a map that is already loaded (opened, imported or restored) in place of the open one.
    Replace(Box<Replacement>),
    /// Close the window.
    Quit,
}

/// A dialog on top of the editor.
#[derive(Clone, Debug, PartialEq)]
pub enum Dialog {
    /// The size and base terrain of a new map.
    NewMap {
        /// Columns.
        width: u32,
        /// Rows.
        height: u32,
        /// The terrain every cell starts with.
        base: TerrainId,
        /// Square cells or hexes, and which hex layout.
        topology: Topology,
    },
    /// The new size of the map and what stays in place.
    Resize {
        /// Columns.
        width: u32,
        /// Rows.
        height: u32,
        /// The part that stays in place.
        anchor: Anchor,
    },
    /// The map has unsaved changes: save, discard or cancel before going on.
    Unsaved(Pending),
    /// The terrain to delete is in use: which terrain its cells become.
    Replace {
        /// The terrain to delete.
        id: TerrainId,
        /// The terrain its cells become.
        replacement: TerrainId,
    },
    /// Work from an earlier session was found in the recovery file: restore it or drop it.
    Restore {
        /// When the recovery file was written, as shown to the user.
        when: String,
    },
    /// Something went wrong (a file that did not load or save).
    Message {
        /// The dialog's title.
        title: String,
        /// What happened.
        text: String,
    },
}

/// The user's answer to a dialog.
#[derive(Clone, Debug, PartialEq)]
pub enum Answer {
    /// Create a map.
    NewMap {
        /// Columns.
        width: u32,
        /// Rows.
        height: u32,
        /// The terrain every cell starts with.
        base: TerrainId,
        /// Square cells or hexes, and which hex layout.
        topology: Topology,
    },
    /// Resize the map.
    Resize {
        /// Columns.
        width: u32,
        /// Rows.
        height: u32,
        /// The part that stays in place.
        anchor: Anchor,
    },
    /// Save, then go on.
    Save(Pending),
    /// Drop the changes and go on.
    Discard(Pending),
    /// Delete a terrain, its cells becoming the replacement.
    Replace {
        /// The terrain to delete.
        id: TerrainId,
        /// The terrain its cells become.
        replacement: TerrainId,
    },
    /// Open the map found in the recovery file.
    Restore,
    /// Delete the recovery file.
    DropRecovery,
    /// Close the dialog and do nothing.
    Cancel,
}

impl Dialog {
    /// Shows the dialog; returns the answer once the user gives one.
    pub fn show(&mut self, ctx: &egui::Context, grid: &Grid, name: &str) -> Option<Answer> {
        let mut answer = None;
        let modal = Modal::new(Id::unique("editor-dialog")).show(ctx, |ui| {
            ui.set_min_width(300.0);
            answer = match self {
                Dialog::NewMap {
                    width,
                    height,
                    base,
                    topology,
                } => new_map_ui(ui, grid, (width, height), base, topology),
                Dialog::Resize {
                    width,
                    height,
                    anchor,
                } => resize_ui(ui, grid, width, height, anchor),
                Dialog::Unsaved(pending) => unsaved_ui(ui, name, pending),
                Dialog::Restore { when } => restore_ui(ui, when),
                Dialog::Replace { id, replacement } => replace_ui(ui, grid, *id, replacement),
                Dialog::Message { title, text } => {
                    ui.heading(title.as_str());
                    ui.label(text.as_str());
                    ui.add_space(8.0);
                    ui.button("OK").clicked().then_some(Answer::Cancel)
                }
            };
        });
        // Unsaved work from an earlier session is only restored or dropped on purpose.
        let must_answer = matches!(self, Dialog::Restore { .. });
        if answer.is_none() && modal.should_close() && !must_answer {
            answer = Some(Answer::Cancel);
        }
        answer
    }
}

fn size_fields(ui: &mut Ui, width: &mut u32, height: &mut u32) {
    let max = Grid::MAX_SIDE;
    egui::Grid::new("size-fields")
        .num_columns(2)
        .show(ui, |ui| {
            let label = ui.label("Width");
            ui.add(egui::DragValue::new(width).range(1..=max).suffix(" cells"))
                .labelled_by(label.id);
            ui.end_row();
            let label = ui.label("Height");
            ui.add(egui::DragValue::new(height).range(1..=max).suffix(" cells"))
                .labelled_by(label.id);
            ui.end_row();
        });
}

fn ok_cancel(ui: &mut Ui, ok: &str) -> (bool, bool) {
    ui.add_space(8.0);
    ui.horizontal(|ui| {
        let ok = ui.button(ok).clicked();
        let cancel = ui.button("Cancel").clicked();
        (ok, cancel)
    })
    .inner
}

fn new_map_ui(
    ui: &mut Ui,
    grid: &Grid,
    (width, height): (&mut u32, &mut u32),
    base: &mut TerrainId,
    topology: &mut Topology,
) -> Option<Answer> {
    ui.heading("New map");
    size_fields(ui, width, height);
    terrain_choice(ui, "Base terrain", grid, base);
    topology_choice(ui, topology);
    match ok_cancel(ui, "Create") {
        (true, _) => Some(Answer::NewMap {
            width: *width,
            height: *height,
            base: *base,
            topology: *topology,
        }),
        (_, true) => Some(Answer::Cancel),
        _ => None,
    }
}

/// Square cells or hexes, and for hexes which of the four layouts (Tiled's stagger).
fn topology_choice(ui: &mut Ui, topology: &mut Topology) {
    egui::ComboBox::from_label("Cells")
        .selected_text(topology.description())
        .show_ui(ui, |ui| {
            for t in Topology::ALL {
                ui.selectable_value(topology, t, t.description());
            }
        });
}

fn resize_ui(
    ui: &mut Ui,
    grid: &Grid,
    width: &mut u32,
    height: &mut u32,
    anchor: &mut Anchor,
) -> Option<Answer> {
    ui.heading("Resize map");
    ui.label(format!("Now {} × {} cells.", grid.width(), grid.height()));
    size_fields(ui, width, height);
    ui.label("Anchor: the part that stays in place");
    egui::Grid::new("anchor-picker").show(ui, |ui| {
        for (i, a) in Anchor::ALL.into_iter().enumerate() {
            let symbol = ["↖", "↑", "↗", "←", "•", "→", "↙", "↓", "↘"][i];
            ui.selectable_value(anchor, a, symbol)
                .on_hover_text(format!("Anchor: {}", a.name()));
            if i % 3 == 2 {
                ui.end_row();
            }
        }
    });
    ui.label("New cells get the base terrain (the first of the palette).");
    match ok_cancel(ui, "Resize") {
        (true, _) => Some(Answer::Resize {
            width: *width,
            height: *height,
            anchor: *anchor,
        }),
        (_, true) => Some(Answer::Cancel),
        _ => None,
    }
}

fn unsaved_ui(ui: &mut Ui, name: &str, pending: &Pending) -> Option<Answer> {
    ui.heading("Unsaved changes");
    ui.label(format!(
        "“{name}” has changes that are not saved. Save them first?"
    ));
    ui.add_space(8.0);
    ui.horizontal(|ui| {
        if ui.button("Save").clicked() {
            return Some(Answer::Save(pending.clone()));
        }
        if ui.button("Discard").clicked() {
            return Some(Answer::Discard(pending.clone()));
        }
        ui.button("Cancel").clicked().then_some(Answer::Cancel)
    })
    .inner
}

fn restore_ui(ui: &mut Ui, when: &str) -> Option<Answer> {
    ui.heading("Unsaved work found");
    ui.label(format!("Restore unsaved work from {when}?"));
    ui.label("Discard deletes it for good.");
    ui.add_space(8.0);
    ui.horizontal(|ui| {
        if ui.button("Restore").clicked() {
            return Some(Answer::Restore);
        }
        ui.button("Discard")
            .clicked()
            .then_some(Answer::DropRecovery)
    })
    .inner
}

fn replace_ui(
    ui: &mut Ui,
    grid: &Grid,
    id: TerrainId,
    replacement: &mut TerrainId,
) -> Option<Answer> {
    let name = grid
        .terrains()
        .get(usize::from(id))
        .map_or("", |t| t.name.as_str());
    ui.heading(format!("Delete “{name}”"));
    ui.label("Some cells use this terrain. Which terrain should they become?");
    terrain_choice(ui, "Replacement", grid, replacement);
    if *replacement == id {
        *replacement = if id == 0 { 1 } else { 0 };
    }
    match ok_cancel(ui, "Delete") {
        (true, _) => Some(Answer::Replace {
            id,
            replacement: *replacement,
        }),
        (_, true) => Some(Answer::Cancel),
        _ => None,
    }
}

fn terrain_choice(ui: &mut Ui, label: &str, grid: &Grid, choice: &mut TerrainId) {
    let shown = grid
        .terrains()
        .get(usize::from(*choice))
        .map_or("", |t| t.name.as_str());
    egui::ComboBox::from_label(label)
        .selected_text(shown)
        .show_ui(ui, |ui| {
            for (i, terrain) in grid.terrains().iter().enumerate() {
                ui.selectable_value(choice, i as TerrainId, terrain.name.as_str());
            }
        });
}
