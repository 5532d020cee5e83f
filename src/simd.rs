//! The choice of instruction set, and the kernels of `nimcount_kernels` that the rings call.
//!
//! The kernels live in a crate of their own, compiled once; this module holds the public
//! [`Backend`] and names the kernels for the modules above it.

use std::fmt;
use std::str::FromStr;

use crate::error::{Error, Result};
use nimcount_kernels::Isa;

pub use nimcount_kernels::PARALLEL_MIN;
pub(crate) use nimcount_kernels::{
    f32, f32_chunks, f32_rows, f64, f64_chunks, f64_rows, kernel, matrices, mod32, mod32_checked, mod32_rows,
    mod64, mod64_checked, mod64_rows, narrow, pointwise, portable, reach, sets, wrap32, wrap32_rows, wrap64,
    wrap64_rows,
};

/// An instruction-set backend for the kernels.
///
/// Plans use [`Backend::best`] unless told otherwise. A backend this CPU lacks is refused when it
/// is chosen, never silently replaced.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[non_exhaustive]
pub enum Backend {
    /// Portable Rust, always available.
    Scalar,
    /// x86-64 AVX2 (256-bit registers).
    Avx2,
    /// x86-64 AVX-512F (512-bit registers, 32 of them).
    Avx512,
}

impl Backend {
    /// Every backend, scalar first.
    pub const ALL: [Backend; 3] = [Backend::Scalar, Backend::Avx2, Backend::Avx512];

    /// Whether this CPU runs the backend.
    ///
    /// ```
    /// use nimcount::fwht::Backend;
    /// assert!(Backend::Scalar.is_available());
    /// assert!(Backend::best().is_available());
    /// ```
    ///
    /// A backend needs every CPU feature its kernels use, detected once per process: AVX2 needs
    /// AVX2, FMA and F16C (the float and half-precision kernels); AVX-512 needs AVX-512 F, BW,
    /// DQ and VL besides all of those. A CPU without one of them does not run the backend at
    /// all: no kernel of it falls back to another backend's code.
    pub fn is_available(self) -> bool {
        self.isa().is_available()
    }

    /// The widest backend this CPU runs.
    pub fn best() -> Backend {
        *Self::ALL.iter().rev().find(|b| b.is_available()).expect("scalar is always available")
    }

    /// This backend if the CPU runs it, else [`Error::BackendUnavailable`].
    pub fn available(self) -> Result<Backend> {
        if self.is_available() { Ok(self) } else { Err(Error::BackendUnavailable { backend: self.name() }) }
    }

    /// The backend's name: `scalar`, `avx2` or `avx512`.
    pub fn name(self) -> &'static str {
        self.isa().name()
    }

    /// The instruction set of the kernels.
    pub(crate) fn isa(self) -> Isa {
        match self {
            Backend::Scalar => Isa::Scalar,
            Backend::Avx2 => Isa::Avx2,
            Backend::Avx512 => Isa::Avx512,
        }
    }
}

impl fmt::Display for Backend {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Backend {
    type Err = Error;

    /// `scalar`, `avx2` or `avx512` (whether the CPU runs it is checked when it is used).
    fn from_str(s: &str) -> Result<Self> {
        Backend::ALL
            .into_iter()
            .find(|b| b.name() == s)
            .ok_or_else(|| Error::UnknownBackend { name: crate::error::quote(s) })
    }
}
