//! The desktop editor: an eframe window over the library.

use std::path::PathBuf;

/// Opens the editor window, on `map` or on the built-in default map.
pub fn run(_map: Option<PathBuf>) -> anyhow::Result<()> {
    anyhow::bail!("the editor is not built yet; use `gridpath solve` or `gridpath scen`")
}
