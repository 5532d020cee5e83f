//! What computing values costs: a model in nanoseconds on the machine nimcount's figures were
//! measured on (a 2-core AMD EPYC, Zen 3, one thread, shared with other work: the constants
//! are CPU times of whole runs of `nimcount grundy --first`, within a factor of about 1.5),
//! from counts the engines keep of their inner steps. The model decides where a default search stops (so that the same command
//! stops at the same heap on any machine, whatever its load), which ranges get direct values
//! without a flag, and the estimates printed with a refusal; the progress bar shows real time.

use std::fmt;

use crate::error::Seconds;

/// Called while values are computed, about every [`PULSE_WORK`] counted steps of the engines
/// whose values may each cost much (hexadecimal and octal games: between values, and inside a
/// hexadecimal value), so that progress is reported and clocks are read within a fraction of a
/// second of work, however long one value takes. `true` stops the computation: the value under
/// way is dropped and computed afresh by the next call.
pub type Pulse<'a> = &'a mut dyn FnMut() -> bool;

/// Counted steps between two pulses: about 2 ms of the model's time (a few tens of ms where the
/// model is off by ten).
pub const PULSE_WORK: u64 = 1 << 20;

/// Closed forms (nim, one-interval subtraction sets): per value.
pub(crate) const CLOSED_FORM_NS: f64 = 1.0;
/// Sliding-window mex: per heap and run of moves (an insert and a remove in the counted set).
const SLIDING_HEAP_NS: f64 = 6.0;
const SLIDING_RUN_NS: f64 = 12.0;
/// Sparse space: per heap, per pair with a rare position, per split scanned (for a rare value,
/// or every split while no mask pays), per word of the per-heap bit sets (cleared and read
/// three times).
pub const SPARSE_HEAP_NS: f64 = 200.0;
const SPARSE_PAIR_NS: f64 = 1.5;
pub const SPARSE_SCAN_NS: f64 = 1.0;
const SPARSE_WORD_NS: f64 = 0.5;
/// Hexadecimal games: per heap, and per step (split scanned, three-heap value inserted into a
/// bit set at random, word of a bit set read).
const HEX_HEAP_NS: f64 = 200.0;
const HEX_STEP_NS: f64 = 2.0;
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

pub(crate) fn sparse(heaps: u64, pairs: u64, scanned: u64, words: u64) -> f64 {
    heaps as f64 * SPARSE_HEAP_NS
        + pairs as f64 * SPARSE_PAIR_NS
        + scanned as f64 * SPARSE_SCAN_NS
        + words as f64 * SPARSE_WORD_NS
}

pub(crate) fn hex(heaps: u64, steps: u64) -> f64 {
    heaps as f64 * HEX_HEAP_NS + steps as f64 * HEX_STEP_NS
}

/// `gathered`: pairs times the words of their masks.
pub(crate) fn block(heaps: u64, gathered: u64, resolved: u64) -> f64 {
    heaps as f64 * BLOCK_HEAP_NS + gathered as f64 * BLOCK_GATHER_WORD_NS + resolved as f64 * BLOCK_RESOLVE_NS
}

pub(crate) fn plain(heaps: u64, options: u64) -> f64 {
    heaps as f64 * 2.0 + options as f64 * PLAIN_OPTION_NS
}

/// The CPU time the calling thread has used, from `/proc/thread-self/stat` in ticks of 10 ms
/// (Linux's fixed `USER_HZ` of that interface); `None` where it cannot be read. The thread's,
/// not the process's: other work of the process (other searches, other tests) must not stop
/// this one.
pub fn thread_cpu_time() -> Option<std::time::Duration> {
    let stat = std::fs::read_to_string("/proc/thread-self/stat").ok()?;
    // Fields after the command name, which is in parentheses and may contain anything: utime
    // and stime are the 14th and 15th fields, the 12th and 13th after the ')'.
    let mut fields = stat.get(stat.rfind(')')? + 1..)?.split_ascii_whitespace().skip(11);
    let ticks = fields.next()?.parse::<u64>().ok()? + fields.next()?.parse::<u64>().ok()?;
    Some(std::time::Duration::from_millis(ticks.saturating_mul(10)))
}

/// The stops of a search limited to `budget` seconds of estimated time: the estimate decides
/// (the same heap on every machine), and two clocks catch an estimate that is off: the CPU time
/// of the thread running the search at [`CPU_MARGIN`] times the budget (a model too optimistic for the game), the
/// real time at [`WALL_MARGIN`] times (a machine too busy to give the search a core), each
/// with a few seconds of slack.
#[derive(Debug, Clone, Copy)]
pub struct Budget {
    /// Estimated nanoseconds.
    pub ns: f64,
    started: std::time::Instant,
    cpu_started: Option<std::time::Duration>,
}

/// The CPU time a search may take: its budget times this, plus [`CPU_SLACK`] seconds (the
/// documented +20%; the slack keeps short budgets, whose clocks are noise, on the estimate).
pub(crate) const CPU_MARGIN: f64 = 1.2;
pub(crate) const CPU_SLACK: f64 = 1.0;
/// The real time a search may take: its budget times this, plus [`WALL_SLACK`] seconds.
pub(crate) const WALL_MARGIN: f64 = 2.0;
pub(crate) const WALL_SLACK: f64 = 10.0;

/// Why a search stopped before its certificate.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Stop {
    /// The estimate reached the budget.
    Estimate,
    /// A clock did: the estimate was off for this game or this machine.
    Clock,
}

impl Budget {
    pub fn seconds(seconds: f64) -> Budget {
        Budget { ns: seconds * 1e9, started: std::time::Instant::now(), cpu_started: thread_cpu_time() }
    }

    /// Whether to stop after `work` estimated nanoseconds.
    pub fn stop(&self, work: f64) -> Option<Stop> {
        self.stop_at(work, self.started.elapsed(), self.cpu_used())
    }

    /// Whether a clock has passed its margin, whatever the estimate (read where the estimate
    /// is not at hand: inside a value, see [`Pulse`]).
    pub fn clock_stop(&self) -> bool {
        self.stop_at(0.0, self.started.elapsed(), self.cpu_used()) == Some(Stop::Clock)
    }

    fn cpu_used(&self) -> Option<std::time::Duration> {
        Some(thread_cpu_time()?.saturating_sub(self.cpu_started?))
    }

    /// [`stop`](Self::stop) with the clocks read: `wall` real time and `cpu` CPU time since the
    /// start.
    pub fn stop_at(
        &self,
        work: f64,
        wall: std::time::Duration,
        cpu: Option<std::time::Duration>,
    ) -> Option<Stop> {
        let seconds = self.ns / 1e9;
        if work >= self.ns {
            Some(Stop::Estimate)
        } else if wall.as_secs_f64() >= WALL_MARGIN * seconds + WALL_SLACK
            || cpu.is_some_and(|c| c.as_secs_f64() >= CPU_MARGIN * seconds + CPU_SLACK)
        {
            Some(Stop::Clock)
        } else {
            None
        }
    }
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
