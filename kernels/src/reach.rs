//! Reachable-value masks: for a run of consecutive heaps and a list of moves, which small
//! values the moves reach.
//!
//! Heap `n` reaches value `v` through move `m` when `G(n − m) = v`. For `count` consecutive
//! heaps `start, start + 1, …` and one move `m`, the values `G(start − m), G(start + 1 − m), …`
//! are contiguous in memory, so one load brings the values of several heaps, each lane is
//! turned into a one-hot mask (`1 << (v − 64 j)` in word `j`, zero when `v` lies outside the
//! word) and OR-ed into that heap's mask, held in registers across a chunk of moves (a tile of
//! heaps and a chunk of moves at a time, so the values read stay in L1). One pair costs
//! `3 · words` vector operations for four (AVX2) or eight (AVX-512) heaps. A value of at
//! least `64 · words` marks nothing: the caller takes a mask whose words are all full as "mex
//! beyond the mask" and computes that heap another way.
//!
//! Masks are stored word by word: word `j` of heap `i` is `masks[j · count + i]`.
//!
//! The kernel bodies follow the rules of [`super::lanes`]: index loops over fixed-size
//! register arrays, no closures or iterator adapters around the intrinsics, helpers inlined
//! into the `#[target_feature]` functions.
#![allow(clippy::needless_range_loop)]

use super::Isa;

/// The widest mask, in 64-bit words (values below 512).
pub const MAX_WORDS: usize = 8;

/// Heaps per tile and moves per chunk: a chunk reads `CHUNK` runs of `TILE` values for a tile
/// (a few KiB with the cache lines they straddle), which stay in L1 beside the tile's masks
/// while every group of the tile goes through the chunk; the few moves of a chunk also keep
/// their pages in the first-level TLB (consecutive squares 4 KiB apart land on different
/// pages). Sweeping all the moves for one group at a time fetched each line again from L2 or
/// L3 for every group: at 4 million heaps of subtract-a-square that was 2.7× slower than
/// 128 × 12, and 64 × 32 or 128 × 16 were 10–40% slower. While a chunk is worked on, the
/// runs of the next one are prefetched ([`prefetch_next`]): subtract-a-square to 10^7 on one
/// thread took 0.86 of the time without (paired whole-process runs, Zen 3).
const TILE: usize = 128;
const CHUNK: usize = 12;

/// A stored Grundy value: `u8`, `u16` or `u32`, zero-extended into 64-bit lanes.
pub trait Element: Copy + Send + Sync + 'static {
    /// The value as an index.
    fn index(self) -> usize;

    /// Four values from `p`, zero-extended into the four 64-bit lanes of an AVX2 register.
    ///
    /// # Safety
    /// AVX2 must be available and `p..p + 4` readable.
    #[cfg(target_arch = "x86_64")]
    unsafe fn load4(p: *const Self) -> std::arch::x86_64::__m256i;

    /// Eight values from `p`, zero-extended into the eight 64-bit lanes of an AVX-512 register.
    ///
    /// # Safety
    /// AVX-512F must be available and `p..p + 8` readable.
    #[cfg(target_arch = "x86_64")]
    unsafe fn load8(p: *const Self) -> std::arch::x86_64::__m512i;

    /// [`mark`] for values of this type: compiled here, once per type.
    fn mark_values(isa: Isa, values: &[Self], start: usize, moves: &[usize], words: usize, masks: &mut [u64]);
}

#[cfg(target_arch = "x86_64")]
use std::arch::x86_64::*;

impl Element for u8 {
    #[inline(always)]
    fn index(self) -> usize {
        self as usize
    }
    fn mark_values(isa: Isa, values: &[u8], start: usize, moves: &[usize], words: usize, masks: &mut [u64]) {
        mark_of(isa, values, start, moves, words, masks)
    }
    #[cfg(target_arch = "x86_64")]
    #[inline(always)]
    unsafe fn load4(p: *const u8) -> __m256i {
        // SAFETY: the caller guarantees AVX2 and 4 readable bytes; the read is unaligned.
        unsafe { _mm256_cvtepu8_epi64(_mm_cvtsi32_si128(p.cast::<i32>().read_unaligned())) }
    }
    #[cfg(target_arch = "x86_64")]
    #[inline(always)]
    unsafe fn load8(p: *const u8) -> __m512i {
        // SAFETY: the caller guarantees AVX-512F and 8 readable bytes; `loadl` reads 8 bytes.
        unsafe { _mm512_cvtepu8_epi64(_mm_loadl_epi64(p.cast())) }
    }
}

impl Element for u16 {
    #[inline(always)]
    fn index(self) -> usize {
        self as usize
    }
    fn mark_values(isa: Isa, values: &[u16], start: usize, moves: &[usize], words: usize, masks: &mut [u64]) {
        mark_of(isa, values, start, moves, words, masks)
    }
    #[cfg(target_arch = "x86_64")]
    #[inline(always)]
    unsafe fn load4(p: *const u16) -> __m256i {
        // SAFETY: the caller guarantees AVX2 and 4 readable u16 (8 bytes, what `loadl` reads).
        unsafe { _mm256_cvtepu16_epi64(_mm_loadl_epi64(p.cast())) }
    }
    #[cfg(target_arch = "x86_64")]
    #[inline(always)]
    unsafe fn load8(p: *const u16) -> __m512i {
        // SAFETY: the caller guarantees AVX-512F and 8 readable u16 (16 bytes).
        unsafe { _mm512_cvtepu16_epi64(_mm_loadu_si128(p.cast())) }
    }
}

impl Element for u32 {
    #[inline(always)]
    fn index(self) -> usize {
        self as usize
    }
    fn mark_values(isa: Isa, values: &[u32], start: usize, moves: &[usize], words: usize, masks: &mut [u64]) {
        mark_of(isa, values, start, moves, words, masks)
    }
    #[cfg(target_arch = "x86_64")]
    #[inline(always)]
    unsafe fn load4(p: *const u32) -> __m256i {
        // SAFETY: the caller guarantees AVX2 and 4 readable u32 (16 bytes).
        unsafe { _mm256_cvtepu32_epi64(_mm_loadu_si128(p.cast())) }
    }
    #[cfg(target_arch = "x86_64")]
    #[inline(always)]
    unsafe fn load8(p: *const u32) -> __m512i {
        // SAFETY: the caller guarantees AVX-512F and 8 readable u32 (32 bytes).
        unsafe { _mm512_cvtepu32_epi64(_mm256_loadu_si256(p.cast())) }
    }
}

/// ORs into `masks` the values reached from heaps `start .. start + count` by every move in
/// `moves`: for heap `start + i` and move `m`, the value `v = values[start + i − m]` sets bit
/// `v % 64` of word `v / 64` of mask `i` when `v < 64 · words`. Word `j` of mask `i` is
/// `masks[j · count + i]`, with `count = masks.len() / words`.
///
/// Every move must satisfy `m <= start` and `start + count <= values.len() + m`: the values
/// reached are all in `values` (moves at least `count` long from heaps after the last value
/// known, as a block's long moves). A backend this CPU lacks runs the portable loop.
///
/// # Panics
/// When `words` is not in `1..=MAX_WORDS`, `masks.len()` is not a multiple of it, or a move
/// breaks the bounds above.
pub fn mark<T: Element>(
    isa: Isa,
    values: &[T],
    start: usize,
    moves: &[usize],
    words: usize,
    masks: &mut [u64],
) {
    T::mark_values(isa, values, start, moves, words, masks)
}

/// [`mark`], compiled for each [`Element`] by its `mark_values`.
fn mark_of<T: Element>(
    backend: Isa,
    values: &[T],
    start: usize,
    moves: &[usize],
    words: usize,
    masks: &mut [u64],
) {
    assert!((1..=MAX_WORDS).contains(&words) && masks.len().is_multiple_of(words), "mask shape");
    let count = masks.len() / words;
    for &m in moves {
        assert!(m <= start && start + count <= values.len() + m, "move {m} reaches outside the values");
    }
    if count == 0 || moves.is_empty() {
        return;
    }
    match backend {
        #[cfg(target_arch = "x86_64")]
        Isa::Avx512 if Isa::Avx512.is_available() => {
            // SAFETY: AVX-512F is available; the bounds checked above keep every read,
            // `values[start + i − m]` for `i < count`, inside `values`, and every write in
            // `masks`.
            unsafe { avx512::mark(values, start, moves, words, masks) }
        }
        #[cfg(target_arch = "x86_64")]
        Isa::Avx2 if Isa::Avx2.is_available() => {
            // SAFETY: AVX2 is available; bounds as above.
            unsafe { avx2::mark(values, start, moves, words, masks) }
        }
        _ => mark_scalar(values, start, moves, words, masks, 0),
    }
}

/// The portable loop, for masks `from..count` (the SIMD kernels finish their last partial
/// group with it).
fn mark_scalar<T: Element>(
    values: &[T],
    start: usize,
    moves: &[usize],
    words: usize,
    masks: &mut [u64],
    from: usize,
) {
    let count = masks.len() / words;
    let limit = 64 * words;
    for i in from..count {
        let n = start + i;
        let mut w = [0u64; MAX_WORDS];
        for &m in moves {
            let v = values[n - m].index();
            if v < limit {
                w[v / 64] |= 1 << (v % 64);
            }
        }
        for j in 0..words {
            masks[j * count + i] |= w[j];
        }
    }
}

/// Asks for the values the kernel reads next into L1 while it works on the current chunk:
/// the runs of the next chunk of moves for the same tile of groups, or of the first chunk for
/// the next tile. Each run is a move's values for the tile's heaps, contiguous; the runs of
/// different moves lie far apart, too many streams for the hardware prefetcher to follow.
///
/// `(t, t_end, c_end)`: the current tile is groups `t .. t_end` and the current chunk ends
/// at move `c_end`; `heaps` heaps a group, `groups` groups in all, `tile` groups a tile.
#[cfg(target_arch = "x86_64")]
#[inline(always)]
fn prefetch_next<T: Element>(
    values: &[T],
    start: usize,
    moves: &[usize],
    (t, t_end, c_end): (usize, usize, usize),
    heaps: usize,
    groups: usize,
    tile: usize,
) {
    let (t, t_end, c) = if c_end < moves.len() {
        (t, t_end, c_end)
    } else if t_end < groups {
        (t_end, groups.min(t_end + tile), 0)
    } else {
        return;
    };
    let bytes = (t_end - t) * heaps * std::mem::size_of::<T>();
    for &m in &moves[c..moves.len().min(c + CHUNK)] {
        // Inside `values` by the bounds of `mark`: heaps below `count` read below `values.len()`.
        let run = values[start + t * heaps - m..].as_ptr().cast::<i8>();
        let mut line = 0;
        while line < bytes + 64 {
            // SAFETY: prefetching never faults; the address is computed with wrapping
            // arithmetic and at most one line past the run.
            unsafe { _mm_prefetch::<_MM_HINT_T0>(run.wrapping_add(line)) };
            line += 64;
        }
    }
}

/// One register of 64-bit lanes, each holding one word of one heap's mask, and the operations
/// of [`kernel`] on it. A value exists only inside the `#[target_feature]` function of its
/// instruction set (which the caller may enter only on a CPU that has it), so the intrinsics
/// in the methods are sound to call; every method is `#[inline(always)]` to compile inside
/// that function.
#[cfg(target_arch = "x86_64")]
trait MaskLanes: Copy {
    /// The register type.
    type V: Copy;
    /// Lanes (heaps) per register.
    const WIDTH: usize;
    /// Every lane `x`.
    fn splat(self, x: i64) -> Self::V;
    /// `WIDTH` mask words from `p` (no alignment needed).
    ///
    /// # Safety
    /// `p .. p + WIDTH` must be readable.
    unsafe fn load(self, p: *const u64) -> Self::V;
    /// `WIDTH` mask words to `p`.
    ///
    /// # Safety
    /// `p .. p + WIDTH` must be writable.
    unsafe fn store(self, p: *mut u64, v: Self::V);
    /// `WIDTH` values from `p`, zero-extended into the lanes.
    ///
    /// # Safety
    /// `p .. p + WIDTH` must be readable.
    unsafe fn values<T: Element>(self, p: *const T) -> Self::V;
    /// `acc | (one << (x + offset))`, lane by lane. A lane outside the word shifts by a count
    /// of 64 or more (or wrapped below 0), which gives 0.
    fn mark(self, acc: Self::V, one: Self::V, x: Self::V, offset: Self::V) -> Self::V;
}

/// The register-blocked kernel, written once for every register type: groups of
/// `WIDTH · Q` heaps whose `Q · WORDS` accumulators stay in registers across a chunk of moves;
/// tiles of [`TILE`] heaps take the chunks of [`CHUNK`] moves in turn, so that the values a
/// chunk reads for a tile stay in L1. The heaps after the last whole group go through the
/// portable loop.
///
/// # Safety
/// The bounds of [`mark`] must hold, with `masks.len() == WORDS · count`.
#[cfg(target_arch = "x86_64")]
#[inline(always)]
unsafe fn kernel<L: MaskLanes, T: Element, const WORDS: usize, const Q: usize>(
    l: L,
    values: &[T],
    start: usize,
    moves: &[usize],
    masks: &mut [u64],
) {
    let count = masks.len() / WORDS;
    let heaps = L::WIDTH * Q;
    let groups = count / heaps;
    let tile = (TILE / heaps).max(1);
    let base = values.as_ptr();
    let out = masks.as_mut_ptr();
    let mut offset = [l.splat(0); WORDS];
    for j in 0..WORDS {
        offset[j] = l.splat(-64 * j as i64);
    }
    // Opaque to the optimiser: knowing that word 0 adds nothing to a zero-extended value,
    // LLVM rewrote its shift as a range check of five instructions.
    let offset = std::hint::black_box(offset);
    let one = l.splat(1);
    let mut t = 0;
    while t < groups {
        let t_end = groups.min(t + tile);
        let mut c = 0;
        while c < moves.len() {
            let c_end = moves.len().min(c + CHUNK);
            prefetch_next(values, start, moves, (t, t_end, c_end), heaps, groups, tile);
            for g in t..t_end {
                let first = g * heaps;
                let mut acc = [[l.splat(0); WORDS]; Q];
                for q in 0..Q {
                    for j in 0..WORDS {
                        // SAFETY: word j of heaps `first + WIDTH · q ..` `+ WIDTH` lies inside
                        // `masks` (`first + WIDTH · (q + 1) <= groups · heaps <= count`).
                        acc[q][j] = unsafe { l.load(out.add(j * count + first + L::WIDTH * q)) };
                    }
                }
                for k in c..c_end {
                    // SAFETY: `m <= start` and `start + count <= values.len() + m`, so heaps
                    // `first .. first + heaps` (all below `count`) read
                    // `values[start + first − m ..][..heaps]`, inside `values`.
                    let p = unsafe { base.add(start + first - moves[k]) };
                    for q in 0..Q {
                        // SAFETY: as above.
                        let x = unsafe { l.values(p.add(L::WIDTH * q)) };
                        for j in 0..WORDS {
                            acc[q][j] = l.mark(acc[q][j], one, x, offset[j]);
                        }
                    }
                }
                for q in 0..Q {
                    for j in 0..WORDS {
                        // SAFETY: as for the loads.
                        unsafe { l.store(out.add(j * count + first + L::WIDTH * q), acc[q][j]) };
                    }
                }
            }
            c = c_end;
        }
        t = t_end;
    }
    mark_scalar(values, start, moves, WORDS, masks, groups * heaps);
}

/// The `#[target_feature]` entry of one instruction set: a register type for [`kernel`] and
/// one function per mask width, `Q` registers of heaps per group for `words` words (`Q · words`
/// accumulators: at most the register file holds, with room for the constants and one loaded
/// register).
macro_rules! mask_backend {
    ($module:ident, $feature:literal, $lanes:ident, $v:ty, $width:literal, $load_values:ident,
     splat: $splat:path, load: $load:path, store: $store:path, or: $or:path, add: $add:path,
     sllv: $sllv:path, [$($w:literal => $q:literal),*]) => {
        #[cfg(target_arch = "x86_64")]
        mod $module {
            use std::arch::x86_64::*;

            use super::{Element, MaskLanes};

            /// A register of mask words; made only inside this module's `#[target_feature]`
            /// functions.
            #[derive(Clone, Copy)]
            struct $lanes(());

            impl MaskLanes for $lanes {
                type V = $v;
                const WIDTH: usize = $width;
                #[inline(always)]
                fn splat(self, x: i64) -> $v {
                    // SAFETY: the instruction set is available (a value of `Self` exists).
                    unsafe { $splat(x) }
                }
                #[inline(always)]
                unsafe fn load(self, p: *const u64) -> $v {
                    // SAFETY: the caller guarantees WIDTH readable words; unaligned load.
                    unsafe { $load(p.cast()) }
                }
                #[inline(always)]
                unsafe fn store(self, p: *mut u64, v: $v) {
                    // SAFETY: the caller guarantees WIDTH writable words; unaligned store.
                    unsafe { $store(p.cast(), v) }
                }
                #[inline(always)]
                unsafe fn values<T: Element>(self, p: *const T) -> $v {
                    // SAFETY: the caller guarantees WIDTH readable values; the instruction set
                    // is available.
                    unsafe { T::$load_values(p) }
                }
                #[inline(always)]
                fn mark(self, acc: $v, one: $v, x: $v, offset: $v) -> $v {
                    // SAFETY: the instruction set is available (a value of `Self` exists).
                    unsafe { $or(acc, $sllv(one, $add(x, offset))) }
                }
            }

            /// See [`super::mark`].
            ///
            /// # Safety
            /// The instruction set must be available and the bounds of [`super::mark`] must
            /// hold.
            #[target_feature(enable = $feature)]
            pub(super) unsafe fn mark<T: Element>(
                values: &[T],
                start: usize,
                moves: &[usize],
                words: usize,
                masks: &mut [u64],
            ) {
                // SAFETY: forwarded from the caller.
                unsafe {
                    match words {
                        $($w => kernel::<T, $w, $q>(values, start, moves, masks),)*
                        _ => unreachable!("checked by mark"),
                    }
                }
            }

            /// [`super::kernel`] compiled for this instruction set.
            ///
            /// # Safety
            /// As for [`mark`].
            #[target_feature(enable = $feature)]
            unsafe fn kernel<T: Element, const WORDS: usize, const Q: usize>(
                values: &[T],
                start: usize,
                moves: &[usize],
                masks: &mut [u64],
            ) {
                // SAFETY: the caller guarantees the instruction set (so the register type may
                // exist) and the bounds.
                unsafe { super::kernel::<$lanes, T, WORDS, Q>($lanes(()), values, start, moves, masks) }
            }
        }
    };
}

mask_backend!(avx2, "avx2", Lanes4, __m256i, 4, load4,
    splat: _mm256_set1_epi64x, load: _mm256_loadu_si256, store: _mm256_storeu_si256,
    or: _mm256_or_si256, add: _mm256_add_epi64, sllv: _mm256_sllv_epi64,
    [1 => 8, 2 => 4, 3 => 2, 4 => 2, 5 => 1, 6 => 1, 7 => 1, 8 => 1]);

/// `a | b` with AVX-512F, as a ternary-logic instruction (`vpternlogq`, as fast as `vpord`):
/// from a plain OR, LLVM folded the range check that `_mm512_sllv_epi64` carries in its
/// definition into the OR, emitting a compare and a masked OR beside every shift (1.13–1.23×
/// the time of subtract-a-square to 3·10^6).
///
/// # Safety
/// AVX-512F must be available.
#[cfg(target_arch = "x86_64")]
#[inline(always)]
unsafe fn or_ternary(a: __m512i, b: __m512i) -> __m512i {
    // SAFETY: forwarded from the caller. Truth table 0xFE: a | b | b.
    unsafe { _mm512_ternarylogic_epi64::<0xFE>(a, b, b) }
}

mask_backend!(avx512, "avx512f", Lanes8, __m512i, 8, load8,
    splat: _mm512_set1_epi64, load: _mm512_loadu_si512, store: _mm512_storeu_si512,
    or: super::or_ternary, add: _mm512_add_epi64, sllv: _mm512_sllv_epi64,
    [1 => 16, 2 => 8, 3 => 4, 4 => 4, 5 => 2, 6 => 2, 7 => 2, 8 => 2]);

#[cfg(test)]
mod tests {
    use std::io::Write;

    use super::*;
    use crate::testing::Rng;

    /// The definition, one heap and one move at a time.
    fn reference<T: Element>(
        values: &[T],
        start: usize,
        moves: &[usize],
        words: usize,
        count: usize,
    ) -> Vec<u64> {
        let mut masks = vec![0u64; words * count];
        for i in 0..count {
            for &m in moves {
                let v = values[start + i - m].index();
                if v < 64 * words {
                    masks[(v / 64) * count + i] |= 1 << (v % 64);
                }
            }
        }
        masks
    }

    fn check_type<T: Element + TryFrom<u64> + std::fmt::Debug>(backend: Isa, largest: u64, seed: u64) {
        let mut rng = Rng(seed);
        let len = 3000;
        let values: Vec<T> = (0..len)
            .map(|i| {
                // Mostly small values, some at and beyond every word boundary, the largest.
                let v = match rng.next() % 8 {
                    0 => largest,
                    1 => [63, 64, 127, 128, 511, 512].get((rng.next() % 6) as usize).copied().unwrap_or(0),
                    _ => rng.next() % 200,
                }
                .min(largest);
                T::try_from(if i == 0 { 0 } else { v }).ok().expect("fits")
            })
            .collect();
        for words in 1..=MAX_WORDS {
            for count in [0usize, 1, 3, 4, 7, 8, 31, 32, 33, 64, 100, 257] {
                let start = 1500 + (rng.next() % 700) as usize;
                let mut moves: Vec<usize> = (0..1 + rng.next() % 40)
                    .map(|_| count.max(1) + (rng.next() as usize) % (start - count.max(1) + 1))
                    .collect();
                moves.sort_unstable();
                moves.dedup();
                if rng.next().is_multiple_of(4) {
                    // The extreme moves.
                    moves = vec![count.max(1), start];
                }
                let expected = reference(&values, start, &moves, words, count);
                // OR-ed into what is there: start from a pattern and check it survives.
                let mut masks: Vec<u64> = (0..words * count).map(|i| 1u64 << (i % 7)).collect();
                let before = masks.clone();
                mark(backend, &values, start, &moves, words, &mut masks);
                let want: Vec<u64> = expected.iter().zip(&before).map(|(e, b)| e | b).collect();
                assert_eq!(
                    masks, want,
                    "{backend:?} words {words} count {count} start {start} moves {moves:?}"
                );
            }
        }
    }

    #[test]
    fn every_backend_matches_the_definition() {
        for backend in Isa::ALL {
            if !backend.is_available() {
                let _ = writeln!(
                    std::io::stderr(),
                    "SKIPPED reachable-value masks: backend {backend:?} is not available on this CPU"
                );
                continue;
            }
            for seed in [1u64, 2, 3] {
                check_type::<u8>(backend, 255, seed);
                check_type::<u16>(backend, 700, seed + 10);
                check_type::<u32>(backend, 100_000, seed + 20);
            }
        }
    }

    #[test]
    fn the_scalar_loop_is_the_definition() {
        // The portable loop is what every machine without AVX2 runs: checked on its own.
        let values: Vec<u8> = (0..200u32).map(|i| (i * 37 % 251) as u8).collect();
        let moves = [5usize, 9, 64, 100];
        for words in 1..=MAX_WORDS {
            let mut masks = vec![0u64; words * 5];
            mark_scalar(&values, 150, &moves, words, &mut masks, 0);
            assert_eq!(masks, reference(&values, 150, &moves, words, 5));
        }
    }

    #[test]
    #[should_panic(expected = "outside the values")]
    fn moves_inside_the_run_are_refused() {
        // Heaps 50..60, values known for 0..50: a move of 9 would read G(50).
        let values = vec![0u8; 50];
        let mut masks = vec![0u64; 10];
        mark(Isa::Scalar, &values, 50, &[9], 1, &mut masks);
    }
}
