//! The built-in rings by name, for programs that choose one at run time.

use std::fmt;

use super::{Exact64, Exact128, Float32, Float64, Mod32, Mod64, Wrap32, Wrap64};
use crate::error::{Error, Result};

/// A built-in ring chosen at run time.
///
/// | name | ring | modulus |
/// |---|---|---|
/// | `u32` | [`Mod32`] | odd, below `2^31` |
/// | `u64` | [`Mod64`] | odd, below `2^63` |
/// | `wrap32`, `wrap64` | [`Wrap32`], [`Wrap64`] | none |
/// | `i64`, `i128` | [`Exact64`], [`Exact128`] | none |
/// | `f32`, `f64` | [`Float32`], [`Float64`] | none |
///
/// ```
/// use nimcount::ring::AnyRing;
/// let ring = AnyRing::parse("u32", Some(998_244_353))?;
/// assert_eq!((ring.name(), ring.modulus(), ring.element_bytes()), ("u32", Some(998_244_353), 4));
/// assert!(AnyRing::parse("u32", None).is_err());
/// assert!(AnyRing::parse("f64", Some(7)).is_err());
/// # Ok::<(), nimcount::Error>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum AnyRing {
    /// `u32` residues.
    Mod32(Mod32),
    /// `u64` residues.
    Mod64(Mod64),
    /// Wrapping `u32`.
    Wrap32(Wrap32),
    /// Wrapping `u64`.
    Wrap64(Wrap64),
    /// Exact `i64`.
    Exact64(Exact64),
    /// Exact `i128`.
    Exact128(Exact128),
    /// `f32`.
    Float32(Float32),
    /// `f64`.
    Float64(Float64),
}

impl AnyRing {
    /// The names, in the order of the table above.
    pub const NAMES: [&'static str; 8] = ["u32", "u64", "wrap32", "wrap64", "i64", "i128", "f32", "f64"];

    /// The ring called `name`: `u32` and `u64` need a modulus, the others take none.
    pub fn parse(name: &str, modulus: Option<u64>) -> Result<AnyRing> {
        let ring = match (name, modulus) {
            ("u32", Some(m)) => {
                AnyRing::Mod32(Mod32::new(u32::try_from(m).map_err(|_| Error::InvalidModulus {
                    modulus: m.to_string(),
                    reason: "the modulus must be below 2^31 (Mod64 takes moduli below 2^63)",
                })?)?)
            }
            ("u64", Some(m)) => AnyRing::Mod64(Mod64::new(m)?),
            ("u32" | "u64", None) => return Err(Error::RingNeedsModulus { ring: name.to_string() }),
            (_, Some(_)) if Self::NAMES.contains(&name) => {
                return Err(Error::RingTakesNoModulus { ring: name.to_string() });
            }
            ("wrap32", None) => AnyRing::Wrap32(Wrap32),
            ("wrap64", None) => AnyRing::Wrap64(Wrap64),
            ("i64", None) => AnyRing::Exact64(Exact64),
            ("i128", None) => AnyRing::Exact128(Exact128),
            ("f32", None) => AnyRing::Float32(Float32),
            ("f64", None) => AnyRing::Float64(Float64),
            _ => return Err(Error::UnknownRing { name: crate::error::quote(name) }),
        };
        Ok(ring)
    }

    /// The name (`u32`, `wrap64`, …).
    pub fn name(&self) -> &'static str {
        match self {
            AnyRing::Mod32(_) => "u32",
            AnyRing::Mod64(_) => "u64",
            AnyRing::Wrap32(_) => "wrap32",
            AnyRing::Wrap64(_) => "wrap64",
            AnyRing::Exact64(_) => "i64",
            AnyRing::Exact128(_) => "i128",
            AnyRing::Float32(_) => "f32",
            AnyRing::Float64(_) => "f64",
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

    /// The size of one element in bytes.
    pub fn element_bytes(&self) -> usize {
        match self {
            AnyRing::Mod32(_) | AnyRing::Wrap32(_) | AnyRing::Float32(_) => 4,
            AnyRing::Mod64(_) | AnyRing::Wrap64(_) | AnyRing::Exact64(_) | AnyRing::Float64(_) => 8,
            AnyRing::Exact128(_) => 16,
        }
    }
}

impl fmt::Display for AnyRing {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.modulus() {
            Some(m) => write!(f, "{} mod {m}", self.name()),
            None => f.write_str(self.name()),
        }
    }
}
