//! The one error type of the crate.
//!
//! Every user-facing entry point (plan construction, parsing, counting queries) returns
//! [`Result`]. Messages are single lines that name the offending value, so the command-line
//! tool can print them as they are.

use std::fmt;

/// Errors reported by nimcount.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum Error {
    /// A transform length that is not a power of two (lengths start at 1 = 2^0).
    #[error("length {len} is not a power of two")]
    NotPowerOfTwo {
        /// The offending length.
        len: usize,
    },

    /// A buffer whose length is not a multiple of the plan's length.
    #[error("buffer of {len} elements is not a multiple of the transform length {plan_len}")]
    LengthMismatch {
        /// Length of the buffer that was passed.
        len: usize,
        /// Length of the plan.
        plan_len: usize,
    },

    /// A modulus the ring does not accept.
    #[error("invalid modulus {modulus}: {reason}")]
    InvalidModulus {
        /// The modulus as written.
        modulus: String,
        /// What is wrong with it.
        reason: &'static str,
    },

    /// A value outside the set of values a ring accepts (for example a residue `>= p`).
    #[error("value {value} at index {index} is outside the ring {ring}")]
    ValueOutOfRange {
        /// The value, printed.
        value: String,
        /// Its position in the buffer or file.
        index: usize,
        /// The ring, printed.
        ring: String,
    },

    /// The normalised inverse needs 1/2, which the ring lacks (wrapping rings).
    #[error(
        "the ring {ring} has no inverse of 2: only the forward and unnormalised inverse transforms exist there"
    )]
    NoInverseOfTwo {
        /// The ring, printed.
        ring: String,
    },

    /// An exact integer computation that could leave the integer type.
    #[error("{what} could overflow {ring}: {detail}")]
    Overflow {
        /// What was attempted.
        what: &'static str,
        /// The ring or integer type.
        ring: String,
        /// The bound that was exceeded.
        detail: String,
    },

    /// An exact division that does not divide (the input was not an image of the forward transform).
    #[error("{what}: value {value} at index {index} is not divisible by {divisor}")]
    NotDivisible {
        /// What was attempted.
        what: &'static str,
        /// The value, printed.
        value: String,
        /// Its index.
        index: usize,
        /// The divisor.
        divisor: String,
    },

    /// A SIMD backend that this CPU does not support.
    #[error("backend {backend} is not available on this CPU")]
    BackendUnavailable {
        /// The backend's name.
        backend: &'static str,
    },

    /// A buffer or table that would not fit in memory; refused before allocating.
    #[error("{what} needs {needed} but only {available} of memory is available")]
    OutOfMemory {
        /// What would have been allocated.
        what: String,
        /// Bytes needed, printed with a unit.
        needed: Bytes,
        /// Bytes available, printed with a unit.
        available: Bytes,
    },

    /// A number that does not parse (see [`crate::number`]).
    #[error("invalid number '{input}': {reason}")]
    InvalidNumber {
        /// The text as given.
        input: String,
        /// What is wrong with it.
        reason: String,
    },

    /// A game specification that does not parse or makes no sense.
    #[error("invalid game '{spec}': {reason}")]
    InvalidGame {
        /// The specification as given.
        spec: String,
        /// What is wrong with it.
        reason: String,
    },

    /// A query (counting, Grundy computation) whose arguments are inconsistent or out of range.
    #[error("{0}")]
    InvalidQuery(String),

    /// A malformed input file.
    #[error("{path}{}: {reason}", at_line(*line))]
    Malformed {
        /// The file.
        path: String,
        /// 1-based line number (0 for a file-level problem such as a truncated binary file).
        line: usize,
        /// What is wrong.
        reason: String,
    },

    /// A game without a proven period whose query needs more values than may be computed.
    /// No longer produced: such queries are [`Error::TooCostly`], with the estimate.
    #[error("{0}")]
    NoPeriod(String),

    /// Grundy values needed directly (no period is proven) whose estimated cost is beyond the
    /// limit of direct values; refused before computing them.
    #[error(
        "{game} {reason}, and heap sizes up to {last} need G(0) … G({last}) directly: {} and {}, beyond \
         the limit of direct values (an estimate of about a minute, or the number of values allowed)",
        Seconds(*seconds),
        Bytes(*bytes)
    )]
    TooCostly {
        /// The game.
        game: String,
        /// Why the values are needed directly ("is never periodic", "has no proven period in …").
        reason: String,
        /// The largest heap size of the range.
        last: String,
        /// The number of values needed, `G(0)` … `G(last)`, when it fits in 64 bits.
        values: Option<u64>,
        /// Estimated seconds on one core of the reference machine.
        seconds: f64,
        /// Estimated bytes of memory (`u64::MAX`: beyond 16 EiB).
        bytes: u64,
    },

    /// An I/O error, with the path it concerns.
    #[error("{path}: {source}")]
    Io {
        /// The file.
        path: String,
        /// The underlying error.
        #[source]
        source: std::io::Error,
    },
}

/// `", line N"`, or nothing for a problem with the file as a whole (line 0).
fn at_line(line: usize) -> String {
    if line == 0 { String::new() } else { format!(", line {line}") }
}

/// Convenience alias used across the crate.
pub type Result<T, E = Error> = std::result::Result<T, E>;

impl Error {
    /// Wraps an I/O error together with the path it concerns.
    pub fn io(path: impl AsRef<std::path::Path>, source: std::io::Error) -> Self {
        Error::Io { path: path.as_ref().display().to_string(), source }
    }
}

/// A byte count, printed with a binary unit (`4.00 GiB`); `u64::MAX` stands for any count that
/// does not fit in 64 bits and prints as `more than 16 EiB`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub struct Bytes(pub u64);

impl fmt::Display for Bytes {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        const UNITS: [&str; 7] = ["B", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB"];
        if self.0 == u64::MAX {
            return f.write_str("more than 16 EiB");
        }
        let mut value = self.0 as f64;
        let mut unit = 0;
        while value >= 1024.0 && unit + 1 < UNITS.len() {
            value /= 1024.0;
            unit += 1;
        }
        if unit == 0 { write!(f, "{} B", self.0) } else { write!(f, "{value:.2} {}", UNITS[unit]) }
    }
}

/// A duration in seconds, printed approximately in the largest unit that keeps it readable:
/// `about 3.2 s`, `about 4.0 min`, `about 2.5 h`, `about 3.0 days`, `about 40 years`.
#[derive(Debug, Clone, Copy, PartialEq, PartialOrd)]
pub struct Seconds(pub f64);

impl fmt::Display for Seconds {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        const YEAR: f64 = 31_557_600.0;
        const UNITS: [(f64, &str); 5] =
            [(1.0, "s"), (60.0, "min"), (3600.0, "h"), (86_400.0, "days"), (YEAR, "years")];
        let s = self.0;
        if !s.is_finite() || s >= 1e6 * YEAR {
            return f.write_str("more than a million years");
        }
        if s < 0.1 {
            return f.write_str("about 0.1 s or less");
        }
        // The largest unit the value reaches (59.9 s reads as 1.0 min).
        let (scale, unit) =
            UNITS.iter().rev().find(|&&(scale, _)| s >= scale * 0.99).copied().unwrap_or(UNITS[0]);
        let x = s / scale;
        if x < 9.95 { write!(f, "about {x:.1} {unit}") } else { write!(f, "about {:.0} {unit}", x.round()) }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn malformed_files_name_the_line_when_there_is_one() {
        let at = |line| Error::Malformed { path: "h.txt".into(), line, reason: "bad".into() }.to_string();
        assert_eq!(at(3), "h.txt, line 3: bad");
        assert_eq!(at(0), "h.txt: bad");
    }

    #[test]
    fn seconds_read_well() {
        let at = |s: f64| Seconds(s).to_string();
        assert_eq!(at(0.01), "about 0.1 s or less");
        assert_eq!(at(3.24), "about 3.2 s");
        assert_eq!(at(42.0), "about 42 s");
        assert_eq!(at(59.9), "about 1.0 min");
        assert_eq!(at(300.0), "about 5.0 min");
        assert_eq!(at(7200.0), "about 2.0 h");
        assert_eq!(at(3.0 * 86_400.0), "about 3.0 days");
        assert_eq!(at(40.0 * 31_557_600.0), "about 40 years");
        assert_eq!(at(1e20), "more than a million years");
        assert_eq!(at(f64::INFINITY), "more than a million years");
    }

    #[test]
    fn bytes_print_with_binary_units() {
        assert_eq!(Bytes(0).to_string(), "0 B");
        assert_eq!(Bytes(1023).to_string(), "1023 B");
        assert_eq!(Bytes(4 << 30).to_string(), "4.00 GiB");
        assert_eq!(Bytes(3 << 19).to_string(), "1.50 MiB");
        assert_eq!(Bytes(1 << 62).to_string(), "4.00 EiB");
        assert_eq!(Bytes(u64::MAX).to_string(), "more than 16 EiB");
    }
}
