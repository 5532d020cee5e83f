//! The driver: depth-first recursion with radix-16 (or radix-8) column passes, and rayon above
//! [`PARALLEL_MIN`].

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

/// The two loops a backend provides for one ring; everything else is shared.
pub(crate) trait Butterflies: Copy + Send + Sync {
    /// The element type.
    type Elem: Send + Sync;
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
    node(b, data, log2 - B::LEAF_LOG2, parallel && data.len() >= 2 * PARALLEL_MIN);
}

/// A node with `upper` levels above the leaves: its rows first (the lower levels), then one
/// column pass for the top levels. Leftover levels end up in the smallest, cache-resident nodes.
fn node<B: Butterflies>(b: B, data: &mut [B::Elem], upper: u32, parallel: bool) {
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
        data.par_chunks_mut(row_len).for_each(|row| node(b, row, lower, true));
    } else {
        data.chunks_exact_mut(row_len).for_each(|row| node(b, row, lower, false));
    }
    let mut rows: [&mut [B::Elem]; 16] = Default::default();
    for (slot, row) in rows.iter_mut().zip(data.chunks_exact_mut(row_len)) {
        *slot = row;
    }
    let rows = &mut rows[..1 << levels];
    if parallel { split_columns(b, rows) } else { b.columns(rows) }
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
