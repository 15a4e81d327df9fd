//! The editor's file actions: opening maps (from the file dialog, the recent-files list or a
//! drop on the window), importing images and Moving AI maps, the exports, and restoring work
//! from the recovery file.
//!
//! A map that takes the open map's place is loaded first and only then goes through the
//! unsaved-changes question, so a file that fails to load never costs the open map or its
//! unsaved state.

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use crate::format::level::LevelOptions;
use crate::format::registry;
use crate::format::ros_map::RosMap;
use crate::format::save;
use crate::format::{MapFormat, PathExport, PathExportFormat};

use super::autosave::Autosave;
use super::import_dialog::{ImportAnswer, ImportDialog, ImportSummary};
use super::level_dialog::{LevelAnswer, LevelDialog};
use super::picker::{FileDialogs, FileRequest, FileTask, InWindowPicker, Picked};
use super::preferences::Preferences;
use crate::app::app::EditorApp;
use crate::app::dialog::{Dialog, Pending};
use crate::app::document::{Document, Replacement};

/// What a dropped or chosen file is, by its extension.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum FileKind {
    /// A gridpath or Moving AI map.
    Map,
    /// A Tiled map or an LDtk project, read through the level dialog.
    Level,
    /// An image or a ROS `map.yaml`, read through the import dialog.
    Image,
    /// Something else.
    Other,
}

fn file_kind(path: &Path) -> FileKind {
    match registry::kind_of(path) {
        Some(registry::FileKind::Map(MapFormat::Tiled | MapFormat::Ldtk)) => FileKind::Level,
        Some(registry::FileKind::Map(_)) => FileKind::Map,
        Some(registry::FileKind::Image | registry::FileKind::RosMap) => FileKind::Image,
        None => FileKind::Other,
    }
}

/// Whether a file is read through the import dialog (an image or a ROS `map.yaml`) rather
/// than opened as a map.
pub fn is_importable(path: &Path) -> bool {
    file_kind(path) == FileKind::Image
}

/// Whether a file is a designer's level (Tiled, LDtk), opened through the level dialog.
pub fn is_level(path: &Path) -> bool {
    file_kind(path) == FileKind::Level
}

/// The file dialog's filter of one kind of file.
fn filter(kind: registry::FileKind) -> (String, Vec<String>) {
    (
        registry::name(kind).to_owned(),
        registry::extensions(kind)
            .iter()
            .map(|e| (*e).to_owned())
            .collect(),
    )
}

/// A filter of every kind of file `wanted` accepts, under one name.
fn filter_where(name: &str, wanted: impl Fn(registry::FileKind) -> bool) -> (String, Vec<String>) {
    (
        name.to_owned(),
        registry::extensions_where(wanted)
            .iter()
            .map(|e| (*e).to_owned())
            .collect(),
    )
}

/// The ROS `map.yaml` (or `.yml`) of an image's own name beside it, when it reads and names
/// that image.
fn yaml_beside(image: &Path) -> Option<PathBuf> {
    if registry::kind_of(image) != Some(registry::FileKind::Image) {
        return None;
    }
    ["yaml", "yml"]
        .into_iter()
        .map(|extension| image.with_extension(extension))
        .filter(|yaml| yaml.is_file())
        .find(|yaml| {
            RosMap::read(yaml).is_ok_and(|map| save::same_file(&map.image_path(yaml), image))
        })
}

/// A request for a file to read.
pub(in crate::app) fn open_request(
    title: &str,
    filters: Vec<(String, Vec<String>)>,
) -> FileRequest {
    FileRequest {
        title: title.to_owned(),
        filters,
        save_name: None,
    }
}

/// A request for a file to write.
pub(in crate::app) fn save_request(
    title: &str,
    filter: (String, Vec<String>),
    name: String,
) -> FileRequest {
    FileRequest {
        save_name: Some(name),
        ..open_request(title, vec![filter])
    }
}

impl EditorApp {
    /// Turns autosave on: while the map has unsaved changes it is written every `interval` to
    /// a recovery file in `dir`.
    pub fn with_autosave(mut self, dir: &Path, interval: Duration) -> Self {
        self.autosave = Autosave::new(dir, interval);
        self
    }

    /// The recovery file autosave writes, when autosave is on.
    pub fn recovery_file(&self) -> Option<&Path> {
        self.autosave.recovery_path()
    }

    /// Looks for unsaved work of an earlier session in the recovery file; when there is
    /// some, the editor asks whether to restore it.
    pub fn offer_recovery(&mut self) {
        if let Err(error) = self.autosave.look() {
            self.show_error("Could not read the recovery file", error.to_string());
        }
    }

    /// The files of File → Open recent, newest first.
    pub fn recent_files(&self) -> &[PathBuf] {
        &self.preferences.recent
    }

    /// Reads the preferences saved by an earlier session.
    pub fn load_preferences(&mut self, storage: &dyn eframe::Storage) {
        if let Some(preferences) = eframe::get_value::<Preferences>(storage, eframe::APP_KEY) {
            // Files remembered before the storage was read (the one on the command line) stay
            // first.
            let current = std::mem::replace(&mut self.preferences, preferences);
            for path in current.recent.iter().rev() {
                self.preferences.remember(path);
            }
        }
    }

    /// Writes the preferences for the next session.
    pub(in crate::app) fn store_preferences(&self, storage: &mut dyn eframe::Storage) {
        eframe::set_value(storage, eframe::APP_KEY, &self.preferences);
    }

    /// Whether the image import dialog is open.
    pub fn is_importing(&self) -> bool {
        self.import.is_some()
    }

    /// The import dialog's current result: the grid's size and how many cells are
    /// impassable in the preview.
    pub fn import_summary(&self) -> Option<ImportSummary> {
        self.import.as_ref().and_then(ImportDialog::summary)
    }

    /// Opens the import dialog on an image (`.png`, `.jpg`, `.bmp`) or a ROS `map.yaml`; an
    /// image with a `map.yaml` of its own name beside it that names it is read through that
    /// file (its resolution, origin and thresholds), and the status bar says so. A file that
    /// cannot be read or decoded is reported and the open map stays.
    pub fn start_import(&mut self, path: &Path) {
        let yaml = yaml_beside(path);
        let read = yaml.as_deref().unwrap_or(path);
        match ImportDialog::open(read, self.document.map.grid.terrains()) {
            Ok(dialog) => {
                self.import = Some(dialog);
                if let Some(yaml) = &yaml {
                    self.say(
                        format!(
                            "Reading {} through {} beside it: its resolution, origin and thresholds.",
                            path.display(),
                            yaml.display()
                        ),
                        false,
                    );
                }
            }
            Err(error) => self.show_error("Could not import the image", error.to_string()),
        }
    }

    /// Whether the level dialog is open.
    pub fn level_dialog(&self) -> Option<&LevelDialog> {
        self.level.as_ref()
    }

    /// Chooses the level and layer in the open level dialog, as its menus do.
    pub fn choose_level(&mut self, options: LevelOptions) {
        if let Some(dialog) = &mut self.level {
            dialog.choose(options);
        }
    }

    /// Opens the level dialog on a Tiled map (`.tmx`, `.tmj`) or an LDtk project (`.ldtk`).
    /// A file that cannot be read is reported and the open map stays.
    pub fn start_level_import(&mut self, path: &Path) {
        self.start_level_import_with(path, LevelOptions::default());
    }

    /// Opens the level dialog on a level file, on the given level and layer.
    pub fn start_level_import_with(&mut self, path: &Path, options: LevelOptions) {
        match LevelDialog::open(path, options) {
            Ok(dialog) => self.level = Some(dialog),
            Err(error) => self.show_error("Could not open the level", error.to_string()),
        }
    }

    /// Writes the map as a Moving AI `.map`, a Tiled `.tmj` or `.tmx`, a `.png` (one pixel per
    /// cell) or a `.json`,
    /// chosen by the extension; the open document keeps its own file. Returns whether it
    /// worked (the error is shown).
    pub fn export_map_to(&mut self, path: &Path) -> bool {
        match save::save_map(&self.document.map, path) {
            Ok(()) => {
                let map = &self.document.map;
                let json =
                    registry::kind_of(path) == Some(registry::FileKind::Map(MapFormat::Json));
                let mut lost = Vec::new();
                if !json && map.grid.heights().is_some() {
                    lost.push("heights");
                }
                if !json && !map.waypoints.is_empty() {
                    lost.push("waypoints");
                }
                let text = if lost.is_empty() {
                    format!("Exported {}.", path.display())
                } else {
                    format!(
                        "Exported {} without the {}: only a gridpath map (.json) keeps them.",
                        path.display(),
                        lost.join(" and ")
                    )
                };
                self.say(text, false);
                true
            }
            Err(error) => {
                self.show_error("Could not export the map", error.to_string());
                false
            }
        }
    }

    /// The path export of the current search: its request, the grid path, and the smoothed
    /// path drawn on the canvas with the smoothing settings of the Path panel.
    pub fn path_export(&self) -> Result<PathExport, String> {
        self.path_export_holding(true)
    }

    /// [`Self::path_export`], holding its samples or not ([`PathExport::outline`]: what a
    /// file is written from, the samples computed as they are written).
    fn path_export_holding(&self, samples: bool) -> Result<PathExport, String> {
        let plan = self
            .planner
            .plan()
            .ok_or("There is no path to export: place the start and goal markers first.")?;
        if self.planner.is_stale() {
            return Err(
                "The path on screen is older than the map or the settings: plan it again (Find path) before exporting."
                    .to_owned(),
            );
        }
        let map = &self.document.map;
        let export = if samples {
            PathExport::new
        } else {
            PathExport::outline
        };
        let export = export(
            map,
            &plan.request,
            &plan.result,
            plan.smoothing,
            plan.smoothed.clone(),
            self.view.sample_spacing,
        );
        Ok(match &plan.route {
            Some(route) => export.with_route(route),
            None => export,
        })
    }

    /// Writes the path export to `path`, encoded as its extension says (`.json` for the
    /// `gridpath-path` document, `.csv` for the curve's samples; any other is refused with an
    /// error); returns whether it worked.
    pub fn export_path_to(&mut self, path: &Path) -> bool {
        let written = self
            .path_export_holding(false)
            .and_then(|export| export.write_to(path).map_err(|e| e.to_string()));
        match written {
            Ok(format) => {
                let what = match format {
                    PathExportFormat::Json => "the path export",
                    PathExportFormat::Csv => "the path's samples as CSV",
                };
                self.say(format!("Exported {what} to {}.", path.display()), false);
                true
            }
            Err(text) => {
                self.show_error("Could not export the path", text);
                false
            }
        }
    }

    pub(in crate::app) fn show_error(&mut self, title: &str, text: String) {
        self.dialog = Some(Dialog::Message {
            title: title.to_owned(),
            text,
        });
    }

    /// Puts a loaded map in place of the open one.
    pub(in crate::app) fn replace_with(&mut self, replacement: Replacement) {
        if let Some(path) = &replacement.document.path {
            self.preferences.remember(path);
        }
        let placed = self.replace_document(replacement.document);
        let note = crate::app::app::markers_note(placed, &self.document.map.grid);
        self.say(format!("{}{note}", replacement.notice), false);
    }

    /// Opens a map, image or `map.yaml` by its extension: a map takes the open map's place
    /// (after the unsaved-changes question), an image opens the import dialog.
    pub(in crate::app) fn open_file(&mut self, ctx: &egui::Context, path: &Path) {
        match file_kind(path) {
            FileKind::Map => self.open_map_file(ctx, path),
            FileKind::Level => self.start_level_import(path),
            FileKind::Image => self.start_import(path),
            FileKind::Other => self.show_error(
                "Could not open the file",
                format!(
                    "{}: unknown file type: expected a map ({}), a level ({}), an image ({}) or a ROS map.yaml",
                    path.display(),
                    registry::listed(&registry::extensions_where(|k| matches!(
                        k,
                        registry::FileKind::Map(MapFormat::Json | MapFormat::MovingAi)
                    ))),
                    registry::listed(&registry::extensions_where(|k| matches!(
                        k,
                        registry::FileKind::Map(MapFormat::Tiled | MapFormat::Ldtk)
                    ))),
                    registry::listed(registry::extensions(registry::FileKind::Image)),
                ),
            ),
        }
    }

    /// Loads a `.json` or `.map` file; once loaded it replaces the open map, after the
    /// unsaved-changes question. A load that fails is shown and the open map stays.
    pub(in crate::app) fn open_map_file(&mut self, ctx: &egui::Context, path: &Path) {
        match Document::open(path) {
            Ok(document) => {
                let notice = format!("Opened {}.", path.display());
                let replacement = Replacement { document, notice };
                self.guard(ctx, Pending::Replace(Box::new(replacement)));
            }
            Err(error) => self.show_error("Could not open the map", error.to_string()),
        }
    }

    /// File → Open: asks for a map file.
    pub(in crate::app) fn open_dialog(&mut self) {
        let request = open_request(
            "Open a map",
            vec![
                filter_where("Maps", |k| matches!(k, registry::FileKind::Map(_))),
                filter(registry::FileKind::Map(MapFormat::Json)),
                filter(registry::FileKind::Map(MapFormat::MovingAi)),
                filter(registry::FileKind::Map(MapFormat::Tiled)),
                filter(registry::FileKind::Map(MapFormat::Ldtk)),
            ],
        );
        self.ask_for_file(FileTask::Open, &request);
    }

    /// File → Import image: asks for an image or a ROS `map.yaml`.
    pub(in crate::app) fn import_image_dialog(&mut self) {
        let request = open_request(
            "Import an image",
            vec![
                filter_where("Images and ROS maps", |k| {
                    matches!(k, registry::FileKind::Image | registry::FileKind::RosMap)
                }),
                filter(registry::FileKind::Image),
                filter(registry::FileKind::RosMap),
            ],
        );
        self.ask_for_file(FileTask::ImportImage, &request);
    }

    /// File → Import heights: asks for a grayscale image.
    pub(in crate::app) fn import_heights_dialog(&mut self) {
        let request = open_request(
            "Import heights from a grayscale image",
            vec![filter(registry::FileKind::Image)],
        );
        self.ask_for_file(FileTask::ImportHeights, &request);
    }

    /// Gives the map the heights of a grayscale image (black 0, white the Heights panel's
    /// *Import white*; resampled to the map's size), as one undoable step. A file that
    /// cannot be read is reported and the map stays as it was.
    pub fn import_heights_from(&mut self, path: &Path) -> bool {
        let grid = &self.document.map.grid;
        let white = f64::from(self.tools.heightmap_white);
        let heights = match crate::format::height_image::load_heights(
            path,
            grid.width(),
            grid.height(),
            white,
        ) {
            Ok(heights) => heights,
            Err(error) => {
                self.show_error("Could not import the heights", error.to_string());
                return false;
            }
        };
        let name = path
            .file_name()
            .map_or_else(String::new, |n| n.to_string_lossy().into_owned());
        self.set_heights(heights);
        self.say(
            format!("Heights from {name}: black is 0, white {white}."),
            false,
        );
        true
    }

    /// File → Import Moving AI map: asks for a `.map` file.
    pub(in crate::app) fn import_movingai_dialog(&mut self) {
        let request = open_request(
            "Import a Moving AI map",
            vec![filter(registry::FileKind::Map(MapFormat::MovingAi))],
        );
        self.ask_for_file(FileTask::ImportMovingAi, &request);
    }

    /// File → Import Tiled or LDtk level: asks for a `.tmx`, `.tmj` or `.ldtk` file.
    pub(in crate::app) fn import_level_dialog(&mut self) {
        let request = open_request(
            "Import a level",
            vec![
                filter_where("Tiled maps and LDtk projects", |k| {
                    matches!(
                        k,
                        registry::FileKind::Map(MapFormat::Tiled | MapFormat::Ldtk)
                    )
                }),
                filter(registry::FileKind::Map(MapFormat::Tiled)),
                filter(registry::FileKind::Map(MapFormat::Ldtk)),
            ],
        );
        self.ask_for_file(FileTask::Open, &request);
    }

    /// File → Export Moving AI map, Tiled map and PNG: asks where to write the map.
    pub(in crate::app) fn export_map_dialog(&mut self, kind: &str, extension: &'static str) {
        let name = format!("{}.{extension}", self.document.name());
        let title = format!("Export the map as {kind}");
        let request = save_request(&title, (kind.to_owned(), vec![extension.to_owned()]), name);
        self.ask_for_file(FileTask::ExportMap(extension), &request);
    }

    /// File → Export path: asks where to write the path export.
    pub(in crate::app) fn export_path_dialog(&mut self) {
        if let Err(text) = self.path_export_holding(false) {
            return self.show_error("Could not export the path", text);
        }
        let name = format!("{}-path.json", self.document.name());
        let request = save_request(
            "Export the path",
            (
                "Path export (.json) or samples (.csv)".to_owned(),
                PathExportFormat::EXTENSIONS.map(str::to_owned).to_vec(),
            ),
            name,
        );
        self.ask_for_file(FileTask::ExportPath, &request);
    }

    /// Save as: asks where to save the map as JSON; `then` goes on once it is saved.
    pub(in crate::app) fn save_as_then(&mut self, then: Option<Pending>) {
        let name = format!("{}.json", self.document.name());
        let request = save_request(
            "Save the map",
            filter(registry::FileKind::Map(MapFormat::Json)),
            name,
        );
        self.ask_for_file(FileTask::SaveAs(then), &request);
    }

    /// Makes the file dialogs of this editor the in-window ones, starting in `folder`, as on a
    /// desktop without a portal.
    pub fn with_in_window_file_dialogs(mut self, why: &str, folder: &Path) -> Self {
        self.file_dialogs = FileDialogs::InWindow(why.to_owned());
        self.dialog_folder = Some(folder.to_owned());
        self
    }

    /// Whether an in-window file dialog is open.
    pub fn is_picking_file(&self) -> bool {
        self.picker.is_some()
    }

    /// Asks for a file with the desktop's dialog where it can be shown, else with the
    /// in-window one; the answer is acted on by [`EditorApp::file_dialog_ui`].
    pub(in crate::app) fn ask_for_file(&mut self, task: FileTask, request: &FileRequest) {
        match &self.file_dialogs {
            FileDialogs::Native => {
                self.picked = Some(match request.native() {
                    Some(path) => Picked::File(task, path),
                    None => Picked::Cancelled(task),
                });
            }
            FileDialogs::InWindow(why) => {
                let text = format!("Using gridpath's own file dialog: {why}.");
                let folder = self
                    .dialog_folder
                    .clone()
                    .or_else(|| {
                        self.document
                            .path
                            .as_ref()
                            .and_then(|p| p.parent())
                            .map(Path::to_path_buf)
                    })
                    .or_else(|| std::env::current_dir().ok())
                    .unwrap_or_default();
                self.picker = Some(Box::new(InWindowPicker::open(task, request, &folder)));
                self.say(text, false);
            }
        }
    }

    /// Shows the in-window file dialog, and acts on the file chosen in either dialog.
    pub(in crate::app) fn file_dialog_ui(&mut self, ctx: &egui::Context) {
        if let Some(picker) = self.picker.take() {
            match picker.show(ctx) {
                Ok(picked) => self.picked = Some(picked),
                Err(open) => self.picker = Some(open),
            }
        }
        let Some(picked) = self.picked.take() else {
            return;
        };
        match picked {
            Picked::Cancelled(task) => self.say(task.cancelled().to_owned(), false),
            Picked::File(task, path) => {
                if let Some(folder) = path.parent() {
                    self.dialog_folder = Some(folder.to_owned());
                }
                match task {
                    FileTask::Open => self.open_file(ctx, &path),
                    FileTask::ImportMovingAi => self.open_map_file(ctx, &path),
                    FileTask::ImportImage => self.start_import(&path),
                    FileTask::ImportHeights => {
                        self.import_heights_from(&path);
                    }
                    FileTask::SaveAs(then) => {
                        if self.save_to(&path)
                            && let Some(pending) = then
                        {
                            self.proceed(ctx, pending);
                        }
                    }
                    FileTask::ExportMap(_) => {
                        self.export_map_to(&path);
                    }
                    FileTask::ExportPath => {
                        self.export_path_to(&path);
                    }
                    FileTask::LoadScenario => {
                        self.load_scenario_from(&path);
                    }
                    FileTask::LoadPlan => {
                        self.load_plan_from(&path);
                    }
                    FileTask::ExportPlan => {
                        self.export_plan_to(&path);
                    }
                }
            }
        }
    }

    /// Restores the work found in the recovery file.
    pub(in crate::app) fn restore_recovery(&mut self, ctx: &egui::Context) {
        if let Some(document) = self.autosave.restore() {
            let notice = "Restored unsaved work: save it to keep it.".to_owned();
            let replacement = Replacement { document, notice };
            self.guard(ctx, Pending::Replace(Box::new(replacement)));
        }
    }

    /// Deletes the work found in the recovery file.
    pub(in crate::app) fn drop_recovery(&mut self) {
        match self.autosave.drop_found() {
            Ok(()) => self.say(
                "Discarded the unsaved work of the last session.".to_owned(),
                false,
            ),
            Err(error) => self.show_error("Could not remove the recovery file", format!("{error}")),
        }
    }

    /// Once a frame, after the panels and dialogs: dropped files, the import dialog, the
    /// restore question and the autosave timer.
    pub(in crate::app) fn files_ui(&mut self, ctx: &egui::Context) {
        self.open_dropped_files(ctx);
        if let Some(dialog) = &mut self.level {
            match dialog.show(ctx) {
                None => {}
                Some(LevelAnswer::Cancel) => self.level = None,
                Some(LevelAnswer::Import(replacement)) => {
                    self.level = None;
                    self.guard(ctx, Pending::Replace(replacement));
                }
            }
        }
        if let Some(dialog) = &mut self.import {
            match dialog.show(ctx) {
                None => {}
                Some(ImportAnswer::Cancel) => self.import = None,
                Some(ImportAnswer::Import(outcome)) => {
                    self.import = None;
                    match outcome {
                        Ok(replacement) => self.guard(ctx, Pending::Replace(replacement)),
                        Err(text) => self.show_error("Could not import the image", text),
                    }
                }
            }
        }
        if self.dialog.is_none()
            && let Some(when) = self.autosave.offer()
        {
            self.dialog = Some(Dialog::Restore { when });
        }
        match self.autosave.tick(&self.document, Instant::now()) {
            Ok(Some(wait)) => ctx.request_repaint_after(wait),
            Ok(None) => {}
            Err(text) => self.say(text, true),
        }
    }

    /// Opens a file dropped on the window (the first, when several are dropped); while files
    /// are dragged over the window, says what a drop will do.
    fn open_dropped_files(&mut self, ctx: &egui::Context) {
        let hovering = ctx.input(|i| !i.raw.hovered_files.is_empty());
        if hovering {
            let layer = egui::LayerId::new(egui::Order::Foreground, egui::Id::unique("drop-hint"));
            let painter = ctx.layer_painter(layer);
            let screen = ctx.content_rect();
            painter.rect_filled(screen, 0.0, egui::Color32::from_black_alpha(160));
            painter.text(
                screen.center(),
                egui::Align2::CENTER_CENTER,
                "Drop a map (.json, .map) to open it, or an image or map.yaml to import it",
                egui::FontId::proportional(20.0),
                egui::Color32::WHITE,
            );
        }
        let dropped: Vec<PathBuf> = ctx.input(|i| {
            i.raw
                .dropped_files
                .iter()
                .map(|f| f.path().to_path_buf())
                .collect()
        });
        let Some(path) = dropped.first() else {
            return;
        };
        if self.dialog.is_some() || self.import.is_some() || self.level.is_some() {
            self.say(
                "Close the open dialog before dropping a file.".to_owned(),
                true,
            );
            return;
        }
        self.open_file(ctx, path);
        if dropped.len() > 1 && self.dialog.is_none() {
            self.say(
                format!("{} files dropped: opened the first.", dropped.len()),
                false,
            );
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn files_are_sorted_by_extension() {
        assert_eq!(file_kind(Path::new("a.JSON")), FileKind::Map);
        assert_eq!(file_kind(Path::new("a.map")), FileKind::Map);
        assert_eq!(file_kind(Path::new("a.jpeg")), FileKind::Image);
        assert_eq!(file_kind(Path::new("site.yaml")), FileKind::Image);
        assert_eq!(file_kind(Path::new("notes.txt")), FileKind::Other);
    }
}
