//! What computing values costs: a model in nanoseconds on the machine nimcount's figures were
//! measured on (a 2-core AMD EPYC, Zen 3, one thread, shared with other work: the constants
//! are CPU times of whole runs of `nimcount grundy --first`, within a factor of about 1.5),
//! from counts the engines keep of their inner steps. The model decides where a default search stops (so that the same command
//! stops at the same heap on any machine, whatever its load), which ranges get direct values
//! without a flag, and the estimates printed with a refusal; the progress bar shows real time.

use std::fmt;

use crate::error::Seconds;

/// Closed forms (nim, one-interval subtraction sets): per value.
pub(crate) const CLOSED_FORM_NS: f64 = 1.0;
/// Sliding-window mex: per heap and run of moves (an insert and a remove in the counted set).
const SLIDING_HEAP_NS: f64 = 6.0;
const SLIDING_RUN_NS: f64 = 12.0;
/// Sparse space: per heap, per pair with a rare position, per split scanned for a rare value.
const SPARSE_HEAP_NS: f64 = 200.0;
const SPARSE_PAIR_NS: f64 = 1.5;
const SPARSE_SCAN_NS: f64 = 1.0;
/// Blocks: per heap, per (heap, move) pair and 64-bit word of mask gathered by the SIMD
/// kernel (AVX2), per pair resolved one by one.
const BLOCK_HEAP_NS: f64 = 10.0;
const BLOCK_GATHER_WORD_NS: f64 = 0.11;
const BLOCK_RESOLVE_NS: f64 = 1.8;
/// Plain mex over a user's options: per option (the user's code included).
const PLAIN_OPTION_NS: f64 = 6.0;
/// Certifying a prefix by the Z-function: per value.
pub(crate) const CERTIFY_NS: f64 = 12.0;

/// Subtraction sets with at most this many moves per run of consecutive moves are computed by
/// blocks, the others by the sliding window (a slide costs about 20 gathered pairs).
pub(crate) const BLOCK_MOVES_PER_RUN: u64 = 20;

pub(crate) fn sliding(heaps: u64, runs: usize) -> f64 {
    heaps as f64 * (SLIDING_RUN_NS * runs as f64 + SLIDING_HEAP_NS)
}

pub(crate) fn sparse(heaps: u64, pairs: u64, scanned: u64) -> f64 {
    heaps as f64 * SPARSE_HEAP_NS + pairs as f64 * SPARSE_PAIR_NS + scanned as f64 * SPARSE_SCAN_NS
}

/// `gathered`: pairs times the words of their masks.
pub(crate) fn block(heaps: u64, gathered: u64, resolved: u64) -> f64 {
    heaps as f64 * BLOCK_HEAP_NS + gathered as f64 * BLOCK_GATHER_WORD_NS + resolved as f64 * BLOCK_RESOLVE_NS
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

#[cfg(test)]
mod tests {
    /// The model against the measured time of each engine, within the factor of 1.5 the module
    /// promises; prints both (run with
    /// `cargo test --release --lib calibrate -- --ignored --nocapture` on the reference machine,
    /// alone: a busy machine measures its load).
    #[test]
    #[ignore]
    fn calibrate() {
        use crate::game::Game;
        use crate::grundy::engine::Engine;
        use crate::grundy::resolve::resolve;
        let mut off = Vec::new();
        for (spec, count) in [
            ("squares", 1_000_000u64),
            ("squares", 4_000_000),
            ("octal:0.1777", 4_000_000),
            ("octal:0.16", 1_000_000),
            ("octal:0.6", 100_000),
            ("subtract:1-998,1000", 2_000_000),
            ("subtract:1,3,4", 20_000_000),
            ("subtract:2,3,5,7,11,13,17,19,23,29,31,37,41,43,47,53,59,61,67,71,73,79,83,89,97", 20_000_000),
            ("allbut:1,4,5", 10_000_000),
            ("nim", 100_000_000),
        ] {
            let game = Game::parse(spec).unwrap();
            let resolved = resolve(&game).unwrap();
            let mut engine = Engine::new(&resolved, false);
            let mut store = engine.store();
            let started = std::time::Instant::now();
            engine.extend(&mut store, count as usize).unwrap();
            let real = started.elapsed().as_secs_f64();
            let model = engine.work(count) / 1e9;
            println!(
                "{spec:>20} {count:>10}: real {real:7.3} s, model {model:7.3} s, model/real {:.2}",
                model / real
            );
            if !(1.0 / 1.5..=1.5).contains(&(model / real)) {
                off.push(format!("{spec} ({count}): model/real {:.2}", model / real));
            }
        }
        assert!(off.is_empty(), "the model is off by more than a factor of 1.5: {off:?}");
    }
}
