//! Reading input files with a size limit.
//!
//! Every file gridpath reads goes through [`read_file`]: only a regular file is read (a FIFO,
//! a device such as `/dev/zero` or a folder is refused before a byte is read, and opening a
//! FIFO never waits for a writer), and a file larger than the [`FileLimit`] for its kind is
//! refused before reading, with the limit named in the error.
//!
//! ```
//! use gridpath_core::format::read::{FileLimit, ReadError, read_file};
//!
//! let e = read_file(std::path::Path::new("/dev/zero"), FileLimit::MAP).unwrap_err();
//! # #[cfg(unix)]
//! assert_eq!(e, ReadError::NotAFile("a device"));
//! ```

use std::fmt;
use std::fs::{self, File};
use std::io::{self, Read as _};
use std::path::Path;

/// The largest file of one kind gridpath reads, in bytes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FileLimit {
    /// The kind of file, as the error names it ("a map file").
    pub what: &'static str,
    /// The largest size in bytes.
    pub bytes: u64,
}

impl FileLimit {
    /// A map file (`.json`, `.map`) or a recovery file: 4 GiB, room for the largest map
    /// allowed ([`Grid::MAX_CELLS`](crate::grid::Grid::MAX_CELLS), 1 Gi cells) at one byte a
    /// cell with its heights, or at up to four bytes a cell, as JSON rows of four-byte
    /// symbols take.
    pub const MAP: FileLimit = FileLimit {
        what: "a map file",
        bytes: 4 << 30,
    };

    /// A Moving AI scenario file (`.scen`): 64 MiB, about a million queries. The largest
    /// scenario files of the benchmark sets are a few megabytes.
    pub const SCENARIO: FileLimit = FileLimit {
        what: "a scenario file",
        bytes: 64 << 20,
    };

    /// A multi-agent plan (LaCAM's text format): 512 MiB, a thousand agents over about ten
    /// thousand ticks.
    pub const PLAN: FileLimit = FileLimit {
        what: "a plan file",
        bytes: 512 << 20,
    };

    /// A ROS `map.yaml`: 1 MiB. The files are a dozen short lines.
    pub const YAML: FileLimit = FileLimit {
        what: "a map.yaml file",
        bytes: 1 << 20,
    };

    /// An image to import (PNG, JPEG, BMP): 256 MiB. The decoder's own limits on pixels and
    /// memory apply after it.
    pub const IMAGE: FileLimit = FileLimit {
        what: "an image file",
        bytes: 256 << 20,
    };

    /// A small text file beside another, such as the name of a recovered map's document:
    /// 64 KiB.
    pub const NOTE: FileLimit = FileLimit {
        what: "a note file",
        bytes: 64 << 10,
    };
}

impl fmt::Display for FileLimit {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "the limit of {} bytes", self.bytes)?;
        if self.bytes >= 1 << 20 && self.bytes.is_multiple_of(1 << 20) {
            write!(f, " ({} MiB)", self.bytes >> 20)?;
        } else if self.bytes >= 1 << 10 && self.bytes.is_multiple_of(1 << 10) {
            write!(f, " ({} KiB)", self.bytes >> 10)?;
        }
        write!(f, " for {}", self.what)
    }
}

/// Why a file could not be read. The caller names the file.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ReadError {
    /// The system refused to open or read the file.
    #[error("{0}")]
    Io(String),
    /// The path names something other than a regular file.
    #[error("it is {0}, not a regular file")]
    NotAFile(&'static str),
    /// The file is larger than its limit.
    #[error("it is {size} bytes, over {limit}")]
    TooLarge {
        /// The file's size in bytes (at least, when it grew while being read).
        size: u64,
        /// The limit it passed.
        limit: FileLimit,
    },
    /// The file is not UTF-8 text ([`read_text`] only).
    #[error("not UTF-8 text (invalid byte at offset {offset})")]
    NotUtf8 {
        /// The byte offset of the first invalid byte.
        offset: usize,
    },
}

impl From<io::Error> for ReadError {
    fn from(e: io::Error) -> Self {
        ReadError::Io(e.to_string())
    }
}

/// Reads a whole regular file of at most `limit` bytes.
///
/// Links are followed. Anything but a regular file is refused, and so is a file larger than
/// the limit, before its data is read; a file that grows past the limit while being read is
/// refused too.
pub fn read_file(path: &Path, limit: FileLimit) -> Result<Vec<u8>, ReadError> {
    // The type is checked before opening, so that nothing but a regular file is opened…
    regular_file_size(&fs::metadata(path)?)?;
    // …and again on the file opened, in case the path changed in between. Opened without
    // waiting, so that a FIFO put there in between cannot block the open.
    let file = open_without_waiting(path)?;
    let size = regular_file_size(&file.metadata()?)?;
    if size > limit.bytes {
        return Err(ReadError::TooLarge { size, limit });
    }
    let mut bytes = Vec::with_capacity(usize::try_from(size).unwrap_or(0));
    file.take(limit.bytes + 1).read_to_end(&mut bytes)?;
    let read = bytes.len() as u64;
    if read > limit.bytes {
        return Err(ReadError::TooLarge { size: read, limit });
    }
    Ok(bytes)
}

/// Reads a whole regular file of at most `limit` bytes as UTF-8 text; see [`read_file`].
pub fn read_text(path: &Path, limit: FileLimit) -> Result<String, ReadError> {
    String::from_utf8(read_file(path, limit)?).map_err(|e| ReadError::NotUtf8 {
        offset: e.utf8_error().valid_up_to(),
    })
}

/// The size of a regular file; an error naming the kind of anything else.
fn regular_file_size(metadata: &fs::Metadata) -> Result<u64, ReadError> {
    if metadata.is_file() {
        return Ok(metadata.len());
    }
    Err(ReadError::NotAFile(describe(&metadata.file_type())))
}

/// Names a kind of file that is not a regular file.
pub(crate) fn describe(kind: &fs::FileType) -> &'static str {
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt as _;
        if kind.is_fifo() {
            return "a FIFO";
        }
        if kind.is_socket() {
            return "a socket";
        }
        if kind.is_block_device() || kind.is_char_device() {
            return "a device";
        }
    }
    if kind.is_dir() {
        "a folder"
    } else {
        "a special file"
    }
}

#[cfg(unix)]
fn open_without_waiting(path: &Path) -> io::Result<File> {
    use std::os::unix::fs::OpenOptionsExt as _;
    // O_NONBLOCK changes nothing for a regular file's reads.
    fs::OpenOptions::new()
        .read(true)
        .custom_flags(libc::O_NONBLOCK)
        .open(path)
}

#[cfg(not(unix))]
fn open_without_waiting(path: &Path) -> io::Result<File> {
    File::open(path)
}

#[cfg(test)]
mod tests {
    use super::*;

    const TINY: FileLimit = FileLimit {
        what: "a test file",
        bytes: 8,
    };

    #[test]
    fn a_file_within_its_limit_is_read_and_a_larger_one_refused_naming_the_limit() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("f");
        fs::write(&path, "12345678").unwrap();
        assert_eq!(read_file(&path, TINY).unwrap(), b"12345678");
        fs::write(&path, "123456789").unwrap();
        let e = read_file(&path, TINY).unwrap_err();
        assert_eq!(
            e,
            ReadError::TooLarge {
                size: 9,
                limit: TINY
            }
        );
        assert_eq!(
            e.to_string(),
            "it is 9 bytes, over the limit of 8 bytes for a test file"
        );
        assert_eq!(
            FileLimit::MAP.to_string(),
            "the limit of 4294967296 bytes (4096 MiB) for a map file"
        );
    }

    #[test]
    fn text_must_be_utf8() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("f");
        fs::write(&path, b"ab\xffc").unwrap();
        assert_eq!(
            read_text(&path, TINY),
            Err(ReadError::NotUtf8 { offset: 2 })
        );
    }

    #[cfg(unix)]
    #[test]
    fn devices_and_folders_are_refused_before_reading() {
        assert_eq!(
            read_file(Path::new("/dev/zero"), FileLimit::MAP),
            Err(ReadError::NotAFile("a device"))
        );
        let dir = tempfile::tempdir().unwrap();
        assert_eq!(
            read_file(dir.path(), FileLimit::MAP),
            Err(ReadError::NotAFile("a folder"))
        );
    }

    /// A FIFO is refused without waiting for a writer. A writer thread stands by so that a
    /// read that did open the FIFO would end (with no data) instead of hanging the test; the
    /// test releases it by opening the FIFO itself.
    #[cfg(unix)]
    #[test]
    fn a_fifo_is_refused_without_waiting_for_a_writer() {
        use std::os::unix::fs::OpenOptionsExt as _;
        let dir = tempfile::tempdir().unwrap();
        let fifo = dir.path().join("pipe.map");
        let status = std::process::Command::new("mkfifo")
            .arg(&fifo)
            .status()
            .unwrap();
        assert!(status.success());
        let writer = {
            let fifo = fifo.clone();
            // Opening for writing waits for a reader; closing at once ends the reader's read.
            std::thread::spawn(move || drop(fs::OpenOptions::new().write(true).open(fifo)))
        };
        let outcome = read_file(&fifo, FileLimit::MAP);
        // Release the writer: a reader that does not wait for a writer itself.
        let _release = fs::OpenOptions::new()
            .read(true)
            .custom_flags(libc::O_NONBLOCK)
            .open(&fifo)
            .unwrap();
        writer.join().unwrap();
        assert_eq!(outcome, Err(ReadError::NotAFile("a FIFO")));
    }
}
