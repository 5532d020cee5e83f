//! What computing values costs: a model in nanoseconds on the machine nimcount's figures were
//! measured on (a 2-core AMD EPYC, Zen 3, one thread), from counts the engines keep of their
//! inner steps. The model decides where a default search stops (so that the same command
//! stops at the same heap on any machine, whatever its load), which ranges get direct values
//! without a flag, and the estimates printed with a refusal; the progress bar shows real time.

use std::fmt;

use crate::error::Seconds;

/// Closed forms (nim, one-interval subtraction sets): per value.
pub(crate) const CLOSED_FORM_NS: f64 = 1.0;
/// Sliding-window mex: per heap and run of moves (an insert and a remove in the counted set).
const SLIDING_RUN_NS: f64 = 6.0;
/// Sparse space: per heap, per pair with a rare position, per split scanned for a rare value.
const SPARSE_HEAP_NS: f64 = 25.0;
const SPARSE_PAIR_NS: f64 = 0.9;
const SPARSE_SCAN_NS: f64 = 0.6;
/// Blocks: per heap, per (heap, move) pair gathered by the SIMD kernel, per pair resolved one
/// by one.
const BLOCK_HEAP_NS: f64 = 6.0;
const BLOCK_GATHER_NS: f64 = 0.3;
const BLOCK_RESOLVE_NS: f64 = 1.2;
/// Plain mex over a user's options: per option (the user's code included).
const PLAIN_OPTION_NS: f64 = 4.0;
/// Certifying a prefix by the Z-function: per value.
pub(crate) const CERTIFY_NS: f64 = 12.0;

/// Subtraction sets with at most this many moves per run of consecutive moves are computed by
/// blocks, the others by the sliding window (a slide costs about 20 gathered pairs).
pub(crate) const BLOCK_MOVES_PER_RUN: u64 = 20;

pub(crate) fn sliding(heaps: u64, runs: usize) -> f64 {
    heaps as f64 * (SLIDING_RUN_NS * runs as f64 + 2.0)
}

pub(crate) fn sparse(heaps: u64, pairs: u64, scanned: u64) -> f64 {
    heaps as f64 * SPARSE_HEAP_NS + pairs as f64 * SPARSE_PAIR_NS + scanned as f64 * SPARSE_SCAN_NS
}

pub(crate) fn block(heaps: u64, gathered: u64, resolved: u64) -> f64 {
    heaps as f64 * BLOCK_HEAP_NS + gathered as f64 * BLOCK_GATHER_NS + resolved as f64 * BLOCK_RESOLVE_NS
}

pub(crate) fn plain(heaps: u64, options: u64) -> f64 {
    heaps as f64 * 2.0 + options as f64 * PLAIN_OPTION_NS
}

/// An estimate of a computation: its time on the reference machine and the memory it needs.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Estimate {
    /// Seconds on one core of the reference machine (a 2-core AMD EPYC, Zen 3).
    pub seconds: f64,
    /// Bytes of memory.
    pub bytes: u64,
}

impl fmt::Display for Estimate {
    /// `about 3.2 s` (see [`Seconds`]).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        Seconds(self.seconds).fmt(f)
    }
}
