//! Chooses the kernel for a ring and a backend. A backend whose leaf is longer than the
//! transform, or that this build or CPU lacks, falls back to the portable kernel.

use super::Backend;
use super::kernel::{self, Butterflies};
use super::scalar;
use crate::ring::{Float32, Float64, Mod32, Mod64, Wrap32, Wrap64};

/// Runs the SIMD kernel `b` when it exists and its leaf fits, else `fallback`.
fn run_or<B: Butterflies>(
    b: Option<B>,
    data: &mut [B::Elem],
    log2: u32,
    parallel: bool,
    fallback: impl FnOnce(&mut [B::Elem]),
) {
    match b {
        Some(b) if log2 >= B::LEAF_LOG2 => kernel::transform(b, data, log2, parallel),
        _ => fallback(data),
    }
}

macro_rules! dispatch {
    ($(#[$doc:meta])* $name:ident($($arg:ident: $ty:ty),*), $elem:ty, $ring:expr, $avx2:expr, $avx512:expr) => {
        $(#[$doc])*
        pub(crate) fn $name($($arg: $ty,)* data: &mut [$elem], log2: u32, backend: Backend, parallel: bool) {
            let portable = |data: &mut [$elem]| scalar::transform($ring, data, log2, parallel);
            match backend {
                #[cfg(target_arch = "x86_64")]
                Backend::Avx512 => run_or($avx512, data, log2, parallel, portable),
                #[cfg(target_arch = "x86_64")]
                Backend::Avx2 => run_or($avx2, data, log2, parallel, portable),
                _ => portable(data),
            }
        }
    };
}

#[cfg(target_arch = "x86_64")]
use super::x86::{avx2, avx512};

dispatch!(mod32(ring: &Mod32), u32, *ring, avx2::Mod32x8::new(ring.modulus()), avx512::Mod32x16::new(ring.modulus()));
dispatch!(mod64(ring: &Mod64), u64, *ring, avx2::Mod64x4::new(ring.modulus()), avx512::Mod64x8::new(ring.modulus()));
dispatch!(wrap32(), u32, Wrap32, avx2::Wrap32x8::new(), avx512::Wrap32x16::new());
dispatch!(wrap64(), u64, Wrap64, avx2::Wrap64x4::new(), avx512::Wrap64x8::new());
dispatch!(f32(), f32, Float32, avx2::F32x8::new(), avx512::F32x16::new());
dispatch!(f64(), f64, Float64, avx2::F64x4::new(), avx512::F64x8::new());
