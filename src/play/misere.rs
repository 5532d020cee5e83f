//! Misère play of any heap games: whoever makes the last move loses.
//!
//! Misère outcomes do not follow from the Grundy values in general. Four ways are used, the
//! first that applies:
//!
//! - **Nim** (every heap a Nim heap): lost when some heap has two stones or more and the XOR is
//!   0, or when every heap has at most one stone and their number is odd
//!   ([`Position::misere_nim`]).
//! - **Binary positions**: every heap, and every smaller heap of its game, has Grundy value 0
//!   or 1. Then the position is lost exactly when the XOR of the values is 1 (an odd number of
//!   value-1 heaps), and every move of a won position wins. Proof, by induction over the
//!   positions reachable (they are binary too, since moves leave smaller heaps): with an odd
//!   number of value-1 heaps some heap has value 1, so a move exists, and every move replaces a
//!   heap of value `g` by heaps whose values XOR to `g ⊕ 1` (an option never has the heap's own
//!   value), which flips the parity: the opponent faces an even number, a win by induction.
//!   With an even number and no move, the player to move has won (misère). With an even number
//!   and a move, every move flips the parity to odd, lost for the opponent.
//! - **Quotients**: the game's misère quotient of every heap size when it is found
//!   ([`crate::misere::Search`]), else the quotient of its heaps `0..=n` for the position's
//!   largest heap `n` when `n` is small ([`crate::misere::Search::heaps`]): lost when the
//!   product of the heaps' elements lies in the P-portion; every option of a heap is judged
//!   the same way.
//! - **Search**: the outcome of every position reachable, memoised over sorted multisets of
//!   heaps (a heap is a game and a size; heaps without options are dropped, as they never
//!   move). Each heap's options are those of its game ([`HeapGame::options`]), splits included.
//!   The positions reachable are bounded beforehand (multisets of heaps whose total is at most
//!   the position's, or for games whose moves leave one smaller heap, `Π (h_i + 1)` per game),
//!   and a position whose bound passes the limit is refused with [`Error::MisereTooLarge`]
//!   before any search; the search also stops at the limit.

use std::collections::HashMap;

use num_bigint::BigUint;
use num_traits::{ToPrimitive, Zero};

use super::position::Position;
use super::rules::Rules;
use super::{Move, Verdict};
use crate::error::{Bytes, Error, Estimate, Result};
use crate::game::{Game, HeapGame};
use crate::memory;

/// The most positions a misère search visits by default (about 100 MB of memo at most).
pub const MISERE_MAX_POSITIONS: u64 = 1_000_000;

/// The most moves a misère search examines (a move from a position to one of its options, each
/// a sort and a table look-up): seconds, not minutes (`allbut:1 4000`, 8·10^6 moves and a bound
/// of 1.6·10^7, takes 6 s and 190 MB on the release binary of a loaded 2-core machine).
pub const MISERE_MAX_MOVES: u64 = 20_000_000;

/// The most winning moves a [`MiserePosition`] keeps (its count is exact): above the 100 000
/// that `play --all` lists.
pub const MISERE_KEPT_MOVES: usize = 1 << 17;

/// The largest heap whose game is checked for Grundy values 0 and 1 below it (binary positions).
const BINARY_MAX_HEAP: u64 = 1 << 22;

/// How a misère verdict was found.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum MisereRule {
    /// Misère Nim's rule.
    Nim,
    /// Every heap and every smaller heap of its game has value 0 or 1: lost when the XOR is 1.
    Binary,
    /// The game's misère quotient ([`crate::misere`]): lost when the product of the heaps'
    /// elements lies in its P-portion.
    Quotient {
        /// The quotient's order.
        order: usize,
        /// The preperiod of the heaps' elements.
        preperiod: u64,
        /// Their period.
        period: u64,
    },
    /// The misère quotient of the game's heaps `0..=largest_heap`, the position's largest heap
    /// ([`crate::misere::Search::heaps`]): lost when the product of the heaps' elements lies
    /// in its P-portion.
    PartialQuotient {
        /// The quotient's order.
        order: usize,
        /// The largest heap of the quotient.
        largest_heap: u64,
    },
    /// A memoised search that visited this many positions.
    Search {
        /// The positions whose outcome was found.
        positions: u64,
    },
}

/// A position of heap games in misère play, each heap with the rules of its own game: its
/// verdict and every winning move (the module `play::misere` says how).
///
/// ```
/// use nimcount::game::Game;
/// use nimcount::play::{MisereRule, MiserePosition, Rules, Verdict};
/// use nimcount::progress::Silent;
///
/// // Dawson's Kayles (octal:0.07) heaps of 4 and 5: no quotient of every heap size is known,
/// // that of its heaps 0..=5 judges them.
/// let dawson = Rules::for_game(&Game::parse("octal:0.07")?, &5u32.into(), None, &Silent)?;
/// let position = MiserePosition::new([(&dawson, 4u32), (&dawson, 5)], 1_000_000)?;
/// assert!(matches!(position.rule(), MisereRule::PartialQuotient { largest_heap: 5, .. }));
/// // Subtract 2 (values 0, 0, 1, 1, 0, 0, …): binary, lost with one value-1 heap.
/// let two = Rules::for_game(&Game::parse("subtract:2")?, &1000u32.into(), None, &Silent)?;
/// let position = MiserePosition::new([(&two, 3u32), (&two, 1000)], 1_000_000)?;
/// assert_eq!((position.rule(), position.verdict()), (MisereRule::Binary, Verdict::Lost));
/// # Ok::<(), nimcount::Error>(())
/// ```
#[derive(Debug)]
pub struct MiserePosition {
    heaps: Vec<BigUint>,
    grundy: Option<Vec<BigUint>>,
    verdict: Verdict,
    rule: MisereRule,
    /// The winning moves, the first [`MISERE_KEPT_MOVES`] of them at most, and how many
    /// there are.
    moves: Vec<Move>,
    count: Option<BigUint>,
}

impl MiserePosition {
    /// Judges the heaps, each with its rules, searching at most `max_positions` positions
    /// when no closed form applies (refused beyond: [`Error::MisereTooLarge`]).
    pub fn new<'r, T: Into<BigUint>>(
        heaps: impl IntoIterator<Item = (&'r Rules<'r>, T)>,
        max_positions: u64,
    ) -> Result<Self> {
        Self::within(heaps, max_positions, &PLAY_BUDGET)
    }

    /// [`MiserePosition::new`] with the quotients tried before the search built within `budget`
    /// instead of [`PLAY_BUDGET`] (a larger `max_states` reaches larger quotients of the heaps
    /// `0..=n`: Dawson's Kayles' heaps `0..=30`, order 360, take `max_states: 10^6`).
    pub fn within<'r, T: Into<BigUint>>(
        heaps: impl IntoIterator<Item = (&'r Rules<'r>, T)>,
        max_positions: u64,
        budget: &crate::misere::Budget,
    ) -> Result<Self> {
        let (rules, heaps): (Vec<&Rules>, Vec<BigUint>) =
            heaps.into_iter().map(|(r, h)| (r, h.into())).unzip();
        heaps.iter().try_for_each(super::check_heap)?;
        let grundy: Option<Vec<BigUint>> = heaps.iter().zip(&rules).map(|(h, r)| r.value(h)).collect();
        if rules.iter().all(|r| r.is_nim()) {
            let nim = Position::misere_nim(heaps.clone());
            let (verdict, moves) = (nim.verdict(), nim.winning_moves().collect::<Vec<_>>());
            let count = Some(moves.len().into());
            return Ok(MiserePosition { heaps, grundy, verdict, rule: MisereRule::Nim, moves, count });
        }
        // Binary when the largest heap of each game is (every smaller heap then is too).
        let mut largest: Vec<(&Rules, &BigUint)> = Vec::new();
        for (h, r) in heaps.iter().zip(&rules) {
            match largest.iter_mut().find(|(s, _)| std::ptr::eq(*s, *r)) {
                Some((_, top)) => *top = (*top).max(h),
                None => largest.push((r, h)),
            }
        }
        let all_binary = largest.iter().all(|(r, h)| binary(r, h));
        if let Some(values) = grundy.as_ref().filter(|_| all_binary) {
            let xor = values.iter().fold(BigUint::zero(), |x, g| x ^ g);
            let verdict = Verdict::lost_if(!xor.is_zero());
            let (mut moves, mut count, mut bytes) = (Vec::new(), Some(BigUint::zero()), 0u64);
            if verdict == Verdict::Won {
                // Every option has the other value; every move wins. Splits of large heaps are
                // counted by the values their parts reach, and the first ones kept.
                for (i, ((h, r), g)) in heaps.iter().zip(&rules).zip(values).enumerate() {
                    let options = r.options_to(h, &(g ^ BigUint::from(1u8)));
                    count = count.zip(options.count()).map(|(total, c)| total + c);
                    for to in options {
                        let m = Move::single(i, h.clone(), to);
                        bytes = bytes.saturating_add(m.bytes());
                        if moves.len() >= MISERE_KEPT_MOVES || bytes > super::MAX_LIST_BYTES / 4 {
                            break;
                        }
                        moves.push(m);
                    }
                }
            }
            let rule = MisereRule::Binary;
            return Ok(MiserePosition { heaps, grundy, verdict, rule, moves, count });
        }
        if let Some(found) =
            by_quotient(&heaps, &rules, budget).or_else(|| by_partial_quotient(&heaps, &rules, budget))
        {
            let (verdict, rule, moves, count) = found;
            return Ok(MiserePosition { heaps, grundy, verdict, rule, moves, count: Some(count) });
        }
        // One game per distinct name; each heap as (index of its game, size).
        let mut names: Vec<String> = Vec::new();
        let mut games: Vec<&dyn HeapGame> = Vec::new();
        let mut tagged = Vec::with_capacity(heaps.len());
        for (h, r) in heaps.iter().zip(&rules) {
            let name = r.name();
            let game = names.iter().position(|g| *g == name).unwrap_or_else(|| {
                names.push(name);
                games.push(r.heap_game());
                games.len() - 1
            });
            let too_large = || Error::MisereTooLarge { positions: Estimate(None), limit: max_positions };
            tagged.push((game, h.to_u64().ok_or_else(too_large)?));
        }
        let mut search = MisereSearch::new(games, max_positions);
        let (verdict, moves) = search.judge(&tagged)?;
        let rule = MisereRule::Search { positions: search.memo.len() as u64 };
        let count = Some(moves.len().into());
        Ok(MiserePosition { heaps, grundy, verdict, rule, moves, count })
    }

    /// The heaps.
    pub fn heaps(&self) -> &[BigUint] {
        &self.heaps
    }

    /// Each heap's normal-play Grundy value in its game, when every heap has a known one.
    pub fn grundy(&self) -> Option<&[BigUint]> {
        self.grundy.as_deref()
    }

    /// Won or lost for the player to move.
    pub fn verdict(&self) -> Verdict {
        self.verdict
    }

    /// How the verdict was found.
    pub fn rule(&self) -> MisereRule {
        self.rule
    }

    /// Every winning move, heap by heap (none when the position is lost, or when it is won
    /// because no move is left): the first [`MISERE_KEPT_MOVES`] of them (and at most 64 MiB)
    /// when there are more; [`winning_move_count`](Self::winning_move_count) says how many.
    pub fn winning_moves(&self) -> &[Move] {
        &self.moves
    }

    /// How many winning moves there are, exactly; `None` when not every option of some heap is
    /// known (the splits of heaps of Lasker's Nim beyond 65536 stones).
    pub fn winning_move_count(&self) -> Option<&BigUint> {
        self.count.as_ref()
    }
}

/// The budget of the quotient that play tries before its search, once per game and process: a
/// fraction of a second for a game whose quotient is not found (the construction stops at heap
/// 200 or order 500, a proof at 50 000 states).
pub const PLAY_BUDGET: crate::misere::Budget =
    crate::misere::Budget { max_heap: 200, max_order: 500, max_states: 50_000, max_seconds: 60 };

/// The verdict, rule, winning moves and their count from the game's misère quotient, when every
/// heap is of one built-in game whose quotient is found within `budget` ([`PLAY_BUDGET`] by
/// default).
fn by_quotient(
    heaps: &[BigUint],
    rules: &[&Rules],
    budget: &crate::misere::Budget,
) -> Option<(Verdict, MisereRule, Vec<Move>, BigUint)> {
    let game = rules.first()?.heap_game().builtin()?;
    if rules.iter().any(|r| r.heap_game().builtin() != Some(game)) {
        return None;
    }
    let q = crate::misere::Search::new(game).budget(*budget).cached().run().ok()?;
    let elements: Vec<usize> = heaps.iter().map(|h| q.element(h)).collect::<Result<_>>().ok()?;
    let product = elements.iter().fold(0, |x, &e| q.mul(x, e));
    let verdict = Verdict::lost_if(q.in_p(product));
    let mut moves = Vec::new();
    let mut count = BigUint::zero();
    for (i, h) in heaps.iter().enumerate() {
        let rest = elements.iter().enumerate().filter(|&(j, _)| j != i).fold(0, |x, (_, &e)| q.mul(x, e));
        let room = MISERE_KEPT_MOVES.saturating_sub(moves.len());
        let (listed, all) = crate::misere::winning_options(&q, h, rest, room).ok()?;
        count += all;
        moves.extend(listed.into_iter().map(|to| Move::single(i, h.clone(), to)));
    }
    let rule = MisereRule::Quotient { order: q.order(), preperiod: q.preperiod(), period: q.period() };
    Some((verdict, rule, moves, count))
}

/// The largest heap of a position judged by the quotient of its game's heaps `0..=n`
/// ([`by_partial_quotient`]): that quotient is built in a fraction of a second within
/// [`PLAY_BUDGET`] (Lasker's Nim's heaps `0..=64`: order 130, a quarter of a second) or given up.
const PARTIAL_MAX_HEAP: u64 = 64;

/// The verdict, rule, winning moves and their count from the misère quotient of the heaps
/// `0..=n` of the game, `n` the position's largest heap, when every heap is of one game, `n` is
/// at most [`PARTIAL_MAX_HEAP`] and the quotient is built within `budget`. Every
/// option of a heap is a position of heaps below it, so each is judged by the same quotient.
fn by_partial_quotient(
    heaps: &[BigUint],
    rules: &[&Rules],
    budget: &crate::misere::Budget,
) -> Option<(Verdict, MisereRule, Vec<Move>, BigUint)> {
    let game = rules.first()?.heap_game().builtin()?;
    if rules.iter().any(|r| r.heap_game().builtin() != Some(game)) {
        return None;
    }
    let sizes: Vec<u64> = heaps.iter().map(|h| h.to_u64()).collect::<Option<_>>()?;
    let largest = sizes.iter().copied().max().unwrap_or(0);
    if largest > PARTIAL_MAX_HEAP {
        return None;
    }
    let q = crate::misere::Search::new(game).heaps(largest).budget(*budget).cached().run().ok()?;
    let elements: Vec<usize> = sizes.iter().map(|&h| q.element_u64(h)).collect::<Result<_>>().ok()?;
    let product = elements.iter().fold(0, |x, &e| q.mul(x, e));
    let verdict = Verdict::lost_if(q.in_p(product));
    let mut moves = Vec::new();
    for (i, &h) in sizes.iter().enumerate() {
        let rest = elements.iter().enumerate().filter(|&(j, _)| j != i).fold(0, |x, (_, &e)| q.mul(x, e));
        let mut options: Vec<Vec<u64>> = Vec::new();
        game.options(h, &mut |left| {
            let mut left = left.to_vec();
            left.retain(|&g| g > 0);
            left.sort_unstable();
            options.push(left);
        });
        options.sort_unstable();
        options.dedup();
        for left in options {
            // Options are heaps below `h`, which the quotient covers.
            let after = left.iter().try_fold(rest, |x, &g| q.element_u64(g).map(|e| q.mul(x, e))).ok()?;
            if q.in_p(after) {
                moves.push(Move::single(i, h.into(), left.into_iter().map(BigUint::from).collect()));
            }
        }
    }
    let count = BigUint::from(moves.len());
    let rule = MisereRule::PartialQuotient { order: q.order(), largest_heap: largest };
    Some((verdict, rule, moves, count))
}

/// Whether a heap of `n` and every smaller heap of its game have Grundy value 0 or 1.
fn binary(rules: &Rules, n: &BigUint) -> bool {
    let Some(n) = n.to_u64().filter(|&n| n <= BINARY_MAX_HEAP) else { return false };
    (0..=n).all(|m| rules.value(&m.into()).is_some_and(|g| g <= BigUint::from(1u8)))
}

/// A heap of a position: the game's index and the size.
type Heap = (usize, u64);

/// Memoised misère outcomes of the positions of some heap games: sorted multisets of heaps,
/// heaps without options dropped.
pub struct MisereSearch<'g> {
    games: Vec<&'g dyn HeapGame>,
    max_positions: u64,
    /// The most bytes the search may hold: the memory available when it was made.
    max_bytes: u64,
    /// The moves examined so far, and the bytes held (an estimate from the entries, see
    /// [`SearchCost`]).
    moves: u64,
    bytes: u64,
    /// Lost (`true`) or won, per position.
    memo: HashMap<Vec<Heap>, bool>,
    /// The options of each heap, each as its sorted heaps with options.
    options: HashMap<Heap, HeapOptions>,
    /// Whether each heap has no option.
    dead: HashMap<Heap, bool>,
}

/// The options of one heap, each as its sorted heaps with options, laid end to end in one
/// vector (one allocation per heap, not one per option).
#[derive(Debug, Default)]
struct HeapOptions {
    heaps: Vec<Heap>,
    /// Where each option ends in `heaps`.
    ends: Vec<usize>,
}

impl HeapOptions {
    fn len(&self) -> usize {
        self.ends.len()
    }

    fn get(&self, i: usize) -> &[Heap] {
        let start = if i == 0 { 0 } else { self.ends[i - 1] };
        &self.heaps[start..self.ends[i]]
    }
}

impl std::fmt::Debug for MisereSearch<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("MisereSearch").field("positions", &self.memo.len()).finish()
    }
}

impl<'g> MisereSearch<'g> {
    /// The games of the position (for the tests of the internals).
    #[cfg(feature = "internals")]
    #[doc(hidden)]
    pub fn games(&self) -> &[&'g dyn HeapGame] {
        &self.games
    }

    /// The moves generated so far, and the bytes held (for the tests of the internals).
    #[cfg(feature = "internals")]
    #[doc(hidden)]
    pub fn spent(&self) -> (u64, u64) {
        (self.moves, self.bytes)
    }

    /// A search over heaps of `games` (a heap names its game by index), visiting at most
    /// `max_positions` positions and [`MISERE_MAX_MOVES`] moves in all, within the memory
    /// available now ([`memory::available`]).
    pub fn new(games: Vec<&'g dyn HeapGame>, max_positions: u64) -> Self {
        MisereSearch {
            games,
            max_positions,
            max_bytes: memory::available().unwrap_or(u64::MAX),
            moves: 0,
            bytes: 0,
            memo: HashMap::new(),
            options: HashMap::new(),
            dead: HashMap::new(),
        }
    }

    /// Whether the position of these heaps `(game, size)` (the game's index in the search's
    /// games) is lost for the player to move in misère play; refused before the search when its
    /// positions reachable may be more than the limit ([`Error::MisereTooLarge`]), its moves
    /// more than [`MISERE_MAX_MOVES`] ([`Error::MisereTooLong`]) or its tables more than the
    /// memory available ([`Error::OutOfMemory`]), and during the search when it gets there.
    ///
    /// ```
    /// use nimcount::game::Game;
    /// use nimcount::play::MisereSearch;
    /// // Kayles (octal:0.77): a row of 1 is lost in misère play (you must take the last pin);
    /// // rows of 1 and 2 are won (take both pins of the row of 2).
    /// let kayles = Game::parse("octal:0.77")?;
    /// let mut search = MisereSearch::new(vec![&kayles], 1000);
    /// assert!(search.is_lost(&[(0, 1)])?);
    /// assert!(!search.is_lost(&[(0, 1), (0, 2)])?);
    /// # Ok::<(), nimcount::Error>(())
    /// ```
    pub fn is_lost(&mut self, heaps: &[(usize, u64)]) -> Result<bool> {
        let position = self.normal_form(heaps.iter().copied());
        self.check_estimate(&position)?;
        self.lost(position)
    }

    /// The verdict of the position and its winning moves (heaps numbered as given).
    fn judge(&mut self, heaps: &[Heap]) -> Result<(Verdict, Vec<Move>)> {
        let position = self.normal_form(heaps.iter().copied());
        self.check_estimate(&position)?;
        let mut moves = Vec::new();
        for (i, &(game, n)) in heaps.iter().enumerate() {
            if heaps[..i].contains(&(game, n)) {
                // The same options as an equal heap before it, from another heap.
                let first = heaps.iter().position(|&h| h == (game, n)).expect("seen");
                let same: Vec<Move> = moves
                    .iter()
                    .filter(|m: &&Move| m.changes[0].heap == first)
                    .map(|m| Move::single(i, m.changes[0].from.clone(), m.changes[0].to.clone()))
                    .collect();
                moves.extend(same);
                continue;
            }
            let mut raw: Vec<Vec<u64>> = Vec::new();
            self.games[game].options(n, &mut |left| {
                let mut left = left.to_vec();
                left.retain(|&h| h > 0);
                left.sort_unstable();
                raw.push(left);
            });
            raw.sort_unstable();
            raw.dedup();
            for left in raw {
                let mut rest = position.clone();
                if let Some(at) = rest.iter().position(|&h| h == (game, n)) {
                    rest.remove(at);
                }
                let child = self.normal_form(rest.into_iter().chain(left.iter().map(|&h| (game, h))));
                if self.lost(child)? {
                    let to = left.into_iter().map(BigUint::from).collect();
                    moves.push(Move::single(i, n.into(), to));
                }
            }
        }
        // Lost when some heap can move and no move wins; with no move at all, won (the
        // opponent made the last move).
        let verdict = Verdict::lost_if(!position.is_empty() && moves.is_empty());
        Ok((verdict, moves))
    }

    /// The sorted heaps that have options.
    pub(crate) fn normal_form(&mut self, heaps: impl Iterator<Item = Heap>) -> Vec<Heap> {
        let mut position: Vec<Heap> = heaps.filter(|&h| !self.is_dead(h)).collect();
        position.sort_unstable();
        position
    }

    /// Whether a heap has no option.
    fn is_dead(&mut self, heap: Heap) -> bool {
        let games = &self.games;
        *self.dead.entry(heap).or_insert_with(|| {
            let mut any = false;
            games[heap.0].options(heap.1, &mut |_| any = true);
            !any
        })
    }

    /// The options of a heap, cached: each as its sorted heaps that have options.
    fn heap_options(&mut self, heap: Heap) -> Result<&HeapOptions> {
        if !self.options.contains_key(&heap) {
            let (game, n) = heap;
            let mut raw: Vec<Vec<u64>> = Vec::new();
            self.games[game].options(n, &mut |left| raw.push(left.to_vec()));
            let mut options: Vec<Vec<Heap>> = raw
                .into_iter()
                .map(|left| self.normal_form(left.into_iter().filter(|&h| h > 0).map(|h| (game, h))))
                .collect();
            options.sort_unstable();
            options.dedup();
            let mut flat = HeapOptions {
                heaps: Vec::with_capacity(options.iter().map(Vec::len).sum()),
                ends: Vec::with_capacity(options.len()),
            };
            for option in options {
                flat.heaps.extend_from_slice(&option);
                flat.ends.push(flat.heaps.len());
            }
            self.grow(
                SearchCost::HEAP + SearchCost::OPTION * flat.len() as u64 + 16 * flat.heaps.len() as u64,
            )?;
            self.options.insert(heap, flat);
        }
        Ok(&self.options[&heap])
    }

    /// Counts `bytes` more held by the search; refused beyond the memory it may use.
    fn grow(&mut self, bytes: u64) -> Result<()> {
        self.bytes = self.bytes.saturating_add(bytes);
        if self.bytes > self.max_bytes {
            return Err(Error::OutOfMemory {
                what: "the misère search of this position".into(),
                needed: Bytes(self.bytes),
                available: Bytes(self.max_bytes),
            });
        }
        Ok(())
    }

    /// Refuses a position whose positions reachable may number more than the limit, whose
    /// moves may number more than [`MISERE_MAX_MOVES`], or whose tables may not fit in the
    /// memory left to the search.
    fn check_estimate(&self, position: &[Heap]) -> Result<()> {
        let bound = reachable_bound(position, &self.games);
        if bound > u128::from(self.max_positions) {
            let positions = Estimate((bound < u128::MAX).then_some(bound));
            return Err(Error::MisereTooLarge { positions, limit: self.max_positions });
        }
        let cost = SearchCost::of(position, &self.games, bound);
        if cost.moves > u128::from(MISERE_MAX_MOVES.saturating_sub(self.moves)) {
            return Err(Error::MisereTooLong { moves: Some(cost.moves), limit: MISERE_MAX_MOVES });
        }
        if cost.bytes > u128::from(self.max_bytes.saturating_sub(self.bytes)) {
            return Err(Error::OutOfMemory {
                what: format!(
                    "the misère search of this position (up to {bound} positions and {} moves)",
                    cost.moves
                ),
                needed: Bytes(u64::try_from(cost.bytes).unwrap_or(u64::MAX)),
                available: Bytes(self.max_bytes.saturating_sub(self.bytes)),
            });
        }
        Ok(())
    }

    /// The misère outcome of a position in normal form, by a depth-first search with an
    /// explicit stack (positions may be reached through long chains of moves).
    fn lost(&mut self, start: Vec<Heap>) -> Result<bool> {
        if let Some(&lost) = self.memo.get(&start) {
            return Ok(lost);
        }
        /// A position being judged: its next option to try (heap index, option index).
        struct Frame {
            position: Vec<Heap>,
            heap: usize,
            option: usize,
        }
        let mut stack = vec![Frame { position: start.clone(), heap: 0, option: 0 }];
        while let Some(frame) = stack.last_mut() {
            let position = &frame.position;
            // The next option, skipping heaps equal to the one before (same options).
            let mut child = None;
            while frame.heap < position.len() {
                let heap = position[frame.heap];
                let same_as_before = frame.heap > 0 && position[frame.heap - 1] == heap;
                let count = if same_as_before { 0 } else { self.heap_options(heap)?.len() };
                if frame.option < count {
                    let option = self.options[&heap].get(frame.option);
                    let mut next: Vec<Heap> = Vec::with_capacity(position.len() + option.len());
                    next.extend_from_slice(&position[..frame.heap]);
                    next.extend_from_slice(&position[frame.heap + 1..]);
                    next.extend_from_slice(option);
                    next.sort_unstable();
                    child = Some(next);
                    self.moves += 1;
                    break;
                }
                frame.heap += 1;
                frame.option = 0;
            }
            match child {
                Some(next) => match self.memo.get(&next) {
                    // A move to a lost position: this one is won.
                    Some(true) => {
                        let done = stack.pop().expect("a frame");
                        self.remember(done.position, false)?;
                    }
                    Some(false) => frame.option += 1,
                    None => {
                        if self.memo.len() as u64 + stack.len() as u64 >= self.max_positions {
                            return Err(Error::MisereTooLarge {
                                positions: Estimate(None),
                                limit: self.max_positions,
                            });
                        }
                        if self.moves > MISERE_MAX_MOVES {
                            return Err(Error::MisereTooLong { moves: None, limit: MISERE_MAX_MOVES });
                        }
                        stack.push(Frame { position: next, heap: 0, option: 0 });
                    }
                },
                None => {
                    // Every option won for the opponent: lost, unless there was no move at all
                    // (the empty position, after dropping heaps without options): won.
                    let done = stack.pop().expect("a frame");
                    let lost = !done.position.is_empty();
                    self.remember(done.position, lost)?;
                }
            }
        }
        Ok(self.memo[&start])
    }

    /// Memoises the outcome of a position.
    fn remember(&mut self, position: Vec<Heap>, lost: bool) -> Result<()> {
        self.grow(SearchCost::POSITION + 16 * position.len() as u64)?;
        self.memo.insert(position, lost);
        Ok(())
    }
}

/// What a search from a position costs at most: the moves it examines and the bytes of its
/// tables. A bound for the built-in games whose moves leave one smaller heap (the options of a
/// smaller heap are at most one more than those of the largest); for the others an estimate
/// (twice the options of the largest heap per heap), which the search checks as it goes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SearchCost {
    pub moves: u128,
    pub bytes: u128,
}

impl SearchCost {
    /// Bytes of a memoised position besides its heaps (16 bytes each): its slot in the table
    /// (the key's vector and the verdict, 32 bytes, at a load between 7/16 and 7/8, and the
    /// table's old and new slots side by side while it grows), the allocator's header of its
    /// vector, and the frame that held it on the search's stack.
    const POSITION: u64 = 160;
    /// Bytes of a heap whose options are cached besides them: its slots in the tables of options
    /// and of heaps without options, and the headers of its two vectors.
    const HEAP: u64 = 320;
    /// Bytes of a cached option besides its heaps (16 bytes each): where it ends.
    const OPTION: u64 = 8;

    /// The cost of a search from `position` (in normal form) whose positions reachable are at
    /// most `positions`.
    pub fn of(position: &[Heap], games: &[&dyn HeapGame], positions: u128) -> SearchCost {
        let (mut moves_per_position, mut heaps_per_position, mut cache) = (0u128, 0u128, 0u128);
        for (g, game) in games.iter().enumerate() {
            let sizes: Vec<u64> = position.iter().filter(|h| h.0 == g).map(|h| h.1).collect();
            let Some(&largest) = sizes.iter().max() else { continue };
            let (mut options, mut width) = (0u128, 1u128);
            game.options(largest, &mut |left| {
                options += 1;
                width = width.max(left.len() as u128);
            });
            let (per_heap, heaps) = if leaves_one_smaller_heap(*game) {
                (options + 1, sizes.len() as u128)
            } else {
                // Splits: at most one heap per stone.
                (2 * options + 1, sizes.iter().map(|&h| u128::from(h)).sum())
            };
            moves_per_position = moves_per_position.saturating_add(heaps.saturating_mul(per_heap));
            heaps_per_position = heaps_per_position.saturating_add(heaps);
            // Every heap reachable is at most the largest.
            let per_option = u128::from(Self::OPTION) + 16 * width;
            let cached = (u128::from(largest) + 1)
                .saturating_mul(u128::from(Self::HEAP).saturating_add(per_heap.saturating_mul(per_option)));
            cache = cache.saturating_add(cached);
        }
        let position_bytes =
            u128::from(Self::POSITION).saturating_add(16u128.saturating_mul(heaps_per_position));
        SearchCost {
            moves: positions.saturating_mul(moves_per_position),
            bytes: positions.saturating_mul(position_bytes).saturating_add(cache),
        }
    }
}

/// An upper bound on the positions reachable from `position`: per game, the multisets of heaps
/// whose total is at most the game's total (moves never add stones), or for games whose moves
/// leave one smaller heap, `Π (h + 1)` over its heaps; the product over the games.
pub fn reachable_bound(position: &[Heap], games: &[&dyn HeapGame]) -> u128 {
    let mut bound = 1u128;
    for (g, game) in games.iter().enumerate() {
        let sizes: Vec<u64> = position.iter().filter(|h| h.0 == g).map(|h| h.1).collect();
        if sizes.is_empty() {
            continue;
        }
        let total: u64 = sizes.iter().fold(0u64, |s, &h| s.saturating_add(h));
        let mut own = multisets_up_to(total);
        if leaves_one_smaller_heap(*game) {
            let product = sizes.iter().fold(1u128, |p, &h| p.saturating_mul(u128::from(h) + 1));
            own = own.min(product);
        }
        bound = bound.saturating_mul(own);
    }
    bound
}

/// Whether every move of the game leaves at most one heap, smaller than before: Nim,
/// subtraction, all-but and square games, take at most a fraction, octal games without
/// splitting digits.
fn leaves_one_smaller_heap(game: &dyn HeapGame) -> bool {
    match game.builtin() {
        Some(Game::Nim | Game::Subtract(_) | Game::AllBut(_) | Game::Squares | Game::Fraction { .. }) => true,
        Some(Game::Octal(code)) => !code.splits(),
        _ => false,
    }
}

/// The number of multisets of positive integers with sum at most `total` (`Σ_{t <= total} p(t)`,
/// p the partition numbers), saturated at `u128::MAX`; totals beyond 10 000 saturate at once.
pub fn multisets_up_to(total: u64) -> u128 {
    if total > 10_000 {
        return u128::MAX;
    }
    let total = total as usize;
    let mut p = vec![0u128; total + 1];
    p[0] = 1;
    for part in 1..=total {
        for t in part..=total {
            p[t] = p[t].saturating_add(p[t - part]);
        }
    }
    p.iter().fold(0u128, |s, &x| s.saturating_add(x))
}
