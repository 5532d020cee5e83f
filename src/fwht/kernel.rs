//! The driver: depth-first recursion with radix-16 (or radix-8) column passes while a node fits
//! in the last-level cache, a tiled pass above that, and rayon above [`PARALLEL_MIN`].

use std::cell::RefCell;

use rayon::prelude::*;

use super::PARALLEL_MIN;

/// Levels per column pass: 16 rows, four butterfly levels for one read and one write of memory.
pub(crate) const RADIX_LOG2: u32 = 4;

/// Rows whose starts are a multiple of this many bytes apart fall into the same L1 set (the
/// set-index bits of a 32 KiB, 8-way cache with 64-byte lines end at bit 12), and likewise in
/// L2 beyond its own period. A pass over 16 such rows needs 16 lines of one 8-way set at once:
/// the loads evict each other and every store misses. Passes over rows this far apart use
/// 8 rows (three levels) instead, which fit.
const SET_ALIAS_BYTES: usize = 4096;

/// The levels one column pass of a node with `upper` levels above the leaves does.
fn pass_levels<E>(len: usize, upper: u32) -> u32 {
    let levels = upper.min(RADIX_LOG2);
    let row_bytes = (len >> levels) * std::mem::size_of::<E>();
    if levels == RADIX_LOG2 && row_bytes >= SET_ALIAS_BYTES { RADIX_LOG2 - 1 } else { levels }
}

/// Nodes larger than this do not fit in the last-level cache (32 MiB here, shared): their top
/// levels run as a tiled pass, so the whole node costs two round trips to memory.
const TILED_MIN_BYTES: usize = 32 << 20;

/// The rows of a tiled node are at most this large, so each is transformed in cache.
const TILED_ROW_BYTES: usize = 8 << 20;

/// Bytes of each row in a tile: wide enough for efficient memory streams, and rows 1 KiB apart
/// in the tile spread over L1 sets.
const TILE_ROW_BYTES: usize = 1024;

/// The two loops a backend provides for one ring; everything else is shared.
pub(crate) trait Butterflies: Copy + Send + Sync {
    /// The element type.
    type Elem: bytemuck::Pod + Send + Sync;
    /// `log2` of the leaf length: [`leaves`](Self::leaves) finishes chunks of this many elements.
    const LEAF_LOG2: u32;
    /// Fully transforms each consecutive chunk of `2^LEAF_LOG2` elements of `data`.
    fn leaves(self, data: &mut [Self::Elem]);
    /// For every column `c`, transforms the `rows.len()` values `rows[i][c]` (2, 4, 8 or 16 rows
    /// of equal length, a multiple of the register width).
    fn columns(self, rows: &mut [&mut [Self::Elem]]);
}

/// Transforms `data` (`2^log2` elements, `log2 >= B::LEAF_LOG2`) in place.
///
/// Butterfly levels run in ascending order for every element, the same order as the textbook
/// loop, so floating-point results do not depend on the backend (NaN signs and payloads aside).
pub(crate) fn transform<B: Butterflies>(b: B, data: &mut [B::Elem], log2: u32, parallel: bool) {
    debug_assert_eq!(data.len(), 1usize << log2);
    debug_assert!(log2 >= B::LEAF_LOG2);
    node(b, data, log2 - B::LEAF_LOG2, Base::Leaves, parallel && data.len() >= 2 * PARALLEL_MIN);
}

/// What a node with no levels left does.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Base {
    /// The lowest levels are still to do: run the leaf kernel.
    Leaves,
    /// Only the levels above a given row length are wanted (the inside of a tile).
    Nothing,
}

/// A node with `upper` levels above its base: its rows first (the lower levels), then one
/// column pass for the top levels. Leftover levels end up in the smallest, cache-resident nodes.
fn node<B: Butterflies>(b: B, data: &mut [B::Elem], upper: u32, base: Base, parallel: bool) {
    if upper == 0 {
        if base == Base::Leaves {
            b.leaves(data);
        }
        return;
    }
    let bytes = std::mem::size_of_val(data);
    if bytes > TILED_MIN_BYTES && base == Base::Leaves && std::mem::align_of::<B::Elem>() <= 64 {
        let levels = (bytes / TILED_ROW_BYTES).ilog2().min(upper);
        // Up to three levels, one direct radix-8 pass is as few round trips, without copies.
        if levels > RADIX_LOG2 - 1 {
            return tiled(b, data, upper, levels, parallel);
        }
    }
    let levels = pass_levels::<B::Elem>(data.len(), upper);
    let row_len = data.len() >> levels;
    rows_then(b, data, row_len, upper - levels, base, parallel);
    let mut rows: [&mut [B::Elem]; 16] = Default::default();
    for (slot, row) in rows.iter_mut().zip(data.chunks_exact_mut(row_len)) {
        *slot = row;
    }
    let rows = &mut rows[..1 << levels];
    if parallel { split_columns(b, rows) } else { b.columns(rows) }
}

/// Transforms every row of `row_len` elements with its `lower` levels.
fn rows_then<B: Butterflies>(
    b: B,
    data: &mut [B::Elem],
    row_len: usize,
    lower: u32,
    base: Base,
    parallel: bool,
) {
    if lower == 0 && base == Base::Leaves {
        b.leaves(data); // every row is one leaf long: one call for all of them
    } else if parallel && row_len >= PARALLEL_MIN {
        data.par_chunks_mut(row_len).for_each(|row| node(b, row, lower, base, true));
    } else {
        data.chunks_exact_mut(row_len).for_each(|row| node(b, row, lower, base, false));
    }
}

thread_local! {
    /// Each thread's tile buffer, grown on first use and kept.
    static TILE: RefCell<Vec<Line>> = const { RefCell::new(Vec::new()) };
}

/// A cache line, so tiles start on a line boundary.
#[derive(Clone, Copy, bytemuck::Zeroable, bytemuck::Pod)]
#[repr(C, align(64))]
struct Line([u8; 64]);

/// A node too large for the cache: its `2^levels` rows (each small enough to finish in cache)
/// first, then its top `levels` levels over tiles of `2^levels` rows × 1 KiB, each gathered into
/// a per-thread buffer, transformed there without cache-set conflicts, and written back. Every
/// element thus travels to memory and back twice, however many levels there are.
fn tiled<B: Butterflies>(b: B, data: &mut [B::Elem], upper: u32, levels: u32, parallel: bool) {
    let row_len = data.len() >> levels;
    rows_then(b, data, row_len, upper - levels, Base::Leaves, parallel);
    // A power of two and a whole number of leaves, whatever the element size.
    let per_row = (TILE_ROW_BYTES / std::mem::size_of::<B::Elem>()).max(1);
    let width = (1usize << per_row.ilog2()).max(1 << B::LEAF_LOG2).min(row_len);
    let mut rows: Vec<&mut [B::Elem]> = data.chunks_exact_mut(row_len).collect();
    let tasks = if parallel { rayon::current_num_threads() * 4 } else { 1 };
    tile_columns(b, &mut rows, width, levels, tasks);
}

/// Splits the column range into `tasks` parts on the thread pool, then runs the tiles.
fn tile_columns<B: Butterflies>(b: B, rows: &mut [&mut [B::Elem]], width: usize, levels: u32, tasks: usize) {
    let len = rows[0].len();
    let mid = len / 2 / width * width;
    if tasks > 1 && mid > 0 {
        let (mut left, mut right): (Vec<_>, Vec<_>) =
            rows.iter_mut().map(|r| std::mem::take(r).split_at_mut(mid)).unzip();
        rayon::join(
            || tile_columns(b, &mut left, width, levels, tasks / 2),
            || tile_columns(b, &mut right, width, levels, tasks - tasks / 2),
        );
        return;
    }
    let tile_len = rows.len() * width;
    TILE.with_borrow_mut(|lines| {
        let bytes = tile_len * std::mem::size_of::<B::Elem>();
        if lines.len() * 64 < bytes {
            lines.resize(bytes.div_ceil(64), Line([0; 64]));
        }
        // The buffer is shared by every element type on this thread: view only the bytes this
        // tile needs (lines are 64-byte aligned, elements here at most that).
        let tile: &mut [B::Elem] =
            bytemuck::cast_slice_mut(&mut bytemuck::cast_slice_mut::<Line, u8>(lines)[..bytes]);
        for c in (0..len).step_by(width) {
            for (row, part) in rows.iter().zip(tile.chunks_exact_mut(width)) {
                part.copy_from_slice(&row[c..c + width]);
            }
            node(b, tile, levels, Base::Nothing, false);
            for (row, part) in rows.iter_mut().zip(tile.chunks_exact(width)) {
                row[c..c + width].copy_from_slice(part);
            }
        }
    });
}

/// Runs a column pass as independent column ranges on the thread pool.
fn split_columns<B: Butterflies>(b: B, rows: &mut [&mut [B::Elem]]) {
    let len = rows[0].len();
    // Halves stay multiples of 1024 elements: whole cache lines, and whole groups of registers
    // for the column kernels (at most 16 registers of at most 16 lanes per row and step).
    let mid = (len / 2) & !1023;
    if len * rows.len() < 2 * PARALLEL_MIN || mid == 0 {
        b.columns(rows);
        return;
    }
    let mut left: [&mut [B::Elem]; 16] = Default::default();
    let mut right: [&mut [B::Elem]; 16] = Default::default();
    for (i, row) in rows.iter_mut().enumerate() {
        (left[i], right[i]) = std::mem::take(row).split_at_mut(mid);
    }
    let n = rows.len();
    rayon::join(|| split_columns(b, &mut left[..n]), || split_columns(b, &mut right[..n]));
}
