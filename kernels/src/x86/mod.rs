//! x86-64 SIMD backends.
//!
//! Every register type here holds a private token proving the CPU check passed; only
//! `new` (which runs `is_x86_feature_detected!`) creates one. The intrinsics inside the
//! `Lanes` methods are sound to call because such a value exists.

pub mod avx2;
pub mod avx512;

/// The associated types and the unaligned `load` and `store` of a [`Lanes`] implementation.
///
/// [`Lanes`]: crate::lanes::Lanes
macro_rules! load_store {
    ($e:ty, $v:ty, $width:expr, $load:path, $store:path) => {
        type E = $e;
        type V = $v;
        const WIDTH: usize = $width;

        #[inline(always)]
        unsafe fn load(self, ptr: *const $e) -> $v {
            // SAFETY: the caller guarantees WIDTH readable elements; no alignment is needed.
            unsafe { $load(ptr.cast()) }
        }
        #[inline(always)]
        unsafe fn store(self, ptr: *mut $e, v: $v) {
            // SAFETY: the caller guarantees WIDTH writable elements; no alignment is needed.
            unsafe { $store(ptr.cast(), v) }
        }
    };
}
pub(crate) use load_store;

/// Implements [`Butterflies`](crate::kernel::Butterflies) for a register type by
/// instantiating the shared kernel bodies inside `#[target_feature]` functions.
///
/// `simd_butterflies!(const K, Kind<Lanes, K>, …)` does the same for a type with one `u8` const
/// parameter (the zeta and Möbius kinds of [`crate::sets`]).
macro_rules! simd_butterflies {
    ($lanes:ty, $elem:ty, $feature:literal) => {
        crate::x86::simd_butterflies!(@ [] $lanes, $elem, $feature);
    };
    (const $k:ident, $lanes:ty, $elem:ty, $feature:literal) => {
        crate::x86::simd_butterflies!(@ [const $k: u8] $lanes, $elem, $feature);
    };
    (@ [$($gen:tt)*] $lanes:ty, $elem:ty, $feature:literal) => {
        impl<$($gen)*> crate::kernel::Butterflies for $lanes {
            type Elem = $elem;
            const LEAF_LOG2: u32 = 4 + <$lanes as crate::lanes::Lanes>::WIDTH.trailing_zeros();

            fn leaves(self, data: &mut [$elem]) {
                #[target_feature(enable = $feature)]
                unsafe fn leaves<$($gen)*>(l: $lanes, data: &mut [$elem]) {
                    // SAFETY: forwarded from the caller.
                    unsafe { crate::lanes::leaves(l, data) }
                }
                assert_eq!(data.len() % (1 << Self::LEAF_LOG2), 0);
                // SAFETY: `self` exists only where the CPU has the feature; the length was checked.
                unsafe { leaves(self, data) }
            }

            fn columns(self, rows: &mut [&mut [$elem]]) {
                #[target_feature(enable = $feature)]
                unsafe fn columns<$($gen)*>(l: $lanes, rows: &mut [&mut [$elem]]) {
                    // SAFETY: forwarded from the caller.
                    unsafe { crate::lanes::columns(l, rows) }
                }
                crate::lanes::assert_rows(rows, <$lanes as crate::lanes::Lanes>::WIDTH);
                // SAFETY: `self` exists only where the CPU has the feature; the shape was checked.
                unsafe { columns(self, rows) }
            }

            fn staggered(self, rows: &mut [&mut [$elem]]) {
                #[target_feature(enable = $feature)]
                unsafe fn staggered<$($gen)*>(l: $lanes, rows: &mut [&mut [$elem]]) {
                    // SAFETY: forwarded from the caller.
                    unsafe { crate::lanes::staggered(l, rows) }
                }
                crate::lanes::assert_rows(rows, <$lanes as crate::lanes::Lanes>::WIDTH);
                // SAFETY: `self` exists only where the CPU has the feature; the shape was checked.
                unsafe { staggered(self, rows) }
            }

            fn valid(self, data: &[$elem]) -> bool {
                #[target_feature(enable = $feature)]
                unsafe fn valid<$($gen)*>(l: $lanes, data: &[$elem]) -> bool {
                    // SAFETY: forwarded from the caller.
                    unsafe { crate::lanes::valid(l, data) }
                }
                assert_eq!(data.len() % (1 << Self::LEAF_LOG2), 0);
                // SAFETY: `self` exists only where the CPU has the feature; the length was checked.
                unsafe { valid(self, data) }
            }
        }
    };
}
pub(crate) use simd_butterflies;

/// `short_chunks` ([`crate::lanes::short_chunks`]) on the lanes type `$lanes` of `$elem`, with
/// the instruction set `$feature` enabled.
macro_rules! short_chunks {
    ($lanes:ty, $elem:ty, $feature:literal) => {
        impl $lanes {
            /// [`crate::lanes::short_chunks`] on this backend.
            pub fn short_chunks(self, data: &mut [$elem], log2: u32) -> bool {
                #[target_feature(enable = $feature)]
                unsafe fn run(l: $lanes, data: &mut [$elem], log2: u32) -> bool {
                    // SAFETY: forwarded from the caller.
                    unsafe { crate::lanes::short_chunks(l, data, log2) }
                }
                // SAFETY: `self` exists only where the CPU has the feature.
                unsafe { run(self, data, log2) }
            }
        }
    };
}
pub(crate) use short_chunks;

/// `+1.0` on the lanes whose bit `h` is clear, `-1.0` where it is set, for each in-register level.
pub fn signs<const N: usize>(width: usize) -> [[f64; 16]; N] {
    let mut out = [[0.0; 16]; N];
    for (level, signs) in out.iter_mut().enumerate() {
        for (lane, sign) in signs.iter_mut().enumerate().take(width) {
            *sign = if lane >> level & 1 == 0 { 1.0 } else { -1.0 };
        }
    }
    out
}
