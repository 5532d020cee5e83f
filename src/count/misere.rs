//! Misère Nim (whoever takes the last stone loses): normal-play counts, corrected.

use num_bigint::{BigInt, BigUint};
use num_integer::Integer;
use num_traits::{One, ToPrimitive, Zero};

use super::answer::Kind;

/// Misère Nim minus normal-play Nim, in losing positions: only positions whose heaps all have
/// at most one stone change (lost in misère play exactly when the number of 1-heaps is odd, in
/// normal play when it is even), so the correction is (odd − even) over those positions, with
/// `z` = [0 is a size], `o` = [1 is a size]:
///
/// - ordered: `−(z − o)^k` (`0^0 = 1`);
/// - multisets (`i` ones, `0 <= i <= k`, when both sizes exist): `−1` for even `k`, else `0`;
///   only 0: `−1`; only 1: `(−1)^(k+1)`; neither: `−[k = 0]`;
/// - sets: the subsets of the available sizes with `k` elements.
pub fn correction(kind: Kind, k: &BigUint, lo: &BigUint, hi: &BigUint) -> i64 {
    let z = lo.is_zero();
    let o = *lo <= BigUint::one() && *hi >= BigUint::one();
    let k_odd = k.bit(0);
    let k_zero = k.is_zero();
    match kind {
        Kind::Ordered => {
            let base = i64::from(z) - i64::from(o);
            // base^k with 0^0 = 1; base is −1, 0 or 1.
            let power = if k_zero || (base == -1 && !k_odd) { 1 } else { base };
            -power
        }
        Kind::Multiset => match (z, o) {
            (true, true) => {
                if k_odd {
                    0
                } else {
                    -1
                }
            }
            (true, false) => -1,
            (false, true) => {
                if k_odd {
                    1
                } else {
                    -1
                }
            }
            (false, false) => -i64::from(k_zero),
        },
        Kind::Set => {
            // Subsets of {0 if z, 1 if o} with k elements; odd count of ones (i.e. 1 present) wins
            // misère.
            let k = k.to_u64().unwrap_or(u64::MAX);
            let mut correction = 0;
            for zero_in in [false, true] {
                for one_in in [false, true] {
                    if (zero_in && !z) || (one_in && !o) || u64::from(zero_in) + u64::from(one_in) != k {
                        continue;
                    }
                    correction += if one_in { 1 } else { -1 };
                }
            }
            correction
        }
    }
}

/// [`correction`] summed over every number of heaps `k_lo..=k_hi` (`k_lo <= k_hi`): it depends
/// on `k` only through `k = 0` and the parity of `k` (ordered, multisets), or vanishes beyond two
/// heaps (sets: subsets of the sizes 0 and 1), so the sum is a count of the odd and the positive
/// even `k` of the range.
pub fn correction_sum(kind: Kind, k_lo: &BigUint, k_hi: &BigUint, lo: &BigUint, hi: &BigUint) -> BigInt {
    let at = |k: u32| BigInt::from(correction(kind, &BigUint::from(k), lo, hi));
    if kind == Kind::Set {
        let top = k_hi.to_u32().unwrap_or(u32::MAX).min(2);
        let first = k_lo.to_u32().unwrap_or(u32::MAX);
        return (first..=top).map(at).sum();
    }
    let one = BigUint::one();
    // Odd numbers in 0..=n: (n + 1) / 2.
    let odd_upto = |n: &BigUint| (n + &one) >> 1u32;
    let odd = odd_upto(k_hi) - (k_lo >> 1u32);
    let zero = u8::from(k_lo.is_zero());
    let even_positive = (k_hi - k_lo + &one) - &odd - zero;
    at(0) * zero + at(1) * BigInt::from(odd) + at(2) * BigInt::from(even_positive)
}

/// The misère losing count from the normal-play one: `losing + correction`, modulo `modulus`
/// when there is one.
pub(super) fn correct_count(losing: &BigUint, correction: &BigInt, modulus: Option<&BigUint>) -> BigUint {
    let corrected = BigInt::from(losing.clone()) + correction;
    match modulus {
        Some(m) => corrected.mod_floor(&BigInt::from(m.clone())),
        None => corrected,
    }
    .to_biguint()
    .expect("a count is non-negative")
}
