//! Helpers the integration tests share: the project's folder, the binary, encoded images.
//! Each test file takes `mod common;` and uses its own part of them.

#![allow(dead_code)] // Each test binary uses some of the helpers, none uses them all.

use std::ffi::OsStr;
use std::io::Cursor;
use std::path::PathBuf;
use std::process::{Command, Output};

use image::{DynamicImage, ImageFormat};

/// The project's folder (where `Cargo.toml`, `maps/` and `assets/` are).
pub fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// Says that a test did not run for want of its data: `SKIPPED: reason` written straight to
/// the process's standard error, past the test harness's capture, so that it shows in the
/// output of a passing run. Where `GRIDPATH_REQUIRE_DATA` is set (continuous integration
/// sets it, having the data beside the project), missing data fails the test instead.
pub fn skip(reason: &str) {
    use std::io::Write as _;
    assert!(
        std::env::var_os("GRIDPATH_REQUIRE_DATA").is_none(),
        "GRIDPATH_REQUIRE_DATA is set, but {reason}"
    );
    let _ = writeln!(std::io::stderr().lock(), "SKIPPED: {reason}");
}

/// Runs the `gridpath` binary with these arguments and waits for it.
pub fn gridpath<S: AsRef<OsStr>>(args: &[S]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_gridpath"))
        .args(args)
        .output()
        .expect("the binary runs")
}

/// An image encoded as PNG.
pub fn png(image: impl Into<DynamicImage>) -> Vec<u8> {
    let mut out = Cursor::new(Vec::new());
    image
        .into()
        .write_to(&mut out, ImageFormat::Png)
        .expect("encodes");
    out.into_inner()
}

/// The JSON object a command printed, after checking it succeeded (its stderr otherwise).
pub fn json_of(output: &Output) -> serde_json::Value {
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    serde_json::from_slice(&output.stdout).expect("stdout is one JSON object")
}

/// A point `[x, y]` of a command's JSON.
pub fn point(value: &serde_json::Value) -> [f64; 2] {
    let xy = value.as_array().expect("a point is an array");
    assert_eq!(xy.len(), 2, "{value}");
    [xy[0].as_f64().expect("x"), xy[1].as_f64().expect("y")]
}
