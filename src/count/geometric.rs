//! The pointwise functions of a query over a range of heap counts `lo..=hi`
//! ([`Query::heaps_range`](super::Query::heaps_range)).
//!
//! The losing count is linear in the pointwise values, so the counts summed over every number of
//! heaps from `lo` to `hi` come from the same transform with each pointwise value summed over the
//! range:
//!
//! - **ordered**: the geometric series `Σ_{k=lo..=hi} v^k = v^lo · S(hi − lo + 1)` with
//!   `S(n) = 1 + v + … + v^(n−1)`. Modulo `m`, `1 − v` need not be invertible (`v ≡ 1`, `v`
//!   sharing a factor with `m`, or the power-of-two part of a modulus), so `S(n)` is never a
//!   quotient: it doubles, `S(2n) = S(n) · (1 + v^n)` and `S(n + 1) = S(n) + v^n`, one bit of `n`
//!   at a time (about four multiplications a bit, any `n`). Exactly, `S(n) = (v^n − 1)/(v − 1)`,
//!   with `v ∈ {0, 1, −1}` apart.
//! - **multisets and sets**: `Σ_{k <= K} [x^k] f(x) = [x^K] f(x)/(1 − x)`, and the factor
//!   `1/(1 − x)` joins the generating function: multisets `(1−x)^(−A−1) (1+x)^(−B)` (the
//!   multiset coefficient of `A + 1, B`: `N + 1` sizes and transformed value `Ĥ + 1`), sets
//!   `(1+x)^A (1−x)^(B−1)` (the set coefficient of `A, B − 1`: `N − 1` and `Ĥ + 1`; for `B = 0`
//!   the partial sums of `C(A, i)`). The range is the difference of two such sums, at `hi` and
//!   at `lo − 1`; sets of more than `N` sizes are none, so `hi` stops at `N`.

use num_bigint::{BigInt, BigUint};
use num_integer::Integer;
use num_traits::{One, ToPrimitive, Zero};

use crate::ring::{Residues, pow_reduced};

/// `Σ_{k=lo..=lo+len−1} v^k` modulo `r`'s modulus, `len >= 1`, with `lo` already reduced by the
/// ring's exponent rule (`v^lo` is all it is used for).
pub fn geometric<R: Residues>(r: &R, v: R::Elem, lo_reduced: &BigUint, len: &BigUint) -> R::Elem {
    let start = pow_reduced(r, v.clone(), lo_reduced);
    r.mul(start, series(r, v, len))
}

/// `S(n) = 1 + v + … + v^(n−1)` by doubling, from the top bit of `n` (`S(0) = 0`).
fn series<R: Residues>(r: &R, v: R::Elem, n: &BigUint) -> R::Elem {
    // Invariant: (sum, power) = (S(t), v^t) for t the bits of n read so far.
    let (mut sum, mut power) = (r.zero(), r.one());
    for bit in (0..n.bits()).rev() {
        sum = r.mul(sum, r.add(r.one(), power.clone()));
        power = r.mul(power.clone(), power);
        if n.bit(bit) {
            sum = r.add(sum, power.clone());
            power = r.mul(power, v.clone());
        }
    }
    sum
}

/// Multiplications of [`geometric`] for one value: the power `v^lo` and four per bit of `len`.
pub(crate) fn geometric_multiplications(lo_reduced: &BigUint, len: &BigUint) -> u128 {
    2 * u128::from(lo_reduced.bits()) + 4 * u128::from(len.bits()) + 1
}

/// `Σ_{k=lo..=hi} v^k` exactly (`lo <= hi`, `hi` a word: the answer's size was checked).
pub fn geometric_exact(v: &BigInt, lo: &BigUint, hi: &BigUint) -> BigInt {
    let terms = BigInt::from(hi - lo + 1u32);
    if v.is_zero() {
        return BigInt::from(u8::from(lo.is_zero()));
    }
    if v.is_one() {
        return terms;
    }
    if *v == -BigInt::one() {
        // Alternating ±1 from (−1)^lo: the terms cancel in pairs.
        return if terms.is_even() {
            BigInt::zero()
        } else if lo.is_even() {
            BigInt::one()
        } else {
            -BigInt::one()
        };
    }
    let power = |e: &BigUint| num_traits::pow::Pow::pow(v, e.to_u64().expect("checked answer size"));
    let (top, bottom) = (power(&(hi + 1u32)), power(lo));
    let (quotient, rest) = (top - bottom).div_rem(&(v - 1));
    debug_assert!(rest.is_zero(), "v − 1 divides v^(hi+1) − v^lo");
    quotient
}

/// The cumulative coefficients' `N` and `Ĥ` (see the module documentation): multisets
/// `(N + 1, Ĥ + 1)`, sets `(N − 1, Ĥ + 1)`, for [`crate::count::coefficients::exact`] (whose
/// recurrence holds for any exponents, `B − 1 = −1` included).
pub(crate) fn cumulative_exact_arguments(multiset: bool, n: &BigUint, h: &BigInt) -> (BigUint, BigInt) {
    let n = if multiset { n + 1u32 } else { n - 1u32 };
    (n, h + 1)
}
