//! The driver: depth-first recursion with radix-16 (or radix-8) column passes, and rayon above
//! [`PARALLEL_MIN`].

use rayon::prelude::*;

use super::PARALLEL_MIN;

/// Levels per column pass: 16 rows, four butterfly levels for one read and one write of memory.
pub const RADIX_LOG2: u32 = 4;

/// Rows whose starts are a multiple of this many bytes apart fall into the same L1 set (the
/// set-index bits of a 32 KiB, 8-way cache with 64-byte lines end at bit 12), and likewise in
/// L2 beyond its own period. A pass over 16 such rows needs 16 lines of one 8-way set at once:
/// the loads evict each other and every store misses. Passes over rows this far apart use
/// 8 rows (three levels) instead, which fit.
const SET_ALIAS_BYTES: usize = 4096;

/// Column passes over rows at least this many bytes apart use the staggered memory order (see
/// [`lanes::staggered`](super::lanes::staggered)). Measured on the 2-core AMD EPYC development
/// machine, one radix-8 pass over a GiB: rows 1–32 MiB apart stream at memory speed in the plain
/// order (40 ms) and lose to the stagger (65 ms); rows 64 MiB apart take 66 ms plain and 54 ms
/// staggered, 128 MiB 117 ms and 58 ms, 256 MiB and more 194 ms and 76 ms.
pub const STAGGER_MIN_ROW_BYTES: usize = 64 << 20;

/// Nodes up to this size may take one level less than they could, so that no single-level pass
/// is left for the smallest nodes (see [`pass_levels`]).
const SHORT_PASS_MAX_BYTES: usize = 256 << 10;

/// The most levels one column pass of a node with `upper` levels above the leaves can do: four
/// (radix 16), or three where the rows alias in cache.
fn widest_pass<E>(len: usize, upper: u32) -> u32 {
    let levels = upper.min(RADIX_LOG2);
    let row_bytes = (len >> levels) * std::mem::size_of::<E>();
    if levels == RADIX_LOG2 && row_bytes >= SET_ALIAS_BYTES { RADIX_LOG2 - 1 } else { levels }
}

/// The levels one column pass of a node with `upper` levels above the leaves does.
///
/// The widest pass, except where taking the widest at every node below would end in a
/// single-level pass over the smallest nodes (2^13 and 2^16 `u32` end as 4 + 1 and 3 + 4 + 1):
/// such a pass costs a whole read and write of the data and a call per 512 elements for one
/// level. A node of at most [`SHORT_PASS_MAX_BYTES`] then takes one level less itself, and the
/// levels below come out whole (2^16 becomes 2 + 3 + 3): as many passes, each doing more. Larger
/// nodes keep their widest pass, above all those that stream from memory.
fn pass_levels<E>(len: usize, upper: u32) -> u32 {
    let levels = widest_pass::<E>(len, upper);
    if levels < 3 || levels == upper || len * std::mem::size_of::<E>() > SHORT_PASS_MAX_BYTES {
        return levels;
    }
    // The widest passes of the nodes below, down to the last.
    let (mut below_len, mut below) = (len >> levels, upper - levels);
    let mut last = 0;
    while below > 0 {
        last = widest_pass::<E>(below_len, below);
        below_len >>= last;
        below -= last;
    }
    if last == 1 { levels - 1 } else { levels }
}

/// The two loops a backend provides for one ring; everything else is shared.
pub trait Butterflies: Copy + Send + Sync {
    /// The element type.
    type Elem: Send + Sync;
    /// `log2` of the leaf length: [`leaves`](Self::leaves) finishes chunks of this many elements.
    const LEAF_LOG2: u32;
    /// Fully transforms each consecutive chunk of `2^LEAF_LOG2` elements of `data`.
    fn leaves(self, data: &mut [Self::Elem]);
    /// For every column `c`, transforms the `rows.len()` values `rows[i][c]` (2, 4, 8 or 16 rows
    /// of equal length, a multiple of the register width).
    fn columns(self, rows: &mut [&mut [Self::Elem]]);
    /// The same pass as [`columns`](Self::columns) in the staggered memory order of
    /// [`lanes::staggered`](super::lanes::staggered), for rows far apart in memory.
    fn staggered(self, rows: &mut [&mut [Self::Elem]]);
    /// Whether every element of `data` (a multiple of `2^LEAF_LOG2` elements) is a valid input:
    /// below the modulus for residues, always for the other rings.
    fn valid(self, data: &[Self::Elem]) -> bool;
}

/// Transforms `data` (`2^log2` elements, `log2 >= B::LEAF_LOG2`) in place.
///
/// Butterfly levels run in ascending order for every element, the same order as the textbook
/// loop, so floating-point results do not depend on the backend (NaN signs and payloads aside).
pub fn transform<B: Butterflies>(b: B, data: &mut [B::Elem], log2: u32, parallel: bool) {
    transform_staggering(b, data, log2, parallel, STAGGER_MIN_ROW_BYTES);
}

/// [`transform`], with passes over rows at least `stagger_min_row_bytes` apart staggered (tests
/// lower the bound to run the staggered passes on small transforms).
pub fn transform_staggering<B: Butterflies>(
    b: B,
    data: &mut [B::Elem],
    log2: u32,
    parallel: bool,
    stagger_min_row_bytes: usize,
) {
    debug_assert_eq!(data.len(), 1usize << log2);
    debug_assert!(log2 >= B::LEAF_LOG2);
    let parallel = parallel && data.len() >= 2 * PARALLEL_MIN;
    node(b, data, log2 - B::LEAF_LOG2, parallel, stagger_min_row_bytes);
}

/// A node with `upper` levels above the leaves: its rows first (the lower levels), then one
/// column pass for the top levels. Leftover levels end up in cache-resident nodes (see
/// [`pass_levels`]).
fn node<B: Butterflies>(b: B, data: &mut [B::Elem], upper: u32, parallel: bool, stagger: usize) {
    if upper == 0 {
        b.leaves(data);
        return;
    }
    let levels = pass_levels::<B::Elem>(data.len(), upper);
    let row_len = data.len() >> levels;
    let lower = upper - levels;
    if lower == 0 {
        b.leaves(data); // every row is one leaf long: one call for all of them
    } else if parallel && row_len >= PARALLEL_MIN {
        crate::parallel::each_chunk(data, row_len, &|row| node(b, row, lower, true, stagger));
    } else {
        data.chunks_exact_mut(row_len).for_each(|row| node(b, row, lower, false, stagger));
    }
    top_pass(b, data, levels, parallel, stagger);
}

/// Nodes of at most this many bytes are checked whole just before they are transformed: the
/// check brings them into L1 (32 KiB or more on the machines measured), where the transform then
/// finds them, so checking costs no pass over memory of its own.
const CHECK_BYTES: usize = 16 << 10;

/// Divides a block of `2^k` elements by `2^k` (in the ring of the transform): with a second
/// transform, it undoes a transform of the block.
pub type Undo<'a, E> = &'a (dyn Fn(&mut [E]) + Sync);

/// [`transform`] on valid inputs only ([`Butterflies::valid`]): every node is checked just before
/// it is transformed (see [`CHECK_BYTES`]). When a node holds an invalid element, the nodes
/// already transformed are transformed again and divided by their length (`undo`), so `data`
/// is left as it was, and the result is `Err(start)`: every element before `start` is valid and
/// the block from `start` (at most [`CHECK_BYTES`], or one leaf) holds an invalid one.
pub fn transform_checked<B: Butterflies>(
    b: B,
    data: &mut [B::Elem],
    log2: u32,
    parallel: bool,
    undo: Undo<'_, B::Elem>,
) -> Result<(), usize> {
    debug_assert_eq!(data.len(), 1usize << log2);
    debug_assert!(log2 >= B::LEAF_LOG2);
    let parallel = parallel && data.len() >= 2 * PARALLEL_MIN;
    checked_node(b, data, log2 - B::LEAF_LOG2, parallel, undo)
}

/// [`node`], checking its input first (see [`transform_checked`]).
fn checked_node<B: Butterflies>(
    b: B,
    data: &mut [B::Elem],
    upper: u32,
    parallel: bool,
    undo: Undo<'_, B::Elem>,
) -> Result<(), usize> {
    let levels = pass_levels::<B::Elem>(data.len(), upper);
    if upper == 0 || upper == levels || std::mem::size_of_val(data) <= CHECK_BYTES {
        if !b.valid(data) {
            return Err(0);
        }
        node(b, data, upper, parallel, STAGGER_MIN_ROW_BYTES);
        return Ok(());
    }
    let row_len = data.len() >> levels;
    let lower = upper - levels;
    blocks_checked(
        data,
        row_len,
        parallel && row_len >= PARALLEL_MIN,
        |row, parallel| checked_node(b, row, lower, parallel, undo),
        |row, parallel| {
            node(b, row, lower, parallel, STAGGER_MIN_ROW_BYTES);
            undo(row);
        },
    )?;
    top_pass(b, data, levels, parallel, STAGGER_MIN_ROW_BYTES);
    Ok(())
}

/// Runs `run` on every block of `block` elements of `data` (in order, or on the thread pool when
/// `parallel`), where `run` either succeeds or fails with `Err(start)` and its block left as it
/// was. When one fails, `undo` restores every block that succeeded, and the result is the
/// failure of the first block that failed, counted from the start of `data`.
pub fn blocks_checked<E: Send>(
    data: &mut [E],
    block: usize,
    parallel: bool,
    run: impl Fn(&mut [E], bool) -> Result<(), usize> + Sync,
    undo: impl Fn(&mut [E], bool) + Sync,
) -> Result<(), usize> {
    blocks_checked_dyn(data, block, parallel, &run, &undo)
}

/// A block's checked run: `Err(start)` with the block left as it was, or `Ok`.
type RunBlock<'a, E> = &'a (dyn Fn(&mut [E], bool) -> Result<(), usize> + Sync);

/// [`blocks_checked`] through `dyn` closures: its thread-pool code is compiled once per element
/// type (see [`crate::parallel`]).
fn blocks_checked_dyn<E: Send>(
    data: &mut [E],
    block: usize,
    parallel: bool,
    run: RunBlock<'_, E>,
    undo: &(dyn Fn(&mut [E], bool) + Sync),
) -> Result<(), usize> {
    if parallel {
        let results: Vec<Result<(), usize>> = data.par_chunks_mut(block).map(|b| run(b, true)).collect();
        let Some((i, start)) = results.iter().enumerate().find_map(|(i, r)| r.err().map(|s| (i, s))) else {
            return Ok(());
        };
        data.par_chunks_mut(block).zip(&results).for_each(|(b, r)| {
            if r.is_ok() {
                undo(b, true)
            }
        });
        return Err(i * block + start);
    }
    for i in 0..data.len() / block {
        if let Err(start) = run(&mut data[i * block..(i + 1) * block], false) {
            data[..i * block].chunks_exact_mut(block).for_each(|b| undo(b, false));
            return Err(i * block + start);
        }
    }
    Ok(())
}

/// The column pass of a node over its `2^levels` rows, once the rows are transformed.
fn top_pass<B: Butterflies>(b: B, data: &mut [B::Elem], levels: u32, parallel: bool, stagger: usize) {
    let row_len = data.len() >> levels;
    let mut rows: [&mut [B::Elem]; 16] = Default::default();
    for (slot, row) in rows.iter_mut().zip(data.chunks_exact_mut(row_len)) {
        *slot = row;
    }
    let rows = &mut rows[..1 << levels];
    let staggered = row_len * std::mem::size_of::<B::Elem>() >= stagger;
    if parallel { split_columns(b, rows, staggered) } else { pass(b, rows, staggered) }
}

/// One column pass across `rows` (2, 4, 8 or 16 rows of equal length, a multiple of 256
/// elements): the transform of length `rows.len()` of every column, with the butterflies of
/// [`transform`], split into column ranges on the thread pool when `parallel`. `staggered` for
/// rows far apart in memory (see [`STAGGER_MIN_ROW_BYTES`]). For passes whose rows are not one
/// buffer (the distributed transform's rows in several processes' memory).
pub fn rows_pass<B: Butterflies>(b: B, rows: &mut [&mut [B::Elem]], staggered: bool, parallel: bool) {
    if parallel { split_columns(b, rows, staggered) } else { pass(b, rows, staggered) }
}

/// One column pass, in the plain or the staggered memory order.
fn pass<B: Butterflies>(b: B, rows: &mut [&mut [B::Elem]], staggered: bool) {
    if staggered { b.staggered(rows) } else { b.columns(rows) }
}

/// Runs a column pass as independent column ranges on the thread pool.
fn split_columns<B: Butterflies>(b: B, rows: &mut [&mut [B::Elem]], staggered: bool) {
    let len = rows[0].len();
    // Halves stay multiples of 1024 elements: whole cache lines, and whole groups of registers
    // for the column kernels (at most 16 registers of at most 16 lanes per row and step).
    let mid = (len / 2) & !1023;
    if len * rows.len() < 2 * PARALLEL_MIN || mid == 0 {
        pass(b, rows, staggered);
        return;
    }
    let mut left: [&mut [B::Elem]; 16] = Default::default();
    let mut right: [&mut [B::Elem]; 16] = Default::default();
    for (i, row) in rows.iter_mut().enumerate() {
        (left[i], right[i]) = std::mem::take(row).split_at_mut(mid);
    }
    let n = rows.len();
    crate::parallel::join_dyn(&mut || split_columns(b, &mut left[..n], staggered), &mut || {
        split_columns(b, &mut right[..n], staggered)
    });
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::portable::{self, Butterfly};

    /// Modular addition and subtraction, as the rings above do them.
    #[derive(Clone, Copy)]
    struct ModP<T>(T);

    macro_rules! mod_butterfly {
        ($t:ty) => {
            impl Butterfly for ModP<$t> {
                type E = $t;
                fn butterfly(self, a: $t, b: $t) -> ($t, $t) {
                    let (s, d) = (a.wrapping_add(b), a.wrapping_sub(b));
                    (s.min(s.wrapping_sub(self.0)), d.min(d.wrapping_add(self.0)))
                }
            }
        };
    }
    mod_butterfly!(u32);
    mod_butterfly!(u64);

    #[derive(Clone, Copy)]
    struct Plain;
    impl Butterfly for Plain {
        type E = f64;
        fn butterfly(self, a: f64, b: f64) -> (f64, f64) {
            (a + b, a - b)
        }
    }
    impl Butterfly for ModP<()> {
        type E = u32;
        fn butterfly(self, a: u32, b: u32) -> (u32, u32) {
            (a.wrapping_add(b), a.wrapping_sub(b))
        }
    }

    /// Every column pass staggered (the bound lowered to 0 bytes), on every length from one leaf
    /// to 2^15 (passes over 2, 4, 8 and 16 rows, rows from one leaf long), serial and parallel,
    /// against the textbook loop, exactly (floats bit for bit: only the memory order changes).
    fn check<B: Butterflies, P: Butterfly<E = B::Elem>>(b: B, reference: P, random: impl Fn(u64) -> B::Elem)
    where
        B::Elem: PartialEq + std::fmt::Debug + Copy,
    {
        let mut seed = 0x5eed_u64;
        for log2 in B::LEAF_LOG2..=15 {
            let x: Vec<B::Elem> = (0..1usize << log2)
                .map(|_| {
                    seed = seed.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
                    random(seed >> 11)
                })
                .collect();
            let mut expected = x.clone();
            portable::textbook(&mut expected, |a, b| reference.butterfly(*a, *b));
            for parallel in [false, true] {
                let mut y = x.clone();
                transform_staggering(b, &mut y, log2, parallel, 0);
                assert!(y == expected, "log2 {log2}, parallel {parallel}");
            }
            let mut y = x.clone();
            portable::transform_staggering(reference, &mut y, log2, 0);
            assert!(y == expected, "portable, log2 {log2}");
        }
    }

    /// The levels of the passes a transform of `2^log2` elements of `E` makes, top first.
    fn passes<E>(log2: u32, leaf_log2: u32) -> Vec<u32> {
        let (mut len, mut upper, mut out) = (1usize << log2, log2 - leaf_log2, vec![]);
        while upper > 0 {
            let levels = pass_levels::<E>(len, upper);
            out.push(levels);
            len >>= levels;
            upper -= levels;
        }
        out
    }

    #[test]
    fn plans_leave_no_single_level_pass_to_the_smallest_nodes() {
        assert_eq!(passes::<u32>(16, 8), [2, 3, 3]);
        assert_eq!(passes::<u32>(13, 8), [3, 2]);
        assert_eq!(passes::<u32>(20, 8), [3, 3, 3, 3]);
        assert_eq!(passes::<u32>(28, 8), [3, 3, 3, 3, 2, 3, 3]);
        for (size, leaf) in [(4, 8), (8, 7), (16, 6), (48, 4)] {
            for log2 in leaf + 1..=30 {
                let p = match size {
                    4 => passes::<u32>(log2, leaf),
                    8 => passes::<u64>(log2, leaf),
                    16 => passes::<u128>(log2, leaf),
                    _ => passes::<[u64; 6]>(log2, leaf),
                };
                assert_eq!(p.iter().sum::<u32>(), log2 - leaf);
                assert!(p.iter().all(|&l| (1..=RADIX_LOG2).contains(&l)), "{size}-byte 2^{log2}: {p:?}");
                assert!(p.len() == 1 || *p.last().unwrap() > 1, "{size}-byte 2^{log2}: {p:?}");
            }
        }
    }

    #[test]
    fn staggered_passes_agree_with_textbook_on_every_backend() {
        let (m32, m64) = (998_244_353u32, (1u64 << 62) - 57);
        let res32 = move |s: u64| (s % u64::from(m32)) as u32;
        let res64 = move |s: u64| s % m64;
        let float = |s: u64| (s % 2001) as f64 - 1000.0;
        #[cfg(target_arch = "x86_64")]
        {
            use crate::x86::{avx2, avx512};
            match (avx512::Mod32x16::new(m32), avx512::Mod64x8::new(m64), avx512::F64x8::new()) {
                (Some(a), Some(b), Some(c)) => {
                    check(a, ModP(m32), res32);
                    check(b, ModP(m64), res64);
                    check(c, Plain, float);
                    check(avx512::Wrap32x16::new().unwrap(), ModP(()), |s| s as u32);
                }
                _ => eprintln!("SKIPPED: staggered passes on AVX-512 (this CPU lacks it)"),
            }
            match (avx2::Mod32x8::new(m32), avx2::Mod64x4::new(m64), avx2::F64x4::new()) {
                (Some(a), Some(b), Some(c)) => {
                    check(a, ModP(m32), res32);
                    check(b, ModP(m64), res64);
                    check(c, Plain, float);
                    check(avx2::Wrap32x8::new().unwrap(), ModP(()), |s| s as u32);
                }
                _ => eprintln!("SKIPPED: staggered passes on AVX2 (this CPU lacks it)"),
            }
        }
        #[cfg(not(target_arch = "x86_64"))]
        eprintln!("SKIPPED: staggered passes on AVX2 and AVX-512 (not an x86-64 CPU)");
        let _ = (res32, res64, float);
    }
}
