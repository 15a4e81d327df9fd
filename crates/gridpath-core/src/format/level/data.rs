//! The data of one Tiled tile layer or chunk: CSV, or base64 of little-endian 32-bit global
//! tile ids, uncompressed or compressed with zlib, gzip or zstd.
//!
//! Every decoder is told how many tiles to expect and never produces more: decompression
//! stops one byte past the expected size, so a small file that would inflate to gigabytes
//! (a decompression bomb) is refused after reading only what the layer may hold.

use std::io::Read;

use base64::Engine as _;

/// The bits of a global tile id that flip or rotate the tile; the rest is the id.
pub const FLIP_BITS: u32 = 0xF000_0000;

/// How a layer's data is encoded (`encoding` in Tiled's formats).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Encoding {
    /// Comma-separated decimal ids.
    Csv,
    /// Base64 of the ids as little-endian 32-bit numbers.
    Base64,
}

impl Encoding {
    /// The encoding Tiled names `name`.
    pub fn parse(name: &str) -> Result<Self, String> {
        match name {
            "csv" => Ok(Self::Csv),
            "base64" => Ok(Self::Base64),
            other => Err(format!(
                "unknown encoding {other:?} (expected csv or base64)"
            )),
        }
    }
}

/// How base64 layer data is compressed (`compression` in Tiled's formats).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Compression {
    /// Not compressed.
    None,
    /// zlib (deflate with a zlib header).
    Zlib,
    /// gzip.
    Gzip,
    /// Zstandard.
    Zstd,
}

impl Compression {
    /// The compression Tiled names `name`; an empty name is none.
    pub fn parse(name: &str) -> Result<Self, String> {
        match name {
            "" => Ok(Self::None),
            "zlib" => Ok(Self::Zlib),
            "gzip" => Ok(Self::Gzip),
            "zstd" => Ok(Self::Zstd),
            other => Err(format!(
                "unknown compression {other:?} (expected zlib, gzip or zstd)"
            )),
        }
    }
}

/// Decodes `count` global tile ids from a layer's text, flip bits cleared.
pub fn decode(
    text: &str,
    encoding: Encoding,
    compression: Compression,
    count: usize,
) -> Result<Vec<u32>, String> {
    let gids = match encoding {
        Encoding::Csv => {
            if compression != Compression::None {
                return Err("CSV data cannot be compressed".to_owned());
            }
            csv(text, count)?
        }
        Encoding::Base64 => {
            let packed: Vec<u8> = text.bytes().filter(|b| !b.is_ascii_whitespace()).collect();
            let bytes = base64::engine::general_purpose::STANDARD
                .decode(&packed)
                .map_err(|e| format!("bad base64: {e}"))?;
            let expected = count * 4;
            let raw = inflate(bytes, compression, expected)?;
            if raw.len() != expected {
                return Err(format!(
                    "the data holds {} bytes, expected {expected} ({count} tiles of 4 bytes)",
                    raw.len()
                ));
            }
            raw.chunks_exact(4)
                .map(|b| u32::from_le_bytes([b[0], b[1], b[2], b[3]]))
                .collect()
        }
    };
    Ok(clear_flips(gids))
}

/// The ids with their flip bits cleared.
pub fn clear_flips(mut gids: Vec<u32>) -> Vec<u32> {
    for gid in &mut gids {
        *gid &= !FLIP_BITS;
    }
    gids
}

/// Exactly `count` comma-separated ids; whitespace around them is ignored.
fn csv(text: &str, count: usize) -> Result<Vec<u32>, String> {
    // Never more room than the text can fill: a short text cannot claim a huge layer's memory.
    let mut gids = Vec::with_capacity(count.min(text.len() / 2 + 1));
    for (i, field) in text.split(',').enumerate() {
        let field = field.trim();
        if field.is_empty() && i == count {
            // A trailing comma.
            continue;
        }
        if gids.len() == count {
            return Err(format!("the CSV data holds more than {count} tiles"));
        }
        let gid = field
            .parse::<u32>()
            .map_err(|_| format!("CSV value {} is not a tile id: {field:?}", i + 1))?;
        gids.push(gid);
    }
    if gids.len() != count {
        return Err(format!(
            "the CSV data holds {} tiles, expected {count}",
            gids.len()
        ));
    }
    Ok(gids)
}

/// Decompresses at most `expected + 1` bytes, so that the caller sees a size mismatch without
/// the whole of an oversized stream ever being produced.
fn inflate(bytes: Vec<u8>, compression: Compression, expected: usize) -> Result<Vec<u8>, String> {
    let limit = expected as u64 + 1;
    let mut out = Vec::with_capacity(expected.min(bytes.len().saturating_mul(64)));
    let outcome = match compression {
        Compression::None => return Ok(bytes),
        Compression::Zlib => flate2::read::ZlibDecoder::new(&bytes[..])
            .take(limit)
            .read_to_end(&mut out),
        Compression::Gzip => flate2::read::GzDecoder::new(&bytes[..])
            .take(limit)
            .read_to_end(&mut out),
        Compression::Zstd => {
            // The window the frame may ask for is bounded by what the layer can hold (with
            // room for encoders that round it up), so a frame cannot claim a large buffer.
            let window = (expected as u64)
                .next_power_of_two()
                .saturating_mul(2)
                .clamp(1 << 20, ruzstd::decoding::DEFAULT_MAX_WINDOW_SIZE);
            let decoder =
                ruzstd::decoding::StreamingDecoder::new_with_max_window_size(&bytes[..], window)
                    .map_err(|e| format!("bad zstd data: {e}"))?;
            decoder.take(limit).read_to_end(&mut out)
        }
    };
    outcome.map_err(|e| format!("cannot decompress the data: {e}"))?;
    Ok(out)
}

#[cfg(test)]
mod tests {
    use std::io::Write as _;

    use super::*;

    fn base64_of(bytes: &[u8]) -> String {
        base64::engine::general_purpose::STANDARD.encode(bytes)
    }

    fn le(gids: &[u32]) -> Vec<u8> {
        gids.iter().flat_map(|g| g.to_le_bytes()).collect()
    }

    fn zlib(bytes: &[u8]) -> Vec<u8> {
        let mut e = flate2::write::ZlibEncoder::new(Vec::new(), flate2::Compression::default());
        e.write_all(bytes).unwrap();
        e.finish().unwrap()
    }

    fn gzip(bytes: &[u8]) -> Vec<u8> {
        let mut e = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
        e.write_all(bytes).unwrap();
        e.finish().unwrap()
    }

    fn zstd(bytes: &[u8]) -> Vec<u8> {
        ruzstd::encoding::compress_to_vec(bytes, ruzstd::encoding::CompressionLevel::Fastest)
    }

    #[test]
    fn every_encoding_gives_the_same_ids_with_flip_bits_cleared() {
        let gids = [1, 0, 0x8000_0002, 0x4000_0003, 0x2000_0001, 0x1000_0004];
        let want = vec![1, 0, 2, 3, 1, 4];
        let csv_text = "1,0,2147483650,\n1073741827,536870913, 268435460\n";
        assert_eq!(
            decode(csv_text, Encoding::Csv, Compression::None, 6).unwrap(),
            want
        );
        let raw = le(&gids);
        for (compression, bytes) in [
            (Compression::None, raw.clone()),
            (Compression::Zlib, zlib(&raw)),
            (Compression::Gzip, gzip(&raw)),
            (Compression::Zstd, zstd(&raw)),
        ] {
            let text = format!("\n   {}\n  ", base64_of(&bytes));
            assert_eq!(
                decode(&text, Encoding::Base64, compression, 6).unwrap(),
                want,
                "{compression:?}"
            );
        }
    }

    #[test]
    fn wrong_counts_and_bad_values_are_errors() {
        let e = decode("1,2,3", Encoding::Csv, Compression::None, 2).unwrap_err();
        assert!(e.contains("more than 2"), "{e}");
        let e = decode("1,2", Encoding::Csv, Compression::None, 3).unwrap_err();
        assert!(e.contains("holds 2 tiles, expected 3"), "{e}");
        let e = decode("1,x", Encoding::Csv, Compression::None, 2).unwrap_err();
        assert!(e.contains("\"x\""), "{e}");
        let e = decode("1,-1", Encoding::Csv, Compression::None, 2).unwrap_err();
        assert!(e.contains("not a tile id"), "{e}");
        let e = decode("@@@", Encoding::Base64, Compression::None, 1).unwrap_err();
        assert!(e.contains("bad base64"), "{e}");
        let e = decode(
            &base64_of(&[1, 2, 3]),
            Encoding::Base64,
            Compression::Zlib,
            1,
        )
        .unwrap_err();
        assert!(e.contains("decompress"), "{e}");
        let e = decode(
            &base64_of(&[1, 2, 3]),
            Encoding::Base64,
            Compression::Zstd,
            1,
        )
        .unwrap_err();
        assert!(e.contains("zstd"), "{e}");
        assert!(Encoding::parse("xml").is_err());
        assert!(Compression::parse("lz4").is_err());
    }

    #[test]
    fn a_decompression_bomb_stops_one_byte_past_the_expected_size() {
        // 16 MiB of zeros compress to a few KiB; the layer expects 4 tiles.
        let huge = vec![0_u8; 16 << 20];
        for (compression, bytes) in [
            (Compression::Zlib, zlib(&huge)),
            (Compression::Gzip, gzip(&huge)),
            (Compression::Zstd, zstd(&huge)),
        ] {
            let e = decode(&base64_of(&bytes), Encoding::Base64, compression, 4).unwrap_err();
            assert!(
                e.contains("holds 17 bytes, expected 16"),
                "{compression:?}: {e}"
            );
        }
    }
}
