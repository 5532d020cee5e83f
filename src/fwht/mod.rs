//! The Walsh–Hadamard transform (the XOR-convolution transform), in place.
//!
//! # Conventions
//! - **Natural order**, no bit reversal: `forward(x)[j] = Σ_i (-1)^popcount(i & j) · x[i]`.
//! - **`forward` is unnormalised**; `inverse` divides by the length `n` so that
//!   `inverse(forward(x)) == x`; `inverse_unnormalized` is the same matrix as `forward`
//!   (`W · W = n · I`), provided for symmetry and for rings without `1/2`.
//! - **Lengths** are powers of two from `1 = 2^0` up. A buffer may hold any number of
//!   consecutive chunks of the plan's length; each chunk is transformed on its own.
//! - Values must be accepted by the ring (see [`crate::ring`]); exact integer rings refuse a
//!   transform that could overflow before touching the data.
//!
//! ```
//! use nimcount::fwht::Plan;
//! use nimcount::ring::Mod32;
//!
//! let plan = Plan::new(Mod32::new(998_244_353)?, 4)?;
//! let mut data = vec![1, 2, 3, 4];
//! plan.forward(&mut data)?;
//! assert_eq!(data, [10, 998_244_351, 998_244_349, 0]); // 10, -2, -4, 0
//! plan.inverse(&mut data)?;
//! assert_eq!(data, [1, 2, 3, 4]);
//! # Ok::<(), nimcount::Error>(())
//! ```
//!
//! # Performance
//! The kernel recurses depth first: a node transforms its 16 (or fewer) rows, then applies four
//! butterfly levels across them in one pass over memory (radix 16), so every pass does four
//! levels and sub-problems that fit in L1 or L2 are finished there. The lowest levels run inside
//! SIMD registers. Passes over rows 64 MiB or more apart stagger their rows in time so that no
//! two rows stream the same column together (same arithmetic, another memory order). Large nodes
//! split their rows and columns across rayon's thread pool; nodes below [`PARALLEL_MIN`] elements
//! never spawn.

pub(crate) mod dispatch;
pub(crate) mod kernel;
pub(crate) mod lanes;
pub(crate) mod pointwise;
pub mod reference;
pub(crate) mod scalar;
#[cfg(target_arch = "x86_64")]
pub(crate) mod x86;

use std::fmt;
use std::str::FromStr;
use std::sync::OnceLock;

use crate::error::{Error, Result};
use crate::ring::Ring;

/// Transforms (or column ranges) smaller than this many elements are never split across threads.
pub const PARALLEL_MIN: usize = 1 << 16;

/// The environment variable that forces a backend for every plan built with the default one:
/// `scalar`, `avx2` or `avx512`.
pub const BACKEND_VARIABLE: &str = "NIMCOUNT_BACKEND";

/// Proof that a call comes from inside nimcount: [`Ring`]'s kernel hook takes one, and only this
/// crate can make one, so the length and bound checks of [`Plan`] cannot be bypassed.
#[doc(hidden)]
#[derive(Clone, Copy, Debug)]
pub struct Internal(pub(crate) ());

/// An instruction-set backend for the transform kernels.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
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
    pub fn is_available(self) -> bool {
        match self {
            Backend::Scalar => true,
            #[cfg(target_arch = "x86_64")]
            Backend::Avx2 => std::arch::is_x86_feature_detected!("avx2"),
            #[cfg(target_arch = "x86_64")]
            Backend::Avx512 => std::arch::is_x86_feature_detected!("avx512f"),
            #[cfg(not(target_arch = "x86_64"))]
            _ => false,
        }
    }

    /// The widest backend this CPU runs.
    pub fn best() -> Backend {
        *Self::ALL.iter().rev().find(|b| b.is_available()).expect("scalar is always available")
    }

    /// The default backend: the one named by [`BACKEND_VARIABLE`] if set, else [`best`](Self::best).
    /// An unknown or unavailable name is an error, never a silent fallback.
    pub fn from_env() -> Result<Backend> {
        static CHOICE: OnceLock<std::result::Result<Backend, String>> = OnceLock::new();
        let choice = CHOICE.get_or_init(|| match std::env::var(BACKEND_VARIABLE) {
            Err(_) => Ok(Backend::best()),
            Ok(name) => match name.parse::<Backend>() {
                Ok(b) if b.is_available() => Ok(b),
                Ok(b) => Err(b.name().to_string()),
                Err(_) => Err(name),
            },
        });
        choice.clone().map_err(|name| Error::InvalidQuery(format!(
            "{BACKEND_VARIABLE}={name} names no backend available on this CPU (choose scalar, avx2 or avx512)"
        )))
    }

    /// The backend's name: `scalar`, `avx2` or `avx512`.
    pub fn name(self) -> &'static str {
        match self {
            Backend::Scalar => "scalar",
            Backend::Avx2 => "avx2",
            Backend::Avx512 => "avx512",
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
    fn from_str(s: &str) -> Result<Self> {
        Backend::ALL.into_iter().find(|b| b.name() == s).ok_or_else(|| {
            Error::InvalidQuery(format!("unknown backend '{s}' (choose scalar, avx2 or avx512)"))
        })
    }
}

/// A transform of one power-of-two length over one ring: cheap to build, `Clone + Send + Sync`,
/// and every method takes `&self` and allocates nothing.
#[derive(Clone, Debug)]
pub struct Plan<R: Ring> {
    ring: R,
    log2: u32,
    backend: Backend,
    parallel: bool,
}

impl<R: Ring> Plan<R> {
    /// A plan for chunks of `len` elements (a power of two, at least 1), on the default backend
    /// (see [`Backend::from_env`]), parallel above [`PARALLEL_MIN`] elements.
    pub fn new(ring: R, len: usize) -> Result<Self> {
        if !len.is_power_of_two() {
            return Err(Error::NotPowerOfTwo { len });
        }
        Ok(Plan { ring, log2: len.trailing_zeros(), backend: Backend::from_env()?, parallel: true })
    }

    /// The same plan on another backend; an error when this CPU lacks it.
    pub fn with_backend(mut self, backend: Backend) -> Result<Self> {
        if !backend.is_available() {
            return Err(Error::BackendUnavailable { backend: backend.name() });
        }
        self.backend = backend;
        Ok(self)
    }

    /// The same plan, allowed (`true`, the default) or not to use rayon's thread pool.
    pub fn with_parallel(mut self, parallel: bool) -> Self {
        self.parallel = parallel;
        self
    }

    /// The transform length.
    pub fn len(&self) -> usize {
        1 << self.log2
    }

    /// Always false: a plan's length is at least 1.
    pub fn is_empty(&self) -> bool {
        false
    }

    /// `log2` of the transform length.
    pub fn log2(&self) -> u32 {
        self.log2
    }

    /// The ring.
    pub fn ring(&self) -> &R {
        &self.ring
    }

    /// The backend the kernels run on.
    pub fn backend(&self) -> Backend {
        self.backend
    }

    /// The unnormalised forward transform of every chunk of `data`, in place.
    pub fn forward(&self, data: &mut [R::Elem]) -> Result<()> {
        self.check_length(data.len())?;
        self.ring.check_transform(data, self.log2)?;
        self.run(data);
        Ok(())
    }

    /// The normalised inverse (`inverse(forward(x)) == x`), in place.
    ///
    /// Refused up front for rings without `1/2`. For the exact integer rings, a value that is not
    /// a multiple of the length is reported after the transform ran: `data` then holds the
    /// unnormalised inverse.
    pub fn inverse(&self, data: &mut [R::Elem]) -> Result<()> {
        self.check_length(data.len())?;
        if !self.ring.can_halve() && self.log2 > 0 {
            return Err(Error::NoInverseOfTwo { ring: self.ring.to_string() });
        }
        self.ring.check_transform(data, self.log2)?;
        self.run(data);
        self.ring.divide_by_power_of_two(data, self.log2)
    }

    /// The unnormalised inverse, which is the forward transform again (`W` is its own inverse up
    /// to the factor `n`).
    pub fn inverse_unnormalized(&self, data: &mut [R::Elem]) -> Result<()> {
        self.forward(data)
    }

    fn check_length(&self, len: usize) -> Result<()> {
        if len.is_multiple_of(self.len()) { Ok(()) } else { Err(length_error(len, self.len())) }
    }

    /// Transforms every chunk: big chunks one by one (each splits across threads inside), small
    /// chunks spread over threads when there are enough of them.
    fn run(&self, data: &mut [R::Elem]) {
        use rayon::prelude::*;
        let len = self.len();
        let ring = self.ring;
        let (backend, log2) = (self.backend, self.log2);
        // The kernel splits a chunk across threads only from 2 · PARALLEL_MIN elements up.
        if self.parallel && len < 2 * PARALLEL_MIN && data.len() >= 2 * PARALLEL_MIN {
            let batch = (PARALLEL_MIN / len).max(1) * len;
            data.par_chunks_mut(batch).for_each(|batch| {
                batch
                    .chunks_exact_mut(len)
                    .for_each(|chunk| ring.transform(chunk, log2, backend, false, Internal(())))
            });
        } else {
            data.chunks_exact_mut(len)
                .for_each(|chunk| ring.transform(chunk, log2, backend, self.parallel, Internal(())));
        }
    }
}

#[cold]
#[inline(never)]
fn length_error(len: usize, plan_len: usize) -> Error {
    Error::LengthMismatch { len, plan_len }
}

/// The forward transform of all of `data` (whose length must be a power of two).
pub fn forward<R: Ring>(ring: R, data: &mut [R::Elem]) -> Result<()> {
    Plan::new(ring, data.len())?.forward(data)
}

/// The normalised inverse transform of all of `data`.
pub fn inverse<R: Ring>(ring: R, data: &mut [R::Elem]) -> Result<()> {
    Plan::new(ring, data.len())?.inverse(data)
}

/// The unnormalised inverse transform of all of `data` (equal to [`forward`]).
pub fn inverse_unnormalized<R: Ring>(ring: R, data: &mut [R::Elem]) -> Result<()> {
    Plan::new(ring, data.len())?.inverse_unnormalized(data)
}
