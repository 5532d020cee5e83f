//! Grundy values and certified periodicity.
//!
//! Conventions: `G(0) = 0`; a game is *periodic* with preperiod `n0`, period `p` and saltus `s`
//! when `G(n + p) = G(n) + s` for every `n >= n0` (`s = 0`: ordinary periodicity; `s > 0`:
//! arithmetic periodicity). Reported preperiods and periods are the smallest; "last exception
//! at L" in the literature means preperiod `L + 1`. A period is reported only when a theorem
//! proves it from the values computed ([`Theorem`]); otherwise the answer is "no period found
//! within the limit".
//!
//! Methods ([`values`]): closed forms for nim and single-interval subtraction sets; a
//! sliding-window mex for subtraction sets made of runs and for all-but games (O(number of
//! runs of moves) per heap, however many moves); blocks gathered by SIMD for subtract-a-square
//! and scattered subtraction sets ([`block`](self) module docs); the sparse-space method for
//! octal games (exact for every mask, the mask re-chosen as values grow;
//! [`octal_values_plain`] is the O(n²) reference); a plain mex over the options for games of
//! the user's that declare nothing ([`values_of`] is that mex, the reference for all).
//! Values are stored in a byte each while they fit.
//!
//! Any [`HeapGame`] goes through the whole pipeline: a game of the user's that declares its
//! [`Structure`](crate::game::Structure) — a finite subtraction set, an octal code — has its
//! moves read from its options and gets the built-in engines and theorems.
//!
//! Period search ([`Search`], [`find_period`]): values are computed for a prefix that grows
//! up to the limit — a number of values, or by default an estimate of about 30 s of work
//! ([`Limit`]); on each prefix of up to 2^23 values the Z-function of the reversed values
//! gives, for every shift `p` at once, the smallest `n0` from which the prefix repeats with
//! shift `p`, and the smallest `p` whose theorem window fits in the prefix is the smallest
//! period, with that `n0` as preperiod. Longer prefixes are certified through candidate shifts
//! ([`shifts`](self) module docs), and the search stops as soon as a candidate's window is
//! covered.
//!
//! ```
//! use nimcount::game::Game;
//! use nimcount::grundy::{find_period, values};
//! use nimcount::progress::Silent;
//!
//! let kayles = Game::parse("octal:0.77").unwrap();
//! assert_eq!(values(&kayles, 8, &Silent).unwrap(), [0, 1, 2, 3, 1, 4, 3, 2]);
//! let search = find_period(&kayles, 10_000, &Silent).unwrap();
//! let certificate = search.certificate.as_ref().unwrap();
//! assert_eq!((certificate.preperiod, certificate.period, certificate.saltus), (71, 12, 0));
//! assert_eq!(search.value(1_000_000_000_000), Some(u128::from(search.values[71 + (1_000_000_000_000 - 71) % 12])));
//! ```

pub(crate) mod block;
pub(crate) mod cost;
pub(crate) mod engine;
pub(crate) mod hex;
pub(crate) mod mex;
pub(crate) mod octal;
pub(crate) mod period;
pub(crate) mod range;
pub(crate) mod resolve;
pub(crate) mod saltus;
pub(crate) mod search;
pub(crate) mod shifts;
pub(crate) mod sliding;
pub(crate) mod store;

use std::fmt;

pub use cost::Estimate;
pub use mex::{CountedMex, MexSet, mex};
pub use octal::values_plain as octal_values_plain;
pub use range::{
    DIRECT_SECONDS, MoreValues, RangeValues, Within, estimate_values, range_values, values_within,
};
pub use search::{DEFAULT_SECONDS, INFORMATIVE_VALUES, Limit, Search};

pub use range::values_within_on;

use crate::error::{Error, Result};
use crate::game::{Game, HeapGame, MoveSet};
use crate::progress::Progress;
use engine::Engine;
use resolve::{Resolved, resolve};
use store::{Store, Value, with_values};

/// The most heaps whose values may be computed in one call (2^32).
pub const MAX_HEAP: u64 = 1 << 32;

/// A number of values for octal games: 2^20 = 1 048 576 heaps, enough for every octal game
/// in the table of known periods (0.16 needs 509 622 values, 0.56 about 653 000).
pub const DEFAULT_MAX_HEAP: u64 = 1 << 20;

/// A fixed number of values that covers the games of the table of known periods, scaled to
/// the game (the command-line tool and [`Search::new`] bound a search by its estimated time
/// instead, [`Limit::default`]):
///
/// - octal games: [`DEFAULT_MAX_HEAP`];
/// - subtraction games: `4·s` for the largest move `s`, but never below 2^21 nor above 2^24
///   (a window certificate needs more than `2·s` values: `subtract:1-1000000` is proven
///   without its closed form within 2 000 001);
/// - all-but games, nim and games of the user's: 2^21;
/// - subtract-a-square: 2^16 (never periodic: its values are then only informative);
/// - hexadecimal games that leave three heaps: 2^14;
/// - Grundy's game: [`DEFAULT_MAX_HEAP`]; Lasker's Nim and take-a-fraction games: 2^21.
pub fn default_max_heap(game: &Game) -> u64 {
    match game {
        Game::Octal(_) | Game::GrundyGame => DEFAULT_MAX_HEAP,
        Game::Subtract(moves) => moves.largest().saturating_mul(4).clamp(1 << 21, 1 << 24),
        Game::Squares => 1 << 16,
        // Three-heap moves cost O(n · values) per heap: far fewer values.
        Game::Hex(_) => 1 << 14,
        Game::Nim | Game::AllBut(_) | Game::Custom(_) | Game::Lasker | Game::Fraction { .. } => 1 << 21,
    }
}

/// The theorem a periodicity certificate stands on.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum Theorem {
    /// Nim: `G(n) = n` (arithmetic-periodic with preperiod 0, period 1, saltus 1).
    Nim,
    /// Subtraction set `{a, a+1, …, b}`: `G(n) = ⌊(n mod (a + b)) / a⌋`, so preperiod 0 and
    /// period `a + b` (the smallest: the run of `a` zeros occurs once per period).
    SubtractionInterval {
        /// The smallest move `a`.
        first: u64,
        /// The largest move `b`.
        last: u64,
    },
    /// Finite subtraction set with largest move `s`: `G(n)` for `n >= s` depends only on the `s`
    /// previous values, so `G(n + p) = G(n)` for `n0 <= n < n0 + s` proves it for all `n >= n0`.
    SubtractionWindow {
        /// The largest move `s`.
        largest_move: u64,
    },
    /// Octal game with a splitting digit, last non-zero digit at `t`: `G(n + p) = G(n)` for
    /// `n0 <= n < 2·n0 + p + t` when `n0 >= 1`, or for `0 <= n < p + t + 1` when `n0 = 0`,
    /// proves it for all `n >= n0` (the textbook window `2·n0 + p + t` is false for `n0 = 0`).
    OctalSplitting {
        /// Position `t` of the last non-zero digit.
        last_digit: u64,
    },
    /// Octal game without splitting digits: `G(n + p) = G(n)` for
    /// `n0 <= n < max(n0 + t, t + 1)` proves it for all `n >= n0`.
    OctalNoSplitting {
        /// Position `t` of the last non-zero digit.
        last_digit: u64,
    },
    /// All-but game with largest excluded move `m`: with `M(q) = 1 + max G(0..q)`, the values
    /// of heaps `0..q` are exactly `0..M(q)`, so `G(q + m)` is the smallest value `>= M(q)` not
    /// among `G(q + m - k)`, `k <= m` allowed. Hence `G(n + p) = G(n) + s` for `q <= n < q + m`
    /// together with `M(q + p) = M(q) + s` (some `q >= 1`) proves it for all `n >= q`.
    AllButWindow {
        /// The largest excluded move `m`.
        largest_excluded: u64,
    },
    /// Lasker's Nim: `G(4k+1) = 4k+1`, `G(4k+2) = 4k+2`, `G(4k+3) = 4k+4`, `G(4k+4) = 4k+3`,
    /// so preperiod 1, period 4, saltus 4 (`G(0) = 0` is the exception): the classical
    /// induction on the heap (Winning Ways, chapter 4), checked in the tests against a plain mex
    /// over every option and split.
    Lasker,
    /// Hexadecimal game whose moves may leave three heaps, last non-zero digit at `t`:
    /// `G(n + p) = G(n)` for `n0 <= n < 3·n0 + 2p + t` (`n0 >= 1`), or for
    /// `0 <= n < 2p + t + 3` (`n0 = 0`, the window of `n0 = 1` checked from 0), proves it for
    /// all `n >= n0`.
    ///
    /// The octal splitting theorem generalised to moves that leave up to `k` heaps: the window
    /// is `k·n0 + (k − 1)·p + t`. Suppose `G(m + p) = G(m)` for `n0 <= m < N` with `N` at least
    /// the window; show it at `N`. An option of `N + p` takes `j <= t` and leaves `i <= k`
    /// non-empty heaps adding up to `N + p − j`. For `i = 1`, the heap `N + p − j` maps to
    /// `N − j >= n0` (as `N >= n0 + t`), of the same value by induction. For `i >= 2` its largest
    /// heap `x >= (N + p − t)/k >= n0 + p` (as `N >= k·n0 + (k − 1)·p + t`): replace it by
    /// `x − p`, which is `>= n0 >= 1` (still a heap) and `< N` (the other `i − 1 >= 1` heaps
    /// hold a stone each, `x <= N + p − j − 1`), so `G(x − p) = G(x)` by induction: an option
    /// of `N`, taking the same `j`, leaving the same number of heaps, of the same value.
    /// Conversely an option of `N` leaves heaps whose largest `y >= (N − t)/k >= n0` (or the one
    /// heap `N − j >= n0`); replacing it by `y + p` (`y < N`, so `G(y + p) = G(y)`) gives an
    /// option of `N + p` of the same value. Taking the whole heap needs `N <= t`, excluded as
    /// `N > t`. So both have the same option values and `G(N + p) = G(N)`. With `k = 2` this is
    /// the octal window `2·n0 + p + t`; here `k = 3`. When `n0 = 0` the step `x − p >= 1` can
    /// fail, so the window of `n0 = 1` is used, checked from 0 (`G(p) = G(0)` included).
    Hexadecimal {
        /// Position `t` of the last non-zero digit.
        last_digit: u64,
    },
    /// Hexadecimal game with a three-heap move, whose values are *flat* arithmetic-periodic:
    /// `G(n) = h(n) = ⌊max(0, n − n0)/p⌋` (so `G(n + p) = G(n) + 1` from `n0` on, saltus 1).
    /// Let `J3` be the takes of the three-heap moves, `j3 = min J3`, and `r = j3` when `p >= 2`,
    /// `r` the fewest take in `J3` of the other parity than `j3` when `p = 1` (there must be one).
    /// Hypotheses, all checked: every move taking `j` and leaving `i >= 2` heaps has
    /// `j + i·c >= n0 + p` with `c = min(n0, 1)`; every one-heap move takes at least `p` stones;
    /// for every `N` in `W1..W1 + p` (`W1 = n0 + p·(K + 1)`, `K = ⌊(r + 2)/p⌋`) and every `u`
    /// with `h(N) − K <= u < h(N)`, either `u` is reached by pairs (below) or some option of `N`
    /// is a heap `a >= n0` of value `u` beside heaps of fixed sizes whose values cancel (none, one
    /// of value 0, or two of equal values); when `n0 + p < 3`, for `N` in `W1..W1 + 2` some option
    /// is two equal heaps, or a heap of value 0 and two equal heaps. Then `G(n) = h(n)` for
    /// `n < W + p`, `W = max(W1, t + 1, j3 + 4, n0 + p)`, proves it for every `n`.
    ///
    /// Proof, by induction on `N >= W`, all smaller heaps having `G = h`. *No option has value
    /// `h(N)`*: a heap `x >= 1` has `h(x) <= (x − c)/p`, and a XOR is at most the sum, so a move
    /// taking `j` and leaving `i >= 2` heaps has a value at most `⌊(N − j − i·c)/p⌋ <= h(N) − 1`;
    /// a one-heap move takes `j >= p`, and `h(N − j) <= h(N − p) = h(N) − 1` (`N >= n0 + p`);
    /// taking the whole heap needs `N <= t < W`. *Every `u < h(N)` is an option's value*: equal
    /// heaps cancel, so an option `(j; a, b, b)`, `j` in `J3`, has value `h(a)` ("by pairs").
    /// For `u >= 1`, the block `n0 + u·p … n0 + u·p + p − 1` of the heaps of value `u` holds both
    /// parities when `p >= 2`: some `a <= n0 + u·p + 1` in it has `N − j3 − a` even; when `p = 1`,
    /// `a = n0 + u` and one of `j3`, `r` has the parity of `N − a`. Either way `b >= 1` when
    /// `n0 + u·p + 1 + r + 2 <= N` (`p >= 2`) or `n0 + u + r + 2 <= N` (`p = 1`), which fails
    /// only for `h(N) − u <= K`. For those, the check at `N − k·p` (in `W1..W1 + p`, where
    /// `h >= K + 1` keeps `u − k >= 1`) carries over: pairs reach `u − k` there exactly when they
    /// reach `u` at `N` (add `k·p` to `a`), and a witness moves up (its heap `a + k·p` has value
    /// `u`, the rest is unchanged). For `u = 0`: when `n0 + p >= 3`, heaps 1 and 2 both have
    /// value 0, so `(j3; a, b, b)` with `a` of either parity (`N >= j3 + 4`); else the checked
    /// option at `N − 2k` grows its equal heaps by `k`. So `G(N) = mex = h(N)`.
    ///
    /// This is the flat case of the arithmetic-periodicity tests for hexadecimal games (Howse
    /// and Nowakowski, *Theoretical Computer Science* 313 (2004)): `hex:0.8`, `hex:0.C`,
    /// `hex:0.48`, `hex:8.0`, `hex:0.0F`, `hex:0.FF` (`G(n) = n`) and many others. Saltus above 1,
    /// period 1 with three-heap takes of one parity, and splits that can reach the next value
    /// are not covered: such games are reported without a period. Octal codes have no
    /// three-heap move (and a finite octal game is never arithmetic-periodic).
    HexadecimalSaltus {
        /// Position `t` of the last non-zero digit.
        last_digit: u64,
        /// `j3`: the fewest stones a move leaving three heaps takes.
        three_heap_take: u64,
        /// `r`: the take the pairs argument reaches with (`j3` when `p >= 2`; when `p = 1`, the
        /// fewest take of a three-heap move of the other parity than `j3`).
        pairs_take: u64,
    },
}

impl Theorem {
    /// A short identifier: `nim`, `subtraction-interval`, `subtraction-window`,
    /// `octal-splitting`, `octal-no-splitting`, `all-but-window`, `lasker`, `hexadecimal`,
    /// `hexadecimal-saltus`.
    pub fn id(&self) -> &'static str {
        match self {
            Theorem::Nim => "nim",
            Theorem::SubtractionInterval { .. } => "subtraction-interval",
            Theorem::SubtractionWindow { .. } => "subtraction-window",
            Theorem::OctalSplitting { .. } => "octal-splitting",
            Theorem::OctalNoSplitting { .. } => "octal-no-splitting",
            Theorem::AllButWindow { .. } => "all-but-window",
            Theorem::Lasker => "lasker",
            Theorem::Hexadecimal { .. } => "hexadecimal",
            Theorem::HexadecimalSaltus { .. } => "hexadecimal-saltus",
        }
    }

    /// For the window theorems: the end `W` of the range `n0 <= n < W` over which
    /// `G(n + p) = G(n) + s` must be checked (values up to `W + p - 1` are needed). `None` for
    /// closed forms.
    pub fn window(&self, preperiod: u64, period: u64) -> Option<u64> {
        let (n0, p) = (preperiod, period);
        match *self {
            Theorem::Nim | Theorem::SubtractionInterval { .. } | Theorem::Lasker => None,
            Theorem::SubtractionWindow { largest_move: s } => Some(n0.saturating_add(s)),
            Theorem::OctalSplitting { last_digit: t } => Some(if n0 >= 1 {
                n0.saturating_mul(2).saturating_add(p).saturating_add(t)
            } else {
                p.saturating_add(t).saturating_add(1)
            }),
            Theorem::OctalNoSplitting { last_digit: t } => Some(n0.saturating_add(t).max(t + 1)),
            Theorem::AllButWindow { largest_excluded: m } => Some(n0.max(1).saturating_add(m)),
            // 3·n0 + 2p + t, with n0 = 1 standing for n0 = 0.
            Theorem::Hexadecimal { last_digit: t } => {
                Some(n0.max(1).saturating_mul(3).saturating_add(p.saturating_mul(2)).saturating_add(t))
            }
            Theorem::HexadecimalSaltus { last_digit: t, three_heap_take: j3, pairs_take: r } => {
                Some(saltus::window(t, j3, r, n0, p))
            }
        }
    }
}

impl fmt::Display for Theorem {
    /// A one-line statement of the theorem.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Theorem::Nim => write!(f, "nim: G(n) = n for every n"),
            Theorem::SubtractionInterval { first: a, last: b } => write!(
                f,
                "subtraction set {{{a}..{b}}} (one interval): G(n) = floor((n mod {}) / {a}) for every n",
                u128::from(a) + u128::from(b)
            ),
            Theorem::SubtractionWindow { largest_move: s } => write!(
                f,
                "finite subtraction set, largest move s = {s}: G(n+p) = G(n) for s consecutive n from n0 \
                 proves it for all n >= n0"
            ),
            Theorem::OctalSplitting { last_digit: t } => write!(
                f,
                "octal game with splitting moves, t = {t}: G(n+p) = G(n) for n0 <= n < 2*n0+p+t (n0 >= 1) \
                 or n < p+t+1 (n0 = 0) proves it for all n >= n0"
            ),
            Theorem::OctalNoSplitting { last_digit: t } => write!(
                f,
                "octal game without splitting moves, t = {t}: G(n+p) = G(n) for n0 <= n < max(n0+t, t+1) \
                 proves it for all n >= n0"
            ),
            Theorem::AllButWindow { largest_excluded: m } => write!(
                f,
                "all-but game, largest excluded move m = {m}: G(n+p) = G(n)+s for m consecutive n from \
                 q >= 1 and max G(0..q+p) = max G(0..q) + s prove it for all n >= q"
            ),
            Theorem::Lasker => write!(
                f,
                "Lasker's nim: G(4k+1) = 4k+1, G(4k+2) = 4k+2, G(4k+3) = 4k+4, G(4k+4) = 4k+3 for every k >= 0"
            ),
            Theorem::Hexadecimal { last_digit: t } => write!(
                f,
                "hexadecimal game leaving up to three heaps, t = {t}: G(n+p) = G(n) for n0 <= n < 3*n0+2p+t \
                 (n0 >= 1) or n < 2p+t+3 (n0 = 0) proves it for all n >= n0"
            ),
            Theorem::HexadecimalSaltus { last_digit: t, three_heap_take: j3, pairs_take: r } => write!(
                f,
                "hexadecimal game with a three-heap move, j3 = {j3}, r = {r}, t = {t}: G(n) = \
                 floor(max(0, n-n0)/p) for n < W+p, W = max(n0+p*(floor((r+2)/p)+1), t+1, j3+4), with the \
                 conditions checked on the moves (splits below the next value, one-heap moves of p or more, \
                 witnesses of the top values), proves it for all n"
            ),
        }
    }
}

/// A proven periodicity: `G(n + period) = G(n) + saltus` for every `n >= preperiod`,
/// with `preperiod` and `period` the smallest such values.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Certificate {
    /// Smallest `n0` from which the rule holds ("last exception at n0 - 1").
    pub preperiod: u64,
    /// Smallest period `p >= 1`.
    pub period: u64,
    /// Added every period (0 for an ordinary period).
    pub saltus: u64,
    /// The theorem that proves the rule from the values computed.
    pub theorem: Theorem,
}

/// The outcome of a period search.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PeriodSearch {
    /// The game searched: its specification, or the name of a game of the user's.
    pub game: String,
    /// `G(0)`, `G(1)`, …: with a certificate, the values of the preperiod and one period
    /// (every other value follows from them; fewer for a closed form whose period is beyond
    /// the limit, [`value`](Self::value) needs none); without one, every value computed.
    pub values: Vec<u32>,
    /// The largest value computed (for a one-interval subtraction set, the largest of all,
    /// saturated at `u32::MAX`).
    pub max_value: u32,
    /// The certificate, or `None` when no period was proven within the limit.
    pub certificate: Option<Certificate>,
    /// How many values were computed (or produced by a closed form): `G(0)` …
    /// `G(checked_upto − 1)`.
    pub checked_upto: u64,
    /// True when a theorem shows the game is never periodic (subtract a square: its losing
    /// positions are infinitely many but have density 0; take at most half: `G(2n) = n` grows
    /// without bound).
    pub never_periodic: bool,
    /// Without a certificate: the shift the last values repeat with, from its preperiod, and
    /// the values its theorem window needs to prove it (long searches only).
    pub candidate: Option<Candidate>,
    /// Without a certificate, for a game that may be periodic: a larger limit to try, and what
    /// it would cost.
    pub suggestion: Option<Suggestion>,
    /// True when a limit by estimated time was ended by a clock, not by the estimate: the
    /// estimate was off for this game or this machine, and the values computed may differ
    /// from one machine to another ([`Limit::Seconds`]).
    pub stopped_by_clock: bool,
}

/// A shift the computed values repeat with, not yet proven.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Candidate {
    /// `G(n + period) = G(n)` for every computed `n >= preperiod`.
    pub preperiod: u64,
    /// The shift.
    pub period: u64,
    /// The values the theorem needs to prove it: `G(0)` … `G(needed − 1)`.
    pub needed: u64,
}

/// A larger limit for a search that found no period.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Suggestion {
    /// The number of values to try: `G(0)` … `G(max_heap − 1)` (where a candidate's window
    /// ends, when there is one; else four times as many values, rounded).
    pub max_heap: u64,
    /// What computing them would take, from the rate of the last values (they grow costlier).
    pub estimate: Estimate,
}

impl Eq for Suggestion {}

impl PeriodSearch {
    /// `G(n)` for any `n`: from the values computed, or through the certificate. `None` when
    /// `n` is beyond the values computed and no period was proven (or on overflow of `u128`).
    pub fn value(&self, n: u128) -> Option<u128> {
        if let Some(&v) = usize::try_from(n).ok().and_then(|i| self.values.get(i)) {
            return Some(u128::from(v));
        }
        let c = self.certificate.as_ref()?;
        match c.theorem {
            Theorem::Nim => return Some(n),
            Theorem::SubtractionInterval { first, last } => {
                return Some((n % (u128::from(first) + u128::from(last))) / u128::from(first));
            }
            _ => {}
        }
        let (n0, p) = (u128::from(c.preperiod), u128::from(c.period));
        let base = self.values.get(usize::try_from(n0 + (n - n0) % p).ok()?)?;
        u128::from(c.saltus).checked_mul((n - n0) / p)?.checked_add(u128::from(*base))
    }
}

/// `G(n)` for any `n` of a game whose values have a closed form: nim (`G(n) = n`), a
/// one-interval subtraction set `a..=b` (`⌊(n mod (a + b))/a⌋`), Lasker's Nim and take at most
/// half (`n >> (t + 1)` for `t` trailing one bits); `None` for the other games.
///
/// ```
/// use nimcount::game::Game;
/// use nimcount::grundy::closed_form_value;
/// use num_bigint::BigUint;
/// let huge = BigUint::from(10u32).pow(30);
/// let lasker = Game::parse("lasker")?;
/// assert_eq!(closed_form_value(&lasker, &(&huge + 3u32)), Some(&huge + 4u32));
/// let half = Game::parse("fraction:1/2")?;
/// assert_eq!(closed_form_value(&half, &23u32.into()), Some(1u32.into())); // 23 = 1_0111₂: G = 1
/// assert_eq!(closed_form_value(&Game::parse("kayles")?, &huge), None);
/// # Ok::<(), nimcount::Error>(())
/// ```
pub fn closed_form_value(game: &Game, n: &num_bigint::BigUint) -> Option<num_bigint::BigUint> {
    match game {
        Game::Nim => Some(n.clone()),
        Game::Subtract(moves) if moves.runs().len() == 1 => {
            let (a, b) = (moves.smallest(), moves.largest());
            Some((n % (u128::from(a) + u128::from(b))) / a)
        }
        Game::Lasker => Some(match n.iter_u32_digits().next().unwrap_or(0) % 4 {
            3 => n + 1u8,
            0 if n.bits() > 0 => n - 1u8,
            _ => n.clone(),
        }),
        Game::Fraction { numerator: 1, denominator: 2 } => {
            // Trailing ones of n = trailing zeros of n + 1.
            let t = (n + 1u8).trailing_zeros().expect("n + 1 > 0");
            Some(n >> (t + 1))
        }
        _ => None,
    }
}

/// Refuses counts beyond [`MAX_HEAP`] or the memory available, before allocating.
pub(crate) fn check_heaps(count: u64, bytes_per_heap: u64, what: &'static str) -> Result<()> {
    if count > MAX_HEAP {
        return Err(Error::TooManyHeaps { what, count: u128::from(count), limit: MAX_HEAP });
    }
    crate::memory::ensure_fits(|| format!("{what} for {count} heaps"), count.saturating_mul(bytes_per_heap))
}

/// `G(0)`, …, `G(count - 1)` of any heap game, by the fastest method for it: closed forms
/// for nim and single-interval subtraction sets, a sliding-window mex for subtraction sets made
/// of runs and for all-but games, blocks gathered by SIMD (on every core of rayon's pool) for
/// subtract-a-square and scattered subtraction sets, the sparse-space method for octal games,
/// a plain mex over the options for a game of the user's that declares nothing.
///
/// Fails when `count` is beyond [`MAX_HEAP`] or memory, when a move does not shrink the heap,
/// or when the game declares a structure its options contradict.
///
/// ```
/// use nimcount::game::Game;
/// use nimcount::grundy::values;
/// use nimcount::progress::Silent;
/// // Dawson's chess (0.137): the values of OEIS A002187.
/// let dawson = Game::parse("octal:0.137")?;
/// assert_eq!(values(&dawson, 10, &Silent)?, [0, 1, 1, 2, 0, 3, 1, 1, 0, 3]);
/// # Ok::<(), nimcount::Error>(())
/// ```
pub fn values(game: &dyn HeapGame, count: u64, progress: &dyn Progress) -> Result<Vec<u32>> {
    check_heaps(count, 8, "Grundy values")?;
    let resolved = resolve(game)?;
    let store = compute(&resolved, count, true, true, progress)?;
    Ok(store.to_u32(store.len()))
}

/// `G(0..count)` into a compact store, reporting progress by values (`parallel: false`: no
/// rayon call).
pub(crate) fn compute(
    resolved: &Resolved<'_>,
    count: u64,
    closed_forms: bool,
    parallel: bool,
    progress: &dyn Progress,
) -> Result<Store> {
    let engine = Engine::new(resolved, closed_forms).parallel(parallel);
    let store = engine.store();
    compute_from(engine, store, count, progress)
}

/// `G(0..count)`, continuing an engine from the values already in `store`.
fn compute_from(
    mut engine: Engine<'_>,
    mut store: Store,
    count: u64,
    progress: &dyn Progress,
) -> Result<Store> {
    store.reserve((count as usize).saturating_sub(store.len()));
    progress.start("Grundy values", count);
    while (store.len() as u64) < count {
        let at = store.len() as u64;
        let next = (at + (count / 64).clamp(1 << 14, 1 << 20)).min(count);
        // Values that cost much report inside the chunk too: a cancelling progress acts there.
        engine.extend_pulsed(&mut store, next as usize, &mut || {
            progress.set_position(at);
            false
        })?;
        progress.set_position(next);
    }
    progress.finish();
    Ok(store)
}

/// `G(0)`, …, `G(count - 1)` of any heap game, by a plain mex over all its options: the
/// reference every faster method is tested against.
///
/// Fails when an option leaves a heap that is not smaller than the heap moved from.
pub fn values_of(game: &dyn HeapGame, count: u64, progress: &dyn Progress) -> Result<Vec<u32>> {
    check_heaps(count, 8, "Grundy values")?;
    progress.start("Grundy values", count);
    let mut values: Vec<u32> = Vec::with_capacity(count as usize);
    let mut seen = MexSet::new();
    for n in 0..count {
        let mut bad = None;
        game.options(n, &mut |heaps| {
            let mut x = 0;
            for &h in heaps {
                match values.get(h as usize) {
                    Some(&g) if h < n => x ^= g,
                    _ => {
                        bad = Some(h);
                        return;
                    }
                }
            }
            seen.insert(x);
        });
        if let Some(h) = bad {
            return Err(engine::not_smaller(game, n, h));
        }
        values.push(seen.mex());
        seen.clear();
        if n.is_multiple_of(1 << 16) {
            progress.set_position(n);
        }
    }
    progress.finish();
    Ok(values)
}

/// Searches for a certified period of any heap game, computing at most `max_heap` values
/// `G(0)` … `G(max_heap − 1)` (fewer when a period is proven earlier; the prefix grows
/// geometrically). Closed forms are used where they exist, whatever the limit.
///
/// `max_heap` also bounds the period that can be reported: a certificate needs the values of
/// at least one preperiod and one period. Fails when `max_heap` exceeds [`MAX_HEAP`] or the
/// memory the search could need is not available (checked before allocating). [`Search`]
/// offers the default limit by estimated time, and progress reports.
///
/// ```
/// use nimcount::game::Game;
/// use nimcount::grundy::{Theorem, find_period};
/// use nimcount::progress::Silent;
/// let search = find_period(&Game::parse("subtract:1,3,4")?, 1000, &Silent)?;
/// let c = search.certificate.expect("proven");
/// assert_eq!((c.preperiod, c.period, c.saltus), (0, 7, 0));
/// assert_eq!(c.theorem, Theorem::SubtractionWindow { largest_move: 4 });
/// # Ok::<(), nimcount::Error>(())
/// ```
pub fn find_period(game: &dyn HeapGame, max_heap: u64, progress: &dyn Progress) -> Result<PeriodSearch> {
    Search::new().limit(Limit::Heaps(max_heap)).progress(progress).run(game)
}

/// [`find_period`] without closed forms: every value comes from a mex and every certificate
/// from a window theorem. Slower; for cross-checks.
pub fn find_period_general(
    game: &dyn HeapGame,
    max_heap: u64,
    progress: &dyn Progress,
) -> Result<PeriodSearch> {
    Search::new().limit(Limit::Heaps(max_heap)).closed_forms(false).progress(progress).run(game)
}

/// Proves the smallest period and preperiod from `values = G(0..N)` of `game`, by the window
/// theorem of its class ([`Theorem`]; never a closed form). `None` when no period is proven
/// within these values.
///
/// The values must be the game's: the proof is only as good as they are.
///
/// ```
/// use nimcount::game::Game;
/// use nimcount::grundy::certify;
/// // 0.4 starts 0, 0, 0, 1: three zeros do not prove period 1 (the textbook window would).
/// let game = Game::parse("octal:0.4").unwrap();
/// assert_eq!(certify(&game, &[0, 0, 0]), None);
/// ```
pub fn certify(game: &dyn HeapGame, values: &[u32]) -> Option<Certificate> {
    match resolve(game).ok()? {
        Resolved::Game(game) => certify_values(&game, values),
        _ => None,
    }
}

/// [`certify`] on stored values.
pub(crate) fn certify_store(game: &Game, store: &Store) -> Option<Certificate> {
    with_values!(store, v => certify_values(game, v))
}

fn certify_values<T: Value>(game: &Game, values: &[T]) -> Option<Certificate> {
    match game {
        Game::Nim => Some(Certificate { preperiod: 0, period: 1, saltus: 1, theorem: Theorem::Nim }),
        Game::Squares | Game::Custom(_) | Game::GrundyGame | Game::Fraction { .. } => None,
        Game::Lasker => Some(Certificate { preperiod: 1, period: 4, saltus: 4, theorem: Theorem::Lasker }),
        Game::Hex(code) => certify_plain(values, Theorem::Hexadecimal { last_digit: code.last_digit() })
            .or_else(|| saltus::certify(code, values)),
        Game::Subtract(moves) => {
            certify_plain(values, Theorem::SubtractionWindow { largest_move: moves.largest() })
        }
        Game::Octal(code) => {
            let t = code.last_digit();
            let theorem = if code.splits() {
                Theorem::OctalSplitting { last_digit: t }
            } else {
                Theorem::OctalNoSplitting { last_digit: t }
            };
            certify_plain(values, theorem)
        }
        Game::AllBut(excluded) => certify_all_but(values, excluded),
    }
}

/// Ordinary periodicity (saltus 0) under a window theorem.
pub(crate) fn certify_plain<T: Value>(values: &[T], theorem: Theorem) -> Option<Certificate> {
    let n = values.len() as u64;
    if n < 2 {
        return None;
    }
    let tails = period::tails(values);
    let (q, p) = (1..n).find_map(|p| {
        let n0 = u64::from(tails[p as usize]);
        let window = theorem.window(n0, p)?;
        (window.saturating_add(p) <= n).then_some((n0, p))
    })?;
    // The first proven shift is already the smallest period with its exact preperiod;
    // `minimise` re-derives both from the proven tail as a cross-check.
    let seq = |x: u64| if x < n { values[x as usize] } else { values[(q + (x - q) % p) as usize] };
    let (preperiod, period) = period::minimise(seq, q, p);
    debug_assert_eq!((preperiod, period), (q, p));
    Some(Certificate { preperiod, period, saltus: 0, theorem })
}

/// Arithmetic periodicity of an all-but game (see [`Theorem::AllButWindow`]).
///
/// `G(n + p) - G(n)` is constant from `n0` on exactly when the differences
/// `Δ(n) = G(n + 1) - G(n)` are `p`-periodic from `n0`: the shifts come from the Z-function
/// of the differences, then the state condition on `M` is looked for at some `q >= n0`.
fn certify_all_but<T: Value>(values: &[T], excluded: &MoveSet) -> Option<Certificate> {
    let n = values.len() as u64;
    if n < 3 {
        return None;
    }
    let m = excluded.largest();
    let g = |x: u64| i64::from(values[x as usize].into());
    let delta: Vec<i64> =
        values.windows(2).map(|w| i64::from(w[1].into()) - i64::from(w[0].into())).collect();
    let tails = period::tails(&delta);
    // top[q] = M(q) = 1 + max G(0..q).
    let mut top = Vec::with_capacity(values.len() + 1);
    top.push(0i64);
    for &v in values {
        top.push(top.last().copied().unwrap_or(0).max(i64::from(v.into()) + 1));
    }
    let (q, p, s) = (1..n - 1).find_map(|p| {
        let q0 = u64::from(tails[p as usize]).max(1);
        let last = n.checked_sub(m.checked_add(p)?)?;
        if q0 > last {
            return None;
        }
        let s = g(q0 + p) - g(q0);
        (q0..=last).find(|&q| top[(q + p) as usize] == top[q as usize] + s).map(|q| (q, p, s))
    })?;
    // Extend G beyond the prefix by the proven rule, and minimise on the differences.
    let value = |x: u64| if x < n { g(x) } else { g(q + (x - q) % p) + s * ((x - q) / p) as i64 };
    let (preperiod, period) = period::minimise(|x| value(x + 1) - value(x), q, p);
    let saltus = value(preperiod + period) - value(preperiod);
    Some(Certificate {
        preperiod,
        period,
        saltus: saltus as u64,
        theorem: Theorem::AllButWindow { largest_excluded: m },
    })
}
