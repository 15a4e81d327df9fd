//! The editor's file actions: opening maps (from the file dialog, the recent-files list or a
//! drop on the window), importing images and Moving AI maps, the exports, and restoring work
//! from the recovery file.
//!
//! A map that takes the open map's place is loaded first and only then goes through the
//! unsaved-changes question, so a file that fails to load never costs the open map or its
//! unsaved state.
//!
//! The room keeps its own state ([`Files`]: the preferences, the recovery file, the open
//! dialogs) and answers the editor window with [`FileIntent`]s and [`Report`]s, which the
//! window carries out.

use std::path::{Path, PathBuf};
use std::time::Instant;

use crate::format::level::LevelOptions;
use crate::format::registry;
use crate::format::ros_map::RosMap;
use crate::format::save;
use crate::format::{MapFormat, PathExport, PathExportFormat};

use super::autosave::Autosave;
use super::import_dialog::{ImportAnswer, ImportDialog};
use super::level_dialog::{LevelAnswer, LevelDialog};
use super::picker::{self, FileDialogs, FileRequest, FileTask, InWindowPicker, Picked};
use super::preferences::Preferences;
use crate::app::dialog::Pending;
use crate::app::document::{Document, Replacement};
use crate::app::report::Report;
use crate::app::search::planner::Planner;
use crate::grid::{Grid, Map, Terrain};

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

/// What the file room asks of the editor window.
#[derive(Debug)]
pub enum FileIntent {
    /// Say how an action went.
    Report(Report),
    /// Put a loaded map in place of the open one, after the unsaved-changes question.
    Replace(Box<Replacement>),
    /// Open a file by its kind: the first of `dropped` files dropped on the window.
    Open {
        /// The file.
        path: PathBuf,
        /// How many files were dropped.
        dropped: usize,
    },
    /// Act on a file chosen in a file dialog.
    Chosen(FileTask, PathBuf),
}

/// A question for a file: what the file is for, and the dialog's title and filters.
pub type FileAsk = (FileTask, FileRequest);

/// The file room's state: the preferences, the recovery file, the import and level dialogs,
/// and the file dialogs.
pub struct Files {
    /// The recent files, kept for the next session.
    pub preferences: Preferences,
    /// The recovery file of unsaved work.
    pub autosave: Autosave,
    /// The open image import dialog.
    pub import: Option<ImportDialog>,
    /// The open level dialog (Tiled, LDtk).
    pub level: Option<LevelDialog>,
    /// Which file dialogs this editor shows.
    pub dialogs: FileDialogs,
    /// The open in-window file dialog.
    picker: Option<Box<InWindowPicker>>,
    /// A file chosen (or not) in a dialog, to act on this frame.
    picked: Option<Picked>,
    /// The folder the last file was chosen in, where the next dialog starts.
    pub folder: Option<PathBuf>,
}

impl Default for Files {
    fn default() -> Self {
        Self {
            preferences: Preferences::default(),
            autosave: Autosave::default(),
            import: None,
            level: None,
            dialogs: picker::desktop_dialogs_here(),
            picker: None,
            picked: None,
            folder: None,
        }
    }
}

impl Files {
    /// Whether the import or the level dialog is open.
    pub fn has_dialog(&self) -> bool {
        self.import.is_some() || self.level.is_some()
    }

    /// Whether an in-window file dialog is open.
    pub fn is_picking(&self) -> bool {
        self.picker.is_some()
    }

    /// Looks for unsaved work of an earlier session in the recovery file.
    pub fn offer_recovery(&mut self) -> Option<Report> {
        self.autosave
            .look()
            .err()
            .map(|error| Report::failed("Could not read the recovery file", error.to_string()))
    }

    /// Takes the preferences saved by an earlier session; files remembered before the
    /// storage was read (the one on the command line) stay first.
    pub fn load_preferences(&mut self, preferences: Preferences) {
        let current = std::mem::replace(&mut self.preferences, preferences);
        for path in current.recent.iter().rev() {
            self.preferences.remember(path);
        }
    }

    /// Opens the import dialog on an image (`.png`, `.jpg`, `.bmp`) or a ROS `map.yaml`, for
    /// a map of the `terrains`; an image with a `map.yaml` of its own name beside it that
    /// names it is read through that file (its resolution, origin and thresholds), and the
    /// report says so. A file that cannot be read or decoded is reported.
    pub fn start_import(&mut self, path: &Path, terrains: &[Terrain]) -> Option<Report> {
        let yaml = yaml_beside(path);
        let read = yaml.as_deref().unwrap_or(path);
        match ImportDialog::open(read, terrains) {
            Ok(dialog) => {
                self.import = Some(dialog);
                yaml.map(|yaml| {
                    Report::Said(format!(
                        "Reading {} through {} beside it: its resolution, origin and thresholds.",
                        path.display(),
                        yaml.display()
                    ))
                })
            }
            Err(error) => Some(Report::failed(
                "Could not import the image",
                error.to_string(),
            )),
        }
    }

    /// Opens the level dialog on a level file, on the given level and layer. A file that
    /// cannot be read is reported.
    pub fn start_level_import(&mut self, path: &Path, options: LevelOptions) -> Option<Report> {
        match LevelDialog::open(path, options) {
            Ok(dialog) => {
                self.level = Some(dialog);
                None
            }
            Err(error) => Some(Report::failed(
                "Could not open the level",
                error.to_string(),
            )),
        }
    }

    /// Opens a map, image or `map.yaml` by its extension: a map is loaded to take the open
    /// map's place (of the `terrains`' catalog for an import), a level opens the level
    /// dialog, an image the import dialog.
    pub fn open(&mut self, path: &Path, terrains: &[Terrain]) -> Option<FileIntent> {
        match file_kind(path) {
            FileKind::Map => Some(open_map(path)),
            FileKind::Level => self
                .start_level_import(path, LevelOptions::default())
                .map(FileIntent::Report),
            FileKind::Image => self.start_import(path, terrains).map(FileIntent::Report),
            FileKind::Other => Some(FileIntent::Report(Report::failed(
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
            ))),
        }
    }

    /// Asks for a file with the desktop's dialog where it can be shown, else with the
    /// in-window one, starting in the folder of the last file chosen, else in `near` (the
    /// open map's folder); the answer comes from [`Files::dialog_ui`].
    pub fn ask(&mut self, (task, request): FileAsk, near: Option<&Path>) -> Option<Report> {
        match &self.dialogs {
            FileDialogs::Native => {
                self.picked = Some(match request.native() {
                    Some(path) => Picked::File(task, path),
                    None => Picked::Cancelled(task),
                });
                None
            }
            FileDialogs::InWindow(why) => {
                let text = format!("Using gridpath's own file dialog: {why}.");
                let folder = start_folder(self.folder.as_deref(), near);
                self.picker = Some(Box::new(InWindowPicker::open(task, &request, &folder)));
                Some(Report::Said(text))
            }
        }
    }

    /// Shows the in-window file dialog, and hands on the file chosen in either dialog.
    pub fn dialog_ui(&mut self, ctx: &egui::Context) -> Option<FileIntent> {
        if let Some(picker) = self.picker.take() {
            match picker.show(ctx) {
                Ok(picked) => self.picked = Some(picked),
                Err(open) => self.picker = Some(open),
            }
        }
        match self.picked.take()? {
            Picked::Cancelled(task) => Some(FileIntent::Report(Report::Said(
                task.cancelled().to_owned(),
            ))),
            Picked::File(task, path) => {
                if let Some(folder) = path.parent() {
                    self.folder = Some(folder.to_owned());
                }
                Some(FileIntent::Chosen(task, path))
            }
        }
    }

    /// The work found in the recovery file, to put in place of the open map.
    pub fn restore_recovery(&mut self) -> Option<FileIntent> {
        self.autosave.restore().map(|document| {
            let notice = "Restored unsaved work: save it to keep it.".to_owned();
            FileIntent::Replace(Box::new(Replacement { document, notice }))
        })
    }

    /// Deletes the work found in the recovery file.
    pub fn drop_recovery(&mut self) -> Report {
        match self.autosave.drop_found() {
            Ok(()) => Report::Said("Discarded the unsaved work of the last session.".to_owned()),
            Err(error) => Report::failed("Could not remove the recovery file", format!("{error}")),
        }
    }

    /// The file dropped on the window (the first, when several are dropped), unless a dialog
    /// is open (`busy`); while files are dragged over the window, says what a drop will do.
    pub fn drop_ui(&mut self, ctx: &egui::Context, busy: bool) -> Option<FileIntent> {
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
        let path = dropped.first()?;
        if busy || self.has_dialog() {
            return Some(FileIntent::Report(Report::Warned(
                "Close the open dialog before dropping a file.".to_owned(),
            )));
        }
        Some(FileIntent::Open {
            path: path.clone(),
            dropped: dropped.len(),
        })
    }

    /// Shows the level and import dialogs, and hands on the map one of them made.
    pub fn dialogs_ui(&mut self, ctx: &egui::Context) -> Vec<FileIntent> {
        let mut intents = Vec::new();
        if let Some(dialog) = &mut self.level {
            match dialog.show(ctx) {
                None => {}
                Some(LevelAnswer::Cancel) => self.level = None,
                Some(LevelAnswer::Import(replacement)) => {
                    self.level = None;
                    intents.push(FileIntent::Replace(replacement));
                }
            }
        }
        if let Some(dialog) = &mut self.import {
            match dialog.show(ctx) {
                None => {}
                Some(ImportAnswer::Cancel) => self.import = None,
                Some(ImportAnswer::Import(outcome)) => {
                    self.import = None;
                    intents.push(match outcome {
                        Ok(replacement) => FileIntent::Replace(replacement),
                        Err(text) => {
                            FileIntent::Report(Report::failed("Could not import the image", text))
                        }
                    });
                }
            }
        }
        intents
    }

    /// Writes the recovery file when it is time; says when that failed.
    pub fn tick(&mut self, ctx: &egui::Context, document: &Document) -> Option<Report> {
        match self.autosave.tick(document, Instant::now()) {
            Ok(Some(wait)) => {
                ctx.request_repaint_after(wait);
                None
            }
            Ok(None) => None,
            Err(text) => Some(Report::Warned(text)),
        }
    }
}

/// Loads a `.json` or `.map` file, to take the open map's place after the unsaved-changes
/// question. A load that fails is reported.
pub fn open_map(path: &Path) -> FileIntent {
    match Document::open(path) {
        Ok(document) => {
            let notice = format!("Opened {}.", path.display());
            FileIntent::Replace(Box::new(Replacement { document, notice }))
        }
        Err(error) => {
            FileIntent::Report(Report::failed("Could not open the map", error.to_string()))
        }
    }
}

/// Writes the map as a Moving AI `.map`, a Tiled `.tmj` or `.tmx`, a `.png` (one pixel per
/// cell) or a `.json`, chosen by the extension.
pub fn export_map(map: &Map, path: &Path) -> Report {
    match save::save_map(map, path) {
        Ok(()) => {
            let json = registry::kind_of(path) == Some(registry::FileKind::Map(MapFormat::Json));
            let mut lost = Vec::new();
            if !json && map.grid.heights().is_some() {
                lost.push("heights");
            }
            if !json && !map.waypoints.is_empty() {
                lost.push("waypoints");
            }
            Report::Said(if lost.is_empty() {
                format!("Exported {}.", path.display())
            } else {
                format!(
                    "Exported {} without the {}: only a gridpath map (.json) keeps them.",
                    path.display(),
                    lost.join(" and ")
                )
            })
        }
        Err(error) => Report::failed("Could not export the map", error.to_string()),
    }
}

/// The path export of the planner's latest plan on `map`: its request, the grid path, and
/// the smoothed path drawn on the canvas, sampled every `spacing`; holding its samples or not
/// ([`PathExport::outline`]: what a file is written from, the samples computed as they are
/// written).
pub fn path_export(
    map: &Map,
    planner: &Planner,
    spacing: f64,
    samples: bool,
) -> Result<PathExport, String> {
    let plan = planner
        .plan()
        .ok_or("There is no path to export: place the start and goal markers first.")?;
    if planner.is_stale() {
        return Err(
            "The path on screen is older than the map or the settings: plan it again (Find path) before exporting."
                .to_owned(),
        );
    }
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
        spacing,
    );
    Ok(match &plan.route {
        Some(route) => export.with_route(route),
        None => export,
    })
}

/// Writes a path export to `path`, encoded as its extension says (`.json` for the
/// `gridpath-path` document, `.csv` for the curve's samples; any other is refused).
pub fn export_path(export: Result<PathExport, String>, path: &Path) -> Report {
    let written = export.and_then(|export| export.write_to(path).map_err(|e| e.to_string()));
    match written {
        Ok(format) => {
            let what = match format {
                PathExportFormat::Json => "the path export",
                PathExportFormat::Csv => "the path's samples as CSV",
            };
            Report::Said(format!("Exported {what} to {}.", path.display()))
        }
        Err(text) => Report::failed("Could not export the path", text),
    }
}

/// The heights of a grayscale image for `grid` (black 0, `white` the Heights panel's
/// *Import white*; resampled to the grid's size), with what the status bar says of them.
pub fn read_heights(path: &Path, grid: &Grid, white: f32) -> Result<(Vec<f32>, String), Report> {
    let white = f64::from(white);
    let heights =
        crate::format::height_image::load_heights(path, grid.width(), grid.height(), white)
            .map_err(|error| Report::failed("Could not import the heights", error.to_string()))?;
    let name = path
        .file_name()
        .map_or_else(String::new, |n| n.to_string_lossy().into_owned());
    Ok((
        heights,
        format!("Heights from {name}: black is 0, white {white}."),
    ))
}

/// File → Open: asks for a map file.
pub fn open_dialog() -> FileAsk {
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
    (FileTask::Open, request)
}

/// File → Import image: asks for an image or a ROS `map.yaml`.
pub fn import_image_dialog() -> FileAsk {
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
    (FileTask::ImportImage, request)
}

/// File → Import heights: asks for a grayscale image.
pub fn import_heights_dialog() -> FileAsk {
    let request = open_request(
        "Import heights from a grayscale image",
        vec![filter(registry::FileKind::Image)],
    );
    (FileTask::ImportHeights, request)
}

/// File → Import Moving AI map: asks for a `.map` file.
pub fn import_movingai_dialog() -> FileAsk {
    let request = open_request(
        "Import a Moving AI map",
        vec![filter(registry::FileKind::Map(MapFormat::MovingAi))],
    );
    (FileTask::ImportMovingAi, request)
}

/// File → Import Tiled or LDtk level: asks for a `.tmx`, `.tmj` or `.ldtk` file.
pub fn import_level_dialog() -> FileAsk {
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
    (FileTask::Open, request)
}

/// File → Export Moving AI map, Tiled map and PNG: asks where to write the map `name`.
pub fn export_map_dialog(kind: &str, extension: &'static str, name: &str) -> FileAsk {
    let name = format!("{name}.{extension}");
    let title = format!("Export the map as {kind}");
    let request = save_request(&title, (kind.to_owned(), vec![extension.to_owned()]), name);
    (FileTask::ExportMap(extension), request)
}

/// File → Export path: asks where to write the path export of the map `name`.
pub fn export_path_dialog(name: &str) -> FileAsk {
    let request = save_request(
        "Export the path",
        (
            "Path export (.json) or samples (.csv)".to_owned(),
            PathExportFormat::EXTENSIONS.map(str::to_owned).to_vec(),
        ),
        format!("{name}-path.json"),
    );
    (FileTask::ExportPath, request)
}

/// Save as: asks where to save the map `name` as JSON; `then` goes on once it is saved.
pub fn save_as_dialog(name: &str, then: Option<Pending>) -> FileAsk {
    let request = save_request(
        "Save the map",
        filter(registry::FileKind::Map(MapFormat::Json)),
        format!("{name}.json"),
    );
    (FileTask::SaveAs(then), request)
}

/// Where an in-window dialog starts: the folder of the last file chosen, else `near` (the
/// open map's folder), else the working folder; made absolute, and only a folder that exists.
/// A map opened by a bare name (`gridpath edit room.map`) has the empty path for its folder,
/// which is the working folder, not a folder of that name.
fn start_folder(last: Option<&Path>, near: Option<&Path>) -> PathBuf {
    let working = std::env::current_dir().unwrap_or_default();
    [last, near]
        .into_iter()
        .flatten()
        .map(|p| {
            if p.as_os_str().is_empty() {
                working.clone()
            } else {
                std::path::absolute(p).unwrap_or_else(|_| p.to_path_buf())
            }
        })
        .find(|p| p.is_dir())
        .unwrap_or(working)
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

    #[test]
    fn an_in_window_dialog_starts_in_a_folder_that_exists() {
        let working = std::env::current_dir().expect("a working folder");
        // A map opened by a bare name: its folder is the empty path.
        let bare = Path::new("room.map").parent();
        assert_eq!(bare, Some(Path::new("")));
        assert_eq!(start_folder(None, bare), working);
        // A relative folder is made absolute; a folder that does not exist is passed over.
        assert_eq!(
            start_folder(None, Some(Path::new("src"))),
            working.join("src")
        );
        let gone = Path::new("/no/such/folder");
        assert_eq!(
            start_folder(Some(gone), Some(Path::new("src"))),
            working.join("src")
        );
        assert_eq!(start_folder(None, None), working);
    }
}
