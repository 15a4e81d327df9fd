//! The image import dialog: an image or a ROS `map.yaml` becomes a map, with a live preview
//! of the resulting grid.
//!
//! The conversion is the library's ([`ImageImport`], with ROS `map_server` semantics in
//! occupancy mode); the dialog only chooses its settings. The image is decoded once when the
//! dialog opens, and the preview is converted again only when a setting changes. For images
//! larger than [`PREVIEW_SIDE`] pixels the preview is converted from a reduced copy, so it
//! stays quick; the import itself always reads the full image.

use std::path::{Path, PathBuf};

use egui::{ColorImage, Id, Modal, RichText, TextureHandle, TextureOptions, Ui};
use image::DynamicImage;
use image::imageops::FilterType;

use crate::format::ImportError;
use crate::format::image_export;
use crate::format::image_import::{ImageImport, ImportMode, Reduce, Scale};
use crate::format::legend::Legend;
use crate::format::occupancy::{Interpretation, Occupancy, Unknown};
use crate::format::read::{FileLimit, read_file};
use crate::format::ros_map::{RosMap, map_name};
use crate::grid::{Grid, Map, Terrain, TerrainId};

use crate::app::document::Document;
use crate::app::document::Replacement;

/// The largest side, in pixels, of the image the preview is converted from.
pub const PREVIEW_SIDE: u32 = 1024;

/// The largest side of the preview on screen, in points.
const PREVIEW_BOX: f32 = 420.0;

/// What the preview shows: the grid's size and how many of its cells are impassable.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ImportSummary {
    /// The imported grid's width in cells.
    pub width: u32,
    /// The imported grid's height in cells.
    pub height: u32,
    /// Impassable cells in the preview (walls, and unknown cells that are impassable).
    pub impassable: usize,
    /// Cells in the preview; fewer than width × height when it was converted from a reduced
    /// copy of a large image.
    pub preview_cells: usize,
}

/// The user's answer to the import dialog.
#[derive(Debug)]
pub enum ImportAnswer {
    /// Import: the map, or why it failed.
    Import(Result<Box<Replacement>, String>),
    /// Close the dialog without importing.
    Cancel,
}

/// How pixels become terrains.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Mode {
    /// Brightness is occupancy (ROS `map_server`).
    Occupancy,
    /// The terrain of each exact colour: the PNG's own legend, or the open map's catalog.
    Palette,
}

/// How the grid's size is given.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum ScaleChoice {
    /// Cells per pixel.
    CellsPerPixel,
    /// The grid's width in cells.
    Width,
}

/// What unknown cells become.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum UnknownChoice {
    /// Walls.
    Wall,
    /// Free floor.
    Free,
    /// An impassable terrain of their own ("Unknown").
    Own,
    /// A terrain of the open map.
    Terrain(TerrainId),
}

/// The settings the dialog shows.
#[derive(Clone, Debug, PartialEq)]
struct Settings {
    mode: Mode,
    occupied: f64,
    free: f64,
    negate: bool,
    interpretation: Interpretation,
    unknown: UnknownChoice,
    scale: ScaleChoice,
    cells_per_pixel: f64,
    width: u32,
    reduce: Reduce,
}

impl Settings {
    /// The settings of an occupancy import (the defaults, or a `map.yaml`'s).
    fn from_occupancy(occupancy: &Occupancy, image_width: u32) -> Self {
        Self {
            mode: Mode::Occupancy,
            occupied: occupancy.occupied_thresh,
            free: occupancy.free_thresh,
            negate: occupancy.negate,
            interpretation: occupancy.interpretation,
            unknown: UnknownChoice::Own,
            scale: ScaleChoice::CellsPerPixel,
            cells_per_pixel: 1.0,
            width: image_width.min(Grid::MAX_SIDE),
            reduce: Reduce::default(),
        }
    }

    /// The library's import with these settings; `catalog` is the open map's terrains, and
    /// `legend` the one the PNG carries.
    fn import(&self, catalog: &[Terrain], legend: Option<&Legend>) -> ImageImport {
        let mut import = match self.mode {
            Mode::Occupancy => {
                let unknown = match self.unknown {
                    UnknownChoice::Wall => Unknown::Wall,
                    UnknownChoice::Free => Unknown::Free,
                    UnknownChoice::Own => Occupancy::default().unknown,
                    UnknownChoice::Terrain(id) => match catalog.get(usize::from(id)) {
                        Some(terrain) => Unknown::Terrain(terrain.clone()),
                        None => Occupancy::default().unknown,
                    },
                };
                ImageImport::occupancy(Occupancy {
                    negate: self.negate,
                    occupied_thresh: self.occupied,
                    free_thresh: self.free,
                    interpretation: self.interpretation,
                    unknown,
                    ..Occupancy::default()
                })
            }
            Mode::Palette => match legend {
                Some(legend) => ImageImport::legend(legend.clone()),
                None => ImageImport::palette(catalog.to_vec()),
            },
        };
        import.scale = match self.scale {
            ScaleChoice::CellsPerPixel => Scale::CellsPerPixel(self.cells_per_pixel),
            ScaleChoice::Width => Scale::Width(self.width),
        };
        import.reduce = self.reduce;
        import
    }
}

/// The converted preview.
struct Preview {
    texture: TextureHandle,
    summary: ImportSummary,
    /// The grid itself when the preview was converted from the full image, so Import can use
    /// it as it is.
    exact: Option<Grid>,
}

/// The open import dialog.
pub struct ImportDialog {
    /// The file the user chose: the image, or the `map.yaml`.
    path: PathBuf,
    /// The image file.
    image_path: PathBuf,
    /// The `map.yaml`, when the import started from one.
    ros: Option<RosMap>,
    /// The decoded image.
    image: DynamicImage,
    /// A reduced copy for the preview, when the image is large: filtered for occupancy, and
    /// of whole pixels (nearest neighbour) for palette mode, which reads exact colours.
    reduced: Option<(DynamicImage, DynamicImage)>,
    /// The terrain legend the PNG carries.
    legend: Option<Legend>,
    /// The open map's terrains, for palette mode and the unknown terrain.
    catalog: Vec<Terrain>,
    settings: Settings,
    /// The import the preview was made with.
    shown: Option<ImageImport>,
    /// The preview, or why the settings give no grid.
    preview: Result<Preview, String>,
}

impl std::fmt::Debug for ImportDialog {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ImportDialog")
            .field("path", &self.path)
            .field("settings", &self.settings)
            .finish_non_exhaustive()
    }
}

impl ImportDialog {
    /// Reads and decodes an image, or a `map.yaml` and its image. Errors name the file and,
    /// for images over the size limit, the limit.
    pub fn open(path: &Path, catalog: &[Terrain]) -> Result<Self, ImportError> {
        let is_yaml = crate::format::registry::kind_of(path)
            == Some(crate::format::registry::FileKind::RosMap);
        let (ros, image_path) = if is_yaml {
            let ros = RosMap::read(path)?;
            let image_path = ros.image_path(path);
            (Some(ros), image_path)
        } else {
            (None, path.to_owned())
        };
        let import = ros
            .as_ref()
            .map_or_else(ImageImport::default, RosMap::image_import);
        let bytes = read_file(&image_path, FileLimit::IMAGE).map_err(|e| ImportError::Io {
            path: image_path.clone(),
            message: e.to_string(),
        })?;
        let image = import.decode(&bytes).map_err(|e| e.in_file(&image_path))?;
        let reduced = (image.width() > PREVIEW_SIDE || image.height() > PREVIEW_SIDE).then(|| {
            (
                image.resize(PREVIEW_SIDE, PREVIEW_SIDE, FilterType::Triangle),
                image.resize(PREVIEW_SIDE, PREVIEW_SIDE, FilterType::Nearest),
            )
        });
        let legend = if is_yaml {
            None
        } else {
            Legend::read_png(&bytes).map_err(|e| e.in_file(&image_path))?
        };
        let occupancy = match &import.mode {
            ImportMode::Occupancy(o) => o.clone(),
            ImportMode::Palette(_) => Occupancy::default(),
        };
        Ok(Self {
            path: path.to_owned(),
            image_path,
            ros,
            settings: Settings {
                mode: if legend.is_some() {
                    Mode::Palette
                } else {
                    Mode::Occupancy
                },
                ..Settings::from_occupancy(&occupancy, image.width())
            },
            image,
            reduced,
            legend,
            catalog: catalog.to_vec(),
            shown: None,
            preview: Err("No preview yet.".to_owned()),
        })
    }

    /// The preview's summary, once it has been converted.
    pub fn summary(&self) -> Option<ImportSummary> {
        self.preview.as_ref().ok().map(|p| p.summary)
    }

    /// Shows the dialog; returns the answer once the user gives one.
    pub fn show(&mut self, ctx: &egui::Context) -> Option<ImportAnswer> {
        self.refresh(ctx);
        let mut answer = None;
        let modal = Modal::new(Id::unique("import-dialog")).show(ctx, |ui| {
            ui.set_width(PREVIEW_BOX + 40.0);
            answer = self.dialog_ui(ui);
        });
        if answer.is_none() && modal.should_close() {
            answer = Some(ImportAnswer::Cancel);
        }
        if answer.is_none() && self.shown.as_ref() != Some(&self.current()) {
            // A setting changed this frame: convert again in the next one.
            ctx.request_repaint();
        }
        answer
    }

    fn current(&self) -> ImageImport {
        self.settings.import(&self.catalog, self.legend.as_ref())
    }

    /// Converts the preview again when the settings changed since the last one.
    fn refresh(&mut self, ctx: &egui::Context) {
        let import = self.current();
        if self.shown.as_ref() == Some(&import) {
            return;
        }
        self.preview = self.convert(ctx, &import);
        self.shown = Some(import);
    }

    fn convert(&self, ctx: &egui::Context, import: &ImageImport) -> Result<Preview, String> {
        let (width, height) = import
            .grid_size(self.image.width(), self.image.height())
            .map_err(|e| e.to_string())?;
        let (grid, exact) = match &self.reduced {
            Some((filtered, whole_pixels)) => {
                let reduced = match import.mode {
                    ImportMode::Palette(_) => whole_pixels,
                    ImportMode::Occupancy(_) => filtered,
                };
                let mut smaller = import.clone();
                smaller.scale = Scale::Width(width.min(reduced.width()));
                let grid = smaller
                    .grid_from_image(reduced)
                    .map_err(|e| e.to_string())?;
                (grid, false)
            }
            None => (
                import
                    .grid_from_image(&self.image)
                    .map_err(|e| e.to_string())?,
                true,
            ),
        };
        let impassable = grid
            .cells()
            .iter()
            .filter(|&&id| !grid.terrain(id).is_passable())
            .count();
        let pixels = image_export::to_image(&grid);
        let size = [grid.width() as usize, grid.height() as usize];
        let texture = ctx.load_texture(
            "import-preview",
            ColorImage::from_rgb(size, pixels.as_raw()),
            TextureOptions::NEAREST,
        );
        Ok(Preview {
            texture,
            summary: ImportSummary {
                width,
                height,
                impassable,
                preview_cells: grid.len(),
            },
            exact: exact.then_some(grid),
        })
    }

    fn dialog_ui(&mut self, ui: &mut Ui) -> Option<ImportAnswer> {
        // Return presses Import, unless it is ending an edit in a text field (one had the
        // keyboard when the frame began).
        let editing = ui.ctx().text_edit_focused();
        ui.heading("Import image");
        let name = self.path.file_name().map_or_else(
            || self.path.display().to_string(),
            |n| n.to_string_lossy().into_owned(),
        );
        ui.label(format!(
            "{name}: {} × {} pixels",
            self.image.width(),
            self.image.height()
        ));
        if self.ros.is_some() {
            ui.label(
                RichText::new("Settings from the map.yaml; resolution and origin are kept.").weak(),
            );
        }
        ui.add_space(4.0);
        ui.horizontal(|ui| {
            ui.radio_value(&mut self.settings.mode, Mode::Occupancy, "Occupancy")
                .on_hover_text("Brightness is occupancy, as ROS map_server reads it");
            ui.radio_value(&mut self.settings.mode, Mode::Palette, "Terrain colours")
                .on_hover_text("Each colour is one terrain: by the PNG's own legend, or the open map's terrain of that exact colour");
        });
        match self.settings.mode {
            Mode::Occupancy => occupancy_ui(ui, &mut self.settings, &self.catalog),
            Mode::Palette => match &self.legend {
                Some(legend) => {
                    ui.label(format!(
                        "Read by the terrain legend the PNG carries ({} terrains: names, costs and passability as exported).",
                        legend.entries().len()
                    ));
                }
                None => {
                    ui.label(format!(
                        "Each pixel becomes the open map's terrain ({} terrains) of its exact colour; any other colour is an error.",
                        self.catalog.len()
                    ));
                }
            },
        }
        ui.separator();
        scale_ui(ui, &mut self.settings);
        ui.separator();
        match &self.preview {
            Ok(preview) => {
                let s = preview.summary;
                if preview.exact.is_some() {
                    ui.label(format!(
                        "Result: {} × {} cells, {} impassable.",
                        s.width, s.height, s.impassable
                    ));
                } else {
                    ui.label(format!(
                        "Result: {} × {} cells. The preview is converted from a reduced copy of the image: {} of its {} cells impassable.",
                        s.width, s.height, s.impassable, s.preview_cells
                    ));
                }
                let texture_size = preview.texture.size_vec2();
                // The settings above take about 430 points: the preview shrinks on a short
                // window so that Import and Cancel stay on screen.
                let room = ui.ctx().content_rect().height() - 470.0;
                let side = PREVIEW_BOX.min(room).max(96.0);
                let fit = (side / texture_size.x.max(texture_size.y)).min(16.0);
                ui.add(egui::Image::new((preview.texture.id(), texture_size * fit)));
            }
            Err(text) => {
                ui.colored_label(ui.visuals().error_fg_color, text);
            }
        }
        ui.add_space(8.0);
        ui.horizontal(|ui| {
            let ready = self.preview.is_ok();
            let enter = ready
                && !editing
                && ui.input_mut(|i| i.consume_key(egui::Modifiers::NONE, egui::Key::Enter));
            if ui
                .add_enabled(ready, egui::Button::new("Import"))
                .on_hover_text("Replace the open map with the result (Return)")
                .clicked()
                || enter
            {
                return Some(ImportAnswer::Import(self.finish().map(Box::new)));
            }
            ui.button("Cancel")
                .clicked()
                .then_some(ImportAnswer::Cancel)
        })
        .inner
    }

    /// The imported map, named after the chosen file.
    fn finish(&mut self) -> Result<Replacement, String> {
        let import = self.current();
        let cached = match (&mut self.preview, &self.shown) {
            (Ok(preview), Some(shown)) if *shown == import => preview.exact.take(),
            _ => None,
        };
        let grid = match cached {
            Some(grid) => grid,
            None => import
                .grid_from_image(&self.image)
                .map_err(|e| e.in_file(&self.image_path).to_string())?,
        };
        self.shown = None;
        let name = map_name(&self.path);
        let map = match &self.ros {
            Some(ros) => ros
                .map_from_grid(name, grid, self.image.width())
                .map_err(|e| e.in_file(&self.path).to_string())?,
            None => Map::new(name, grid),
        };
        let notice = format!(
            "Imported {}: {} × {} cells.",
            self.path.display(),
            map.grid.width(),
            map.grid.height()
        );
        Ok(Replacement {
            document: Document::new(map),
            notice,
        })
    }
}

/// A threshold slider. It shows three decimals and never rounds the value it is given (a
/// yaml's `free_thresh: 0.196` stays 0.196); only a drag sets a value of its own.
fn threshold_slider<'a>(value: &'a mut f64, text: &str) -> egui::Slider<'a> {
    egui::Slider::new(value, 0.0..=1.0)
        .fixed_decimals(3)
        .clamping(egui::SliderClamping::Edits)
        .text(text)
}

fn occupancy_ui(ui: &mut Ui, settings: &mut Settings, catalog: &[Terrain]) {
    let occupied = ui
        .add(threshold_slider(
            &mut settings.occupied,
            "Occupied threshold",
        ))
        .on_hover_text("Occupancy above this is a wall (ROS default 0.65)")
        .changed();
    if occupied && settings.free > settings.occupied {
        settings.free = settings.occupied;
    }
    let free = ui
        .add(threshold_slider(&mut settings.free, "Free threshold"))
        .on_hover_text("Occupancy below this is free (ROS default 0.25)")
        .changed();
    if free && settings.free > settings.occupied {
        settings.occupied = settings.free;
    }
    ui.checkbox(&mut settings.negate, "Negate (dark pixels are free)");
    egui::ComboBox::from_label("Between the thresholds")
        .selected_text(interpretation_text(settings.interpretation))
        .show_ui(ui, |ui| {
            for mode in [
                Interpretation::Trinary,
                Interpretation::Scale,
                Interpretation::Raw,
            ] {
                ui.selectable_value(
                    &mut settings.interpretation,
                    mode,
                    interpretation_text(mode),
                );
            }
        });
    let choices = unknown_choices(catalog);
    let shown = unknown_text(settings.unknown, catalog);
    egui::ComboBox::from_label("Unknown cells become")
        .selected_text(shown)
        .show_ui(ui, |ui| {
            for choice in choices {
                ui.selectable_value(&mut settings.unknown, choice, unknown_text(choice, catalog));
            }
        });
    ui.horizontal(|ui| {
        ui.label("Downscaling:");
        ui.radio_value(&mut settings.reduce, Reduce::MeanWalls, "Mean, thin walls kept")
            .on_hover_text(
                "A cell takes the mean of its pixels (dust fades); where a wall thinner than a cell keeps two free regions apart, the cells it crosses stay walls",
            );
        ui.radio_value(&mut settings.reduce, Reduce::Max, "Most occupied pixel")
            .on_hover_text(
                "A cell is as occupied as its most occupied pixel: thin walls stay walls at any scale",
            );
        ui.radio_value(&mut settings.reduce, Reduce::Mean, "Mean")
            .on_hover_text("A cell takes the mean of its pixels: thin walls may fade to unknown or free");
    });
    ui.label(
        RichText::new(
            "Occupancy reads a pixel's brightness (the mean of its channels, as ROS does): a red or blue mark is dark and becomes a wall. Use \"Terrain colours\" for maps painted in colours.",
        )
        .weak(),
    );
}

fn scale_ui(ui: &mut Ui, settings: &mut Settings) {
    ui.horizontal(|ui| {
        ui.radio_value(
            &mut settings.scale,
            ScaleChoice::CellsPerPixel,
            "Cells per pixel",
        );
        ui.radio_value(&mut settings.scale, ScaleChoice::Width, "Width in cells");
    });
    ui.horizontal(|ui| match settings.scale {
        ScaleChoice::CellsPerPixel => {
            let label = ui.label("Scale");
            ui.add(
                egui::DragValue::new(&mut settings.cells_per_pixel)
                    .range(0.01..=16.0)
                    .speed(0.01)
                    .suffix(" cells per pixel"),
            )
            .labelled_by(label.id);
        }
        ScaleChoice::Width => {
            let label = ui.label("Width");
            ui.add(
                egui::DragValue::new(&mut settings.width)
                    .range(1..=Grid::MAX_SIDE)
                    .suffix(" cells"),
            )
            .labelled_by(label.id);
        }
    });
}

fn interpretation_text(mode: Interpretation) -> &'static str {
    match mode {
        Interpretation::Trinary => "unknown (trinary)",
        Interpretation::Scale => "graded costs (scale)",
        Interpretation::Raw => "graded, values are percent (raw)",
    }
}

/// Wall, free, a terrain of their own, and the open map's terrains whose symbols do not clash
/// with the imported ones (`.` floor, `#` wall, `1`–`9` graded bands).
fn unknown_choices(catalog: &[Terrain]) -> Vec<UnknownChoice> {
    let mut choices = vec![UnknownChoice::Wall, UnknownChoice::Free, UnknownChoice::Own];
    choices.extend(
        catalog
            .iter()
            .enumerate()
            .filter(|(_, t)| !(t.symbol == '.' || t.symbol == '#' || t.symbol.is_ascii_digit()))
            .map(|(i, _)| UnknownChoice::Terrain(i as TerrainId)),
    );
    choices
}

fn unknown_text(choice: UnknownChoice, catalog: &[Terrain]) -> String {
    match choice {
        UnknownChoice::Wall => "Wall".to_owned(),
        UnknownChoice::Free => "Free".to_owned(),
        UnknownChoice::Own => "Unknown (impassable)".to_owned(),
        UnknownChoice::Terrain(id) => catalog
            .get(usize::from(id))
            .map_or_else(String::new, |t| format!("{} (open map)", t.name)),
    }
}
