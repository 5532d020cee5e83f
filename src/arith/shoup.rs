//! Multiplication by a fixed factor with Shoup's precomputed quotient.
//!
//! For a fixed `w < m`, `w' = ⌊w · 2^B / m⌋` (`B` the word size) estimates the quotient of
//! `x · w` by `m` as `q = ⌊x · w' / 2^B⌋`, short by at most one for any word `x`. So
//! `x·w − q·m` lies in `0..2m`: exact in wrapping word arithmetic (as `2m <= 2^B`), and one
//! conditional subtraction finishes.

/// Multiplication by a fixed `w < m` modulo `m < 2^31`.
///
/// ```
/// let times_7 = nimcount::arith::Shoup32::new(7, 998_244_353);
/// assert_eq!(times_7.mul(u32::MAX), ((u32::MAX as u64) * 7 % 998_244_353) as u32);
/// ```
#[derive(Clone, Copy, Debug)]
pub struct Shoup32 {
    w: u32,
    quotient: u32,
    m: u32,
}

impl Shoup32 {
    /// The factor `w < m`, for the modulus `1 <= m < 2^31`.
    pub fn new(w: u32, m: u32) -> Self {
        debug_assert!(w < m && m < 1 << 31);
        Shoup32 { w, quotient: ((u64::from(w) << 32) / u64::from(m)) as u32, m }
    }

    /// `x · w mod m` for any `x < 2^32`. The remainder `r` lies in `0..2m`; `min(r, r − m)`
    /// (unsigned) is `r − m` exactly when `r >= m`, as `r − m` wraps above `2^31 > r` otherwise.
    #[inline]
    pub fn mul(&self, x: u32) -> u32 {
        let q = ((u64::from(x) * u64::from(self.quotient)) >> 32) as u32;
        let r = x.wrapping_mul(self.w).wrapping_sub(q.wrapping_mul(self.m));
        r.min(r.wrapping_sub(self.m))
    }
}

/// Multiplication by a fixed `w < m` modulo `m < 2^63`.
#[derive(Clone, Copy, Debug)]
pub struct Shoup64 {
    w: u64,
    quotient: u64,
    m: u64,
}

impl Shoup64 {
    /// The factor `w < m`, for the modulus `1 <= m < 2^63`.
    pub fn new(w: u64, m: u64) -> Self {
        debug_assert!(w < m && m < 1 << 63);
        Shoup64 { w, quotient: ((u128::from(w) << 64) / u128::from(m)) as u64, m }
    }

    /// `x · w mod m` for any `x < 2^64` (the same argument as [`Shoup32::mul`]).
    #[inline]
    pub fn mul(&self, x: u64) -> u64 {
        let q = ((u128::from(x) * u128::from(self.quotient)) >> 64) as u64;
        let r = x.wrapping_mul(self.w).wrapping_sub(q.wrapping_mul(self.m));
        r.min(r.wrapping_sub(self.m))
    }
}
