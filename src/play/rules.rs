//! What a move may do to one heap, and the Grundy values that judge the result.

use num_bigint::BigUint;
use num_integer::Integer;
use num_traits::{CheckedSub, One, ToPrimitive, Zero};

use crate::error::{Error, Result};
use crate::game::{Game, HeapGame};
use crate::game::{PeriodicLabels, Splits};
use crate::grundy::{self, Certificate, RangeValues, Theorem};
use crate::progress::Progress;

/// The options of single heaps and their Grundy values, for [`Position`](super::Position) and
/// [`Staircase`](super::Staircase).
///
/// - [`Rules::nim`]: Nim, heaps of any size (`G(n) = n`; the winning move is `n → n ⊕ xor`).
/// - [`Rules::new`]: any [`HeapGame`] (your own, or a built-in [`Game`]) with its values
///   `G(0), …, G(L − 1)` from [`grundy::values_of`] or [`grundy::values`]: heaps below `L`.
/// - [`Rules::for_game`]: a built-in game with what it needs computed. Subtraction games and
///   octal games without splitting moves take a bounded number of stones, so with a proven
///   period they accept heaps of any size; the other games compute their values up to the
///   largest heap.
///
/// ```
/// use nimcount::game::Game;
/// use nimcount::play::{Position, Rules, Verdict};
/// use nimcount::progress::Silent;
///
/// // Remove 1, 3 or 4 stones: the values repeat with period 7, so a heap of 10^30 is fine.
/// let game = Game::parse("subtract:1,3,4")?;
/// let rules = Rules::for_game(&game, &10u32.pow(6).into(), None, &Silent)?;
/// let position = Position::new(&rules, [10u128.pow(30), 5])?;
/// // 10^30 ≡ 1 (mod 7) and 5: values 1 and 3.
/// assert_eq!(position.xor().to_string(), "2");
/// assert_eq!(position.verdict(), Verdict::Won);
/// # Ok::<(), nimcount::Error>(())
/// ```
pub struct Rules<'g> {
    source: Source<'g>,
}

pub enum Source<'g> {
    Nim,
    Custom { game: &'g dyn HeapGame, values: &'g [u32] },
    Builtin(Box<Builtin>),
}

/// A built-in game with the values it needs: `G(0..values.len())`, and how larger heaps get
/// theirs.
pub struct Builtin {
    pub game: Game,
    pub values: Vec<u32>,
    pub beyond: Beyond,
    /// For heaps beyond `values` (only with a period): the numbers of stones a move may take,
    /// as runs `first..=last`, each move leaving one heap.
    pub takes: Vec<(u64, u64)>,
}

/// How heaps beyond the stored values get theirs.
pub enum Beyond {
    /// They have none: refused.
    Unknown,
    /// A proven period; `values` holds the preperiod and one period, and is reduced into.
    Period(Certificate),
    /// A closed form ([`grundy::closed_form_value`]); no value is stored.
    ClosedForm,
}

/// Heaps of a game with a closed form up to this size have their options enumerated one by one
/// (a heap of `n` has up to `n` options); larger ones are answered from the form.
const ENUMERATED: u64 = 1 << 16;

/// The most steps of a staircase a closed form lists from one step (a one-interval subtraction
/// set `a..=b` may have up to `a` winning moves from a step).
const LISTED_PER_HEAP: u64 = 1000;

/// At large heaps of Lasker's Nim, the splits listed are those whose smaller heap is at most
/// this (every take is listed, and the splits `1 + (4k+2)` that some heaps need are among them).
const LASKER_SPLITS: u64 = 64;

/// Rules for Nim, shared by every misère Nim position.
pub static NIM: Rules<'static> = Rules { source: Source::Nim };

impl Rules<'static> {
    /// Nim: remove any positive number of stones; heaps of any size.
    pub fn nim() -> Rules<'static> {
        Rules { source: Source::Nim }
    }

    /// The rules of a built-in game for heaps up to `largest` stones, with its values found as
    /// a count finds them ([`grundy::range_values`]): a closed form, a proven period, else the
    /// values up to `largest` computed directly. `max_heap`: the most values computed; `None`,
    /// the default limits of a count (a period search of about 30 s of estimated work, direct
    /// values up to about a minute), refused with the estimate beyond them.
    ///
    /// Heaps of any size are answered for the games with a closed form (nim, one-interval
    /// subtraction sets `a..=b`, Lasker's Nim, take at most half) and for every game with a
    /// proven period, splitting games included: only the preperiod and one period are stored,
    /// and a heap's value is read off them. Games without either (subtract-a-square, Grundy's
    /// game, other fractions, games whose period search found nothing) have their values
    /// computed up to `largest`.
    ///
    /// The winning moves of a heap beyond the stored values are every one, counted exactly
    /// ([`Position::winning_move_count`](super::Position::winning_move_count)) and listed as
    /// far as asked: the heaps a move leaves of the value needed (a one-interval subtraction
    /// set: at most two runs of heaps; an all-but game: at most one heap per class of its
    /// arithmetic period, the values growing by the saltus); the splits into two or three
    /// heaps by the values their parts must reach over the period ([`Splits`]: every split
    /// whose smaller part lies in one class of the period has the same value), however large
    /// the heap. Lasker's Nim lists its splits whose smaller heap is at most 64, and states no
    /// count.
    pub fn for_game(
        game: &Game,
        largest: &BigUint,
        max_heap: Option<u64>,
        progress: &dyn Progress,
    ) -> Result<Rules<'static>> {
        if *game == Game::Nim {
            return Ok(Rules::nim());
        }
        if grundy::closed_form_value(game, largest).is_some() {
            let builtin = Builtin {
                game: game.clone(),
                values: Vec::new(),
                beyond: Beyond::ClosedForm,
                takes: Vec::new(),
            };
            return Ok(Rules { source: Source::Builtin(Box::new(builtin)) });
        }
        let (values, beyond) = match grundy::range_values(game, largest, max_heap, true, progress)? {
            RangeValues::Direct(values) => (values, Beyond::Unknown),
            RangeValues::Period(search) => match search.certificate {
                Some(certificate) => (search.values, Beyond::Period(certificate)),
                None => (search.values, Beyond::Unknown),
            },
        };
        let takes = match beyond {
            Beyond::Period(_) => bounded_takes(game),
            _ => Vec::new(),
        };
        let builtin = Builtin { game: game.clone(), values, beyond, takes };
        Ok(Rules { source: Source::Builtin(Box::new(builtin)) })
    }
}

impl<'g> Rules<'g> {
    /// What the rules are read from (for the tests of the internals).
    #[cfg(feature = "internals")]
    #[doc(hidden)]
    pub fn source(&self) -> &Source<'g> {
        &self.source
    }

    /// Rules read from `source` (for the tests of the internals).
    #[cfg(feature = "internals")]
    #[doc(hidden)]
    pub fn from_source(source: Source<'g>) -> Self {
        Rules { source }
    }

    /// The rules of any heap game, with its values `values[n] = G(n)` for the heaps `n` below
    /// `values.len()` (as [`grundy::values_of`] computes them).
    ///
    /// ```
    /// use nimcount::game::HeapGame;
    /// use nimcount::grundy::values_of;
    /// use nimcount::play::{Position, Rules};
    /// use nimcount::progress::Silent;
    ///
    /// /// Take one stone, or halve an even heap into two equal heaps.
    /// struct Halves;
    /// impl HeapGame for Halves {
    ///     fn options(&self, n: u64, option: &mut dyn FnMut(&[u64])) {
    ///         if n >= 1 {
    ///             if n == 1 { option(&[]) } else { option(&[n - 1]) }
    ///         }
    ///         if n >= 2 && n % 2 == 0 {
    ///             option(&[n / 2, n / 2]);
    ///         }
    ///     }
    ///     fn name(&self) -> String {
    ///         "halves".into()
    ///     }
    /// }
    ///
    /// let values = values_of(&Halves, 11, &Silent)?;
    /// let rules = Rules::new(&Halves, &values);
    /// let position = Position::new(&rules, [10u32, 3])?;
    /// for m in position.winning_moves() {
    ///     println!("{m}");
    /// }
    /// assert!(Position::new(&rules, [11u32]).is_err()); // no value computed for 11
    /// # Ok::<(), nimcount::Error>(())
    /// ```
    pub fn new(game: &'g dyn HeapGame, values: &'g [u32]) -> Rules<'g> {
        Rules { source: Source::Custom { game, values } }
    }

    /// The game's name.
    pub fn name(&self) -> String {
        match &self.source {
            Source::Nim => "nim".into(),
            Source::Custom { game, .. } => game.name(),
            Source::Builtin(b) => b.game.spec(),
        }
    }

    /// Whether these are the rules of Nim.
    pub fn is_nim(&self) -> bool {
        matches!(self.source, Source::Nim)
            || matches!(&self.source, Source::Builtin(b) if b.game == Game::Nim)
    }

    /// The moves of one heap, as a game (for searches that need every option).
    pub(super) fn heap_game(&self) -> &dyn HeapGame {
        static NIM_GAME: Game = Game::Nim;
        match &self.source {
            Source::Nim => &NIM_GAME,
            Source::Custom { game, .. } => *game,
            Source::Builtin(b) => &b.game,
        }
    }

    /// The smallest heap that has no known value, or `None` when every heap has one.
    pub fn limit(&self) -> Option<u64> {
        match &self.source {
            Source::Nim => None,
            Source::Custom { values, .. } => Some(values.len() as u64),
            Source::Builtin(b) => matches!(b.beyond, Beyond::Unknown).then_some(b.values.len() as u64),
        }
    }

    /// The Grundy value of a heap of `n` stones, `None` beyond the values known.
    pub fn value(&self, n: &BigUint) -> Option<BigUint> {
        match &self.source {
            Source::Nim => Some(n.clone()),
            Source::Custom { values, .. } => small(n).and_then(|n| values.get(n)).map(|&g| g.into()),
            Source::Builtin(b) => b.value(n),
        }
    }

    /// The value, or an error naming the heap and the range that is known.
    pub(super) fn value_or_error(&self, n: &BigUint) -> Result<BigUint> {
        self.value(n).ok_or_else(|| Error::HeapBeyondValues {
            heap: crate::error::quote(&n.to_string()),
            game: self.name(),
            limit: self.limit().unwrap_or(0),
            why: String::new(),
        })
    }

    /// Every option of a heap of `n` stones whose value is `target`, each as its non-empty heaps
    /// in increasing order; distinct, sorted. (Tests and small heaps: the splits of a large heap
    /// may be far too many to collect; [`options_to`](Self::options_to) counts them.)
    pub(crate) fn options_with_value(&self, n: &BigUint, target: &BigUint) -> Vec<Vec<BigUint>> {
        let mut found: Vec<Vec<BigUint>> = self.options_to(n, target).into_iter().collect();
        found.sort_unstable();
        found
    }

    /// The options of a heap of `n` stones whose value is `target`, each as its non-empty heaps
    /// in increasing order, each once: those found one by one first (sorted), then the splits
    /// of a heap beyond the stored values, family by family, found by the values their parts
    /// must reach ([`Splits`]).
    pub(crate) fn options_to(&self, n: &BigUint, target: &BigUint) -> TargetOptions<'_> {
        let mut options = TargetOptions {
            listed: Vec::new(),
            runs: Vec::new(),
            splits: Vec::new(),
            scans: Vec::new(),
            complete: true,
        };
        let found = &mut options.listed;
        match &self.source {
            Source::Nim => {
                if target < n {
                    found.push(super::non_empty([target.clone()]));
                }
            }
            Source::Custom { game, .. } => self.small_options(*game, n, target, found),
            Source::Builtin(b) if b.enumerates(n) => self.small_options(&b.game, n, target, found),
            Source::Builtin(b) => b.large_options(n, target, &mut options),
        }
        for heaps in &mut options.listed {
            heaps.sort_unstable();
        }
        options.listed.sort_unstable();
        options.listed.dedup();
        options
    }

    /// Options of a heap whose values are all known (`n < values.len()`).
    fn small_options(
        &self,
        game: &dyn HeapGame,
        n: &BigUint,
        target: &BigUint,
        found: &mut Vec<Vec<BigUint>>,
    ) {
        let Some(n) = n.to_u64() else { return };
        let target = target.to_u64();
        game.options(n, &mut |left| {
            let mut x = Some(0u64);
            for &h in left {
                let g = if h < n { self.value(&h.into()).and_then(|g| g.to_u64()) } else { None };
                x = x.zip(g).map(|(x, g)| x ^ g);
            }
            if x.is_some() && x == target {
                let mut heaps: Vec<BigUint> = left.iter().filter(|&&h| h > 0).map(|&h| h.into()).collect();
                heaps.sort_unstable();
                found.push(heaps);
            }
        });
    }

    /// The numbers of stones `k` that a move may take from a heap of `n`, for which
    /// `G(base + k) = target`: the coins that, moved from a staircase step of `n` coins onto the
    /// step below holding `base`, give that step the value `target`. Increasing.
    pub(super) fn takes_to_value(&self, n: &BigUint, base: &BigUint, target: &BigUint) -> Vec<BigUint> {
        let mut found = Vec::new();
        let mut check = |k: BigUint| {
            if self.value(&(base + &k)).as_ref() == Some(target) {
                found.push(k);
            }
        };
        match &self.source {
            Source::Nim => {
                if target > base && target - base <= *n {
                    check(target - base);
                }
            }
            Source::Custom { game, .. } => take_options(*game, n, &mut check),
            Source::Builtin(b) => match small(n).filter(|_| b.enumerates(n)) {
                Some(_) => take_options(&b.game, n, &mut check),
                None if matches!(b.beyond, Beyond::ClosedForm) => {
                    // A one-interval subtraction set a..=b (the other closed forms are no
                    // take-away games): the steps base + k, a <= k <= min(b, n).
                    if let Game::Subtract(moves) = &b.game {
                        let (a, last) = (moves.smallest(), moves.largest());
                        let hi = base + n.min(&BigUint::from(last));
                        let lo = base + a;
                        let runs = interval_heaps(&lo, &hi, a, last, target);
                        let heaps = runs.into_iter().flat_map(|(first, last)| {
                            std::iter::successors(Some(first), move |m| Some(m + 1u8).filter(|m| *m <= last))
                        });
                        found.extend(heaps.take(LISTED_PER_HEAP as usize).map(|m| m - base));
                    }
                }
                None if matches!(b.game, Game::AllBut(_)) => {
                    // The steps base + k of value `target` (few: see `heaps_of_value`), k <= n.
                    for m in b.heaps_of_value(target) {
                        if let Some(k) = m.checked_sub(base).filter(|k| !k.is_zero() && k <= n) {
                            check(k);
                        }
                    }
                }
                None => {
                    for k in b.takes.iter().flat_map(|&(first, last)| first..=last) {
                        if BigUint::from(k) > *n {
                            break;
                        }
                        check(k.into());
                    }
                }
            },
        }
        found.sort_unstable();
        found.dedup();
        found
    }

    /// Refuses games whose moves are not "take k stones", with the same k allowed from every heap
    /// that has k stones: the games a staircase of coins can be played with.
    ///
    /// Built-in games are known; your own game is checked on every heap with a known value.
    pub(crate) fn check_take_away(&self) -> Result<()> {
        let refuse = |why: &str| Err(Error::NotTakeAway { game: self.name(), why: why.to_string() });
        match &self.source {
            Source::Nim => Ok(()),
            Source::Builtin(b) => match b.game {
                Game::Octal(_) | Game::Hex(_) => {
                    refuse("is an octal game, whose moves depend on the heap or split it")
                }
                Game::GrundyGame | Game::Lasker => refuse("splits heaps"),
                Game::Fraction { .. } => refuse("allows numbers of stones that depend on the heap"),
                _ => Ok(()),
            },
            Source::Custom { game, values } => {
                // takes(n) must be S ∩ [1, n] for one set S: takes(n + 1) ∩ [1, n] = takes(n).
                let mut previous: Vec<u64> = Vec::new();
                for n in 0..values.len() as u64 {
                    let mut takes = Vec::new();
                    let mut splits = false;
                    game.options(n, &mut |left| match left {
                        [] => takes.push(n),
                        &[m] if m < n => takes.push(n - m),
                        _ => splits = true,
                    });
                    if splits {
                        return refuse(&format!("leaves two heaps or a larger one from a heap of {n}"));
                    }
                    takes.sort_unstable();
                    takes.dedup();
                    let below: Vec<u64> = takes.iter().copied().filter(|&k| k < n).collect();
                    if below != previous {
                        return refuse(&format!(
                            "does not allow the same numbers of stones from heaps of {} and {n}",
                            n - 1
                        ));
                    }
                    previous = takes;
                }
                Ok(())
            }
        }
    }
}

impl Builtin {
    fn value(&self, n: &BigUint) -> Option<BigUint> {
        if let Some(&g) = small(n).and_then(|i| self.values.get(i)) {
            return Some(g.into());
        }
        match &self.beyond {
            Beyond::Unknown => None,
            Beyond::ClosedForm => grundy::closed_form_value(&self.game, n),
            Beyond::Period(c) if c.theorem == Theorem::Nim => Some(n.clone()),
            Beyond::Period(c) => {
                let (n0, p) = (BigUint::from(c.preperiod), BigUint::from(c.period));
                let (whole, offset) = (n.checked_sub(&n0)?).div_rem(&p);
                let base = self.values.get(small(&(n0 + offset))?)?;
                Some(whole * c.saltus + *base)
            }
        }
    }

    /// The heaps of value `target` of an arithmetically periodic game (saltus `s > 0`): those
    /// of the preperiod that have it, and at most one per class of the period, where the
    /// class's first value plus a multiple of `s` reaches it. Increasing.
    fn heaps_of_value(&self, target: &BigUint) -> Vec<BigUint> {
        let Beyond::Period(c) = &self.beyond else { return Vec::new() };
        if c.saltus == 0 {
            return Vec::new();
        }
        let (n0, p) = (c.preperiod, c.period);
        let mut heaps: Vec<BigUint> = (0..n0)
            .filter(|&m| BigUint::from(self.values[m as usize]) == *target)
            .map(BigUint::from)
            .collect();
        for class in n0..n0 + p {
            let Some(rise) = target.checked_sub(&BigUint::from(self.values[class as usize])) else {
                continue;
            };
            let (periods, rest) = rise.div_rem(&BigUint::from(c.saltus));
            if rest.is_zero() {
                heaps.push(periods * p + class);
            }
        }
        heaps.sort_unstable();
        heaps
    }

    /// Whether the options of heap `n` are enumerated one by one (a stored value, or a small heap
    /// of a closed form), rather than found by [`large_options`](Self::large_options).
    pub fn enumerates(&self, n: &BigUint) -> bool {
        match self.beyond {
            Beyond::ClosedForm => n.to_u64().is_some_and(|n| n < ENUMERATED),
            _ => small(n).is_some_and(|i| i < self.values.len()),
        }
    }

    /// The options of value `target` of a heap beyond the stored values (see
    /// [`Rules::for_game`] for which are listed).
    fn large_options<'a>(&'a self, n: &BigUint, target: &BigUint, options: &mut TargetOptions<'a>) {
        let found = &mut options.listed;
        let mut check = |heaps: Vec<BigUint>| {
            let x = heaps.iter().try_fold(BigUint::zero(), |x, h| self.value(h).map(|g| x ^ g));
            if x.as_ref() == Some(target) {
                found.push(super::non_empty(heaps));
            }
        };
        match (&self.game, &self.beyond) {
            (Game::Subtract(moves), Beyond::ClosedForm) => {
                // The heaps n − b ..= n − a.
                let (a, b) = (moves.smallest(), moves.largest());
                if let Some(hi) = n.checked_sub(&BigUint::from(a)) {
                    let lo = n.checked_sub(&BigUint::from(b)).unwrap_or_default();
                    options.runs = interval_heaps(&lo, &hi, a, b, target);
                }
            }
            (Game::Lasker, _) => {
                // G is an involution on the non-empty heaps: the one heap of value `target`.
                if let Some(m) = grundy::closed_form_value(&Game::Lasker, target).filter(|m| m < n) {
                    check(vec![m]);
                }
                for a in 1..=LASKER_SPLITS {
                    let a = BigUint::from(a);
                    if &a + &a > *n {
                        break;
                    }
                    check(vec![a.clone(), n - a]);
                }
                // Not every split of a large heap is looked at.
                options.complete = false;
            }
            (Game::Fraction { numerator: 1, denominator: 2 }, _) => {
                // Heaps ⌈n/2⌉..n − 1 are reached; those of value y are 2^(t+1)·y + 2^t − 1.
                let low = n - (n >> 1u8);
                for t in 0..=n.bits() {
                    let m = (target << (t + 1)) + (BigUint::one() << t) - 1u8;
                    if m >= low && m < *n {
                        check(vec![m]);
                    }
                }
            }
            (Game::AllBut(excluded), Beyond::Period(_)) => {
                // Every smaller heap m with n − m not excluded.
                for m in self.heaps_of_value(target) {
                    if m < *n && (n - &m).to_u64().is_none_or(|k| !excluded.contains(k)) {
                        check(vec![m]);
                    }
                }
            }
            (Game::Octal(_) | Game::Hex(_), Beyond::Period(c)) => {
                let digits: Vec<u8> = match &self.game {
                    Game::Octal(code) => (0..=code.last_digit()).map(|j| code.digit(j)).collect(),
                    Game::Hex(code) => code.digits().to_vec(),
                    _ => unreachable!("matched above"),
                };
                let len = (c.preperiod + c.period) as usize;
                let labels = (c.saltus == 0)
                    .then(|| PeriodicLabels::new(&self.values[..len], c.preperiod, c.period))
                    .flatten();
                for (j, &d) in digits.iter().enumerate() {
                    let Some(r) = n.checked_sub(&BigUint::from(j)) else { break };
                    if r.bits() == 0 {
                        if d & 1 != 0 {
                            check(Vec::new());
                        }
                        continue;
                    }
                    if j > 0 && d & 2 != 0 {
                        check(vec![r.clone()]);
                    }
                    for (bit, parts) in [(4u8, 2usize), (8, 3)] {
                        if d & bit == 0 {
                            continue;
                        }
                        // The splits of r by the values their parts must reach: none when the
                        // target is beyond every stored value's bits.
                        match (labels, target.to_u32()) {
                            (Some(labels), Some(t)) => {
                                let xor_is_target: XorTest<'a> =
                                    Box::new(move |l: &[&u32]| l.iter().fold(0, |x, &&g| x ^ g) == t);
                                options.splits.push(Splits::new(labels, r.clone(), parts, xor_is_target));
                            }
                            (Some(_), None) => {}
                            // An arithmetic period: the values of the parts are not periodic
                            // labels; the splits are looked at one by one, the first
                            // SCANNED_SPLITS of them.
                            (None, _) => {
                                let scan =
                                    Scan { builtin: self, heap: r.clone(), parts, target: target.clone() };
                                options.complete &= scan.candidates() <= BigUint::from(SCANNED_SPLITS);
                                options.scans.push(scan);
                            }
                        }
                    }
                }
            }
            _ => {
                for k in self.takes.iter().flat_map(|&(first, last)| first..=last) {
                    let Some(m) = n.checked_sub(&BigUint::from(k)) else { break };
                    check(vec![m]);
                }
                // Games of one's own without a bounded set of takes: not looked at.
                options.complete &= !self.takes.is_empty() || !matches!(self.beyond, Beyond::Period(_));
            }
        }
    }
}

/// The test of a split by the XOR of its parts' values.
type XorTest<'a> = Box<dyn Fn(&[&u32]) -> bool + 'a>;

/// The options of one heap that reach a value ([`Rules::options_to`]): some found one by one,
/// runs of single heaps, and families of splits found by the values their parts must reach;
/// counted exactly and listed as far as asked.
pub struct TargetOptions<'a> {
    listed: Vec<Vec<BigUint>>,
    /// Runs `first..=last` of heaps, each an option that leaves that one heap.
    runs: Vec<(BigUint, BigUint)>,
    splits: Vec<Splits<'a, u32, XorTest<'a>>>,
    scans: Vec<Scan<'a>>,
    /// Whether every option is among them (not for the splits of large heaps of Lasker's Nim).
    complete: bool,
}

impl<'a> TargetOptions<'a> {
    /// How many options there are, when every one is known.
    pub fn count(&self) -> Option<BigUint> {
        let runs = self.runs.iter().map(|(first, last)| last + 1u8 - first);
        let splits = self.splits.iter().map(Splits::count);
        let scans = self.scans.iter().map(|scan| BigUint::from(scan.splits().count()));
        self.complete
            .then(|| runs.chain(splits).chain(scans).fold(BigUint::from(self.listed.len()), |t, c| t + c))
    }
}

impl<'a> IntoIterator for TargetOptions<'a> {
    type Item = Vec<BigUint>;
    type IntoIter = Box<dyn Iterator<Item = Vec<BigUint>> + 'a>;

    fn into_iter(self) -> Self::IntoIter {
        let runs = self.runs.into_iter().flat_map(|(first, last)| {
            std::iter::successors(Some(first), move |m| Some(m + 1u8).filter(|m| *m <= last))
                .map(|m| super::non_empty([m]))
        });
        let scans = self.scans.into_iter().flat_map(|scan| scan.splits());
        Box::new(self.listed.into_iter().chain(runs).chain(self.splits.into_iter().flatten()).chain(scans))
    }
}

/// The most splits of one heap looked at one by one, where the values are not periodic labels
/// (an arithmetic period: a second or so).
const SCANNED_SPLITS: u64 = 1 << 20;

/// The splits of a heap into `parts` heaps whose values XOR to `target`, looked at one by one
/// (the first [`SCANNED_SPLITS`]): by increasing smallest part, and the next part from both
/// ends of its range in turn, so that splits into a small part and two near halves come early.
struct Scan<'a> {
    builtin: &'a Builtin,
    heap: BigUint,
    parts: usize,
    target: BigUint,
}

impl<'a> Scan<'a> {
    /// How many splits there are: `⌊r/2⌋` into two, the partitions of `r` into three
    /// (`round(r²/12)`).
    fn candidates(&self) -> BigUint {
        match self.parts {
            2 => &self.heap >> 1u8,
            _ => (&self.heap * &self.heap + 6u8) / 12u8,
        }
    }

    fn splits(&self) -> Box<dyn Iterator<Item = Vec<BigUint>> + 'a> {
        let (builtin, target, r) = (self.builtin, self.target.clone(), self.heap.clone());
        let from = |first: BigUint, last: BigUint| {
            std::iter::successors(Some(first), move |m| Some(m + 1u8)).take_while(move |m| *m <= last)
        };
        let all: Box<dyn Iterator<Item = Vec<BigUint>>> = if self.parts == 2 {
            Box::new(both_ends(BigUint::one(), &r >> 1u8).map(move |a| vec![a.clone(), &r - a]))
        } else {
            Box::new(from(BigUint::one(), &r / 3u8).flat_map(move |a| {
                let rest = &r - &a;
                both_ends(a.clone(), &rest >> 1u8).map(move |b| vec![a.clone(), b.clone(), &rest - b])
            }))
        };
        Box::new(all.take(SCANNED_SPLITS as usize).filter(move |parts| {
            parts.iter().try_fold(BigUint::zero(), |x, h| builtin.value(h).map(|g| x ^ g)).as_ref()
                == Some(&target)
        }))
    }
}

/// The runs of heaps `m` in `lo..=hi` (fewer than `p = a + b` of them) of value `target` under
/// `G(m) = ⌊(m mod p)/a⌋`, increasing.
///
/// Fewer than `p` consecutive heaps have each residue mod `p` at most once; those of value
/// `target` have residues `target·a .. target·a + a` (within `0..p`): at most two runs of
/// heaps, found without enumerating the window.
fn interval_heaps(lo: &BigUint, hi: &BigUint, a: u64, b: u64, target: &BigUint) -> Vec<(BigUint, BigUint)> {
    let Some(t) = target.to_u128() else { return Vec::new() };
    let p = u128::from(a) + u128::from(b);
    let r_lo = t.saturating_mul(u128::from(a));
    if r_lo >= p || lo > hi {
        return Vec::new();
    }
    let r_hi = (r_lo + u128::from(a)).min(p); // residues r_lo..r_hi
    // The heaps lo..=hi have residues from lo mod p on, wrapping once at p at most.
    let base = lo - (lo % p); // a multiple of p
    let mut runs = Vec::new();
    for wrap in [0u128, p] {
        let first = (&base + wrap + r_lo).max(lo.clone());
        let last = (&base + wrap + r_hi - 1u8).min(hi.clone());
        if first <= last {
            runs.push((first, last));
        }
    }
    runs
}

/// The numbers `lo..=hi` from both ends in turn: `lo, hi, lo + 1, hi − 1, …` (`lo >= 1`).
pub fn both_ends(lo: BigUint, hi: BigUint) -> impl Iterator<Item = BigUint> {
    let (mut ends, mut low) = (Some((lo, hi)), true);
    std::iter::from_fn(move || {
        let (lo, hi) = ends.as_mut()?;
        if lo > hi {
            ends = None;
            return None;
        }
        low = !low;
        if !low {
            *lo += 1u8;
            Some(&*lo - 1u8)
        } else {
            *hi -= 1u8;
            Some(&*hi + 1u8)
        }
    })
}

/// Games whose moves from a large heap take one of finitely many numbers of stones and leave one
/// heap: subtraction games, and octal games without splitting moves (digits with bit 2). The
/// runs of those numbers (none for the other games).
fn bounded_takes(game: &Game) -> Vec<(u64, u64)> {
    match game {
        Game::Subtract(moves) => moves.runs().to_vec(),
        Game::Octal(code) if !code.splits() => {
            (1..=code.last_digit()).filter(|&j| code.digit(j) & 2 != 0).map(|j| (j, j)).collect()
        }
        _ => Vec::new(),
    }
}

/// `n` as an index, when it is one.
fn small(n: &BigUint) -> Option<usize> {
    n.to_usize()
}

/// Calls `take` with every number of stones a move may take from a heap of `n` (moves that
/// leave at most one heap).
fn take_options(game: &dyn HeapGame, n: &BigUint, take: &mut dyn FnMut(BigUint)) {
    let Some(n) = n.to_u64() else { return };
    let mut takes = Vec::new();
    game.options(n, &mut |left| match left {
        [] => takes.push(n),
        &[m] if m < n => takes.push(n - m),
        _ => {}
    });
    for k in takes {
        if k > 0 {
            take(k.into());
        }
    }
}

impl std::fmt::Debug for Rules<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Rules").field("game", &self.name()).field("limit", &self.limit()).finish()
    }
}
