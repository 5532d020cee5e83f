//! The built-in rings as the tool uses them: one chosen at run time ([`AnyRing`]), with values to
//! benchmark on and the textbook loop that is their baseline.

use nimcount::elements::Element;
use nimcount::ring::{Exact64, Exact128, Float32, Float64, Mod32, Mod64, Wrap32, Wrap64};

/// What the tool needs of a ring beyond reading and writing its elements.
pub trait CliRing: Element<Elem: Copy> {
    /// A value for benchmarks, from 64 random bits. Exact rings use `-1..=1`, so that a forward
    /// and inverse round trip fits every length the tool can allocate.
    fn bench_value(&self, bits: u64) -> Self::Elem;
    /// The benchmark baseline: the textbook iterative loop as usually written for this ring
    /// (`%` reductions for the modular rings, plain `+` and `-` otherwise).
    fn textbook(&self, data: &mut [Self::Elem]) {
        nimcount::fwht::reference::textbook(self, data);
    }
}

/// Says on standard error how many of `results` overflowed to inf or NaN (floating-point rings:
/// the inputs were finite, the sums and products need not be); the results are written as they
/// are, as NumPy's warning leaves its array.
pub fn warn_overflow<R: CliRing>(ring: &R, results: &[R::Elem]) {
    let overflowed = results.iter().filter(|x| !ring.accepts(x)).count();
    if overflowed > 0 {
        crate::common::stderr_line(format_args!(
            "warning: {overflowed} of the {} results overflowed the range of {ring} to inf or NaN",
            results.len()
        ));
    }
}

impl CliRing for Mod32 {
    fn bench_value(&self, bits: u64) -> u32 {
        self.reduce(bits)
    }
    fn textbook(&self, data: &mut [u32]) {
        nimcount::fwht::reference::textbook_remainder(self.modulus(), data);
    }
}

impl CliRing for Mod64 {
    fn bench_value(&self, bits: u64) -> u64 {
        self.reduce(u128::from(bits))
    }
}

impl CliRing for Wrap32 {
    fn bench_value(&self, bits: u64) -> u32 {
        bits as u32
    }
}

impl CliRing for Wrap64 {
    fn bench_value(&self, bits: u64) -> u64 {
        bits
    }
}

impl CliRing for Exact64 {
    fn bench_value(&self, bits: u64) -> i64 {
        (bits % 3) as i64 - 1
    }
}

impl CliRing for Exact128 {
    fn bench_value(&self, bits: u64) -> i128 {
        (bits % 3) as i128 - 1
    }
}

/// Uniform in `[-1, 1)`.
fn unit_interval(bits: u64) -> f64 {
    (bits >> 11) as f64 / (1u64 << 52) as f64 - 1.0
}

impl CliRing for Float32 {
    fn bench_value(&self, bits: u64) -> f32 {
        unit_interval(bits) as f32
    }
}

impl CliRing for Float64 {
    fn bench_value(&self, bits: u64) -> f64 {
        unit_interval(bits)
    }
}

/// Runs `$body` with `$r` bound to the concrete ring inside a [`nimcount::ring::AnyRing`].
macro_rules! with_ring {
    ($ring:expr, |$r:ident| $body:expr) => {{
        use nimcount::ring::AnyRing;
        match $ring {
            AnyRing::Mod32($r) => $body,
            AnyRing::Mod64($r) => $body,
            AnyRing::Wrap32($r) => $body,
            AnyRing::Wrap64($r) => $body,
            AnyRing::Exact64($r) => $body,
            AnyRing::Exact128($r) => $body,
            AnyRing::Float32($r) => $body,
            AnyRing::Float64($r) => $body,
            _ => unreachable!("every built-in ring is listed"),
        }
    }};
}
pub(crate) use with_ring;

/// The ring called `name` (`--ring`), with its modulus (`--modulus`) written as a number
/// expression (`998244353`, `10^9+7`).
pub fn parse(name: &str, modulus: Option<&str>) -> crate::common::Result<nimcount::ring::AnyRing> {
    use nimcount::Error;
    let modulus = modulus.map(nimcount::number::parse_u64).transpose()?;
    nimcount::ring::AnyRing::parse(name, modulus).map_err(|e| match e {
        Error::RingNeedsModulus { ring } => {
            crate::common::usage(format!("ring {ring} needs --modulus (an odd number)"))
        }
        Error::RingTakesNoModulus { ring } => crate::common::usage(format!("ring {ring} takes no --modulus")),
        other => other.into(),
    })
}
