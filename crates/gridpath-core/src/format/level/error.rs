use std::path::PathBuf;

/// What is wrong with a Tiled or LDtk level file, and where: the layer, the chunk, the tile,
/// the level or the external file.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum LevelError {
    /// The XML of a `.tmx` or `.tsx` file is malformed.
    #[error("line {line}: malformed XML: {message}")]
    Xml {
        /// 1-based line.
        line: usize,
        /// The parser's description.
        message: String,
    },
    /// A required element, attribute or field is missing or has a bad value.
    #[error("{place}: {message}")]
    Field {
        /// Where: "map", "tileset \"terrain\"", "layer \"Ground\"", "level \"Entrance\"".
        place: String,
        /// What is wrong.
        message: String,
    },
    /// A map that is neither orthogonal nor hexagonal (isometric, staggered).
    #[error("the map's orientation is {0:?}; only orthogonal and hexagonal maps are read")]
    NotOrthogonal(String),
    /// The data of a tile layer (or one chunk of it) cannot be decoded.
    #[error("layer {layer:?}{at}: {message}", at = chunk_place(*chunk))]
    LayerData {
        /// The layer's name.
        layer: String,
        /// The chunk's position in tiles, for an infinite map.
        chunk: Option<(i64, i64)>,
        /// What is wrong.
        message: String,
    },
    /// A tile layer uses a global tile id that no tileset holds.
    #[error("layer {layer:?}: tile {gid} belongs to no tileset")]
    UnknownTile {
        /// The layer's name.
        layer: String,
        /// The global tile id (flip bits cleared).
        gid: u32,
    },
    /// A tile's properties are out of range.
    #[error("tileset {tileset:?}, tile {id}: {message}")]
    Tile {
        /// The tileset's name.
        tileset: String,
        /// The tile's local id.
        id: u32,
        /// What is wrong.
        message: String,
    },
    /// An external tileset or level file could not be read or parsed.
    #[error("{}: {message}", path.display())]
    External {
        /// The file, as resolved beside the map or project.
        path: PathBuf,
        /// What is wrong with it.
        message: String,
    },
    /// The layer asked for does not exist (or is not a tile or IntGrid layer).
    #[error("no layer {wanted:?}: the layers are {}", listed(available))]
    NoSuchLayer {
        /// The name asked for.
        wanted: String,
        /// The layers that could be chosen.
        available: Vec<String>,
    },
    /// The level asked for does not exist.
    #[error("no level {wanted:?}: the levels are {}", listed(available))]
    NoSuchLevel {
        /// The identifier asked for.
        wanted: String,
        /// The project's levels.
        available: Vec<String>,
    },
    /// The file has nothing gridpath can make a grid of.
    #[error("{0}")]
    Empty(String),
    /// More distinct terrains than a grid holds.
    #[error("the level uses {0} distinct tiles or values; a map holds at most 256 terrains")]
    TooManyTerrains(usize),
}

/// ` chunk (x, y)` for a chunk, nothing otherwise.
fn chunk_place(chunk: Option<(i64, i64)>) -> String {
    chunk.map_or_else(String::new, |(x, y)| format!(", chunk at ({x}, {y})"))
}

/// Names in a sentence: `"a", "b"` or `none`.
fn listed(names: &[String]) -> String {
    if names.is_empty() {
        return "none".to_owned();
    }
    names
        .iter()
        .map(|n| format!("{n:?}"))
        .collect::<Vec<_>>()
        .join(", ")
}
