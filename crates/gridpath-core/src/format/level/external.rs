//! External tilesets: a `.tsx` (XML) or `.tsj` (JSON) file named by a map, read beside it.

use std::path::Path;

use super::{LevelError, read_beside, tsj, tsx, xml};
use crate::format::read::FileLimit;

/// Reads the tileset file `source`, relative to `folder` (the map's); its image is resolved
/// beside the tileset file. The error names the file. `read` counts the bytes of the map's
/// tileset files so far: together they may not pass the limit of one map file, however many
/// times a map names them.
pub(super) fn tileset(
    folder: &Path,
    source: &str,
    read: &mut u64,
) -> Result<super::tiled::Tileset, LevelError> {
    let (path, text) = read_beside(folder, source)?;
    *read += text.len() as u64;
    if *read > FileLimit::MAP.bytes {
        return Err(LevelError::External {
            path,
            message: format!(
                "the map's tileset files hold more than {} MiB in all (the limit of a map file)",
                FileLimit::MAP.bytes >> 20
            ),
        });
    }
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
