//! The ranges of the numeric options: each is checked when the command line is parsed, before
//! any file is read, and each option's help names its range.

/// A parser of a finite number from `min` to `max`, both included, whose error names the range.
pub fn number_in(
    min: f64,
    max: f64,
) -> impl Fn(&str) -> Result<f64, String> + Clone + Send + Sync + 'static {
    move |s: &str| match s.trim().parse::<f64>() {
        Ok(v) if v.is_finite() && (min..=max).contains(&v) => Ok(v),
        _ => Err(format!("expected a number from {min} to {max}, got {s:?}")),
    }
}

/// A parser of a finite number above `min` (excluded) and at most `max`.
pub fn number_above(
    min: f64,
    max: f64,
) -> impl Fn(&str) -> Result<f64, String> + Clone + Send + Sync + 'static {
    move |s: &str| match s.trim().parse::<f64>() {
        Ok(v) if v.is_finite() && v > min && v <= max => Ok(v),
        _ => Err(format!(
            "expected a number above {min} and at most {max}, got {s:?}"
        )),
    }
}

/// The threads a command runs on: what was asked for, at most the machine's cores, with a note
/// on standard error when it is fewer than asked.
pub fn threads(asked: usize) -> usize {
    let cores = std::thread::available_parallelism().map_or(1, std::num::NonZero::get);
    if asked > cores {
        eprintln!("note: --jobs {asked} is more than the {cores} cores here; running {cores}");
        cores
    } else {
        asked
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_outside_the_range_are_refused_with_it() {
        let parse = number_in(0.0, 10.0);
        assert_eq!(parse("0"), Ok(0.0));
        assert_eq!(parse(" 10 "), Ok(10.0));
        for bad in ["-1", "10.5", "nan", "inf", "1e308", "x"] {
            let e = parse(bad).unwrap_err();
            assert!(e.contains("from 0 to 10"), "{e}");
        }
        let parse = number_above(0.0, 1.0);
        assert!(parse("0").is_err());
        assert_eq!(parse("1"), Ok(1.0));
    }
}
