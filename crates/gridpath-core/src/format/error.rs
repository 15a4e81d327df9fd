use std::fmt;
use std::path::PathBuf;

use super::level::LevelError;
use super::read::ReadError;
use crate::grid::GridError;

/// What is wrong with a map or scenario text, and where.
///
/// Rows and columns are counted from 0, as map coordinates are (`y` is the row, `x` the
/// column); lines of a file are counted from 1, as editors do.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum FormatError {
    /// The file could not be read.
    #[error("cannot read the file: {0}")]
    Io(String),
    /// The file could not be read: not a regular file, over its size limit, or a system error.
    #[error("cannot read the file: {0}")]
    Read(#[from] ReadError),
    /// The file is not UTF-8 text.
    #[error("not UTF-8 text (invalid byte at offset {offset})")]
    NotUtf8 {
        /// The byte offset of the first invalid byte.
        offset: usize,
    },
    /// The file name's extension is not one gridpath reads.
    #[error("unknown map file type: expected a .json, .map, .tmx, .tmj or .ldtk file")]
    UnknownExtension,
    /// The JSON is malformed, or a field has the wrong type.
    #[error("line {line}, column {column}: {message}")]
    Json {
        /// 1-based line.
        line: usize,
        /// 1-based column.
        column: usize,
        /// `serde_json`'s description.
        message: String,
    },
    /// A `.json` file that is neither a gridpath map nor a Tiled map nor an LDtk project.
    #[error(
        "not a map gridpath reads: tried a gridpath map ({0}), a Tiled map (no \"type\": \"map\" or \"tiledversion\") and an LDtk project (no \"jsonVersion\")"
    )]
    UnknownJson(String),
    /// The `format` field is not `gridpath-map`.
    #[error("not a gridpath map: \"format\" is {0:?}, expected \"gridpath-map\"")]
    NotAMap(String),
    /// A version this build does not read.
    #[error("map format version {0} is not supported (this gridpath reads versions 1 to 3)")]
    Version(u64),
    /// The map's `topology` names no shape of cells gridpath knows.
    #[error("topology: {0}")]
    Topology(String),
    /// A size outside the limits.
    #[error("the map is {width} × {height} cells; each side must be between 1 and {max}", max = crate::grid::Grid::MAX_SIDE)]
    Size {
        /// The declared width.
        width: u64,
        /// The declared height.
        height: u64,
    },
    /// The number of rows differs from the height.
    #[error("the map declares height {expected} but has {found} rows")]
    RowCount {
        /// The declared height.
        expected: usize,
        /// The rows present.
        found: usize,
    },
    /// A row's length differs from the width.
    #[error("row {row}{at} has {found} cells, expected {expected} (the map's width)", at = Line(*line))]
    RowLength {
        /// The row (y).
        row: usize,
        /// The file line of the row, when known.
        line: Option<usize>,
        /// The declared width.
        expected: usize,
        /// The cells present.
        found: usize,
    },
    /// A cell's character stands for no terrain.
    #[error("unknown symbol {symbol:?} at row {row}, column {column}{at}: no terrain uses it", at = Line(*line))]
    UnknownSymbol {
        /// The character.
        symbol: char,
        /// The row (y).
        row: usize,
        /// The column (x).
        column: usize,
        /// The file line of the row, when known.
        line: Option<usize>,
    },
    /// A terrain entry is malformed.
    #[error("terrain {index}: {message}")]
    Terrain {
        /// Its index in `terrains`.
        index: usize,
        /// What is wrong.
        message: String,
    },
    /// A start or goal off the map.
    #[error("the {which} [{x}, {y}] is outside the {width} × {height} map")]
    OutOfBounds {
        /// "start", "goal" or "waypoint".
        which: &'static str,
        /// Its x.
        x: i64,
        /// Its y.
        y: i64,
        /// The map's width.
        width: u32,
        /// The map's height.
        height: u32,
    },
    /// The grid failed its own checks.
    #[error("{0}")]
    Grid(#[from] GridError),
    /// The map's `heights` or `slope` are wrong; `row` names the row of heights at fault.
    #[error("{}{message}", match row { Some(r) => format!("heights, row {r}: "), None => String::new() })]
    Heights {
        /// The row of `heights.rows` at fault, if one is.
        row: Option<usize>,
        /// What is wrong.
        message: String,
    },
    /// The map's `metadata` (resolution and origin) is out of range.
    #[error("metadata: {0}")]
    Metadata(String),
    /// A Tiled or LDtk level file is wrong.
    #[error("{0}")]
    Level(#[from] LevelError),
    /// A header line of a Moving AI file is wrong.
    #[error("line {line}: {message}")]
    Header {
        /// 1-based line.
        line: usize,
        /// What is wrong.
        message: String,
    },
}

/// Formats an optional file line as ` (line N)`.
struct Line(Option<usize>);

impl fmt::Display for Line {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.0 {
            Some(line) => write!(f, " (line {line})"),
            None => Ok(()),
        }
    }
}

/// A [`FormatError`] in a named file.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[error("{}: {error}", path.display())]
pub struct LoadError {
    /// The file.
    pub path: PathBuf,
    /// What is wrong with it.
    pub error: FormatError,
}

/// The most characters of a file's text an error message quotes.
pub const EXCERPT_CHARS: usize = 80;

/// The longest error message a command prints whole, in bytes.
pub const MAX_MESSAGE: usize = 2000;

/// The longest message of a parser (JSON, XML) kept whole, in bytes: such a message may quote
/// a whole field of the file.
pub const MAX_PARSER_MESSAGE: usize = 200;

/// A short quotation of a file's text for an error message: the first [`EXCERPT_CHARS`]
/// characters, escaped (control characters and quotes as in Rust strings), then how long the
/// text was when it was cut.
///
/// ```
/// use gridpath_core::format::excerpt;
/// assert_eq!(excerpt("wid\0th"), r#""wid\0th""#);
/// let long = "x".repeat(1_000_000);
/// assert_eq!(excerpt(&long), format!("{:?}… (1000000 bytes in all)", "x".repeat(80)));
/// ```
pub fn excerpt(text: &str) -> String {
    match text.char_indices().nth(EXCERPT_CHARS) {
        None => format!("{text:?}"),
        Some((cut, _)) => format!("{:?}… ({} bytes in all)", &text[..cut], text.len()),
    }
}

/// An error message of at most about `max` bytes: a longer one (a parser's message that
/// quotes a whole field) keeps its first and last `max / 2` bytes and says what it left out.
pub fn shorten(message: &str, max: usize) -> String {
    if message.len() <= max {
        return message.to_owned();
    }
    let half = max / 2;
    let head = message.floor_char_boundary(half);
    let tail = message.ceil_char_boundary(message.len() - half);
    format!(
        "{} … [{} bytes left out] … {}",
        &message[..head],
        tail - head,
        &message[tail..]
    )
}
