//! The desktop editor: an eframe window over the library.
//!
//! The window ([`EditorApp`]) holds a [`document::Document`] and its [`history::History`] of
//! [`edit`]s, with the menus, palette and dialogs around them. Its rooms:
//! - [`canvas`]: the map on screen, what the pointer does on it, and the painting tools;
//! - [`search`]: the planner that runs searches between the markers, and the panels and views
//!   that show them;
//! - [`files`]: the file menu's actions, the pickers, the import and level dialogs, and the
//!   autosave recovery file that keeps unsaved work through a crash;
//! - [`agents`]: many units at once (multi-agent path finding).

pub mod agents;
#[expect(
    clippy::module_inception,
    reason = "the editor window is the module's main type, named after it"
)]
mod app;
pub mod canvas;
pub mod commands;
mod dialog;
pub mod document;
pub mod edit;
pub mod files;
pub mod history;
pub mod menus;
pub mod palette;
pub mod region;
pub mod relief_panel;
pub mod report;
pub mod resize;
pub mod search;

use std::path::Path;

use crate::format::level::LevelOptions;

pub use app::EditorApp;
pub use canvas::gesture::Marker;

/// Opens the editor window, on `map` or on the built-in default map; an image or a ROS
/// `map.yaml` opens the import dialog, and a Tiled map or LDtk project the level dialog,
/// over the built-in map (on the level and layer of `level_options`). With `team`, a Moving AI
/// scenario and a count, its first units are loaded into the Agents panel and solved. Autosave
/// writes to the recovery folder ([`files::autosave::default_recovery_dir`]); work left there by an
/// earlier session is offered for restoring.
pub fn run(
    map: Option<&Path>,
    level_options: LevelOptions,
    team: Option<(&Path, usize)>,
) -> anyhow::Result<()> {
    let import = map.filter(|p| files::actions::is_importable(p));
    let level = map.filter(|p| files::actions::is_level(p));
    let direct = map.filter(|_| import.is_none() && level.is_none());
    let mut app = EditorApp::new(direct)?;
    if let Some(path) = import {
        app.start_import(path);
    }
    if let Some(path) = level {
        app.start_level_import_with(path, level_options);
    }
    if let Some((scenario, count)) = team {
        app.agents_mut().load_count = count;
        app.load_scenario_from(scenario);
    }
    if let Some(dir) = files::autosave::default_recovery_dir() {
        app = app.with_autosave(&dir, files::autosave::AUTOSAVE_INTERVAL);
        app.offer_recovery();
    }
    let options = eframe::NativeOptions {
        viewport: egui::ViewportBuilder::default()
            .with_title(app.title())
            .with_inner_size([1200.0, 780.0])
            .with_min_inner_size([640.0, 420.0]),
        ..Default::default()
    };
    let create = Box::new(move |cc: &eframe::CreationContext<'_>| {
        if let Some(storage) = cc.storage {
            app.load_preferences(storage);
        }
        Ok(Box::new(app) as Box<dyn eframe::App>)
    });
    eframe::run_native("gridpath", options, create)
        .map_err(|e| anyhow::anyhow!("the editor window failed: {e}"))
}
