//! PNG colour profiles, removed before an image or its text chunks are read.

use std::borrow::Cow;

/// The encoded image without its PNG colour profiles: a compressed iCCP chunk can inflate to
/// far more memory than the image (the decoder inflates it up to the whole memory limit), and
/// the import does not use colour profiles. Anything but a PNG with such a chunk is returned
/// as it is; a chunk structure that breaks off is copied from there on unchanged, for the
/// decoder to report.
pub(crate) fn without_colour_profiles(bytes: &[u8]) -> Cow<'_, [u8]> {
    const SIGNATURE: &[u8] = b"\x89PNG\r\n\x1a\n";
    if !bytes.starts_with(SIGNATURE) {
        return Cow::Borrowed(bytes);
    }
    // Each chunk: its length, its type, its data and a checksum.
    let mut chunks = Vec::new();
    let mut at = SIGNATURE.len();
    while let Some(header) = bytes.get(at..at + 8) {
        let length = u32::from_be_bytes([header[0], header[1], header[2], header[3]]) as usize;
        let Some(end) = (at + 12).checked_add(length).filter(|&e| e <= bytes.len()) else {
            break;
        };
        chunks.push((at..end, &header[4..8] == b"iCCP"));
        at = end;
    }
    if !chunks.iter().any(|&(_, profile)| profile) {
        return Cow::Borrowed(bytes);
    }
    let mut kept = bytes[..SIGNATURE.len()].to_vec();
    for (range, profile) in chunks {
        if !profile {
            kept.extend_from_slice(&bytes[range]);
        }
    }
    kept.extend_from_slice(&bytes[at..]);
    Cow::Owned(kept)
}
