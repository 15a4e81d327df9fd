//! The level import dialog: a Tiled map (`.tmx`, `.tmj`) or an LDtk project (`.ldtk`) becomes
//! a map, with the level and layer to read, each terrain's cost, and a preview.
//!
//! The reading is the library's ([`read_level`], with the conventions of
//! `docs/levels.md`); the dialog chooses its options, reads the file again when they change,
//! and lets the user set what each terrain costs before the map opens.

use std::path::{Path, PathBuf};

use egui::{ColorImage, Id, Modal, RichText, TextureHandle, TextureOptions, Ui};

use crate::format::LoadError;
use crate::format::image_export;
use crate::format::level::{LevelImport, LevelOptions, TerrainSource, read_level};
use crate::grid::{Map, Terrain};

use crate::app::canvas::canvas::color_of;
use crate::app::document::{Document, Replacement};

/// The largest side of the preview on screen, in points.
const PREVIEW_BOX: f32 = 360.0;

/// The user's answer to the level dialog.
#[derive(Debug)]
pub enum LevelAnswer {
    /// Open the level as the map.
    Import(Box<Replacement>),
    /// Close the dialog without importing.
    Cancel,
}

/// One terrain as the dialog edits it.
#[derive(Clone, Debug, PartialEq)]
struct TerrainRow {
    walkable: bool,
    cost: f64,
}

/// The open level dialog.
pub struct LevelDialog {
    path: PathBuf,
    options: LevelOptions,
    import: LevelImport,
    rows: Vec<TerrainRow>,
    /// Why the last change of level or layer could not be read (the previous one stays).
    error: Option<String>,
    preview: Option<TextureHandle>,
    /// The terrain whose row the pointer is over, and the preview with its cells picked out.
    highlight: Option<(usize, TextureHandle)>,
    /// The terrain row the pointer was over in the last frame.
    hovered: Option<usize>,
    /// Each tile terrain's picture, uploaded when first shown.
    pictures: Option<Vec<Option<TextureHandle>>>,
}

impl std::fmt::Debug for LevelDialog {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("LevelDialog")
            .field("path", &self.path)
            .field("options", &self.options)
            .finish_non_exhaustive()
    }
}

impl LevelDialog {
    /// Reads a level file on a level and layer (the defaults when `None`). Errors name the
    /// file and place.
    pub fn open(path: &Path, options: LevelOptions) -> Result<Self, LoadError> {
        let import = read_level(path, &options)?;
        let rows = rows_of(&import);
        Ok(Self {
            path: path.to_owned(),
            options,
            import,
            rows,
            error: None,
            preview: None,
            highlight: None,
            hovered: None,
            pictures: None,
        })
    }

    /// The map the dialog would open now: the level read, with the costs as edited.
    pub fn map(&self) -> Map {
        let mut map = self.import.map.clone();
        for (id, row) in self.rows.iter().enumerate() {
            let Ok(id) = u8::try_from(id) else { break };
            let mut terrain = map.grid.terrain(id).clone();
            terrain.cost = row.walkable.then_some(row.cost);
            // A cost the field refuses never gets here: the field keeps it in range.
            let _ = map.grid.set_terrain(id, terrain);
        }
        map
    }

    /// The terrain whose cells the preview picks out (the row the pointer is over).
    pub fn picked_out(&self) -> Option<usize> {
        self.hovered
    }

    /// The levels the file holds (LDtk), and the one shown.
    pub fn levels(&self) -> (&[String], Option<&str>) {
        (&self.import.levels, self.import.level.as_deref())
    }

    /// The layers that may decide the cells, and the one that did.
    pub fn layers(&self) -> (&[String], Option<&str>) {
        (&self.import.layers, self.import.layer.as_deref())
    }

    /// Chooses the level and the layer, and reads the file again; a choice that cannot be
    /// read is shown in the dialog and the previous reading stays.
    pub fn choose(&mut self, options: LevelOptions) {
        if options == self.options {
            return;
        }
        match read_level(&self.path, &options) {
            Ok(import) => {
                self.rows = rows_of(&import);
                self.import = import;
                self.options = options;
                self.error = None;
                self.preview = None;
                self.highlight = None;
                self.pictures = None;
            }
            Err(error) => self.error = Some(error.to_string()),
        }
    }

    /// Shows the dialog; returns the answer once the user gives one.
    pub fn show(&mut self, ctx: &egui::Context) -> Option<LevelAnswer> {
        if self.preview.is_none() {
            let grid = &self.import.map.grid;
            let pixels = image_export::to_image(grid);
            let size = [grid.width() as usize, grid.height() as usize];
            self.preview = Some(ctx.load_texture(
                "level-preview",
                ColorImage::from_rgb(size, pixels.as_raw()),
                TextureOptions::NEAREST,
            ));
        }
        let mut answer = None;
        let modal = Modal::new(Id::unique("level-dialog")).show(ctx, |ui| {
            ui.set_width(PREVIEW_BOX + 120.0);
            answer = self.dialog_ui(ui);
        });
        if answer.is_none() && modal.should_close() {
            answer = Some(LevelAnswer::Cancel);
        }
        answer
    }

    fn dialog_ui(&mut self, ui: &mut Ui) -> Option<LevelAnswer> {
        // Return presses Open, unless it is ending an edit in a text field (one had the
        // keyboard when the frame began).
        let editing = ui.ctx().text_edit_focused();
        ui.heading("Open level");
        let name = self.path.file_name().map_or_else(
            || self.path.display().to_string(),
            |n| n.to_string_lossy().into_owned(),
        );
        let grid = &self.import.map.grid;
        ui.label(format!(
            "{name}: {} × {} cells",
            grid.width(),
            grid.height()
        ));
        self.choices_ui(ui);
        if let Some(error) = &self.error {
            ui.colored_label(ui.visuals().error_fg_color, error);
        }
        ui.separator();
        ui.label(RichText::new("Terrains").strong());
        ui.label(
            RichText::new("What each tile or value costs to cross; untick Walkable for walls.")
                .weak(),
        );
        self.terrains_ui(ui);
        ui.separator();
        let shown = match self.hovered {
            Some(terrain) => Some(self.highlighted(ui.ctx(), terrain)),
            None => self.preview.clone(),
        };
        if let Some(texture) = &shown {
            let size = texture.size_vec2();
            let room = ui.ctx().content_rect().height() - 420.0;
            let side = PREVIEW_BOX.min(room).max(96.0);
            let fit = (side / size.x.max(size.y)).min(16.0);
            ui.add(egui::Image::new((texture.id(), size * fit)));
        }
        ui.add_space(8.0);
        ui.horizontal(|ui| {
            let enter = !editing
                && ui.input_mut(|i| i.consume_key(egui::Modifiers::NONE, egui::Key::Enter));
            if ui
                .button("Open")
                .on_hover_text("Open the level with these terrains (Return)")
                .clicked()
                || enter
            {
                return Some(LevelAnswer::Import(Box::new(self.finish())));
            }
            ui.button("Cancel").clicked().then_some(LevelAnswer::Cancel)
        })
        .inner
    }

    /// The level and layer choosers.
    fn choices_ui(&mut self, ui: &mut Ui) {
        let mut options = self.options.clone();
        if !self.import.levels.is_empty() {
            let shown = self.import.level.clone().unwrap_or_default();
            egui::ComboBox::from_label("Level")
                .selected_text(&shown)
                .show_ui(ui, |ui| {
                    for level in &self.import.levels {
                        if ui.selectable_label(*level == shown, level).clicked() {
                            options.level = Some(level.clone());
                            // Another level has layers of its own: back to its default.
                            options.layer = None;
                        }
                    }
                });
        }
        let automatic = "Automatic";
        let shown = self.options.layer.as_deref().unwrap_or(automatic);
        egui::ComboBox::from_label("Layer")
            .selected_text(shown)
            .show_ui(ui, |ui| {
                if ui
                    .selectable_label(self.options.layer.is_none(), automatic)
                    .on_hover_text("A collision layer if there is one; else the topmost tile of the visible layers (Tiled) or the first IntGrid layer (LDtk)")
                    .clicked()
                {
                    options.layer = None;
                }
                for layer in &self.import.layers {
                    let chosen = self.options.layer.as_ref() == Some(layer);
                    if ui.selectable_label(chosen, layer).clicked() {
                        options.layer = Some(layer.clone());
                    }
                }
            });
        let used = match &self.import.layer {
            Some(layer) => format!("The cells come from layer \"{layer}\"."),
            None => "The cells come from the visible tile layers, topmost first.".to_owned(),
        };
        ui.label(RichText::new(used).weak());
        self.choose(options);
    }

    /// The preview with the cells of `terrain` in their colour and the others dimmed.
    fn highlighted(&mut self, ctx: &egui::Context, terrain: usize) -> TextureHandle {
        if let Some((shown, texture)) = &self.highlight
            && *shown == terrain
        {
            return texture.clone();
        }
        let grid = &self.import.map.grid;
        let colours: Vec<egui::Color32> = grid
            .terrains()
            .iter()
            .enumerate()
            .map(|(i, t)| {
                let colour = color_of(t.color);
                if i == terrain {
                    colour
                } else {
                    colour.gamma_multiply(0.15)
                }
            })
            .collect();
        let pixels = grid
            .cells()
            .iter()
            .map(|&id| colours[usize::from(id)])
            .collect();
        let image = ColorImage::new([grid.width() as usize, grid.height() as usize], pixels);
        let texture = ctx.load_texture("level-highlight", image, TextureOptions::NEAREST);
        self.highlight = Some((terrain, texture.clone()));
        texture
    }

    /// One row per terrain: colour, name, where it came from, walkable and cost; the row the
    /// pointer is over picks out its cells in the preview.
    fn terrains_ui(&mut self, ui: &mut Ui) {
        let ctx = ui.ctx().clone();
        let pictures = self.pictures.get_or_insert_with(|| {
            self.import
                .pictures
                .iter()
                .enumerate()
                .map(|(i, picture)| {
                    let picture = picture.as_ref()?;
                    let image = ColorImage::from_rgba_unmultiplied(
                        [picture.width as usize, picture.height as usize],
                        &picture.rgba,
                    );
                    Some(ctx.load_texture(
                        format!("level-tile-{i}"),
                        image,
                        TextureOptions::NEAREST,
                    ))
                })
                .collect()
        });
        let mut hovered = None;
        let terrains: &[Terrain] = self.import.map.grid.terrains();
        egui::ScrollArea::vertical()
            .max_height(220.0)
            .show(ui, |ui| {
                egui::Grid::new("level-terrains")
                    .num_columns(4)
                    .striped(true)
                    .show(ui, |ui| {
                        for (i, ((terrain, row), source)) in terrains
                            .iter()
                            .zip(&mut self.rows)
                            .zip(&self.import.sources)
                            .enumerate()
                        {
                            // The tile's own picture where the tileset's image was read;
                            // else the terrain's colour.
                            let swatch_response = match pictures.get(i).and_then(Option::as_ref) {
                                Some(texture) => ui.add(
                                    egui::Image::new((texture.id(), egui::vec2(20.0, 20.0)))
                                        .sense(egui::Sense::hover()),
                                ),
                                None => {
                                    let (swatch, response) = ui.allocate_exact_size(
                                        egui::vec2(20.0, 20.0),
                                        egui::Sense::hover(),
                                    );
                                    ui.painter().rect_filled(
                                        swatch.shrink(3.0),
                                        2.0,
                                        color_of(terrain.color),
                                    );
                                    response
                                }
                            };
                            let label = ui.label(&terrain.name).on_hover_text(format!(
                                "{}; its cells are picked out in the preview",
                                source_text(source)
                            ));
                            if label.hovered() || swatch_response.hovered() {
                                hovered = Some(i);
                            }
                            ui.checkbox(&mut row.walkable, "Walkable");
                            ui.add_enabled(
                                row.walkable,
                                egui::DragValue::new(&mut row.cost)
                                    .range(0.01..=1000.0)
                                    .speed(0.05)
                                    .prefix("cost "),
                            );
                            ui.end_row();
                        }
                    });
            });
        self.hovered = hovered;
    }

    /// The level as a document: the file it came from stays known (Save asks where to write
    /// gridpath JSON; File → Export → Tiled map writes the Tiled format).
    fn finish(&self) -> Replacement {
        let map = self.map();
        let edited = map.grid.terrains() != self.import.map.grid.terrains();
        let mut what = Vec::new();
        if let Some(level) = &self.import.level {
            what.push(format!("level \"{level}\""));
        }
        if let Some(layer) = &self.import.layer {
            what.push(format!("layer \"{layer}\""));
        }
        let what = if what.is_empty() {
            String::new()
        } else {
            format!(" ({})", what.join(", "))
        };
        let notice = format!(
            "Opened {}{what}: {} × {} cells, {} terrains.",
            self.path.display(),
            map.grid.width(),
            map.grid.height(),
            map.grid.terrains().len()
        );
        Replacement {
            document: Document {
                map,
                path: Some(self.path.clone()),
                dirty: edited,
            },
            notice,
        }
    }
}

fn rows_of(import: &LevelImport) -> Vec<TerrainRow> {
    import
        .map
        .grid
        .terrains()
        .iter()
        .map(|t| TerrainRow {
            walkable: t.is_passable(),
            cost: t.cost.unwrap_or(1.0),
        })
        .collect()
}

/// Where a terrain came from, for its tooltip.
fn source_text(source: &TerrainSource) -> String {
    match source {
        TerrainSource::Empty => "Cells with no tile".to_owned(),
        TerrainSource::Outside => "Cells outside every chunk of the infinite map".to_owned(),
        TerrainSource::Tile { tileset, id } => format!("Tile {id} of tileset \"{tileset}\""),
        TerrainSource::Class(class) => format!("Every tile of class \"{class}\""),
        TerrainSource::Wall { from } => format!("Walls from {from}"),
        TerrainSource::IntGrid { layer, value } => {
            format!("Value {value} of IntGrid layer \"{layer}\"")
        }
    }
}
