//! The SIMD kernels of nimcount: the in-place Walsh–Hadamard transform over machine words, its
//! zeta and Möbius siblings, the Montgomery power, `f16`/`bf16` storage with the dense last pass
//! of the Hadamard transforms of lengths `m·2^k`, and the masks of reachable Grundy values.
//!
//! A crate of its own so that every kernel is compiled once, here, and the library, its tests,
//! the command-line tool and the Python module link to the same machine code: the entry points
//! for the built-in word types are plain functions (`mod32`, `f32_rows`, `sets::mod64`,
//! `pointwise::pow_mod32`, `reach::mark`, `narrow::finish`, …), and only the portable driver
//! ([`portable`], [`kernel`]) is generic, for the rings a user defines.
//!
//! It knows machine words, not rings: every entry point takes plain moduli (`m`, and for the
//! Montgomery power its constants) and plain slices, and the rings of `nimcount` choose what to
//! call. With the distributed transform's shared-memory window (MPI's C calls), this crate holds
//! every `unsafe` block of nimcount.
//!
//! - [`Isa`]: the instruction sets, chosen explicitly by the caller, with the one CPU check of
//!   the process;
//! - `lanes`: the kernel bodies, written once over a register type;
//! - [`kernel`]: the cache-blocked driver (depth-first recursion, radix-16/8 column passes, rayon);
//! - [`portable`]: the same driver over single elements, for any butterfly;
//! - [`pointwise`]: the vectorised Montgomery power;
//! - [`sets`]: the zeta and Möbius butterflies on the register types of the xor kernels;
//! - [`narrow`]: `f16` and `bf16` storage with `f32` arithmetic, and the dense last pass of the
//!   Hadamard transforms of lengths `m·2^k`;
//! - `x86`: the AVX2 and AVX-512 register types;
//! - [`reach`]: the values reachable by many moves from many consecutive heaps, as bit masks
//!   (direct Grundy values of subtraction-type games).
//!
//! Every function that uses intrinsics is reached through a `#[target_feature]` wrapper, and the
//! register types can only be built after a CPU check; that is what makes the intrinsics sound.
#![warn(missing_docs)]
// The documentation of the kernels names their private helpers: it is read beside the code.
#![allow(rustdoc::private_intra_doc_links)]
#![deny(clippy::undocumented_unsafe_blocks)]

pub mod kernel;
mod lanes;
pub mod matrices;
pub mod narrow;
pub mod parallel;
pub mod pointwise;
pub mod portable;
pub mod reach;
pub mod sets;
#[doc(hidden)]
pub mod testing;
#[cfg(target_arch = "x86_64")]
mod x86;

use kernel::Butterflies;

/// Transforms (or column ranges) smaller than this many elements are never split across threads.
pub const PARALLEL_MIN: usize = 1 << 16;

/// An instruction set of the kernels. A kernel is asked for one; where the CPU lacks it, or the
/// kernel has no code for it (scalar), the kernel says so (`false` or `None`) and the caller runs
/// the portable path: no kernel of one instruction set ever runs another's code.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Isa {
    /// Portable Rust, always available.
    Scalar,
    /// x86-64 AVX2 (256-bit registers), with FMA and F16C.
    Avx2,
    /// x86-64 AVX-512 F, BW, DQ and VL (512-bit registers, 32 of them).
    Avx512,
}

impl Isa {
    /// Every instruction set, scalar first.
    pub const ALL: [Isa; 3] = [Isa::Scalar, Isa::Avx2, Isa::Avx512];

    /// The widest instruction set this CPU runs.
    pub fn best() -> Isa {
        *Self::ALL.iter().rev().find(|b| b.is_available()).expect("scalar is always available")
    }

    /// Its name: `scalar`, `avx2` or `avx512`.
    pub fn name(self) -> &'static str {
        match self {
            Isa::Scalar => "scalar",
            Isa::Avx2 => "avx2",
            Isa::Avx512 => "avx512",
        }
    }

    /// Whether this CPU runs the instruction set.
    ///
    /// AVX2 needs AVX2, FMA and F16C (the float and half-precision kernels); AVX-512 needs
    /// AVX-512 F, BW, DQ and VL besides all of those; detected once per process.
    pub fn is_available(self) -> bool {
        match self {
            Isa::Scalar => true,
            #[cfg(target_arch = "x86_64")]
            Isa::Avx2 => cpu()[0],
            #[cfg(target_arch = "x86_64")]
            Isa::Avx512 => cpu()[1],
            #[cfg(not(target_arch = "x86_64"))]
            _ => false,
        }
    }
}

impl std::fmt::Display for Isa {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

/// Whether the CPU runs AVX2 and AVX-512 ([`Isa::is_available`]): the one check of CPU features
/// of the process, made on first use.
#[cfg(target_arch = "x86_64")]
fn cpu() -> [bool; 2] {
    use std::arch::is_x86_feature_detected as has;
    static FEATURES: std::sync::OnceLock<[bool; 2]> = std::sync::OnceLock::new();
    *FEATURES.get_or_init(|| {
        let avx2 = has!("avx2") && has!("fma") && has!("f16c");
        let avx512 = avx2 && has!("avx512f") && has!("avx512bw") && has!("avx512dq") && has!("avx512vl");
        [avx2, avx512]
    })
}

/// Runs the SIMD kernel that `make` gives when its leaf fits and it exists; false when the caller
/// must use the portable kernel instead. `make` (which checks the CPU and builds the kernel's
/// constants) is not called for a length below the leaf: short blocks, transformed one by one
/// by the thousand, do not pay for a kernel they cannot use.
#[cfg(target_arch = "x86_64")]
fn run<B: Butterflies>(
    make: impl FnOnce() -> Option<B>,
    data: &mut [B::Elem],
    log2: u32,
    parallel: bool,
) -> bool {
    match (log2 >= B::LEAF_LOG2).then(make).flatten() {
        Some(b) => {
            kernel::transform(b, data, log2, parallel);
            true
        }
        None => false,
    }
}

/// The SIMD transform of `data` (`2^log2` elements of one kind) on `backend`. Returns false, with
/// `data` untouched, when that backend has no kernel for the length (or is the scalar one): the
/// caller then runs [`portable::transform`].
macro_rules! dispatch {
    ($(#[$doc:meta])* $name:ident($($arg:ident: $ty:ty),*), $elem:ty, $avx2:expr, $avx512:expr) => {
        $(#[$doc])*
        pub fn $name($($arg: $ty,)* data: &mut [$elem], log2: u32, backend: Isa, parallel: bool) -> bool {
            let _ = ($($arg,)* &data, log2, parallel);
            match backend {
                #[cfg(target_arch = "x86_64")]
                Isa::Avx512 => run(|| $avx512, data, log2, parallel),
                #[cfg(target_arch = "x86_64")]
                Isa::Avx2 => run(|| $avx2, data, log2, parallel),
                _ => false,
            }
        }
    };
}

#[cfg(target_arch = "x86_64")]
use x86::{avx2, avx512};

/// Runs one column pass of the SIMD kernel `b` across `rows` when it exists and the rows suit
/// it (2, 4, 8 or 16 of one length, a multiple of 256); false when the caller must do it.
#[cfg(target_arch = "x86_64")]
fn run_rows<B: Butterflies>(
    b: Option<B>,
    rows: &mut [&mut [B::Elem]],
    staggered: bool,
    parallel: bool,
) -> bool {
    let len = rows.first().map_or(0, |r| r.len());
    match b {
        Some(b)
            if matches!(rows.len(), 2 | 4 | 8 | 16)
                && len > 0
                && len.is_multiple_of(256)
                && rows.iter().all(|r| r.len() == len) =>
        {
            kernel::rows_pass(b, rows, staggered, parallel);
            true
        }
        _ => false,
    }
}

/// One SIMD column pass across rows (see [`kernel::rows_pass`]) on `backend`; false, with the
/// rows untouched, when that backend has no kernel or the rows do not suit it.
macro_rules! dispatch_rows {
    ($(#[$doc:meta])* $name:ident($($arg:ident: $ty:ty),*), $elem:ty, $avx2:expr, $avx512:expr) => {
        $(#[$doc])*
        pub fn $name(
            $($arg: $ty,)*
            rows: &mut [&mut [$elem]],
            staggered: bool,
            backend: Isa,
            parallel: bool,
        ) -> bool {
            let _ = ($($arg,)* &rows, staggered, parallel);
            match backend {
                #[cfg(target_arch = "x86_64")]
                Isa::Avx512 => run_rows($avx512, rows, staggered, parallel),
                #[cfg(target_arch = "x86_64")]
                Isa::Avx2 => run_rows($avx2, rows, staggered, parallel),
                _ => false,
            }
        }
    };
}

dispatch_rows!(
    /// Residues modulo an odd `m < 2^31`, across rows.
    mod32_rows(m: u32), u32, avx2::Mod32x8::new(m), avx512::Mod32x16::new(m)
);
dispatch_rows!(
    /// Residues modulo an odd `m < 2^63`, across rows.
    mod64_rows(m: u64), u64, avx2::Mod64x4::new(m), avx512::Mod64x8::new(m)
);
dispatch_rows!(
    /// Wrapping `u32` arithmetic, across rows.
    wrap32_rows(), u32, avx2::Wrap32x8::new(), avx512::Wrap32x16::new()
);
dispatch_rows!(
    /// Wrapping `u64` arithmetic, across rows.
    wrap64_rows(), u64, avx2::Wrap64x4::new(), avx512::Wrap64x8::new()
);
dispatch_rows!(
    /// IEEE single precision, across rows.
    f32_rows(), f32, avx2::F32x8::new(), avx512::F32x16::new()
);
dispatch_rows!(
    /// IEEE double precision, across rows.
    f64_rows(), f64, avx2::F64x4::new(), avx512::F64x8::new()
);

/// Runs the checked SIMD kernel `b` when it exists and its leaf fits; `None` when the caller must
/// use the portable kernel instead.
#[cfg(target_arch = "x86_64")]
fn run_checked<B: Butterflies>(
    b: Option<B>,
    data: &mut [B::Elem],
    log2: u32,
    parallel: bool,
    undo: kernel::Undo<'_, B::Elem>,
) -> Option<std::result::Result<(), usize>> {
    match b {
        Some(b) if log2 >= B::LEAF_LOG2 => Some(kernel::transform_checked(b, data, log2, parallel, undo)),
        _ => None,
    }
}

/// The checked SIMD transform of residues (see [`kernel::transform_checked`]) on `backend`:
/// `None`, with `data` untouched, when that backend has no kernel for the length.
macro_rules! dispatch_checked {
    ($(#[$doc:meta])* $name:ident, $elem:ty, $avx2:path, $avx512:path) => {
        $(#[$doc])*
        pub fn $name(
            m: $elem,
            data: &mut [$elem],
            log2: u32,
            backend: Isa,
            parallel: bool,
            undo: kernel::Undo<'_, $elem>,
        ) -> Option<std::result::Result<(), usize>> {
            let _ = (m, &data, log2, parallel, undo);
            match backend {
                #[cfg(target_arch = "x86_64")]
                Isa::Avx512 => run_checked($avx512(m), data, log2, parallel, undo),
                #[cfg(target_arch = "x86_64")]
                Isa::Avx2 => run_checked($avx2(m), data, log2, parallel, undo),
                _ => None,
            }
        }
    };
}

dispatch_checked!(
    /// Residues modulo an odd `m < 2^31`, checked to be below `m`.
    mod32_checked, u32, avx2::Mod32x8::new, avx512::Mod32x16::new
);
dispatch_checked!(
    /// Residues modulo an odd `m < 2^63`, checked to be below `m`.
    mod64_checked, u64, avx2::Mod64x4::new, avx512::Mod64x8::new
);

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
/// Every consecutive chunk of `2^log2` elements of `data` transformed on `backend`, for chunks
/// of one to eight registers (shorter than the kernel's leaf, which [`f32`] needs), one CPU check
/// for all of them; false, with `data` untouched, for other lengths and backends (the caller
/// then transforms the chunks one by one). The same sums as the whole kernel, the same bits.
macro_rules! dispatch_chunks {
    ($(#[$doc:meta])* $name:ident, $elem:ty, $avx2:expr, $avx512:expr) => {
        $(#[$doc])*
        pub fn $name(data: &mut [$elem], log2: u32, backend: Isa) -> bool {
            let _ = (&data, log2);
            match backend {
                #[cfg(target_arch = "x86_64")]
                Isa::Avx512 => $avx512.is_some_and(|l| l.short_chunks(data, log2)),
                #[cfg(target_arch = "x86_64")]
                Isa::Avx2 => $avx2.is_some_and(|l| l.short_chunks(data, log2)),
                _ => false,
            }
        }
    };
}

dispatch_chunks!(
    /// IEEE single precision, chunk by chunk.
    f32_chunks, f32, avx2::F32x8::new(), avx512::F32x16::new()
);
dispatch_chunks!(
    /// IEEE double precision, chunk by chunk.
    f64_chunks, f64, avx2::F64x4::new(), avx512::F64x8::new()
);

dispatch!(
    /// IEEE single precision.
    f32(), f32, avx2::F32x8::new(), avx512::F32x16::new()
);
dispatch!(
    /// IEEE double precision.
    f64(), f64, avx2::F64x4::new(), avx512::F64x8::new()
);

#[cfg(test)]
mod tests {
    use super::*;

    /// A backend is available exactly when the CPU has every feature of its kernels, and then
    /// every register type of it exists: none is missing on its own, none is replaced.
    #[test]
    fn a_backend_runs_all_its_kernels_or_none() {
        #[cfg(target_arch = "x86_64")]
        {
            use std::arch::is_x86_feature_detected as has;
            let avx2 = has!("avx2") && has!("fma") && has!("f16c");
            let avx512 = avx2 && has!("avx512f") && has!("avx512bw") && has!("avx512dq") && has!("avx512vl");
            assert_eq!(Isa::Avx2.is_available(), avx2);
            assert_eq!(Isa::Avx512.is_available(), avx512);
            let avx2_types = [
                avx2::Mod32x8::new(7).is_some(),
                avx2::Mod64x4::new(7).is_some(),
                avx2::Wrap32x8::new().is_some(),
                avx2::Wrap64x4::new().is_some(),
                avx2::F32x8::new().is_some(),
                avx2::F64x4::new().is_some(),
            ];
            assert_eq!(avx2_types, [avx2; 6]);
            let avx512_types = [
                avx512::Mod32x16::new(7).is_some(),
                avx512::Mod64x8::new(7).is_some(),
                avx512::Wrap32x16::new().is_some(),
                avx512::Wrap64x8::new().is_some(),
                avx512::F32x16::new().is_some(),
                avx512::F64x8::new().is_some(),
            ];
            assert_eq!(avx512_types, [avx512; 6]);
            if !avx512 {
                eprintln!("SKIPPED: the AVX-512 register types on a CPU that has them (this one lacks them)");
            }
        }
        assert!(Isa::Scalar.is_available());
        assert_eq!(Isa::best(), *Isa::ALL.iter().rev().find(|b| b.is_available()).unwrap());
    }
}
