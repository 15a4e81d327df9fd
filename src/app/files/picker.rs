//! Asking the user for a file: the desktop's own dialog where one can be shown, and
//! gridpath's in-window dialog ([`egui_file`]) where none can.
//!
//! On Linux and the BSDs the desktop's dialogs come from xdg-desktop-portal over the session
//! D-Bus. Where no portal runs (plain X sessions, many tiling window managers, containers)
//! the native dialog silently shows nothing, so the editor checks for a portal when it starts
//! ([`desktop_dialogs`]) and uses the in-window dialog instead, saying why in the status bar.
//! `GRIDPATH_FILE_DIALOG=builtin` (or `native`) overrides the check.

use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

use egui_file::{DialogType, FileDialog, State};

use crate::app::dialog::Pending;

/// Which file dialogs the editor shows.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum FileDialogs {
    /// The desktop's own dialogs (through rfd).
    Native,
    /// gridpath's in-window dialog; the text says why the desktop's cannot be used.
    InWindow(String),
}

/// The D-Bus name of the desktop portal that shows file dialogs on Linux.
const PORTAL: &str = "org.freedesktop.portal.Desktop";

/// Which dialogs work here, judged from the environment (`env`) and the files that exist
/// (`exists`): on Linux and the BSDs the desktop's dialogs need a session bus and a portal
/// that the bus can start (its service file in `dbus-1/services` of a data directory).
pub fn desktop_dialogs(
    env: impl Fn(&str) -> Option<OsString>,
    exists: impl Fn(&Path) -> bool,
) -> FileDialogs {
    match env("GRIDPATH_FILE_DIALOG")
        .as_ref()
        .and_then(|v| v.to_str())
    {
        Some("native") => return FileDialogs::Native,
        Some("builtin") => {
            return FileDialogs::InWindow("GRIDPATH_FILE_DIALOG=builtin".to_owned());
        }
        _ => {}
    }
    if !cfg!(all(unix, not(target_os = "macos"))) {
        return FileDialogs::Native;
    }
    if env("DBUS_SESSION_BUS_ADDRESS").is_none_or(|v| v.is_empty()) {
        return FileDialogs::InWindow(
            "no D-Bus session bus for the desktop's file dialog".to_owned(),
        );
    }
    let data_dirs = env("XDG_DATA_DIRS")
        .filter(|v| !v.is_empty())
        .unwrap_or_else(|| "/usr/local/share:/usr/share".into());
    let mut dirs: Vec<PathBuf> = std::env::split_paths(&data_dirs).collect();
    if let Some(home) = env("XDG_DATA_HOME").or_else(|| {
        env("HOME").map(|h| {
            let mut p = PathBuf::from(h);
            p.push(".local/share");
            p.into_os_string()
        })
    }) {
        dirs.push(PathBuf::from(home));
    }
    let service = format!("dbus-1/services/{PORTAL}.service");
    if dirs.iter().any(|d| exists(&d.join(&service))) {
        FileDialogs::Native
    } else {
        FileDialogs::InWindow(
            "no xdg-desktop-portal is installed to show the desktop's file dialog".to_owned(),
        )
    }
}

/// The dialogs of this process's environment.
pub fn desktop_dialogs_here() -> FileDialogs {
    desktop_dialogs(|k| std::env::var_os(k), Path::exists)
}

/// What a chosen file is for.
#[derive(Debug)]
pub enum FileTask {
    /// File → Open.
    Open,
    /// File → Import image (an image or a ROS `map.yaml`).
    ImportImage,
    /// File → Import Moving AI map.
    ImportMovingAi,
    /// File → Import heights.
    ImportHeights,
    /// Save as; then what was waiting for the save, if anything.
    SaveAs(Option<Pending>),
    /// Export the map in the format of this extension.
    ExportMap(&'static str),
    /// Export the path.
    ExportPath,
    /// Load the team's units from a Moving AI scenario.
    LoadScenario,
    /// Load a multi-agent plan (LaCAM's text format).
    LoadPlan,
    /// Export the team's plan.
    ExportPlan,
}

impl FileTask {
    /// What the status bar says when no file was chosen.
    pub fn cancelled(&self) -> &'static str {
        match self {
            FileTask::SaveAs(_) => "Not saved: no file chosen.",
            FileTask::ExportMap(_) | FileTask::ExportPath | FileTask::ExportPlan => {
                "Not exported: no file chosen."
            }
            _ => "No file chosen.",
        }
    }

    /// The extension a file name typed without one gets, for the tasks that write.
    fn extension(&self) -> Option<&'static str> {
        match self {
            FileTask::SaveAs(_) | FileTask::ExportPath | FileTask::ExportPlan => Some("json"),
            FileTask::ExportMap(ext) => Some(ext),
            _ => None,
        }
    }
}

/// What to ask for: the dialog's title, its filters, and for a save the suggested name.
#[derive(Clone, Debug, PartialEq)]
pub struct FileRequest {
    /// The dialog's title.
    pub title: String,
    /// Named filters, each a list of extensions; the first is the in-window dialog's.
    pub filters: Vec<(String, Vec<String>)>,
    /// The suggested file name, for a dialog that asks where to write.
    pub save_name: Option<String>,
}

impl FileRequest {
    /// Asks with the desktop's dialog; `None` when the user cancels.
    pub fn native(&self) -> Option<PathBuf> {
        let mut dialog = rfd::FileDialog::new().set_title(&self.title);
        for (name, extensions) in &self.filters {
            dialog = dialog.add_filter(name, extensions);
        }
        match &self.save_name {
            Some(name) => dialog.set_file_name(name).save_file(),
            None => dialog.pick_file(),
        }
    }
}

/// An open in-window file dialog and what its answer is for.
pub struct InWindowPicker {
    task: FileTask,
    dialog: FileDialog,
    /// The file name last typed in the dialog's name field (read through its name filter).
    typed: Arc<Mutex<String>>,
}

impl std::fmt::Debug for InWindowPicker {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("InWindowPicker")
            .field("task", &self.task)
            .finish_non_exhaustive()
    }
}

/// The answer of an in-window dialog.
#[derive(Debug)]
pub enum Picked {
    /// A file was chosen for the task.
    File(FileTask, PathBuf),
    /// The dialog was closed without a file.
    Cancelled(FileTask),
}

impl InWindowPicker {
    /// Opens an in-window dialog for `request`, starting in `folder`.
    pub fn open(task: FileTask, request: &FileRequest, folder: &Path) -> Self {
        let extensions: Vec<String> = request
            .filters
            .first()
            .map(|(_, e)| e.clone())
            .unwrap_or_default();
        let mut dialog = match &request.save_name {
            Some(name) => FileDialog::save_file().default_filename(name.clone()),
            None => FileDialog::open_file().show_files_filter(Box::new(move |path: &Path| {
                path.extension()
                    .and_then(|e| e.to_str())
                    .is_some_and(|e| extensions.iter().any(|x| e.eq_ignore_ascii_case(x)))
            })),
        }
        .title(&request.title)
        .initial_path(folder)
        .default_size([560.0, 420.0]);
        // The dialog keeps the name typed to itself, but asks its name filter about it every
        // frame: the filter keeps a copy, so that Open can take a typed name.
        let typed = Arc::new(Mutex::new(String::new()));
        let seen = Arc::clone(&typed);
        dialog = dialog.filename_filter(Box::new(move |name: &str| {
            if let Ok(mut typed) = seen.lock() {
                name.clone_into(&mut typed);
            }
            true
        }));
        dialog.open();
        Self {
            task,
            dialog,
            typed,
        }
    }

    /// The file an Open click names when no file of the list is selected: the name typed,
    /// in the folder shown, when it is a file.
    fn typed_file(&self, ctx: &egui::Context, events_before: usize) -> Option<PathBuf> {
        if self.dialog.dialog_type() != DialogType::OpenFile || self.dialog.path().is_some() {
            return None;
        }
        let open_clicked = ctx.output(|o| {
            o.events.iter().skip(events_before).any(|e| {
                matches!(e, egui::output::OutputEvent::Clicked(info)
                    if info.role == egui::Role::Button
                        && info.label.as_deref() == Some("Open"))
            })
        });
        if !open_clicked {
            return None;
        }
        let name = self.typed.lock().ok()?.trim().to_owned();
        if name.is_empty() {
            return None;
        }
        let path = self.dialog.directory().join(name);
        path.is_file().then_some(path)
    }

    /// Shows the dialog; returns its answer once there is one.
    pub fn show(mut self: Box<Self>, ctx: &egui::Context) -> Result<Picked, Box<Self>> {
        let events_before = ctx.output(|o| o.events.len());
        self.dialog.show(ctx);
        if self.dialog.state() == State::Open
            && let Some(path) = self.typed_file(ctx, events_before)
        {
            return Ok(Picked::File(self.task, path));
        }
        match self.dialog.state() {
            State::Selected => {
                let Some(path) = self.dialog.path().map(Path::to_path_buf) else {
                    return Ok(Picked::Cancelled(self.task));
                };
                let task = self.task;
                let path = match (self.dialog.dialog_type(), task.extension()) {
                    (DialogType::SaveFile, Some(ext)) if path.extension().is_none() => {
                        path.with_extension(ext)
                    }
                    _ => path,
                };
                Ok(Picked::File(task, path))
            }
            State::Cancelled | State::Closed => Ok(Picked::Cancelled(self.task)),
            State::Open => Err(self),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashMap;

    fn judge(env: &[(&str, &str)], files: &[&str]) -> FileDialogs {
        let env: HashMap<String, OsString> = env
            .iter()
            .map(|(k, v)| ((*k).to_owned(), OsString::from(v)))
            .collect();
        desktop_dialogs(
            |k| env.get(k).cloned(),
            |p| files.iter().any(|f| Path::new(f) == p),
        )
    }

    #[test]
    fn the_desktop_dialogs_need_a_bus_and_a_portal() {
        if !cfg!(all(unix, not(target_os = "macos"))) {
            assert_eq!(judge(&[], &[]), FileDialogs::Native);
            return;
        }
        let service = "/usr/share/dbus-1/services/org.freedesktop.portal.Desktop.service";
        let bus = ("DBUS_SESSION_BUS_ADDRESS", "unix:path=/run/user/1000/bus");
        assert_eq!(judge(&[bus], &[service]), FileDialogs::Native);
        assert!(
            matches!(judge(&[], &[service]), FileDialogs::InWindow(why) if why.contains("D-Bus"))
        );
        assert!(matches!(judge(&[bus], &[]), FileDialogs::InWindow(why) if why.contains("portal")));
        // A portal installed under a data directory of the user's own.
        let own = "/opt/desk/dbus-1/services/org.freedesktop.portal.Desktop.service";
        assert_eq!(
            judge(&[bus, ("XDG_DATA_DIRS", "/opt/desk")], &[own]),
            FileDialogs::Native
        );
        assert_eq!(
            judge(&[("GRIDPATH_FILE_DIALOG", "native")], &[]),
            FileDialogs::Native
        );
        assert!(matches!(
            judge(&[bus, ("GRIDPATH_FILE_DIALOG", "builtin")], &[service]),
            FileDialogs::InWindow(_)
        ));
    }
}
