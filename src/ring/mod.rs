//! The rings: the arithmetic the transform, the XOR powers and the counts work in.
//!
//! A ring is a small value that holds what the arithmetic needs (a modulus and its precomputed
//! constants, or nothing at all); its elements are plain values, so a buffer is just a
//! `&mut [u32]`, `&mut [f64]`, … — and a file's bytes can be viewed as one in place with
//! `bytemuck`.
//!
//! | ring | element | accepted values | `1/2`? | SIMD |
//! |---|---|---|---|---|
//! | [`Mod32`] | `u32` | residues `0..m` modulo an odd `m < 2^31` | yes | AVX2, AVX-512 |
//! | [`Mod64`] | `u64` | residues `0..m` modulo an odd `m < 2^63` | yes | AVX2, AVX-512 |
//! | [`Wrap32`] | `u32` | every value; arithmetic modulo `2^32` | no | AVX2, AVX-512 |
//! | [`Wrap64`] | `u64` | every value; arithmetic modulo `2^64` | no | AVX2, AVX-512 |
//! | [`Exact64`] | `i64` | every value; a transform that could overflow is refused | exact division | AVX2, AVX-512 |
//! | [`Exact128`] | `i128` | every value; a transform that could overflow is refused | exact division | portable |
//! | [`Float32`] | `f32` | every value (IEEE arithmetic) | yes | AVX2, AVX-512 |
//! | [`Float64`] | `f64` | every value (IEEE arithmetic) | yes | AVX2, AVX-512 |
//!
//! Values outside a ring's accepted set (a residue `>= m`) are a logic error: the transform stays
//! memory-safe but its output is unspecified. [`Ring::validate`] checks untrusted data.
//!
//! [`AnyRing`] names a built-in ring at run time (`u32` with a modulus, `wrap64`, …).

/// A ring without parameters: a unit struct that prints as its name.
macro_rules! unit_ring {
    ($(#[$doc:meta])* $name:ident, $label:expr) => {
        $(#[$doc])*
        #[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
        pub struct $name;

        impl std::fmt::Display for $name {
            fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str($label)
            }
        }
    };
}

pub(crate) mod any;
pub(crate) mod exact;
pub(crate) mod float;
pub(crate) mod modular;
pub(crate) mod residue;
pub(crate) mod wrapping;

use std::fmt;

use num_bigint::BigUint;

pub use any::AnyRing;
pub use exact::{Exact64, Exact128};
pub use float::{Float32, Float64};
pub use modular::{Mod32, Mod64, Modular, ModularWord};
pub(crate) use residue::{Big, Integers, OddWord, Residues, TwoWord, pow_reduced};
pub use wrapping::{Wrap32, Wrap64};

use crate::arith::square_and_multiply;
use crate::error::{Error, Result};
use crate::simd::sets::{SUBSET_MOBIUS, SUBSET_ZETA, SUPERSET_MOBIUS, SUPERSET_ZETA};
use crate::simd::{Backend, portable};

/// A commutative ring with one: the arithmetic of the transform, XOR powers and counts.
///
/// Elements are values (`Clone`; the built-in rings' are machine words and floats, which are
/// `Copy`). The transform needs `Copy` elements; rings of big integers serve the exact and
/// big-modulus counts. A ring of your own implements the five operations and gets a portable,
/// cache-blocked transform built from [`add`](Ring::add) and [`sub`](Ring::sub); every other
/// method has a default. The defaults assume the least: every value is valid, and there is no
/// `1/2` — so the normalised inverse transform and XOR convolutions are refused until the ring
/// implements [`can_halve`](Ring::can_halve) and
/// [`divide_by_power_of_two`](Ring::divide_by_power_of_two) (the forward and the unnormalised
/// inverse transforms always work).
///
/// ```
/// use nimcount::fwht::Plan;
/// use nimcount::ring::{Mod32, Ring};
///
/// let ring = Mod32::new(7)?;
/// assert_eq!(ring.add(5, 4), 2);
/// assert_eq!(ring.sub(2, 5), 4);
/// assert_eq!(ring.mul(3, 5), 1);
/// assert_eq!(ring.pow(3, &6u32.into()), 1);
///
/// // XOR arithmetic on bits, a ring of your own (characteristic 2: no 1/2).
/// #[derive(Clone, Copy, Debug)]
/// struct Gf2;
/// impl std::fmt::Display for Gf2 {
///     fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result { f.write_str("GF(2)") }
/// }
/// impl Ring for Gf2 {
///     type Elem = u8;
///     fn zero(&self) -> u8 { 0 }
///     fn one(&self) -> u8 { 1 }
///     fn add(&self, a: u8, b: u8) -> u8 { a ^ b }
///     fn sub(&self, a: u8, b: u8) -> u8 { a ^ b }
///     fn mul(&self, a: u8, b: u8) -> u8 { a & b }
/// }
/// let mut bits = vec![1, 0, 1, 1];
/// Plan::new(Gf2, 4)?.forward(&mut bits)?;
/// assert_eq!(bits, [1, 1, 1, 1]); // in characteristic 2 the signs vanish: every output is the XOR of all
/// # Ok::<(), nimcount::Error>(())
/// ```
pub trait Ring: Clone + Send + Sync + fmt::Debug + fmt::Display + 'static {
    /// The element type.
    type Elem: Clone + PartialEq + fmt::Debug + fmt::Display + Send + Sync + 'static;

    /// The additive identity.
    fn zero(&self) -> Self::Elem;
    /// The multiplicative identity (`0` in the ring modulo 1).
    fn one(&self) -> Self::Elem;
    /// `a + b`.
    fn add(&self, a: Self::Elem, b: Self::Elem) -> Self::Elem;
    /// `a − b`.
    fn sub(&self, a: Self::Elem, b: Self::Elem) -> Self::Elem;
    /// `a · b`.
    fn mul(&self, a: Self::Elem, b: Self::Elem) -> Self::Elem;

    /// `−a`.
    fn neg(&self, a: Self::Elem) -> Self::Elem {
        self.sub(self.zero(), a)
    }

    /// `Σ a_i · b_i` over the pairs of `a` and `b` (the shorter one's length); rings of words
    /// may reduce once instead of at every term.
    fn dot(&self, a: &[Self::Elem], b: &[Self::Elem]) -> Self::Elem {
        a.iter().zip(b).fold(self.zero(), |sum, (x, y)| self.add(sum, self.mul(x.clone(), y.clone())))
    }

    /// `a · b`, or `None` where the product leaves the ring's range (only the exact integer
    /// rings have such products).
    fn checked_mul(&self, a: Self::Elem, b: Self::Elem) -> Option<Self::Elem> {
        Some(self.mul(a, b))
    }

    /// The smallest exponent `e` with `x^e = x^k` for every element `x` that the ring can tell
    /// without computing (the modular rings use [`crate::arith::ExponentRule`]); `k` itself by
    /// default.
    fn reduce_exponent(&self, k: &BigUint) -> BigUint {
        k.clone()
    }

    /// `x^k` (`x^0 = 1`, also for `x = 0`), by square-and-multiply on the reduced exponent.
    fn pow(&self, x: Self::Elem, k: &BigUint) -> Self::Elem {
        square_and_multiply(x, &self.reduce_exponent(k), self.one(), |a, b| self.mul(a.clone(), b.clone()))
    }

    /// `x^k`, or `None` where a product leaves the ring's range.
    fn checked_pow(&self, x: Self::Elem, k: &BigUint) -> Option<Self::Elem> {
        let e = self.reduce_exponent(k);
        let mut acc = Some(self.one());
        for i in (0..e.bits()).rev() {
            let a = acc?;
            acc = self.checked_mul(a.clone(), a);
            if e.bit(i) {
                acc = self.checked_mul(acc?, x.clone());
            }
        }
        acc
    }

    /// Whether `x` is one of the values this ring accepts (a canonical residue, for example);
    /// every value by default.
    fn is_valid(&self, x: &Self::Elem) -> bool {
        let _ = x;
        true
    }

    /// Checks that every element of `data` is accepted, naming the first one that is not.
    fn validate(&self, data: &[Self::Elem]) -> Result<()> {
        match data.iter().position(|x| !self.is_valid(x)) {
            None => Ok(()),
            Some(index) => Err(Error::ValueOutOfRange {
                value: crate::error::quote(&data[index].to_string()),
                index,
                ring: self.to_string(),
            }),
        }
    }

    /// Whether [`divide_by_power_of_two`](Ring::divide_by_power_of_two) can succeed at all
    /// (false by default and for the wrapping rings, where 2 is not invertible).
    fn can_halve(&self) -> bool {
        false
    }

    /// Divides every element by `2^log2`: multiplication by the inverse of `2^log2`, or exact
    /// division for the integer rings (an error when some element is not divisible). `parallel`
    /// allows rayon's thread pool. The default refuses every `log2 > 0`.
    fn divide_by_power_of_two(&self, data: &mut [Self::Elem], log2: u32, parallel: bool) -> Result<()> {
        let _ = (data, parallel);
        if log2 == 0 { Ok(()) } else { Err(Error::NoInverseOfTwo { ring: self.to_string() }) }
    }

    /// Checks, before anything is written, that transforming chunks of `2^log2` elements of
    /// `data` stays inside the ring's range. Only the exact integer rings can fail.
    fn check_transform(&self, data: &[Self::Elem], log2: u32, parallel: bool) -> Result<()> {
        let _ = (data, log2, parallel);
        Ok(())
    }

    /// Raises every element to the power `k`; the built-in rings vectorise. Only nimcount can
    /// call it (it needs an [`Internal`] token): use [`crate::fwht::Plan::pow_each`].
    #[doc(hidden)]
    fn pow_each(
        &self,
        data: &mut [Self::Elem],
        k: &BigUint,
        backend: Backend,
        parallel: bool,
        _: Internal,
    ) -> Result<()> {
        let _ = backend;
        let k = self.reduce_exponent(k);
        crate::parallel::try_for_each(data, parallel, POW_CHUNK, |x| {
            *x = self.checked_pow(x.clone(), &k).ok_or_else(|| Error::Overflow {
                what: "power",
                ring: self.to_string(),
                detail: format!("{}^{k}", crate::error::quote(&x.to_string())),
            })?;
            Ok(())
        })
    }

    /// `a[i] ← a[i] · b[i]` (the pointwise step of an XOR convolution), times `2^-log2` when the
    /// ring can fold that factor into the product: returns whether it did (the caller then skips
    /// the division). The default multiplies with [`checked_mul`](Ring::checked_mul) and folds
    /// nothing; the modular rings fold, `u32` residues with vectorised Montgomery products. Only
    /// nimcount can call it (it needs an [`Internal`] token): use
    /// [`crate::fwht::Plan::xor_convolve_in_place`].
    #[doc(hidden)]
    fn mul_each_scaled(
        &self,
        a: &mut [Self::Elem],
        b: &[Self::Elem],
        log2: u32,
        backend: Backend,
        parallel: bool,
        _: Internal,
    ) -> Result<bool> {
        let _ = (log2, backend, parallel);
        for (x, y) in a.iter_mut().zip(b) {
            *x = self.checked_mul(x.clone(), y.clone()).ok_or_else(|| Error::Overflow {
                what: "pointwise product",
                ring: self.to_string(),
                detail: format!(
                    "{} * {}",
                    crate::error::quote(&x.to_string()),
                    crate::error::quote(&y.to_string())
                ),
            })?;
        }
        Ok(false)
    }

    /// The transform kernel for this ring; the built-in rings dispatch to SIMD code here. Only
    /// nimcount can call it (it needs an [`Internal`] token): use [`crate::fwht::Plan`].
    #[doc(hidden)]
    fn transform(&self, data: &mut [Self::Elem], log2: u32, backend: Backend, parallel: bool, _: Internal)
    where
        Self::Elem: Copy,
    {
        let _ = backend;
        portable_transform(self, data, log2, parallel);
    }

    /// What the subset convolution knows of this ring's words ([`Words`]): each built-in ring
    /// names its own, whose ranked transforms are compiled once, in nimcount. Only nimcount can
    /// call it.
    #[doc(hidden)]
    fn words(&self, _: Internal) -> Words<Self::Elem> {
        Words::Other
    }

    /// True when [`words`](Ring::words) never answers [`Words::Other`] (the built-in rings): the
    /// callers' element-by-element paths are then not compiled for this ring at all.
    #[doc(hidden)]
    const NAMES_ITS_WORDS: bool = false;

    /// One pass of the transform across `rows` (the transform of length `rows.len()` of every
    /// column) on the SIMD kernel, where this ring has one and the rows suit it; false, with the
    /// rows untouched, when the caller must do it. `staggered` for rows far apart in memory.
    /// Only nimcount can call it (it needs an [`Internal`] token).
    #[doc(hidden)]
    fn transform_rows(
        &self,
        rows: &mut [&mut [Self::Elem]],
        staggered: bool,
        backend: Backend,
        parallel: bool,
        _: Internal,
    ) -> bool {
        let _ = (rows, staggered, backend, parallel);
        false
    }

    /// The zeta transform over subsets (or, `superset`, supersets) of `data` (`2^log2`
    /// elements), the Möbius transform when `inverse` (see [`crate::fwht::zeta`]): on the SIMD
    /// kernel where this ring has one for `backend` (true), on the portable kernel otherwise
    /// (false). Only nimcount can call it (it needs an [`Internal`] token): use
    /// [`crate::fwht::Plan::zeta`].
    #[doc(hidden)]
    #[allow(clippy::too_many_arguments)]
    fn transform_sets(
        &self,
        data: &mut [Self::Elem],
        log2: u32,
        superset: bool,
        inverse: bool,
        backend: Backend,
        parallel: bool,
        _: Internal,
    ) -> bool
    where
        Self::Elem: Copy,
    {
        let _ = backend;
        portable_sets(self, data, log2, superset, inverse, parallel);
        false
    }

    /// [`transform`](Ring::transform) of valid elements only ([`is_valid`](Ring::is_valid)):
    /// `Err(index)` of the first invalid element, with `data` left as it was. The default checks
    /// first; the modular rings check each block as their kernel first loads it. Only nimcount
    /// can call it (it needs an [`Internal`] token): use [`crate::fwht::Plan::forward`].
    #[doc(hidden)]
    fn transform_checked(
        &self,
        data: &mut [Self::Elem],
        log2: u32,
        backend: Backend,
        parallel: bool,
        _: Internal,
    ) -> std::result::Result<(), usize>
    where
        Self::Elem: Copy,
    {
        if let Some(index) = data.iter().position(|x| !self.is_valid(x)) {
            return Err(index);
        }
        self.transform(data, log2, backend, parallel, Internal(()));
        Ok(())
    }
}

/// The index of the first element of `data` from `start` on that `ring` does not accept, where
/// a checked kernel reported one in the block at `start` (and none before it).
pub(crate) fn first_invalid_from<R: Ring>(ring: &R, data: &[R::Elem], start: usize) -> usize {
    let offset = data[start..].iter().position(|x| !ring.is_valid(x));
    start + offset.expect("a checked kernel reports a block that holds an invalid element")
}

/// Elements per task of a parallel elementwise power (each costs dozens of multiplications).
pub(crate) const POW_CHUNK: usize = 1 << 12;

/// Proof that a call comes from inside nimcount: [`Ring`]'s kernel hooks take one, and only this
/// crate can make one, so the length and bound checks of [`crate::fwht::Plan`] cannot be
/// bypassed.
#[doc(hidden)]
#[derive(Clone, Copy, Debug)]
pub struct Internal(pub(crate) ());

/// A proof that `E` is `T` ([`Same::id`] is its only constructor): slices and vectors of one
/// read as the other, with no copy and no downcast.
#[doc(hidden)]
pub struct Same<E, T> {
    to: fn(&[E]) -> &[T],
    from: fn(Vec<T>) -> Vec<E>,
}

impl<E> Same<E, E> {
    /// `E` is `E`.
    pub fn id() -> Self {
        Same { to: |x| x, from: |x| x }
    }
}

impl<E, T> Same<E, T> {
    /// `x` as `T`s.
    pub fn to<'a>(&self, x: &'a [E]) -> &'a [T] {
        (self.to)(x)
    }
    /// `x` as `E`s.
    pub fn from(&self, x: Vec<T>) -> Vec<E> {
        (self.from)(x)
    }
}

/// A ring's words as the subset convolution sees them ([`Ring::words`]).
#[doc(hidden)]
pub enum Words<E> {
    /// Residues of [`Mod32`], stored as `u32`.
    Mod32(Mod32, Same<E, u32>),
    /// Exact `i64` integers ([`Exact64`]).
    Exact64(Same<E, i64>),
    /// Exact `i128` integers ([`Exact128`]).
    Exact128(Same<E, i128>),
    /// Residues of [`Mod64`], stored as `u64`.
    Mod64(Mod64, Same<E, u64>),
    /// Wrapping `u32` ([`Wrap32`]).
    Wrap32(Same<E, u32>),
    /// Wrapping `u64` ([`Wrap64`]).
    Wrap64(Same<E, u64>),
    /// `f32` ([`Float32`]).
    Float32(Same<E, f32>),
    /// `f64` ([`Float64`]).
    Float64(Same<E, f64>),
    /// Any other ring: its own arithmetic, element by element.
    Other,
}

/// A ring's `(a + b, a − b)`, for the portable kernel.
struct RingButterfly<'a, R>(&'a R);

impl<R> Clone for RingButterfly<'_, R> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<R> Copy for RingButterfly<'_, R> {}

impl<R: Ring> portable::Butterfly for RingButterfly<'_, R>
where
    R::Elem: Copy,
{
    type E = R::Elem;
    #[inline(always)]
    fn butterfly(self, a: R::Elem, b: R::Elem) -> (R::Elem, R::Elem) {
        (self.0.add(a, b), self.0.sub(a, b))
    }
    fn valid(self, x: R::Elem) -> bool {
        self.0.is_valid(&x)
    }
}

/// A ring's zeta or Möbius butterfly `K` (see [`crate::simd::sets`]), for the portable kernel:
/// `(a + b, a − b)` with one half kept and the arguments in the kind's order.
struct Kinded<'a, R, const K: u8>(&'a R);

impl<R, const K: u8> Clone for Kinded<'_, R, K> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<R, const K: u8> Copy for Kinded<'_, R, K> {}

impl<R: Ring, const K: u8> portable::Butterfly for Kinded<'_, R, K>
where
    R::Elem: Copy,
{
    type E = R::Elem;
    #[inline(always)]
    fn butterfly(self, a: R::Elem, b: R::Elem) -> (R::Elem, R::Elem) {
        let r = self.0;
        match K {
            SUBSET_ZETA => (a, r.add(a, b)),
            SUPERSET_ZETA => (r.add(a, b), b),
            SUBSET_MOBIUS => (a, r.sub(b, a)),
            _ => (r.sub(a, b), b),
        }
    }
    fn valid(self, x: R::Elem) -> bool {
        self.0.is_valid(&x)
    }
}

/// The portable zeta (or, `inverse`, Möbius) transform over subsets (or, `superset`,
/// supersets) of `data` (`2^log2` elements) with the ring's own addition and subtraction: the
/// default of [`Ring::transform_sets`], and the fallback of the built-in rings' SIMD kernels.
pub(crate) fn portable_sets<R: Ring>(
    ring: &R,
    data: &mut [R::Elem],
    log2: u32,
    superset: bool,
    inverse: bool,
    parallel: bool,
) where
    R::Elem: Copy,
{
    match (superset, inverse) {
        (false, false) => portable::transform(Kinded::<R, SUBSET_ZETA>(ring), data, log2, parallel),
        (true, false) => portable::transform(Kinded::<R, SUPERSET_ZETA>(ring), data, log2, parallel),
        (false, true) => portable::transform(Kinded::<R, SUBSET_MOBIUS>(ring), data, log2, parallel),
        (true, true) => portable::transform(Kinded::<R, SUPERSET_MOBIUS>(ring), data, log2, parallel),
    }
}

/// The portable transform of `data` (`2^log2` elements) with the ring's own addition and
/// subtraction.
pub(crate) fn portable_transform<R: Ring>(ring: &R, data: &mut [R::Elem], log2: u32, parallel: bool)
where
    R::Elem: Copy,
{
    portable::transform(RingButterfly(ring), data, log2, parallel);
}

/// [`portable_transform`] of valid elements only: `Err(index)` of the first invalid one, with
/// `data` left as it was (`undo` divides a block by its length; see
/// [`crate::simd::kernel::transform_checked`]).
pub(crate) fn portable_transform_checked<R: Ring>(
    ring: &R,
    data: &mut [R::Elem],
    log2: u32,
    parallel: bool,
    undo: crate::simd::kernel::Undo<'_, R::Elem>,
) -> std::result::Result<(), usize>
where
    R::Elem: Copy,
{
    portable::transform_checked(RingButterfly(ring), data, log2, parallel, undo)
        .map_err(|start| first_invalid_from(ring, data, start))
}
