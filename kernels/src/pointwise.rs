//! The vectorised pointwise passes modulo an odd `m < 2^31`: the power `x ← x^e`, one exponent for
//! every slot, and the scaled product `a ← a · b · w` of an XOR convolution.
//!
//! The exponent is the same in every lane, so square-and-multiply is branch-free across lanes:
//! the branch on each exponent bit is shared. Values stay in Montgomery form (`x · 2^32 mod m`)
//! between multiplications; several registers are in flight at once to hide multiply latency.
//! The caller gives the Montgomery constants, finishes the elements left over (fewer than one
//! block) with scalar code, and splits long slices across threads.

use super::Isa;

/// The constants of Montgomery arithmetic modulo an odd `m < 2^31` with `R = 2^32`.
#[derive(Clone, Copy, Debug)]
#[cfg_attr(not(target_arch = "x86_64"), allow(dead_code))] // read by the x86 kernels only
pub struct Montgomery32 {
    /// The modulus.
    pub m: u32,
    /// `-m⁻¹ mod 2^32`.
    pub neg_inv: u32,
    /// `R² mod m`: a Montgomery product with it enters Montgomery form.
    pub r2: u32,
    /// `R mod m`: one in Montgomery form.
    pub one: u32,
}

/// `x ← x^e mod m` for a prefix of `data` (`x^0 = 1`, also for `x = 0`) on `backend`; returns the
/// length of that prefix (0 for the scalar backend, else all but fewer than one block).
pub fn pow_mod32(c: Montgomery32, data: &mut [u32], e: u64, backend: Isa) -> usize {
    let _ = (c, &data, e);
    match backend {
        #[cfg(target_arch = "x86_64")]
        Isa::Avx512 => x86::pow_avx512(c, data, e),
        #[cfg(target_arch = "x86_64")]
        Isa::Avx2 => x86::pow_avx2(c, data, e),
        _ => 0,
    }
}

/// `a[i] ← a[i] · b[i] · w mod m` for a prefix of `a` (`b` at least as long), where
/// `w_r2 = w · R² mod m`; returns the length of that prefix, as [`pow_mod32`].
pub fn mul_scaled_mod32(c: Montgomery32, a: &mut [u32], b: &[u32], w_r2: u32, backend: Isa) -> usize {
    let _ = (c, &a, b, w_r2);
    match backend {
        #[cfg(target_arch = "x86_64")]
        Isa::Avx512 => x86::mul_scaled_avx512(c, a, b, w_r2),
        #[cfg(target_arch = "x86_64")]
        Isa::Avx2 => x86::mul_scaled_avx2(c, a, b, w_r2),
        _ => 0,
    }
}

#[cfg(target_arch = "x86_64")]
#[allow(clippy::needless_range_loop)] // index loops over register arrays: see `lanes`
mod x86 {
    use std::arch::x86_64::*;

    use super::Montgomery32;

    /// Registers processed together: independent multiplication chains hide latency.
    const IN_FLIGHT: usize = 4;

    /// A register of Montgomery residues and the vectorised reduction on it.
    trait MontLanes: Copy {
        type V: Copy;
        const WIDTH: usize;
        unsafe fn load(self, p: *const u32) -> Self::V;
        unsafe fn store(self, p: *mut u32, v: Self::V);
        fn splat(self, x: u32) -> Self::V;
        /// `a · b · 2^-32 mod m` for `a, b < m`.
        fn mul(self, a: Self::V, b: Self::V) -> Self::V;
    }

    /// Square-and-multiply over `IN_FLIGHT · WIDTH` elements at a time; returns how many
    /// elements were done (the tail is left to the scalar code).
    ///
    /// # Safety
    /// `L`'s instruction set must be available.
    #[inline(always)]
    unsafe fn pow_body<L: MontLanes>(l: L, c: Montgomery32, data: &mut [u32], e: u64) -> usize {
        let block = IN_FLIGHT * L::WIDTH;
        let r2 = l.splat(c.r2);
        let one = l.splat(c.one);
        let plain_one = l.splat(1);
        let bits = u64::BITS - e.leading_zeros();
        let done = data.len() / block * block;
        for chunk in data[..done].chunks_exact_mut(block) {
            let p = chunk.as_mut_ptr();
            // SAFETY: the chunk holds IN_FLIGHT registers.
            // Index loops, no closures (see `lanes`).
            let mut base = [r2; IN_FLIGHT];
            for i in 0..IN_FLIGHT {
                // x · R² · R⁻¹ = x · R: Montgomery form. SAFETY: the chunk holds IN_FLIGHT registers.
                base[i] = l.mul(unsafe { l.load(p.add(i * L::WIDTH)) }, r2);
            }
            let mut acc = [one; IN_FLIGHT];
            for bit in (0..bits).rev() {
                for i in 0..IN_FLIGHT {
                    acc[i] = l.mul(acc[i], acc[i]);
                }
                if (e >> bit) & 1 == 1 {
                    for i in 0..IN_FLIGHT {
                        acc[i] = l.mul(acc[i], base[i]);
                    }
                }
            }
            for i in 0..IN_FLIGHT {
                // Leaving Montgomery form: a · 1 · R⁻¹. SAFETY: as for the loads.
                unsafe { l.store(p.add(i * L::WIDTH), l.mul(acc[i], plain_one)) };
            }
        }
        done
    }

    /// `a · b · w` over `IN_FLIGHT · WIDTH` elements at a time: `t = a·b·R⁻¹`, then
    /// `t · (w·R²) · R⁻¹ = a·b·w`, two Montgomery products and no conversion; returns how many
    /// elements were done.
    ///
    /// # Safety
    /// `L`'s instruction set must be available; `b.len() >= a.len()`.
    #[inline(always)]
    unsafe fn mul_scaled_body<L: MontLanes>(l: L, a: &mut [u32], b: &[u32], w_r2: u32) -> usize {
        let block = IN_FLIGHT * L::WIDTH;
        let w = l.splat(w_r2);
        let done = a.len() / block * block;
        let (pa, pb) = (a.as_mut_ptr(), b.as_ptr());
        let mut at = 0;
        while at < done {
            for i in 0..IN_FLIGHT {
                let k = at + i * L::WIDTH;
                // SAFETY: k + WIDTH <= done <= a.len() <= b.len().
                unsafe {
                    let t = l.mul(l.load(pa.add(k)), l.load(pb.add(k)));
                    l.store(pa.add(k), l.mul(t, w));
                }
            }
            at += block;
        }
        done
    }

    /// 16 lanes of AVX-512F; only constructed after the CPU check.
    #[derive(Clone, Copy)]
    struct Avx512 {
        m: __m512i,
        m_neg_inv: __m512i,
    }

    impl MontLanes for Avx512 {
        type V = __m512i;
        const WIDTH: usize = 16;
        #[inline(always)]
        unsafe fn load(self, p: *const u32) -> __m512i {
            // SAFETY: the caller guarantees 16 readable elements.
            unsafe { _mm512_loadu_si512(p.cast()) }
        }
        #[inline(always)]
        unsafe fn store(self, p: *mut u32, v: __m512i) {
            // SAFETY: the caller guarantees 16 writable elements.
            unsafe { _mm512_storeu_si512(p.cast(), v) }
        }
        #[inline(always)]
        fn splat(self, x: u32) -> __m512i {
            // SAFETY: AVX-512F is available (a value of this type exists).
            unsafe { _mm512_set1_epi32(x as i32) }
        }
        /// Even and odd lanes go through 32×32→64 multiplies separately. For `t = a·b < m·2^32`
        /// and `q = t · (-m⁻¹) mod 2^32`, `(t + q·m) / 2^32 < 2m`, one `min(r, r - m)` finishes.
        #[inline(always)]
        fn mul(self, a: __m512i, b: __m512i) -> __m512i {
            // SAFETY: AVX-512F is available (a value of this type exists).
            unsafe {
                let t_even = _mm512_mul_epu32(a, b);
                let t_odd = _mm512_mul_epu32(_mm512_srli_epi64::<32>(a), _mm512_srli_epi64::<32>(b));
                let q_even = _mm512_mul_epu32(t_even, self.m_neg_inv);
                let q_odd = _mm512_mul_epu32(t_odd, self.m_neg_inv);
                let r_even = _mm512_add_epi64(t_even, _mm512_mul_epu32(q_even, self.m));
                let r_odd = _mm512_add_epi64(t_odd, _mm512_mul_epu32(q_odd, self.m));
                let r = _mm512_mask_blend_epi32(0xAAAA, _mm512_srli_epi64::<32>(r_even), r_odd);
                _mm512_min_epu32(r, _mm512_sub_epi32(r, self.m))
            }
        }
    }

    /// 8 lanes of AVX2; only constructed after the CPU check.
    #[derive(Clone, Copy)]
    struct Avx2 {
        m: __m256i,
        m_neg_inv: __m256i,
    }

    impl MontLanes for Avx2 {
        type V = __m256i;
        const WIDTH: usize = 8;
        #[inline(always)]
        unsafe fn load(self, p: *const u32) -> __m256i {
            // SAFETY: the caller guarantees 8 readable elements.
            unsafe { _mm256_loadu_si256(p.cast()) }
        }
        #[inline(always)]
        unsafe fn store(self, p: *mut u32, v: __m256i) {
            // SAFETY: the caller guarantees 8 writable elements.
            unsafe { _mm256_storeu_si256(p.cast(), v) }
        }
        #[inline(always)]
        fn splat(self, x: u32) -> __m256i {
            // SAFETY: AVX2 is available (a value of this type exists).
            unsafe { _mm256_set1_epi32(x as i32) }
        }
        /// As the AVX-512 version.
        #[inline(always)]
        fn mul(self, a: __m256i, b: __m256i) -> __m256i {
            // SAFETY: AVX2 is available (a value of this type exists).
            unsafe {
                let t_even = _mm256_mul_epu32(a, b);
                let t_odd = _mm256_mul_epu32(_mm256_srli_epi64::<32>(a), _mm256_srli_epi64::<32>(b));
                let q_even = _mm256_mul_epu32(t_even, self.m_neg_inv);
                let q_odd = _mm256_mul_epu32(t_odd, self.m_neg_inv);
                let r_even = _mm256_add_epi64(t_even, _mm256_mul_epu32(q_even, self.m));
                let r_odd = _mm256_add_epi64(t_odd, _mm256_mul_epu32(q_odd, self.m));
                let r = _mm256_blend_epi32::<0xAA>(_mm256_srli_epi64::<32>(r_even), r_odd);
                _mm256_min_epu32(r, _mm256_sub_epi32(r, self.m))
            }
        }
    }

    /// Powers with AVX-512F when the CPU has it; returns the number of elements done.
    pub(super) fn pow_avx512(c: Montgomery32, data: &mut [u32], e: u64) -> usize {
        #[target_feature(enable = "avx512f")]
        unsafe fn run(c: Montgomery32, data: &mut [u32], e: u64) -> usize {
            let l =
                Avx512 { m: _mm512_set1_epi32(c.m as i32), m_neg_inv: _mm512_set1_epi32(c.neg_inv as i32) };
            // SAFETY: this function only runs with AVX-512F enabled.
            unsafe { pow_body(l, c, data, e) }
        }
        if !crate::Isa::Avx512.is_available() {
            return 0;
        }
        // SAFETY: the CPU has AVX-512F (checked above).
        unsafe { run(c, data, e) }
    }

    /// Scaled products with AVX-512F when the CPU has it; returns the number of elements done.
    pub(super) fn mul_scaled_avx512(c: Montgomery32, a: &mut [u32], b: &[u32], w_r2: u32) -> usize {
        #[target_feature(enable = "avx512f")]
        unsafe fn run(c: Montgomery32, a: &mut [u32], b: &[u32], w_r2: u32) -> usize {
            let l =
                Avx512 { m: _mm512_set1_epi32(c.m as i32), m_neg_inv: _mm512_set1_epi32(c.neg_inv as i32) };
            // SAFETY: this function only runs with AVX-512F enabled; the caller's lengths.
            unsafe { mul_scaled_body(l, a, b, w_r2) }
        }
        if !crate::Isa::Avx512.is_available() || b.len() < a.len() {
            return 0;
        }
        // SAFETY: the CPU has AVX-512F and b is long enough (checked above).
        unsafe { run(c, a, b, w_r2) }
    }

    /// Scaled products with AVX2 when the CPU has it; returns the number of elements done.
    pub(super) fn mul_scaled_avx2(c: Montgomery32, a: &mut [u32], b: &[u32], w_r2: u32) -> usize {
        #[target_feature(enable = "avx2")]
        unsafe fn run(c: Montgomery32, a: &mut [u32], b: &[u32], w_r2: u32) -> usize {
            let l = Avx2 { m: _mm256_set1_epi32(c.m as i32), m_neg_inv: _mm256_set1_epi32(c.neg_inv as i32) };
            // SAFETY: this function only runs with AVX2 enabled; the caller's lengths.
            unsafe { mul_scaled_body(l, a, b, w_r2) }
        }
        if !crate::Isa::Avx2.is_available() || b.len() < a.len() {
            return 0;
        }
        // SAFETY: the CPU has AVX2 and b is long enough (checked above).
        unsafe { run(c, a, b, w_r2) }
    }

    /// Powers with AVX2 when the CPU has it; returns the number of elements done.
    pub(super) fn pow_avx2(c: Montgomery32, data: &mut [u32], e: u64) -> usize {
        #[target_feature(enable = "avx2")]
        unsafe fn run(c: Montgomery32, data: &mut [u32], e: u64) -> usize {
            let l = Avx2 { m: _mm256_set1_epi32(c.m as i32), m_neg_inv: _mm256_set1_epi32(c.neg_inv as i32) };
            // SAFETY: this function only runs with AVX2 enabled.
            unsafe { pow_body(l, c, data, e) }
        }
        if !crate::Isa::Avx2.is_available() {
            return 0;
        }
        // SAFETY: the CPU has AVX2 (checked above).
        unsafe { run(c, data, e) }
    }
}
