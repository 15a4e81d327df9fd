//! Hostile input never panics and always gives an error: empty, truncated and random files,
//! wrong row lengths, unknown symbols, negative and giant sizes; then a fuzz-style property
//! test that feeds thousands of byte-level mutations of the seed files in `tests/corpus/` to
//! every loader (a thousand cases each, a fixed number, so `cargo test` stays quick).

use std::io::Cursor;
use std::path::PathBuf;
use std::sync::LazyLock;

use gridpath::format::image_import::{ImageImport, Scale};
use gridpath::format::read::{FileLimit, ReadError};
use gridpath::format::ros_map::RosMap;
use gridpath::format::{FormatError, ImportError, json, load_map, movingai};
use gridpath::grid::Grid;
use image::{ImageFormat, Rgba, RgbaImage};
use proptest::prelude::*;

const MAP: &str = "type octile\nheight 4\nwidth 5\nmap\n..@T.\n.G..W\nS...@\n.....\n";
const SCEN: &str =
    "version 1\n0\ta.map\t5\t4\t0\t0\t4\t3\t5.24264069\n1 a.map 5 4 1 1 3 2 2.41421356\n";
const YAML: &str = "image: floor.png\nresolution: 0.05\norigin: [-10.0, -7.5, 0.0]\nnegate: 0\noccupied_thresh: 0.65\nfree_thresh: 0.196\nmode: trinary\n";
const JSON: &str = r##"{
  "format": "gridpath-map", "version": 1,
  "name": "demo", "width": 4, "height": 3,
  "terrains": [
    {"symbol": ".", "name": "Grass", "cost": 1.0, "color": "#6abe30"},
    {"symbol": "#", "name": "Wall",  "cost": null, "color": "#222222"},
    {"symbol": "é", "name": "Mud",  "cost": 2.5, "color": "#553311"}
  ],
  "rows": ["..é#", "#..é", "...."],
  "start": [0, 0], "goal": [3, 2],
  "metadata": {"resolution": 0.05, "origin": [1.5, -2.0, 0.0]}
}"##;

fn encoded(format: ImageFormat) -> Vec<u8> {
    let image = RgbaImage::from_fn(12, 8, |x, y| {
        let v = ((x * 37 + y * 91) % 256) as u8;
        Rgba([v, v.wrapping_mul(3), 255 - v, if x == 3 { 0 } else { 255 }])
    });
    let mut out = Cursor::new(Vec::new());
    let image = if format == ImageFormat::Jpeg {
        image::DynamicImage::ImageRgb8(image::DynamicImage::ImageRgba8(image).to_rgb8())
    } else {
        image::DynamicImage::ImageRgba8(image)
    };
    image.write_to(&mut out, format).expect("encodes");
    out.into_inner()
}

fn floorplan_png() -> Vec<u8> {
    std::fs::read(PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("assets/floorplan.png"))
        .expect("the committed floorplan")
}

/// CRC-32 (ISO-HDLC), as PNG chunks use it.
fn crc32(bytes: &[u8]) -> u32 {
    let mut crc = !0u32;
    for &b in bytes {
        crc ^= u32::from(b);
        for _ in 0..8 {
            crc = if crc & 1 == 1 {
                (crc >> 1) ^ 0xedb8_8320
            } else {
                crc >> 1
            };
        }
    }
    !crc
}

/// A PNG made of the signature and these chunks, with correct CRCs.
fn png_of(chunks: &[(&[u8; 4], Vec<u8>)]) -> Vec<u8> {
    let mut out = b"\x89PNG\r\n\x1a\n".to_vec();
    for (kind, data) in chunks {
        out.extend_from_slice(&(data.len() as u32).to_be_bytes());
        let mut body = kind.to_vec();
        body.extend_from_slice(data);
        out.extend_from_slice(&body);
        out.extend_from_slice(&crc32(&body).to_be_bytes());
    }
    out
}

/// A PNG header claiming `width × height` 8-bit grey pixels, with a little (wrong) data.
fn png_claiming(width: u32, height: u32) -> Vec<u8> {
    let mut ihdr = width.to_be_bytes().to_vec();
    ihdr.extend_from_slice(&height.to_be_bytes());
    ihdr.extend_from_slice(&[8, 0, 0, 0, 0]);
    png_of(&[
        (b"IHDR", ihdr),
        (b"IDAT", vec![0x78, 0x9c, 0x03, 0x00]),
        (b"IEND", vec![]),
    ])
}

/// Recomputes the CRC of every whole chunk, so that mutations reach past the checksums.
fn fix_png_crcs(bytes: &mut [u8]) {
    let mut at = 8;
    while at + 12 <= bytes.len() {
        let len =
            u32::from_be_bytes([bytes[at], bytes[at + 1], bytes[at + 2], bytes[at + 3]]) as usize;
        let Some(end) = (at + 8).checked_add(len).filter(|e| e + 4 <= bytes.len()) else {
            return;
        };
        let crc = crc32(&bytes[at + 4..end]);
        bytes[end..end + 4].copy_from_slice(&crc.to_be_bytes());
        at = end + 4;
    }
}

fn random_bytes(seed: u64, len: usize) -> Vec<u8> {
    let mut state = seed | 1;
    (0..len)
        .map(|_| {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            (state >> 24) as u8
        })
        .collect()
}

fn import(bytes: &[u8]) -> Result<Grid, ImportError> {
    ImageImport::default().import(bytes)
}

/// A sparse file of `size` bytes: nothing is written, so it costs no disk and no time.
fn sparse_file(path: &std::path::Path, size: u64) {
    std::fs::File::create(path)
        .and_then(|f| f.set_len(size))
        .expect("the temp dir is writable");
}

#[test]
fn map_files_over_the_size_limit_are_refused_before_reading_naming_the_limit() {
    let dir = tempfile::tempdir().expect("temp dir");
    for name in ["huge.json", "huge.map"] {
        let path = dir.path().join(name);
        sparse_file(&path, FileLimit::MAP.bytes + 1);
        let e = load_map(&path).unwrap_err();
        assert_eq!(
            e.error,
            FormatError::Read(ReadError::TooLarge {
                size: FileLimit::MAP.bytes + 1,
                limit: FileLimit::MAP
            })
        );
        let message = e.to_string();
        assert!(
            message.contains(name) && message.contains("4096 MiB") && message.contains("map file"),
            "{message}"
        );
    }
}

#[cfg(unix)]
#[test]
fn devices_and_folders_are_refused_as_maps_naming_the_file() {
    let dir = tempfile::tempdir().expect("temp dir");
    // /dev/zero under a map's name: it would be read until memory ran out.
    let zero = dir.path().join("zero.map");
    std::os::unix::fs::symlink("/dev/zero", &zero).expect("symlink");
    let e = load_map(&zero).unwrap_err();
    assert_eq!(e.error, FormatError::Read(ReadError::NotAFile("a device")));
    assert!(e.to_string().contains("zero.map"), "{e}");
    let folder = dir.path().join("folder.json");
    std::fs::create_dir(&folder).expect("mkdir");
    let e = load_map(&folder).unwrap_err();
    assert_eq!(e.error, FormatError::Read(ReadError::NotAFile("a folder")));
}

#[test]
fn broken_json_maps_are_errors() {
    assert!(json::parse(JSON).is_ok(), "the seed is valid");
    for cut in 0..JSON.len() - 1 {
        if JSON.is_char_boundary(cut) {
            assert!(json::parse(&JSON[..cut]).is_err(), "truncated at {cut}");
        }
    }
    for seed in 0..50 {
        let text = String::from_utf8_lossy(&random_bytes(seed, 200)).into_owned();
        assert!(json::parse(&text).is_err());
    }
    let cases = [
        ("\"..é#\"", "\"..é\""),
        ("\"..é#\"", "\"..é##\""),
        ("\"#..é\"", "\"#.x.\""),
        ("\"width\": 4", "\"width\": -4"),
        ("\"width\": 4", "\"width\": 0"),
        ("\"width\": 4", "\"width\": 4294967300"),
        ("\"width\": 4", "\"width\": 1e12"),
        ("\"height\": 3", "\"height\": 99999999999999999999999"),
        ("\"height\": 3", "\"height\": 2"),
        ("\"cost\": 2.5", "\"cost\": -2.5"),
        ("\"cost\": 2.5", "\"cost\": 1e400"),
        ("\"symbol\": \"é\"", "\"symbol\": \"ab\""),
        ("\"symbol\": \"é\"", "\"symbol\": \"#\""),
        ("\"color\": \"#553311\"", "\"color\": \"brown\""),
        ("\"goal\": [3, 2]", "\"goal\": [3, -2]"),
        ("\"resolution\": 0.05", "\"resolution\": -0.05"),
        ("\"resolution\": 0.05", "\"resolution\": 0"),
        ("[1.5, -2.0, 0.0]", "[1.5, -2.0]"),
        ("\"version\": 1", "\"version\": 4"),
        (
            "\"version\": 1",
            "\"version\": 3, \"topology\": {\"shape\": \"hex\", \"staggeraxis\": \"z\"}",
        ),
        (
            "\"version\": 1",
            "\"version\": 3, \"topology\": {\"shape\": \"octagon\"}",
        ),
        ("\"version\": 1", "\"version\": 0"),
        (
            "\"goal\": [3, 2]",
            "\"goal\": [3, 2], \"waypoints\": [[9, 0]]",
        ),
        (
            "\"version\": 1",
            "\"version\": 2, \"heights\": {\"rows\": [[0]]}",
        ),
        (
            "\"version\": 1",
            "\"version\": 2, \"slope\": {\"uphill\": 1}",
        ),
    ];
    for (from, to) in cases {
        let text = JSON.replace(from, to);
        assert_ne!(text, JSON, "{from} is in the seed");
        let e = json::parse(&text);
        assert!(e.is_err(), "{to} was accepted");
    }
    assert!(matches!(
        json::parse(&JSON.replace("\"resolution\": 0.05", "\"resolution\": -1")),
        Err(FormatError::Metadata(_))
    ));
    let many: Vec<String> = (0..300)
        .map(|i| {
            format!(
                "{{\"symbol\": \"{}\", \"name\": \"t\", \"cost\": 1}}",
                char::from_u32(0x100 + i).unwrap_or('x')
            )
        })
        .collect();
    let text = format!(
        "{{\"format\": \"gridpath-map\", \"version\": 1, \"width\": 1, \"height\": 1, \"terrains\": [{}], \"rows\": [\"Ā\"]}}",
        many.join(",")
    );
    assert!(matches!(
        json::parse(&text),
        Err(FormatError::Terrain { .. })
    ));
    assert!(json::parse("").is_err());
}

#[test]
fn errors_quote_a_short_excerpt_of_a_huge_line() {
    let huge = "w".repeat(50 << 20);
    let nul = "\0".repeat(10 << 20);
    let cases = [
        (
            "map header",
            movingai::parse_map(&format!("type octile\n{huge}\nmap\n")).unwrap_err(),
        ),
        ("map of NUL bytes", movingai::parse_map(&nul).unwrap_err()),
        (
            "map width",
            movingai::parse_map(&format!("height 1\nwidth {huge}\nmap\n.\n")).unwrap_err(),
        ),
        (
            "scenario",
            movingai::parse_scen(&format!("version 1\n0 a.map 5 4 1 1 3 2 {huge}\n")).unwrap_err(),
        ),
        (
            "JSON string",
            json::parse(&JSON.replace("\"demo\"", &format!("\"{huge}\", \"x\": 1")))
                .map(|_| ())
                .err()
                .unwrap_or(FormatError::NotAMap(String::new())),
        ),
        (
            "JSON terrain",
            json::parse(
                &JSON
                    .replace("\"Grass\"", &format!("\"{huge}\""))
                    .replace("\"symbol\": \".\"", "\"symbol\": \"..\""),
            )
            .unwrap_err(),
        ),
        (
            "JSON type",
            json::parse(&JSON.replace("\"width\": 4", &format!("\"width\": \"{huge}\"")))
                .unwrap_err(),
        ),
    ];
    for (what, e) in cases {
        let message = e.to_string();
        assert!(message.len() < 400, "{what}: {} bytes", message.len());
    }
    let e = movingai::parse_map(&nul).unwrap_err().to_string();
    assert!(
        e.contains(&format!("{:?}", "\0".repeat(80))) && e.contains("10485760 bytes in all"),
        "{e}"
    );
    let e = RosMap::parse(&format!(
        "image: a.png\nresolution: {huge}\norigin: [0, 0, 0]\n"
    ))
    .unwrap_err();
    assert!(e.to_string().len() < 400, "{} bytes", e.to_string().len());
}

#[test]
fn broken_moving_ai_files_are_errors() {
    assert!(movingai::parse_map(MAP).is_ok(), "the seed is valid");
    // Every cut before the last row is complete (the final newline is optional).
    for cut in 0..MAP.len() - 1 {
        assert!(
            movingai::parse_map(&MAP[..cut]).is_err(),
            "truncated at {cut}"
        );
    }
    for seed in 0..50 {
        let text = String::from_utf8_lossy(&random_bytes(seed, 200)).into_owned();
        assert!(movingai::parse_map(&text).is_err());
    }
    for (from, to) in [
        (".G..W", ".G..WW"),
        (".G..W", ".G.W"),
        (".G..W", ".G.xW"),
        ("height 4", "height -4"),
        ("height 4", "height 0"),
        ("height 4", "height 99999999999999999999999"),
        ("width 5", "width 100000"),
        ("width 5", "wide 5"),
        ("map\n", ""),
    ] {
        let text = MAP.replace(from, to);
        assert!(movingai::parse_map(&text).is_err(), "{to:?} was accepted");
    }
    assert!(movingai::parse_map("").is_err());

    assert!(movingai::parse_scen(SCEN).is_ok());
    for (from, to) in [
        ("5.24264069", "far"),
        ("5.24264069", "-5"),
        ("\t0\t0\t", "\t-1\t0\t"),
        ("1 a.map 5 4 1 1 3 2", "1 a.map 5 4 1 1 3"),
        ("1 a.map 5 4", "1 a.map 99999999999 4"),
    ] {
        let text = SCEN.replace(from, to);
        assert!(movingai::parse_scen(&text).is_err(), "{to:?} was accepted");
    }
}

#[test]
fn broken_images_are_errors() {
    for format in [ImageFormat::Png, ImageFormat::Bmp, ImageFormat::Jpeg] {
        let bytes = encoded(format);
        assert!(import(&bytes).is_ok(), "the {format:?} seed is valid");
        for seed in 0..30 {
            assert!(import(&random_bytes(seed, bytes.len())).is_err());
        }
    }
    let png = encoded(ImageFormat::Png);
    // Cut anywhere before the end of the image data (the last 12 bytes are the end marker).
    for cut in 0..png.len() - 12 {
        assert!(import(&png[..cut]).is_err(), "PNG truncated at {cut}");
    }
    let bmp = encoded(ImageFormat::Bmp);
    for cut in (0..bmp.len()).step_by(7) {
        assert!(import(&bmp[..cut]).is_err(), "BMP truncated at {cut}");
    }
    assert_eq!(import(&[]), Err(ImportError::UnknownImageFormat));
    assert_eq!(
        import(b"GIF89a......"),
        Err(ImportError::UnknownImageFormat)
    );
}

#[test]
fn huge_claimed_sizes_are_refused_before_decoding() {
    for (w, h) in [
        (100_000, 100_000),
        (16_385, 2),
        (2, 16_385),
        (u32::MAX, u32::MAX),
    ] {
        let e = import(&png_claiming(w, h)).unwrap_err();
        assert!(
            matches!(
                e,
                ImportError::Decode(_)
                    | ImportError::TooLarge { .. }
                    | ImportError::MemoryLimit { .. }
            ),
            "{w} × {h}: {e}"
        );
        if w <= i32::MAX as u32 && h <= i32::MAX as u32 {
            assert_eq!(
                e,
                ImportError::TooLarge {
                    width: w,
                    height: h,
                    max: 16384
                },
                "{e}"
            );
            assert!(e.to_string().contains("16384 × 16384"), "{e}");
        }
    }
    // Within the image limit but over the grid's: refused from the header, no decoding.
    let fourfold = ImageImport {
        scale: Scale::CellsPerPixel(4.0),
        ..ImageImport::default()
    };
    assert_eq!(
        fourfold.import(&png_claiming(16_000, 16_000)),
        Err(ImportError::GridTooLarge {
            width: 64_000,
            height: 64_000
        })
    );
    // At a quarter the grid fits, and the decoder finds the data missing.
    let quarter = ImageImport {
        scale: Scale::CellsPerPixel(0.25),
        max_alloc: 1 << 20,
        ..ImageImport::default()
    };
    assert!(quarter.import(&png_claiming(16_000, 16_000)).is_err());
    assert!(import(&png_claiming(0, 10)).is_err());

    // A BMP that claims 20000 × 20000 pixels.
    let mut bmp = encoded(ImageFormat::Bmp);
    bmp[18..22].copy_from_slice(&20_000i32.to_le_bytes());
    bmp[22..26].copy_from_slice(&20_000i32.to_le_bytes());
    assert_eq!(
        import(&bmp),
        Err(ImportError::TooLarge {
            width: 20_000,
            height: 20_000,
            max: 16384
        })
    );
    bmp[22..26].copy_from_slice(&(-20_000i32).to_le_bytes());
    assert!(import(&bmp).is_err());
}

#[test]
fn broken_yaml_files_are_errors() {
    assert!(RosMap::parse(YAML).is_ok());
    assert!(RosMap::parse("").is_err());
    for seed in 0..50 {
        let text = String::from_utf8_lossy(&random_bytes(seed, 200)).into_owned();
        assert!(RosMap::parse(&text).is_err());
    }
    for (from, to) in [
        ("resolution: 0.05", "resolution: -0.05"),
        ("resolution: 0.05", "resolution: 1e999"),
        ("[-10.0, -7.5, 0.0]", "[-10.0, -7.5, 0.0, 4]"),
        ("[-10.0, -7.5, 0.0]", "-10.0"),
        ("image: floor.png", "image: \"\""),
        ("image: floor.png", ""),
        ("mode: trinary", "mode: binary"),
    ] {
        assert!(
            RosMap::parse(&YAML.replace(from, to)).is_err(),
            "{to:?} was accepted"
        );
    }
}

/// One edit of a file.
#[derive(Clone, Debug)]
enum Mutation {
    Flip(usize, u8),
    Set(usize, u8),
    Insert(usize, Vec<u8>),
    Token(usize, usize),
    Delete(usize, usize),
    Duplicate(usize, usize),
    Truncate(usize),
}

/// Pieces that break parsers in interesting ways.
const TOKENS: &[&str] = &[
    "-1",
    "0",
    "4294967296",
    "99999999999999999999",
    "1e400",
    "-0",
    "NaN",
    "\"",
    "\\",
    "[",
    "]",
    "{",
    "}",
    ",",
    ":",
    "null",
    "\n",
    "\r\n",
    "\u{0}",
    "é",
    "map\n",
    "height 9999\n",
    "#",
    "'",
];

fn mutation() -> impl Strategy<Value = Mutation> {
    prop_oneof![
        (any::<usize>(), 0u8..8).prop_map(|(i, b)| Mutation::Flip(i, b)),
        (any::<usize>(), any::<u8>()).prop_map(|(i, v)| Mutation::Set(i, v)),
        (any::<usize>(), prop::collection::vec(any::<u8>(), 1..16))
            .prop_map(|(i, v)| Mutation::Insert(i, v)),
        (any::<usize>(), 0..TOKENS.len()).prop_map(|(i, t)| Mutation::Token(i, t)),
        (any::<usize>(), 1usize..64).prop_map(|(i, n)| Mutation::Delete(i, n)),
        (any::<usize>(), 1usize..64).prop_map(|(i, n)| Mutation::Duplicate(i, n)),
        any::<usize>().prop_map(Mutation::Truncate),
    ]
}

fn mutate(seed: &[u8], mutations: &[Mutation]) -> Vec<u8> {
    let mut bytes = seed.to_vec();
    for m in mutations {
        let len = bytes.len();
        let at = |i: usize| if len == 0 { 0 } else { i % (len + 1) };
        match m {
            Mutation::Flip(i, bit) if len > 0 => bytes[i % len] ^= 1 << bit,
            Mutation::Set(i, v) if len > 0 => bytes[i % len] = *v,
            Mutation::Insert(i, v) => {
                let i = at(*i);
                bytes.splice(i..i, v.iter().copied());
            }
            Mutation::Token(i, t) => {
                let i = at(*i);
                bytes.splice(i..i, TOKENS[*t].bytes());
            }
            Mutation::Delete(i, n) => {
                let i = at(*i);
                bytes.drain(i..(i + n).min(len));
            }
            Mutation::Duplicate(i, n) => {
                let i = at(*i);
                let piece = bytes[i..(i + n).min(len)].to_vec();
                bytes.splice(i..i, piece);
            }
            Mutation::Truncate(i) => bytes.truncate(at(*i)),
            _ => {}
        }
    }
    bytes
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

fn check_grid(grid: &Grid) {
    assert_eq!(grid.len(), grid.width() as usize * grid.height() as usize);
    assert!(
        grid.cells()
            .iter()
            .all(|&id| usize::from(id) < grid.terrains().len())
    );
}

fn edits() -> impl Strategy<Value = Vec<Mutation>> {
    prop::collection::vec(mutation(), 1..6)
}

/// The seed files of one kind under `tests/corpus/KIND/`, sorted by name.
fn corpus(kind: &str) -> Vec<Vec<u8>> {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/corpus")
        .join(kind);
    let mut paths: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|entry| entry.expect("a directory entry").path())
        .filter(|p| p.is_file())
        .collect();
    paths.sort();
    assert!(!paths.is_empty(), "{} has no seeds", dir.display());
    paths
        .iter()
        .map(|p| std::fs::read(p).expect("a readable seed"))
        .collect()
}

static JSON_SEEDS: LazyLock<Vec<Vec<u8>>> = LazyLock::new(|| corpus("json"));
/// The level seeds with their extensions (the reader is chosen by it).
static LEVEL_SEEDS: LazyLock<Vec<(String, Vec<u8>)>> = LazyLock::new(|| {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/corpus/level");
    let mut seeds: Vec<(String, Vec<u8>)> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|entry| entry.expect("a directory entry").path())
        .map(|p| {
            let ext = p
                .extension()
                .map_or(String::new(), |e| e.to_string_lossy().into_owned());
            (ext, std::fs::read(&p).expect("a readable seed"))
        })
        .collect();
    seeds.sort();
    assert!(seeds.len() >= 3, "{} has too few seeds", dir.display());
    seeds
});

/// Reads level bytes as a file of their kind, in a folder of their own.
fn read_level_bytes(
    ext: &str,
    bytes: &[u8],
) -> Result<gridpath::format::level::LevelImport, gridpath::format::LoadError> {
    let dir = tempfile::tempdir().expect("a temporary folder");
    let path = dir.path().join(format!("level.{ext}"));
    std::fs::write(&path, bytes).expect("writes the level");
    gridpath::format::level::read_level(&path, &Default::default())
}
static MAP_SEEDS: LazyLock<Vec<Vec<u8>>> = LazyLock::new(|| corpus("map"));
static SCEN_SEEDS: LazyLock<Vec<Vec<u8>>> = LazyLock::new(|| corpus("scen"));
static YAML_SEEDS: LazyLock<Vec<Vec<u8>>> = LazyLock::new(|| corpus("yaml"));
static IMAGE_SEEDS: LazyLock<Vec<Vec<u8>>> = LazyLock::new(|| {
    let mut seeds = corpus("image");
    seeds.extend([
        encoded(ImageFormat::Png),
        encoded(ImageFormat::Bmp),
        encoded(ImageFormat::Jpeg),
        floorplan_png(),
    ]);
    seeds
});

/// One seed of a corpus, chosen by an index of any size.
fn pick(seeds: &[Vec<u8>], index: usize) -> &[u8] {
    &seeds[index % seeds.len()]
}

/// An image import small enough that a mutated size cannot make a test slow.
fn small_import() -> ImageImport {
    ImageImport {
        max_alloc: 64 << 20,
        ..ImageImport::default()
    }
}

#[test]
fn every_corpus_seed_loads() {
    for seed in JSON_SEEDS.iter() {
        let map = json::parse(&text(seed)).expect("a JSON seed loads");
        assert_eq!(json::parse(&json::encode(&map).expect("encodes")), Ok(map));
    }
    for seed in MAP_SEEDS.iter() {
        movingai::parse_map(&text(seed)).expect("a map seed loads");
    }
    for seed in SCEN_SEEDS.iter() {
        let queries = movingai::parse_scen(&text(seed)).expect("a scenario seed loads");
        assert!(!queries.is_empty());
    }
    for seed in YAML_SEEDS.iter() {
        RosMap::parse(&text(seed)).expect("a yaml seed loads");
    }
    for seed in IMAGE_SEEDS.iter() {
        small_import().import(seed).expect("an image seed imports");
    }
    for (ext, seed) in LEVEL_SEEDS.iter() {
        read_level_bytes(ext, seed).unwrap_or_else(|e| panic!("a .{ext} seed loads: {e}"));
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 1000, failure_persistence: None, ..ProptestConfig::default() })]

    /// A mutated map either fails with an error or loads a map that saves and loads again
    /// unchanged.
    #[test]
    fn mutated_json_never_panics(seed in any::<usize>(), edits in edits()) {
        if let Ok(map) = json::parse(&text(&mutate(pick(&JSON_SEEDS, seed), &edits))) {
            check_grid(&map.grid);
            let saved = json::encode(&map).expect("a loaded map encodes");
            prop_assert_eq!(json::parse(&saved), Ok(map));
        }
    }

    #[test]
    fn mutated_moving_ai_maps_never_panic(seed in any::<usize>(), edits in edits()) {
        if let Ok(grid) = movingai::parse_map(&text(&mutate(pick(&MAP_SEEDS, seed), &edits))) {
            check_grid(&grid);
            let saved = movingai::write_map(&grid);
            prop_assert_eq!(movingai::parse_map(&saved), Ok(grid));
        }
    }

    #[test]
    fn mutated_scenarios_never_panic(seed in any::<usize>(), edits in edits()) {
        let _ = movingai::parse_scen(&text(&mutate(pick(&SCEN_SEEDS, seed), &edits)));
    }

    #[test]
    fn mutated_yaml_never_panics(seed in any::<usize>(), edits in edits()) {
        if let Ok(ros) = RosMap::parse(&text(&mutate(pick(&YAML_SEEDS, seed), &edits))) {
            prop_assert!(ros.resolution > 0.0 && ros.free_thresh <= ros.occupied_thresh);
            let _ = ros.to_map("m", &encoded(ImageFormat::Png), &ros.image_import());
        }
    }

    /// A mutated Tiled map or LDtk project fails with an error naming the file, or reads as a
    /// map that a Tiled export gives back cell for cell.
    #[test]
    fn mutated_levels_never_panic(seed in any::<usize>(), edits in edits()) {
        let (ext, seed) = &LEVEL_SEEDS[seed % LEVEL_SEEDS.len()];
        match read_level_bytes(ext, &mutate(seed, &edits)) {
            Ok(import) => {
                check_grid(&import.map.grid);
                let dir = tempfile::tempdir().expect("a temporary folder");
                let out = dir.path().join("back.tmj");
                gridpath::format::save::save_map(&import.map, &out).expect("exports");
                let back = load_map(&out).expect("reads its export");
                prop_assert_eq!(back.grid.cells(), import.map.grid.cells());
            }
            Err(error) => prop_assert!(error.to_string().contains("level."), "{}", error),
        }
    }

    #[test]
    fn mutated_images_never_panic(seed in any::<usize>(), edits in edits(), fix_crcs in any::<bool>()) {
        let seed = pick(&IMAGE_SEEDS, seed);
        let mut bytes = mutate(seed, &edits);
        if fix_crcs && seed.starts_with(b"\x89PNG") {
            fix_png_crcs(&mut bytes);
        }
        if let Ok(grid) = small_import().import(&bytes) {
            check_grid(&grid);
        }
    }
}

#[path = "common/counting.rs"]
mod counting;

#[global_allocator]
static ALLOCATOR: counting::Counting = counting::Counting;

/// A zlib stream that inflates to `len` zero bytes, made of one fixed-Huffman block: a zero
/// literal, then copies of 258 bytes at distance 1 (13 bits each).
fn zlib_zeros(len: usize) -> Vec<u8> {
    struct Bits {
        out: Vec<u8>,
        byte: u8,
        used: u8,
    }
    impl Bits {
        /// Pushes `count` bits of `value`, least significant first.
        fn push(&mut self, value: u32, count: u8) {
            for i in 0..count {
                self.byte |= (((value >> i) & 1) as u8) << self.used;
                self.used += 1;
                if self.used == 8 {
                    self.out.push(self.byte);
                    (self.byte, self.used) = (0, 0);
                }
            }
        }
        /// Pushes a Huffman code, most significant bit first.
        fn code(&mut self, code: u32, count: u8) {
            let reversed = code.reverse_bits() >> (32 - u32::from(count));
            self.push(reversed, count);
        }
    }
    let mut bits = Bits {
        out: vec![0x78, 0x01],
        byte: 0,
        used: 0,
    };
    bits.push(1, 1); // the final block
    bits.push(1, 2); // fixed Huffman codes
    bits.code(0x30, 8); // the literal 0
    let mut left = len - 1;
    while left >= 258 {
        bits.code(0xc5, 8); // length 258 (symbol 285)
        bits.code(0, 5); // distance 1
        left -= 258;
    }
    for _ in 0..left {
        bits.code(0x30, 8);
    }
    bits.code(0, 7); // end of block
    if bits.used > 0 {
        bits.out.push(bits.byte);
    }
    let adler = (((len % 65_521) as u32) << 16) | 1;
    bits.out.extend_from_slice(&adler.to_be_bytes());
    bits.out
}

#[test]
fn a_compressed_colour_profile_is_never_inflated() {
    let png = encoded(ImageFormat::Png);
    let mut profile = b"bomb\0\0".to_vec();
    profile.extend(zlib_zeros(200 << 20));
    // The colour profile goes right after the header chunk (8 bytes of signature, 25 of IHDR).
    let mut bomb = png[..33].to_vec();
    bomb.extend_from_slice(&png_of(&[(b"iCCP", profile)])[8..]);
    bomb.extend_from_slice(&png[33..]);
    let (grid, peak) = counting::peak_of(|| import(&bomb));
    assert!(grid == import(&png), "the profile changes nothing");
    assert!(peak < 16 << 20, "the import held {peak} bytes at once");
}

#[test]
fn sixteen_bit_images_count_the_eight_bit_copy_in_the_memory_limit() {
    let image = image::ImageBuffer::<image::Rgb<u16>, _>::from_fn(100, 100, |x, y| {
        image::Rgb([x as u16 * 600, y as u16 * 600, 30_000])
    });
    let mut png = Cursor::new(Vec::new());
    image.write_to(&mut png, ImageFormat::Png).expect("encodes");
    // 60 000 bytes decoded, and 30 000 more for the 8-bit copy the import reads.
    let within = |max_alloc| ImageImport {
        max_alloc,
        ..ImageImport::default()
    };
    let refused = within(70_000).import(png.get_ref()).err();
    assert_eq!(refused, Some(ImportError::MemoryLimit { limit: 70_000 }));
    let (grid, peak) = counting::peak_of(|| within(100_000).import(png.get_ref()));
    assert!(grid.is_ok(), "{:?}", grid.err());
    assert!(peak >= 90_000, "both copies are held at once: {peak} bytes");
    // 8-bit pixels need no copy.
    let eight = image::DynamicImage::ImageRgb16(image).to_rgb8();
    let mut png = Cursor::new(Vec::new());
    eight.write_to(&mut png, ImageFormat::Png).expect("encodes");
    assert!(within(40_000).import(png.get_ref()).is_ok());
}

#[test]
fn images_whose_data_ends_early_are_errors() {
    let image = image::RgbImage::from_fn(64, 64, |x, y| {
        image::Rgb([(x * 4) as u8, (y * 4) as u8, 90])
    });
    for format in [ImageFormat::Jpeg, ImageFormat::Png, ImageFormat::Bmp] {
        let mut out = Cursor::new(Vec::new());
        image.write_to(&mut out, format).expect("encodes");
        let bytes = out.into_inner();
        assert!(import(&bytes).is_ok(), "the whole {format:?} image imports");
        for keep in [0.9, 0.5, 0.25] {
            let cut = (bytes.len() as f64 * keep) as usize;
            let result = import(&bytes[..cut]);
            assert!(
                matches!(result, Err(ImportError::Decode(_))),
                "{format:?} cut at {cut}: {:?}",
                result.err()
            );
        }
    }
    // A JPEG whose header claims far more pixels than its data holds, with its end marker.
    let mut out = Cursor::new(Vec::new());
    image::GrayImage::from_pixel(16, 16, image::Luma([200]))
        .write_to(&mut out, ImageFormat::Jpeg)
        .expect("encodes");
    let mut jpeg = out.into_inner();
    let sof = jpeg
        .windows(2)
        .position(|w| w == [0xff, 0xc0])
        .expect("a baseline frame header");
    jpeg[sof + 5..sof + 7].copy_from_slice(&4000u16.to_be_bytes());
    jpeg[sof + 7..sof + 9].copy_from_slice(&4000u16.to_be_bytes());
    let e = import(&jpeg)
        .err()
        .map(|e| e.to_string())
        .unwrap_or_default();
    assert!(e.contains("ends early"), "{e}");
    // A run-length encoded BMP whose runs stop (with an end-of-bitmap marker) long before the
    // pixels its header claims: decoded, the rest would be black walls.
    let rle_bmp = |width: i32, height: i32, runs: &[u8]| {
        let palette: Vec<u8> = (0..=255u8).flat_map(|i| [i, i, i, 0]).collect();
        let offset = 14 + 40 + palette.len() as u32;
        let mut bmp = b"BM".to_vec();
        bmp.extend((offset + runs.len() as u32).to_le_bytes());
        bmp.extend([0; 4]);
        bmp.extend(offset.to_le_bytes());
        for v in [40u32, width as u32, height as u32] {
            bmp.extend(v.to_le_bytes());
        }
        bmp.extend(1u16.to_le_bytes());
        bmp.extend(8u16.to_le_bytes());
        for v in [1u32, runs.len() as u32, 2835, 2835, 256, 0] {
            bmp.extend(v.to_le_bytes());
        }
        bmp.extend(palette);
        bmp.extend(runs);
        bmp
    };
    // 16 × 2 pixels in two full rows of runs: whole.
    let whole = rle_bmp(16, 2, &[16, 255, 0, 0, 16, 255, 0, 1]);
    assert!(import(&whole).is_ok(), "{:?}", import(&whole).err());
    let mut runs = [255u8, 200].repeat(200);
    runs.extend([0, 1]);
    let e = ImageImport::default()
        .import(&rle_bmp(4000, 4000, &runs))
        .err()
        .map(|e| e.to_string())
        .unwrap_or_default();
    assert!(e.contains("run-length data ends early"), "{e}");
}

#[test]
fn a_path_export_of_half_a_million_samples_is_written_holding_a_few_megabytes() {
    use gridpath::format::PathExport;
    use gridpath::grid::{Cell, Map};
    use gridpath::search::{self, SearchRequest};
    use gridpath::smooth::{self, SmoothSettings};

    let dir = tempfile::tempdir().expect("a temporary folder");
    let map = Map::new(
        "row",
        Grid::from_ascii(&[".".repeat(512).as_str()]).expect("a valid map"),
    );
    let request = SearchRequest::new(Cell::new(0, 0), Cell::new(511, 0));
    let result = search::solve(&map.grid, &request).expect("searches");
    let settings = SmoothSettings::default();
    let smoothed = smooth::smooth_path(&map.grid, &result.path, &settings).expect("smooths");
    // The smallest spacing: 511,001 samples, tens of megabytes of JSON or CSV.
    let held = PathExport::new(
        &map,
        &request,
        &result,
        settings,
        Some(smoothed.clone()),
        smooth::MIN_SPACING,
    );
    let outline = PathExport::outline(
        &map,
        &request,
        &result,
        settings,
        Some(smoothed),
        smooth::MIN_SPACING,
    );
    assert_eq!(outline.sample_count(), 511_001);
    for (export, name) in [(&held, "held"), (&outline, "outline")] {
        for file in ["row.json", "row.csv"] {
            let path = dir.path().join(file);
            let (written, peak) = counting::peak_of(|| export.write_to(&path));
            written.expect("written");
            let size = std::fs::metadata(&path).expect("the file").len();
            assert!(size > 16 << 20, "{file}: {size} bytes");
            // The samples are computed as they are written: what is held does not grow
            // with them.
            assert!(
                peak < 1 << 20,
                "{name} {file}: {peak} bytes held at once to write {size}"
            );
        }
    }
}
