//! Planning again as the map changes: D* Lite's incremental state towards one goal, and the
//! replanner that owns a map's search state and takes its edits.

pub(super) mod background;
pub(super) mod dstar_lite;
pub(super) mod replanner;
