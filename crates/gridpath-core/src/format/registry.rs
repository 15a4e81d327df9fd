//! Every kind of file gridpath reads or writes, by extension: the one list the command line,
//! the editor's file dialogs and drag and drop consult.
//!
//! ```
//! use std::path::Path;
//! use gridpath_core::format::MapFormat;
//! use gridpath_core::format::registry::{self, FileKind};
//!
//! assert_eq!(registry::kind_of(Path::new("level.JSON")), Some(FileKind::Map(MapFormat::Json)));
//! assert_eq!(registry::kind_of(Path::new("floor.pgm")), Some(FileKind::Image));
//! assert_eq!(registry::kind_of(Path::new("dungeon.tmx")), Some(FileKind::Map(MapFormat::Tiled)));
//! assert_eq!(registry::kind_of(Path::new("site.yaml")), Some(FileKind::RosMap));
//! assert_eq!(registry::kind_of(Path::new("notes.txt")), None);
//! assert!(registry::extensions(FileKind::Image).contains(&"png"));
//! ```

use std::path::Path;

use super::MapFormat;

/// What a file holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FileKind {
    /// A map read whole: gridpath's JSON, a Moving AI map, a Tiled map or an LDtk project
    /// (all but LDtk are written too).
    Map(MapFormat),
    /// An image: imported through occupancy or palette settings; a map is written as one
    /// pixel of its terrain's colour per cell (PNG).
    Image,
    /// A ROS `map_server` map: a `map.yaml` and the image it names.
    RosMap,
}

/// One kind of file: its name for people and its extensions (lower case, without the dot).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FileType {
    /// What the file holds.
    pub kind: FileKind,
    /// The name file dialogs show.
    pub name: &'static str,
    /// The extensions, the usual one first.
    pub extensions: &'static [&'static str],
}

/// Every kind of file, in the order file dialogs list them.
pub const FILE_TYPES: [FileType; 6] = [
    FileType {
        kind: FileKind::Map(MapFormat::Json),
        name: "gridpath map",
        extensions: &["json"],
    },
    FileType {
        kind: FileKind::Map(MapFormat::MovingAi),
        name: "Moving AI map",
        extensions: &["map"],
    },
    FileType {
        kind: FileKind::Map(MapFormat::Tiled),
        name: "Tiled map",
        extensions: &["tmx", "tmj"],
    },
    FileType {
        kind: FileKind::Map(MapFormat::Ldtk),
        name: "LDtk project",
        extensions: &["ldtk"],
    },
    FileType {
        kind: FileKind::Image,
        name: "Image",
        extensions: &["png", "jpg", "jpeg", "bmp", "pgm", "pbm", "ppm", "pnm"],
    },
    FileType {
        kind: FileKind::RosMap,
        name: "ROS map.yaml",
        extensions: &["yaml", "yml"],
    },
];

/// The kind of a file, by its extension (in any case); `None` for a kind gridpath does not
/// know.
pub fn kind_of(path: &Path) -> Option<FileKind> {
    let ext = path.extension()?.to_str()?;
    FILE_TYPES
        .iter()
        .find(|t| t.extensions.iter().any(|x| ext.eq_ignore_ascii_case(x)))
        .map(|t| t.kind)
}

/// The extensions of one kind of file.
pub fn extensions(kind: FileKind) -> &'static [&'static str] {
    FILE_TYPES
        .iter()
        .find(|t| t.kind == kind)
        .map_or(&[], |t| t.extensions)
}

/// The name of one kind of file.
pub fn name(kind: FileKind) -> &'static str {
    FILE_TYPES
        .iter()
        .find(|t| t.kind == kind)
        .map_or("", |t| t.name)
}

/// The extensions of every kind that `wanted` accepts, in [`FILE_TYPES`] order.
pub fn extensions_where(wanted: impl Fn(FileKind) -> bool) -> Vec<&'static str> {
    FILE_TYPES
        .iter()
        .filter(|t| wanted(t.kind))
        .flat_map(|t| t.extensions.iter().copied())
        .collect()
}

/// The extensions listed in a sentence, for messages: `.json, .map or .png`.
pub fn listed(extensions: &[&str]) -> String {
    let dotted: Vec<String> = extensions.iter().map(|e| format!(".{e}")).collect();
    match dotted.split_last() {
        None => String::new(),
        Some((last, [])) => last.clone(),
        Some((last, rest)) => format!("{} or {last}", rest.join(", ")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_extension_belongs_to_one_kind() {
        let all = extensions_where(|_| true);
        for (i, ext) in all.iter().enumerate() {
            assert!(!all[..i].contains(ext), ".{ext} is listed twice");
            assert_eq!(ext.to_ascii_lowercase(), *ext);
        }
        assert_eq!(listed(&["json", "map", "png"]), ".json, .map or .png");
        assert_eq!(
            extensions_where(|k| matches!(k, FileKind::Map(_))),
            ["json", "map", "tmx", "tmj", "ldtk"]
        );
    }
}
