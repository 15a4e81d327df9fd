//! The desktop editor: an eframe window over the library.
//!
//! The window ([`EditorApp`]) holds a [`document::Document`] and its [`history::History`];
//! the [`canvas::Canvas`] shows the map as a texture, the [`tools`] say which cells a tool
//! covers, and the [`planner::Planner`] runs the search between the markers.

#[allow(clippy::module_inception)]
mod app;
pub mod canvas;
mod dialog;
pub mod document;
pub mod edit;
pub mod exploration;
pub mod history;
mod interaction;
mod menus;
pub mod palette;
pub mod planner;
pub mod region;
pub mod resize;
pub mod search_panel;
pub mod search_view;
pub mod stroke;
pub mod tools;

use std::path::PathBuf;

pub use app::EditorApp;
pub use interaction::Marker;

/// Opens the editor window, on `map` or on the built-in default map.
pub fn run(map: Option<PathBuf>) -> anyhow::Result<()> {
    let app = EditorApp::new(map.as_deref())?;
    let options = eframe::NativeOptions {
        viewport: egui::ViewportBuilder::default()
            .with_title(app.title())
            .with_inner_size([1200.0, 780.0])
            .with_min_inner_size([640.0, 420.0]),
        ..Default::default()
    };
    eframe::run_native("gridpath", options, Box::new(|_cc| Ok(Box::new(app))))
        .map_err(|e| anyhow::anyhow!("the editor window failed: {e}"))
}
