//! Misère quotients: misère play of a heap game as multiplication in a finite commutative monoid.
//!
//! Two positions `x`, `y` of a heap game are *indistinguishable* when `x + z` and `y + z` have
//! the same misère outcome (whoever cannot move wins) for every position `z` of the game. The
//! classes form a commutative monoid under disjunctive sum, the game's **misère quotient** `Q`
//! (Plambeck, "Taming the wild in impartial combinatorial games", Integers 5, 2005; Plambeck and
//! Siegel, "Misère quotients for impartial games", JCTA 115, 2008). With `Φ(n)` the class of
//! one heap of `n`, a position `h₁ + … + h_k` is lost for the player to move exactly when the
//! product `Φ(h₁)·…·Φ(h_k)` lies in the **P-portion** `P ⊂ Q`. When `Q` is finite and `Φ`
//! eventually periodic, misère play at any size is a lookup and counting misère positions is a
//! power in the monoid algebra of `Q`.
//!
//! [`Search`] computes `Q` heap size by heap size ([`build`]: the quotient of the heaps
//! `0..n` grows into that of `0..=n` by a conservative extension, or by a trial monoid refined
//! until it judges every position right, each stage proven by the check of [`verify`]), looks
//! for a period of `Φ`, and proves the candidate with [`MisereTheorem`]: a finite check that
//! covers every position of every heap size (the module [`verify`] states the check and its
//! proof). A candidate that fails the check is not reported: the construction goes on with
//! larger heaps, until the budget ([`Budget`]) is spent, and then the answer is
//! [`Error::QuotientNotFound`] (the quotient may be infinite — the quotient of Nim itself is —
//! or larger than the budget).
//!
//! ```
//! use nimcount::game::Game;
//! use nimcount::misere::Search;
//!
//! // octal 0.75: the quotient of order 8 (Plambeck, "Taming the wild", 2005).
//! let q = Search::new(&Game::parse("octal:0.75")?).run()?;
//! assert_eq!((q.order(), q.preperiod(), q.period()), (8, 8, 2));
//! // One heap of 1 is lost (the player to move must take the last stone), two are won.
//! assert!(q.is_lost(&[1u32.into()])?);
//! assert!(!q.is_lost(&[1u32.into(), 1u32.into()])?);
//! // The empty position is won: the opponent made the last move.
//! assert!(!q.is_lost(&[])?);
//! # Ok::<(), nimcount::Error>(())
//! ```
//!
//! Orders checked by the tests: octal `0.75`, order 8 (Plambeck, "Taming the wild in
//! impartial combinatorial games", Integers 5, 2005, G05; Siegel, "The structure and
//! classification of misère quotients", 2007, proves it the only quotient of order 8); tame
//! games whose values are 0, 1 and 2 (`subtract:1,2`, `subtract:2,3`), the tame quotient of
//! order 6 (Plambeck and Siegel 2008). Kayles (`0.77`): order 40, generators at heaps 1, 2, 5,
//! 9, 12, 25, 27, `Φ` periodic from heap 71 with period 12, as in the Sibert–Conway solution
//! (Plambeck, "Daisies, Kayles, and the Sibert–Conway decomposition in misère octal games",
//! TCS 96, 1992). Guiles (`0.15`): order 42, periodic from heap 66 with period 10. The orders of
//! Kayles and Guiles are nimcount's own, proven by the check and compared with a plain misère
//! search in the tests. Quotients of the heaps `0..=n` ([`Search::heaps`]): Dawson's Kayles
//! (`0.07`), heaps `0..=30`, order 360 (Siegel, "Some MisereSolver questions answered",
//! miseregames.wordpress.com, 2007; a test run with `--ignored`, seconds); those of Dawson's
//! Kayles, `0.137`, Lasker's Nim, Nim, Kayles, `allbut:1,2` and `hex:0.8` up to heaps of 7 to 14
//! judge every position of up to three heaps as a plain misère search does.
//!
//! **Limits of the construction.** Dawson's Kayles (`0.07`) is not found within the default
//! budget (the construction passes its work limit at heap 27; with more, its trial monoids grow
//! past the order limit at heap 34); Nim, Lasker's Nim, all-but and hexadecimal games have no
//! theorem here and are refused by the search of every heap size.
//!
//! **Quotients of the heaps in range.** Every game's heaps have finitely many options, so the
//! positions made of the heaps `0..=n` form a closed set with a quotient of its own, computed by
//! the same construction stopped at heap `n` ([`Search::heaps`]): it judges every position
//! of those heaps exactly, whether or not the game has a finite quotient, and refuses a larger
//! heap. Counts whose sizes are at most `n` and play whose heaps are small use it when no
//! quotient of every heap size is found. Dawson's Kayles' quotient of the heaps `0..=30` has
//! order 360, as Siegel found with MisereSolver ("Some MisereSolver questions answered",
//! miseregames.wordpress.com, 2007); its construction checks about 2.2·10^6 states, more than the
//! default budget's work limit (`max_states: 10^6` reaches it, in about 4.4 s in the test
//! profile on a loaded 2-core Xeon).

pub(crate) mod build;
pub(crate) mod cost;
pub(crate) mod moves;
pub(crate) mod present;
pub(crate) mod verify;

use std::fmt;

use num_bigint::BigUint;
use num_traits::ToPrimitive;

use crate::error::{Error, Result};
use crate::game::{Game, HeapGame};

pub use cost::estimate;
pub use moves::{SplitClass, split_classes, winning_options};
pub use present::Presentation;

/// The largest `--max-heap` (each heap joined costs at least its options).
pub const MAX_HEAP: u64 = 100_000;
/// The largest order allowed along the way (a table of `order²` 4-byte entries: 1 GiB at 16 384).
pub const MAX_ORDER: usize = 16_384;
/// The most states a proof may check (each a few dozen bytes: about 4 GiB at 10^8).
pub const MAX_STATES: u64 = 100_000_000;
/// The largest `--max-seconds` of a search (about 11 days).
pub const MAX_SECONDS: u64 = 1_000_000;

/// The limits of a quotient's search.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Budget {
    /// The largest heap joined to the quotient (the period must show within it).
    pub max_heap: u64,
    /// The largest order of a quotient along the way.
    pub max_order: usize,
    /// The most states of a check ([`verify`]).
    pub max_states: u64,
    /// The most estimated time of the whole search, in seconds of the model of [`estimate`]:
    /// a budget estimated beyond it is refused before any work, and the search stops where its
    /// meter passes it (the same heap on every machine).
    pub max_seconds: u64,
}

impl Default for Budget {
    /// Heaps up to 1000, orders up to 2000, checks of up to 2·10^5 states, a minute of estimated
    /// time: seconds for a game whose quotient is not found.
    fn default() -> Self {
        Budget { max_heap: 1000, max_order: 2000, max_states: 200_000, max_seconds: 60 }
    }
}

/// Refuses, before any work, a budget whose search ([`estimate`]) takes more estimated time
/// than its `max_seconds` ([`Error::QuotientTooCostly`]) or more bytes than the process can
/// obtain ([`Error::OutOfMemory`]).
pub fn admit(game: &Game, budget: &Budget) -> Result<()> {
    let estimate = estimate(budget);
    if estimate.seconds > budget.max_seconds as f64 {
        return Err(Error::QuotientTooCostly {
            game: game.spec(),
            seconds: estimate.seconds,
            states: budget.max_states.saturating_mul(cost::WORK),
            limit: budget.max_seconds,
        });
    }
    crate::memory::ensure_fits(
        || {
            format!(
                "the search for the misère quotient of {} (checks of up to {} states, orders up to {})",
                game.spec(),
                budget.max_states,
                budget.max_order
            )
        },
        estimate.bytes,
    )
}

/// The theorem that proves a quotient for every heap size: the types of heaps (image and the
/// images of the options) repeat with the period of `Φ` from a heap `W` on, so a check of the
/// heaps below `W + p` covers every heap ([`verify`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum MisereTheorem {
    /// An octal game whose moves take at most `t` stones. If `Φ(n + p) = Φ(n)` for every
    /// `n >= n0`, the images of the splits of `m` into two non-empty heaps repeat with period
    /// `p` from `m = p + 2·max(n0, 1)` on (a split `a + b`, `a <= b`, of `m + p` has
    /// `b − p >= max(n0, 1)` there, and one of `m` has `b >= n0`), and the single heaps left,
    /// `n − j >= n0`, too: the types repeat from `W = 2·max(n0, 1) + p + t`.
    Octal {
        /// `t`.
        last_digit: u64,
    },
    /// A subtraction game whose largest move is `s`: the options of `n >= n0 + s` are heaps
    /// `n − m >= n0`, so the types repeat from `W = n0 + s`.
    Subtraction {
        /// `s`.
        largest_move: u64,
    },
    /// No period: the quotient of the heaps `0..=n` only ([`Search::heaps`]), proven on every
    /// position made of them by the check of its last stage ([`verify`]). It says nothing of a
    /// heap above `n`.
    Heaps {
        /// `n`.
        largest_heap: u64,
    },
}

impl MisereTheorem {
    /// The theorem for a game, when nimcount has one for its class.
    pub fn for_game(game: &Game) -> Option<MisereTheorem> {
        match game.builtin()? {
            Game::Octal(code) => Some(MisereTheorem::Octal { last_digit: code.last_digit() }),
            Game::Subtract(moves) => Some(MisereTheorem::Subtraction { largest_move: moves.largest() }),
            _ => None,
        }
    }

    /// `W`: the heap from which the types repeat with period `p`, for preperiod `n0` (no heap
    /// for [`MisereTheorem::Heaps`]: `u64::MAX`).
    pub fn window(self, n0: u64, p: u64) -> u64 {
        match self {
            MisereTheorem::Octal { last_digit: t } => 2 * n0.max(1) + p + t,
            MisereTheorem::Subtraction { largest_move: s } => n0 + s,
            MisereTheorem::Heaps { .. } => u64::MAX,
        }
    }

    /// A short name: `octal`, `subtraction` or `heaps`.
    pub fn name(self) -> &'static str {
        match self {
            MisereTheorem::Octal { .. } => "octal",
            MisereTheorem::Subtraction { .. } => "subtraction",
            MisereTheorem::Heaps { .. } => "heaps",
        }
    }
}

impl fmt::Display for MisereTheorem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            MisereTheorem::Octal { last_digit: t } => write!(
                f,
                "octal game, t = {t}: with Φ periodic from n0, the heap types repeat from \
                 2·max(n0, 1) + p + t; every position of heaps below that plus p is checked"
            ),
            MisereTheorem::Subtraction { largest_move: s } => write!(
                f,
                "subtraction game, s = {s}: with Φ periodic from n0, the heap types repeat from \
                 n0 + s; every position of heaps below that plus p is checked"
            ),
            MisereTheorem::Heaps { largest_heap: n } => write!(
                f,
                "the heaps 0..={n} only: every position made of them is checked; no heap above {n} \
                 is known"
            ),
        }
    }
}

/// A game's misère quotient, proven for every heap size ([`Search`]), or for the heaps
/// `0..=n` only ([`Search::heaps`], [`Quotient::largest_heap`]).
///
/// Elements are numbered `0..order`; `0` is the identity (the empty position).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Quotient {
    game: String,
    rules: Game,
    order: usize,
    table: Vec<u32>,
    lost: Vec<bool>,
    phi: Vec<u32>,
    preperiod: u64,
    period: u64,
    theorem: MisereTheorem,
    states: u64,
}

impl Quotient {
    /// The game's specification.
    pub fn game(&self) -> &str {
        &self.game
    }

    /// `|Q|`.
    pub fn order(&self) -> usize {
        self.order
    }

    /// `a·b`.
    pub fn mul(&self, a: usize, b: usize) -> usize {
        self.table[a * self.order + b] as usize
    }

    /// Whether element `a` lies in the P-portion (lost for the player to move).
    pub fn in_p(&self, a: usize) -> bool {
        self.lost[a]
    }

    /// The P-portion, ascending.
    pub fn p_portion(&self) -> Vec<usize> {
        (0..self.order).filter(|&a| self.lost[a]).collect()
    }

    /// The preperiod `n0` of `Φ`: `Φ(n + p) = Φ(n)` for every `n >= n0`; `n + 1` for the
    /// quotient of the heaps `0..=n`.
    pub fn preperiod(&self) -> u64 {
        self.preperiod
    }

    /// The period `p` of `Φ`; 0 for the quotient of the heaps `0..=n` (no period).
    pub fn period(&self) -> u64 {
        self.period
    }

    /// `Some(n)` for the quotient of the heaps `0..=n` ([`Search::heaps`]), `None` for a
    /// quotient proven for every heap size.
    pub fn largest_heap(&self) -> Option<u64> {
        match self.theorem {
            MisereTheorem::Heaps { largest_heap } => Some(largest_heap),
            _ => None,
        }
    }

    /// Whether the quotient knows a heap of `n` stones (every heap, or `n <= largest_heap`).
    pub fn covers(&self, n: &BigUint) -> bool {
        self.largest_heap().is_none_or(|top| *n <= BigUint::from(top))
    }

    /// Refuses a heap above the heaps the quotient knows ([`Quotient::covers`]) with
    /// [`Error::QuotientNotFound`] naming `max_heap` (every lookup by heap does so too).
    pub fn check_heaps(&self, heaps: &[BigUint]) -> Result<()> {
        match heaps.iter().find(|h| !self.covers(h)) {
            Some(h) => Err(self.not_covered(h)),
            None => Ok(()),
        }
    }

    /// The error of a heap of `n` above the heaps `0..=largest_heap` of a partial quotient.
    fn not_covered(&self, n: &dyn fmt::Display) -> Error {
        Error::QuotientNotFound {
            game: self.game.clone(),
            reason: format!(
                "a heap of {n} is above the heaps 0..={} of the quotient computed",
                self.preperiod.saturating_sub(1)
            ),
            limit: Some("max_heap"),
        }
    }

    /// The theorem that proves it.
    pub fn theorem(&self) -> MisereTheorem {
        self.theorem
    }

    /// The states the proof checked ([`verify`]).
    pub fn states_checked(&self) -> u64 {
        self.states
    }

    /// `Φ(n)` for `n < n0 + p` (the rest repeats).
    pub fn images(&self) -> &[u32] {
        &self.phi
    }

    /// `Φ(n)`, the element of one heap of `n` stones; a heap above the heaps of a quotient of
    /// the heaps `0..=n` is refused ([`Quotient::check_heaps`]).
    pub fn element(&self, n: &BigUint) -> Result<usize> {
        match n.to_u64() {
            Some(n) => self.element_u64(n),
            None if self.period == 0 => Err(self.not_covered(n)),
            None => {
                let offset = (n - BigUint::from(self.preperiod)) % BigUint::from(self.period);
                Ok(self.image(self.preperiod + offset.to_u64().expect("below the period")))
            }
        }
    }

    /// [`Quotient::element`] of a heap of 64 bits.
    pub fn element_u64(&self, n: u64) -> Result<usize> {
        let (n0, p) = (self.preperiod, self.period);
        match (n < n0, p) {
            (true, _) => Ok(self.image(n)),
            (false, 0) => Err(self.not_covered(&n)),
            (false, p) => Ok(self.image(n0 + (n - n0) % p)),
        }
    }

    /// `Φ(n)` for `n < n0 + p`, the images stored ([`Quotient::images`]).
    pub(crate) fn image(&self, n: u64) -> usize {
        self.phi[n as usize] as usize
    }

    /// The product of the heaps' elements ([`Quotient::element`]).
    pub fn product(&self, heaps: &[BigUint]) -> Result<usize> {
        heaps.iter().try_fold(0, |x, h| Ok(self.mul(x, self.element(h)?)))
    }

    /// Whether the position of these heaps is lost for the player to move in misère play
    /// ([`Quotient::element`]).
    pub fn is_lost(&self, heaps: &[BigUint]) -> Result<bool> {
        Ok(self.in_p(self.product(heaps)?))
    }

    /// Generators (the elements of the first heaps that are new) and relations.
    pub fn presentation(&self) -> Presentation {
        present::present(self)
    }
}

/// A search for a game's misère quotient: the one way to build one.
///
/// By default: the quotient of every heap size, proven by a [`MisereTheorem`] (octal and finite
/// subtraction games; any other game is refused with [`Error::QuotientNotFound`]), within
/// [`Budget::default`], reporting nothing, computed afresh. [`Search::heaps`] asks for the
/// quotient of the heaps `0..=n` instead, [`Search::budget`] sets the limits (one [`Budget`]
/// for every search), [`Search::progress`] reports the construction and [`Search::cached`]
/// keeps what it finds in the process cache.
///
/// A budget estimated beyond its `max_seconds` ([`estimate`]) is refused before any work
/// ([`admit`], [`Error::QuotientTooCostly`]); the construction stops where its meter passes
/// `max_seconds`, at `max_order`, at `5 · max_states` states of checks, or (every heap size) at
/// `max_heap` without a proven period: [`Error::QuotientNotFound`] naming the limit reached.
///
/// Progress: one stage, `"misère quotient"`, whose total is the budget's `max_seconds` of
/// estimated time in milliseconds and whose position, after each heap joined, is the larger
/// part spent of the two limits of its work (the estimated time, the `5 · max_states` states of
/// checks and marking walks), with a message naming the heap, the order, the states and the
/// estimated time so far. A progress that asks to stop
/// ([`crate::progress::Progress::cancellation`]) is obeyed within a step of the construction.
///
/// ```
/// use nimcount::game::Game;
/// use nimcount::misere::{Budget, Search};
///
/// let game = Game::parse("octal:0.75")?;
/// let q = Search::new(&game).run()?;
/// assert_eq!((q.order(), q.preperiod(), q.period()), (8, 8, 2));
/// // Any budget, kept for later searches of the same game and budget.
/// let budget = Budget { max_states: 500_000, ..Budget::default() };
/// let again = Search::new(&game).budget(budget).cached().run()?;
/// assert_eq!(again.order(), 8);
/// # Ok::<(), nimcount::Error>(())
/// ```
#[derive(Clone, Copy)]
pub struct Search<'a> {
    game: &'a Game,
    budget: Budget,
    heaps: Option<u64>,
    progress: &'a dyn crate::progress::Progress,
    cached: bool,
}

impl<'a> Search<'a> {
    /// The search for the quotient of every heap size of `game`, within [`Budget::default`].
    pub fn new(game: &'a Game) -> Self {
        Search {
            game,
            budget: Budget::default(),
            heaps: None,
            progress: &crate::progress::Silent,
            cached: false,
        }
    }

    /// Within `budget`.
    pub fn budget(mut self, budget: Budget) -> Self {
        self.budget = budget;
        self
    }

    /// The quotient of the heaps `0..=largest_heap`: the quotient of the closed set of
    /// positions made of those heaps, for any game whose heaps have finitely many options
    /// (every [`Game`]: octal, hexadecimal, subtraction and all-but games, Lasker's Nim, Nim,
    /// custom games), with or without a misère quotient of every heap size.
    ///
    /// **Why it is exact.** The options of a position of heaps `<= n` are positions of heaps
    /// `<= n`, so these positions form a closed set and their quotient is defined like the
    /// game's (two positions are identified when no position of the set added to both tells
    /// them apart). It is the last stage of the construction of the quotient of every heap size
    /// ([`build`]): the check of [`verify`] covers every position of the heaps `0..=n` (its
    /// theorem: every reachable state satisfies the misère rule, so every position is lost
    /// exactly when its product lies in P), and the reduction keeps apart only elements that
    /// some position tells apart. So [`Quotient::is_lost`] is right on every position of heaps
    /// `<= n`, and refuses a heap above `n` ([`Quotient::check_heaps`]). Its theorem is
    /// [`MisereTheorem::Heaps`], its preperiod `n + 1` and its period 0. `largest_heap` above
    /// the budget's `max_heap` is refused before any work.
    ///
    /// ```
    /// use nimcount::game::Game;
    /// use nimcount::misere::Search;
    ///
    /// // Dawson's Kayles has no known finite quotient; that of its heaps 0..=20 has order 24.
    /// let q = Search::new(&Game::parse("octal:0.07")?).heaps(20).run()?;
    /// assert_eq!((q.order(), q.largest_heap()), (24, Some(20)));
    /// assert!(q.is_lost(&[4u32.into(), 4u32.into()])?);
    /// // Lasker's Nim has no periodicity theorem here, yet its small heaps have a quotient.
    /// let q = Search::new(&Game::parse("lasker")?).heaps(6).run()?;
    /// assert!(q.is_lost(&[1u32.into()])? && !q.is_lost(&[6u32.into()])?);
    /// assert!(q.is_lost(&[7u32.into()]).is_err());
    /// # Ok::<(), nimcount::Error>(())
    /// ```
    pub fn heaps(mut self, largest_heap: u64) -> Self {
        self.heaps = Some(largest_heap);
        self
    }

    /// Reporting to `progress` (see [`Search`]).
    pub fn progress(mut self, progress: &'a dyn crate::progress::Progress) -> Self {
        self.progress = progress;
        self
    }

    /// Through the process cache: a quotient (or a failure) found once per game and budget is
    /// given again, and the construction of the heaps `0..=n` is kept and grown as larger heaps
    /// are asked for (play asks for the quotients up to each position's largest heap, in any
    /// order). The cache holds at most [`CACHED_SEARCHES`] games and budgets of each kind, and
    /// [`PARTIAL_KEPT_BYTES`] of tables for each; it forgets them all when full.
    pub fn cached(mut self) -> Self {
        self.cached = true;
        self
    }

    /// The quotient, or why it was not found (see [`Search`]).
    pub fn run(&self) -> Result<std::sync::Arc<Quotient>> {
        let (game, budget, progress) = (self.game, &self.budget, self.progress);
        match (self.heaps, self.cached) {
            (None, false) => every_heap(game, budget, progress).map(std::sync::Arc::new),
            (None, true) => cached_every_heap(game, budget, progress),
            (Some(n), false) => heaps_up_to(game, n, budget, progress).map(std::sync::Arc::new),
            (Some(n), true) => cached_heaps_up_to(game, n, budget, progress),
        }
    }
}

/// The most games and budgets the process cache of [`Search::cached`] keeps of each kind.
pub const CACHED_SEARCHES: usize = 64;

/// The table of a process cache, emptied when it holds [`CACHED_SEARCHES`] entries and a new
/// one comes.
fn bounded<K: std::hash::Hash + Eq, V>(
    table: &mut Option<std::collections::HashMap<K, V>>,
) -> &mut std::collections::HashMap<K, V> {
    let table = table.get_or_insert_with(std::collections::HashMap::new);
    if table.len() >= CACHED_SEARCHES {
        table.clear();
    }
    table
}

/// The quotient of every heap size ([`Search`]).
fn every_heap(game: &Game, budget: &Budget, progress: &dyn crate::progress::Progress) -> Result<Quotient> {
    let spec = game.spec();
    let fail = |reason: String, limit: Option<&'static str>| Error::QuotientNotFound {
        game: spec.clone(),
        reason,
        limit,
    };
    let Some(theorem) = MisereTheorem::for_game(game) else {
        return Err(fail(
            "misère quotients are computed for octal games and finite subtraction games".into(),
            None,
        ));
    };
    admit(game, budget)?;
    start(progress, budget);
    let mut stage = build::Stage::start();
    stage.meter.limit_to(budget.max_seconds);
    stage.meter.watch(progress);
    let mut tried: Vec<(u64, u64)> = Vec::new();
    let mut last_failure = String::from("no period of the heaps' elements showed");
    while stage.heaps() <= budget.max_heap {
        stage.grow(game, budget).map_err(|stuck| {
            progress.finish();
            stuck_error(&spec, stage.heaps(), stuck, budget)
        })?;
        report(progress, &stage, budget, stage.heaps() - 1);
        let Some((n0, p)) = period_of(&stage.phi, theorem) else { continue };
        if tried.contains(&(n0, p)) {
            continue;
        }
        tried.push((n0, p));
        match prove(game, &stage, theorem, n0, p, budget.max_states) {
            Ok(states) => {
                progress.finish();
                let mut q = Quotient {
                    game: spec.clone(),
                    rules: game.builtin().expect("a theorem applies to built-in games").clone(),
                    order: stage.order,
                    table: stage.table.clone(),
                    lost: stage.lost.clone(),
                    phi: stage.phi[..(n0 + p) as usize].to_vec(),
                    preperiod: n0,
                    period: p,
                    theorem,
                    states,
                };
                present::relabel(&mut q, stage.identity);
                return Ok(q);
            }
            Err(verify::Failed::States(limit)) => {
                progress.finish();
                return Err(fail(
                    format!(
                        "the check of the candidate of order {} passed the limit of {limit} states",
                        stage.order
                    ),
                    Some("max_states"),
                ));
            }
            Err(verify::Failed::Time) => {
                progress.finish();
                let n = stage.heaps() - 1;
                return Err(stuck_error(&spec, n, build::Stuck::Time(budget.max_seconds), budget));
            }
            Err(verify::Failed::Wrong(_)) => {
                last_failure = format!(
                    "the candidate of order {} with preperiod {n0} and period {p} failed its check",
                    stage.order
                );
            }
        }
    }
    progress.finish();
    Err(fail(
        format!("heaps up to {} joined, order {}; {last_failure}", budget.max_heap, stage.order),
        Some("max_heap"),
    ))
}

/// The error of a construction stuck while joining heap `n`.
pub(crate) fn stuck_error(spec: &str, n: u64, stuck: build::Stuck, budget: &Budget) -> Error {
    let fail = |reason: String, limit: Option<&'static str>| Error::QuotientNotFound {
        game: spec.to_string(),
        reason,
        limit,
    };
    match stuck {
        build::Stuck::Order(order) => fail(
            format!(
                "joining heap {n} gives an order of {order}, above the limit of {} \
                 (it may be infinite)",
                budget.max_order
            ),
            Some("max_order"),
        ),
        build::Stuck::States(limit) => {
            fail(format!("joining heap {n}, a check passed the limit of {limit} states"), Some("max_states"))
        }
        build::Stuck::Work(limit) => fail(
            format!(
                "joining heap {n}, the construction passed {limit} steps ({} times the limit \
                 of {} states of one check)",
                cost::WORK,
                budget.max_states
            ),
            Some("max_states"),
        ),
        build::Stuck::Time(limit) => fail(
            format!(
                "joining heap {n}, the construction passed the limit of {limit} s of estimated time \
                 (the model of misere::estimate)"
            ),
            Some("max_seconds"),
        ),
        build::Stuck::Refinement => {
            fail(format!("joining heap {n}, no refinement of the quotient judged every position right"), None)
        }
    }
}

/// The quotient of the heaps `0..=largest_heap` ([`Search::heaps`]).
fn heaps_up_to(
    game: &Game,
    largest_heap: u64,
    budget: &Budget,
    progress: &dyn crate::progress::Progress,
) -> Result<Quotient> {
    let spec = game.spec();
    let mut stage = build::Stage::start();
    grow_to(&mut stage, game, largest_heap, budget, progress, &mut |_| {})?;
    Ok(snapshot(&stage, &spec, game, largest_heap))
}

/// Grows `stage` until it has joined the heaps `0..=largest_heap`, within the budget (refused
/// at once when `largest_heap` is above its `max_heap`, or its estimate beyond its limits:
/// [`admit`]), reporting each heap joined to `progress` and passing it to `joined`. On a stop,
/// the stage has joined the heaps below the one it stopped at.
fn grow_to(
    stage: &mut build::Stage,
    game: &Game,
    largest_heap: u64,
    budget: &Budget,
    progress: &dyn crate::progress::Progress,
    joined: &mut dyn FnMut(&build::Stage),
) -> Result<()> {
    let spec = game.spec();
    if largest_heap > budget.max_heap {
        return Err(Error::QuotientNotFound {
            game: spec,
            reason: format!(
                "the quotient of the heaps 0..={largest_heap} is above the limit of heap {}",
                budget.max_heap
            ),
            limit: Some("max_heap"),
        });
    }
    admit(game, budget)?;
    stage.meter.limit_to(budget.max_seconds);
    stage.meter.watch(progress);
    start(progress, budget);
    while stage.heaps() <= largest_heap {
        let heap = stage.heaps();
        if let Err(stuck) = stage.grow(game, budget) {
            progress.finish();
            return Err(stuck_error(&spec, heap, stuck, budget));
        }
        report(progress, stage, budget, heap);
        joined(stage);
    }
    progress.finish();
    Ok(())
}

/// Starts the progress of a search: its total is the budget's limit of estimated time, in
/// milliseconds.
fn start(progress: &dyn crate::progress::Progress, budget: &Budget) {
    progress.start("misère quotient", budget.max_seconds.saturating_mul(1000));
}

/// Reports the stage that has joined `heap`: the larger of the parts of its two limits spent
/// (the estimated time, the work of `WORK · max_states` states), the heap, the order and the
/// states so far.
fn report(progress: &dyn crate::progress::Progress, stage: &build::Stage, budget: &Budget, heap: u64) {
    let total = budget.max_seconds.saturating_mul(1000);
    let by_time = stage.meter.spent() / 1_000_000;
    let by_work =
        (stage.work() as f64 / budget.max_states.saturating_mul(cost::WORK) as f64 * total as f64) as u64;
    progress.set_position(by_time.max(by_work).min(total));
    progress.message(&format!(
        "heap {heap}, order {}, {} states, {} of estimated time",
        stage.order,
        stage.states,
        crate::error::Seconds(stage.meter.spent() as f64 / 1e9)
    ));
}

/// [`heaps_up_to`] through the process cache ([`Search::cached`]).
///
/// The construction of each game and budget is kept and grown as larger heaps are asked for,
/// with the quotient of every heap joined (up to [`PARTIAL_KEPT_BYTES`] of tables in all): play
/// asks for the quotients of the heaps up to each position's largest, in any order. A heap
/// where the construction stopped stops every larger one (the construction of `0..=n` passes
/// through that of `0..=m` for `m < n`, with the same work so far).
fn cached_heaps_up_to(
    game: &Game,
    largest_heap: u64,
    budget: &Budget,
    progress: &dyn crate::progress::Progress,
) -> Result<std::sync::Arc<Quotient>> {
    use std::collections::HashMap;
    use std::sync::{Arc, Mutex};
    type Known = HashMap<(Game, Budget), Growth>;
    static KNOWN: Mutex<Option<Known>> = Mutex::new(None);
    let spec = game.spec();
    if largest_heap > budget.max_heap {
        return heaps_up_to(game, largest_heap, budget, progress).map(Arc::new);
    }
    admit(game, budget)?;
    let key = (game.clone(), *budget);
    // Taken out of the table while it grows, so that other games are not held up.
    let taken = KNOWN.lock().ok().and_then(|mut k| k.get_or_insert_with(HashMap::new).remove(&key));
    let mut growth = taken.unwrap_or_else(|| {
        // The stage of the empty heap alone, kept at 0.
        let stage = build::Stage::start();
        let kept = vec![Some(Arc::new(snapshot(&stage, &spec, game, 0)))];
        Growth { stage, kept, bytes: 0, stuck: None }
    });
    let n = largest_heap as usize;
    let answer = match (growth.kept.get(n), &growth.stuck) {
        (Some(Some(q)), _) => Ok(q.clone()),
        (_, Some((heap, reason, limit))) if largest_heap >= *heap => {
            Err(Error::QuotientNotFound { game: spec.clone(), reason: reason.clone(), limit: *limit })
        }
        (Some(None), _) => heaps_up_to(game, largest_heap, budget, progress).map(Arc::new),
        (None, _) => {
            let Growth { stage, kept, bytes, stuck } = &mut growth;
            let mut answer = None;
            let grown = grow_to(stage, game, largest_heap, budget, progress, &mut |stage| {
                let heap = stage.heaps() - 1;
                let table = stage.order * stage.order * 4;
                let keep = *bytes + table <= PARTIAL_KEPT_BYTES;
                let q = (keep || heap == largest_heap).then(|| Arc::new(snapshot(stage, &spec, game, heap)));
                if keep {
                    *bytes += table;
                }
                if heap == largest_heap {
                    answer = q.clone();
                }
                kept.push(q.filter(|_| keep));
            });
            match grown {
                Ok(()) => Ok(answer.expect("the heap asked for was joined")),
                Err(e) => {
                    if let Error::QuotientNotFound { reason, limit, .. } = &e {
                        *stuck = Some((stage.heaps(), reason.clone(), *limit));
                    }
                    Err(e)
                }
            }
        }
    };
    if let Ok(mut k) = KNOWN.lock() {
        bounded(&mut k).insert(key, growth);
    }
    answer
}

/// The most bytes of tables [`cached_heaps_up_to`] keeps per game and budget.
pub const PARTIAL_KEPT_BYTES: usize = 64 << 20;

/// A construction kept by [`cached_heaps_up_to`].
struct Growth {
    stage: build::Stage,
    /// The quotient of the heaps `0..=n` at `n`, when kept.
    kept: Vec<Option<std::sync::Arc<Quotient>>>,
    bytes: usize,
    /// The heap where the construction stopped, and why.
    stuck: Option<(u64, String, Option<&'static str>)>,
}

/// The quotient of the heaps `0..=n` from the stage that has joined them.
fn snapshot(stage: &build::Stage, spec: &str, game: &Game, n: u64) -> Quotient {
    let mut q = Quotient {
        game: spec.to_string(),
        rules: game.clone(),
        order: stage.order,
        table: stage.table.clone(),
        lost: stage.lost.clone(),
        phi: stage.phi.clone(),
        preperiod: n + 1,
        period: 0,
        theorem: MisereTheorem::Heaps { largest_heap: n },
        states: stage.states,
    };
    present::relabel(&mut q, stage.identity);
    q
}

/// [`every_heap`] through the process cache ([`Search::cached`]).
fn cached_every_heap(
    game: &Game,
    budget: &Budget,
    progress: &dyn crate::progress::Progress,
) -> Result<std::sync::Arc<Quotient>> {
    use std::collections::HashMap;
    use std::sync::{Arc, Mutex};
    type Failure = (String, Option<&'static str>);
    type Known = HashMap<(Game, Budget), std::result::Result<Arc<Quotient>, Failure>>;
    static KNOWN: Mutex<Option<Known>> = Mutex::new(None);
    let key = (game.clone(), *budget);
    let known = |known: &Known| known.get(&key).cloned();
    let remembered = KNOWN.lock().map(|mut k| known(k.get_or_insert_with(HashMap::new))).unwrap_or(None);
    let found = match remembered {
        Some(found) => found,
        None => {
            let found = match every_heap(game, budget, progress) {
                Ok(q) => Ok(Arc::new(q)),
                Err(Error::QuotientNotFound { reason, limit, .. }) => Err((reason, limit)),
                Err(other) => return Err(other),
            };
            if let Ok(mut k) = KNOWN.lock() {
                bounded(&mut k).insert(key, found.clone());
            }
            found
        }
    };
    found.map_err(|(reason, limit)| Error::QuotientNotFound { game: game.spec(), reason, limit })
}

/// The smallest period of the images (and its preperiod) that the heaps joined cover up to the
/// theorem's window plus one period.
fn period_of(phi: &[u32], theorem: MisereTheorem) -> Option<(u64, u64)> {
    let last = phi.len() as u64 - 1;
    for p in 1..=last / 2 {
        // The smallest n0 with phi[n + p] = phi[n] for n0 <= n <= last − p.
        let mut n0 = last - p + 1;
        while n0 > 0 && phi[(n0 - 1) as usize] == phi[(n0 - 1 + p) as usize] {
            n0 -= 1;
        }
        if theorem.window(n0, p) + p <= last + 1 {
            return Some((n0, p));
        }
    }
    None
}

/// Checks the stage's candidate with the images extended with period `p` from `n0`: the heaps
/// below the theorem's window plus one period hold every type of heap ([`verify`]).
fn prove(
    game: &Game,
    stage: &build::Stage,
    theorem: MisereTheorem,
    n0: u64,
    p: u64,
    max_states: u64,
) -> std::result::Result<u64, verify::Failed> {
    let end = theorem.window(n0, p) + p;
    stage.meter.charge(cost::parts(end.saturating_mul(end)));
    let phi = |h: u64| stage.phi[if h < n0 { h } else { n0 + (h - n0) % p } as usize];
    let heaps: Vec<verify::HeapType> = (1..end)
        .map(|h| {
            let mut options = Vec::new();
            game.options(h, &mut |left| {
                options.push(left.iter().fold(stage.identity, |x, &g| stage.mul(x, phi(g))));
            });
            options.sort_unstable();
            options.dedup();
            verify::HeapType { heap: h, image: phi(h), options }
        })
        .collect();
    let table = verify::Table {
        order: stage.order,
        table: &stage.table,
        lost: &stage.lost,
        identity: stage.identity,
    };
    verify::check(&table, &verify::least_of_each_type(heaps), false, max_states, &stage.meter)
}
