//! Counting positions: how many k-heap positions are lost for the player to move.
//!
//! A position of `k` heaps is lost (normal play) exactly when the XOR of the heaps' Grundy values
//! is 0. With the histogram `h` of Grundy values over the heap sizes and its transform `Ĥ` of
//! length `F = 2^d` (see [`crate::histogram`]):
//!
//! - **ordered** k-tuples: `L = F⁻¹ Σ_j Ĥ_j^k`, out of `N^k`;
//! - **multisets** (unordered heaps): `L = F⁻¹ Σ_j [x^k] (1−x)^(−A_j) (1+x)^(−B_j)`, out of
//!   `C(N+k−1, k)`;
//! - **sets** (distinct sizes): `L = F⁻¹ Σ_j [x^k] (1+x)^(A_j) (1−x)^(B_j)`, out of `C(N, k)`;
//!
//! where `A_j = (N + Ĥ_j)/2`, `B_j = (N − Ĥ_j)/2` and `N` is the number of heap sizes. The full
//! distribution of the XOR applies the inverse transform to the same pointwise values.
//!
//! # Moduli
//! The sum `S = Σ_j c_j` equals `F · L` exactly. For a modulus `M = 2^a · M′` (`M′` odd):
//! - modulo `M′`, `L ≡ F⁻¹ · S` (2 is invertible);
//! - modulo `2^a`, `S` is computed modulo `2^(a+d)` with wrapping arithmetic, and
//!   `L mod 2^a = (S mod 2^(a+d)) / 2^d` because `S mod 2^(a+d) = 2^d · (L mod 2^a)`;
//! - the two residues combine by the Chinese remainder theorem. `M = 1` gives 0.
//!
//! Exponents are reduced with [`crate::arith::ExponentRule`] for the working modulus (safe for
//! bases sharing factors with it); a modulus too large to factor keeps the exponent as it is.
//! Without a modulus the counts are exact big integers.
//!
//! # Speed
//! Ordered counts modulo an odd word (and the part `2^(a+d) <= 2^64` of an even one) transform
//! the histogram's residues with the SIMD kernels. A periodic histogram's transform usually
//! holds few distinct residues (52 in the `2^20` slots for the game `subtract:1-1000000`): they are
//! tallied and each is raised once; when they are many, every slot is raised with the
//! vectorised power. Every other case transforms the histogram's terms exactly (packed side by
//! side into `i64` columns) and evaluates each distinct transformed value once ([`Method`]).
//! Only the losing count's sum is formed unless the distribution is asked for, which alone
//! needs the inverse transform.
//!
//! ```
//! use nimcount::count::Query;
//! use nimcount::histogram::Histogram;
//!
//! // Nim with heaps of 1..=3 stones (Grundy value = size), three heaps:
//! // 6 of the 27 ordered triples have XOR 0 (the permutations of 1, 2, 3).
//! let h = Histogram::from_values(&[0, 1, 2, 3], 1, 3)?;
//! let counts = Query::from_histogram(h).heaps(3u32).count()?;
//! assert_eq!(counts.losing.to_string(), "6");
//! assert_eq!(counts.winning.to_string(), "21");
//! assert_eq!(counts.total.to_string(), "27");
//! assert_eq!(counts.modulus, None);
//! # Ok::<(), nimcount::Error>(())
//! ```

mod coefficients;
mod residue;
mod spectrum;
mod tally;

use std::borrow::Cow;
use std::fmt;
use std::time::{Duration, Instant};

use num_bigint::{BigInt, BigUint, Sign};
use num_integer::Integer;
use num_traits::{One, Signed, ToPrimitive, Zero};
use rayon::prelude::*;

use self::coefficients::{Binomials, Unordered};
use self::residue::{Big, OddWord, Residues, TwoWord, crt};
use self::spectrum::Spectrum;
use crate::error::{Error, Result};
use crate::fwht::Plan;
use crate::game::Game;
use crate::grundy::{self, Certificate};
use crate::histogram::Histogram;
use crate::memory::LargeBuffer;
use crate::progress::{Progress, Silent};
use crate::ring::{Float64, Mod32, Mod64, Ring, Wrap64};

/// Exact answers are refused beyond this many bits (about 20 million decimal digits).
pub const EXACT_MAX_BITS: u64 = 1 << 26;

/// Which positions are counted.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Kind {
    /// Ordered k-tuples of heap sizes (heaps are distinguishable).
    #[default]
    Ordered,
    /// Multisets: unordered heaps, sizes may repeat.
    Multiset,
    /// Sets: k distinct heap sizes.
    Set,
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

/// Where the histogram came from.
#[derive(Debug, Clone, PartialEq, Eq)]
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
    /// Counted from Grundy values computed directly (the range is small enough).
    Values {
        /// How many Grundy values were computed.
        values_computed: usize,
    },
}

/// What a query used and how long each stage took.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Report {
    /// Where the histogram came from.
    pub source: Source,
    /// The number of heap sizes `N`.
    pub sizes: BigUint,
    /// The transform length `F`.
    pub transform_len: usize,
    /// The number of distinct transformed values, when they were grouped.
    pub distinct_values: Option<usize>,
    /// The stages, in order, with their wall-clock times.
    pub stages: Vec<(String, Duration)>,
}

/// The answer to a counting query.
#[derive(Debug, Clone, PartialEq, Eq)]
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

/// The number of positions for every XOR value of the Grundy values.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Distribution {
    /// `counts[x]`: positions whose Grundy values XOR to `x`, for `x < F`.
    pub counts: Vec<BigUint>,
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
pub struct Probability {
    /// Probability that the player to move loses.
    pub losing: f64,
    /// Probability that the player to move wins.
    pub winning: f64,
    /// `probabilities[x]` for every XOR value `x`, when asked for.
    pub distribution: Option<Vec<f64>>,
    /// What was used.
    pub report: Report,
}

/// The histogram a query counts over.
#[derive(Debug, Clone)]
enum Input {
    Game(Game),
    Histogram(Histogram),
}

/// A counting query, built step by step.
///
/// ```
/// use nimcount::count::{Kind, Query};
/// use nimcount::histogram::Histogram;
///
/// // Heap sizes 1..=10^12 of a game with Grundy values 0, 1, 2 repeating (G(n) = n mod 3).
/// let h = Histogram::parse("0 333333333333\n1 333333333334\n2 333333333333\n", "sizes")?;
/// let counts = Query::from_histogram(h.clone()).heaps(10u32.pow(9)).modulus(1_000_000_007u32).count()?;
/// assert_eq!(counts.modulus, Some(1_000_000_007u32.into()));
/// // Unordered pairs: a pair is lost exactly when both heaps have the same value.
/// let pairs = Query::from_histogram(h).heaps(2u32).kind(Kind::Multiset).count()?;
/// let per_value = [333333333333u64, 333333333334, 333333333333];
/// let same: u128 = per_value.iter().map(|&c| c as u128 * (c as u128 + 1) / 2).sum();
/// assert_eq!(pairs.losing, same.into());
/// # Ok::<(), nimcount::Error>(())
/// ```
pub struct Query<'p> {
    input: Input,
    sizes: Option<(BigUint, BigUint)>,
    heaps: BigUint,
    modulus: Option<BigUint>,
    kind: Kind,
    misere: bool,
    max_heap: Option<u64>,
    method: Method,
    progress: &'p dyn Progress,
}

impl fmt::Debug for Query<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Query")
            .field("input", &self.input)
            .field("sizes", &self.sizes)
            .field("heaps", &self.heaps)
            .field("modulus", &self.modulus)
            .field("kind", &self.kind)
            .field("misere", &self.misere)
            .field("max_heap", &self.max_heap)
            .field("method", &self.method)
            .finish()
    }
}

impl Query<'static> {
    /// A query over the heap sizes of a game (give them with [`sizes`](Query::sizes)); one heap
    /// by default, exact counts, ordered heaps, normal play.
    ///
    /// The game's Grundy values come from a proven period, or are computed directly when that
    /// is affordable ([`grundy::range_values`]); a game with no proven period over a range too
    /// costly to compute is an [`Error::TooCostly`]. A game of your own enters as
    /// [`Game::custom`].
    ///
    /// ```
    /// use nimcount::count::{Kind, Query};
    /// use nimcount::game::Game;
    ///
    /// // Three Nim heaps of 1..=1000 stones.
    /// let nim = Query::new(Game::Nim).sizes(1u32, 1_000u32).heaps(3u32);
    /// let counts = nim.count()?;
    /// // Losing triples (a, b, a ^ b) with all three in 1..=1000.
    /// let brute = (1..=1000u32)
    ///     .flat_map(|a| (1..=1000u32).map(move |b| a ^ b))
    ///     .filter(|&c| (1..=1000).contains(&c))
    ///     .count();
    /// assert_eq!(counts.losing, brute.into());
    ///
    /// // Misère Nim: the empty position is a win for the player to move.
    /// let empty = Query::new(Game::Nim).sizes(0u32, 5u32).heaps(0u32).misere(true).count()?;
    /// assert_eq!(empty.losing, 0u32.into());
    /// # let _ = Kind::Multiset;
    /// # Ok::<(), nimcount::Error>(())
    /// ```
    pub fn new(game: Game) -> Self {
        Query::with_input(Input::Game(game))
    }

    /// A query over a histogram of Grundy values.
    pub fn from_histogram(histogram: Histogram) -> Self {
        Query::with_input(Input::Histogram(histogram))
    }

    fn with_input(input: Input) -> Self {
        Query {
            input,
            sizes: None,
            heaps: BigUint::one(),
            modulus: None,
            kind: Kind::Ordered,
            misere: false,
            max_heap: None,
            method: Method::Auto,
            progress: &Silent,
        }
    }
}

impl<'p> Query<'p> {
    /// Every heap size in `lo..=hi` (games only).
    pub fn sizes(mut self, lo: impl Into<BigUint>, hi: impl Into<BigUint>) -> Self {
        self.sizes = Some((lo.into(), hi.into()));
        self
    }

    /// The number of heaps `k` (any size; `k = 0` counts the empty position, which is lost).
    pub fn heaps(mut self, k: impl Into<BigUint>) -> Self {
        self.heaps = k.into();
        self
    }

    /// Counts modulo `m >= 1`.
    pub fn modulus(mut self, m: impl Into<BigUint>) -> Self {
        self.modulus = Some(m.into());
        self
    }

    /// Exact counts (the default).
    pub fn exact(mut self) -> Self {
        self.modulus = None;
        self
    }

    /// Ordered tuples, multisets or sets.
    pub fn kind(mut self, kind: Kind) -> Self {
        self.kind = kind;
        self
    }

    /// Misère play (Nim only): the player who takes the last stone loses.
    pub fn misere(mut self, misere: bool) -> Self {
        self.misere = misere;
        self
    }

    /// The most Grundy values that may be computed, `G(0)` … `G(max_heap − 1)`, in the period
    /// search and directly. By default the search is bounded by an estimate of its time and
    /// direct values by [`grundy::range_values`]'s rule.
    pub fn max_heap(mut self, max_heap: u64) -> Self {
        self.max_heap = Some(max_heap);
        self
    }

    /// How pointwise values are evaluated (the answer does not depend on it).
    pub fn method(mut self, method: Method) -> Self {
        self.method = method;
        self
    }

    /// Reports progress of the long stages to `progress`.
    pub fn progress<'q>(self, progress: &'q dyn Progress) -> Query<'q> {
        Query {
            input: self.input,
            sizes: self.sizes,
            heaps: self.heaps,
            modulus: self.modulus,
            kind: self.kind,
            misere: self.misere,
            max_heap: self.max_heap,
            method: self.method,
            progress,
        }
    }

    /// The histogram the query counts over, and where it came from.
    pub fn histogram(&self) -> Result<(Cow<'_, Histogram>, Source)> {
        self.histogram_timed(&mut Stages::default())
    }

    /// [`histogram`](Self::histogram), timing the period search and the counting.
    fn histogram_timed(&self, stages: &mut Stages) -> Result<(Cow<'_, Histogram>, Source)> {
        match &self.input {
            Input::Histogram(h) => {
                if self.sizes.is_some() {
                    return Err(Error::InvalidQuery("heap sizes apply to games, not to a histogram".into()));
                }
                Ok((Cow::Borrowed(h), Source::Histogram))
            }
            Input::Game(game) => {
                let (lo, hi) = self.range()?;
                self.game_histogram(game, lo, hi, stages).map(|(h, s)| (Cow::Owned(h), s))
            }
        }
    }

    fn range(&self) -> Result<(&BigUint, &BigUint)> {
        let (lo, hi) = self
            .sizes
            .as_ref()
            .ok_or_else(|| Error::InvalidQuery("a game query needs heap sizes lo..=hi".into()))?;
        if lo > hi {
            return Err(Error::InvalidQuery(format!(
                "empty range of heap sizes {lo}..={hi}: lo is above hi"
            )));
        }
        Ok((lo, hi))
    }

    fn game_histogram(
        &self,
        game: &Game,
        lo: &BigUint,
        hi: &BigUint,
        stages: &mut Stages,
    ) -> Result<(Histogram, Source)> {
        // A proven period, or the values G(0..=hi) computed directly when that is affordable
        // (see `grundy::range_values` for the rule).
        let range =
            stages.time("Grundy values", || grundy::range_values(game, hi, self.max_heap, self.progress))?;
        match range {
            grundy::RangeValues::Period(search) => {
                let certificate = search.certificate.expect("a proven period");
                let values_computed = search.checked_upto as usize;
                let histogram = stages
                    .time("histogram", || Histogram::from_period(search.values, &certificate, lo, hi))?;
                Ok((histogram, Source::Period { certificate, values_computed }))
            }
            grundy::RangeValues::Direct(values) => {
                let (lo, hi) = (lo.to_u64().expect("lo <= hi < 2^64"), values.len() as u64 - 1);
                let histogram = stages.time("histogram", || Histogram::from_values(&values, lo, hi))?;
                Ok((histogram, Source::Values { values_computed: values.len() }))
            }
        }
    }

    /// Checks what does not depend on the histogram.
    fn validate(&self) -> Result<()> {
        if let Some(m) = &self.modulus
            && m.is_zero()
        {
            return Err(Error::InvalidQuery("modulus 0: the modulus must be at least 1".into()));
        }
        if let Input::Game(_) = self.input {
            self.range()?;
        }
        if self.misere {
            match &self.input {
                Input::Game(game) => {
                    if *game != Game::Nim {
                        return Err(Error::InvalidQuery(format!(
                            "misère play is supported for nim only, not for {}",
                            game.spec()
                        )));
                    }
                }
                Input::Histogram(_) => {
                    return Err(Error::InvalidQuery(
                        "misère play needs the game nim and its heap sizes, not a histogram".into(),
                    ));
                }
            }
        }
        Ok(())
    }

    /// Losing, winning and total counts.
    pub fn count(&self) -> Result<Counts> {
        let (counts, _) = self.run(false)?;
        Ok(counts)
    }

    /// The number of positions for every XOR value (normal play).
    ///
    /// ```
    /// use nimcount::count::Query;
    /// use nimcount::histogram::Histogram;
    /// // Two Nim heaps of 0..=3 stones: each XOR value in 4 ways.
    /// let h = Histogram::from_values(&[0, 1, 2, 3], 0, 3)?;
    /// let d = Query::from_histogram(h).heaps(2u32).modulus(10u32).distribution()?;
    /// assert_eq!(d.counts, [4u32, 4, 4, 4].map(Into::into));
    /// assert_eq!(d.total, 6u32.into()); // 16 mod 10
    /// # Ok::<(), nimcount::Error>(())
    /// ```
    pub fn distribution(&self) -> Result<Distribution> {
        if self.misere {
            return Err(Error::InvalidQuery("the XOR distribution is for normal play; drop misère".into()));
        }
        let (counts, distribution) = self.run(true)?;
        Ok(Distribution {
            counts: distribution.expect("asked for"),
            total: counts.total,
            modulus: counts.modulus,
            report: counts.report,
        })
    }

    fn run(&self, with_distribution: bool) -> Result<(Counts, Option<Vec<BigUint>>)> {
        self.validate()?;
        let mut stages = Stages::default();
        let (histogram, source) = self.histogram_timed(&mut stages)?;
        if self.modulus.as_ref().is_some_and(|m| m.is_one()) {
            // Everything is 0 modulo 1: nothing to transform.
            let zero = BigUint::zero();
            let report = Report {
                source,
                sizes: histogram.total().clone(),
                transform_len: histogram.transform_len(),
                distinct_values: None,
                stages: stages.0,
            };
            let counts = Counts {
                losing: zero.clone(),
                winning: zero.clone(),
                total: zero,
                modulus: self.modulus.clone(),
                report,
            };
            let distribution = with_distribution.then(|| vec![BigUint::zero(); histogram.transform_len()]);
            return Ok((counts, distribution));
        }
        let mut engine = Engine {
            histogram: &histogram,
            k: &self.heaps,
            kind: self.kind,
            method: self.method,
            progress: self.progress,
            spectrum: None,
            distinct: None,
            stages,
        };
        let outcome = match &self.modulus {
            Some(m) => engine.modular(m, with_distribution)?,
            None => engine.exact(with_distribution)?,
        };
        let Outcome { mut losing, total, distribution } = outcome;
        if self.misere {
            let (lo, hi) = self.range()?;
            let correction = misere_correction(self.kind, &self.heaps, lo, hi);
            losing = match &self.modulus {
                Some(m) => (BigInt::from(losing) + correction).mod_floor(&BigInt::from(m.clone())),
                None => BigInt::from(losing) + correction,
            }
            .to_biguint()
            .expect("a count is non-negative");
        }
        let winning = match &self.modulus {
            Some(m) => (&total + m - &losing % m) % m,
            None => &total - &losing,
        };
        let report = Report {
            source,
            sizes: histogram.total().clone(),
            transform_len: histogram.transform_len(),
            distinct_values: engine.distinct.or(engine.spectrum.as_ref().map(Spectrum::len)),
            stages: engine.stages.0,
        };
        Ok((Counts { losing, winning, total, modulus: self.modulus.clone(), report }, distribution))
    }

    /// The probabilities that the player to move loses and wins, when the heap sizes are drawn
    /// with the histogram's counts as weights (ordered: independently; unordered: a uniform
    /// multiset or set). `with_distribution` adds the probability of every XOR value.
    ///
    /// ```
    /// use nimcount::count::Query;
    /// use nimcount::histogram::Histogram;
    /// // Grundy value 0 with weight 3, value 1 with weight 1: two heaps XOR to 0 with
    /// // probability (3/4)^2 + (1/4)^2 = 5/8.
    /// let h = Histogram::parse("0 3\n1 1\n", "weights")?;
    /// let p = Query::from_histogram(h).heaps(2u32).probability(false)?;
    /// assert!((p.losing - 0.625).abs() < 1e-12);
    /// # Ok::<(), nimcount::Error>(())
    /// ```
    pub fn probability(&self, with_distribution: bool) -> Result<Probability> {
        self.validate()?;
        if self.misere && with_distribution {
            return Err(Error::InvalidQuery("the XOR distribution is for normal play; drop misère".into()));
        }
        let mut stages = Stages::default();
        let (histogram, source) = self.histogram_timed(&mut stages)?;
        let n = histogram.total().clone();
        if n.is_zero() {
            return Err(Error::InvalidQuery("no heap sizes to draw from: the histogram is empty".into()));
        }
        let mut engine = Engine {
            histogram: &histogram,
            k: &self.heaps,
            kind: self.kind,
            method: self.method,
            progress: self.progress,
            spectrum: None,
            distinct: None,
            stages,
        };
        let (mut losing, distribution) = engine.probability(with_distribution)?;
        if self.misere {
            let (lo, hi) = self.range()?;
            let correction = misere_correction(self.kind, &self.heaps, lo, hi);
            if correction != 0 {
                losing += correction as f64 * (-ln_total(self.kind, &n, &self.heaps)?).exp();
            }
        }
        let losing = losing.clamp(0.0, 1.0);
        let report = Report {
            source,
            sizes: n,
            transform_len: histogram.transform_len(),
            distinct_values: engine.distinct.or(engine.spectrum.as_ref().map(Spectrum::len)),
            stages: engine.stages.0,
        };
        Ok(Probability { losing, winning: 1.0 - losing, distribution, report })
    }
}

/// Stage timings.
#[derive(Default)]
struct Stages(Vec<(String, Duration)>);

impl Stages {
    fn time<T>(&mut self, name: &str, f: impl FnOnce() -> T) -> T {
        let start = Instant::now();
        let value = f();
        self.0.push((name.to_string(), start.elapsed()));
        value
    }
}

/// Losing count, total and (when asked) the distribution, modulo the query's modulus or exact.
struct Outcome {
    losing: BigUint,
    total: BigUint,
    distribution: Option<Vec<BigUint>>,
}

/// One prime-power side of a modulus `M = 2^a · M′`.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Part {
    /// The odd part `M′ > 1`: `L = F⁻¹ · S`.
    Odd(BigUint),
    /// The power of two `2^a`, `a >= 1`: `L = (S mod 2^(a+d)) / 2^d`.
    Two(u64),
}

impl Part {
    fn modulus(&self) -> BigUint {
        match self {
            Part::Odd(m) => m.clone(),
            Part::Two(a) => BigUint::one() << *a,
        }
    }
}

/// The state of one query's computation.
struct Engine<'a> {
    histogram: &'a Histogram,
    k: &'a BigUint,
    kind: Kind,
    method: Method,
    progress: &'a dyn Progress,
    spectrum: Option<Spectrum>,
    /// The number of distinct transformed residues, when they were tallied.
    distinct: Option<usize>,
    stages: Stages,
}

impl Engine<'_> {
    fn log2(&self) -> u32 {
        self.histogram.log2_len()
    }

    fn unordered(&self) -> Option<Unordered> {
        match self.kind {
            Kind::Ordered => None,
            Kind::Multiset => Some(Unordered::Multiset),
            Kind::Set => Some(Unordered::Set),
        }
    }

    /// Sets of more distinct sizes than there are: no positions at all.
    fn no_sets(&self) -> bool {
        self.kind == Kind::Set && self.k > self.histogram.total()
    }

    /// The exact spectrum, computed once.
    fn spectrum(&mut self, keep_slots: bool) -> Result<&Spectrum> {
        if self.spectrum.as_ref().is_some_and(|s| s.slot_class.is_some() || !keep_slots) {
            return Ok(self.spectrum.as_ref().expect("just checked"));
        }
        self.progress.start("transform", 0);
        let spectrum =
            self.stages.time("exact transform and classes", || Spectrum::new(self.histogram, keep_slots));
        self.progress.finish();
        Ok(self.spectrum.insert(spectrum?))
    }

    /// With no heap sizes at all, the only position is the empty one (`k = 0`), lost.
    fn no_sizes(&self, with_distribution: bool) -> Option<Outcome> {
        if !self.histogram.total().is_zero() {
            return None;
        }
        let count = BigUint::from(u8::from(self.k.is_zero()));
        let distribution = with_distribution.then(|| {
            let mut d = vec![BigUint::zero(); self.histogram.transform_len()];
            d[0] = count.clone();
            d
        });
        Some(Outcome { losing: count.clone(), total: count, distribution })
    }

    fn modular(&mut self, m: &BigUint, with_distribution: bool) -> Result<Outcome> {
        if let Some(outcome) = self.no_sizes(with_distribution) {
            return Ok(Outcome {
                losing: outcome.losing % m,
                total: outcome.total % m,
                distribution: outcome.distribution.map(|d| d.into_iter().map(|x| x % m).collect()),
            });
        }
        let twos = m.trailing_zeros().unwrap_or(0);
        let odd = m >> twos;
        let mut parts = Vec::new();
        if !odd.is_one() {
            parts.push(Part::Odd(odd));
        }
        if twos > 0 {
            parts.push(Part::Two(twos));
        }
        let mut combined: Option<(Outcome, BigUint)> = None;
        for part in parts {
            let outcome = if self.no_sets() {
                Outcome {
                    losing: BigUint::zero(),
                    total: BigUint::zero(),
                    distribution: with_distribution
                        .then(|| vec![BigUint::zero(); self.histogram.transform_len()]),
                }
            } else {
                self.part(&part, with_distribution)?
            };
            let part_modulus = part.modulus();
            combined = Some(match combined {
                None => (outcome, part_modulus),
                Some((previous, previous_modulus)) => {
                    let join = |a: &BigUint, b: &BigUint| crt(a, &previous_modulus, b, &part_modulus);
                    let distribution = match (&previous.distribution, &outcome.distribution) {
                        (Some(a), Some(b)) => Some(a.iter().zip(b).map(|(x, y)| join(x, y)).collect()),
                        _ => None,
                    };
                    let joined = Outcome {
                        losing: join(&previous.losing, &outcome.losing),
                        total: join(&previous.total, &outcome.total),
                        distribution,
                    };
                    (joined, &previous_modulus * &part_modulus)
                }
            });
        }
        Ok(combined.expect("M > 1 has a part").0)
    }

    /// The counts modulo one part of the modulus.
    fn part(&mut self, part: &Part, with_distribution: bool) -> Result<Outcome> {
        let d = u64::from(self.log2());
        let slots = self.kind == Kind::Ordered && self.method != Method::Classes;
        match part {
            Part::Odd(m) => match m.to_u64() {
                Some(m) if slots && m < 1 << 31 => self.slots(Mod32::new(m as u32)?, part, with_distribution),
                Some(m) if slots && m < 1 << 63 => self.slots(Mod64::new(m)?, part, with_distribution),
                Some(m) if m < 1 << 63 => self.classes(&OddWord::new(m), part, with_distribution),
                _ => self.classes(&Big::new(m.clone()), part, with_distribution),
            },
            Part::Two(a) => {
                let bits = a + d;
                if slots && bits <= 64 {
                    self.slots(Wrap64, part, with_distribution)
                } else if bits <= 128 {
                    self.classes(&TwoWord::new(bits as u32), part, with_distribution)
                } else {
                    self.classes(&Big::new(BigUint::one() << bits), part, with_distribution)
                }
            }
        }
    }

    /// Ordered counts by raising every slot of the transformed residues.
    fn slots<R: SlotRing>(&mut self, ring: R, part: &Part, with_distribution: bool) -> Result<Outcome> {
        let histogram = self.histogram;
        let plan = Plan::new(ring, histogram.transform_len())?;
        let bytes = crate::memory::bytes_for::<R::Elem>(|| "the transform".into(), plan.len() as u128)?;
        crate::memory::ensure_fits(|| format!("the transform of 2^{} slots", plan.log2()), bytes)?;
        let mut data = self.stages.time("residues", || ring.residues(histogram))?;
        self.progress.start("transform", 0);
        self.stages.time("transform", || plan.forward(&mut data))?;
        let k = self.k;
        // Few distinct residues (structured histograms): raise each once. Else every slot.
        // With a vectorised power, raising every slot costs about as much as raising one sixteenth
        // of them one by one: give up beyond that. A scalar power is dearer than a table lookup
        // until nearly every slot is distinct.
        let (limit, sample_share) =
            if R::VECTORISED_POWER { (data.len() / 16 + 64, Some(16)) } else { (data.len() / 2 + 64, None) };
        let tallied = (self.method == Method::Auto && !with_distribution)
            .then(|| self.stages.time("distinct residues", || tally::tally(&data, limit, sample_share)))
            .flatten();
        self.progress.start("power", 0);
        let (sum, total) = match tallied {
            Some(entries) => self.stages.time("power", || -> Result<(BigUint, BigUint)> {
                self.distinct = Some(entries.len());
                let keys: Vec<R::Elem> = entries.iter().map(|&(key, _)| ring.element(key)).collect();
                let counts: Vec<u64> = entries.iter().map(|&(_, count)| count).collect();
                let mut powers = keys.clone();
                ring.pow(&mut powers, k)?;
                let zero_slot = keys.iter().position(|&x| x == data[0]).expect("slot 0 is tallied");
                Ok((ring.weighted_sum(&powers, &counts), ring.to_biguint(powers[zero_slot])))
            })?,
            None => {
                self.stages.time("power", || -> Result<()> {
                    // The vectorised power spreads itself over the threads; the others are
                    // spread here.
                    if R::VECTORISED_POWER || data.len() < PARALLEL_SUM_MIN {
                        ring.pow(&mut data, k)
                    } else {
                        let chunk = data.len() / 16;
                        data.par_chunks_mut(chunk).try_for_each(|c| ring.pow(c, k))
                    }
                })?;
                let total = ring.to_biguint(data[0]);
                (self.stages.time("sum", || ring.sum(&data)), total)
            }
        };
        self.progress.finish();
        let d = self.log2();
        let losing = match part {
            Part::Odd(m) => (sum * inverse_power_of_two(d, m)) % m,
            Part::Two(a) => low_bits(&sum, a + u64::from(d)) >> d,
        };
        let total = total % part.modulus();
        let distribution = if with_distribution {
            Some(self.stages.time("inverse transform", || -> Result<Vec<BigUint>> {
                Ok(match part {
                    Part::Odd(_) => {
                        plan.inverse(&mut data)?;
                        data.iter().map(|&x| ring.to_biguint(x)).collect()
                    }
                    Part::Two(a) => {
                        plan.inverse_unnormalized(&mut data)?;
                        data.iter().map(|&x| low_bits(&ring.to_biguint(x), a + u64::from(d)) >> d).collect()
                    }
                })
            })?)
        } else {
            None
        };
        Ok(Outcome { losing, total, distribution })
    }

    /// Counts through the classes of equal transformed values, modulo `r`'s modulus (the odd
    /// part `M′`, or `2^(a+d)` for the part `2^a`).
    fn classes<R: Residues>(&mut self, r: &R, part: &Part, with_distribution: bool) -> Result<Outcome> {
        let values = self.class_values(r, with_distribution)?;
        let spectrum = self.spectrum.as_ref().expect("computed by class_values");
        let d = self.log2();
        let mut sum = r.zero();
        for (value, &multiplicity) in values.iter().zip(&spectrum.multiplicity) {
            sum = r.add(&sum, &r.mul(value, &r.residue_u128(u128::from(multiplicity))));
        }
        let sum = r.to_biguint(&sum);
        let total = r.to_biguint(&values[spectrum.zero_class]) % part.modulus();
        let (losing, distribution) = match part {
            Part::Odd(m) => {
                let losing = (sum * inverse_power_of_two(d, m)) % m;
                let distribution = with_distribution
                    .then(|| {
                        self.stages.time("inverse transform", || inverse_odd(r, m, &values, spectrum, d))
                    })
                    .transpose()?;
                (losing, distribution)
            }
            Part::Two(a) => {
                let bits = a + u64::from(d);
                let losing = low_bits(&sum, bits) >> d;
                let distribution = with_distribution
                    .then(|| {
                        self.stages.time("inverse transform", || inverse_two(r, bits, &values, spectrum, d))
                    })
                    .transpose()?;
                (losing, distribution)
            }
        };
        Ok(Outcome { losing, total, distribution })
    }

    /// The pointwise value of every class modulo `r`'s modulus.
    fn class_values<R: Residues>(&mut self, r: &R, with_distribution: bool) -> Result<Vec<R::E>> {
        let k = self.k;
        let kind = self.unordered();
        let n = self.histogram.total().clone();
        let spectrum = self.spectrum(with_distribution)?;
        let mut stages = Stages::default();
        let values = match kind {
            None => stages.time("power", || {
                let exponent = r.reduce_exponent(k);
                let weights: Vec<R::E> = spectrum.weights.iter().map(|w| r.residue_big(w)).collect();
                let classes: Vec<usize> = (0..spectrum.len()).collect();
                map_work(&classes, classes.len() >= 64, |&c| {
                    let base = spectrum
                        .class(c)
                        .iter()
                        .zip(&weights)
                        .fold(r.zero(), |acc, (&x, w)| r.add(&acc, &r.mul(w, &r.residue_i64(x))));
                    r.pow(&base, &exponent)
                })
            }),
            Some(unordered) => {
                let distinct = distinct_values(spectrum);
                let k = coefficients::check_work(distinct.len(), k, 1, "the unordered count")?;
                let binomials = Binomials::new(r, k, &(&n + k))?;
                let progress = self.progress;
                let done = std::sync::atomic::AtomicU64::new(0);
                progress.start("coefficients", distinct.len() as u64);
                stages.time("coefficients", || -> Result<Vec<R::E>> {
                    let parallel = distinct.len() as u128 * (u128::from(k) + 1) >= 1 << 16;
                    let per_value: Vec<R::E> = map_work(&distinct.values, parallel, |h| {
                        let (a, b) = halves(&n, h);
                        let c = binomials.coefficient(unordered, &a, &b);
                        progress.set_position(done.fetch_add(1, std::sync::atomic::Ordering::Relaxed) + 1);
                        c
                    });
                    Ok(distinct.class_value.iter().map(|&i| per_value[i].clone()).collect())
                })?
            }
        };
        self.stages.0.extend(stages.0);
        Ok(values)
    }

    /// Exact counts: exact pointwise values, summed, divided by `F`.
    fn exact(&mut self, with_distribution: bool) -> Result<Outcome> {
        let n = self.histogram.total().clone();
        let k = self.k;
        let kind = self.kind;
        let d = self.log2();
        if self.no_sets() {
            let distribution =
                with_distribution.then(|| vec![BigUint::zero(); self.histogram.transform_len()]);
            return Ok(Outcome { losing: BigUint::zero(), total: BigUint::zero(), distribution });
        }
        if let Some(outcome) = self.no_sizes(with_distribution) {
            return Ok(outcome);
        }
        let bits = answer_bits(kind, &n, k);
        if bits > u128::from(EXACT_MAX_BITS) {
            return Err(Error::InvalidQuery(format!(
                "the exact answer would have about {bits} bits (more than 2^{}); give a modulus",
                EXACT_MAX_BITS.trailing_zeros()
            )));
        }
        if with_distribution {
            // Every XOR value's count has up to `bits` bits (twice that while transforming).
            let words = (bits / 64 + 2) * 2 * self.histogram.transform_len() as u128;
            let bytes = crate::memory::bytes_for::<u64>(|| "the exact distribution".into(), words)?;
            crate::memory::ensure_fits(|| "the exact distribution".into(), bytes)?;
        }
        let spectrum = self.spectrum(with_distribution)?;
        let distinct = distinct_values(spectrum);
        let per_value: Vec<BigInt> = match self.unordered() {
            None => {
                let k = k.to_u64();
                self.stages.time("power", || {
                    map_work(&distinct.values, distinct.len() >= 64, |h| exact_power(h, k, self.k))
                })
            }
            Some(unordered) => {
                let words = (bits / 64 + 1) as u64;
                let k = coefficients::check_work(distinct.len(), k, words, "the exact unordered count")?;
                let progress = self.progress;
                let done = std::sync::atomic::AtomicU64::new(0);
                progress.start("coefficients", distinct.len() as u64);
                self.stages.time("coefficients", || {
                    let parallel = distinct.len() as u128 * (u128::from(k) + 1) >= 1 << 12;
                    map_work(&distinct.values, parallel, |h| {
                        let c = coefficients::exact(unordered, &n, h, k);
                        progress.set_position(done.fetch_add(1, std::sync::atomic::Ordering::Relaxed) + 1);
                        c
                    })
                })
            }
        };
        let spectrum = self.spectrum.as_ref().expect("computed");
        let mut sum = BigInt::zero();
        for (&i, &multiplicity) in distinct.class_value.iter().zip(&spectrum.multiplicity) {
            sum += &per_value[i] * multiplicity;
        }
        let (losing, rest) = sum.div_rem(&(BigInt::one() << d));
        debug_assert!(rest.is_zero(), "Σ_j c_j is F times the losing count");
        let total = per_value[distinct.class_value[spectrum.zero_class]].clone();
        let distribution = if with_distribution {
            let slots = spectrum.slot_class.as_ref().expect("kept");
            let mut data: Vec<BigInt> =
                slots.iter().map(|&c| per_value[distinct.class_value[c as usize]].clone()).collect();
            self.stages.time("inverse transform", || {
                transform_with(&mut data, |a, b| (a + b, a - b));
            });
            Some(data.into_iter().map(|x| (x >> d).to_biguint().expect("a count is non-negative")).collect())
        } else {
            None
        };
        let to_count = |x: BigInt| x.to_biguint().expect("a count is non-negative");
        Ok(Outcome { losing: to_count(losing), total: to_count(total), distribution })
    }

    /// Probability of losing (and of every XOR value, when asked).
    fn probability(&mut self, with_distribution: bool) -> Result<(f64, Option<Vec<f64>>)> {
        let n = self.histogram.total().clone();
        let k = self.k;
        let kind = self.unordered();
        if kind == Some(Unordered::Set) && *k > n {
            return Err(Error::InvalidQuery(format!(
                "no set of {k} distinct heap sizes exists among {n} sizes: the probability is undefined"
            )));
        }
        let spectrum = self.spectrum(with_distribution)?;
        let distinct = distinct_values(spectrum);
        let n_float = big_to_f64(&n);
        let per_value: Vec<f64> = match kind {
            None => distinct.values.iter().map(|h| power_ratio(h, &n, k)).collect(),
            Some(unordered) => {
                let k = coefficients::check_work(distinct.len(), k, 1, "the unordered probability")?;
                let parallel = distinct.len() as u128 * (u128::from(k) + 1) >= 1 << 16;
                map_work(&distinct.values, parallel, |h| {
                    coefficients::ratio(unordered, n_float, ratio(h, &n), k)
                })
            }
        };
        let spectrum = self.spectrum.as_ref().expect("computed");
        let scale = (-f64::from(self.log2()) * std::f64::consts::LN_2).exp();
        let losing: f64 = distinct
            .class_value
            .iter()
            .zip(&spectrum.multiplicity)
            .map(|(&i, &multiplicity)| per_value[i] * multiplicity as f64)
            .sum::<f64>()
            * scale;
        let distribution = if with_distribution {
            let slots = spectrum.slot_class.as_ref().expect("kept");
            let mut data: Vec<f64> =
                slots.iter().map(|&c| per_value[distinct.class_value[c as usize]]).collect();
            Plan::new(Float64, data.len())?.inverse(&mut data)?;
            Some(data.into_iter().map(|p| p.clamp(0.0, 1.0)).collect())
        } else {
            None
        };
        Ok((losing, distribution))
    }
}

/// Transform-length zeros for the residues of `histogram`.
fn residue_buffer<T: bytemuck::Pod>(histogram: &Histogram) -> Result<LargeBuffer<T>> {
    LargeBuffer::zeroed(
        || format!("the residues of {} histogram slots", histogram.transform_len()),
        histogram.transform_len(),
    )
}

/// The rings whose every slot can be raised to the k-th power: residues of the histogram, and
/// sums of transformed values.
trait SlotRing: Ring<Elem: Into<u64>> {
    /// Whether [`Ring::pow`] raises many slots at once with SIMD instructions.
    const VECTORISED_POWER: bool;
    /// The histogram's counts in the ring, in a huge-page buffer (see
    /// [`LargeBuffer`](crate::memory::LargeBuffer)): first touches of a fresh multi-megabyte
    /// vector cost more than the arithmetic of a whole query.
    fn residues(&self, histogram: &Histogram) -> Result<LargeBuffer<Self::Elem>>;
    fn sum(&self, data: &[Self::Elem]) -> BigUint;
    /// `Σ values[i] · counts[i]` in the ring, as a residue.
    fn weighted_sum(&self, values: &[Self::Elem], counts: &[u64]) -> BigUint;
    fn to_biguint(&self, x: Self::Elem) -> BigUint;
    /// The element whose `u64` value is `key`.
    fn element(&self, key: u64) -> Self::Elem;
}

impl SlotRing for Mod32 {
    const VECTORISED_POWER: bool = true;
    fn residues(&self, histogram: &Histogram) -> Result<LargeBuffer<u32>> {
        let mut out = residue_buffer(histogram)?;
        histogram.residues_u32_into(self.modulus(), &mut out);
        Ok(out)
    }
    /// At most 2^32 residues below 2^31: the sum stays below 2^63.
    fn sum(&self, data: &[u32]) -> BigUint {
        let sum = sum_slots(data, 0u64, u64::from, |a, b| a + b);
        (sum % u64::from(self.modulus())).into()
    }
    /// Each product is below 2^31 · 2^40 (a count is at most F <= 2^40); at most 2^40 of them
    /// stay below 2^111.
    fn weighted_sum(&self, values: &[u32], counts: &[u64]) -> BigUint {
        let sum: u128 = values.iter().zip(counts).map(|(&v, &c)| u128::from(v) * u128::from(c)).sum();
        (sum % u128::from(self.modulus())).into()
    }
    fn to_biguint(&self, x: u32) -> BigUint {
        x.into()
    }
    fn element(&self, key: u64) -> u32 {
        key as u32
    }
}

impl SlotRing for Mod64 {
    const VECTORISED_POWER: bool = false;
    fn residues(&self, histogram: &Histogram) -> Result<LargeBuffer<u64>> {
        let mut out = residue_buffer(histogram)?;
        histogram.residues_into(self.modulus(), &mut out);
        Ok(out)
    }
    /// At most 2^64 residues below 2^63: the sum stays below 2^127.
    fn sum(&self, data: &[u64]) -> BigUint {
        let sum = sum_slots(data, 0u128, u128::from, |a, b| a + b);
        (sum % u128::from(self.modulus())).into()
    }
    /// Each product is reduced below 2^63 before summing: at most 2^40 of them stay below 2^103.
    fn weighted_sum(&self, values: &[u64], counts: &[u64]) -> BigUint {
        let m = u128::from(self.modulus());
        let sum: u128 = values.iter().zip(counts).map(|(&v, &c)| u128::from(v) * u128::from(c) % m).sum();
        (sum % m).into()
    }
    fn to_biguint(&self, x: u64) -> BigUint {
        x.into()
    }
    fn element(&self, key: u64) -> u64 {
        key
    }
}

impl SlotRing for Wrap64 {
    const VECTORISED_POWER: bool = false;
    fn residues(&self, histogram: &Histogram) -> Result<LargeBuffer<u64>> {
        let mut out = residue_buffer(histogram)?;
        histogram.residues_wrapping_into(&mut out);
        Ok(out)
    }
    /// Modulo 2^64.
    fn sum(&self, data: &[u64]) -> BigUint {
        sum_slots(data, 0u64, |x| x, u64::wrapping_add).into()
    }
    /// Modulo 2^64.
    fn weighted_sum(&self, values: &[u64], counts: &[u64]) -> BigUint {
        values.iter().zip(counts).fold(0u64, |acc, (&v, &c)| acc.wrapping_add(v.wrapping_mul(c))).into()
    }
    fn to_biguint(&self, x: u64) -> BigUint {
        x.into()
    }
    fn element(&self, key: u64) -> u64 {
        key
    }
}

/// Buffers shorter than this are summed on the calling thread.
const PARALLEL_SUM_MIN: usize = 1 << 16;

/// `add` over `widen` of every element, on the thread pool from [`PARALLEL_SUM_MIN`] elements
/// up (`add` must be associative and commutative, `zero` its identity).
fn sum_slots<T: Copy + Sync, A: Copy + Send + Sync>(
    data: &[T],
    zero: A,
    widen: impl Fn(T) -> A + Sync + Send,
    add: impl Fn(A, A) -> A + Sync + Send,
) -> A {
    if data.len() >= PARALLEL_SUM_MIN {
        data.par_iter().map(|&x| widen(x)).reduce(|| zero, &add)
    } else {
        data.iter().fold(zero, |a, &x| add(a, widen(x)))
    }
}

/// `f` over every item, on the thread pool when `parallel` (the work is worth the threads).
fn map_work<T: Sync, U: Send>(items: &[T], parallel: bool, f: impl Fn(&T) -> U + Sync + Send) -> Vec<U> {
    if parallel { items.par_iter().map(f).collect() } else { items.iter().map(f).collect() }
}

/// The distinct exact values `Ĥ` of the classes.
struct Distinct {
    values: Vec<BigInt>,
    /// For each class, the index of its value.
    class_value: Vec<usize>,
}

impl Distinct {
    fn len(&self) -> usize {
        self.values.len()
    }
}

fn distinct_values(spectrum: &Spectrum) -> Distinct {
    let mut index = std::collections::HashMap::new();
    let mut values = Vec::new();
    let class_value = (0..spectrum.len())
        .map(|c| {
            let v = spectrum.value(c);
            *index.entry(v.clone()).or_insert_with(|| {
                values.push(v);
                values.len() - 1
            })
        })
        .collect();
    Distinct { values, class_value }
}

/// `A = (N + Ĥ)/2` and `B = (N − Ĥ)/2` (exact: `Ĥ ≡ N mod 2` and `|Ĥ| <= N`).
fn halves(n: &BigUint, h: &BigInt) -> (BigUint, BigUint) {
    let n = BigInt::from(n.clone());
    let a = ((&n + h) >> 1u32).to_biguint().expect("|Ĥ| <= N");
    let b = ((&n - h) >> 1u32).to_biguint().expect("|Ĥ| <= N");
    (a, b)
}

/// `Ĥ^k` exactly; `k` is `None` when it does not fit a word (then `|Ĥ| <= 1`, or the answer
/// size check would have refused).
fn exact_power(h: &BigInt, k: Option<u64>, k_big: &BigUint) -> BigInt {
    if k_big.is_zero() {
        return BigInt::one();
    }
    if h.is_zero() || h.is_one() {
        return h.clone();
    }
    if *h == -BigInt::one() {
        return if k_big.bit(0) { h.clone() } else { BigInt::one() };
    }
    num_traits::pow::Pow::pow(h, k.expect("the exact-size check bounds k"))
}

/// An upper bound on the number of bits of the total count.
fn answer_bits(kind: Kind, n: &BigUint, k: &BigUint) -> u128 {
    let k = k.to_u128().unwrap_or(u128::MAX);
    let n_bits = u128::from(n.bits());
    match kind {
        _ if n.is_zero() || k == 0 => 1,
        Kind::Ordered if n.is_one() => 1,
        Kind::Ordered => k.saturating_mul(n_bits),
        // C(N+k−1, k) = C(N+k−1, N−1) <= (N+k)^min(k, N−1).
        Kind::Multiset => {
            let top = (n + BigUint::from(k)).bits() as u128;
            k.min(n.to_u128().unwrap_or(u128::MAX) - 1).saturating_mul(top).max(1)
        }
        Kind::Set => k.min(n.to_u128().unwrap_or(u128::MAX).saturating_sub(k)).saturating_mul(n_bits).max(1),
    }
}

/// The low `bits` bits of `x`.
fn low_bits(x: &BigUint, bits: u64) -> BigUint {
    x % (BigUint::one() << bits)
}

/// `2^-d mod m` for odd `m`: `((m + 1)/2)^d`.
fn inverse_power_of_two(d: u32, m: &BigUint) -> BigUint {
    let half = (m + 1u32) >> 1u32;
    half.modpow(&BigUint::from(d), m)
}

/// The normalised inverse transform of the per-slot values modulo an odd `m`.
fn inverse_odd<R: Residues>(
    r: &R,
    m: &BigUint,
    values: &[R::E],
    spectrum: &Spectrum,
    d: u32,
) -> Result<Vec<BigUint>> {
    let slots = spectrum.slot_class.as_ref().expect("kept for the distribution");
    if let Some(m) = m.to_u64().filter(|&m| m < 1 << 63) {
        let plain: Vec<u64> = values.iter().map(|v| r.to_biguint(v).to_u64().expect("below m")).collect();
        let mut data: Vec<u64> = slots.iter().map(|&c| plain[c as usize]).collect();
        Plan::new(Mod64::new(m)?, data.len())?.inverse(&mut data)?;
        return Ok(data.into_iter().map(BigUint::from).collect());
    }
    reserve_big(slots.len(), m.bits())?;
    let plain: Vec<BigUint> = values.iter().map(|v| r.to_biguint(v)).collect();
    let mut data: Vec<BigUint> = slots.iter().map(|&c| plain[c as usize].clone()).collect();
    transform_with(&mut data, |a, b| ((a + b) % m, (a + m - b) % m));
    let scale = inverse_power_of_two(d, m);
    Ok(data.into_iter().map(|x| (x * &scale) % m).collect())
}

/// The unnormalised inverse transform of the per-slot values modulo `2^bits`, divided by `2^d`.
fn inverse_two<R: Residues>(
    r: &R,
    bits: u64,
    values: &[R::E],
    spectrum: &Spectrum,
    d: u32,
) -> Result<Vec<BigUint>> {
    let slots = spectrum.slot_class.as_ref().expect("kept for the distribution");
    if bits <= 64 {
        let plain: Vec<u64> = values.iter().map(|v| r.to_biguint(v).to_u64().expect("below 2^64")).collect();
        let mut data: Vec<u64> = slots.iter().map(|&c| plain[c as usize]).collect();
        Plan::new(Wrap64, data.len())?.inverse_unnormalized(&mut data)?;
        return Ok(data.into_iter().map(|x| low_bits(&x.into(), bits) >> d).collect());
    }
    reserve_big(slots.len(), bits)?;
    let m = BigUint::one() << bits;
    let plain: Vec<BigUint> = values.iter().map(|v| r.to_biguint(v)).collect();
    let mut data: Vec<BigUint> = slots.iter().map(|&c| plain[c as usize].clone()).collect();
    transform_with(&mut data, |a, b| ((a + b) % &m, (a + &m - b) % &m));
    Ok(data.into_iter().map(|x| x >> d).collect())
}

/// Refuses `len` big residues of `bits` bits (with room for a sum while transforming) when they
/// cannot fit.
fn reserve_big(len: usize, bits: u64) -> Result<()> {
    let words = (u128::from(bits) / 64 + 4) * 2 * len as u128;
    let bytes = crate::memory::bytes_for::<u64>(|| "the distribution".into(), words)?;
    crate::memory::ensure_fits(|| format!("the distribution of {len} big residues"), bytes)
}

/// The Walsh–Hadamard transform over any values with a butterfly `(u, v) → (u + v, u − v)`
/// (the textbook loop; for big integers, where the machine-word kernels do not apply).
fn transform_with<T>(data: &mut [T], butterfly: impl Fn(&T, &T) -> (T, T)) {
    let n = data.len();
    let mut h = 1;
    while h < n {
        for block in data.chunks_exact_mut(2 * h) {
            let (lo, hi) = block.split_at_mut(h);
            for (a, b) in lo.iter_mut().zip(hi.iter_mut()) {
                let (s, t) = butterfly(a, b);
                (*a, *b) = (s, t);
            }
        }
        h *= 2;
    }
}

/// `a / b` as a float, for big integers of any size.
fn big_ratio(a: &BigUint, b: &BigUint) -> f64 {
    let shift = a.bits().max(b.bits()).saturating_sub(1000);
    big_to_f64(&(a >> shift)) / big_to_f64(&(b >> shift))
}

fn big_to_f64(x: &BigUint) -> f64 {
    x.to_f64().unwrap_or(f64::INFINITY)
}

/// `Ĥ / N` as a float.
fn ratio(h: &BigInt, n: &BigUint) -> f64 {
    let r = big_ratio(h.magnitude(), n);
    if h.sign() == Sign::Minus { -r } else { r }
}

/// `(Ĥ / N)^k` in floating point; `|Ĥ| <= N`, `N >= 1`. The logarithm of `|Ĥ|/N = 1 − δ` is
/// taken as `ln(1 − δ)` from the exact `δ = (N − |Ĥ|)/N`, so that `k` near `1/δ` loses no
/// precision.
fn power_ratio(h: &BigInt, n: &BigUint, k: &BigUint) -> f64 {
    if k.is_zero() {
        return 1.0;
    }
    if h.is_zero() {
        return 0.0;
    }
    let sign = if h.is_negative() && k.bit(0) { -1.0 } else { 1.0 };
    let gap = n - h.magnitude();
    if gap.is_zero() {
        return sign;
    }
    let log = (-big_ratio(&gap, n)).ln_1p();
    sign * (big_to_f64(k) * log).exp()
}

/// `ln` of the number of positions: `k ln N`, `ln C(N+k−1, k)` or `ln C(N, k)`.
fn ln_total(kind: Kind, n: &BigUint, k: &BigUint) -> Result<f64> {
    let n_float = big_to_f64(n);
    if kind == Kind::Ordered {
        return Ok(big_to_f64(k) * n_float.ln());
    }
    let k = coefficients::check_work(1, k, 1, "the number of unordered positions")?;
    let mut sum = 0.0;
    for i in 1..=k {
        let i = i as f64;
        sum += match kind {
            Kind::Multiset => ((n_float + i - 1.0) / i).ln(),
            _ => ((n_float - i + 1.0) / i).ln(),
        };
    }
    Ok(sum)
}

/// Misère Nim minus normal-play Nim, in losing positions: only positions whose heaps all have
/// at most one stone change (lost in misère play exactly when the number of 1-heaps is odd, in
/// normal play when it is even), so the correction is (odd − even) over those positions, with
/// `z` = [0 is a size], `o` = [1 is a size]:
///
/// - ordered: `−(z − o)^k` (`0^0 = 1`);
/// - multisets (`i` ones, `0 <= i <= k`, when both sizes exist): `−1` for even `k`, else `0`;
///   only 0: `−1`; only 1: `(−1)^(k+1)`; neither: `−[k = 0]`;
/// - sets: the subsets of the available sizes with `k` elements.
fn misere_correction(kind: Kind, k: &BigUint, lo: &BigUint, hi: &BigUint) -> i64 {
    let z = lo.is_zero();
    let o = *lo <= BigUint::one() && *hi >= BigUint::one();
    let k_odd = k.bit(0);
    let k_zero = k.is_zero();
    match kind {
        Kind::Ordered => {
            let base = i64::from(z) - i64::from(o);
            // base^k with 0^0 = 1; base is −1, 0 or 1.
            let power = if k_zero || (base == -1 && !k_odd) { 1 } else { base };
            -power
        }
        Kind::Multiset => match (z, o) {
            (true, true) => {
                if k_odd {
                    0
                } else {
                    -1
                }
            }
            (true, false) => -1,
            (false, true) => {
                if k_odd {
                    1
                } else {
                    -1
                }
            }
            (false, false) => -i64::from(k_zero),
        },
        Kind::Set => {
            // Subsets of {0 if z, 1 if o} with k elements; odd count of ones (i.e. 1 present) wins
            // misère.
            let k = k.to_u64().unwrap_or(u64::MAX);
            let mut correction = 0;
            for zero_in in [false, true] {
                for one_in in [false, true] {
                    if (zero_in && !z) || (one_in && !o) || u64::from(zero_in) + u64::from(one_in) != k {
                        continue;
                    }
                    correction += if one_in { 1 } else { -1 };
                }
            }
            correction
        }
    }
}
