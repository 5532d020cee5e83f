//! The rings by their command-line names, and what the tool needs of each: parsing text,
//! formatting, values to benchmark on, little-endian bytes.

use nimcount::number;
use nimcount::ring::{Exact64, Exact128, Float32, Float64, Mod32, Mod64, RING_NAMES, Ring, Wrap32, Wrap64};
use nimcount::{Error, Result};

/// What the command-line tool needs of a ring beyond [`Ring`].
pub trait CliRing: Ring {
    /// Parses one element written in decimal (floats: any Rust float syntax).
    fn parse(&self, text: &str) -> std::result::Result<Self::Elem, String>;
    /// Formats one element so that [`parse`](CliRing::parse) reads it back exactly.
    fn format(&self, x: Self::Elem) -> String;
    /// A value for benchmarks, from 64 random bits. Exact rings use `-1..=1`, so that a forward
    /// and inverse round trip fits every length the tool can allocate.
    fn bench_value(&self, bits: u64) -> Self::Elem;
    /// Converts between little-endian file order and native order (a no-op on little-endian hosts).
    fn swap_to_le(data: &mut [Self::Elem]);
    /// The benchmark baseline: the textbook iterative loop as usually written for this ring
    /// (`%` reductions for the modular rings, plain `+` and `-` otherwise).
    fn textbook(&self, data: &mut [Self::Elem]) {
        nimcount::fwht::reference::textbook(self, data);
    }
}

macro_rules! le {
    ($t:ty) => {
        fn swap_to_le(data: &mut [$t]) {
            if cfg!(target_endian = "big") {
                data.iter_mut().for_each(|x| *x = <$t>::from_le(*x));
            }
        }
    };
}

fn parse_int<T: std::str::FromStr>(text: &str) -> std::result::Result<T, String> {
    text.parse::<T>().map_err(|_| format!("'{text}' is not an integer in range"))
}

impl CliRing for Mod32 {
    fn parse(&self, text: &str) -> std::result::Result<u32, String> {
        let x: u32 = parse_int(text)?;
        if x < self.modulus() {
            Ok(x)
        } else {
            Err(format!("{x} is not a residue modulo {}", self.modulus()))
        }
    }
    fn format(&self, x: u32) -> String {
        x.to_string()
    }
    fn bench_value(&self, bits: u64) -> u32 {
        self.reduce(bits)
    }
    fn textbook(&self, data: &mut [u32]) {
        nimcount::fwht::reference::textbook_remainder(self.modulus(), data);
    }
    le!(u32);
}

impl CliRing for Mod64 {
    fn parse(&self, text: &str) -> std::result::Result<u64, String> {
        let x: u64 = parse_int(text)?;
        if x < self.modulus() {
            Ok(x)
        } else {
            Err(format!("{x} is not a residue modulo {}", self.modulus()))
        }
    }
    fn format(&self, x: u64) -> String {
        x.to_string()
    }
    fn bench_value(&self, bits: u64) -> u64 {
        self.reduce(u128::from(bits))
    }
    le!(u64);
}

macro_rules! plain_int_ring {
    ($ring:ty, $t:ty, $bench:expr) => {
        impl CliRing for $ring {
            fn parse(&self, text: &str) -> std::result::Result<$t, String> {
                parse_int(text)
            }
            fn format(&self, x: $t) -> String {
                x.to_string()
            }
            fn bench_value(&self, bits: u64) -> $t {
                $bench(bits)
            }
            le!($t);
        }
    };
}

plain_int_ring!(Wrap32, u32, |bits: u64| bits as u32);
plain_int_ring!(Wrap64, u64, |bits: u64| bits);
plain_int_ring!(Exact64, i64, |bits: u64| (bits % 3) as i64 - 1);
plain_int_ring!(Exact128, i128, |bits: u64| (bits % 3) as i128 - 1);

macro_rules! float_ring {
    ($ring:ty, $t:ty, $bits:ty) => {
        impl CliRing for $ring {
            fn parse(&self, text: &str) -> std::result::Result<$t, String> {
                text.parse::<$t>().map_err(|_| format!("'{text}' is not a number"))
            }
            /// `{:?}` is the shortest text that reads back to the same bits.
            fn format(&self, x: $t) -> String {
                format!("{x:?}")
            }
            /// Uniform in `[-1, 1)`.
            fn bench_value(&self, bits: u64) -> $t {
                ((bits >> 11) as f64 / (1u64 << 52) as f64 - 1.0) as $t
            }
            fn swap_to_le(data: &mut [$t]) {
                if cfg!(target_endian = "big") {
                    data.iter_mut().for_each(|x| *x = <$t>::from_bits(<$bits>::from_le(x.to_bits())));
                }
            }
        }
    };
}

float_ring!(Float32, f32, u32);
float_ring!(Float64, f64, u64);

/// A ring chosen on the command line.
#[derive(Debug, Clone, Copy)]
pub enum AnyRing {
    Mod32(Mod32),
    Mod64(Mod64),
    Wrap32,
    Wrap64,
    Exact64,
    Exact128,
    Float32,
    Float64,
}

impl AnyRing {
    /// The ring named `name`; `u32` and `u64` need a modulus, the others refuse one.
    pub fn parse(name: &str, modulus: Option<&str>) -> Result<AnyRing> {
        let usage = |reason: String| Error::InvalidQuery(reason);
        let ring = match (name, modulus) {
            ("u32", Some(m)) => {
                let m = number::parse_u64(m)?;
                let m = u32::try_from(m).map_err(|_| Error::InvalidModulus {
                    modulus: m.to_string(),
                    reason: "the u32 ring needs a modulus below 2^31 (use the u64 ring)",
                })?;
                AnyRing::Mod32(Mod32::new(m)?)
            }
            ("u64", Some(m)) => AnyRing::Mod64(Mod64::new(number::parse_u64(m)?)?),
            ("u32" | "u64", None) => {
                return Err(usage(format!("ring {name} needs --modulus (an odd number)")));
            }
            (_, Some(_)) if RING_NAMES.contains(&name) => {
                return Err(usage(format!("ring {name} takes no --modulus")));
            }
            ("wrap32", None) => AnyRing::Wrap32,
            ("wrap64", None) => AnyRing::Wrap64,
            ("i64", None) => AnyRing::Exact64,
            ("i128", None) => AnyRing::Exact128,
            ("f32", None) => AnyRing::Float32,
            ("f64", None) => AnyRing::Float64,
            _ => {
                return Err(usage(format!(
                    "unknown ring '{name}' (choose one of {})",
                    RING_NAMES.join(", ")
                )));
            }
        };
        Ok(ring)
    }

    /// The command-line name (`u32`, `wrap64`, …).
    pub fn name(&self) -> &'static str {
        match self {
            AnyRing::Mod32(_) => "u32",
            AnyRing::Mod64(_) => "u64",
            AnyRing::Wrap32 => "wrap32",
            AnyRing::Wrap64 => "wrap64",
            AnyRing::Exact64 => "i64",
            AnyRing::Exact128 => "i128",
            AnyRing::Float32 => "f32",
            AnyRing::Float64 => "f64",
        }
    }

    /// The modulus, for the modular rings.
    pub fn modulus(&self) -> Option<u64> {
        match self {
            AnyRing::Mod32(r) => Some(u64::from(r.modulus())),
            AnyRing::Mod64(r) => Some(r.modulus()),
            _ => None,
        }
    }
}

/// Runs `$body` with `$r` bound to the concrete ring inside `$ring`.
macro_rules! with_ring {
    ($ring:expr, |$r:ident| $body:expr) => {
        match $ring {
            $crate::rings::AnyRing::Mod32($r) => $body,
            $crate::rings::AnyRing::Mod64($r) => $body,
            $crate::rings::AnyRing::Wrap32 => {
                let $r = nimcount::ring::Wrap32;
                $body
            }
            $crate::rings::AnyRing::Wrap64 => {
                let $r = nimcount::ring::Wrap64;
                $body
            }
            $crate::rings::AnyRing::Exact64 => {
                let $r = nimcount::ring::Exact64;
                $body
            }
            $crate::rings::AnyRing::Exact128 => {
                let $r = nimcount::ring::Exact128;
                $body
            }
            $crate::rings::AnyRing::Float32 => {
                let $r = nimcount::ring::Float32;
                $body
            }
            $crate::rings::AnyRing::Float64 => {
                let $r = nimcount::ring::Float64;
                $body
            }
        }
    };
}
pub(crate) use with_ring;
