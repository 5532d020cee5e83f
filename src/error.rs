//! The one error type of the crate.
//!
//! Every user-facing entry point (plan construction, parsing, counting queries) returns
//! [`Result`]. Messages are single lines that name the offending value, so the command-line
//! tool can print them as they are: every text a variant carries is shown through
//! [`crate::message`] (control characters escaped, inputs shortened to about 80 characters and
//! reasons to [`REASON_CHARS`]), whoever built it, and every big
//! number through [`short`].

use std::fmt;

use num_bigint::BigUint;

pub use crate::message::quote;
use crate::message::{REASON_CHARS, short, shorten};

/// A reason, a detail or another free-form text of a message: escaped, and shortened beyond
/// [`REASON_CHARS`] characters.
fn clip(text: &str) -> String {
    shorten(text, REASON_CHARS)
}

/// Errors reported by nimcount.
///
/// ```
/// use nimcount::Error;
/// use nimcount::count::Query;
/// use nimcount::game::Game;
/// match Query::new(Game::Nim).sizes(5u32, 3u32).count() {
///     Err(Error::EmptyRange { lo, hi }) => assert_eq!((lo, hi), (5u32.into(), 3u32.into())),
///     other => panic!("{other:?}"),
/// }
/// ```
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum Error {
    /// A transform length that is not a power of two (lengths start at 1 = 2^0).
    #[error("length {len} is not a power of two")]
    NotPowerOfTwo {
        /// The offending length.
        len: usize,
    },

    /// A length the Hadamard transforms of [`crate::fwht::HadamardPlan`] do not take: they take
    /// `K·2^k` for `K` in 1 and the orders of [`crate::fwht::HadamardFamily`] (12, 20, 28, 36,
    /// 40, 44, 52, 60, 108, 140, 156, 172).
    #[error("length {len} is not 2^k nor K·2^k for K in 12, 20, 28, 36, 40, 44, 52, 60, 108, 140, 156, 172")]
    NotHadamardLength {
        /// The offending length.
        len: usize,
    },

    /// A factor or a family of Hadamard matrices that cannot make a length: a factor `K` that
    /// does not divide it with a power-of-two quotient, or a family without a matrix of the
    /// order asked for ([`crate::fwht::HadamardPlan::with_factor`]).
    #[error("{why}")]
    NotHadamardFactor {
        /// The length.
        len: usize,
        /// Why, in one sentence.
        why: String,
    },

    /// An empty buffer given to a transform, convolution or power (there is nothing to compute,
    /// which is almost always a mistake upstream).
    #[error("empty buffer: a transform needs at least one element")]
    EmptyBuffer,

    /// A buffer whose length is not a multiple of the plan's length.
    #[error("buffer of {len} elements is not a multiple of the transform length {plan_len}")]
    LengthMismatch {
        /// Length of the buffer that was passed.
        len: usize,
        /// Length of the plan.
        plan_len: usize,
    },

    /// A modulus the ring does not accept.
    #[error("invalid modulus {}: {}", quote(modulus), clip(reason))]
    InvalidModulus {
        /// The modulus as written.
        modulus: String,
        /// What is wrong with it.
        reason: &'static str,
    },

    /// A value outside the set of values a ring accepts (for example a residue `>= p`).
    #[error("value {} at index {index} is outside the ring {}", quote(value), quote(ring))]
    ValueOutOfRange {
        /// The value, printed.
        value: String,
        /// Its position in the buffer or file.
        index: usize,
        /// The ring, printed.
        ring: String,
    },

    /// The normalised inverse needs 1/2, which the ring lacks (wrapping rings).
    #[error(
        "the ring {} provides no inverse of 2: only the forward and unnormalised inverse transforms exist there",
        quote(ring)
    )]
    NoInverseOfTwo {
        /// The ring, printed.
        ring: String,
    },

    /// An exact integer computation that could leave the integer type.
    #[error("{what} could overflow {}: {}", quote(ring), clip(detail))]
    Overflow {
        /// What was attempted.
        what: &'static str,
        /// The ring or integer type.
        ring: String,
        /// The bound that was exceeded.
        detail: String,
    },

    /// An exact division that does not divide (the input was not an image of the forward transform).
    #[error("{what}: value {} at index {index} is not divisible by {}", quote(value), quote(divisor))]
    NotDivisible {
        /// What was attempted.
        what: &'static str,
        /// The value, printed.
        value: String,
        /// Its index.
        index: usize,
        /// The divisor.
        divisor: String,
    },

    /// A SIMD backend that this CPU does not support.
    #[error("backend {backend} is not available on this CPU")]
    BackendUnavailable {
        /// The backend's name.
        backend: &'static str,
    },

    /// A backend name that is not `scalar`, `avx2` or `avx512`.
    #[error("unknown backend '{}' (choose scalar, avx2 or avx512)", quote(name))]
    UnknownBackend {
        /// The name as given (shortened when long).
        name: String,
    },

    /// A ring name that is none of [`crate::ring::AnyRing::NAMES`].
    #[error("unknown ring '{}' (choose one of u32, u64, wrap32, wrap64, i64, i128, f32, f64)", quote(name))]
    UnknownRing {
        /// The name as given (shortened when long).
        name: String,
    },

    /// A modular ring named without its modulus.
    #[error("the ring {} needs a modulus (an odd number)", quote(ring))]
    RingNeedsModulus {
        /// The ring's name.
        ring: String,
    },

    /// A ring without parameters named with a modulus.
    #[error("the ring {} takes no modulus", quote(ring))]
    RingTakesNoModulus {
        /// The ring's name.
        ring: String,
    },

    /// Two operands whose lengths must agree (an XOR convolution's) and do not.
    #[error("operands of different lengths, {left} and {right}")]
    LengthsDiffer {
        /// The first operand's length.
        left: usize,
        /// The second operand's length.
        right: usize,
    },

    /// A buffer or table that would not fit in memory; refused before allocating.
    #[error("{} needs {needed} but only {available} of memory is available", clip(what))]
    OutOfMemory {
        /// What would have been allocated.
        what: String,
        /// Bytes needed, printed with a unit.
        needed: Bytes,
        /// Bytes available, printed with a unit.
        available: Bytes,
    },

    /// A number that does not parse (see [`crate::number`]).
    #[error("invalid number '{}': {}", quote(input), clip(reason))]
    InvalidNumber {
        /// The text as given (shortened when long).
        input: String,
        /// What is wrong with it.
        reason: String,
    },

    /// A game specification that does not parse or makes no sense.
    #[error("invalid game '{}': {}", quote(spec), clip(reason))]
    InvalidGame {
        /// The specification as given (shortened when long).
        spec: String,
        /// What is wrong with it.
        reason: String,
    },

    /// A pattern of `survey` that does not name a family of games.
    #[error("invalid pattern '{}': {}", quote(pattern), clip(reason))]
    InvalidPattern {
        /// The pattern as given (shortened when long).
        pattern: String,
        /// What is wrong with it.
        reason: String,
    },

    /// A counting query over a game without its range of heap sizes.
    #[error("a query over a game needs its heap sizes lo..=hi")]
    MissingSizes,

    /// A counting query without its number of heaps.
    #[error("a counting query needs its number of heaps k")]
    MissingHeaps,

    /// Something that a kind of count (Moore's Nim-K, staircases) does not answer.
    #[error("{query}: {reason}")]
    NotForQuery {
        /// The query, e.g. `moore:2` or `nim staircase`.
        query: String,
        /// Why not.
        reason: &'static str,
    },

    /// Heap sizes given to a query over a histogram.
    #[error("heap sizes apply to games, not to a histogram")]
    SizesWithHistogram,

    /// A range of heap sizes `lo..=hi` with `lo > hi`.
    #[error("empty range of heap sizes: {} is above {}", short(lo), short(hi))]
    EmptyRange {
        /// The low end.
        lo: BigUint,
        /// The high end.
        hi: BigUint,
    },

    /// A range of heap counts `lo..=hi` with `lo > hi`.
    #[error("empty range of heap counts: {} is above {}", short(lo), short(hi))]
    EmptyHeapsRange {
        /// The smallest number of heaps.
        lo: BigUint,
        /// The largest number of heaps.
        hi: BigUint,
    },

    /// Misère play asked for a game whose misère theory nimcount does not know.
    #[error(
        "misère positions are counted for nim only (and by their misère quotients for octal and finite \
         subtraction games), not for {}: its misère outcome depends on more than the Grundy values",
        quote(game)
    )]
    MisereUnsupported {
        /// The game.
        game: String,
    },

    /// A game whose misère quotient was not found (it may be infinite, or larger than the
    /// budget allowed); the reason names the limit and what lifts it.
    #[error("no misère quotient of {} found: {}", quote(game), clip(reason))]
    QuotientNotFound {
        /// The game.
        game: String,
        /// Why: the limit reached, or the class of games without a periodicity theorem.
        reason: String,
        /// The field of [`crate::misere::Budget`] whose limit stopped the search (`"max_heap"`,
        /// `"max_order"`, `"max_states"` or `"max_seconds"`): raising it searches further. `None` when no limit
        /// did (a game without a theorem here, or no refinement judged every position right).
        limit: Option<&'static str>,
    },

    /// A search for a misère quotient whose budget is estimated beyond its limit of time
    /// ([`crate::misere::estimate`]), refused before any work.
    #[error(
        "the search for the misère quotient of {} may take {} ({states} states of checks at most), \
         beyond the limit of {limit} s",
        quote(game),
        Seconds(*seconds)
    )]
    QuotientTooCostly {
        /// The game.
        game: String,
        /// Estimated seconds of a search that spends its budget.
        seconds: f64,
        /// The states the budget allows in all (`max_states` times the checks of a search).
        states: u64,
        /// The limit, seconds of estimated time ([`crate::misere::Budget::max_seconds`]).
        limit: u64,
    },

    /// Misère play asked for a histogram (misère Nim needs the heap sizes themselves).
    #[error("misère play needs the game nim and its heap sizes, not a histogram")]
    MisereNeedsGame,

    /// The XOR distribution asked for misère play.
    #[error("the XOR distribution is for normal play, not misère play")]
    MisereDistribution,

    /// A probability over no heap sizes at all.
    #[error("no heap sizes to draw from: the histogram is empty")]
    EmptyHistogram,

    /// A probability over sets of more distinct sizes than there are.
    #[error(
        "no set of {} distinct heap sizes exists among {} sizes: the probability is undefined",
        short(k),
        short(n)
    )]
    NoSets {
        /// The number of heaps.
        k: BigUint,
        /// The number of heap sizes.
        n: BigUint,
    },

    /// A misère position whose search would visit more positions than allowed.
    #[error(
        "the misère search of this position would visit up to {positions} positions, more than the limit \
         of {limit}; misère play is known in closed form only for nim and for positions whose heaps (and \
         every smaller heap of their games) have Grundy values 0 and 1"
    )]
    MisereTooLarge {
        /// The bound on the positions reachable.
        positions: Estimate,
        /// The limit.
        limit: u64,
    },

    /// A misère position whose search would examine more moves than allowed.
    #[error(
        "the misère search of this position would examine {}; misère play is known in closed form only for \
         nim and for positions whose heaps (and every smaller heap of their games) have Grundy values 0 and 1",
        moves_beyond(*moves, *limit)
    )]
    MisereTooLong {
        /// The bound on the moves examined (`None`: found during the search, beyond the limit).
        moves: Option<u128>,
        /// The limit.
        limit: u64,
    },

    /// A heap too large to play ([`crate::play::MAX_HEAP_BITS`]).
    #[error("a heap of {bits} bits: positions are played with heaps of at most {limit} bits (about {} digits)", digits_of(*limit))]
    HeapTooLarge {
        /// The heap's bits.
        bits: u64,
        /// The most bits a heap may have.
        limit: u64,
    },

    /// A list of moves that would take more memory than a list may.
    #[error("the winning moves take more than {limit} of memory (after {moves} moves)")]
    MovesTooLarge {
        /// The moves listed before the list passed its limit.
        moves: usize,
        /// The most bytes a list may take.
        limit: Bytes,
    },

    /// A computation refused before it starts because of its estimated number of steps.
    #[error("{what} needs {steps} steps, more than the limit of {limit}")]
    TooMuchWork {
        /// What would have been computed.
        what: &'static str,
        /// The estimate (saturated at `u128::MAX`: then "more than" the limit anyway).
        steps: Estimate,
        /// The limit.
        limit: u128,
    },

    /// Take at most half (`fraction:1/2`) over a range whose spectrum is estimated beyond the
    /// work limit: its transform has about `2^(b/2)` distinct values for sizes of `b` bits.
    #[error(
        "take at most half over {}..={} needs {steps} steps, more than the limit of {limit}: its \
         transform has about 2^(b/2) distinct values for sizes of b bits (signed sums of one weight \
         per bit of the sizes, a subset-sum problem); sizes {}..={} fit",
        short(lo),
        short(hi),
        short(lo),
        short(reach)
    )]
    HalfTooWide {
        /// The smallest size.
        lo: BigUint,
        /// The largest size.
        hi: BigUint,
        /// The estimate of the spectrum's steps.
        steps: Estimate,
        /// The limit.
        limit: u128,
        /// The largest size, from `lo` on, whose range fits the limit (boxed: errors stay small).
        reach: Box<BigUint>,
    },

    /// The structured spectrum asked for a histogram that has counts per value.
    #[error(
        "the structured spectrum needs a histogram of value intervals or power-of-two progressions, not counts per value"
    )]
    NotStructured,

    /// The XOR distribution of a histogram whose values reach beyond any array.
    #[error(
        "the distribution has one count per XOR value, 2^{log2} of them: too many to hold (the counts without it need no array)"
    )]
    DistributionTooLarge {
        /// `log2` of the number of XOR values.
        log2: u32,
    },

    /// An exact answer too large to hold.
    #[error(
        "the exact answer would have {bits} bits, more than the 2^{limit_log2} bits an exact answer may have; give a modulus"
    )]
    AnswerTooLarge {
        /// An estimate of its size.
        bits: Estimate,
        /// `log2` of the most bits an exact answer may have.
        limit_log2: u32,
    },

    /// A game without a proven period whose query needs more values than may be computed.
    /// Counts no longer produce it: they compute the values directly or refuse with
    /// [`Error::TooCostly`], which carries the estimate.
    #[error(
        "{} has no proven period among the values of heap sizes 0..={searched} and the range reaches {}",
        quote(game),
        short(reach)
    )]
    NoPeriod {
        /// The game.
        game: String,
        /// The largest heap size whose value the search computed.
        searched: u64,
        /// The largest heap size of the range.
        reach: BigUint,
    },

    /// More heap sizes than a Grundy computation may handle.
    #[error("{what}: {count} heap sizes is beyond the limit of {limit}")]
    TooManyHeaps {
        /// What was asked.
        what: &'static str,
        /// How many heap sizes.
        count: u128,
        /// The limit.
        limit: u64,
    },

    /// Grundy values that do not reach as far as a histogram needs.
    #[error("the Grundy values given cover heap sizes 0..{have} but {need} are needed")]
    ValuesTooShort {
        /// How many values were given.
        have: u64,
        /// How many are needed.
        need: u128,
    },

    /// A histogram term too large for the exact transform on words.
    #[error("a histogram term whose counts sum to {sum} over 2^{log2} values is too large to transform")]
    TermTooLarge {
        /// The sum of the term's counts.
        sum: u128,
        /// `log2` of the transform length.
        log2: u32,
    },

    /// A staircase over a game whose moves are not "take k stones" alike from every heap.
    #[error(
        "a staircase moves coins one step down, so its game must take stones: {} {}",
        quote(game),
        clip(why)
    )]
    NotTakeAway {
        /// The game.
        game: String,
        /// Why its moves do not qualify.
        why: String,
    },

    /// A heap larger than the Grundy values known for its game reach.
    #[error(
        "the heap {} is beyond the Grundy values known for {} (heaps below {limit}){}",
        quote(heap),
        quote(game),
        clip(why)
    )]
    HeapBeyondValues {
        /// The heap, printed (shortened when long).
        heap: String,
        /// The game.
        game: String,
        /// Values are known for heaps below this.
        limit: u64,
        /// What else would be needed, or empty.
        why: String,
    },

    /// A distributed transform or count over a number of processes that is not a power of two.
    #[error("{processes} processes: a distributed transform needs a power of two (1, 2, 4, 8, …)")]
    ProcessCount {
        /// The number of processes.
        processes: usize,
    },

    /// A distributed transform with fewer elements than processes.
    #[error("{processes} processes for {len} elements: every process needs at least one element")]
    TooManyProcesses {
        /// The number of processes.
        processes: usize,
        /// The transform length.
        len: u64,
    },

    /// Processes of one distributed computation that were given different parameters.
    #[error("the processes disagree on {what}")]
    ProcessesDisagree {
        /// What differs.
        what: &'static str,
    },

    /// A block too large for one exchange between processes (message counts are 32-bit).
    #[error("a block of {bytes} per process is too large to exchange (at most {limit}); use more processes")]
    BlockTooLarge {
        /// The block's size.
        bytes: Bytes,
        /// The largest block that can be exchanged.
        limit: Bytes,
    },

    /// Another process of a distributed computation failed; every process stops with this error
    /// (the failing one with its own).
    #[error("process {rank} of {processes} failed: {}", clip(message))]
    ProcessFailed {
        /// The rank of the first process that failed.
        rank: usize,
        /// The number of processes.
        processes: usize,
        /// Its error message.
        message: String,
    },

    /// The processes of one node could not share one block of memory (an MPI-3 shared-memory
    /// window); `--exchange all-to-all` avoids it.
    #[error("the processes of one node cannot share memory: {}", clip(detail))]
    SharedMemory {
        /// What went wrong.
        detail: String,
    },

    /// A counting query that the distributed count does not compute.
    #[error("the distributed count does not support {what}")]
    NotDistributed {
        /// What was asked.
        what: &'static str,
    },

    /// A malformed input file.
    #[error("{}{}: {}", quote(path), at_line(*line), clip(reason))]
    Malformed {
        /// The file.
        path: String,
        /// 1-based line number (0 for a file-level problem such as a truncated binary file).
        line: usize,
        /// What is wrong.
        reason: String,
    },

    /// An input that grows past the most it may hold before its end (a stream without a known
    /// size, such as a pipe or `/dev/zero`), or a file whose size is beyond the limit.
    #[error("{}: {}; the limit is {limit}", quote(path), clip(what))]
    InputTooLarge {
        /// The file.
        path: String,
        /// How much there is (or has been read so far).
        what: String,
        /// The limit.
        limit: Bytes,
    },

    /// A file read as binary elements whose bytes are text (digits and line breaks): almost
    /// certainly a text file given in the binary format.
    #[error(
        "{}: looks like text (digits and line breaks), not {size}-byte little-endian elements",
        quote(path)
    )]
    LooksLikeText {
        /// The file.
        path: String,
        /// The size of one element in bytes.
        size: usize,
    },

    /// Grundy values needed directly (no period is proven) whose estimated cost is beyond the
    /// limit of direct values; refused before computing them. (Measured in seconds and bytes of one
    /// game's values, unlike [`Error::TooMuchWork`], which counts the steps of a count.)
    #[error(
        "{} {}, and heap sizes up to {last} need G(0) … G({last}) directly: {} and {}, beyond \
         the limit of direct values (an estimate of about a minute, or the number of values allowed)",
        quote(game),
        clip(reason),
        Seconds(*seconds),
        Bytes(*bytes),
        last = crate::message::digits(last)
    )]
    TooCostly {
        /// The game.
        game: String,
        /// Why the values are needed directly ("is never periodic", "has no proven period in …").
        reason: String,
        /// The largest heap size of the range.
        last: String,
        /// The number of values needed, `G(0)` … `G(last)`, when it fits in 64 bits.
        values: Option<u64>,
        /// Estimated seconds on one core of the reference machine.
        seconds: f64,
        /// Estimated bytes of memory (`u64::MAX`: beyond 16 EiB).
        bytes: u64,
    },

    /// An I/O error, with the path it concerns.
    #[error("{}: {}", quote(path), clip(&source.to_string()))]
    Io {
        /// The file.
        path: String,
        /// The underlying error.
        #[source]
        source: std::io::Error,
    },
}

/// `", line N"`, or nothing for a problem with the file as a whole (line 0).
fn at_line(line: usize) -> String {
    if line == 0 { String::new() } else { format!(", line {line}") }
}

/// Convenience alias used across the crate.
pub type Result<T, E = Error> = std::result::Result<T, E>;

impl Error {
    /// Wraps an I/O error together with the path it concerns.
    pub fn io(path: impl AsRef<std::path::Path>, source: std::io::Error) -> Self {
        Error::Io { path: path.as_ref().display().to_string(), source }
    }
}

/// The decimal digits of a number of `bits` bits, rounded down.
fn digits_of(bits: u64) -> u64 {
    (bits as f64 * std::f64::consts::LOG10_2) as u64
}

/// How [`Error::MisereTooLong`] states its moves: the bound and the limit, or only the limit
/// when the search passed it.
fn moves_beyond(moves: Option<u128>, limit: u64) -> String {
    match moves {
        Some(moves) => format!("up to {moves} moves, more than the limit of {limit}"),
        None => format!("more than the limit of {limit} moves"),
    }
}

/// An estimate of a count of steps or bits: printed as "about N", or as "more than 10^38" when it
/// does not fit in 128 bits (never as a saturated figure: `u128::MAX` reads as "more than 10^38"
/// too).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub struct Estimate(pub Option<u128>);

impl fmt::Display for Estimate {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.0 {
            Some(n) if n < u128::MAX => write!(f, "about {n}"),
            _ => f.write_str("more than 10^38"),
        }
    }
}

/// A byte count, printed with a binary unit (`4.00 GiB`); `u64::MAX` stands for any count that
/// does not fit in 64 bits and prints as `more than 16 EiB`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub struct Bytes(pub u64);

impl fmt::Display for Bytes {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        const UNITS: [&str; 7] = ["B", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB"];
        if self.0 == u64::MAX {
            return f.write_str("more than 16 EiB");
        }
        let mut value = self.0 as f64;
        let mut unit = 0;
        while value >= 1024.0 && unit + 1 < UNITS.len() {
            value /= 1024.0;
            unit += 1;
        }
        if unit == 0 { write!(f, "{} B", self.0) } else { write!(f, "{value:.2} {}", UNITS[unit]) }
    }
}

/// A duration in seconds, printed approximately in the largest unit that keeps it readable:
/// `about 3.2 s`, `about 4.0 min`, `about 2.5 h`, `about 3.0 days`, `about 40 years`.
#[derive(Debug, Clone, Copy, PartialEq, PartialOrd)]
pub struct Seconds(pub f64);

impl fmt::Display for Seconds {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        const YEAR: f64 = 31_557_600.0;
        const UNITS: [(f64, &str); 5] =
            [(1.0, "s"), (60.0, "min"), (3600.0, "h"), (86_400.0, "days"), (YEAR, "years")];
        let s = self.0;
        if !s.is_finite() || s >= 1e6 * YEAR {
            return f.write_str("more than a million years");
        }
        if s < 0.1 {
            return f.write_str("about 0.1 s or less");
        }
        // The largest unit the value reaches (59.9 s reads as 1.0 min).
        let (scale, unit) =
            UNITS.iter().rev().find(|&&(scale, _)| s >= scale * 0.99).copied().unwrap_or(UNITS[0]);
        let x = s / scale;
        if x < 9.95 { write!(f, "about {x:.1} {unit}") } else { write!(f, "about {:.0} {unit}", x.round()) }
    }
}
