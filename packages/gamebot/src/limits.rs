//! Checked ranges for every numeric command-line option.
//!
//! Each option names one entry of the table below as its clap value parser
//! (`#[arg(long, value_parser = limits::SECONDS)]`), so a value outside the
//! range (or NaN, infinite, too large for the type) is refused by clap with a
//! message stating the accepted range, before any command code runs. There
//! are no per-command checks: to change what an option accepts, change its
//! table entry.

use clap::builder::TypedValueParser;
use clap::error::ErrorKind;
use std::fmt::Display;

/// An inclusive range of accepted values, with the unit shown in errors.
#[derive(Clone, Copy, Debug)]
pub struct Range<T> {
    pub min: T,
    pub max: T,
    pub unit: &'static str,
}

/// A number type an option can have.
pub trait Number: Copy + Display + Send + Sync + 'static {
    /// Parses `text` and checks it against `[min, max]`; the error says why.
    fn parse_within(text: &str, min: Self, max: Self) -> Result<Self, String>;
}

macro_rules! integer {
    ($($t:ty),*) => {$(
        impl Number for $t {
            fn parse_within(text: &str, min: Self, max: Self) -> Result<Self, String> {
                // i128 holds every value of every type here, so "too large for
                // the type" is a range error, not "not a number".
                let v: i128 = text
                    .trim()
                    .parse()
                    .map_err(|_| "expected a whole number".to_string())?;
                if v < min as i128 || v > max as i128 {
                    return Err("out of range".into());
                }
                Ok(v as $t)
            }
        }
    )*};
}
integer!(u16, u32, u64, usize, i32);

impl Number for f64 {
    fn parse_within(text: &str, min: Self, max: Self) -> Result<Self, String> {
        let v: f64 = text
            .trim()
            .parse()
            .map_err(|_| "expected a number".to_string())?;
        if !v.is_finite() {
            return Err("not a finite number".into());
        }
        if v < min || v > max {
            return Err("out of range".into());
        }
        Ok(v)
    }
}

impl<T: Number> TypedValueParser for Range<T> {
    type Value = T;

    fn parse_ref(
        &self,
        cmd: &clap::Command,
        arg: Option<&clap::Arg>,
        value: &std::ffi::OsStr,
    ) -> Result<T, clap::Error> {
        let text = value.to_string_lossy();
        T::parse_within(&text, self.min, self.max).map_err(|why| {
            let unit = if self.unit.is_empty() {
                String::new()
            } else {
                format!(" {}", self.unit)
            };
            let name = arg.map_or_else(|| "the option".to_string(), |a| format!("'{a}'"));
            clap::Error::raw(
                ErrorKind::ValueValidation,
                format!(
                    "invalid value '{text}' for {name}: {why}; accepted {} to {}{unit}\n",
                    self.min, self.max
                ),
            )
            .with_cmd(cmd)
        })
    }
}

const fn r<T>(min: T, max: T, unit: &'static str) -> Range<T> {
    Range { min, max, unit }
}

// ---- The table -----------------------------------------------------------

/// Measuring time of a benchmark (a day at most).
pub const SECONDS: Range<f64> = r(0.001, 86_400.0, "seconds");
/// Grid step of reach maps and IK benchmarks: finer than 1 mm explodes the grid.
pub const STEP_CM: Range<f64> = r(0.1, 50.0, "cm");
/// Frames of a vision benchmark or a live detection.
pub const FRAMES: Range<usize> = r(1, 1_000_000, "frames");
/// A cut-off on the length of a game.
pub const MAX_MOVES: Range<usize> = r(1, 1_000_000, "moves");
/// How many games a command plays.
pub const GAMES: Range<usize> = r(1, 100_000_000, "games");
/// Repetitions of a measurement.
pub const ITERATIONS: Range<usize> = r(1, 1_000_000, "iterations");
/// A serial line rate (the SSC-32U supports 9600 to 115200; USB adapters more).
pub const BAUD: Range<u32> = r(300, 4_000_000, "baud");
/// A duration in milliseconds for moves, polls, timeouts (an hour at most).
pub const MILLIS: Range<u64> = r(1, 3_600_000, "ms");
/// An injected answer delay (may be zero; ten minutes at most).
pub const DELAY_MS: Range<u64> = r(0, 600_000, "ms");
/// Random bytes injected before an answer.
pub const GARBAGE_BYTES: Range<usize> = r(0, 65_536, "bytes");
/// Worker threads.
pub const THREADS: Range<usize> = r(1, 1024, "threads");
/// OpenCV worker threads (0 = OpenCV's default).
pub const CV_THREADS: Range<i32> = r(0, 1024, "threads");
/// A camera device index.
pub const CAMERA_INDEX: Range<i32> = r(0, 255, "");
/// Consecutive equal observations required.
pub const STABLE: Range<usize> = r(1, 1000, "frames");
/// A coordinate in the arm base frame.
pub const METRES: Range<f64> = r(-10.0, 10.0, "m");
/// Image noise standard deviation (grey levels).
pub const NOISE: Range<f64> = r(0.0, 100.0, "grey levels");
/// Gaussian blur sigma.
pub const BLUR: Range<f64> = r(0.0, 20.0, "pixels");
/// Lighting gradient strength.
pub const LIGHT: Range<f64> = r(0.0, 1.0, "");
/// Piece placement offset, as a fraction of a cell.
pub const OFFSET: Range<f64> = r(0.0, 0.5, "cells");
/// Camera focal length.
pub const FOCAL: Range<f64> = r(1.0, 100_000.0, "pixels");
/// Moves shown in a list.
pub const SHOW: Range<usize> = r(0, 10_000, "moves");
/// A player index (1-based sides).
pub const SIDE: Range<i32> = r(0, 64, "");
/// Plies per game.
pub const PLIES: Range<usize> = r(1, 1_000_000, "plies");
/// Passes of a benchmark.
pub const PASSES: Range<usize> = r(1, 10_000, "passes");
/// Real-time factor of the simulation clock.
pub const SIM_SPEED: Range<f64> = r(0.1, 200.0, "× real time");
/// Games of one `play --sim` run.
pub const SIM_GAMES: Range<u32> = r(1, 100_000, "games");
/// Repetitions of a measured robot action (`gamebot bench arm --repeat`).
pub const REPEATS: Range<usize> = r(1, 1000, "repeats");

#[cfg(test)]
mod tests {
    use super::*;
    use clap::Parser;

    #[derive(Parser, Debug)]
    struct Cli {
        #[arg(long, value_parser = SECONDS)]
        seconds: f64,
        #[arg(long, value_parser = ITERATIONS, default_value_t = 3)]
        iterations: usize,
        #[arg(long, value_parser = BAUD, value_delimiter = ',', default_value = "9600")]
        bauds: Vec<u32>,
    }

    fn parse(args: &[&str]) -> Result<Cli, String> {
        let mut all = vec!["t"];
        all.extend_from_slice(args);
        Cli::try_parse_from(all).map_err(|e| e.to_string())
    }

    #[test]
    fn accepts_values_in_range() {
        let c = parse(&[
            "--seconds",
            "2.5",
            "--iterations",
            "7",
            "--bauds",
            "9600,115200",
        ])
        .unwrap();
        assert_eq!(c.seconds, 2.5);
        assert_eq!(c.iterations, 7);
        assert_eq!(c.bauds, vec![9600, 115200]);
    }

    #[test]
    fn refuses_non_finite_negative_and_huge_floats() {
        for bad in ["NaN", "inf", "-inf", "1e20", "-1", "0"] {
            // `--seconds=-inf`: a separate `-inf` would be read as a flag.
            let arg = format!("--seconds={bad}");
            let e = parse(&[arg.as_str()]).unwrap_err();
            assert!(e.contains("accepted 0.001 to 86400 seconds"), "{bad}: {e}");
            assert!(e.contains(&format!("invalid value '{bad}'")), "{e}");
            assert!(e.contains("--seconds"), "{e}");
        }
    }

    #[test]
    fn integers_too_large_for_the_type_are_range_errors_not_not_a_number() {
        let e = parse(&["--seconds", "1", "--iterations", "18446744073709551616"]).unwrap_err();
        assert!(e.contains("out of range"), "{e}");
        let e = parse(&["--seconds", "1", "--iterations", "0"]).unwrap_err();
        assert!(e.contains("accepted 1 to 1000000"), "{e}");
        let e = parse(&["--seconds", "1", "--iterations", "x"]).unwrap_err();
        assert!(e.contains("expected a whole number"), "{e}");
    }

    #[test]
    fn every_element_of_a_list_is_checked() {
        let e = parse(&["--seconds", "1", "--bauds", "9600,0"]).unwrap_err();
        assert!(e.contains("accepted 300 to 4000000 baud"), "{e}");
    }

    #[test]
    fn table_ranges_are_ordered_and_finite() {
        for f in [SECONDS, STEP_CM, METRES, NOISE, BLUR, LIGHT, OFFSET, FOCAL] {
            assert!(f.min.is_finite() && f.max.is_finite() && f.min <= f.max);
        }
    }
}
