//! Montgomery multiplication modulo an odd `m`, with `R = 2^32` or `2^64`.
//!
//! A residue `x` is kept as `x·R mod m`; the product of two such residues reduces
//! `t = (a·R)(b·R)` by one [`redc`](Montgomery32::redc) to `(ab)·R mod m`, with no division.

/// `m⁻¹ mod 2^32` for odd `m`: each Newton step `y ← y(2 − my)` doubles the number of correct
/// low bits (`m · m ≡ 1 mod 8` gives 3, then 6, 12, 24, 48).
pub(crate) fn inverse_mod_2_32(m: u32) -> u32 {
    debug_assert!(m % 2 == 1);
    let mut inv = m;
    for _ in 0..4 {
        inv = inv.wrapping_mul(2u32.wrapping_sub(m.wrapping_mul(inv)));
    }
    debug_assert_eq!(m.wrapping_mul(inv), 1);
    inv
}

/// `m⁻¹ mod 2^64` for odd `m` (five Newton steps: 3 → 96 bits).
pub(crate) fn inverse_mod_2_64(m: u64) -> u64 {
    debug_assert!(m % 2 == 1);
    let mut inv = m;
    for _ in 0..5 {
        inv = inv.wrapping_mul(2u64.wrapping_sub(m.wrapping_mul(inv)));
    }
    debug_assert_eq!(m.wrapping_mul(inv), 1);
    inv
}

/// Montgomery arithmetic modulo an odd `m < 2^31`, `R = 2^32`.
///
/// ```
/// use nimcount::arith::Montgomery32;
/// let mont = Montgomery32::new(998_244_353);
/// let (a, b) = (mont.enter(123_456_789), mont.enter(987_654_321));
/// assert_eq!(mont.leave(mont.mul(a, b)), (123_456_789u64 * 987_654_321 % 998_244_353) as u32);
/// assert_eq!(mont.pow(3, 998_244_352), 1);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Montgomery32 {
    m: u32,
    /// `-m⁻¹ mod 2^32`.
    neg_inv: u32,
    /// `R² mod m`.
    r2: u32,
}

impl Montgomery32 {
    /// The arithmetic modulo the odd `m < 2^31` (`m = 1` allowed: everything is 0).
    ///
    /// # Panics
    /// When `m` is even or not below `2^31`.
    pub fn new(m: u32) -> Self {
        assert!(m % 2 == 1 && m < 1 << 31, "Montgomery32 needs an odd modulus below 2^31, not {m}");
        let r = (1u64 << 32) % u64::from(m);
        Montgomery32 { m, neg_inv: inverse_mod_2_32(m).wrapping_neg(), r2: ((r * r) % u64::from(m)) as u32 }
    }

    /// The modulus.
    pub fn modulus(&self) -> u32 {
        self.m
    }

    /// `-m⁻¹ mod 2^32`.
    pub fn neg_inv(&self) -> u32 {
        self.neg_inv
    }

    /// `R² mod m`.
    pub fn r2(&self) -> u32 {
        self.r2
    }

    /// Montgomery reduction: `t · 2^-32 mod m` for `t < m · 2^32`.
    ///
    /// With `q = t · (-m⁻¹) mod 2^32`, `t + q·m` is divisible by `2^32` and below `2m · 2^32`,
    /// so the quotient lies in `0..2m` (below `2^32` as `m < 2^31`) and one conditional
    /// subtraction lands in `0..m`.
    #[inline]
    pub fn redc(&self, t: u64) -> u32 {
        let q = (t as u32).wrapping_mul(self.neg_inv);
        let r = ((t + u64::from(q) * u64::from(self.m)) >> 32) as u32;
        if r >= self.m { r - self.m } else { r }
    }

    /// `a · b · R⁻¹ mod m` for `a, b < m`.
    #[inline]
    pub fn mul(&self, a: u32, b: u32) -> u32 {
        self.redc(u64::from(a) * u64::from(b))
    }

    /// `x · R mod m` for `x < m`.
    #[inline]
    pub fn enter(&self, x: u32) -> u32 {
        self.mul(x, self.r2)
    }

    /// `x · R⁻¹ mod m`: back from Montgomery form.
    #[inline]
    pub fn leave(&self, x: u32) -> u32 {
        self.redc(u64::from(x))
    }

    /// One in Montgomery form, `R mod m`.
    pub fn one(&self) -> u32 {
        self.enter(1 % self.m)
    }

    /// `a · b mod m` for plain residues: `(a·b·R⁻¹) · R² · R⁻¹`.
    #[inline]
    pub fn mul_plain(&self, a: u32, b: u32) -> u32 {
        self.mul(self.mul(a, b), self.r2)
    }

    /// `x^e mod m` for a plain residue `x < m` (`x^0 = 1`).
    pub fn pow(&self, x: u32, e: u64) -> u32 {
        self.leave(super::square_and_multiply(self.enter(x), &e, self.one(), |a, b| self.mul(*a, *b)))
    }
}

/// Montgomery arithmetic modulo an odd `m < 2^63`, `R = 2^64`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Montgomery64 {
    m: u64,
    /// `-m⁻¹ mod 2^64`.
    neg_inv: u64,
    /// `R² mod m`.
    r2: u64,
}

impl Montgomery64 {
    /// The arithmetic modulo the odd `m < 2^63` (`m = 1` allowed).
    ///
    /// # Panics
    /// When `m` is even or not below `2^63`.
    pub fn new(m: u64) -> Self {
        assert!(m % 2 == 1 && m < 1 << 63, "Montgomery64 needs an odd modulus below 2^63, not {m}");
        let r = (1u128 << 64) % u128::from(m);
        Montgomery64 { m, neg_inv: inverse_mod_2_64(m).wrapping_neg(), r2: ((r * r) % u128::from(m)) as u64 }
    }

    /// The modulus.
    pub fn modulus(&self) -> u64 {
        self.m
    }

    /// Montgomery reduction `t · 2^-64 mod m` for `t < m · 2^64` (the argument of
    /// [`Montgomery32::redc`], one word wider).
    #[inline]
    pub fn redc(&self, t: u128) -> u64 {
        let q = (t as u64).wrapping_mul(self.neg_inv);
        let r = ((t + u128::from(q) * u128::from(self.m)) >> 64) as u64;
        if r >= self.m { r - self.m } else { r }
    }

    /// `a · b · R⁻¹ mod m` for `a, b < m`.
    #[inline]
    pub fn mul(&self, a: u64, b: u64) -> u64 {
        self.redc(u128::from(a) * u128::from(b))
    }

    /// `x · R mod m` for `x < m`.
    #[inline]
    pub fn enter(&self, x: u64) -> u64 {
        self.mul(x, self.r2)
    }

    /// `x · R⁻¹ mod m`.
    #[inline]
    pub fn leave(&self, x: u64) -> u64 {
        self.redc(u128::from(x))
    }

    /// One in Montgomery form.
    pub fn one(&self) -> u64 {
        self.enter(1 % self.m)
    }

    /// `a · b mod m` for plain residues: `(a·b·R⁻¹) · R² · R⁻¹`.
    #[inline]
    pub fn mul_plain(&self, a: u64, b: u64) -> u64 {
        self.mul(self.mul(a, b), self.r2)
    }

    /// `x^e mod m` for a plain residue `x < m` (`x^0 = 1`).
    pub fn pow(&self, x: u64, e: &impl super::Exponent) -> u64 {
        self.leave(super::square_and_multiply(self.enter(x), e, self.one(), |a, b| self.mul(*a, *b)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn montgomery_products_and_powers_match_plain_arithmetic_on_nasty_values() {
        for m in [1u32, 3, 9, 15, 65_537, 998_244_353, 999_999_999, (1 << 31) - 1] {
            let mont = Montgomery32::new(m);
            let nasty = [0, 1, 2, m / 2, m / 2 + 1, m.saturating_sub(2), m - 1];
            for &a in nasty.iter().filter(|&&a| a < m) {
                for &b in nasty.iter().filter(|&&b| b < m) {
                    let want = (u64::from(a) * u64::from(b) % u64::from(m)) as u32;
                    assert_eq!(mont.leave(mont.mul(mont.enter(a), mont.enter(b))), want, "{a}·{b} mod {m}");
                }
                for e in [0u64, 1, 2, 31, u64::from(m - 1), u64::MAX] {
                    assert_eq!(
                        u64::from(mont.pow(a, e)),
                        super::super::pow_mod(u64::from(a), e, u64::from(m))
                    );
                }
            }
        }
        for m in [1u64, 3, 1_000_000_007, (1 << 61) - 1, (1 << 63) - 1, (1 << 63) - 25] {
            let mont = Montgomery64::new(m);
            let nasty = [0, 1, 2, m / 2, m / 2 + 1, m.saturating_sub(2), m - 1];
            for &a in nasty.iter().filter(|&&a| a < m) {
                for &b in nasty.iter().filter(|&&b| b < m) {
                    let want = (u128::from(a) * u128::from(b) % u128::from(m)) as u64;
                    assert_eq!(mont.mul_plain(a, b), want, "{a}·{b} mod {m}");
                    assert_eq!(mont.leave(mont.mul(mont.enter(a), mont.enter(b))), want);
                }
                for e in [0u64, 1, 2, 63, m - 1, u64::MAX] {
                    assert_eq!(mont.pow(a, &e), super::super::pow_mod(a, e, m));
                }
            }
        }
    }
}
