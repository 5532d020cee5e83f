//! Residues modulo the working moduli of the engine: an odd word, a power of two up to `2^128`,
//! or any big integer. Each kind knows its exponent rule, so that huge exponents are reduced
//! safely (never with a rule that only holds for prime moduli).

use std::fmt::Debug;

use num_bigint::{BigInt, BigUint};
use num_integer::Integer;
use num_traits::{One, ToPrimitive, Zero};

use crate::arith::ExponentRule;
use crate::ring::{Mod64, Ring};

/// Arithmetic modulo a fixed `m >= 2`.
pub(crate) trait Residues: Sync + Send {
    /// A residue in the representation of this arithmetic.
    type E: Clone + Send + Sync + PartialEq + Debug;

    /// The modulus.
    fn modulus(&self) -> BigUint;
    fn zero(&self) -> Self::E;
    fn one(&self) -> Self::E;
    fn add(&self, a: &Self::E, b: &Self::E) -> Self::E;
    fn sub(&self, a: &Self::E, b: &Self::E) -> Self::E;
    fn mul(&self, a: &Self::E, b: &Self::E) -> Self::E;
    fn residue_u128(&self, x: u128) -> Self::E;
    fn residue_big(&self, x: &BigUint) -> Self::E;
    fn to_biguint(&self, x: &Self::E) -> BigUint;
    /// The inverse of a unit (`None` when `x` shares a factor with `m`).
    fn inverse(&self, x: &Self::E) -> Option<Self::E>;
    /// The rule that reduces exponents for every base, when the modulus could be factored.
    fn exponent_rule(&self) -> Option<ExponentRule>;

    fn neg(&self, a: &Self::E) -> Self::E {
        self.sub(&self.zero(), a)
    }

    fn residue_i64(&self, x: i64) -> Self::E {
        let r = self.residue_u128(u128::from(x.unsigned_abs()));
        if x < 0 { self.neg(&r) } else { r }
    }

    /// `x^e` by square-and-multiply with the exponent as given (reduce it first).
    fn pow(&self, x: &Self::E, e: &BigUint) -> Self::E {
        let mut acc = self.one();
        for i in (0..e.bits()).rev() {
            acc = self.mul(&acc, &acc);
            if e.bit(i) {
                acc = self.mul(&acc, x);
            }
        }
        acc
    }

    /// `exponent` reduced by this modulus' rule (unchanged when the modulus could not be factored).
    fn reduce_exponent(&self, exponent: &BigUint) -> BigUint {
        match self.exponent_rule() {
            Some(rule) => rule.reduce(exponent),
            None => exponent.clone(),
        }
    }
}

/// Residues modulo an odd `m < 2^63` in Montgomery form (`x · 2^64 mod m`).
#[derive(Clone, Copy, Debug)]
pub(crate) struct OddWord {
    ring: Mod64,
    /// `2^128 mod m`: a Montgomery product with it enters Montgomery form.
    r2: u64,
}

impl OddWord {
    pub(crate) fn new(m: u64) -> Self {
        let ring = Mod64::new(m).expect("odd modulus below 2^63");
        let r = ((1u128 << 64) % u128::from(m)) as u64;
        let r2 = ((u128::from(r) * u128::from(r)) % u128::from(m)) as u64;
        OddWord { ring, r2 }
    }

    fn m(&self) -> u64 {
        self.ring.modulus()
    }

    /// A plain residue `x < m` into Montgomery form.
    #[inline]
    fn enter(&self, x: u64) -> u64 {
        self.ring.mont_mul(x, self.r2)
    }

    /// `x^e` for a word exponent, in Montgomery form.
    pub(crate) fn pow_u64(&self, x: u64, e: u64) -> u64 {
        let mut acc = self.one();
        for i in (0..u64::BITS - e.leading_zeros()).rev() {
            acc = self.ring.mont_mul(acc, acc);
            if (e >> i) & 1 == 1 {
                acc = self.ring.mont_mul(acc, x);
            }
        }
        acc
    }
}

impl Residues for OddWord {
    type E = u64;

    fn modulus(&self) -> BigUint {
        self.m().into()
    }
    fn zero(&self) -> u64 {
        0
    }
    fn one(&self) -> u64 {
        self.enter(1 % self.m())
    }
    /// Montgomery form is additive: plain modular addition and subtraction.
    fn add(&self, a: &u64, b: &u64) -> u64 {
        self.ring.add(*a, *b)
    }
    fn sub(&self, a: &u64, b: &u64) -> u64 {
        self.ring.sub(*a, *b)
    }
    /// `(a·R)(b·R)·R⁻¹ = (ab)·R`.
    fn mul(&self, a: &u64, b: &u64) -> u64 {
        self.ring.mont_mul(*a, *b)
    }
    fn residue_u128(&self, x: u128) -> u64 {
        self.enter((x % u128::from(self.m())) as u64)
    }
    fn residue_big(&self, x: &BigUint) -> u64 {
        self.enter((x % self.m()).to_u64().expect("below m"))
    }
    fn to_biguint(&self, x: &u64) -> BigUint {
        self.ring.redc(u128::from(*x)).into()
    }
    fn inverse(&self, x: &u64) -> Option<u64> {
        let plain = self.ring.redc(u128::from(*x));
        crate::arith::inv_mod(plain, self.m()).map(|i| self.enter(i))
    }
    fn exponent_rule(&self) -> Option<ExponentRule> {
        Some(ExponentRule::for_modulus(self.m()))
    }
    fn pow(&self, x: &u64, e: &BigUint) -> u64 {
        match e.to_u64() {
            Some(e) => self.pow_u64(*x, e),
            None => {
                let mut acc = self.one();
                for i in (0..e.bits()).rev() {
                    acc = self.ring.mont_mul(acc, acc);
                    if e.bit(i) {
                        acc = self.ring.mont_mul(acc, *x);
                    }
                }
                acc
            }
        }
    }
}

/// Residues modulo `2^bits` for `1 <= bits <= 128`: wrapping `u128` arithmetic, masked.
#[derive(Clone, Copy, Debug)]
pub(crate) struct TwoWord {
    bits: u32,
    mask: u128,
}

impl TwoWord {
    pub(crate) fn new(bits: u32) -> Self {
        assert!((1..=128).contains(&bits), "2^{bits} is not a word modulus");
        TwoWord { bits, mask: if bits == 128 { u128::MAX } else { (1 << bits) - 1 } }
    }
}

impl Residues for TwoWord {
    type E = u128;

    fn modulus(&self) -> BigUint {
        BigUint::one() << self.bits
    }
    fn zero(&self) -> u128 {
        0
    }
    fn one(&self) -> u128 {
        1
    }
    fn add(&self, a: &u128, b: &u128) -> u128 {
        a.wrapping_add(*b) & self.mask
    }
    fn sub(&self, a: &u128, b: &u128) -> u128 {
        a.wrapping_sub(*b) & self.mask
    }
    /// Wrapping arithmetic is exact modulo `2^128`, hence modulo `2^bits`.
    fn mul(&self, a: &u128, b: &u128) -> u128 {
        a.wrapping_mul(*b) & self.mask
    }
    fn residue_u128(&self, x: u128) -> u128 {
        x & self.mask
    }
    fn residue_big(&self, x: &BigUint) -> u128 {
        let mut digits = x.iter_u64_digits();
        let low = u128::from(digits.next().unwrap_or(0)) | u128::from(digits.next().unwrap_or(0)) << 64;
        low & self.mask
    }
    fn to_biguint(&self, x: &u128) -> BigUint {
        (*x).into()
    }
    /// Newton's iteration `y ← y(2 - xy)` doubles the correct low bits of an odd `x`'s inverse,
    /// from 3 (`x·x ≡ 1 mod 8`) to 192 ≥ 128 in six steps.
    fn inverse(&self, x: &u128) -> Option<u128> {
        if x & 1 == 0 {
            return None;
        }
        let mut y = *x;
        for _ in 0..6 {
            y = y.wrapping_mul(2u128.wrapping_sub(x.wrapping_mul(y)));
        }
        Some(y & self.mask)
    }
    fn exponent_rule(&self) -> Option<ExponentRule> {
        Some(ExponentRule::for_power_of_two(self.bits))
    }
}

/// Residues modulo any `m >= 2`, with big integers.
#[derive(Clone, Debug)]
pub(crate) struct Big {
    m: BigUint,
    rule: Option<ExponentRule>,
}

impl Big {
    pub(crate) fn new(m: BigUint) -> Self {
        let rule = factor_big(&m).map(|f| ExponentRule::from_factors(&f));
        Big { m, rule }
    }
}

impl Residues for Big {
    type E = BigUint;

    fn modulus(&self) -> BigUint {
        self.m.clone()
    }
    fn zero(&self) -> BigUint {
        BigUint::zero()
    }
    fn one(&self) -> BigUint {
        BigUint::one()
    }
    fn add(&self, a: &BigUint, b: &BigUint) -> BigUint {
        let s = a + b;
        if s >= self.m { s - &self.m } else { s }
    }
    fn sub(&self, a: &BigUint, b: &BigUint) -> BigUint {
        if a >= b { a - b } else { &self.m - b + a }
    }
    fn mul(&self, a: &BigUint, b: &BigUint) -> BigUint {
        (a * b) % &self.m
    }
    fn residue_u128(&self, x: u128) -> BigUint {
        BigUint::from(x) % &self.m
    }
    fn residue_big(&self, x: &BigUint) -> BigUint {
        x % &self.m
    }
    fn to_biguint(&self, x: &BigUint) -> BigUint {
        x.clone()
    }
    fn inverse(&self, x: &BigUint) -> Option<BigUint> {
        let (a, m) = (BigInt::from(x.clone()), BigInt::from(self.m.clone()));
        let e = a.extended_gcd(&m);
        e.gcd.is_one().then(|| e.x.mod_floor(&m).to_biguint().expect("non-negative"))
    }
    fn exponent_rule(&self) -> Option<ExponentRule> {
        self.rule.clone()
    }
    fn pow(&self, x: &BigUint, e: &BigUint) -> BigUint {
        x.modpow(e, &self.m)
    }
}

/// The factorisation of `m >= 1`, when it can be found: trial division by the primes below
/// 2^16, then the cofactor must be 1 or fit in a word (factored by Pollard's rho). A larger
/// cofactor is not factored: its caller then uses exponents as they are, which is always right.
pub(crate) fn factor_big(m: &BigUint) -> Option<Vec<(BigUint, u32)>> {
    let mut rest = m.clone();
    let mut factors: Vec<(BigUint, u32)> = Vec::new();
    let twos = rest.trailing_zeros().unwrap_or(0);
    if twos > 0 {
        factors.push((2u32.into(), u32::try_from(twos).ok()?));
        rest >>= twos;
    }
    let mut p = 3u32;
    while p < 1 << 16 && rest.bits() > 64 {
        let mut e = 0;
        while (&rest % p).is_zero() {
            rest /= p;
            e += 1;
        }
        if e > 0 {
            factors.push((p.into(), e));
        }
        p += 2;
    }
    let rest = rest.to_u64()?;
    for (q, e) in crate::arith::factor(rest) {
        match factors.iter_mut().find(|(p, _)| *p == BigUint::from(q)) {
            Some((_, f)) => *f += e,
            None => factors.push((q.into(), e)),
        }
    }
    factors.sort();
    Some(factors)
}

/// `x mod m1·m2` from `x mod m1` and `x mod m2` for coprime `m1, m2`.
pub(crate) fn crt(r1: &BigUint, m1: &BigUint, r2: &BigUint, m2: &BigUint) -> BigUint {
    let (a, b) = (BigInt::from(m1.clone()), BigInt::from(m2.clone()));
    let e = a.extended_gcd(&b);
    debug_assert!(e.gcd.is_one(), "{m1} and {m2} are not coprime");
    // x = r1 + m1 · ((r2 - r1) · m1⁻¹ mod m2).
    let diff = BigInt::from(r2.clone()) - BigInt::from(r1.clone());
    let t = (diff * e.x).mod_floor(&b).to_biguint().expect("non-negative");
    r1 + m1 * t
}

#[cfg(test)]
mod tests {
    use super::*;

    fn check<R: Residues>(r: &R, big_m: &BigUint) {
        let top = big_m.to_u128().unwrap_or(u128::MAX);
        let values: Vec<u128> = [0, 1, 2, 3, top / 2, top - 2, top - 1, 12345]
            .into_iter()
            .filter(|&v| BigUint::from(v) < *big_m)
            .collect();
        for &a in &values {
            let ea = r.residue_u128(a);
            assert_eq!(r.to_biguint(&ea), BigUint::from(a));
            let small = (a % 1000) as i64;
            assert_eq!(r.to_biguint(&r.residue_i64(-small)), (big_m - BigUint::from(small as u64)) % big_m);
            for &b in &values {
                let eb = r.residue_u128(b);
                let (ba, bb) = (BigUint::from(a), BigUint::from(b));
                assert_eq!(r.to_biguint(&r.add(&ea, &eb)), (&ba + &bb) % big_m);
                assert_eq!(r.to_biguint(&r.sub(&ea, &eb)), (&ba + big_m - &bb) % big_m);
                assert_eq!(r.to_biguint(&r.mul(&ea, &eb)), (&ba * &bb) % big_m);
            }
            if let Some(inv) = r.inverse(&ea) {
                assert_eq!(r.to_biguint(&r.mul(&ea, &inv)), BigUint::one() % big_m);
            } else {
                assert!(!BigUint::from(a).gcd(big_m).is_one(), "{a} mod {big_m}");
            }
            for e in [0u64, 1, 2, 5, 64, 129, 1000] {
                let want = BigUint::from(a).modpow(&e.into(), big_m);
                assert_eq!(r.to_biguint(&r.pow(&ea, &e.into())), want);
                let reduced = r.reduce_exponent(&e.into());
                assert_eq!(r.to_biguint(&r.pow(&ea, &reduced)), want, "{a}^{e} mod {big_m}");
            }
        }
    }

    #[test]
    fn every_kind_of_residue_computes_exactly() {
        for m in [3u64, 9, 15, 1_000_000_007, (1 << 61) - 1, (1 << 63) - 25] {
            check(&OddWord::new(m), &m.into());
        }
        for bits in [1, 2, 3, 20, 63, 64, 84, 127, 128] {
            check(&TwoWord::new(bits), &(BigUint::one() << bits));
        }
        for m in [2u128, 10, 1_000_000_000, 1 << 100, (1 << 89) - 1, 3 * (1 << 70) + 1] {
            check(&Big::new(m.into()), &m.into());
        }
    }

    #[test]
    fn big_factorisation_when_possible() {
        let m = BigUint::from(2u8).pow(64) * 1_000_000_007u64 * 3u32 * 3u32;
        let f = factor_big(&m).unwrap();
        assert_eq!(f, vec![(2u32.into(), 64), (3u32.into(), 2), (1_000_000_007u32.into(), 1)]);
        let m = BigUint::from((1u128 << 89) - 1) * BigUint::from((1u128 << 89) - 1);
        assert_eq!(factor_big(&m), None);
        assert_eq!(factor_big(&BigUint::one()), Some(vec![]));
    }

    #[test]
    fn chinese_remainders() {
        let (m1, m2) = (BigUint::from(1_953_125u32), BigUint::from(512u32));
        for x in [0u64, 1, 999_999_999, 123_456_789] {
            let r = crt(&(BigUint::from(x) % &m1), &m1, &(BigUint::from(x) % &m2), &m2);
            assert_eq!(r, BigUint::from(x));
        }
    }
}
