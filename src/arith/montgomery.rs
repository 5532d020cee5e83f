//! Montgomery multiplication modulo an odd `m`, with `R = 2^32` or `2^64`: written once over
//! the machine [`Word`], with [`Montgomery32`] and [`Montgomery64`] its two instances.
//!
//! A residue `x` is kept as `x·R mod m`; the product of two such residues reduces
//! `t = (a·R)(b·R)` by one [`redc`](Montgomery::redc) to `(ab)·R mod m`, with no division.

use std::fmt::Debug;

/// A machine word for Montgomery arithmetic, `B` bits wide with `R = 2^B`: `u32` (`B = 32`) or
/// `u64` (`B = 64`), each with a double word that holds every product of two words.
pub trait Word: Copy + Eq + Ord + Debug + Send + Sync + sealed::Sealed {
    /// The double word (`u64` for `u32`, `u128` for `u64`).
    type Wide: Copy;
    /// `B`.
    const BITS: u32;
    /// One.
    const ONE: Self;
    /// `2^(B−1)`: moduli must lie below it.
    const HALF: Self;
    /// The full product `a · b < 2^2B`.
    fn mul_wide(self, b: Self) -> Self::Wide;
    /// The word as a double word.
    fn wide(self) -> Self::Wide;
    /// `t + u`; the caller shows the sum is below `2^2B`.
    fn add_wide(t: Self::Wide, u: Self::Wide) -> Self::Wide;
    /// `t mod 2^B`.
    fn low(t: Self::Wide) -> Self;
    /// `⌊t / 2^B⌋`; the caller shows it is below `2^B`.
    fn high(t: Self::Wide) -> Self;
    /// `2^B mod m` for `m >= 1`.
    fn radix_mod(m: Self) -> Self;
    /// `t mod m` for `m >= 1`.
    fn wide_mod(t: Self::Wide, m: Self) -> Self;
    /// `a · b mod 2^B`.
    fn wrapping_mul(self, b: Self) -> Self;
    /// `a − b mod 2^B`.
    fn wrapping_sub(self, b: Self) -> Self;
    /// `a + b mod 2^B`.
    fn wrapping_add(self, b: Self) -> Self;
    /// `−a mod 2^B`.
    fn wrapping_neg(self) -> Self;
    /// `a − b` for `b <= a`.
    fn sub(self, b: Self) -> Self;
    /// Whether the word is odd.
    fn is_odd(self) -> bool;
}

mod sealed {
    pub trait Sealed {}
    impl Sealed for u32 {}
    impl Sealed for u64 {}
}

macro_rules! word {
    ($w:ty, $wide:ty) => {
        impl Word for $w {
            type Wide = $wide;
            const BITS: u32 = <$w>::BITS;
            const ONE: $w = 1;
            const HALF: $w = 1 << (<$w>::BITS - 1);
            #[inline(always)]
            fn mul_wide(self, b: $w) -> $wide {
                <$wide>::from(self) * <$wide>::from(b)
            }
            #[inline(always)]
            fn wide(self) -> $wide {
                <$wide>::from(self)
            }
            #[inline(always)]
            fn add_wide(t: $wide, u: $wide) -> $wide {
                t + u
            }
            #[inline(always)]
            fn low(t: $wide) -> $w {
                t as $w
            }
            #[inline(always)]
            fn high(t: $wide) -> $w {
                (t >> <$w>::BITS) as $w
            }
            fn radix_mod(m: $w) -> $w {
                ((1 as $wide) << <$w>::BITS).rem_euclid(<$wide>::from(m)) as $w
            }
            fn wide_mod(t: $wide, m: $w) -> $w {
                (t % <$wide>::from(m)) as $w
            }
            #[inline(always)]
            fn wrapping_mul(self, b: $w) -> $w {
                <$w>::wrapping_mul(self, b)
            }
            #[inline(always)]
            fn wrapping_sub(self, b: $w) -> $w {
                <$w>::wrapping_sub(self, b)
            }
            #[inline(always)]
            fn wrapping_add(self, b: $w) -> $w {
                <$w>::wrapping_add(self, b)
            }
            #[inline(always)]
            fn wrapping_neg(self) -> $w {
                <$w>::wrapping_neg(self)
            }
            #[inline(always)]
            fn sub(self, b: $w) -> $w {
                self - b
            }
            fn is_odd(self) -> bool {
                self % 2 == 1
            }
        }
    };
}
word!(u32, u64);
word!(u64, u128);

/// `m⁻¹ mod 2^B` for odd `m`: each Newton step `y ← y(2 − my)` doubles the number of correct
/// low bits, from 3 (`m · m ≡ 1 mod 8`): 4 steps reach 48 ≥ 32 bits, 5 reach 96 ≥ 64.
pub(crate) fn inverse_mod_radix<W: Word>(m: W) -> W {
    let two = W::ONE.wrapping_sub(W::ONE.wrapping_neg());
    let mut inv = m;
    let mut bits = 3;
    while bits < W::BITS {
        inv = inv.wrapping_mul(two.wrapping_sub(m.wrapping_mul(inv)));
        bits *= 2;
    }
    debug_assert!(m.wrapping_mul(inv) == W::ONE);
    inv
}

/// Montgomery arithmetic modulo an odd `m < 2^(B−1)`, `R = 2^B`, for a [`Word`] of `B` bits.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Montgomery<W: Word> {
    m: W,
    /// `-m⁻¹ mod 2^B`.
    neg_inv: W,
    /// `R² mod m`.
    r2: W,
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
pub type Montgomery32 = Montgomery<u32>;

/// Montgomery arithmetic modulo an odd `m < 2^63`, `R = 2^64`.
///
/// ```
/// use nimcount::arith::Montgomery64;
/// let m = (1u64 << 61) - 1;
/// let mont = Montgomery64::new(m);
/// assert_eq!(mont.mul_plain(m - 1, m - 1), 1);
/// assert_eq!(mont.pow(3, &(m - 1)), 1);
/// ```
pub type Montgomery64 = Montgomery<u64>;

impl<W: Word> Montgomery<W> {
    /// The arithmetic modulo the odd `m < 2^(B−1)` (`m = 1` allowed: everything is 0).
    ///
    /// # Panics
    /// When `m` is even or not below `2^(B−1)`.
    pub fn new(m: W) -> Self {
        assert!(
            m.is_odd() && m < W::HALF,
            "Montgomery{} needs an odd modulus below 2^{}, not {m:?}",
            W::BITS,
            W::BITS - 1
        );
        let r = W::radix_mod(m);
        Montgomery { m, neg_inv: inverse_mod_radix(m).wrapping_neg(), r2: W::wide_mod(r.mul_wide(r), m) }
    }

    /// The modulus.
    pub fn modulus(&self) -> W {
        self.m
    }

    /// `-m⁻¹ mod 2^B`.
    pub fn neg_inv(&self) -> W {
        self.neg_inv
    }

    /// `R² mod m`.
    pub fn r2(&self) -> W {
        self.r2
    }

    /// Montgomery reduction: `t · 2^−B mod m` for `t < m · 2^B`.
    ///
    /// With `q = t · (−m⁻¹) mod 2^B`, `t + q·m ≡ t − t ≡ 0 (mod 2^B)`, and
    /// `t + q·m < m·2^B + (2^B − 1)·m < 2m · 2^B <= 2^2B` (as `m < 2^(B−1)`): the sum does not
    /// overflow the double word, and its quotient by `2^B` lies in `0..2m`, below `2^B`. One
    /// conditional subtraction lands in `0..m`.
    #[inline]
    pub fn redc(&self, t: W::Wide) -> W {
        let q = W::low(t).wrapping_mul(self.neg_inv);
        let r = W::high(W::add_wide(t, q.mul_wide(self.m)));
        if r >= self.m { r.sub(self.m) } else { r }
    }

    /// `a · b · R⁻¹ mod m` for `a, b < m` (so `a · b < m² < m · 2^B`, as [`redc`](Self::redc)
    /// needs).
    #[inline]
    pub fn mul(&self, a: W, b: W) -> W {
        self.redc(a.mul_wide(b))
    }

    /// `x · R mod m` for `x < m` (`r2 < m`, so the product is a valid [`mul`](Self::mul)).
    #[inline]
    pub fn enter(&self, x: W) -> W {
        self.mul(x, self.r2)
    }

    /// `x · R⁻¹ mod m` for `x < m`: back from Montgomery form (`x < m · 2^B` trivially).
    #[inline]
    pub fn leave(&self, x: W) -> W {
        self.redc(x.wide())
    }

    /// One in Montgomery form, `R mod m` (0 for `m = 1`).
    pub fn one(&self) -> W {
        self.enter(W::wide_mod(W::ONE.wide(), self.m))
    }

    /// `a · b mod m` for plain residues `a, b < m`: `(a·b·R⁻¹) · R² · R⁻¹`.
    #[inline]
    pub fn mul_plain(&self, a: W, b: W) -> W {
        self.mul(self.mul(a, b), self.r2)
    }

    /// `x^e mod m` for a plain residue `x < m` (`x^0 = 1`, or 0 for `m = 1`).
    pub fn pow_of(&self, x: W, e: &impl super::Exponent) -> W {
        self.leave(super::square_and_multiply(self.enter(x), e, self.one(), |a, b| self.mul(*a, *b)))
    }
}

impl Montgomery<u32> {
    /// `x^e mod m` for a plain residue `x < m` (`x^0 = 1`).
    pub fn pow(&self, x: u32, e: u64) -> u32 {
        self.pow_of(x, &e)
    }
}

impl Montgomery<u64> {
    /// `x^e mod m` for a plain residue `x < m` (`x^0 = 1`).
    pub fn pow(&self, x: u64, e: &impl super::Exponent) -> u64 {
        self.pow_of(x, e)
    }
}
