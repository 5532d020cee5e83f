//! Residues modulo the counters' working moduli: an odd word (Montgomery form), a power of two up
//! to `2^128`, or any big integer, and the integers themselves. Each is a [`Ring`] whose exponent
//! rule holds for every base, so huge exponents are reduced safely (never with a rule that only
//! holds for prime moduli); [`Residues`] adds the conversions the counters need. Every count of
//! the crate (the engine, Moore's Nim-K, the distributed count) computes in these rings and the
//! word rings of the transform.

use std::fmt;

use num_bigint::{BigInt, BigUint};
use num_integer::Integer;
use num_traits::{One, ToPrimitive, Zero};

use super::{Mod32, Mod64, Ring, Wrap64};
use crate::arith::{ExponentRule, Montgomery64, factor_big, inv_mod, square_and_multiply};

/// A ring of residues modulo a fixed `m >= 2`, with conversions from and to integers.
pub trait Residues: Ring {
    /// The modulus.
    fn modulus(&self) -> BigUint;
    /// `x mod m`.
    fn residue_u128(&self, x: u128) -> Self::Elem;
    /// `x mod m`.
    fn residue_big(&self, x: &BigUint) -> Self::Elem;
    /// The residue as the integer in `0..m`.
    fn to_biguint(&self, x: &Self::Elem) -> BigUint;
    /// The inverse of a unit (`None` when `x` shares a factor with `m`).
    fn inverse(&self, x: &Self::Elem) -> Option<Self::Elem>;
    /// The cost of one multiplication in work steps (see [`crate::count::MAX_STEPS`]): 1 for a
    /// word.
    fn mul_steps(&self) -> u128 {
        1
    }

    /// `x mod m` for a signed word.
    fn residue_i64(&self, x: i64) -> Self::Elem {
        let r = self.residue_u128(u128::from(x.unsigned_abs()));
        if x < 0 { self.neg(r) } else { r }
    }
}

/// `x^e` for an exponent already reduced by the ring's rule (see [`Ring::reduce_exponent`]).
pub fn pow_reduced<R: Ring>(r: &R, x: R::Elem, e: &BigUint) -> R::Elem {
    square_and_multiply(x, e, r.one(), |a, b| r.mul(a.clone(), b.clone()))
}

/// Residues modulo an odd `m < 2^63` in Montgomery form (`x · 2^64 mod m`).
#[derive(Clone, Debug)]
pub struct OddWord {
    mont: Montgomery64,
    rule: ExponentRule,
}

impl OddWord {
    pub fn new(m: u64) -> Self {
        OddWord { mont: Montgomery64::new(m), rule: ExponentRule::for_modulus(m) }
    }

    fn m(&self) -> u64 {
        self.mont.modulus()
    }
}

impl fmt::Display for OddWord {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "residues mod {}", self.m())
    }
}

impl Ring for OddWord {
    type Elem = u64;

    fn zero(&self) -> u64 {
        0
    }
    fn one(&self) -> u64 {
        self.mont.one()
    }
    /// Montgomery form is additive: plain modular addition, `a + b < 2m < 2^64`.
    fn add(&self, a: u64, b: u64) -> u64 {
        let s = a + b;
        if s >= self.m() { s - self.m() } else { s }
    }
    fn sub(&self, a: u64, b: u64) -> u64 {
        if a >= b { a - b } else { a + self.m() - b }
    }
    /// `(a·R)(b·R)·R⁻¹ = (ab)·R`.
    fn mul(&self, a: u64, b: u64) -> u64 {
        self.mont.mul(a, b)
    }
    /// `Σ (a_i R)(b_i R) = R² Σ a_i b_i` summed exactly in 128 bits plus a count of carries
    /// (fewer than `2^64` terms), reduced modulo `m` once, then `REDC` divides by `R` once:
    /// `R Σ a_i b_i`, the Montgomery form of the dot product.
    fn dot(&self, a: &[u64], b: &[u64]) -> u64 {
        let m = u128::from(self.m());
        let (mut low, mut carries) = (0u128, 0u64);
        for (&x, &y) in a.iter().zip(b) {
            let (sum, over) = low.overflowing_add(u128::from(x) * u128::from(y));
            low = sum;
            carries += u64::from(over);
        }
        // 2^128 mod m, to fold the carries back in.
        let wrap = (u128::MAX % m + 1) % m;
        let sum = (u128::from(carries) * wrap % m + low % m) % m;
        self.mont.redc(sum)
    }
    fn reduce_exponent(&self, k: &BigUint) -> BigUint {
        self.rule.reduce(k)
    }
}

impl Residues for OddWord {
    fn modulus(&self) -> BigUint {
        self.m().into()
    }
    fn residue_u128(&self, x: u128) -> u64 {
        self.mont.enter((x % u128::from(self.m())) as u64)
    }
    fn residue_big(&self, x: &BigUint) -> u64 {
        self.mont.enter((x % self.m()).to_u64().expect("below m"))
    }
    fn to_biguint(&self, x: &u64) -> BigUint {
        self.mont.leave(*x).into()
    }
    fn inverse(&self, x: &u64) -> Option<u64> {
        inv_mod(self.mont.leave(*x), self.m()).map(|i| self.mont.enter(i))
    }
}

/// Residues modulo `2^bits` for `1 <= bits <= 128`: wrapping `u128` arithmetic, masked.
#[derive(Clone, Copy, Debug)]
pub struct TwoWord {
    bits: u32,
    mask: u128,
}

impl TwoWord {
    pub fn new(bits: u32) -> Self {
        assert!((1..=128).contains(&bits), "2^{bits} is not a word modulus");
        TwoWord { bits, mask: if bits == 128 { u128::MAX } else { (1 << bits) - 1 } }
    }
}

impl fmt::Display for TwoWord {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "residues mod 2^{}", self.bits)
    }
}

impl Ring for TwoWord {
    type Elem = u128;

    fn zero(&self) -> u128 {
        0
    }
    fn one(&self) -> u128 {
        1
    }
    fn add(&self, a: u128, b: u128) -> u128 {
        a.wrapping_add(b) & self.mask
    }
    fn sub(&self, a: u128, b: u128) -> u128 {
        a.wrapping_sub(b) & self.mask
    }
    /// Wrapping arithmetic is exact modulo `2^128`, hence modulo `2^bits`.
    fn mul(&self, a: u128, b: u128) -> u128 {
        a.wrapping_mul(b) & self.mask
    }
    fn reduce_exponent(&self, k: &BigUint) -> BigUint {
        ExponentRule::for_power_of_two(self.bits).reduce(k)
    }
}

impl Residues for TwoWord {
    fn modulus(&self) -> BigUint {
        BigUint::one() << self.bits
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
}

/// Residues modulo any `m >= 2`, with big integers.
#[derive(Clone, Debug)]
pub struct Big {
    m: BigUint,
    rule: Option<ExponentRule>,
}

impl Big {
    /// Residues modulo `m`. Moduli above 2^14 bits are not factored (trial division and
    /// dividing out small primes cost seconds there, `3^1048576` minutes), except powers of two:
    /// their exponents stay as they are, which is always right.
    pub fn new(m: BigUint) -> Self {
        let rule = if m.count_ones() == 1 {
            u32::try_from(m.bits() - 1).ok().map(ExponentRule::for_power_of_two)
        } else if m.bits() <= 1 << 14 {
            factor_big(&m).map(|f| ExponentRule::from_factors(&f))
        } else {
            None
        };
        Big { m, rule }
    }
}

impl fmt::Display for Big {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "residues mod {}", crate::error::quote(&self.m.to_string()))
    }
}

impl Ring for Big {
    type Elem = BigUint;

    fn zero(&self) -> BigUint {
        BigUint::zero()
    }
    fn one(&self) -> BigUint {
        BigUint::one()
    }
    fn add(&self, a: BigUint, b: BigUint) -> BigUint {
        let s = a + b;
        if s >= self.m { s - &self.m } else { s }
    }
    fn sub(&self, a: BigUint, b: BigUint) -> BigUint {
        if a >= b { a - b } else { &self.m - b + a }
    }
    fn mul(&self, a: BigUint, b: BigUint) -> BigUint {
        (a * b) % &self.m
    }
    /// Reduced when the modulus could be factored; as it is otherwise (always right).
    fn reduce_exponent(&self, k: &BigUint) -> BigUint {
        match &self.rule {
            Some(rule) => rule.reduce(k),
            None => k.clone(),
        }
    }
    fn pow(&self, x: BigUint, k: &BigUint) -> BigUint {
        x.modpow(&self.reduce_exponent(k), &self.m)
    }
}

impl Residues for Big {
    fn modulus(&self) -> BigUint {
        self.m.clone()
    }
    /// A product and a schoolbook division by an `n`-word modulus: about `n² / 64` steps
    /// (measured: 0.67 ms per multiplication modulo `10^30000`, 1557 words, at 25 ns a step).
    fn mul_steps(&self) -> u128 {
        let words = u128::from(self.m.bits() / 64 + 1);
        words * words / 64 + 1
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
}

/// The integers, exactly (for counts without a modulus).
#[derive(Clone, Copy, Debug, Default)]
pub struct Integers;

impl fmt::Display for Integers {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("integers")
    }
}

impl Ring for Integers {
    type Elem = BigInt;

    fn zero(&self) -> BigInt {
        BigInt::zero()
    }
    fn one(&self) -> BigInt {
        BigInt::one()
    }
    fn add(&self, a: BigInt, b: BigInt) -> BigInt {
        a + b
    }
    fn sub(&self, a: BigInt, b: BigInt) -> BigInt {
        a - b
    }
    fn mul(&self, a: BigInt, b: BigInt) -> BigInt {
        a * b
    }
    /// Skips the zero terms, which are most of a sparse table's.
    fn dot(&self, a: &[BigInt], b: &[BigInt]) -> BigInt {
        let mut sum = BigInt::zero();
        for (x, y) in a.iter().zip(b) {
            if !x.is_zero() && !y.is_zero() {
                sum += x * y;
            }
        }
        sum
    }
}

/// The plain residue rings of the transform, seen as residues of their modulus.
macro_rules! word_residues {
    ($ring:ty, $t:ty, $modulus:expr) => {
        impl Residues for $ring {
            fn modulus(&self) -> BigUint {
                $modulus(self)
            }
            fn residue_u128(&self, x: u128) -> $t {
                (x % $modulus(self)).to_u128().expect("below m") as $t
            }
            fn residue_big(&self, x: &BigUint) -> $t {
                (x % $modulus(self)).to_u128().expect("below m") as $t
            }
            fn to_biguint(&self, x: &$t) -> BigUint {
                (*x).into()
            }
            fn inverse(&self, x: &$t) -> Option<$t> {
                let m = $modulus(self);
                let e = BigInt::from(*x).extended_gcd(&BigInt::from(m.clone()));
                e.gcd.is_one().then(|| e.x.mod_floor(&BigInt::from(m)).to_u128().expect("below m") as $t)
            }
        }
    };
}

word_residues!(Mod32, u32, |r: &Mod32| BigUint::from(r.modulus()));
word_residues!(Mod64, u64, |r: &Mod64| BigUint::from(r.modulus()));
word_residues!(Wrap64, u64, |_: &Wrap64| BigUint::one() << 64u32);
