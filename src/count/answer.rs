//! What a counting query asks for and what it answers.

use std::fmt;
use std::time::Duration;

use num_bigint::BigUint;

use crate::grundy::Certificate;
use crate::simd::Backend;

/// Which positions are counted.
///
/// ```
/// use nimcount::count::{Kind, Query};
/// use nimcount::histogram::Histogram;
/// // Two Nim heaps of 1..=3 stones: (1,1), (2,2), (3,3) are the losing pairs.
/// let h = || Histogram::from_values(&[0, 1, 2, 3], 1, 3).unwrap();
/// let count = |kind| Query::from_histogram(h()).heaps(2u32).kind(kind).count().unwrap();
/// assert_eq!((count(Kind::Ordered).losing, count(Kind::Ordered).total), (3u32.into(), 9u32.into()));
/// assert_eq!((count(Kind::Multiset).losing, count(Kind::Multiset).total), (3u32.into(), 6u32.into()));
/// assert_eq!((count(Kind::Set).losing, count(Kind::Set).total), (0u32.into(), 3u32.into()));
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
#[non_exhaustive]
pub enum Kind {
    /// Ordered k-tuples of heap sizes (heaps are distinguishable).
    #[default]
    Ordered,
    /// Multisets: unordered heaps, sizes may repeat.
    Multiset,
    /// Sets: k distinct heap sizes.
    Set,
}

impl Kind {
    /// The kind two switches ask for: unordered heaps (multisets), distinct sizes (sets), or
    /// neither (ordered tuples). Both at once is refused: a set is a multiset already.
    ///
    /// ```
    /// use nimcount::count::Kind;
    /// assert_eq!(Kind::of(false, false)?, Kind::Ordered);
    /// assert_eq!(Kind::of(true, false)?, Kind::Multiset);
    /// assert_eq!(Kind::of(false, true)?, Kind::Set);
    /// assert!(Kind::of(true, true).is_err());
    /// # Ok::<(), nimcount::Error>(())
    /// ```
    pub fn of(unordered: bool, distinct: bool) -> crate::error::Result<Kind> {
        match (unordered, distinct) {
            (true, true) => Err(crate::error::Error::NotForQuery {
                query: "unordered and distinct heaps".into(),
                reason: "choose one (multisets of heap sizes, or sets of distinct sizes)",
            }),
            (true, false) => Ok(Kind::Multiset),
            (false, true) => Ok(Kind::Set),
            (false, false) => Ok(Kind::Ordered),
        }
    }
}

impl fmt::Display for Kind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Kind::Ordered => "ordered",
            Kind::Multiset => "unordered",
            Kind::Set => "distinct",
        })
    }
}

/// How the pointwise values are evaluated; every method gives the same answer.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
#[non_exhaustive]
pub enum Method {
    /// Ordered counts modulo odd words (and small powers of two): transformed residues, each
    /// distinct residue raised once when they are few, every slot otherwise. Classes for the
    /// other queries.
    #[default]
    Auto,
    /// Raise every slot of the transformed residues (ordered counts modulo odd words and small
    /// powers of two; other queries use classes).
    Slots,
    /// Transform exactly and evaluate each distinct transformed value once.
    Classes,
}

/// Which spectrum a query evaluates: the transform of the array of slots, one per Grundy value,
/// or the closed form of a structured histogram (intervals and power-of-two progressions of
/// values, see [`Histogram::is_structured`](crate::histogram::Histogram::is_structured)), which
/// needs no array and reaches values of any number of bits. Both give the same answers.
///
/// ```
/// use nimcount::count::{Query, SpectrumPath};
/// use nimcount::game::Game;
/// let nim = |path| Query::new(Game::Nim).sizes(1u32, 1000u32).heaps(3u32).spectrum(path).count().unwrap();
/// let (array, structured) = (nim(SpectrumPath::Array), nim(SpectrumPath::Structured));
/// assert_eq!(array.losing, structured.losing);
/// assert_eq!((array.report.spectrum, structured.report.spectrum), (SpectrumPath::Array, SpectrumPath::Structured));
/// assert_eq!(nim(SpectrumPath::Auto).report.spectrum, SpectrumPath::Structured);
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
#[non_exhaustive]
pub enum SpectrumPath {
    /// The structured spectrum when the histogram is structured and that is cheaper than the
    /// array (or the array cannot fit), else the array. The distribution always needs the array.
    #[default]
    Auto,
    /// The array of slots.
    Array,
    /// The closed form of a structured histogram (an error for other histograms).
    Structured,
}

impl fmt::Display for SpectrumPath {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            SpectrumPath::Auto => "auto",
            SpectrumPath::Array => "array",
            SpectrumPath::Structured => "structured",
        })
    }
}

/// Where the histogram came from.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum Source {
    /// Given by the caller.
    Histogram,
    /// Built from a proven periodicity of the game's Grundy values.
    Period {
        /// The periodicity.
        certificate: Certificate,
        /// How many Grundy values the period search computed.
        values_computed: usize,
    },
    /// Built from a closed form of the values that is no period (take at most half:
    /// `G(2n) = n`, `G(2n + 1) = G(n)`); no value was computed.
    ClosedForm {
        /// The form, in one line.
        form: &'static str,
    },
    /// Counted from Grundy values computed directly (the range is small enough).
    Values {
        /// How many Grundy values were computed.
        values_computed: usize,
    },
    /// Misère play counted in the monoid algebra of the game's misère quotient.
    Quotient {
        /// The quotient's order.
        order: usize,
        /// The preperiod of the heaps' elements.
        preperiod: u64,
        /// Their period.
        period: u64,
    },
    /// Misère play counted in the monoid algebra of the misère quotient of the game's heaps
    /// `0..=largest_heap` ([`crate::misere::Search::heaps`]): the game has no quotient of
    /// every heap size found, and the sizes counted are at most `largest_heap`.
    PartialQuotient {
        /// The quotient's order.
        order: usize,
        /// The largest heap of the quotient (the largest size counted).
        largest_heap: u64,
    },
    /// Moore's Nim-K, counted digit by digit over the binary columns of the largest size.
    Columns {
        /// The binary columns visited (the length of the largest size).
        columns: u64,
    },
    /// No Grundy value was needed: no heaps, or one size and an even number of heaps (or a set
    /// of more sizes than there are).
    Trivial,
    /// A sum of different games ([`Query::sum`](super::Query::sum)): where each component's
    /// histogram came from, in order.
    Sum {
        /// The sources of the components.
        components: Vec<Source>,
    },
}

/// What a query used and how long each stage took.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct Report {
    /// Where the histogram came from.
    pub source: Source,
    /// The number of heap sizes `N` (of a sum of games: of all its components together).
    pub sizes: BigUint,
    /// `log2` of the transform length `F` (which may be far beyond `usize`).
    pub log2_len: u32,
    /// The spectrum evaluated: [`SpectrumPath::Array`] or [`SpectrumPath::Structured`]
    /// ([`SpectrumPath::Auto`] when none was: Moore's Nim-K and trivial queries).
    pub spectrum: SpectrumPath,
    /// The number of distinct transformed values, when they were grouped.
    pub distinct_values: Option<usize>,
    /// The stages, in order, with their wall-clock times.
    pub stages: Vec<(String, Duration)>,
}

/// The answer to a counting query.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct Counts {
    /// Positions lost for the player to move.
    pub losing: BigUint,
    /// Positions won for the player to move (`total − losing`).
    pub winning: BigUint,
    /// All positions: `N^k`, `C(N+k−1, k)` or `C(N, k)`.
    pub total: BigUint,
    /// The modulus of the three counts, or `None` when they are exact.
    pub modulus: Option<BigUint>,
    /// What was used.
    pub report: Report,
}

/// The number of positions for every XOR value of the Grundy values (normal play).
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct Distribution {
    /// `counts[x]`: positions whose Grundy values XOR to `x`, for `x < F`.
    pub counts: Vec<BigUint>,
    /// Positions lost for the player to move: `counts[0]`.
    pub losing: BigUint,
    /// Positions won for the player to move: `total − losing`.
    pub winning: BigUint,
    /// All positions.
    pub total: BigUint,
    /// The modulus of the counts, or `None` when they are exact.
    pub modulus: Option<BigUint>,
    /// What was used.
    pub report: Report,
}

/// Probabilities when every heap size is drawn with its weight in the histogram (ordered), or
/// when a multiset or set is drawn uniformly.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub struct Probability {
    /// Probability that the player to move loses.
    pub losing: f64,
    /// Probability that the player to move wins.
    pub winning: f64,
    /// `probabilities[x]` for every XOR value `x`, when asked for; `distribution[0]` is
    /// `losing`, bit for bit.
    pub distribution: Option<Vec<f64>>,
    /// Whether the probabilities are the exact ratios of counts, correctly rounded (tiny ones
    /// included, down to 1e-300 and below); otherwise they were evaluated in floating point,
    /// with an absolute error of about 1e-15 (the exact counts would have cost too much).
    pub exact: bool,
    /// What was used.
    pub report: Report,
}

/// Options that change how a query is computed, never its answer.
#[derive(Debug, Clone, Copy)]
pub struct Options {
    pub method: Method,
    pub backend: Backend,
    pub parallel: bool,
    pub spectrum: SpectrumPath,
    /// The most work steps (see [`super::MAX_STEPS`]) a computation may take.
    pub work_limit: u128,
}
