//! The zeta and Möbius butterflies over subsets and supersets on the SIMD backends: each of the
//! xor kernel's register types lends its addition, subtraction, partner shuffle and lane select
//! ([`SetLanes`]), and [`Kind`] builds the four butterflies from them, for the shared kernel
//! driver ([`super::kernel`]) with its blocking, column passes and threads.
//!
//! The four kinds, as `(a, b)` → pair at distance `h` (lane or index `i` with bit `h` clear, and
//! `i + h`):
//! - [`SUBSET_ZETA`]: `(a, a + b)`; [`SUPERSET_ZETA`]: `(a + b, b)`;
//! - [`SUBSET_MOBIUS`]: `(a, b − a)`; [`SUPERSET_MOBIUS`]: `(a − b, b)`.
//!
//! Inside a register, level `h` brings each lane's partner `q` (lane `i ^ 2^h`) with one shuffle,
//! computes `v + q` (zeta) or `v − q` (Möbius) in every lane, and keeps it only in the lanes
//! that change: those with bit `h` set for subsets, clear for supersets (one blend). Each sum
//! or difference is the ring's own, with the reductions of the xor butterflies (residues stay
//! below `m`; floats round each operation once, as the scalar code does), so every backend
//! equals the portable kernel exactly.

use super::Isa;
use super::kernel::Butterflies;

pub use super::lanes::{Kind, SUBSET_MOBIUS, SUBSET_ZETA, SUPERSET_MOBIUS, SUPERSET_ZETA, SetLanes};

/// The kind of butterfly for sets over `superset`s (or subsets), Möbius when `inverse`.
pub fn kind(superset: bool, inverse: bool) -> u8 {
    u8::from(superset) | u8::from(inverse) << 1
}

/// Runs the SIMD kernel of kind `kind` for `l`'s register type when it exists and its leaf fits;
/// false, with `data` untouched, when the caller must use the portable kernel.
#[cfg_attr(not(target_arch = "x86_64"), allow(dead_code))]
fn run<L, E>(l: Option<L>, kind: u8, data: &mut [E], log2: u32, parallel: bool) -> bool
where
    L: SetLanes<E = E>,
    Kind<L, SUBSET_ZETA>: Butterflies<Elem = E>,
    Kind<L, SUPERSET_ZETA>: Butterflies<Elem = E>,
    Kind<L, SUBSET_MOBIUS>: Butterflies<Elem = E>,
    Kind<L, SUPERSET_MOBIUS>: Butterflies<Elem = E>,
{
    let Some(l) = l else { return false };
    if log2 < <Kind<L, SUBSET_ZETA> as Butterflies>::LEAF_LOG2 {
        return false;
    }
    use super::kernel::transform as kernel;
    match kind {
        SUBSET_ZETA => kernel(Kind::<L, SUBSET_ZETA>(l), data, log2, parallel),
        SUPERSET_ZETA => kernel(Kind::<L, SUPERSET_ZETA>(l), data, log2, parallel),
        SUBSET_MOBIUS => kernel(Kind::<L, SUBSET_MOBIUS>(l), data, log2, parallel),
        _ => kernel(Kind::<L, SUPERSET_MOBIUS>(l), data, log2, parallel),
    }
    true
}

/// The SIMD zeta or Möbius transform of kind `kind` of `data` (`2^log2` elements) on `backend`.
/// Returns false, with `data` untouched, when that backend has no kernel for the length (or is
/// the scalar one): the caller then runs the portable kernel.
macro_rules! dispatch {
    ($(#[$doc:meta])* $name:ident($($arg:ident: $ty:ty),*), $elem:ty, $avx2:expr, $avx512:expr) => {
        $(#[$doc])*
        pub fn $name(
            $($arg: $ty,)*
            kind: u8,
            data: &mut [$elem],
            log2: u32,
            backend: Isa,
            parallel: bool,
        ) -> bool {
            let _ = ($($arg,)* kind, &data, log2, parallel);
            match backend {
                #[cfg(target_arch = "x86_64")]
                Isa::Avx512 => run($avx512, kind, data, log2, parallel),
                #[cfg(target_arch = "x86_64")]
                Isa::Avx2 => run($avx2, kind, data, log2, parallel),
                _ => false,
            }
        }
    };
}

#[cfg(target_arch = "x86_64")]
use super::x86::{avx2, avx512};

dispatch!(
    /// Residues modulo an odd `m < 2^31`.
    mod32(m: u32), u32, avx2::Mod32x8::new(m), avx512::Mod32x16::new(m)
);
dispatch!(
    /// Residues modulo an odd `m < 2^63`.
    mod64(m: u64), u64, avx2::Mod64x4::new(m), avx512::Mod64x8::new(m)
);
dispatch!(
    /// Wrapping `u32` arithmetic.
    wrap32(), u32, avx2::Wrap32x8::new(), avx512::Wrap32x16::new()
);
dispatch!(
    /// Wrapping `u64` arithmetic (also exact `i64` within a checked bound).
    wrap64(), u64, avx2::Wrap64x4::new(), avx512::Wrap64x8::new()
);
dispatch!(
    /// IEEE single precision.
    f32(), f32, avx2::F32x8::new(), avx512::F32x16::new()
);
dispatch!(
    /// IEEE double precision.
    f64(), f64, avx2::F64x4::new(), avx512::F64x8::new()
);

/// One column pass of kind `kind` across `rows` (2, 4, 8 or 16 rows of one length, a multiple
/// of 256: the transform of length `rows.len()` of every column, see
/// [`super::kernel::rows_pass`]) for `l`'s register type; false, with the rows untouched, when
/// the type does not exist on this CPU or the rows do not suit it.
#[cfg_attr(not(target_arch = "x86_64"), allow(dead_code))]
fn run_rows<L, E>(l: Option<L>, kind: u8, rows: &mut [&mut [E]], parallel: bool) -> bool
where
    L: SetLanes<E = E>,
    Kind<L, SUBSET_ZETA>: Butterflies<Elem = E>,
    Kind<L, SUPERSET_ZETA>: Butterflies<Elem = E>,
    Kind<L, SUBSET_MOBIUS>: Butterflies<Elem = E>,
    Kind<L, SUPERSET_MOBIUS>: Butterflies<Elem = E>,
{
    let Some(l) = l else { return false };
    let len = rows.first().map_or(0, |r| r.len());
    if !(matches!(rows.len(), 2 | 4 | 8 | 16)
        && len > 0
        && len.is_multiple_of(256)
        && rows.iter().all(|r| r.len() == len))
    {
        return false;
    }
    use super::kernel::rows_pass as pass;
    match kind {
        SUBSET_ZETA => pass(Kind::<L, SUBSET_ZETA>(l), rows, false, parallel),
        SUPERSET_ZETA => pass(Kind::<L, SUPERSET_ZETA>(l), rows, false, parallel),
        SUBSET_MOBIUS => pass(Kind::<L, SUBSET_MOBIUS>(l), rows, false, parallel),
        _ => pass(Kind::<L, SUPERSET_MOBIUS>(l), rows, false, parallel),
    }
    true
}

/// [`run_rows`] on `backend` for residues modulo an odd `m < 2^31`; false, with the rows
/// untouched, when that backend has no kernel (or is the scalar one) or the rows do not suit it.
pub fn mod32_rows(m: u32, kind: u8, rows: &mut [&mut [u32]], backend: Isa, parallel: bool) -> bool {
    let _ = (m, kind, &rows, parallel);
    match backend {
        #[cfg(target_arch = "x86_64")]
        Isa::Avx512 => run_rows(avx512::Mod32x16::new(m), kind, rows, parallel),
        #[cfg(target_arch = "x86_64")]
        Isa::Avx2 => run_rows(avx2::Mod32x8::new(m), kind, rows, parallel),
        _ => false,
    }
}

/// Plain Rust code (loops over words that the compiler vectorises) to be compiled for an
/// instruction set chosen at run time: see [`run_widest`].
pub trait Vectorised {
    /// The result.
    type Out;
    /// The computation; implementations mark it `#[inline(always)]`, and the functions it
    /// calls too, so that it is compiled inside each `#[target_feature]` wrapper.
    fn run(self) -> Self::Out;
}

/// `k.run()` compiled for `backend` (AVX2, or AVX-512 F, BW, DQ and VL) where this CPU runs it,
/// for the portable target otherwise.
pub fn run_widest<K: Vectorised>(k: K, backend: Isa) -> K::Out {
    #[cfg(target_arch = "x86_64")]
    {
        #[target_feature(enable = "avx512f,avx512bw,avx512dq,avx512vl,avx2,fma")]
        fn avx512<K: Vectorised>(k: K) -> K::Out {
            k.run()
        }
        #[target_feature(enable = "avx2,fma")]
        fn avx2<K: Vectorised>(k: K) -> K::Out {
            k.run()
        }
        if backend == Isa::Avx512 && backend.is_available() {
            // SAFETY: the CPU has every feature the function is compiled for (the backend's,
            // checked above).
            return unsafe { avx512(k) };
        }
        if backend == Isa::Avx2 && backend.is_available() {
            // SAFETY: the CPU has every feature the function is compiled for (checked above).
            return unsafe { avx2(k) };
        }
    }
    let _ = backend;
    k.run()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::portable::textbook;

    /// Every kind of `l` with every column pass staggered (the bound lowered to 0 bytes), from
    /// one leaf to 2^14 elements, serial and parallel, against the textbook loop with the same
    /// scalar operations `add` and `sub`.
    #[cfg(target_arch = "x86_64")]
    fn check<L: SetLanes>(
        l: L,
        add: fn(L::E, L::E) -> L::E,
        sub: fn(L::E, L::E) -> L::E,
        value: fn(u64) -> L::E,
    ) where
        L::E: PartialEq + std::fmt::Debug + Send + Sync,
        Kind<L, SUBSET_ZETA>: Butterflies<Elem = L::E>,
        Kind<L, SUPERSET_ZETA>: Butterflies<Elem = L::E>,
        Kind<L, SUBSET_MOBIUS>: Butterflies<Elem = L::E>,
        Kind<L, SUPERSET_MOBIUS>: Butterflies<Elem = L::E>,
    {
        use crate::kernel::transform_staggering as staggering;
        let mut seed = 0x5e7u64;
        let leaf = <Kind<L, SUBSET_ZETA> as Butterflies>::LEAF_LOG2;
        for log2 in leaf..=14 {
            let x: Vec<L::E> = (0..1usize << log2)
                .map(|_| {
                    seed = seed.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
                    value(seed >> 11)
                })
                .collect();
            for k in 0..4u8 {
                let mut want = x.clone();
                textbook(&mut want, |a, b| match k {
                    SUBSET_ZETA => (*a, add(*a, *b)),
                    SUPERSET_ZETA => (add(*a, *b), *b),
                    SUBSET_MOBIUS => (*a, sub(*b, *a)),
                    _ => (sub(*a, *b), *b),
                });
                for parallel in [false, true] {
                    let mut got = x.clone();
                    match k {
                        SUBSET_ZETA => staggering(Kind::<L, SUBSET_ZETA>(l), &mut got, log2, parallel, 0),
                        SUPERSET_ZETA => staggering(Kind::<L, SUPERSET_ZETA>(l), &mut got, log2, parallel, 0),
                        SUBSET_MOBIUS => staggering(Kind::<L, SUBSET_MOBIUS>(l), &mut got, log2, parallel, 0),
                        _ => staggering(Kind::<L, SUPERSET_MOBIUS>(l), &mut got, log2, parallel, 0),
                    }
                    assert!(got == want, "kind {k}, 2^{log2}, parallel {parallel}");
                }
            }
        }
    }

    #[test]
    fn staggered_zeta_and_mobius_passes_agree_with_textbook_on_every_backend() {
        #[cfg(target_arch = "x86_64")]
        {
            const M: u32 = 998_244_353;
            fn add(a: u32, b: u32) -> u32 {
                (a + b) % M
            }
            fn sub(a: u32, b: u32) -> u32 {
                (a + M - b) % M
            }
            let res = |s: u64| (s % u64::from(M)) as u32;
            let (fadd, fsub) = (|a: f64, b: f64| a + b, |a: f64, b: f64| a - b);
            let float = |s: u64| (s % 2001) as f64 * 0.3 - 300.0;
            match (avx512::Mod32x16::new(M), avx512::F64x8::new(), avx512::Wrap64x8::new()) {
                (Some(a), Some(b), Some(c)) => {
                    check(a, add, sub, res);
                    check(b, fadd, fsub, float);
                    check(c, u64::wrapping_add, u64::wrapping_sub, |s| s);
                }
                _ => eprintln!("SKIPPED: staggered zeta passes on AVX-512 (this CPU lacks it)"),
            }
            match (avx2::Mod32x8::new(M), avx2::F64x4::new(), avx2::Wrap64x4::new()) {
                (Some(a), Some(b), Some(c)) => {
                    check(a, add, sub, res);
                    check(b, fadd, fsub, float);
                    check(c, u64::wrapping_add, u64::wrapping_sub, |s| s);
                }
                _ => eprintln!("SKIPPED: staggered zeta passes on AVX2 (this CPU lacks it)"),
            }
        }
        #[cfg(not(target_arch = "x86_64"))]
        eprintln!("SKIPPED: staggered zeta passes on AVX2 and AVX-512 (not an x86-64 CPU)");
    }
}
