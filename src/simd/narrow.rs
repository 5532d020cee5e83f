//! Storage narrower than the arithmetic (`f16` and `bf16` held in memory, `f32` in registers),
//! and the last pass of the Hadamard transforms of lengths `m·2^k`: the dense order-`m` matrix
//! across the `m` blocks of a row, the scale, and the one rounding to the storage type, in one
//! pass over the row.
//!
//! Conversions: `f16` by `vcvtph2ps`/`vcvtps2ph` (AVX-512F, or AVX2 with F16C), rounding to
//! nearest even; `bf16` by shifts (a `bf16` is the top half of an `f32`), rounding to nearest
//! even on the way back (`x + 0x7FFF + lsb`, then the top half), NaN kept a quiet NaN. The
//! scalar path converts with the `half` crate, which rounds the same way: every backend gives
//! the same bits (NaN payloads aside).
//!
//! The dense pass computes `y_a = scale · Σ_c h[a][c] · x_c` with `h[a][c] = ±1` as
//! `±scale · ((S − L_a) − L_a)`, where `S = Σ_c x_c` (once per column, ascending `c`) and `L_a`
//! the sum over the shorter of row `a`'s lists of negative and positive columns (see [`Signs`]):
//! at most half the additions of the plain product, each rounded once, then one product by
//! `±scale`: the same operations in the same order on every backend. (`2·L_a` is never formed:
//! it could overflow where the result does not.)
//! Loops index the fixed-size register arrays, as in [`super::lanes`] (LLVM unrolls them in every
//! build).
#![allow(clippy::needless_range_loop)]

use half::{bf16, f16};

use super::Backend;

/// The largest order of the dense pass.
pub(crate) const MAX_ORDER: usize = 40;

/// The signs of a square matrix of `±1` of order `m <= MAX_ORDER`, row by row as the shorter
/// of its lists of negative and positive columns: `h_a · x = ±((S − L_a) − L_a)` with `S` the sum of
/// every `x_c` and `L_a` the sum over the list (the sign `−` for a list of positive columns).
/// Every list is padded to one length `k` (at least 1) with the index `m`, a zero: the same
/// number of additions for every row, so that the loop over a row is predicted.
#[derive(Clone, Debug)]
pub(crate) struct Signs {
    m: usize,
    k: usize,
    /// Row `a`'s list, ascending, then `m` up to `k` entries.
    list: [[u8; MAX_ORDER]; MAX_ORDER],
    /// Whether row `a`'s list holds its positive columns (the result is then negated).
    negate: [bool; MAX_ORDER],
}

impl Signs {
    /// The signs of `h` (`m · m` entries `±1`, row by row).
    pub(crate) fn new(h: &[f32], m: usize) -> Signs {
        assert!(m <= MAX_ORDER && h.len() == m * m);
        let mut signs =
            Signs { m, k: 1, list: [[m as u8; MAX_ORDER]; MAX_ORDER], negate: [false; MAX_ORDER] };
        for a in 0..m {
            let row = &h[a * m..(a + 1) * m];
            let negatives = row.iter().filter(|&&v| v < 0.0).count();
            let negate = 2 * negatives > m;
            signs.negate[a] = negate;
            let mut count = 0;
            for (c, &v) in row.iter().enumerate() {
                if (v < 0.0) != negate {
                    signs.list[a][count] = c as u8;
                    count += 1;
                }
            }
            signs.k = signs.k.max(count);
        }
        signs
    }
}

/// Registers of `f32` with loads and stores from each storage type.
pub(crate) trait Wide: Copy {
    /// The register type.
    type V: Copy;
    /// Lanes per register.
    const WIDTH: usize;
    /// `WIDTH` values from `p`.
    ///
    /// # Safety
    /// `p..p + WIDTH` readable.
    unsafe fn load(self, p: *const f32) -> Self::V;
    /// # Safety
    /// `p..p + WIDTH` writable.
    unsafe fn store(self, p: *mut f32, v: Self::V);
    /// # Safety
    /// `p..p + WIDTH` readable.
    unsafe fn load_f16(self, p: *const f16) -> Self::V;
    /// Rounded to nearest even.
    ///
    /// # Safety
    /// `p..p + WIDTH` writable.
    unsafe fn store_f16(self, p: *mut f16, v: Self::V);
    /// # Safety
    /// `p..p + WIDTH` readable.
    unsafe fn load_bf16(self, p: *const bf16) -> Self::V;
    /// Rounded to nearest even, NaN to a quiet NaN.
    ///
    /// # Safety
    /// `p..p + WIDTH` writable.
    unsafe fn store_bf16(self, p: *mut bf16, v: Self::V);
    /// `x` in every lane.
    fn splat(self, x: f32) -> Self::V;
    /// `a + b`, lane by lane.
    fn add(self, a: Self::V, b: Self::V) -> Self::V;
    /// `(s − n) − n`: `s − 2·n` with two roundings and no intermediate `2·n` (which could
    /// overflow where `s − 2·n` does not).
    fn minus_twice(self, s: Self::V, n: Self::V) -> Self::V;
    /// `a · b`, lane by lane.
    fn mul(self, a: Self::V, b: Self::V) -> Self::V;
}

/// A storage type of `f32` arithmetic.
pub(crate) trait Narrow: Copy + Send + Sync {
    /// The value as an `f32` (exact).
    fn widen(self) -> f32;
    /// `x` rounded to nearest even.
    fn narrow(x: f32) -> Self;
    /// # Safety
    /// As [`Wide::load`].
    unsafe fn load<W: Wide>(w: W, p: *const Self) -> W::V;
    /// # Safety
    /// As [`Wide::store`].
    unsafe fn store<W: Wide>(w: W, p: *mut Self, v: W::V);
}

impl Narrow for f32 {
    #[inline(always)]
    fn widen(self) -> f32 {
        self
    }
    #[inline(always)]
    fn narrow(x: f32) -> f32 {
        x
    }
    #[inline(always)]
    unsafe fn load<W: Wide>(w: W, p: *const f32) -> W::V {
        // SAFETY: forwarded from the caller.
        unsafe { w.load(p) }
    }
    #[inline(always)]
    unsafe fn store<W: Wide>(w: W, p: *mut f32, v: W::V) {
        // SAFETY: forwarded from the caller.
        unsafe { w.store(p, v) }
    }
}

impl Narrow for f16 {
    #[inline(always)]
    fn widen(self) -> f32 {
        self.to_f32()
    }
    #[inline(always)]
    fn narrow(x: f32) -> f16 {
        f16::from_f32(x)
    }
    #[inline(always)]
    unsafe fn load<W: Wide>(w: W, p: *const f16) -> W::V {
        // SAFETY: forwarded from the caller.
        unsafe { w.load_f16(p) }
    }
    #[inline(always)]
    unsafe fn store<W: Wide>(w: W, p: *mut f16, v: W::V) {
        // SAFETY: forwarded from the caller.
        unsafe { w.store_f16(p, v) }
    }
}

impl Narrow for bf16 {
    #[inline(always)]
    fn widen(self) -> f32 {
        self.to_f32()
    }
    #[inline(always)]
    fn narrow(x: f32) -> bf16 {
        bf16::from_f32(x)
    }
    #[inline(always)]
    unsafe fn load<W: Wide>(w: W, p: *const bf16) -> W::V {
        // SAFETY: forwarded from the caller.
        unsafe { w.load_bf16(p) }
    }
    #[inline(always)]
    unsafe fn store<W: Wide>(w: W, p: *mut bf16, v: W::V) {
        // SAFETY: forwarded from the caller.
        unsafe { w.store_bf16(p, v) }
    }
}

/// One lane: the scalar path, always available.
#[derive(Clone, Copy)]
pub(crate) struct Scalar;

impl Wide for Scalar {
    type V = f32;
    const WIDTH: usize = 1;
    #[inline(always)]
    unsafe fn load(self, p: *const f32) -> f32 {
        // SAFETY: forwarded from the caller.
        unsafe { p.read_unaligned() }
    }
    #[inline(always)]
    unsafe fn store(self, p: *mut f32, v: f32) {
        // SAFETY: forwarded from the caller.
        unsafe { p.write_unaligned(v) }
    }
    #[inline(always)]
    unsafe fn load_f16(self, p: *const f16) -> f32 {
        // SAFETY: forwarded from the caller.
        unsafe { p.read_unaligned() }.to_f32()
    }
    #[inline(always)]
    unsafe fn store_f16(self, p: *mut f16, v: f32) {
        // SAFETY: forwarded from the caller.
        unsafe { p.write_unaligned(f16::from_f32(v)) }
    }
    #[inline(always)]
    unsafe fn load_bf16(self, p: *const bf16) -> f32 {
        // SAFETY: forwarded from the caller.
        unsafe { p.read_unaligned() }.to_f32()
    }
    #[inline(always)]
    unsafe fn store_bf16(self, p: *mut bf16, v: f32) {
        // SAFETY: forwarded from the caller.
        unsafe { p.write_unaligned(bf16::from_f32(v)) }
    }
    #[inline(always)]
    fn splat(self, x: f32) -> f32 {
        x
    }
    #[inline(always)]
    fn add(self, a: f32, b: f32) -> f32 {
        a + b
    }
    #[inline(always)]
    fn minus_twice(self, s: f32, n: f32) -> f32 {
        (s - n) - n
    }
    #[inline(always)]
    fn mul(self, a: f32, b: f32) -> f32 {
        a * b
    }
}

/// `dst[i] = src[i]` widened to `f32`, for `i < len`.
///
/// # Safety
/// `src..src + len` readable, `dst..dst + len` writable; `W`'s instruction set available.
#[inline(always)]
unsafe fn widen_body<W: Wide, S: Narrow>(w: W, src: *const S, dst: *mut f32, len: usize) {
    let mut i = 0;
    while i + W::WIDTH <= len {
        // SAFETY: i + WIDTH <= len.
        unsafe { w.store(dst.add(i), S::load(w, src.add(i))) };
        i += W::WIDTH;
    }
    while i < len {
        // SAFETY: i < len.
        unsafe { dst.add(i).write(src.add(i).read().widen()) };
        i += 1;
    }
}

/// The last pass over one row of `M` blocks of `len` values at `src`: for every column `j`,
/// `out[a·len + j] = scale · Σ_c h[a][c] · src[c·len + j]` (as `±scale · ((S − L_a) − L_a)`, see the
/// module documentation), narrowed to `S`. `out` may be `src` itself (every column is read
/// whole before it is written).
///
/// # Safety
/// `src..src + M·len` readable, `out..out + M·len` writable (the same memory, or none of it
/// shared); `signs` of order `M`; `W`'s instruction set available.
#[inline(always)]
unsafe fn finish_body<W: Wide, S: Narrow, const M: usize>(
    w: W,
    src: *const f32,
    out: *mut S,
    len: usize,
    signs: &Signs,
    scale: f32,
) {
    debug_assert_eq!(signs.m, M);
    let (k, list, negate) = (signs.k, &signs.list, &signs.negate);
    let sc = w.splat(scale);
    let minus_sc = w.splat(-scale);
    let zero = w.splat(0.0);
    let mut j = 0;
    if M == 1 {
        // `(S − 0) − 0 = S`: the product by the scale alone (the same bits).
        while j + W::WIDTH <= len {
            // SAFETY: j + WIDTH <= len.
            unsafe {
                S::store(w, out.add(j), w.mul(w.load(src.add(j)), if negate[0] { minus_sc } else { sc }))
            };
            j += W::WIDTH;
        }
    }
    // `x[M]` (and beyond) is the zero of the padded lists; `x[..M]` is loaded for every column.
    let mut x = [zero; MAX_ORDER + 1];
    while j + W::WIDTH <= len {
        for c in 0..M {
            // SAFETY: c·len + j + WIDTH <= M·len.
            x[c] = unsafe { w.load(src.add(c * len + j)) };
        }
        let mut sum = x[0];
        for c in 1..M {
            sum = w.add(sum, x[c]);
        }
        for a in 0..M {
            let row = &list[a];
            let mut l = x[row[0] as usize];
            for i in 1..k {
                l = w.add(l, x[row[i] as usize]);
            }
            let y = w.mul(w.minus_twice(sum, l), if negate[a] { minus_sc } else { sc });
            // SAFETY: as for the loads.
            unsafe { S::store(w, out.add(a * len + j), y) };
        }
        j += W::WIDTH;
    }
    while j < len {
        let mut x = [0.0f32; MAX_ORDER + 1];
        for c in 0..M {
            // SAFETY: c·len + j < M·len.
            x[c] = unsafe { src.add(c * len + j).read() };
        }
        let mut sum = x[0];
        for c in 1..M {
            sum += x[c];
        }
        for a in 0..M {
            let row = &list[a];
            let mut l = x[row[0] as usize];
            for i in 1..k {
                l += x[row[i] as usize];
            }
            let y = ((sum - l) - l) * if negate[a] { -scale } else { scale };
            // SAFETY: as above.
            unsafe { out.add(a * len + j).write(S::narrow(y)) };
        }
        j += 1;
    }
}

/// [`finish_body`] for the order of `signs` (1, 12, 20, 28 or 40), the loops unrolled for it.
///
/// # Safety
/// As [`finish_body`] with `M` the order of `signs`.
#[inline(always)]
unsafe fn finish_order<W: Wide, S: Narrow>(
    w: W,
    src: *const f32,
    out: *mut S,
    len: usize,
    signs: &Signs,
    scale: f32,
) {
    // SAFETY: forwarded from the caller.
    unsafe {
        match signs.m {
            1 => finish_body::<W, S, 1>(w, src, out, len, signs, scale),
            12 => finish_body::<W, S, 12>(w, src, out, len, signs, scale),
            20 => finish_body::<W, S, 20>(w, src, out, len, signs, scale),
            28 => finish_body::<W, S, 28>(w, src, out, len, signs, scale),
            40 => finish_body::<W, S, 40>(w, src, out, len, signs, scale),
            m => unreachable!("no Hadamard matrix of order {m}"),
        }
    }
}

/// `dst[i] = src[i]` as `f32` (`dst.len() == src.len()`), on `backend` where it has the
/// conversions, else on the scalar path.
pub(crate) fn widen<S: Narrow>(src: &[S], dst: &mut [f32], backend: Backend) {
    assert_eq!(src.len(), dst.len());
    let (s, d, n) = (src.as_ptr(), dst.as_mut_ptr(), src.len());
    #[cfg(target_arch = "x86_64")]
    match backend {
        Backend::Avx512 => {
            if let Some(w) = x86::Avx512::new() {
                // SAFETY: the lengths match; the token proves AVX-512F.
                return unsafe { x86::widen512(w, s, d, n) };
            }
        }
        Backend::Avx2 => {
            if let Some(w) = x86::Avx2::new() {
                // SAFETY: the lengths match; the token proves AVX2, FMA and F16C.
                return unsafe { x86::widen256(w, s, d, n) };
            }
        }
        _ => {}
    }
    let _ = backend;
    // SAFETY: the lengths match.
    unsafe { widen_body(Scalar, s, d, n) }
}

/// The last pass over one row of `m` blocks (see [`finish_body`]), from the `f32` values `src`
/// to `out` (`out.len() == src.len()`, a multiple of the order `m` of `signs`).
pub(crate) fn finish<S: Narrow>(src: &[f32], out: &mut [S], signs: &Signs, scale: f32, backend: Backend) {
    let m = signs.m;
    assert!(src.len() == out.len() && src.len().is_multiple_of(m));
    // SAFETY: the lengths were checked; distinct slices do not overlap.
    unsafe { finish_raw(src.as_ptr(), out.as_mut_ptr(), src.len() / m, signs, scale, backend) }
}

/// [`finish`] in place, on `f32` values.
pub(crate) fn finish_in_place(data: &mut [f32], signs: &Signs, scale: f32, backend: Backend) {
    assert!(data.len().is_multiple_of(signs.m));
    let p = data.as_mut_ptr();
    // SAFETY: the length was checked; the pass reads each column whole before writing it.
    unsafe { finish_raw(p, p, data.len() / signs.m, signs, scale, backend) }
}

/// # Safety
/// `src..src + m·len` readable, `out..out + m·len` writable, the same memory or disjoint.
unsafe fn finish_raw<S: Narrow>(
    src: *const f32,
    out: *mut S,
    len: usize,
    signs: &Signs,
    scale: f32,
    backend: Backend,
) {
    #[cfg(target_arch = "x86_64")]
    match backend {
        Backend::Avx512 => {
            if let Some(w) = x86::Avx512::new() {
                // SAFETY: forwarded; the token proves AVX-512F.
                return unsafe { x86::finish512(w, src, out, len, signs, scale) };
            }
        }
        Backend::Avx2 => {
            if let Some(w) = x86::Avx2::new() {
                // SAFETY: forwarded; the token proves AVX2, FMA and F16C.
                return unsafe { x86::finish256(w, src, out, len, signs, scale) };
            }
        }
        _ => {}
    }
    let _ = backend;
    // SAFETY: forwarded from the caller.
    unsafe { finish_order(Scalar, src, out, len, signs, scale) }
}

/// The `f64` last pass, in place: for every column, `±scale · ((S − L_a) − L_a)` as in
/// [`finish_body`], in `f64` (scalar code, which the compiler vectorises where it can).
pub(crate) fn finish_f64(data: &mut [f64], signs: &Signs, scale: f64) {
    let m = signs.m;
    assert!(data.len().is_multiple_of(m));
    let len = data.len() / m;
    if m == 1 {
        data.iter_mut().for_each(|x| *x *= scale);
        return;
    }
    let mut x = [0.0f64; MAX_ORDER + 1];
    for j in 0..len {
        for c in 0..m {
            x[c] = data[c * len + j];
        }
        let sum = x[1..m].iter().fold(x[0], |s, &v| s + v);
        for a in 0..m {
            let row = &signs.list[a];
            let l = row[1..signs.k].iter().fold(x[row[0] as usize], |l, &c| l + x[c as usize]);
            data[a * len + j] = ((sum - l) - l) * if signs.negate[a] { -scale } else { scale };
        }
    }
}

#[cfg(target_arch = "x86_64")]
mod x86 {
    use std::arch::x86_64::*;

    use half::{bf16, f16};

    use super::{Narrow, Signs, Wide, finish_order, widen_body};

    /// `f32` in 16 lanes; exists only where the CPU runs AVX-512F.
    #[derive(Clone, Copy)]
    pub(super) struct Avx512(());

    impl Avx512 {
        pub(super) fn new() -> Option<Self> {
            std::arch::is_x86_feature_detected!("avx512f").then_some(Avx512(()))
        }
    }

    /// `bf16` bits of 16 `f32` lanes, rounded to nearest even (`x + 0x7FFF + lsb`, then the top
    /// half; an overflow carries into the exponent, to infinity where it should), NaN kept a
    /// quiet NaN.
    #[inline(always)]
    fn bf16_bits512(v: __m512) -> __m256i {
        // SAFETY: only called from functions compiled for AVX-512F.
        unsafe {
            let bits = _mm512_castps_si512(v);
            let lsb = _mm512_and_si512(_mm512_srli_epi32::<16>(bits), _mm512_set1_epi32(1));
            let rounded = _mm512_add_epi32(_mm512_add_epi32(bits, _mm512_set1_epi32(0x7FFF)), lsb);
            let nan = _mm512_cmp_ps_mask::<_CMP_UNORD_Q>(v, v);
            let quiet = _mm512_or_si512(bits, _mm512_set1_epi32(0x0040_0000));
            let top = _mm512_srli_epi32::<16>(_mm512_mask_mov_epi32(rounded, nan, quiet));
            _mm512_cvtepi32_epi16(top)
        }
    }

    impl Wide for Avx512 {
        type V = __m512;
        const WIDTH: usize = 16;
        #[inline(always)]
        unsafe fn load(self, p: *const f32) -> __m512 {
            // SAFETY: forwarded; AVX-512F (token).
            unsafe { _mm512_loadu_ps(p) }
        }
        #[inline(always)]
        unsafe fn store(self, p: *mut f32, v: __m512) {
            // SAFETY: forwarded; AVX-512F (token).
            unsafe { _mm512_storeu_ps(p, v) }
        }
        #[inline(always)]
        unsafe fn load_f16(self, p: *const f16) -> __m512 {
            // SAFETY: forwarded; AVX-512F (token).
            unsafe { _mm512_cvtph_ps(_mm256_loadu_si256(p.cast())) }
        }
        #[inline(always)]
        unsafe fn store_f16(self, p: *mut f16, v: __m512) {
            // SAFETY: forwarded; AVX-512F (token).
            unsafe {
                _mm256_storeu_si256(
                    p.cast(),
                    _mm512_cvtps_ph::<{ _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC }>(v),
                )
            }
        }
        #[inline(always)]
        unsafe fn load_bf16(self, p: *const bf16) -> __m512 {
            // SAFETY: forwarded; AVX-512F (token). A bf16 is the top half of an f32.
            unsafe {
                _mm512_castsi512_ps(_mm512_slli_epi32::<16>(_mm512_cvtepu16_epi32(_mm256_loadu_si256(
                    p.cast(),
                ))))
            }
        }
        #[inline(always)]
        unsafe fn store_bf16(self, p: *mut bf16, v: __m512) {
            // SAFETY: forwarded; AVX-512F (token).
            unsafe { _mm256_storeu_si256(p.cast(), bf16_bits512(v)) }
        }
        #[inline(always)]
        fn splat(self, x: f32) -> __m512 {
            // SAFETY: AVX-512F (token).
            unsafe { _mm512_set1_ps(x) }
        }
        #[inline(always)]
        fn add(self, a: __m512, b: __m512) -> __m512 {
            // SAFETY: AVX-512F (token).
            unsafe { _mm512_add_ps(a, b) }
        }
        #[inline(always)]
        fn minus_twice(self, s: __m512, n: __m512) -> __m512 {
            // SAFETY: AVX-512F (token).
            unsafe { _mm512_sub_ps(_mm512_sub_ps(s, n), n) }
        }
        #[inline(always)]
        fn mul(self, a: __m512, b: __m512) -> __m512 {
            // SAFETY: AVX-512F (token).
            unsafe { _mm512_mul_ps(a, b) }
        }
    }

    /// `f32` in 8 lanes; exists only where the CPU runs AVX2, FMA and F16C.
    #[derive(Clone, Copy)]
    pub(super) struct Avx2(());

    impl Avx2 {
        pub(super) fn new() -> Option<Self> {
            (std::arch::is_x86_feature_detected!("avx2")
                && std::arch::is_x86_feature_detected!("fma")
                && std::arch::is_x86_feature_detected!("f16c"))
            .then_some(Avx2(()))
        }
    }

    /// As [`bf16_bits512`], for 8 lanes.
    #[inline(always)]
    fn bf16_bits256(v: __m256) -> __m128i {
        // SAFETY: only called from functions compiled for AVX2.
        unsafe {
            let bits = _mm256_castps_si256(v);
            let lsb = _mm256_and_si256(_mm256_srli_epi32::<16>(bits), _mm256_set1_epi32(1));
            let rounded = _mm256_add_epi32(_mm256_add_epi32(bits, _mm256_set1_epi32(0x7FFF)), lsb);
            let nan = _mm256_castps_si256(_mm256_cmp_ps::<_CMP_UNORD_Q>(v, v));
            let quiet = _mm256_or_si256(bits, _mm256_set1_epi32(0x0040_0000));
            let top = _mm256_srli_epi32::<16>(_mm256_blendv_epi8(rounded, quiet, nan));
            // Each 128-bit half packs to 4 + 4 words (the upper 4 repeat); gather the two lows.
            let packed = _mm256_packus_epi32(top, top);
            _mm256_castsi256_si128(_mm256_permute4x64_epi64::<0b1000>(packed))
        }
    }

    impl Wide for Avx2 {
        type V = __m256;
        const WIDTH: usize = 8;
        #[inline(always)]
        unsafe fn load(self, p: *const f32) -> __m256 {
            // SAFETY: forwarded; AVX (token).
            unsafe { _mm256_loadu_ps(p) }
        }
        #[inline(always)]
        unsafe fn store(self, p: *mut f32, v: __m256) {
            // SAFETY: forwarded; AVX (token).
            unsafe { _mm256_storeu_ps(p, v) }
        }
        #[inline(always)]
        unsafe fn load_f16(self, p: *const f16) -> __m256 {
            // SAFETY: forwarded; F16C (token).
            unsafe { _mm256_cvtph_ps(_mm_loadu_si128(p.cast())) }
        }
        #[inline(always)]
        unsafe fn store_f16(self, p: *mut f16, v: __m256) {
            // SAFETY: forwarded; F16C (token).
            unsafe { _mm_storeu_si128(p.cast(), _mm256_cvtps_ph::<_MM_FROUND_TO_NEAREST_INT>(v)) }
        }
        #[inline(always)]
        unsafe fn load_bf16(self, p: *const bf16) -> __m256 {
            // SAFETY: forwarded; AVX2 (token).
            unsafe {
                _mm256_castsi256_ps(_mm256_slli_epi32::<16>(_mm256_cvtepu16_epi32(_mm_loadu_si128(p.cast()))))
            }
        }
        #[inline(always)]
        unsafe fn store_bf16(self, p: *mut bf16, v: __m256) {
            // SAFETY: forwarded; AVX2 (token).
            unsafe { _mm_storeu_si128(p.cast(), bf16_bits256(v)) }
        }
        #[inline(always)]
        fn splat(self, x: f32) -> __m256 {
            // SAFETY: AVX (token).
            unsafe { _mm256_set1_ps(x) }
        }
        #[inline(always)]
        fn add(self, a: __m256, b: __m256) -> __m256 {
            // SAFETY: AVX (token).
            unsafe { _mm256_add_ps(a, b) }
        }
        #[inline(always)]
        fn minus_twice(self, s: __m256, n: __m256) -> __m256 {
            // SAFETY: AVX (token).
            unsafe { _mm256_sub_ps(_mm256_sub_ps(s, n), n) }
        }
        #[inline(always)]
        fn mul(self, a: __m256, b: __m256) -> __m256 {
            // SAFETY: AVX (token).
            unsafe { _mm256_mul_ps(a, b) }
        }
    }

    /// # Safety
    /// As [`widen_body`].
    #[target_feature(enable = "avx512f")]
    pub(super) unsafe fn widen512<S: Narrow>(w: Avx512, src: *const S, dst: *mut f32, len: usize) {
        // SAFETY: forwarded from the caller.
        unsafe { widen_body(w, src, dst, len) }
    }

    /// # Safety
    /// As [`widen_body`].
    #[target_feature(enable = "avx2,fma,f16c")]
    pub(super) unsafe fn widen256<S: Narrow>(w: Avx2, src: *const S, dst: *mut f32, len: usize) {
        // SAFETY: forwarded from the caller.
        unsafe { widen_body(w, src, dst, len) }
    }

    /// # Safety
    /// As [`finish_order`].
    #[target_feature(enable = "avx512f")]
    pub(super) unsafe fn finish512<S: Narrow>(
        w: Avx512,
        src: *const f32,
        out: *mut S,
        len: usize,
        signs: &Signs,
        scale: f32,
    ) {
        // SAFETY: forwarded from the caller.
        unsafe { finish_order(w, src, out, len, signs, scale) }
    }

    /// # Safety
    /// As [`finish_order`].
    #[target_feature(enable = "avx2,fma,f16c")]
    pub(super) unsafe fn finish256<S: Narrow>(
        w: Avx2,
        src: *const f32,
        out: *mut S,
        len: usize,
        signs: &Signs,
        scale: f32,
    ) {
        // SAFETY: forwarded from the caller.
        unsafe { finish_order(w, src, out, len, signs, scale) }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every conversion and every order of the last pass, on every backend this CPU runs,
    /// bit for bit against the scalar path (the conversions of the `half` crate), with nasty
    /// values: zeros of both signs, subnormals, ties, values that round to infinity, NaN.
    #[test]
    fn backends_agree_bit_for_bit_with_the_scalar_path() {
        let mut specials = vec![
            0.0f32,
            -0.0,
            1.0,
            -1.0,
            65504.0,
            65520.0,
            1e-7,
            -6e-8,
            f32::MAX,
            f32::MIN_POSITIVE,
            f32::INFINITY,
            f32::NEG_INFINITY,
            f32::from_bits(0x3F80_8000), // a bf16 tie, rounds to even (down)
            f32::from_bits(0x3F81_8000), // a bf16 tie, rounds to even (up)
            f32::from_bits(0x7F7F_FFFF),
        ];
        let mut seed = 0x5eed_u64;
        while specials.len() < 40 * 37 {
            seed = seed.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            specials.push(f32::from_bits((seed >> 32) as u32 & 0xBFFF_FFFF) * 1e-30);
        }
        for backend in Backend::ALL.into_iter().filter(|b| b.is_available()) {
            for m in [1, 12, 20, 28, 40] {
                let len = 37;
                let x = &specials[..m * len];
                let h: Vec<f32> =
                    (0..m * m).map(|i| if (i * 7 + i / m) % 3 == 0 { -1.0 } else { 1.0 }).collect();
                let h = Signs::new(&h, m);
                for scale in [1.0f32, 0.125, -3.0] {
                    let mut a = vec![f16::ZERO; x.len()];
                    let mut b = a.clone();
                    finish(x, &mut a, &h, scale, backend);
                    finish(x, &mut b, &h, scale, Backend::Scalar);
                    assert_eq!(
                        a.iter().map(|v| v.to_bits()).collect::<Vec<_>>(),
                        b.iter().map(|v| v.to_bits()).collect::<Vec<_>>(),
                        "f16 {backend} m {m}"
                    );
                    let mut a = vec![bf16::ZERO; x.len()];
                    let mut b = a.clone();
                    finish(x, &mut a, &h, scale, backend);
                    finish(x, &mut b, &h, scale, Backend::Scalar);
                    assert_eq!(
                        a.iter().map(|v| v.to_bits()).collect::<Vec<_>>(),
                        b.iter().map(|v| v.to_bits()).collect::<Vec<_>>(),
                        "bf16 {backend} m {m}"
                    );
                    let (mut a, mut b) = (x.to_vec(), x.to_vec());
                    finish_in_place(&mut a, &h, scale, backend);
                    finish_in_place(&mut b, &h, scale, Backend::Scalar);
                    assert!(
                        a.iter().zip(&b).all(|(p, q)| p.to_bits() == q.to_bits() || p.is_nan() && q.is_nan()),
                        "f32 {backend} m {m}: {:?}",
                        a.iter().zip(&b).enumerate().find(|(_, (p, q))| p.to_bits() != q.to_bits())
                    );
                }
            }
            let halves: Vec<f16> = specials.iter().map(|&v| f16::from_f32(v)).collect();
            let (mut a, mut b) = (vec![0.0; halves.len()], vec![0.0; halves.len()]);
            widen(&halves, &mut a, backend);
            widen(&halves, &mut b, Backend::Scalar);
            assert!(a.iter().zip(&b).all(|(p, q)| p.to_bits() == q.to_bits()), "widen f16 {backend}");
            let halves: Vec<bf16> = specials.iter().map(|&v| bf16::from_f32(v)).collect();
            widen(&halves, &mut a, backend);
            widen(&halves, &mut b, Backend::Scalar);
            assert!(a.iter().zip(&b).all(|(p, q)| p.to_bits() == q.to_bits()), "widen bf16 {backend}");
        }
        // The NaN of bf16 stays a NaN.
        let mut out = [bf16::ZERO; 16];
        finish(&[f32::NAN; 16], &mut out, &Signs::new(&[1.0], 1), 1.0, Backend::best());
        assert!(out.iter().all(|v| v.is_nan()));
    }
}
