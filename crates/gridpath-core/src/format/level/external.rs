//! External tilesets: a `.tsx` (XML) or `.tsj` (JSON) file named by a map, read beside it.

use std::path::Path;

use super::{LevelError, read_beside, tsj, tsx, xml};

/// Reads the tileset file `source`, relative to `folder` (the map's); its image is resolved
/// beside the tileset file. The error names the file.
pub(super) fn tileset(folder: &Path, source: &str) -> Result<super::tiled::Tileset, LevelError> {
    let (path, text) = read_beside(folder, source)?;
    let beside = path.parent().unwrap_or(Path::new("")).to_owned();
    let external = |message: String| LevelError::External {
        path: path.clone(),
        message,
    };
    let is_json = Path::new(source)
        .extension()
        .and_then(|e| e.to_str())
        .is_some_and(|e| e.eq_ignore_ascii_case("tsj") || e.eq_ignore_ascii_case("json"));
    if is_json {
        return tsj::tileset_file(&text, &beside).map_err(|e| external(e.to_string()));
    }
    let root = xml::parse(&text).map_err(|e| external(e.to_string()))?;
    tsx::tileset(&root, &beside).map_err(|e| external(e.to_string()))
}
