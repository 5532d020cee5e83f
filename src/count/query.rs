//! The query builder and its three answers: counts, the distribution, probabilities.

use std::borrow::Cow;
use std::fmt;

use num_bigint::BigUint;
use num_traits::{One, ToPrimitive, Zero};

use super::answer::Options;
use super::answer::{Counts, Distribution, Kind, Method, Probability, Report, Source, SpectrumPath};
use super::engine::{self, Engine, Outcome, Stages, Sum};
use super::misere;
use super::modulus::{self, winning};
use crate::error::{Error, Result};
use crate::game::Game;
use crate::histogram::Histogram;
use crate::progress::{Progress, Silent};
use crate::simd::Backend;

/// The histogram a query counts over.
#[derive(Debug, Clone)]
enum Input {
    Game(Game),
    Histogram(Histogram),
    /// Moore's Nim-K, with `K`.
    Moore(u64),
    /// A sum of different games, one histogram per component.
    Sum(Vec<Component>),
}

/// One component of a sum of games ([`Query::sum`]): `heaps` heaps of `game`, each of a size
/// in `lo..=hi`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Component {
    /// The game of these heaps.
    pub game: Game,
    /// The smallest heap size.
    pub lo: BigUint,
    /// The largest heap size.
    pub hi: BigUint,
    /// The number of heaps.
    pub heaps: BigUint,
}

impl Component {
    /// `heaps` heaps of `game`, each of a size in `lo..=hi`.
    pub fn new(
        game: Game,
        lo: impl Into<BigUint>,
        hi: impl Into<BigUint>,
        heaps: impl Into<BigUint>,
    ) -> Self {
        Component { game, lo: lo.into(), hi: hi.into(), heaps: heaps.into() }
    }
}

/// A counting query, built step by step.
///
/// The number of heaps must be given ([`heaps`](Query::heaps)). Defaults: exact counts, ordered heaps, normal play, the widest SIMD backend of this
/// CPU, rayon's thread pool allowed. [`parallel(false)`](Query::parallel) keeps every step on
/// the calling thread; for a number of threads, run the query inside `ThreadPool::install`.
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
///
/// // Two threads, or none at all: the same answer.
/// use nimcount::game::Game;
/// let nim = || Query::new(Game::Nim).sizes(1u32, 10u32.pow(6)).heaps(3u32).modulus(1_000_000_007u32);
/// let pool = rayon::ThreadPoolBuilder::new().num_threads(2).build().unwrap();
/// let two = pool.install(|| nim().count())?;
/// assert_eq!(two.losing, nim().parallel(false).count()?.losing);
/// # Ok::<(), nimcount::Error>(())
/// ```
pub struct Query<'p> {
    input: Input,
    sizes: Option<(BigUint, BigUint)>,
    heaps: Option<BigUint>,
    /// The largest number of heaps of a range ([`heaps_range`](Query::heaps_range)).
    heaps_to: Option<BigUint>,
    modulus: Option<BigUint>,
    kind: Kind,
    misere: bool,
    staircase: bool,
    max_heap: Option<u64>,
    misere_budget: crate::misere::Budget,
    options: Options,
    progress: &'p dyn Progress,
}

impl fmt::Debug for Query<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Query")
            .field("input", &self.input)
            .field("sizes", &self.sizes)
            .field("heaps", &self.heaps)
            .field("heaps_to", &self.heaps_to)
            .field("modulus", &self.modulus)
            .field("kind", &self.kind)
            .field("misere", &self.misere)
            .field("staircase", &self.staircase)
            .field("max_heap", &self.max_heap)
            .field("misere_budget", &self.misere_budget)
            .field("options", &self.options)
            .finish()
    }
}

impl Query<'static> {
    /// A query over the heap sizes of a game (give them with [`sizes`](Query::sizes)).
    ///
    /// The game's Grundy values come from a proven period, or are computed directly when that
    /// is affordable ([`crate::grundy::range_values`]); a game with no proven period over a
    /// range too costly to compute is an [`Error::TooCostly`]. A game of your own enters as
    /// [`Game::custom`](crate::game::Game::custom).
    ///
    /// ```
    /// use nimcount::count::Query;
    /// use nimcount::game::Game;
    ///
    /// // Three Nim heaps of 1..=1000 stones.
    /// let counts = Query::new(Game::Nim).sizes(1u32, 1_000u32).heaps(3u32).count()?;
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
    /// # Ok::<(), nimcount::Error>(())
    /// ```
    pub fn new(game: Game) -> Self {
        Query::with_input(Input::Game(game))
    }

    /// Moore's Nim-`K` over the heap sizes given with [`sizes`](Query::sizes): a move takes
    /// stones from up to `K >= 1` heaps ([`crate::play::Moore`]). Ordered heaps in normal play,
    /// counted digit by digit over the binary columns of the sizes (no Grundy values), exactly
    /// or modulo any number; refused before any work beyond [`MOORE_MAX_WORK`](super::MOORE_MAX_WORK)
    /// word operations.
    ///
    /// ```
    /// use nimcount::count::{Query, Source};
    ///
    /// // Moore's Nim-2, three heaps of 0..=3: lost when each column holds 0 or 3 ones,
    /// // that is the three heaps are equal.
    /// let counts = Query::moore(2).sizes(0u32, 3u32).heaps(3u32).count()?;
    /// assert_eq!((counts.losing, counts.total), (4u32.into(), 64u32.into()));
    /// assert_eq!(counts.report.source, Source::Columns { columns: 2 });
    /// // Only ordered positions in normal play are counted.
    /// assert!(Query::moore(2).sizes(0u32, 3u32).heaps(3u32).misere(true).count().is_err());
    /// # Ok::<(), nimcount::Error>(())
    /// ```
    pub fn moore(k: u64) -> Self {
        Query::with_input(Input::Moore(k))
    }

    /// A sum of different games: positions made of the heaps of every component (ordered within
    /// each component, or multisets or sets within each with [`kind`](Query::kind)), lost when
    /// the XOR of all the heaps' Grundy values is 0. The transforms of the components' histograms
    /// multiply slot by slot. Counts (exact or modulo anything), the distribution and
    /// probabilities, as for one game; normal play only. The heaps are given per component,
    /// not with [`heaps`](Query::heaps), and no [`sizes`](Query::sizes) apply.
    ///
    /// ```
    /// use nimcount::count::{Component, Query};
    /// use nimcount::game::Game;
    ///
    /// // One Nim heap of 0..=3 and one heap of subtract:1,2 (values n mod 3) of 0..=5: lost
    /// // when the Nim heap equals the other heap's value (0, 1 or 2, twice each): 6 of 24.
    /// let parts = [
    ///     Component::new(Game::Nim, 0u32, 3u32, 1u32),
    ///     Component::new(Game::parse("subtract:1,2")?, 0u32, 5u32, 1u32),
    /// ];
    /// let counts = Query::sum(parts).count()?;
    /// assert_eq!((counts.losing, counts.total), (6u32.into(), 24u32.into()));
    /// # Ok::<(), nimcount::Error>(())
    /// ```
    pub fn sum(components: impl IntoIterator<Item = Component>) -> Self {
        Query::with_input(Input::Sum(components.into_iter().collect()))
    }

    /// A query over a histogram of Grundy values.
    pub fn from_histogram(histogram: Histogram) -> Self {
        Query::with_input(Input::Histogram(histogram))
    }

    fn with_input(input: Input) -> Self {
        Query {
            input,
            sizes: None,
            heaps: None,
            heaps_to: None,
            modulus: None,
            kind: Kind::Ordered,
            misere: false,
            staircase: false,
            max_heap: None,
            misere_budget: crate::misere::Budget::default(),
            options: Options {
                method: Method::Auto,
                backend: Backend::best(),
                parallel: true,
                spectrum: SpectrumPath::Auto,
                work_limit: super::MAX_STEPS,
            },
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

    /// The number of heaps `k` (any size; `k = 0` counts the empty position, which is lost);
    /// the number of steps of a [`staircase`](Query::staircase). Required: a query without it
    /// is refused with [`Error::MissingHeaps`].
    pub fn heaps(mut self, k: impl Into<BigUint>) -> Self {
        self.heaps = Some(k.into());
        self.heaps_to = None;
        self
    }

    /// Every number of heaps from `lo` to `hi` (both any size): the counts are the sums of the
    /// counts of `lo`, `lo + 1`, …, `hi` heaps, computed at once through the same transform (per
    /// transformed value a geometric series for ordered heaps, a cumulative coefficient for
    /// multisets and sets; see [`Query`]'s module). Counts and the distribution, exact or modulo
    /// anything; `lo > hi` is refused ([`Error::EmptyHeapsRange`]), and so are the queries whose
    /// counts are not sums over the transform: misère play, staircases, Moore's Nim-K,
    /// probabilities and sums of games.
    ///
    /// ```
    /// use nimcount::count::Query;
    /// use nimcount::game::Game;
    ///
    /// // Nim heaps of 1..=3 stones: 1 heap is never lost, 2 heaps are lost when equal (3 of 9),
    /// // 3 heaps when a permutation of 1, 2, 3 (6 of 27).
    /// let counts = Query::new(Game::Nim).sizes(1u32, 3u32).heaps_range(1u32, 3u32).count()?;
    /// assert_eq!((counts.losing, counts.total), (9u32.into(), 39u32.into()));
    /// // Up to 10^18 heaps, modulo a prime, in one pass.
    /// let huge = Query::new(Game::Nim).sizes(1u32, 3u32).heaps_range(1u32, 10u64.pow(18));
    /// assert!(huge.modulus(998_244_353u32).count().is_ok());
    /// # Ok::<(), nimcount::Error>(())
    /// ```
    pub fn heaps_range(mut self, lo: impl Into<BigUint>, hi: impl Into<BigUint>) -> Self {
        self.heaps = Some(lo.into());
        self.heaps_to = Some(hi.into());
        self
    }

    /// The refusal of a range of heap counts by a query that is not a sum over the transform.
    fn single_heaps(&self, query: &str, reason: &'static str) -> Result<()> {
        match self.heaps_to {
            Some(_) => {
                Err(Error::NotForQuery { query: format!("{query} over a range of heap counts"), reason })
            }
            None => Ok(()),
        }
    }

    /// Staircases of the game ([`crate::play::Staircase`]): coins on `k` steps (given with
    /// [`heaps`](Query::heaps)), each step holding a number of coins in the range of
    /// [`sizes`](Query::sizes), coins moving one step down as the game lets them leave a heap.
    /// Only the odd steps matter, so the losing count is `N^⌊k/2⌋` times the ordered count of
    /// `⌈k/2⌉` heaps. Ordered, normal play, games that take stones (not octal games).
    ///
    /// ```
    /// use nimcount::count::Query;
    /// use nimcount::game::Game;
    ///
    /// // Three steps of 0..=3 coins: steps 1 and 3 must be equal (4 ways), step 2 is free (4 ways).
    /// let counts = Query::new(Game::Nim).sizes(0u32, 3u32).heaps(3u32).staircase(true).count()?;
    /// assert_eq!((counts.losing, counts.total), (16u32.into(), 64u32.into()));
    /// # Ok::<(), nimcount::Error>(())
    /// ```
    pub fn staircase(mut self, staircase: bool) -> Self {
        self.staircase = staircase;
        self
    }

    /// Counts modulo `m >= 1` (`m = 0` is refused when the query runs).
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

    /// Misère play: the player who takes the last stone loses. Counted for [`Game::Nim`] (misère
    /// Nim's rule), and for every other game by a misère quotient ([`crate::misere`]; ordered
    /// tuples, multisets and sets, multisets and sets within [`max_work`](Query::max_work)):
    /// the game's quotient of every heap size when it is found (octal and finite subtraction
    /// games), else the quotient of its heaps `0..=hi` for the largest size `hi`
    /// ([`crate::misere::Search::heaps`], within the budget's `max_heap`), else
    /// [`Error::QuotientNotFound`]. A histogram, or a sum of different games, is refused,
    /// since misère outcomes do not follow from Grundy values.
    /// [`crate::play::MiserePosition`] judges single positions of any game.
    pub fn misere(mut self, misere: bool) -> Self {
        self.misere = misere;
        self
    }

    /// The limits of the search for the misère quotient of a [`misere`](Query::misere) query
    /// (by default [`Budget::default`](crate::misere::Budget::default)); a quotient not found
    /// within them is an [`Error::QuotientNotFound`] naming the limit reached.
    pub fn misere_budget(mut self, budget: crate::misere::Budget) -> Self {
        self.misere_budget = budget;
        self
    }

    /// The most Grundy values that may be computed, `G(0)` … `G(max_heap − 1)`, in the period
    /// search and directly. By default the search is bounded by an estimate of its time and
    /// direct values by [`crate::grundy::range_values`]'s rule.
    pub fn max_heap(mut self, max_heap: u64) -> Self {
        self.max_heap = Some(max_heap);
        self
    }

    /// How pointwise values are evaluated (the answer does not depend on it).
    pub fn method(mut self, method: Method) -> Self {
        self.options.method = method;
        self
    }

    /// Which spectrum is evaluated (the answer does not depend on it): by default the structured
    /// one whenever the histogram is structured and that is cheaper than the array.
    pub fn spectrum(mut self, path: SpectrumPath) -> Self {
        self.options.spectrum = path;
        self
    }

    /// The SIMD backend of the transforms and powers; an error when this CPU lacks it.
    pub fn backend(mut self, backend: Backend) -> Result<Self> {
        self.options.backend = backend.available()?;
        Ok(self)
    }

    /// Whether rayon's thread pool may be used (`true` by default); with `false` no step of the
    /// query touches rayon.
    pub fn parallel(mut self, parallel: bool) -> Self {
        self.options.parallel = parallel;
        self
    }

    /// The most work a computation of this query may take, in steps of about 25 ns (by default
    /// [`MAX_STEPS`](super::MAX_STEPS), about ten seconds). A query estimated above it is refused
    /// with [`Error::TooMuchWork`] before the expensive stage starts: powers modulo numbers of
    /// thousands of digits, exact answers of millions of digits, long coefficient recurrences.
    ///
    /// ```
    /// use nimcount::count::Query;
    /// use nimcount::game::Game;
    /// use nimcount::number::parse;
    /// let query = Query::new(Game::Nim).sizes(1u32, 1000u32).heaps(10u32.pow(9)).modulus(parse("10^300000")?);
    /// assert!(matches!(query.count(), Err(nimcount::Error::TooMuchWork { .. })));
    /// # Ok::<(), nimcount::Error>(())
    /// ```
    pub fn max_work(mut self, steps: u128) -> Self {
        self.options.work_limit = steps;
        self
    }

    /// Reports progress of the long stages to `progress`.
    pub fn progress<'q>(self, progress: &'q dyn Progress) -> Query<'q> {
        Query {
            input: self.input,
            sizes: self.sizes,
            heaps: self.heaps,
            heaps_to: self.heaps_to,
            modulus: self.modulus,
            kind: self.kind,
            misere: self.misere,
            staircase: self.staircase,
            max_heap: self.max_heap,
            misere_budget: self.misere_budget,
            options: self.options,
            progress,
        }
    }

    /// The histogram the query counts over, and where it came from: structured (see
    /// [`Histogram::is_structured`]) for nim, one-interval subtraction games and games whose
    /// values grow by a power-of-two saltus.
    pub fn histogram(&self) -> Result<(Cow<'_, Histogram>, Source)> {
        self.validate()?;
        if let Input::Sum(_) = self.input {
            return Err(Error::NotForQuery {
                query: "a sum of games".into(),
                reason: "each component has a histogram of its own",
            });
        }
        self.counts_only()?;
        self.histogram_timed(&mut Stages::default())
    }

    /// Losing, winning and total counts.
    pub fn count(&self) -> Result<Counts> {
        self.validate()?;
        if let Input::Sum(components) = &self.input
            && self.misere
        {
            let (losing, total, report) = self.quotient_sum_counts(components)?;
            let winning = winning(&total, &losing, self.modulus.as_ref());
            return Ok(Counts { losing, winning, total, modulus: self.modulus.clone(), report });
        }
        if let Input::Sum(components) = &self.input {
            let (outcome, report) = self.sum_run(components, false)?;
            let winning = winning(&outcome.total, &outcome.losing, self.modulus.as_ref());
            let (losing, total, modulus) = (outcome.losing, outcome.total, self.modulus.clone());
            return Ok(Counts { losing, winning, total, modulus, report });
        }
        let heaps = self.heaps_asked()?;
        let (losing, total, report) = match &self.input {
            Input::Moore(moore) => self.moore_counts(*moore, heaps)?,
            Input::Game(game) if self.misere && *game != Game::Nim => self.quotient_counts(game, heaps)?,
            _ if self.staircase => self.staircase_counts(heaps)?,
            _ => self.counts(heaps)?,
        };
        let winning = winning(&total, &losing, self.modulus.as_ref());
        Ok(Counts { losing, winning, total, modulus: self.modulus.clone(), report })
    }

    /// The losing count and the total of `heaps` heaps (normal or misère play), answered before
    /// any Grundy value when the query is trivial.
    fn counts(&self, heaps: &BigUint) -> Result<(BigUint, BigUint, Report)> {
        if let Some(trivial) = self.trivial(heaps).filter(|_| self.heaps_to.is_none()) {
            return Ok(trivial);
        }
        let (outcome, report) = self.run(heaps, false)?;
        Ok((outcome.losing, outcome.total, report))
    }

    /// The answer of a query over a game that needs no Grundy value: no heaps (the empty
    /// position, lost in normal play and won in misère play), or one size and an even number of
    /// heaps (every position has XOR 0; normal play, ordered or multisets), or sets of more
    /// sizes than there are. A query that asks for a spectrum path takes that path.
    fn trivial(&self, heaps: &BigUint) -> Option<(BigUint, BigUint, Report)> {
        let Input::Game(_) = self.input else { return None };
        if self.options.spectrum != SpectrumPath::Auto {
            return None;
        }
        let (lo, hi) = self.range().ok()?;
        let sizes = hi - lo + 1u32;
        let (losing, total) = if heaps.is_zero() {
            (u8::from(!self.misere), 1u8)
        } else if self.kind == Kind::Set && *heaps > sizes {
            (0, 0)
        } else if sizes.is_one() && !heaps.bit(0) && !self.misere {
            (1, 1)
        } else {
            return None;
        };
        let reduce = |x: u8| match &self.modulus {
            Some(m) => BigUint::from(x) % m,
            None => BigUint::from(x),
        };
        let report = Report {
            source: Source::Trivial,
            sizes,
            log2_len: 0,
            spectrum: SpectrumPath::Auto,
            distinct_values: None,
            stages: Vec::new(),
        };
        Some((reduce(losing), reduce(total), report))
    }

    /// Misère play of a game other than Nim: ordered tuples counted in the monoid algebra of
    /// the game's misère quotient ([`crate::misere`]; `count::quotient` says how).
    fn quotient_counts(&self, game: &Game, heaps: &BigUint) -> Result<(BigUint, BigUint, Report)> {
        let (lo, hi) = self.range()?;
        if self.kind != Kind::Ordered {
            let part = Component { game: game.clone(), lo: lo.clone(), hi: hi.clone(), heaps: heaps.clone() };
            return self.quotient_unordered_counts(std::slice::from_ref(&part));
        }
        let sizes = hi - lo + 1u32;
        // A range of heap counts `heaps..=top` is summed by its geometric series.
        let top = self.heaps_to.as_ref().unwrap_or(heaps);
        if self.modulus.is_none() {
            exact_answer_fits(top.to_u64().and_then(|k| k.checked_mul(sizes.bits())))?;
        }
        let start = std::time::Instant::now();
        let q = self.misere_quotient(game, hi)?;
        let found = start.elapsed();
        let (losing, total) = super::quotient::ordered_range(&q, lo, hi, heaps, top, self.modulus.as_ref());
        let report = Report {
            source: quotient_source(&q),
            sizes,
            log2_len: 0,
            spectrum: SpectrumPath::Auto,
            distinct_values: None,
            stages: vec![("quotient".into(), found), ("power".into(), start.elapsed() - found)],
        };
        Ok((losing, total, report))
    }

    /// The misère quotient that counts positions of `game` whose sizes are at most `hi`: the
    /// game's quotient of every heap size when one is found within the budget, else the
    /// quotient of its heaps `0..=hi` (refused when `hi` passes the budget's `max_heap`, or its
    /// construction a limit: the error names the limit).
    fn misere_quotient(&self, game: &Game, hi: &BigUint) -> Result<std::sync::Arc<crate::misere::Quotient>> {
        let budget = &self.misere_budget;
        let search = crate::misere::Search::new(game).budget(*budget).progress(self.progress).cached();
        let every = crate::misere::MisereTheorem::for_game(game).map(|_| search.run());
        let not_found = match every {
            Some(Ok(q)) => return Ok(q),
            Some(Err(e @ Error::QuotientNotFound { .. })) => Some(e),
            Some(Err(other)) => return Err(other),
            None => None,
        };
        match (hi.to_u64(), not_found) {
            (Some(n), _) if n <= budget.max_heap => search.heaps(n).run(),
            (_, Some(e)) => Err(e),
            (_, None) => Err(Error::QuotientNotFound {
                game: game.spec(),
                reason: format!(
                    "the quotient of the heaps 0..={hi} is above the limit of heap {}",
                    budget.max_heap
                ),
                limit: Some("max_heap"),
            }),
        }
    }

    /// Misère play of a sum of parts of one game: the product of each part's power in the
    /// monoid algebra of the game's quotient, summed over its P-portion.
    fn quotient_sum_counts(&self, components: &[Component]) -> Result<(BigUint, BigUint, Report)> {
        if self.kind != Kind::Ordered {
            return self.quotient_unordered_counts(components);
        }
        let game = &components[0].game;
        if self.modulus.is_none() {
            exact_answer_fits(components.iter().try_fold(0u64, |bits, c| {
                c.heaps.to_u64().and_then(|k| k.checked_mul((&c.hi - &c.lo + 1u32).bits())).map(|b| bits + b)
            }))?;
        }
        let start = std::time::Instant::now();
        let q = self.misere_quotient(game, largest_size(components))?;
        let found = start.elapsed();
        let parts: Vec<(&BigUint, &BigUint, &BigUint)> =
            components.iter().map(|c| (&c.lo, &c.hi, &c.heaps)).collect();
        let (losing, total) = super::quotient::ordered_parts(&q, &parts, self.modulus.as_ref());
        let sizes = components.iter().map(|c| &c.hi - &c.lo + 1u32).sum();
        let report = Report {
            source: quotient_source(&q),
            sizes,
            log2_len: 0,
            spectrum: SpectrumPath::Auto,
            distinct_values: None,
            stages: vec![("quotient".into(), found), ("power".into(), start.elapsed() - found)],
        };
        Ok((losing, total, report))
    }

    /// Misère play of multisets or sets of heap sizes (within each part) of one game: the
    /// coefficient of `t^k` of `Π_a (1 − t·e_a)^(−h_a)` (multisets) or `Π_a (1 + t·e_a)^(h_a)`
    /// (sets) in the monoid algebra of the game's quotient, per part, multiplied and summed over
    /// its P-portion (`count::quotient` says how). Its work is estimated first, against
    /// [`max_work`](Query::max_work), and so is its memory.
    fn quotient_unordered_counts(&self, components: &[Component]) -> Result<(BigUint, BigUint, Report)> {
        use super::coefficients::Unordered as Which;
        let game = &components[0].game;
        let kind = if self.kind == Kind::Set { Which::Set } else { Which::Multiset };
        let limit = self.options.work_limit;
        let start = std::time::Instant::now();
        let q = self.misere_quotient(game, largest_size(components))?;
        let found = start.elapsed();
        let parts: Vec<super::quotient::UnorderedPart<'_>> = components
            .iter()
            .map(|c| super::quotient::UnorderedPart { lo: &c.lo, hi: &c.hi, k: &c.heaps })
            .collect();
        let sizes = components.iter().map(|c| &c.hi - &c.lo + 1u32).sum();
        let report = |stages| Report {
            source: quotient_source(&q),
            sizes,
            log2_len: 0,
            spectrum: SpectrumPath::Auto,
            distinct_values: None,
            stages,
        };
        let reduce = |x: u8| self.modulus.as_ref().map_or(BigUint::from(x), |m| BigUint::from(x) % m);
        let Some(unordered) = super::quotient::Unordered::new(&q, kind, &parts, limit)? else {
            // Sets of more sizes than a part has: none at all.
            return Ok((reduce(0), reduce(0), report(vec![("quotient".into(), found)])));
        };
        let working = match &self.modulus {
            Some(m) => m.clone(),
            None => {
                let bits = unordered.total_bits();
                exact_answer_fits(bits)?;
                BigUint::one() << (bits.unwrap_or(0) + 1)
            }
        };
        let word_cost = super::quotient::Unordered::mul_steps(&working);
        let steps = unordered
            .steps()
            .and_then(|s| (s / super::quotient::MULTIPLY_ADDS_PER_STEP + 1).checked_mul(word_cost));
        if steps.is_none_or(|s| s > limit) {
            return Err(Error::TooMuchWork {
                what: super::quotient::WHAT,
                steps: crate::error::Estimate(steps),
                limit,
            });
        }
        crate::memory::ensure_fits(
            || "the misère series".into(),
            unordered.bytes(&working).unwrap_or(u64::MAX),
        )?;
        let (losing, total) = match &self.modulus {
            Some(m) => unordered.modulo(m, self.progress)?,
            None => unordered.exact(self.progress)?,
        };
        Ok((
            losing,
            total,
            report(vec![("quotient".into(), found), ("series".into(), start.elapsed() - found)]),
        ))
    }

    /// Moore's Nim-`moore` ([`Query::moore`]), digit by digit.
    fn moore_counts(&self, moore: u64, heaps: &BigUint) -> Result<(BigUint, BigUint, Report)> {
        let (lo, hi) = self.range()?;
        let start = std::time::Instant::now();
        let (losing, total) = super::moore::count(
            moore,
            (lo, hi),
            heaps,
            self.modulus.as_ref(),
            self.options.parallel,
            self.progress,
        )?;
        let report = Report {
            source: Source::Columns { columns: hi.bits() },
            sizes: hi - lo + 1u32,
            log2_len: 0,
            spectrum: SpectrumPath::Auto,
            distinct_values: None,
            stages: vec![("columns".into(), start.elapsed())],
        };
        Ok((losing, total, report))
    }

    /// Staircases of `steps` steps ([`Query::staircase`]): the ordered count of the odd steps'
    /// heaps times `N^⌊steps/2⌋` for the free even steps.
    fn staircase_counts(&self, steps: &BigUint) -> Result<(BigUint, BigUint, Report)> {
        let (lo, hi) = self.range()?;
        let sizes = hi - lo + 1u32;
        let (odd, even) = ((steps + 1u32) >> 1, steps >> 1);
        if self.modulus.is_none() {
            let bits = steps.to_u64().and_then(|s| s.checked_mul(sizes.bits()));
            if bits.is_none_or(|b| b > super::EXACT_MAX_BITS + 1) {
                return Err(Error::AnswerTooLarge {
                    bits: crate::error::Estimate(bits.map(u128::from)),
                    limit_log2: super::EXACT_MAX_BITS.trailing_zeros(),
                });
            }
        }
        let (losing, total, report) = self.counts(&odd)?;
        let (losing, total) = match &self.modulus {
            Some(m) => {
                let free = sizes.modpow(&even, m);
                ((losing * &free) % m, (total * &free) % m)
            }
            None => {
                let free = num_traits::pow(sizes, even.to_usize().expect("checked above"));
                (losing * &free, total * &free)
            }
        };
        Ok((losing, total, report))
    }

    /// The number of heaps, which every query must give.
    fn heaps_asked(&self) -> Result<&BigUint> {
        self.heaps.as_ref().ok_or(Error::MissingHeaps)
    }

    /// The name of a query that only counts (Moore's Nim-K, staircases), for its refusals.
    fn counts_only_name(&self) -> Option<String> {
        match &self.input {
            Input::Moore(k) => Some(format!("moore:{k}")),
            Input::Game(game) if self.staircase => Some(format!("{} staircase", game.spec())),
            _ => None,
        }
    }

    /// Refuses the distribution and probabilities of a query that only counts.
    fn counts_only(&self) -> Result<()> {
        match self.counts_only_name() {
            Some(query) => Err(Error::NotForQuery { query, reason: "only counts are available" }),
            None => Ok(()),
        }
    }

    /// Refuses the distribution when the structured spectrum is asked for: the distribution is
    /// an inverse transform, computed over the array of slots only.
    fn distribution_over_array(&self) -> Result<()> {
        match self.options.spectrum {
            SpectrumPath::Structured => Err(Error::NotForQuery {
                query: "the structured spectrum".into(),
                reason: "it gives counts and probabilities, not the distribution (an inverse \
                         transform, over the array of slots)",
            }),
            _ => Ok(()),
        }
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
    /// assert_eq!((d.losing, d.winning, d.total), (4u32.into(), 2u32.into(), 6u32.into())); // mod 10
    /// # Ok::<(), nimcount::Error>(())
    /// ```
    pub fn distribution(&self) -> Result<Distribution> {
        self.validate()?;
        self.counts_only()?;
        self.distribution_over_array()?;
        if self.misere {
            return Err(Error::MisereDistribution);
        }
        let (outcome, report) = match &self.input {
            Input::Sum(components) => self.sum_run(components, true)?,
            _ => self.run(self.heaps_asked()?, true)?,
        };
        let counts = outcome.distribution.expect("asked for");
        let losing = counts[0].clone();
        let winning = winning(&outcome.total, &losing, self.modulus.as_ref());
        Ok(Distribution {
            counts,
            losing,
            winning,
            total: outcome.total,
            modulus: self.modulus.clone(),
            report,
        })
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
        self.counts_only()?;
        self.single_heaps(
            "probabilities",
            "a probability is of one number of heaps (the counts of a range are sums of counts)",
        )?;
        if with_distribution {
            self.distribution_over_array()?;
        }
        if let Input::Sum(components) = &self.input {
            let (histograms, sources, stages) = self.sum_histograms(components)?;
            let mut sum = Sum::new(self.sum_engines(components, &histograms), stages);
            let (losing, winning, distribution, exact) = sum.probability(with_distribution)?;
            let report = sum.report(sources);
            return Ok(Probability { losing, winning, distribution, exact, report });
        }
        let heaps = self.heaps_asked()?;
        if self.misere && with_distribution {
            return Err(Error::MisereDistribution);
        }
        self.misere_by_values()?;
        // The number of sizes is known before any Grundy value or transform: refuse at once.
        let sizes = match (&self.input, self.range()) {
            (Input::Histogram(h), _) => h.total().clone(),
            (Input::Game(_) | Input::Moore(_) | Input::Sum(_), Ok((lo, hi))) => hi - lo + 1u32,
            (_, Err(e)) => return Err(e),
        };
        if sizes.is_zero() {
            return Err(Error::EmptyHistogram);
        }
        if self.kind == Kind::Set && *heaps > sizes {
            return Err(Error::NoSets { k: heaps.clone(), n: sizes });
        }
        self.half_beyond_words(with_distribution)?;
        let mut stages = Stages::default();
        let (histogram, source) = self.histogram_timed(&mut stages)?;
        if histogram.total().is_zero() {
            return Err(Error::EmptyHistogram);
        }
        let histogram = self.prepare(histogram, with_distribution, &mut stages)?;
        let correction = self.misere_correction(heaps)?;
        let mut engine = self.engine(&histogram, heaps, stages);
        let (losing, winning, distribution, exact) = engine.probability(with_distribution, correction)?;
        let report = engine.report(source);
        Ok(Probability { losing, winning, distribution, exact, report })
    }

    /// Builds the histogram and counts `heaps` heaps (with the distribution when asked).
    fn run(&self, heaps: &BigUint, with_distribution: bool) -> Result<(Outcome, Report)> {
        self.misere_by_values()?;
        self.half_beyond_words(with_distribution)?;
        let mut stages = Stages::default();
        let (histogram, source) = self.histogram_timed(&mut stages)?;
        let histogram = self.prepare(histogram, with_distribution, &mut stages)?;
        let mut engine = self.engine(&histogram, heaps, stages);
        let mut outcome = match &self.modulus {
            Some(m) => engine.modular(m, with_distribution)?,
            None => engine.exact(with_distribution)?,
        };
        if self.misere {
            // Per number of heaps; over a range of heap counts, summed over it.
            let (lo, hi) = self.range()?;
            let correction = match &self.heaps_to {
                Some(k_hi) => misere::correction_sum(self.kind, heaps, k_hi, lo, hi),
                None => misere::correction(self.kind, heaps, lo, hi).into(),
            };
            outcome.losing = misere::correct_count(&outcome.losing, &correction, self.modulus.as_ref());
        }
        Ok((outcome, engine.report(source)))
    }

    /// Counts a sum of games (with the distribution when asked).
    fn sum_run(&self, components: &[Component], with_distribution: bool) -> Result<(Outcome, Report)> {
        let (histograms, sources, stages) = self.sum_histograms(components)?;
        let mut sum = Sum::new(self.sum_engines(components, &histograms), stages);
        let outcome = match &self.modulus {
            Some(m) => sum.modular(m, with_distribution)?,
            None => sum.exact(with_distribution)?,
        };
        Ok((outcome, sum.report(sources)))
    }

    /// The histograms of the components of a sum, as arrays of one transform length, and their
    /// sources.
    fn sum_histograms(&self, components: &[Component]) -> Result<(Vec<Histogram>, Vec<Source>, Stages)> {
        let mut stages = Stages::default();
        let mut built = Vec::with_capacity(components.len());
        for c in components {
            built.push(super::source::game_histogram(
                &c.game,
                &c.lo,
                &c.hi,
                self.max_heap,
                self.options.parallel,
                self.progress,
                &mut stages,
            )?);
        }
        // Every part becomes an array of the longest part's length: their memory together.
        let log2 = built.iter().map(|(h, _)| h.log2_len()).max().unwrap_or(0);
        engine::check_sum_memory(built.len(), log2)?;
        let (mut histograms, mut sources) = (Vec::new(), Vec::new());
        for (histogram, source) in built {
            let histogram = match histogram.is_structured() {
                true => {
                    stages.time("array of the histogram", || histogram.to_array()).map_err(|e| match e {
                        Error::OutOfMemory { what, needed, available } => Error::OutOfMemory {
                            what: format!("{what} (each part of a sum of games is counted over an array)"),
                            needed,
                            available,
                        },
                        other => other,
                    })?
                }
                false => histogram,
            };
            histograms.push(histogram);
            sources.push(source);
        }
        let log2 = histograms.iter().map(Histogram::log2_len).max().unwrap_or(0);
        let histograms = histograms.into_iter().map(|h| h.widened(log2)).collect();
        Ok((histograms, sources, stages))
    }

    /// One engine per component of a sum, over its histogram.
    fn sum_engines<'a>(
        &'a self,
        components: &'a [Component],
        histograms: &'a [Histogram],
    ) -> Vec<Engine<'a>> {
        let engine = |(c, h): (&'a Component, &'a Histogram)| {
            Engine::new(h, &c.heaps, self.kind, self.options, self.progress, Stages::default())
        };
        components.iter().zip(histograms).map(engine).collect()
    }

    /// The histogram in the shape the engine evaluates (see [`engine::prepare`]).
    fn prepare<'h>(
        &self,
        histogram: Cow<'h, Histogram>,
        with_distribution: bool,
        stages: &mut Stages,
    ) -> Result<Cow<'h, Histogram>> {
        let (structured, start) = (histogram.is_structured(), std::time::Instant::now());
        let prepared = engine::prepare(histogram, self.options.spectrum, with_distribution);
        let prepared = self.half_within_limit(prepared, with_distribution)?;
        if structured && !prepared.is_structured() {
            stages.0.push(("array of the histogram".into(), start.elapsed()));
        }
        Ok(prepared)
    }

    /// Take at most half over a range whose spectrum without arrays is estimated beyond the work
    /// limit (and whose array does not fit, or is not chosen): refused by
    /// [`Error::HalfTooWide`], which names the range that fits, before anything is computed.
    fn half_within_limit<'h>(
        &self,
        prepared: Result<Cow<'h, Histogram>>,
        with_distribution: bool,
    ) -> Result<Cow<'h, Histogram>> {
        let Input::Game(Game::Fraction { numerator: 1, denominator: 2 }) = &self.input else {
            return prepared;
        };
        if with_distribution {
            return prepared;
        }
        let limit = self.options.work_limit;
        let over = |h: &Histogram| {
            let steps = super::spectrum::estimate(h).map(super::structured::steps_of);
            steps.is_none_or(|s| s > limit).then_some(steps)
        };
        let steps = match &prepared {
            Ok(h) if h.is_structured() => over(h),
            Err(Error::TooMuchWork { .. } | Error::OutOfMemory { .. }) => {
                let (lo, hi) = self.range()?;
                match crate::histogram::fraction_half(lo, hi) {
                    Ok(h) => over(&h),
                    Err(_) => None,
                }
            }
            _ => None,
        };
        match steps {
            Some(steps) => {
                let (lo, hi) = self.range()?;
                Err(super::source::half_too_wide(lo, hi, steps, limit))
            }
            None => prepared,
        }
    }

    /// Take at most half over sizes beyond 64 bits, refused from the range alone, before its
    /// histogram (one interval of as many bits as the sizes per bit of them: gigabytes for
    /// sizes of 10^5 bits) is built: its transform is beyond every array, and the spectrum
    /// without arrays counts word-sized sums only, so [`half_within_limit`](Self::half_within_limit)
    /// would refuse it after building the histogram.
    fn half_beyond_words(&self, with_distribution: bool) -> Result<()> {
        let Input::Game(Game::Fraction { numerator: 1, denominator: 2 }) = &self.input else { return Ok(()) };
        let (lo, hi) = self.range()?;
        if with_distribution || hi.bits() <= 64 {
            return Ok(());
        }
        Err(super::source::half_too_wide(lo, hi, None, self.options.work_limit))
    }

    /// The engine of this query over `histogram`.
    fn engine<'a>(&'a self, histogram: &'a Histogram, heaps: &'a BigUint, stages: Stages) -> Engine<'a> {
        let engine = Engine::new(histogram, heaps, self.kind, self.options, self.progress, stages);
        match &self.heaps_to {
            Some(hi) => engine.up_to(hi),
            None => engine,
        }
    }

    /// The misère correction of the losing count, for misère queries.
    /// Refuses misère play of a game other than Nim on the paths of Grundy values (the
    /// probability, the engine): only [`Query::count`] counts it, by the misère quotient.
    fn misere_by_values(&self) -> Result<()> {
        match &self.input {
            Input::Game(game) if self.misere && *game != Game::Nim => {
                Err(Error::MisereUnsupported { game: game.spec() })
            }
            _ => Ok(()),
        }
    }

    fn misere_correction(&self, heaps: &BigUint) -> Result<Option<i64>> {
        if !self.misere {
            return Ok(None);
        }
        let (lo, hi) = self.range()?;
        Ok(Some(misere::correction(self.kind, heaps, lo, hi)))
    }

    /// [`histogram`](Self::histogram), timing the period search and the counting.
    fn histogram_timed(&self, stages: &mut Stages) -> Result<(Cow<'_, Histogram>, Source)> {
        match &self.input {
            Input::Histogram(h) => Ok((Cow::Borrowed(h), Source::Histogram)),
            Input::Moore(k) => {
                Err(Error::NotForQuery { query: format!("moore:{k}"), reason: "it has no Grundy values" })
            }
            Input::Sum(_) => Err(Error::NotForQuery {
                query: "a sum of games".into(),
                reason: "each component has a histogram of its own",
            }),
            Input::Game(game) => {
                let (lo, hi) = self.range()?;
                let max_heap = self.max_heap;
                super::source::game_histogram(
                    game,
                    lo,
                    hi,
                    max_heap,
                    self.options.parallel,
                    self.progress,
                    stages,
                )
                .map(|(h, s)| (Cow::Owned(h), s))
            }
        }
    }

    fn range(&self) -> Result<(&BigUint, &BigUint)> {
        let (lo, hi) = self.sizes.as_ref().ok_or(Error::MissingSizes)?;
        if lo > hi {
            return Err(Error::EmptyRange { lo: lo.clone(), hi: hi.clone() });
        }
        Ok((lo, hi))
    }

    /// Checks what does not depend on the histogram: every cheap refusal comes before any work.
    fn validate(&self) -> Result<()> {
        modulus::check(self.modulus.as_ref())?;
        if let (Some(lo), Some(hi)) = (&self.heaps, &self.heaps_to) {
            if lo > hi {
                return Err(Error::EmptyHeapsRange { lo: lo.clone(), hi: hi.clone() });
            }
            if self.misere && self.kind != Kind::Ordered && !matches!(self.input, Input::Game(Game::Nim)) {
                self.single_heaps(
                    "misère multisets and sets of a game other than Nim",
                    "their count in the misère quotient's algebra is one number of heaps at a time",
                )?;
            }
            if self.staircase {
                self.single_heaps("a staircase", "its number of steps is one number")?;
            }
            if let Input::Moore(k) = &self.input {
                self.single_heaps(
                    &format!("moore:{k}"),
                    "it is counted digit by digit for one number of heaps",
                )?;
            }
        }
        let refuse = |query: String, reason| Err(Error::NotForQuery { query, reason });
        match &self.input {
            Input::Game(game) => {
                self.range()?;
                let not_take_away = match game {
                    Game::Octal(_) | Game::Hex(_) => {
                        Some("is an octal game, whose moves depend on the heap or split it")
                    }
                    Game::GrundyGame | Game::Lasker => Some("splits heaps"),
                    Game::Fraction { .. } => Some("allows numbers of stones that depend on the heap"),
                    _ => None,
                };
                if self.staircase
                    && let Some(why) = not_take_away
                {
                    return Err(Error::NotTakeAway { game: game.spec(), why: why.into() });
                }
            }
            Input::Histogram(_) => {
                if self.sizes.is_some() {
                    return Err(Error::SizesWithHistogram);
                }
                if self.staircase {
                    return refuse(
                        "staircase".into(),
                        "a staircase needs a game and its sizes, not a histogram",
                    );
                }
                if self.misere {
                    return Err(Error::MisereNeedsGame);
                }
            }
            Input::Sum(components) => {
                let query = || "a sum of games".to_string();
                if components.is_empty() {
                    return refuse(query(), "it needs at least one component");
                }
                if self.sizes.is_some() || self.heaps.is_some() {
                    return refuse(query(), "the sizes and the number of heaps are given per component");
                }
                if self.staircase {
                    return refuse(query(), "a staircase needs one game");
                }
                let one_game = components.iter().all(|c| c.game == components[0].game);
                if self.misere && !one_game {
                    return refuse(
                        query(),
                        "misère play of a sum is counted for parts of one game (by its misère quotient) only",
                    );
                }
                if self.options.spectrum == SpectrumPath::Structured {
                    return refuse(query(), "its components are counted over arrays of values");
                }
                for c in components {
                    if c.lo > c.hi {
                        return Err(Error::EmptyRange { lo: c.lo.clone(), hi: c.hi.clone() });
                    }
                }
            }
            Input::Moore(k) => {
                if *k == 0 {
                    return Err(Error::InvalidGame {
                        spec: "moore:0".into(),
                        reason: "K must be at least 1: moore:K takes stones from up to K heaps".into(),
                    });
                }
                let query = format!("moore:{k}");
                if self.staircase {
                    return refuse(query, "a staircase needs a game of single heaps");
                }
                if self.max_heap.is_some() {
                    return refuse(query, "it computes no Grundy values, so a largest heap does not apply");
                }
                if self.options.spectrum != SpectrumPath::Auto {
                    return refuse(
                        query,
                        "it is counted digit by digit over the binary columns, without a spectrum",
                    );
                }
                if self.options.work_limit != super::MAX_STEPS {
                    return refuse(
                        query,
                        "it is counted digit by digit within a limit of word operations of its own",
                    );
                }
                self.range()?;
            }
        }
        if let Some(query) = self.counts_only_name() {
            if self.kind != Kind::Ordered {
                return refuse(query, "only ordered positions are counted");
            }
            if self.misere {
                return refuse(query, "misère play is counted for plain nim heaps only");
            }
        }
        Ok(())
    }
}

/// What the query asks, for the distributed count, which computes it its own way.
#[cfg(feature = "mpi")]
impl Query<'_> {
    pub(crate) fn asked_heaps(&self) -> Result<&BigUint> {
        self.single_heaps("the distributed count", "it counts one number of heaps")?;
        self.heaps_asked()
    }

    pub(crate) fn asked_modulus(&self) -> Option<&BigUint> {
        self.modulus.as_ref()
    }

    pub(crate) fn asked_kind(&self) -> Kind {
        self.kind
    }

    pub(crate) fn asked_misere(&self) -> bool {
        self.misere
    }

    pub(crate) fn asked_counts_only(&self) -> bool {
        self.counts_only_name().is_some()
    }

    /// The counts of a trivial query ([`Query::count`] answers it before any Grundy value).
    pub(crate) fn trivial_counts(&self) -> Result<Option<Counts>> {
        self.validate()?;
        let trivial = self.trivial(self.heaps_asked()?);
        Ok(trivial.map(|(losing, total, report)| Counts {
            winning: winning(&total, &losing, self.modulus.as_ref()),
            losing,
            total,
            modulus: self.modulus.clone(),
            report,
        }))
    }

    pub(crate) fn asked_backend(&self) -> Backend {
        self.options.backend
    }

    pub(crate) fn asked_parallel(&self) -> bool {
        self.options.parallel
    }

    pub(crate) fn asked_progress(&self) -> &dyn Progress {
        self.progress
    }
}

/// The source of a misère count through `q`: a quotient of every heap size, or of the heaps
/// `0..=n`.
fn quotient_source(q: &crate::misere::Quotient) -> Source {
    match q.largest_heap() {
        Some(largest_heap) => Source::PartialQuotient { order: q.order(), largest_heap },
        None => Source::Quotient { order: q.order(), preperiod: q.preperiod(), period: q.period() },
    }
}

/// The largest size of the parts of a sum.
fn largest_size(components: &[Component]) -> &BigUint {
    components.iter().map(|c| &c.hi).max().expect("a sum has a component")
}

/// Refuses an exact answer of about `bits` bits (`None`: beyond any count) above
/// [`EXACT_MAX_BITS`](super::EXACT_MAX_BITS).
fn exact_answer_fits(bits: Option<u64>) -> Result<()> {
    if bits.is_none_or(|b| b > super::EXACT_MAX_BITS + 1) {
        return Err(Error::AnswerTooLarge {
            bits: crate::error::Estimate(bits.map(u128::from)),
            limit_log2: super::EXACT_MAX_BITS.trailing_zeros(),
        });
    }
    Ok(())
}
