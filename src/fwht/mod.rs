//! The Walsh–Hadamard transform (the XOR-convolution transform), in place.
//!
//! # Conventions
//! - **Natural order**, no bit reversal: `forward(x)[j] = Σ_i (-1)^popcount(i & j) · x[i]`.
//! - **`forward` is unnormalised**; `inverse` divides by the length `n` so that
//!   `inverse(forward(x)) == x`; `inverse_unnormalized` is the same matrix as `forward`
//!   (`W · W = n · I`), provided for symmetry and for rings without `1/2`.
//! - **Lengths** are powers of two from `1 = 2^0` up. A buffer may hold any number of
//!   consecutive chunks of the plan's length; each chunk is transformed on its own.
//! - Values must be accepted by the ring (see [`crate::ring`]): `forward` and `inverse` refuse
//!   residues not below the modulus, naming the first, with the data left as it was
//!   (`forward_unchecked` and `inverse_unchecked` skip that check for callers that guarantee
//!   it); exact integer rings refuse a transform that could overflow before touching the data.
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
//!
//! The speed does not depend on how the crate is built: the kernels compile alike with one
//! codegen unit and with Cargo's default 16 for dependencies (no profile setting is needed).

pub mod hadamard;
pub mod reference;
pub mod zeta;

pub use hadamard::{HadamardFamily, HadamardPlan, Storage, hadamard_matrix, hadamard_matrix_with};

pub use crate::simd::{Backend, PARALLEL_MIN};
pub use zeta::Sets;

use crate::error::{Error, Result};
use crate::ring::{Internal, Ring};

/// A transform of one power-of-two length over one ring: cheap to build, `Clone + Send + Sync`,
/// and every method takes `&self` and allocates nothing.
///
/// Options: the backend ([`Backend::best`] by default, [`with_backend`](Plan::with_backend)), and
/// whether rayon's thread pool may be used ([`with_parallel`](Plan::with_parallel), on by
/// default; transforms below [`PARALLEL_MIN`] elements never spawn). With `false`, no step of the
/// plan touches rayon. For a given number of threads, run the plan inside a pool:
///
/// ```
/// use nimcount::fwht::Plan;
/// use nimcount::ring::Wrap32;
///
/// let plan = Plan::new(Wrap32, 1 << 18)?;
/// let mut data = vec![1u32; 1 << 18];
/// let pool = rayon::ThreadPoolBuilder::new().num_threads(2).build().unwrap();
/// pool.install(|| plan.forward(&mut data))?;
/// assert_eq!(data[0], 1 << 18);
/// assert!(data[1..].iter().all(|&x| x == 0));
/// # Ok::<(), nimcount::Error>(())
/// ```
#[derive(Clone, Debug)]
pub struct Plan<R: Ring> {
    ring: R,
    log2: u32,
    backend: Backend,
    parallel: bool,
}

impl<R: Ring> Plan<R>
where
    R::Elem: Copy,
{
    /// A plan for chunks of `len` elements (a power of two, at least 1), on the widest backend this
    /// CPU runs, parallel above [`PARALLEL_MIN`] elements.
    pub fn new(ring: R, len: usize) -> Result<Self> {
        if !len.is_power_of_two() {
            return Err(Error::NotPowerOfTwo { len });
        }
        Ok(Plan { ring, log2: len.trailing_zeros(), backend: Backend::best(), parallel: true })
    }

    /// The same plan on another backend; an error when this CPU lacks it.
    pub fn with_backend(mut self, backend: Backend) -> Result<Self> {
        self.backend = backend.available()?;
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

    /// Whether the plan may use rayon's thread pool.
    pub fn parallel(&self) -> bool {
        self.parallel
    }

    /// The unnormalised forward transform of every chunk of `data`, in place.
    ///
    /// Elements the ring does not accept (residues not below the modulus: [`Ring::is_valid`])
    /// are refused with [`Error::ValueOutOfRange`] naming the first, `data` then left as it was.
    /// The modular rings check each block as the kernel first loads it, at almost no cost beside
    /// the transform; the built-in rings that accept every value (wrapping, floats, exact
    /// integers) have nothing to check. [`forward_unchecked`](Plan::forward_unchecked) skips the check.
    ///
    /// Every method refuses an empty buffer ([`Error::EmptyBuffer`]) and one whose length is not a
    /// multiple of the plan's ([`Error::LengthMismatch`]), before touching the data.
    ///
    /// ```
    /// use nimcount::fwht::Plan;
    /// use nimcount::ring::Mod32;
    /// let plan = Plan::new(Mod32::new(7)?, 4)?;
    /// let mut data = vec![1, 6, 7, 2];
    /// let err = plan.forward(&mut data).unwrap_err();
    /// assert!(matches!(err, nimcount::Error::ValueOutOfRange { index: 2, .. }));
    /// assert_eq!(data, [1, 6, 7, 2]);
    /// # Ok::<(), nimcount::Error>(())
    /// ```
    pub fn forward(&self, data: &mut [R::Elem]) -> Result<()> {
        self.check_length(data.len())?;
        self.ring.check_transform(data, self.log2, self.parallel)?;
        self.run_checked(data)
    }

    /// [`forward`](Plan::forward) without the check of the elements' range, for callers that
    /// guarantee every element is one the ring accepts ([`Ring::is_valid`]: residues below the
    /// modulus). **Unchecked**: an element out of range is transformed as if it were one, and
    /// the results are then meaningless residues (no error, and never undefined behaviour). The
    /// length and the exact rings' overflow are still checked. On the modular rings `forward`
    /// costs about a tenth more where the data fit in cache (one thread, `u32` modulo
    /// 998 244 353, on a busy machine: 1.05–1.18× at 2^20 over three runs of 41 turns, no
    /// difference measured at 2^24); on the built-in rings that accept every value the two are
    /// the same transform.
    pub fn forward_unchecked(&self, data: &mut [R::Elem]) -> Result<()> {
        self.check_length(data.len())?;
        self.ring.check_transform(data, self.log2, self.parallel)?;
        self.run(data);
        Ok(())
    }

    /// The normalised inverse (`inverse(forward(x)) == x`), in place, refusing elements the ring
    /// does not accept as [`forward`](Plan::forward) does, with `data` left as it was.
    ///
    /// Refused up front for rings without `1/2`. For the exact integer rings, a value that is not
    /// a multiple of the length is reported after the transform ran: `data` then holds the
    /// unnormalised inverse.
    pub fn inverse(&self, data: &mut [R::Elem]) -> Result<()> {
        self.check_length(data.len())?;
        self.check_halving()?;
        self.ring.check_transform(data, self.log2, self.parallel)?;
        self.run_checked(data)?;
        self.ring.divide_by_power_of_two(data, self.log2, self.parallel)
    }

    /// [`inverse`](Plan::inverse) without the check of the elements' range: **unchecked**, for
    /// callers that guarantee it, as [`forward_unchecked`](Plan::forward_unchecked).
    pub fn inverse_unchecked(&self, data: &mut [R::Elem]) -> Result<()> {
        self.check_length(data.len())?;
        self.check_halving()?;
        self.ring.check_transform(data, self.log2, self.parallel)?;
        self.run(data);
        self.ring.divide_by_power_of_two(data, self.log2, self.parallel)
    }

    /// The unnormalised inverse, which is the forward transform again (`W` is its own inverse up
    /// to the factor `n`), elements checked as [`forward`](Plan::forward) checks them.
    pub fn inverse_unnormalized(&self, data: &mut [R::Elem]) -> Result<()> {
        self.forward(data)
    }

    /// `x ← x^k` for every element (`x^0 = 1`, also for `x = 0`): the pointwise step of an XOR
    /// power. The built-in modular rings reduce `k` with a rule that holds for every element and
    /// raise `u32` residues with vectorised Montgomery multiplication.
    ///
    /// ```
    /// use nimcount::fwht::Plan;
    /// use nimcount::ring::Mod32;
    /// let plan = Plan::new(Mod32::new(7)?, 4)?;
    /// let mut x = vec![0, 1, 3, 6];
    /// plan.pow_each(&mut x, "1000000000000000000000".parse::<nimcount::num_bigint::BigUint>().unwrap())?;
    /// // λ(7) = 6 and 10^21 = 4 mod 6: 3^(10^21) = 3^4 = 4 and 6^(10^21) = (−1)^4 = 1 (mod 7).
    /// assert_eq!(x, [0, 1, 4, 1]);
    /// # Ok::<(), nimcount::Error>(())
    /// ```
    pub fn pow_each(&self, data: &mut [R::Elem], k: impl Into<num_bigint::BigUint>) -> Result<()> {
        checked_len(data.len())?;
        self.ring.pow_each(data, &k.into(), self.backend, self.parallel, Internal(()))
    }

    /// The XOR convolution `a ← a *ₓ b` (`a[x] = Σ_{i ^ j = x} a[i] · b[j]`), in place, with `b`
    /// left holding its transform: two forward transforms, the pointwise product and one more
    /// transform, with no allocation. The modular rings fold the normalisation `1/n` into the
    /// pointwise product (two Montgomery products per element, vectorised for `u32` residues),
    /// so there is no separate division pass. Both buffers must have the plan's length, and
    /// elements the ring accepts (as [`forward`](Plan::forward) checks them; on an error both
    /// are left as they were).
    ///
    /// ```
    /// use nimcount::fwht::Plan;
    /// use nimcount::ring::Mod32;
    /// // Two heaps of 0..=3 stones (one way each): every XOR value arises 4 ways.
    /// let plan = Plan::new(Mod32::new(998_244_353)?, 4)?;
    /// let (mut a, mut b) = (vec![1, 1, 1, 1], vec![1, 1, 1, 1]);
    /// plan.xor_convolve_in_place(&mut a, &mut b)?;
    /// assert_eq!(a, [4, 4, 4, 4]);
    /// # Ok::<(), nimcount::Error>(())
    /// ```
    pub fn xor_convolve_in_place(&self, a: &mut [R::Elem], b: &mut [R::Elem]) -> Result<()> {
        for len in [a.len(), b.len()] {
            if len != self.len() {
                return Err(length_error(len, self.len()));
            }
        }
        self.check_halving()?;
        // The exact rings' bound first, so that `forward(b)` can only refuse an element.
        self.ring.check_transform(b, self.log2, self.parallel)?;
        self.forward(a)?;
        if let Err(e) = self.forward(b) {
            // `b` is left as it was; bring `a` back too (W · W = n · I).
            self.run(a);
            self.ring.divide_by_power_of_two(a, self.log2, self.parallel)?;
            return Err(e);
        }
        let folded = self.ring.mul_each_scaled(a, b, self.log2, self.backend, self.parallel, Internal(()))?;
        self.ring.check_transform(a, self.log2, self.parallel)?;
        self.run(a);
        if folded { Ok(()) } else { self.ring.divide_by_power_of_two(a, self.log2, self.parallel) }
    }

    fn check_halving(&self) -> Result<()> {
        if self.log2 > 0 && !self.ring.can_halve() {
            return Err(Error::NoInverseOfTwo { ring: self.ring.to_string() });
        }
        Ok(())
    }

    fn check_length(&self, len: usize) -> Result<()> {
        if len != 0 && len.is_multiple_of(self.len()) { Ok(()) } else { Err(length_error(len, self.len())) }
    }

    /// Transforms every chunk: big chunks one by one (each splits across threads inside), small
    /// chunks spread over threads when there are enough of them.
    fn run(&self, data: &mut [R::Elem]) {
        let len = self.len();
        let ring = &self.ring;
        let (backend, log2) = (self.backend, self.log2);
        // The kernel splits a chunk across threads only from 2 · PARALLEL_MIN elements up.
        if self.parallel && len < 2 * PARALLEL_MIN && data.len() >= 2 * PARALLEL_MIN {
            let batch = (PARALLEL_MIN / len).max(1) * len;
            crate::parallel::chunks(data, true, batch, |batch| {
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

impl<R: Ring> Plan<R>
where
    R::Elem: Copy,
{
    /// [`run`](Plan::run) of valid elements only: every chunk checked (see
    /// [`Ring::transform_checked`]), and on the first invalid element every chunk transformed
    /// already is transformed again and divided by the length, so that `data` is left as it
    /// was. Rings that cannot halve check all the data first.
    fn run_checked(&self, data: &mut [R::Elem]) -> Result<()> {
        let len = self.len();
        let ring = &self.ring;
        let (backend, log2) = (self.backend, self.log2);
        let result = if data.len() == len {
            ring.transform_checked(data, log2, backend, self.parallel, Internal(()))
        } else if !ring.can_halve() {
            return self.ring.validate(data).map(|()| self.run(data));
        } else {
            // Batches as in `run`: several small chunks a task, or big chunks one at a time.
            let parallel = self.parallel && len < 2 * PARALLEL_MIN && data.len() >= 2 * PARALLEL_MIN;
            let batch = if parallel { (PARALLEL_MIN / len).max(1) * len } else { len };
            let inner = self.parallel && !parallel;
            crate::simd::kernel::blocks_checked(
                data,
                batch,
                parallel,
                |batch, _| {
                    crate::simd::kernel::blocks_checked(
                        batch,
                        len,
                        false,
                        |chunk, _| ring.transform_checked(chunk, log2, backend, inner, Internal(())),
                        |chunk, _| {
                            ring.transform(chunk, log2, backend, inner, Internal(()));
                            let _ = ring.divide_by_power_of_two(chunk, log2, inner);
                        },
                    )
                },
                |batch, _| {
                    for chunk in batch.chunks_exact_mut(len) {
                        ring.transform(chunk, log2, backend, inner, Internal(()));
                        let _ = ring.divide_by_power_of_two(chunk, log2, inner);
                    }
                },
            )
        };
        result.map_err(|index| Error::ValueOutOfRange {
            value: crate::error::quote(&data[index].to_string()),
            index,
            ring: ring.to_string(),
        })
    }
}

#[cold]
#[inline(never)]
fn length_error(len: usize, plan_len: usize) -> Error {
    if len == 0 { Error::EmptyBuffer } else { Error::LengthMismatch { len, plan_len } }
}

/// The forward transform of all of `data`, whose length must be a power of two (an empty buffer
/// is [`Error::EmptyBuffer`]), elements checked as [`Plan::forward`] checks them.
///
/// ```
/// let mut x = vec![1i64, 2, 3, 4];
/// nimcount::fwht::forward(nimcount::ring::Exact64, &mut x)?;
/// assert_eq!(x, [10, -2, -4, 0]);
/// # Ok::<(), nimcount::Error>(())
/// ```
pub fn forward<R: Ring>(ring: R, data: &mut [R::Elem]) -> Result<()>
where
    R::Elem: Copy,
{
    Plan::new(ring, checked_len(data.len())?)?.forward(data)
}

/// The normalised inverse transform of all of `data`.
pub fn inverse<R: Ring>(ring: R, data: &mut [R::Elem]) -> Result<()>
where
    R::Elem: Copy,
{
    Plan::new(ring, checked_len(data.len())?)?.inverse(data)
}

/// The unnormalised inverse transform of all of `data` (equal to [`forward`]).
pub fn inverse_unnormalized<R: Ring>(ring: R, data: &mut [R::Elem]) -> Result<()>
where
    R::Elem: Copy,
{
    forward(ring, data)
}

/// `len`, or [`Error::EmptyBuffer`] for 0.
pub(crate) fn checked_len(len: usize) -> Result<usize> {
    if len == 0 { Err(Error::EmptyBuffer) } else { Ok(len) }
}
