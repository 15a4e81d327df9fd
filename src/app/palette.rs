//! The terrain palette: every terrain with its swatch, name and cost, and an editor for the
//! active one.

use egui::{Color32, RichText, Sense, Ui, Vec2};

use crate::grid::{Grid, Rgb, Terrain, TerrainId};

use super::canvas::canvas::color_of;

/// What the user asked of the palette this frame.
#[derive(Clone, Debug, PartialEq)]
pub enum PaletteAction {
    /// Make this terrain the active one.
    Select(TerrainId),
    /// Replace a terrain (rename, recolour, new cost or passability).
    Update(TerrainId, Terrain),
    /// Add a new terrain.
    Add,
    /// Remove a terrain (asking for a replacement when it is in use).
    Remove(TerrainId),
    /// Tell the user something went wrong (a cost that is not a number).
    Refuse(String),
}

/// The editor fields of the active terrain, kept between frames while the user types.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Palette {
    /// The terrain the fields were filled from.
    shown: Option<(TerrainId, Terrain)>,
    name: String,
    cost: String,
    color: [u8; 3],
}

impl Palette {
    /// An empty palette editor; it fills itself from the active terrain.
    pub fn new() -> Self {
        Self::default()
    }

    /// The palette panel; returns what the user asked for.
    pub fn ui(&mut self, ui: &mut Ui, grid: &Grid, active: TerrainId) -> Option<PaletteAction> {
        let mut action = None;
        ui.heading("Terrain");
        ui.add_space(4.0);
        // A long catalog (a Tiled level's tiles) scrolls in its own box, so the active
        // terrain's fields and the Heights section below stay on screen.
        let most = (ui.ctx().content_rect().height() * 0.3).max(120.0);
        egui::ScrollArea::vertical()
            .id_salt("terrain-list")
            .max_height(most)
            .auto_shrink([false, true])
            .show(ui, |ui| Self::list_ui(ui, grid, active, &mut action));
        ui.horizontal(|ui| {
            if ui
                .button("Add terrain")
                .on_hover_text("Add a new terrain to the palette")
                .clicked()
            {
                action = Some(PaletteAction::Add);
            }
            let removable = grid.terrains().len() > 1;
            if ui
                .add_enabled(removable, egui::Button::new("Delete terrain"))
                .on_hover_text("Delete the active terrain; cells that use it get a replacement")
                .clicked()
            {
                action = Some(PaletteAction::Remove(active));
            }
        });
        ui.separator();
        if let Some(edit) = self.editor_ui(ui, grid, active) {
            action = Some(edit);
        }
        action
    }

    /// One row per terrain: its colour, key, name and cost; a click makes it the active one.
    fn list_ui(ui: &mut Ui, grid: &Grid, active: TerrainId, action: &mut Option<PaletteAction>) {
        for (i, terrain) in grid.terrains().iter().enumerate() {
            let id = i as TerrainId;
            ui.horizontal(|ui| {
                let (rect, _) = ui.allocate_exact_size(Vec2::splat(18.0), Sense::hover());
                ui.painter().rect_filled(rect, 3.0, color_of(terrain.color));
                ui.painter().rect_stroke(
                    rect,
                    3.0,
                    egui::Stroke::new(1.0, Color32::from_gray(120)),
                    egui::StrokeKind::Inside,
                );
                let key = if i < 9 {
                    format!("{}", i + 1)
                } else {
                    " ".to_owned()
                };
                let cost = cost_text(terrain);
                let text = format!("{key}  {}", terrain.name);
                let button = egui::Button::selectable(id == active, text)
                    .right_text(RichText::new(cost).weak())
                    .min_size(Vec2::new(ui.available_width(), 0.0));
                let hint = if i < 9 {
                    format!("Paint with {} (key {})", terrain.name, i + 1)
                } else {
                    format!("Paint with {}", terrain.name)
                };
                if ui.add(button).on_hover_text(hint).clicked() {
                    *action = Some(PaletteAction::Select(id));
                }
            });
        }
    }

    /// The fields of the active terrain.
    fn editor_ui(&mut self, ui: &mut Ui, grid: &Grid, active: TerrainId) -> Option<PaletteAction> {
        let terrain = grid.terrains().get(usize::from(active))?.clone();
        let current = Some((active, terrain.clone()));
        let other_terrain = self.shown.as_ref().map(|(id, _)| *id) != Some(active);
        let typing = ui.memory(|m| m.focused().is_some());
        if other_terrain || (self.shown != current && !typing) {
            self.name = terrain.name.clone();
            self.cost = terrain.cost.map_or_else(String::new, |c| c.to_string());
            self.color = terrain.color.0;
            self.shown = current;
        }
        let mut action = None;
        ui.label(RichText::new(format!("Edit “{}”", terrain.name)).strong());
        egui::Grid::new("terrain-editor")
            .num_columns(2)
            .show(ui, |ui| {
                let label = ui.label("Name");
                let name = ui
                    .add(egui::TextEdit::singleline(&mut self.name).desired_width(110.0))
                    .labelled_by(label.id);
                if name.lost_focus() {
                    let trimmed = self.name.trim();
                    if trimmed.is_empty() {
                        self.name = terrain.name.clone();
                    } else if trimmed != terrain.name {
                        action = Some(PaletteAction::Update(
                            active,
                            Terrain {
                                name: trimmed.to_owned(),
                                ..terrain.clone()
                            },
                        ));
                    }
                }
                ui.end_row();

                ui.label("Colour");
                let colour = ui
                    .color_edit_button_srgb(&mut self.color)
                    .on_hover_text("Terrain colour");
                if colour.changed() && self.color != terrain.color.0 {
                    action = Some(PaletteAction::Update(
                        active,
                        Terrain {
                            color: Rgb(self.color),
                            ..terrain.clone()
                        },
                    ));
                }
                ui.end_row();

                let label = ui.label("Cost");
                let passable = terrain.is_passable();
                let cost = ui
                    .add_enabled(
                        passable,
                        egui::TextEdit::singleline(&mut self.cost)
                            .desired_width(60.0)
                            .hint_text(if passable { "" } else { "impassable" }),
                    )
                    .labelled_by(label.id)
                    .on_hover_text(
                        "Cost of one unit of distance on this terrain (a positive number)",
                    );
                if cost.lost_focus() && passable {
                    match self.cost.trim().parse::<f64>() {
                        Ok(value) if value.is_finite() && value > 0.0 => {
                            if terrain.cost != Some(value) {
                                action = Some(PaletteAction::Update(
                                    active,
                                    Terrain {
                                        cost: Some(value),
                                        ..terrain.clone()
                                    },
                                ));
                            }
                        }
                        _ => {
                            action = Some(PaletteAction::Refuse(format!(
                                "The cost of {} must be a positive number, not {:?}",
                                terrain.name,
                                self.cost.trim()
                            )));
                            self.cost = terrain.cost.map_or_else(String::new, |c| c.to_string());
                        }
                    }
                }
                ui.end_row();

                ui.label("");
                let mut impassable = !passable;
                if ui
                    .checkbox(&mut impassable, "Impassable")
                    .on_hover_text("Units cannot enter this terrain")
                    .changed()
                {
                    let cost = if impassable {
                        None
                    } else {
                        Some(
                            self.cost
                                .trim()
                                .parse::<f64>()
                                .ok()
                                .filter(|c| c.is_finite() && *c > 0.0)
                                .unwrap_or(1.0),
                        )
                    };
                    action = Some(PaletteAction::Update(
                        active,
                        Terrain {
                            cost,
                            ..terrain.clone()
                        },
                    ));
                }
                ui.end_row();
            });
        action
    }
}

/// A terrain's cost as the palette shows it.
pub fn cost_text(terrain: &Terrain) -> String {
    terrain
        .cost
        .map_or_else(|| "impassable".to_owned(), |c| format!("{c}"))
}

/// A new terrain for the catalog: a name and symbol no other terrain uses.
pub fn new_terrain(grid: &Grid) -> Terrain {
    let used = |symbol: char| grid.terrains().iter().any(|t| t.symbol == symbol);
    let symbol = ('a'..='z')
        .chain('A'..='Z')
        .chain('0'..='9')
        .chain(
            (0xC0u32..0x2000)
                .filter_map(char::from_u32)
                .filter(|c| !c.is_control()),
        )
        .find(|&c| !used(c))
        .unwrap_or('?');
    let n = grid.terrains().len() + 1;
    let name = (n..)
        .map(|k| format!("Terrain {k}"))
        .find(|name| grid.terrains().iter().all(|t| &t.name != name))
        .unwrap_or_default();
    Terrain::passable(&name, symbol, Rgb([0xb0, 0x80, 0x50]), 1.0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_new_terrain_fits_the_catalog() {
        let mut grid = Grid::from_ascii(&["."]).unwrap();
        for _ in 0..70 {
            let terrain = new_terrain(&grid);
            grid.add_terrain(terrain).unwrap();
        }
        assert_eq!(grid.terrains().len(), 74);
    }
}
