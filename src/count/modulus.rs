//! The one path from a modulus to counts, for every counter of the crate (the engine, Moore's
//! Nim-K, staircases, the distributed count).
//!
//! A modulus `M = 2^a · M′` (`M′` odd) is checked once ([`check`]), split into its parts
//! ([`Part`]), each part is counted in the ring that suits it, and the residues are joined by
//! the Chinese remainder theorem ([`by_parts`]); `M = 1` has no part and every count is 0.
//! The winning count is `total − losing` ([`winning`]), modulo `M` or exactly.

use num_bigint::BigUint;
use num_traits::{One, Zero};

use crate::arith::{crt, inverse_power_of_two};
use crate::error::{Error, Result};

/// Refuses the modulus 0 (every other modulus, 1 included, is counted modulo).
pub fn check(modulus: Option<&BigUint>) -> Result<()> {
    if modulus.is_some_and(Zero::is_zero) {
        return Err(Error::InvalidModulus { modulus: "0".into(), reason: "the modulus must be at least 1" });
    }
    Ok(())
}

/// One prime-power side of a modulus `M = 2^a · M′`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Part {
    /// The odd part `M′ > 1`.
    Odd(BigUint),
    /// The power of two `2^a`, `a >= 1`.
    Two(u64),
}

impl Part {
    /// The parts of `m >= 1`: the odd one first (none for `m = 1`).
    pub fn of(m: &BigUint) -> Vec<Part> {
        let twos = m.trailing_zeros().unwrap_or(0);
        let odd = m >> twos;
        let mut parts = Vec::with_capacity(2);
        if !odd.is_one() && !odd.is_zero() {
            parts.push(Part::Odd(odd));
        }
        if twos > 0 {
            parts.push(Part::Two(twos));
        }
        parts
    }

    /// The modulus of this part.
    pub fn modulus(&self) -> BigUint {
        match self {
            Part::Odd(m) => m.clone(),
            Part::Two(a) => BigUint::one() << *a,
        }
    }

    /// The losing count `L` modulo this part, from the sum `S = Σ_j Ĥ_j^k = 2^d · L` of a
    /// transform of `2^d` slots: modulo `M′`, `L = 2^-d · S`; modulo `2^a`, `S` must be known
    /// modulo `2^(a+d)`, which is `2^d · (L mod 2^a)`, so `L mod 2^a = (S mod 2^(a+d)) / 2^d`.
    pub fn losing(&self, sum: BigUint, d: u32) -> BigUint {
        match self {
            Part::Odd(m) => (sum * inverse_power_of_two(d, m)) % m,
            Part::Two(a) => (sum % (BigUint::one() << (a + u64::from(d)))) >> d,
        }
    }
}

/// `width` counts modulo `m >= 1`: `count` gives them modulo each part of `m`, and they are
/// joined by the Chinese remainder theorem, one by one. Modulo 1 every count is 0 and `count`
/// is not called.
pub fn by_parts(
    m: &BigUint,
    width: usize,
    mut count: impl FnMut(&Part) -> Result<Vec<BigUint>>,
) -> Result<Vec<BigUint>> {
    let mut joined = vec![BigUint::zero(); width];
    let mut joined_modulus = BigUint::one();
    for part in Part::of(m) {
        let residues = count(&part)?;
        debug_assert_eq!(residues.len(), width);
        let part_modulus = part.modulus();
        for (x, r) in joined.iter_mut().zip(residues) {
            *x = crt(x, &joined_modulus, &r, &part_modulus);
        }
        joined_modulus *= part_modulus;
    }
    Ok(joined)
}

/// `total − losing`, modulo `modulus` when there is one (`losing <= total` when exact).
pub fn winning(total: &BigUint, losing: &BigUint, modulus: Option<&BigUint>) -> BigUint {
    match modulus {
        Some(m) => (total % m + m - losing % m) % m,
        None => total - losing,
    }
}
