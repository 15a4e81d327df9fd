use std::path::PathBuf;

use crate::grid::GridError;

/// Why an image or a ROS `map.yaml` could not be imported, and where.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum ImportError {
    /// A file could not be read.
    #[error("{}: cannot read the file: {message}", path.display())]
    Io {
        /// The file.
        path: PathBuf,
        /// The system's description.
        message: String,
    },
    /// A problem inside a named file.
    #[error("{}: {error}", path.display())]
    InFile {
        /// The file.
        path: PathBuf,
        /// What is wrong with it.
        error: Box<ImportError>,
    },
    /// The bytes are not an image of a kind gridpath reads.
    #[error("not a PNG, JPEG, BMP or PGM/PPM/PBM image")]
    UnknownImageFormat,
    /// The image claims more pixels than the import allows; refused before decoding.
    #[error(
        "the image is {width} × {height} pixels, over the limit of {max} × {max}: refused before decoding"
    )]
    TooLarge {
        /// The width the file claims.
        width: u32,
        /// The height the file claims.
        height: u32,
        /// The largest width and height accepted.
        max: u32,
    },
    /// Decoding would need more memory than the import allows.
    #[error("decoding the image would need more than the limit of {limit} bytes of memory")]
    MemoryLimit {
        /// The limit in bytes.
        limit: u64,
    },
    /// The image is damaged or uses a feature the decoder lacks.
    #[error("cannot decode the image: {0}")]
    Decode(String),
    /// The grid the settings ask for is larger than a grid may be.
    #[error(
        "the imported grid would be {width} × {height} cells, but each side may be at most {max}: import at a smaller scale or target width",
        max = crate::grid::Grid::MAX_SIDE
    )]
    GridTooLarge {
        /// The grid's width.
        width: u64,
        /// The grid's height.
        height: u64,
    },
    /// A pixel's colour stands for no terrain of the palette.
    #[error(
        "the colour {colour} (first at pixel {x}, {y}) is no terrain's: the palette has {palette}; \
         paint with these colours, or export the map from gridpath, whose PNG carries its legend"
    )]
    UnknownColour {
        /// The colour.
        colour: crate::grid::Rgb,
        /// The first pixel of this colour, by rows from the top left.
        x: u32,
        /// Its row.
        y: u32,
        /// The palette's colours and names.
        palette: String,
    },
    /// The terrain legend a PNG carries cannot be read.
    #[error("the terrain legend the PNG carries: {0}")]
    Legend(String),
    /// The import settings are out of range.
    #[error("{0}")]
    Settings(String),
    /// A line of a ROS `map.yaml` is wrong.
    #[error("line {line}: {message}")]
    Yaml {
        /// 1-based line.
        line: usize,
        /// What is wrong.
        message: String,
    },
    /// The resulting grid failed its own checks (for example two terrains with one symbol).
    #[error("{0}")]
    Grid(#[from] GridError),
}

impl ImportError {
    /// This error, placed in a file.
    pub fn in_file(self, path: impl Into<PathBuf>) -> Self {
        ImportError::InFile {
            path: path.into(),
            error: Box::new(self),
        }
    }
}
