//! How a test that needs data from outside the project (the Moving AI benchmarks, sample
//! files beside the project folder) says it did not run, the same way in every suite.

use std::io::Write as _;

/// Says that a test did not run for want of its data: `SKIPPED: reason` written straight to
/// the process's standard error, past the test harness's capture, so that it shows in the
/// output of a passing run. Where `GRIDPATH_REQUIRE_DATA` is set (continuous integration
/// sets it, having the data beside the project), missing data fails the test instead.
pub(crate) fn skip(reason: &str) {
    assert!(
        std::env::var_os("GRIDPATH_REQUIRE_DATA").is_none(),
        "GRIDPATH_REQUIRE_DATA is set, but {reason}"
    );
    let _ = writeln!(std::io::stderr().lock(), "SKIPPED: {reason}");
}
