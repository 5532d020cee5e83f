//! AVX-512F registers: 16 × u32 / f32 or 8 × u64 / f64 lanes, 32 registers.
//!
//! Levels inside a register pair lane `i` with lane `i ^ h`: a permute brings the partner `q`,
//! lanes with bit `h` clear compute `v + q`, lanes with bit `h` set compute `q - v`. For
//! residues that is `q + t` with `t = m - v` on the upper lanes only (a masked subtraction) and
//! one modular addition; for floats one fused multiply–add `v · (±1) + q` by a sign vector.

use std::arch::x86_64::*;

use super::{load_store, signs, simd_butterflies};
use crate::lanes::Lanes;

/// Proof that this CPU runs AVX-512F.
#[derive(Clone, Copy, Debug)]
struct Token(());

impl Token {
    fn new() -> Option<Token> {
        crate::Isa::Avx512.is_available().then_some(Token(()))
    }
}

/// Residues modulo an odd `m < 2^31` in 16 lanes.
#[derive(Clone, Copy, Debug)]
pub struct Mod32x16 {
    m: __m512i,
    _token: Token,
}

impl Mod32x16 {
    pub fn new(m: u32) -> Option<Self> {
        let token = Token::new()?;
        // SAFETY: AVX-512F is available (token).
        Some(Mod32x16 { m: unsafe { _mm512_set1_epi32(m as i32) }, _token: token })
    }

    /// `(q + t) mod m` for `q < m`, `t <= m`: the sum is below `2m <= 2^32`, and
    /// `min(s, s - m)` (unsigned) is `s - m` exactly when `s >= m`.
    #[inline(always)]
    fn add_lazy(self, q: __m512i, t: __m512i) -> __m512i {
        // SAFETY: AVX-512F is available (token).
        unsafe {
            let s = _mm512_add_epi32(q, t);
            _mm512_min_epu32(s, _mm512_sub_epi32(s, self.m))
        }
    }

    #[inline(always)]
    fn level(self, v: __m512i, q: __m512i, upper: __mmask16) -> __m512i {
        // SAFETY: AVX-512F is available (token). `m - v` lies in 1..=m.
        unsafe { self.add_lazy(q, _mm512_mask_sub_epi32(v, upper, self.m, v)) }
    }
}

impl Lanes for Mod32x16 {
    load_store!(u32, __m512i, 16, _mm512_loadu_si512, _mm512_storeu_si512);
    /// `a + b` and `a - b` with the reductions of [`crate::ring::Mod32`].
    #[inline(always)]
    fn butterfly(self, a: __m512i, b: __m512i) -> (__m512i, __m512i) {
        // SAFETY: AVX-512F is available (token).
        unsafe {
            let s = _mm512_add_epi32(a, b);
            let d = _mm512_sub_epi32(a, b);
            (
                _mm512_min_epu32(s, _mm512_sub_epi32(s, self.m)),
                _mm512_min_epu32(d, _mm512_add_epi32(d, self.m)),
            )
        }
    }
    #[inline(always)]
    fn within(self, v: __m512i) -> __m512i {
        // SAFETY: AVX-512F is available (token).
        unsafe {
            let v = self.level(v, _mm512_shuffle_epi32::<0xB1>(v), 0xAAAA);
            let v = self.level(v, _mm512_shuffle_epi32::<0x4E>(v), 0xCCCC);
            let v = self.level(v, _mm512_shuffle_i32x4::<0xB1>(v, v), 0xF0F0);
            self.level(v, _mm512_shuffle_i32x4::<0x4E>(v, v), 0xFF00)
        }
    }
    /// The lane-wise maximum of the registers, compared with `m` once.
    #[inline(always)]
    #[allow(clippy::needless_range_loop)]
    fn all_valid<const R: usize>(self, v: &[__m512i; R]) -> bool {
        // SAFETY: AVX-512F is available (token).
        unsafe {
            let mut top = v[0];
            for i in 1..R {
                top = _mm512_max_epu32(top, v[i]);
            }
            _mm512_cmpge_epu32_mask(top, self.m) == 0
        }
    }
}
simd_butterflies!(Mod32x16, u32, "avx512f");

/// Residues modulo an odd `m < 2^63` in 8 lanes.
#[derive(Clone, Copy, Debug)]
pub struct Mod64x8 {
    m: __m512i,
    _token: Token,
}

impl Mod64x8 {
    pub fn new(m: u64) -> Option<Self> {
        let token = Token::new()?;
        // SAFETY: AVX-512F is available (token).
        Some(Mod64x8 { m: unsafe { _mm512_set1_epi64(m as i64) }, _token: token })
    }

    /// As [`Mod32x16::level`], with sums below `2m <= 2^64`.
    #[inline(always)]
    fn level(self, v: __m512i, q: __m512i, upper: __mmask8) -> __m512i {
        // SAFETY: AVX-512F is available (token).
        unsafe {
            let s = _mm512_add_epi64(q, _mm512_mask_sub_epi64(v, upper, self.m, v));
            _mm512_min_epu64(s, _mm512_sub_epi64(s, self.m))
        }
    }
}

impl Lanes for Mod64x8 {
    load_store!(u64, __m512i, 8, _mm512_loadu_si512, _mm512_storeu_si512);
    #[inline(always)]
    fn butterfly(self, a: __m512i, b: __m512i) -> (__m512i, __m512i) {
        // SAFETY: AVX-512F is available (token).
        unsafe {
            let s = _mm512_add_epi64(a, b);
            let d = _mm512_sub_epi64(a, b);
            (
                _mm512_min_epu64(s, _mm512_sub_epi64(s, self.m)),
                _mm512_min_epu64(d, _mm512_add_epi64(d, self.m)),
            )
        }
    }
    #[inline(always)]
    fn within(self, v: __m512i) -> __m512i {
        // SAFETY: AVX-512F is available (token).
        unsafe {
            let v = self.level(v, _mm512_shuffle_epi32::<0x4E>(v), 0xAA);
            let v = self.level(v, _mm512_shuffle_i64x2::<0xB1>(v, v), 0xCC);
            self.level(v, _mm512_shuffle_i64x2::<0x4E>(v, v), 0xF0)
        }
    }
    /// As for [`Mod32x16`].
    #[inline(always)]
    #[allow(clippy::needless_range_loop)]
    fn all_valid<const R: usize>(self, v: &[__m512i; R]) -> bool {
        // SAFETY: AVX-512F is available (token).
        unsafe {
            let mut top = v[0];
            for i in 1..R {
                top = _mm512_max_epu64(top, v[i]);
            }
            _mm512_cmpge_epu64_mask(top, self.m) == 0
        }
    }
}
simd_butterflies!(Mod64x8, u64, "avx512f");

/// Wrapping `u32` arithmetic in 16 lanes.
#[derive(Clone, Copy, Debug)]
pub struct Wrap32x16 {
    _token: Token,
}

impl Wrap32x16 {
    pub fn new() -> Option<Self> {
        Some(Wrap32x16 { _token: Token::new()? })
    }

    #[inline(always)]
    fn level(v: __m512i, q: __m512i, upper: __mmask16) -> __m512i {
        // SAFETY: AVX-512F is available (a value of the type exists).
        unsafe { _mm512_add_epi32(q, _mm512_mask_sub_epi32(v, upper, _mm512_setzero_si512(), v)) }
    }
}

impl Lanes for Wrap32x16 {
    load_store!(u32, __m512i, 16, _mm512_loadu_si512, _mm512_storeu_si512);
    #[inline(always)]
    fn butterfly(self, a: __m512i, b: __m512i) -> (__m512i, __m512i) {
        // SAFETY: AVX-512F is available (token).
        unsafe { (_mm512_add_epi32(a, b), _mm512_sub_epi32(a, b)) }
    }
    #[inline(always)]
    fn within(self, v: __m512i) -> __m512i {
        // SAFETY: AVX-512F is available (token).
        unsafe {
            let v = Self::level(v, _mm512_shuffle_epi32::<0xB1>(v), 0xAAAA);
            let v = Self::level(v, _mm512_shuffle_epi32::<0x4E>(v), 0xCCCC);
            let v = Self::level(v, _mm512_shuffle_i32x4::<0xB1>(v, v), 0xF0F0);
            Self::level(v, _mm512_shuffle_i32x4::<0x4E>(v, v), 0xFF00)
        }
    }
}
simd_butterflies!(Wrap32x16, u32, "avx512f");

/// Wrapping `u64` arithmetic in 8 lanes (also exact `i64` within the checked bound).
#[derive(Clone, Copy, Debug)]
pub struct Wrap64x8 {
    _token: Token,
}

impl Wrap64x8 {
    pub fn new() -> Option<Self> {
        Some(Wrap64x8 { _token: Token::new()? })
    }

    #[inline(always)]
    fn level(v: __m512i, q: __m512i, upper: __mmask8) -> __m512i {
        // SAFETY: AVX-512F is available (a value of the type exists).
        unsafe { _mm512_add_epi64(q, _mm512_mask_sub_epi64(v, upper, _mm512_setzero_si512(), v)) }
    }
}

impl Lanes for Wrap64x8 {
    load_store!(u64, __m512i, 8, _mm512_loadu_si512, _mm512_storeu_si512);
    #[inline(always)]
    fn butterfly(self, a: __m512i, b: __m512i) -> (__m512i, __m512i) {
        // SAFETY: AVX-512F is available (token).
        unsafe { (_mm512_add_epi64(a, b), _mm512_sub_epi64(a, b)) }
    }
    #[inline(always)]
    fn within(self, v: __m512i) -> __m512i {
        // SAFETY: AVX-512F is available (token).
        unsafe {
            let v = Self::level(v, _mm512_shuffle_epi32::<0x4E>(v), 0xAA);
            let v = Self::level(v, _mm512_shuffle_i64x2::<0xB1>(v, v), 0xCC);
            Self::level(v, _mm512_shuffle_i64x2::<0x4E>(v, v), 0xF0)
        }
    }
}
simd_butterflies!(Wrap64x8, u64, "avx512f");

/// `f32` in 16 lanes.
///
/// Every sum and difference is one correctly rounded operation on the textbook's operands, so the
/// results are those of the textbook loop bit for bit; half of them run on the fused
/// multiply–add units, which work beside the adders: `fma(v, ±1, q)` is `q ± v` exactly (the
/// product `±v` is exact and the sum is rounded once, signed zeros included). Each in-register
/// level is one permute and one such multiply–add by a sign vector (`+1` on the lower lanes, which
/// get `v + q`, `-1` on the upper ones, which get `q - v`); each butterfly across registers is an
/// addition and a multiply–add by `-1`.
#[derive(Clone, Copy, Debug)]
pub struct F32x16 {
    /// `1.0` in every lane, hidden from the optimiser so that `fnmadd(b, 1, a)` stays a fused
    /// operation instead of being folded back into a subtraction.
    one: __m512,
    /// The sign vectors of the four in-register levels, lowest first.
    signs: [__m512; 4],
    _token: Token,
}

impl F32x16 {
    pub fn new() -> Option<Self> {
        let token = Token::new()?;
        let s = signs::<4>(16).map(|lanes| std::hint::black_box(lanes.map(|x| x as f32)));
        // SAFETY: AVX-512F is available (token); each array holds 16 readable `f32`.
        unsafe {
            Some(F32x16 {
                one: _mm512_set1_ps(std::hint::black_box(1.0)),
                signs: [
                    _mm512_loadu_ps(s[0].as_ptr()),
                    _mm512_loadu_ps(s[1].as_ptr()),
                    _mm512_loadu_ps(s[2].as_ptr()),
                    _mm512_loadu_ps(s[3].as_ptr()),
                ],
                _token: token,
            })
        }
    }
}

impl Lanes for F32x16 {
    load_store!(f32, __m512, 16, _mm512_loadu_ps, _mm512_storeu_ps);
    #[inline(always)]
    fn butterfly(self, a: __m512, b: __m512) -> (__m512, __m512) {
        // SAFETY: AVX-512F is available (token). `-(b · 1) + a` is `a - b` rounded once.
        unsafe { (_mm512_add_ps(a, b), _mm512_fnmadd_ps(b, self.one, a)) }
    }
    #[inline(always)]
    fn within(self, v: __m512) -> __m512 {
        let [s0, s1, s2, s3] = self.signs;
        // SAFETY: AVX-512F is available (token). `v · (±1) + q` is `q ± v` rounded once.
        unsafe {
            let v = _mm512_fmadd_ps(v, s0, _mm512_permute_ps::<0xB1>(v));
            let v = _mm512_fmadd_ps(v, s1, _mm512_permute_ps::<0x4E>(v));
            let v = _mm512_fmadd_ps(v, s2, _mm512_shuffle_f32x4::<0xB1>(v, v));
            _mm512_fmadd_ps(v, s3, _mm512_shuffle_f32x4::<0x4E>(v, v))
        }
    }
}
simd_butterflies!(F32x16, f32, "avx512f");

/// `f64` in 8 lanes, as [`F32x16`].
#[derive(Clone, Copy, Debug)]
pub struct F64x8 {
    one: __m512d,
    signs: [__m512d; 3],
    _token: Token,
}

impl F64x8 {
    pub fn new() -> Option<Self> {
        let token = Token::new()?;
        let s = signs::<3>(8).map(std::hint::black_box);
        // SAFETY: AVX-512F is available (token); each array holds at least 8 readable `f64`.
        unsafe {
            Some(F64x8 {
                one: _mm512_set1_pd(std::hint::black_box(1.0)),
                signs: [
                    _mm512_loadu_pd(s[0].as_ptr()),
                    _mm512_loadu_pd(s[1].as_ptr()),
                    _mm512_loadu_pd(s[2].as_ptr()),
                ],
                _token: token,
            })
        }
    }
}

impl Lanes for F64x8 {
    load_store!(f64, __m512d, 8, _mm512_loadu_pd, _mm512_storeu_pd);
    #[inline(always)]
    fn butterfly(self, a: __m512d, b: __m512d) -> (__m512d, __m512d) {
        // SAFETY: AVX-512F is available (token). `-(b · 1) + a` is `a - b` rounded once.
        unsafe { (_mm512_add_pd(a, b), _mm512_fnmadd_pd(b, self.one, a)) }
    }
    #[inline(always)]
    fn within(self, v: __m512d) -> __m512d {
        let [s0, s1, s2] = self.signs;
        // SAFETY: AVX-512F is available (token). `v · (±1) + q` is `q ± v` rounded once.
        unsafe {
            let v = _mm512_fmadd_pd(v, s0, _mm512_permute_pd::<0x55>(v));
            let v = _mm512_fmadd_pd(v, s1, _mm512_shuffle_f64x2::<0xB1>(v, v));
            _mm512_fmadd_pd(v, s2, _mm512_shuffle_f64x2::<0x4E>(v, v))
        }
    }
}
simd_butterflies!(F64x8, f64, "avx512f");

// The zeta and Möbius butterflies (`crate::sets`): the ring's addition and subtraction
// as in the butterflies above, the partner permutes of `within`, and masked blends.

use crate::lanes::{Kind, SetLanes};

/// Lane `i ^ 2^level` of 16 × 32 bits (the token proves AVX-512F).
#[inline(always)]
fn partner32(_: Token, v: __m512i, level: u32) -> __m512i {
    // SAFETY: AVX-512F is available (token).
    unsafe {
        match level {
            0 => _mm512_shuffle_epi32::<0xB1>(v),
            1 => _mm512_shuffle_epi32::<0x4E>(v),
            2 => _mm512_shuffle_i32x4::<0xB1>(v, v),
            _ => _mm512_shuffle_i32x4::<0x4E>(v, v),
        }
    }
}

/// The lanes of 16 with bit `level` of their index set.
#[inline(always)]
fn upper16(level: u32) -> __mmask16 {
    [0xAAAA, 0xCCCC, 0xF0F0, 0xFF00][level as usize & 3]
}

/// Lane `i ^ 2^level` of 8 × 64 bits, as [`partner32`].
#[inline(always)]
fn partner64(_: Token, v: __m512i, level: u32) -> __m512i {
    // SAFETY: AVX-512F is available (token).
    unsafe {
        match level {
            0 => _mm512_shuffle_epi32::<0x4E>(v),
            1 => _mm512_shuffle_i64x2::<0xB1>(v, v),
            _ => _mm512_shuffle_i64x2::<0x4E>(v, v),
        }
    }
}

/// The lanes of 8 with bit `level` of their index set.
#[inline(always)]
fn upper8(level: u32) -> __mmask8 {
    [0xAA, 0xCC, 0xF0][level as usize % 3]
}

impl SetLanes for Mod32x16 {
    #[inline(always)]
    fn add(self, a: __m512i, b: __m512i) -> __m512i {
        self.add_lazy(a, b)
    }
    #[inline(always)]
    fn sub(self, a: __m512i, b: __m512i) -> __m512i {
        // SAFETY: AVX-512F is available (token).
        unsafe {
            let d = _mm512_sub_epi32(a, b);
            _mm512_min_epu32(d, _mm512_add_epi32(d, self.m))
        }
    }
    #[inline(always)]
    fn partner(self, v: __m512i, level: u32) -> __m512i {
        partner32(self._token, v, level)
    }
    #[inline(always)]
    fn select(self, level: u32, lower: __m512i, upper: __m512i) -> __m512i {
        // SAFETY: AVX-512F is available (token).
        unsafe { _mm512_mask_blend_epi32(upper16(level), lower, upper) }
    }
}

impl SetLanes for Mod64x8 {
    #[inline(always)]
    fn add(self, a: __m512i, b: __m512i) -> __m512i {
        // SAFETY: AVX-512F is available (token). `a + b < 2m < 2^64`.
        unsafe {
            let s = _mm512_add_epi64(a, b);
            _mm512_min_epu64(s, _mm512_sub_epi64(s, self.m))
        }
    }
    #[inline(always)]
    fn sub(self, a: __m512i, b: __m512i) -> __m512i {
        // SAFETY: AVX-512F is available (token).
        unsafe {
            let d = _mm512_sub_epi64(a, b);
            _mm512_min_epu64(d, _mm512_add_epi64(d, self.m))
        }
    }
    #[inline(always)]
    fn partner(self, v: __m512i, level: u32) -> __m512i {
        partner64(self._token, v, level)
    }
    #[inline(always)]
    fn select(self, level: u32, lower: __m512i, upper: __m512i) -> __m512i {
        // SAFETY: AVX-512F is available (token).
        unsafe { _mm512_mask_blend_epi64(upper8(level), lower, upper) }
    }
}

impl SetLanes for Wrap32x16 {
    #[inline(always)]
    fn add(self, a: __m512i, b: __m512i) -> __m512i {
        // SAFETY: AVX-512F is available (token).
        unsafe { _mm512_add_epi32(a, b) }
    }
    #[inline(always)]
    fn sub(self, a: __m512i, b: __m512i) -> __m512i {
        // SAFETY: AVX-512F is available (token).
        unsafe { _mm512_sub_epi32(a, b) }
    }
    #[inline(always)]
    fn partner(self, v: __m512i, level: u32) -> __m512i {
        partner32(self._token, v, level)
    }
    #[inline(always)]
    fn select(self, level: u32, lower: __m512i, upper: __m512i) -> __m512i {
        // SAFETY: AVX-512F is available (token).
        unsafe { _mm512_mask_blend_epi32(upper16(level), lower, upper) }
    }
}

impl SetLanes for Wrap64x8 {
    #[inline(always)]
    fn add(self, a: __m512i, b: __m512i) -> __m512i {
        // SAFETY: AVX-512F is available (token).
        unsafe { _mm512_add_epi64(a, b) }
    }
    #[inline(always)]
    fn sub(self, a: __m512i, b: __m512i) -> __m512i {
        // SAFETY: AVX-512F is available (token).
        unsafe { _mm512_sub_epi64(a, b) }
    }
    #[inline(always)]
    fn partner(self, v: __m512i, level: u32) -> __m512i {
        partner64(self._token, v, level)
    }
    #[inline(always)]
    fn select(self, level: u32, lower: __m512i, upper: __m512i) -> __m512i {
        // SAFETY: AVX-512F is available (token).
        unsafe { _mm512_mask_blend_epi64(upper8(level), lower, upper) }
    }
}

impl SetLanes for F32x16 {
    #[inline(always)]
    fn add(self, a: __m512, b: __m512) -> __m512 {
        // SAFETY: AVX-512F is available (token).
        unsafe { _mm512_add_ps(a, b) }
    }
    #[inline(always)]
    fn sub(self, a: __m512, b: __m512) -> __m512 {
        // SAFETY: AVX-512F is available (token).
        unsafe { _mm512_sub_ps(a, b) }
    }
    #[inline(always)]
    fn partner(self, v: __m512, level: u32) -> __m512 {
        // SAFETY: AVX-512F is available (token).
        unsafe {
            match level {
                0 => _mm512_permute_ps::<0xB1>(v),
                1 => _mm512_permute_ps::<0x4E>(v),
                2 => _mm512_shuffle_f32x4::<0xB1>(v, v),
                _ => _mm512_shuffle_f32x4::<0x4E>(v, v),
            }
        }
    }
    #[inline(always)]
    fn select(self, level: u32, lower: __m512, upper: __m512) -> __m512 {
        // SAFETY: AVX-512F is available (token).
        unsafe { _mm512_mask_blend_ps(upper16(level), lower, upper) }
    }
}

impl SetLanes for F64x8 {
    #[inline(always)]
    fn add(self, a: __m512d, b: __m512d) -> __m512d {
        // SAFETY: AVX-512F is available (token).
        unsafe { _mm512_add_pd(a, b) }
    }
    #[inline(always)]
    fn sub(self, a: __m512d, b: __m512d) -> __m512d {
        // SAFETY: AVX-512F is available (token).
        unsafe { _mm512_sub_pd(a, b) }
    }
    #[inline(always)]
    fn partner(self, v: __m512d, level: u32) -> __m512d {
        // SAFETY: AVX-512F is available (token).
        unsafe {
            match level {
                0 => _mm512_permute_pd::<0x55>(v),
                1 => _mm512_shuffle_f64x2::<0xB1>(v, v),
                _ => _mm512_shuffle_f64x2::<0x4E>(v, v),
            }
        }
    }
    #[inline(always)]
    fn select(self, level: u32, lower: __m512d, upper: __m512d) -> __m512d {
        // SAFETY: AVX-512F is available (token).
        unsafe { _mm512_mask_blend_pd(upper8(level), lower, upper) }
    }
}

simd_butterflies!(const K, Kind<Mod32x16, K>, u32, "avx512f");
simd_butterflies!(const K, Kind<Mod64x8, K>, u64, "avx512f");
simd_butterflies!(const K, Kind<Wrap32x16, K>, u32, "avx512f");
simd_butterflies!(const K, Kind<Wrap64x8, K>, u64, "avx512f");
simd_butterflies!(const K, Kind<F32x16, K>, f32, "avx512f");
simd_butterflies!(const K, Kind<F64x8, K>, f64, "avx512f");

crate::x86::short_chunks!(F32x16, f32, "avx512f");
crate::x86::short_chunks!(F64x8, f64, "avx512f");
