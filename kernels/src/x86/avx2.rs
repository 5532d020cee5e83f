//! AVX2 registers: 8 × u32 / f32 or 4 × u64 / f64 lanes, 16 registers.
//!
//! Same scheme as the AVX-512 backend; without masked operations the upper lanes of the integer
//! types are chosen by a constant blend (the float types multiply by a sign vector, as there).
//! AVX2 lacks unsigned 64-bit compares and minimum, so the 64-bit modular
//! reductions compare with the sign bit flipped.

use std::arch::x86_64::*;

use super::{load_store, signs, simd_butterflies};
use crate::lanes::Lanes;

/// Proof that this CPU runs AVX2.
#[derive(Clone, Copy, Debug)]
struct Token(());

impl Token {
    fn new() -> Option<Token> {
        crate::Isa::Avx2.is_available().then_some(Token(()))
    }
}

/// Residues modulo an odd `m < 2^31` in 8 lanes.
#[derive(Clone, Copy, Debug)]
pub struct Mod32x8 {
    m: __m256i,
    _token: Token,
}

impl Mod32x8 {
    pub fn new(m: u32) -> Option<Self> {
        let token = Token::new()?;
        // SAFETY: AVX2 is available (token).
        Some(Mod32x8 { m: unsafe { _mm256_set1_epi32(m as i32) }, _token: token })
    }

    /// `(q + t) mod m` for `q < m`, `t <= m` (see the AVX-512 backend for the bound).
    #[inline(always)]
    fn add_lazy(self, q: __m256i, t: __m256i) -> __m256i {
        // SAFETY: AVX2 is available (token).
        unsafe {
            let s = _mm256_add_epi32(q, t);
            _mm256_min_epu32(s, _mm256_sub_epi32(s, self.m))
        }
    }
}

impl Lanes for Mod32x8 {
    load_store!(u32, __m256i, 8, _mm256_loadu_si256, _mm256_storeu_si256);
    #[inline(always)]
    fn butterfly(self, a: __m256i, b: __m256i) -> (__m256i, __m256i) {
        // SAFETY: AVX2 is available (token).
        unsafe {
            let s = _mm256_add_epi32(a, b);
            let d = _mm256_sub_epi32(a, b);
            (
                _mm256_min_epu32(s, _mm256_sub_epi32(s, self.m)),
                _mm256_min_epu32(d, _mm256_add_epi32(d, self.m)),
            )
        }
    }
    #[inline(always)]
    fn within(self, v: __m256i) -> __m256i {
        // SAFETY: AVX2 is available (token). Upper lanes take `m - v` (in 1..=m).
        unsafe {
            let q = _mm256_shuffle_epi32::<0xB1>(v);
            let v = self.add_lazy(q, _mm256_blend_epi32::<0xAA>(v, _mm256_sub_epi32(self.m, v)));
            let q = _mm256_shuffle_epi32::<0x4E>(v);
            let v = self.add_lazy(q, _mm256_blend_epi32::<0xCC>(v, _mm256_sub_epi32(self.m, v)));
            let q = _mm256_permute2x128_si256::<0x01>(v, v);
            self.add_lazy(q, _mm256_blend_epi32::<0xF0>(v, _mm256_sub_epi32(self.m, v)))
        }
    }
    /// The lane-wise maximum `t` of the registers: all are below `m` exactly when
    /// `max(t, m - 1) == m - 1` in every lane.
    #[inline(always)]
    #[allow(clippy::needless_range_loop)]
    fn all_valid<const R: usize>(self, v: &[__m256i; R]) -> bool {
        // SAFETY: AVX2 is available (token).
        unsafe {
            let mut top = v[0];
            for i in 1..R {
                top = _mm256_max_epu32(top, v[i]);
            }
            let last = _mm256_sub_epi32(self.m, _mm256_set1_epi32(1));
            _mm256_movemask_epi8(_mm256_cmpeq_epi32(_mm256_max_epu32(top, last), last)) == -1
        }
    }
}
simd_butterflies!(Mod32x8, u32, "avx2");

/// Residues modulo an odd `m < 2^63` in 4 lanes.
#[derive(Clone, Copy, Debug)]
pub struct Mod64x4 {
    m: __m256i,
    /// `m - 1` with the sign bit flipped, for unsigned comparisons.
    m_minus_one_biased: __m256i,
    _token: Token,
}

impl Mod64x4 {
    pub fn new(m: u64) -> Option<Self> {
        let token = Token::new()?;
        // SAFETY: AVX2 is available (token).
        unsafe {
            Some(Mod64x4 {
                m: _mm256_set1_epi64x(m as i64),
                m_minus_one_biased: _mm256_set1_epi64x((m - 1) as i64 ^ i64::MIN),
                _token: token,
            })
        }
    }

    /// `s mod m` for `s < 2m`: subtract `m` where `s > m - 1` (unsigned, via the biased signed
    /// compare).
    #[inline(always)]
    fn reduce_once(self, s: __m256i) -> __m256i {
        // SAFETY: AVX2 is available (token).
        unsafe {
            let biased = _mm256_xor_si256(s, _mm256_set1_epi64x(i64::MIN));
            let ge = _mm256_cmpgt_epi64(biased, self.m_minus_one_biased);
            _mm256_sub_epi64(s, _mm256_and_si256(ge, self.m))
        }
    }

    /// `a - b mod m`: add `m` back where `a < b` (unsigned).
    #[inline(always)]
    fn sub_mod(self, a: __m256i, b: __m256i) -> __m256i {
        // SAFETY: AVX2 is available (token).
        unsafe {
            let bias = _mm256_set1_epi64x(i64::MIN);
            let borrow = _mm256_cmpgt_epi64(_mm256_xor_si256(b, bias), _mm256_xor_si256(a, bias));
            _mm256_add_epi64(_mm256_sub_epi64(a, b), _mm256_and_si256(borrow, self.m))
        }
    }
}

impl Lanes for Mod64x4 {
    load_store!(u64, __m256i, 4, _mm256_loadu_si256, _mm256_storeu_si256);
    #[inline(always)]
    fn butterfly(self, a: __m256i, b: __m256i) -> (__m256i, __m256i) {
        // SAFETY: AVX2 is available (token). `a + b < 2m`.
        unsafe { (self.reduce_once(_mm256_add_epi64(a, b)), self.sub_mod(a, b)) }
    }
    #[inline(always)]
    fn within(self, v: __m256i) -> __m256i {
        // SAFETY: AVX2 is available (token). Upper lanes take `m - v` (in 1..=m), so sums stay
        // below 2m.
        unsafe {
            let q = _mm256_shuffle_epi32::<0x4E>(v);
            let t = _mm256_blend_epi32::<0xCC>(v, _mm256_sub_epi64(self.m, v));
            let v = self.reduce_once(_mm256_add_epi64(q, t));
            let q = _mm256_permute2x128_si256::<0x01>(v, v);
            let t = _mm256_blend_epi32::<0xF0>(v, _mm256_sub_epi64(self.m, v));
            self.reduce_once(_mm256_add_epi64(q, t))
        }
    }
    /// A lane `x` is invalid when `x >= 2^63` (its sign bit) or `x > m - 1` as signed numbers
    /// (`m - 1 < 2^63`, so the signed compare is exact for the other lanes): the sign bits of
    /// `x | (x > m - 1)`, OR-ed over the registers, are all clear exactly when every lane is
    /// valid.
    #[inline(always)]
    #[allow(clippy::needless_range_loop)]
    fn all_valid<const R: usize>(self, v: &[__m256i; R]) -> bool {
        // SAFETY: AVX2 is available (token).
        unsafe {
            let last = _mm256_sub_epi64(self.m, _mm256_set1_epi64x(1));
            let mut bad = _mm256_setzero_si256();
            for i in 0..R {
                bad = _mm256_or_si256(bad, _mm256_or_si256(v[i], _mm256_cmpgt_epi64(v[i], last)));
            }
            _mm256_movemask_pd(_mm256_castsi256_pd(bad)) == 0
        }
    }
}
simd_butterflies!(Mod64x4, u64, "avx2");

/// Wrapping `u32` arithmetic in 8 lanes.
#[derive(Clone, Copy, Debug)]
pub struct Wrap32x8 {
    _token: Token,
}

impl Wrap32x8 {
    pub fn new() -> Option<Self> {
        Some(Wrap32x8 { _token: Token::new()? })
    }
}

impl Lanes for Wrap32x8 {
    load_store!(u32, __m256i, 8, _mm256_loadu_si256, _mm256_storeu_si256);
    #[inline(always)]
    fn butterfly(self, a: __m256i, b: __m256i) -> (__m256i, __m256i) {
        // SAFETY: AVX2 is available (token).
        unsafe { (_mm256_add_epi32(a, b), _mm256_sub_epi32(a, b)) }
    }
    #[inline(always)]
    fn within(self, v: __m256i) -> __m256i {
        // SAFETY: AVX2 is available (token).
        unsafe {
            let z = _mm256_setzero_si256();
            let q = _mm256_shuffle_epi32::<0xB1>(v);
            let v = _mm256_add_epi32(q, _mm256_blend_epi32::<0xAA>(v, _mm256_sub_epi32(z, v)));
            let q = _mm256_shuffle_epi32::<0x4E>(v);
            let v = _mm256_add_epi32(q, _mm256_blend_epi32::<0xCC>(v, _mm256_sub_epi32(z, v)));
            let q = _mm256_permute2x128_si256::<0x01>(v, v);
            _mm256_add_epi32(q, _mm256_blend_epi32::<0xF0>(v, _mm256_sub_epi32(z, v)))
        }
    }
}
simd_butterflies!(Wrap32x8, u32, "avx2");

/// Wrapping `u64` arithmetic in 4 lanes (also exact `i64` within the checked bound).
#[derive(Clone, Copy, Debug)]
pub struct Wrap64x4 {
    _token: Token,
}

impl Wrap64x4 {
    pub fn new() -> Option<Self> {
        Some(Wrap64x4 { _token: Token::new()? })
    }
}

impl Lanes for Wrap64x4 {
    load_store!(u64, __m256i, 4, _mm256_loadu_si256, _mm256_storeu_si256);
    #[inline(always)]
    fn butterfly(self, a: __m256i, b: __m256i) -> (__m256i, __m256i) {
        // SAFETY: AVX2 is available (token).
        unsafe { (_mm256_add_epi64(a, b), _mm256_sub_epi64(a, b)) }
    }
    #[inline(always)]
    fn within(self, v: __m256i) -> __m256i {
        // SAFETY: AVX2 is available (token).
        unsafe {
            let z = _mm256_setzero_si256();
            let q = _mm256_shuffle_epi32::<0x4E>(v);
            let v = _mm256_add_epi64(q, _mm256_blend_epi32::<0xCC>(v, _mm256_sub_epi64(z, v)));
            let q = _mm256_permute2x128_si256::<0x01>(v, v);
            _mm256_add_epi64(q, _mm256_blend_epi32::<0xF0>(v, _mm256_sub_epi64(z, v)))
        }
    }
}
simd_butterflies!(Wrap64x4, u64, "avx2");

/// `f32` in 8 lanes, with the fused multiply–adds of the AVX-512 backend (see its `F32x16`):
/// every sum and difference is the textbook's, rounded once, and half of them run on the
/// multiply–add units. The float kernels need FMA besides AVX2 (every CPU with AVX2 from Intel
/// and AMD has it); without it `new` returns `None` and the portable kernel runs instead.
#[derive(Clone, Copy, Debug)]
pub struct F32x8 {
    /// `1.0` in every lane, hidden from the optimiser so that `fnmadd(b, 1, a)` stays fused.
    one: __m256,
    /// The sign vectors of the three in-register levels, lowest first.
    signs: [__m256; 3],
    _token: Token,
}

impl F32x8 {
    pub fn new() -> Option<Self> {
        let token = Token::new()?;
        let s = signs::<3>(8).map(|lanes| std::hint::black_box(lanes.map(|x| x as f32)));
        // SAFETY: AVX is available (token); each array holds at least 8 readable `f32`.
        unsafe {
            Some(F32x8 {
                one: _mm256_set1_ps(std::hint::black_box(1.0)),
                signs: [
                    _mm256_loadu_ps(s[0].as_ptr()),
                    _mm256_loadu_ps(s[1].as_ptr()),
                    _mm256_loadu_ps(s[2].as_ptr()),
                ],
                _token: token,
            })
        }
    }
}

impl Lanes for F32x8 {
    load_store!(f32, __m256, 8, _mm256_loadu_ps, _mm256_storeu_ps);
    #[inline(always)]
    fn butterfly(self, a: __m256, b: __m256) -> (__m256, __m256) {
        // SAFETY: AVX2 and FMA are available (token). `-(b · 1) + a` is `a - b` rounded once.
        unsafe { (_mm256_add_ps(a, b), _mm256_fnmadd_ps(b, self.one, a)) }
    }
    #[inline(always)]
    fn within(self, v: __m256) -> __m256 {
        let [s0, s1, s2] = self.signs;
        // SAFETY: AVX2 and FMA are available (token). `v · (±1) + q` is `q ± v` rounded once.
        unsafe {
            let v = _mm256_fmadd_ps(v, s0, _mm256_permute_ps::<0xB1>(v));
            let v = _mm256_fmadd_ps(v, s1, _mm256_permute_ps::<0x4E>(v));
            _mm256_fmadd_ps(v, s2, _mm256_permute2f128_ps::<0x01>(v, v))
        }
    }
}
simd_butterflies!(F32x8, f32, "avx2,fma");

/// `f64` in 4 lanes, as [`F32x8`].
#[derive(Clone, Copy, Debug)]
pub struct F64x4 {
    one: __m256d,
    signs: [__m256d; 2],
    _token: Token,
}

impl F64x4 {
    pub fn new() -> Option<Self> {
        let token = Token::new()?;
        let s = signs::<2>(4).map(std::hint::black_box);
        // SAFETY: AVX is available (token); each array holds at least 4 readable `f64`.
        unsafe {
            Some(F64x4 {
                one: _mm256_set1_pd(std::hint::black_box(1.0)),
                signs: [_mm256_loadu_pd(s[0].as_ptr()), _mm256_loadu_pd(s[1].as_ptr())],
                _token: token,
            })
        }
    }
}

impl Lanes for F64x4 {
    load_store!(f64, __m256d, 4, _mm256_loadu_pd, _mm256_storeu_pd);
    #[inline(always)]
    fn butterfly(self, a: __m256d, b: __m256d) -> (__m256d, __m256d) {
        // SAFETY: AVX2 and FMA are available (token). `-(b · 1) + a` is `a - b` rounded once.
        unsafe { (_mm256_add_pd(a, b), _mm256_fnmadd_pd(b, self.one, a)) }
    }
    #[inline(always)]
    fn within(self, v: __m256d) -> __m256d {
        let [s0, s1] = self.signs;
        // SAFETY: AVX2 and FMA are available (token). `v · (±1) + q` is `q ± v` rounded once.
        unsafe {
            let v = _mm256_fmadd_pd(v, s0, _mm256_permute_pd::<0b0101>(v));
            _mm256_fmadd_pd(v, s1, _mm256_permute2f128_pd::<0x01>(v, v))
        }
    }
}
simd_butterflies!(F64x4, f64, "avx2,fma");

// The zeta and Möbius butterflies (`crate::sets`): the ring's addition and subtraction
// as in the butterflies above, the partner shuffles of `within`, and constant blends.

use crate::lanes::{Kind, SetLanes};

impl SetLanes for Mod32x8 {
    #[inline(always)]
    fn add(self, a: __m256i, b: __m256i) -> __m256i {
        // SAFETY: AVX2 is available (token). `a + b < 2m <= 2^32`.
        unsafe {
            let s = _mm256_add_epi32(a, b);
            _mm256_min_epu32(s, _mm256_sub_epi32(s, self.m))
        }
    }
    #[inline(always)]
    fn sub(self, a: __m256i, b: __m256i) -> __m256i {
        // SAFETY: AVX2 is available (token).
        unsafe {
            let d = _mm256_sub_epi32(a, b);
            _mm256_min_epu32(d, _mm256_add_epi32(d, self.m))
        }
    }
    #[inline(always)]
    fn partner(self, v: __m256i, level: u32) -> __m256i {
        partner32(self._token, v, level)
    }
    #[inline(always)]
    fn select(self, level: u32, lower: __m256i, upper: __m256i) -> __m256i {
        select32(self._token, level, lower, upper)
    }
}

impl SetLanes for Mod64x4 {
    #[inline(always)]
    fn add(self, a: __m256i, b: __m256i) -> __m256i {
        // SAFETY: AVX2 is available (token). `a + b < 2m < 2^64`.
        self.reduce_once(unsafe { _mm256_add_epi64(a, b) })
    }
    #[inline(always)]
    fn sub(self, a: __m256i, b: __m256i) -> __m256i {
        self.sub_mod(a, b)
    }
    #[inline(always)]
    fn partner(self, v: __m256i, level: u32) -> __m256i {
        partner64(self._token, v, level)
    }
    #[inline(always)]
    fn select(self, level: u32, lower: __m256i, upper: __m256i) -> __m256i {
        select64(self._token, level, lower, upper)
    }
}

impl SetLanes for Wrap32x8 {
    #[inline(always)]
    fn add(self, a: __m256i, b: __m256i) -> __m256i {
        // SAFETY: AVX2 is available (token).
        unsafe { _mm256_add_epi32(a, b) }
    }
    #[inline(always)]
    fn sub(self, a: __m256i, b: __m256i) -> __m256i {
        // SAFETY: AVX2 is available (token).
        unsafe { _mm256_sub_epi32(a, b) }
    }
    #[inline(always)]
    fn partner(self, v: __m256i, level: u32) -> __m256i {
        partner32(self._token, v, level)
    }
    #[inline(always)]
    fn select(self, level: u32, lower: __m256i, upper: __m256i) -> __m256i {
        select32(self._token, level, lower, upper)
    }
}

impl SetLanes for Wrap64x4 {
    #[inline(always)]
    fn add(self, a: __m256i, b: __m256i) -> __m256i {
        // SAFETY: AVX2 is available (token).
        unsafe { _mm256_add_epi64(a, b) }
    }
    #[inline(always)]
    fn sub(self, a: __m256i, b: __m256i) -> __m256i {
        // SAFETY: AVX2 is available (token).
        unsafe { _mm256_sub_epi64(a, b) }
    }
    #[inline(always)]
    fn partner(self, v: __m256i, level: u32) -> __m256i {
        partner64(self._token, v, level)
    }
    #[inline(always)]
    fn select(self, level: u32, lower: __m256i, upper: __m256i) -> __m256i {
        select64(self._token, level, lower, upper)
    }
}

impl SetLanes for F32x8 {
    #[inline(always)]
    fn add(self, a: __m256, b: __m256) -> __m256 {
        // SAFETY: AVX2 is available (token).
        unsafe { _mm256_add_ps(a, b) }
    }
    #[inline(always)]
    fn sub(self, a: __m256, b: __m256) -> __m256 {
        // SAFETY: AVX2 is available (token).
        unsafe { _mm256_sub_ps(a, b) }
    }
    #[inline(always)]
    fn partner(self, v: __m256, level: u32) -> __m256 {
        // SAFETY: AVX2 is available (token).
        unsafe {
            match level {
                0 => _mm256_permute_ps::<0xB1>(v),
                1 => _mm256_permute_ps::<0x4E>(v),
                _ => _mm256_permute2f128_ps::<0x01>(v, v),
            }
        }
    }
    #[inline(always)]
    fn select(self, level: u32, lower: __m256, upper: __m256) -> __m256 {
        // SAFETY: AVX2 is available (token).
        unsafe {
            match level {
                0 => _mm256_blend_ps::<0xAA>(lower, upper),
                1 => _mm256_blend_ps::<0xCC>(lower, upper),
                _ => _mm256_blend_ps::<0xF0>(lower, upper),
            }
        }
    }
}

impl SetLanes for F64x4 {
    #[inline(always)]
    fn add(self, a: __m256d, b: __m256d) -> __m256d {
        // SAFETY: AVX2 is available (token).
        unsafe { _mm256_add_pd(a, b) }
    }
    #[inline(always)]
    fn sub(self, a: __m256d, b: __m256d) -> __m256d {
        // SAFETY: AVX2 is available (token).
        unsafe { _mm256_sub_pd(a, b) }
    }
    #[inline(always)]
    fn partner(self, v: __m256d, level: u32) -> __m256d {
        // SAFETY: AVX2 is available (token).
        unsafe {
            match level {
                0 => _mm256_permute_pd::<0b0101>(v),
                _ => _mm256_permute2f128_pd::<0x01>(v, v),
            }
        }
    }
    #[inline(always)]
    fn select(self, level: u32, lower: __m256d, upper: __m256d) -> __m256d {
        // SAFETY: AVX2 is available (token).
        unsafe {
            match level {
                0 => _mm256_blend_pd::<0b1010>(lower, upper),
                _ => _mm256_blend_pd::<0b1100>(lower, upper),
            }
        }
    }
}

/// Lane `i ^ 2^level` of 8 × 32 bits (the token proves AVX2).
#[inline(always)]
fn partner32(_: Token, v: __m256i, level: u32) -> __m256i {
    // SAFETY: AVX2 is available (token).
    unsafe {
        match level {
            0 => _mm256_shuffle_epi32::<0xB1>(v),
            1 => _mm256_shuffle_epi32::<0x4E>(v),
            _ => _mm256_permute2x128_si256::<0x01>(v, v),
        }
    }
}

/// `upper` in the lanes of 8 × 32 bits with bit `level` set, as [`partner32`].
#[inline(always)]
fn select32(_: Token, level: u32, lower: __m256i, upper: __m256i) -> __m256i {
    // SAFETY: AVX2 is available (token).
    unsafe {
        match level {
            0 => _mm256_blend_epi32::<0xAA>(lower, upper),
            1 => _mm256_blend_epi32::<0xCC>(lower, upper),
            _ => _mm256_blend_epi32::<0xF0>(lower, upper),
        }
    }
}

/// Lane `i ^ 2^level` of 4 × 64 bits, as [`partner32`].
#[inline(always)]
fn partner64(_: Token, v: __m256i, level: u32) -> __m256i {
    // SAFETY: AVX2 is available (token).
    unsafe {
        match level {
            0 => _mm256_shuffle_epi32::<0x4E>(v),
            _ => _mm256_permute2x128_si256::<0x01>(v, v),
        }
    }
}

/// `upper` in the lanes of 4 × 64 bits with bit `level` set, as [`partner32`].
#[inline(always)]
fn select64(_: Token, level: u32, lower: __m256i, upper: __m256i) -> __m256i {
    // SAFETY: AVX2 is available (token).
    unsafe {
        match level {
            0 => _mm256_blend_epi32::<0xCC>(lower, upper),
            _ => _mm256_blend_epi32::<0xF0>(lower, upper),
        }
    }
}

simd_butterflies!(const K, Kind<Mod32x8, K>, u32, "avx2");
simd_butterflies!(const K, Kind<Mod64x4, K>, u64, "avx2");
simd_butterflies!(const K, Kind<Wrap32x8, K>, u32, "avx2");
simd_butterflies!(const K, Kind<Wrap64x4, K>, u64, "avx2");
simd_butterflies!(const K, Kind<F32x8, K>, f32, "avx2,fma");
simd_butterflies!(const K, Kind<F64x4, K>, f64, "avx2,fma");

crate::x86::short_chunks!(F32x8, f32, "avx2,fma");
crate::x86::short_chunks!(F64x4, f64, "avx2,fma");
