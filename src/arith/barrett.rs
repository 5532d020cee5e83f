//! Reduction modulo a fixed word `m` by Barrett's method.

/// `x mod m` for a fixed `m >= 1`, without division.
///
/// With `mu = ⌊2^64 / m⌋` (or `2^64 − 1` for `m = 1`), `q = ⌊x · mu / 2^64⌋` is at most one short
/// of `⌊x / m⌋` for `x < 2^64`, so `x − q·m` lies in `0..2m` and one subtraction finishes.
///
/// ```
/// let r = nimcount::arith::Barrett64::new(1_000_000_007);
/// assert_eq!(r.reduce(u64::MAX), u64::MAX % 1_000_000_007);
/// assert_eq!(r.mul(1_000_000_006, 1_000_000_006), 1);
/// ```
#[derive(Clone, Copy, Debug)]
pub struct Barrett64 {
    m: u64,
    mu: u64,
}

impl Barrett64 {
    /// The reducer for `m >= 1`.
    ///
    /// # Panics
    /// When `m = 0`.
    pub fn new(m: u64) -> Self {
        assert!(m >= 1, "modulus 0");
        let mu = if m == 1 { u64::MAX } else { ((1u128 << 64) / u128::from(m)) as u64 };
        Barrett64 { m, mu }
    }

    /// The modulus.
    pub fn modulus(&self) -> u64 {
        self.m
    }

    /// `x mod m`.
    #[inline]
    pub fn reduce(&self, x: u64) -> u64 {
        let q = ((u128::from(x) * u128::from(self.mu)) >> 64) as u64;
        if self.m <= 1 << 63 {
            // x − q·m < 2m <= 2^64: exact in wrapping word arithmetic.
            let r = x.wrapping_sub(q.wrapping_mul(self.m));
            if r >= self.m { r - self.m } else { r }
        } else {
            // x − q·m < 2m may exceed 2^64 − 1: compare in u128.
            let r = u128::from(x) - u128::from(q) * u128::from(self.m);
            (if r >= u128::from(self.m) { r - u128::from(self.m) } else { r }) as u64
        }
    }

    /// `x mod m` for any `x < 2^128`.
    #[inline]
    pub fn reduce_wide(&self, x: u128) -> u64 {
        if x >> 64 == 0 { self.reduce(x as u64) } else { (x % u128::from(self.m)) as u64 }
    }

    /// `a · b mod m` for `a, b < m`.
    #[inline]
    pub fn mul(&self, a: u64, b: u64) -> u64 {
        self.reduce_wide(u128::from(a) * u128::from(b))
    }
}
