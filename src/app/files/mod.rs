//! Files in the editor: the file menu's [`actions`] (open, import, save, export, restore), the
//! file [`picker`], the image [`import_dialog`] and the [`level_dialog`] for Tiled and LDtk
//! maps, the [`autosave`] recovery file, and the [`preferences`] that keep the recent files.

pub mod actions;
pub mod autosave;
pub mod import_dialog;
pub mod level_dialog;
pub mod picker;
pub mod preferences;
