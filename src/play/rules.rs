//! What a move may do to one heap, and the Grundy values that judge the result.

use num_bigint::BigUint;
use num_integer::Integer;
use num_traits::{CheckedSub, ToPrimitive};

use crate::error::{Error, Result};
use crate::game::{Game, HeapGame};
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

enum Source<'g> {
    Nim,
    Custom { game: &'g dyn HeapGame, values: &'g [u32] },
    Builtin(Box<Builtin>),
}

/// A built-in game with its values computed, and a period where one was proven.
struct Builtin {
    game: Game,
    values: Vec<u32>,
    period: Option<Certificate>,
    /// For heaps beyond `values` (only with a period): the numbers of stones a move may take,
    /// as runs `first..=last`, each move leaving one heap.
    takes: Vec<(u64, u64)>,
}

/// Rules for Nim, shared by every misère Nim position.
pub(super) static NIM: Rules<'static> = Rules { source: Source::Nim };

impl Rules<'static> {
    /// Nim: remove any positive number of stones; heaps of any size.
    pub fn nim() -> Rules<'static> {
        Rules { source: Source::Nim }
    }

    /// The rules of a built-in game for heaps up to `largest` stones, with its values found as
    /// a count finds them ([`grundy::range_values`]): a proven period, else the values up to
    /// `largest` computed directly. `max_heap`: the most values computed; `None`, the default
    /// limits of a count (a period search of about 30 s of estimated work, direct values up to
    /// about a minute), refused with the estimate beyond them.
    ///
    /// Nim takes heaps of any size. Subtraction games and octal games without splitting moves
    /// take heaps of any size once a period is proven. The other games (subtract-a-square,
    /// all-but games, octal games that split heaps) reach every smaller heap from a heap, so
    /// their values are computed (or read off the period) up to `largest`.
    pub fn for_game(
        game: &Game,
        largest: &BigUint,
        max_heap: Option<u64>,
        progress: &dyn Progress,
    ) -> Result<Rules<'static>> {
        if *game == Game::Nim {
            return Ok(Rules::nim());
        }
        let takes = bounded_takes(game);
        let (values, period) = match grundy::range_values(game, largest, max_heap, true, progress)? {
            RangeValues::Direct(values) => (values, None),
            RangeValues::Period(search) if takes.is_some() => (search.values, search.certificate),
            // Moves that split heaps reach every smaller heap: each heap's own value, up to the
            // largest, read off the period within the memory the values may take.
            RangeValues::Period(search) => {
                let known = search.values.len() as u64;
                let values = largest
                    .to_u64()
                    .and_then(|l| l.checked_add(1))
                    .filter(|&n| n <= known || grundy::check_values(n).is_ok())
                    .and_then(|n| {
                        (0..n.max(known))
                            .map(|h| search.value(h.into()).and_then(|g| u32::try_from(g).ok()))
                            .collect::<Option<Vec<u32>>>()
                    });
                let Some(values) = values else {
                    return Err(Error::HeapBeyondValues {
                        heap: crate::error::quote(&largest.to_string()),
                        game: game.spec(),
                        limit: known,
                        why: "; larger heaps are analysed only for games whose moves take a bounded number \
                              of stones and leave one heap (subtraction sets, octal games without splits), \
                              through their proven period"
                            .into(),
                    });
                };
                (values, None)
            }
        };
        let takes = takes.filter(|_| period.is_some()).unwrap_or_default();
        let builtin = Builtin { game: game.clone(), values, period, takes };
        Ok(Rules { source: Source::Builtin(Box::new(builtin)) })
    }
}

impl<'g> Rules<'g> {
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
            Source::Builtin(b) => b.period.is_none().then_some(b.values.len() as u64),
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
    /// in increasing order; distinct, sorted.
    pub(super) fn options_with_value(&self, n: &BigUint, target: &BigUint) -> Vec<Vec<BigUint>> {
        let mut found: Vec<Vec<BigUint>> = Vec::new();
        match &self.source {
            Source::Nim => {
                if target < n {
                    found.push(super::non_empty([target.clone()]));
                }
            }
            Source::Custom { game, .. } => self.small_options(*game, n, target, &mut found),
            Source::Builtin(b) => match small(n).filter(|&i| i < b.values.len()) {
                Some(_) => self.small_options(&b.game, n, target, &mut found),
                None => {
                    for k in b.takes.iter().flat_map(|&(first, last)| first..=last) {
                        let Some(m) = n.checked_sub(&BigUint::from(k)) else { break };
                        if b.value(&m).as_ref() == Some(target) {
                            found.push(super::non_empty([m]));
                        }
                    }
                }
            },
        }
        found.sort_unstable();
        found.dedup();
        found
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
            Source::Builtin(b) => match small(n).filter(|&i| i < b.values.len()) {
                Some(_) => take_options(&b.game, n, &mut check),
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
    pub(super) fn check_take_away(&self) -> Result<()> {
        let refuse = |why: &str| Err(Error::NotTakeAway { game: self.name(), why: why.to_string() });
        match &self.source {
            Source::Nim => Ok(()),
            Source::Builtin(b) => match b.game {
                Game::Octal(_) => refuse("is an octal game, whose moves depend on the heap or split it"),
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
        let c = self.period.as_ref()?;
        if c.theorem == Theorem::Nim {
            return Some(n.clone());
        }
        let (n0, p) = (BigUint::from(c.preperiod), BigUint::from(c.period));
        let (whole, offset) = (n - &n0).div_rem(&p);
        let base = self.values.get(small(&(n0 + offset))?)?;
        Some(whole * c.saltus + *base)
    }
}

/// Games whose moves from a large heap take one of finitely many numbers of stones and leave one
/// heap: subtraction games, and octal games without splitting moves (digits with bit 2). The
/// runs of those numbers.
fn bounded_takes(game: &Game) -> Option<Vec<(u64, u64)>> {
    match game {
        Game::Subtract(moves) => Some(moves.runs().to_vec()),
        Game::Octal(code) if !code.splits() => {
            Some((1..=code.last_digit()).filter(|&j| code.digit(j) & 2 != 0).map(|j| (j, j)).collect())
        }
        _ => None,
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::progress::Silent;

    #[test]
    fn periodic_games_take_heaps_of_any_size() {
        let game = Game::parse("subtract:1,3,4").unwrap();
        let huge = BigUint::from(10u32).pow(40);
        let rules = Rules::for_game(&game, &huge, None, &Silent).unwrap();
        assert_eq!(rules.limit(), None);
        // G(n) = 0, 1, 0, 1, 2, 3, 2 repeating with period 7; 10^40 ≡ 4 (mod 7).
        assert_eq!(rules.value(&huge), Some(2u32.into()));
        // From a value-2 heap to value 0: take 4 (leaving ≡ 0) or take 1 (leaving ≡ 3, value 1: no).
        let options = rules.options_with_value(&huge, &BigUint::default());
        assert_eq!(options, vec![vec![&huge - 4u32]]);
    }

    #[test]
    fn other_games_need_every_value_up_to_the_largest_heap() {
        let game = Game::parse("octal:0.07").unwrap();
        let rules = Rules::for_game(&game, &BigUint::from(20u32), Some(1000), &Silent).unwrap();
        assert_eq!(rules.limit(), Some(21));
        // Dawson's Kayles splits heaps; its period (34 from 52 on) is proven within 1000 values
        // and gives every value up to 5000.
        let rules = Rules::for_game(&game, &BigUint::from(5000u32), Some(1000), &Silent).unwrap();
        assert_eq!(rules.limit(), Some(5001));
        let direct = grundy::values(&game, 5001, &Silent).unwrap();
        for n in [0usize, 51, 52, 85, 86, 1000, 4999, 5000] {
            assert_eq!(rules.value(&n.into()), Some(direct[n].into()), "G({n})");
        }
        // No period within 100 values, and 5001 values not allowed: refused.
        let err =
            Rules::for_game(&game, &BigUint::from(5000u32), Some(100), &Silent).unwrap_err().to_string();
        assert!(err.contains("no proven period in G(0) … G(99)"), "{err}");
        // A period, but a heap whose smaller heaps are too many to hold.
        let huge = BigUint::from(10u32).pow(30);
        let err = Rules::for_game(&game, &huge, None, &Silent).unwrap_err().to_string();
        assert!(err.contains("beyond the Grundy values known for octal:0.07"), "{err}");
    }

    #[test]
    fn staircases_need_take_away_games() {
        let octal = Game::parse("octal:0.07").unwrap();
        let rules = Rules::for_game(&octal, &BigUint::from(3u32), Some(100), &Silent).unwrap();
        assert!(rules.check_take_away().is_err());
        for spec in ["nim", "subtract:1-2", "allbut:2", "squares"] {
            let game = Game::parse(spec).unwrap();
            let values = grundy::values(&game, 30, &Silent).unwrap();
            // The built-in games pass the check made for games of one's own, too.
            assert!(Rules::new(&game, &values).check_take_away().is_ok(), "{spec}");
        }
        let values = grundy::values(&octal, 30, &Silent).unwrap();
        assert!(Rules::new(&octal, &values).check_take_away().is_err());
        // 0.3: take one stone, leaving nothing or one heap: subtract:1 in disguise.
        let take_one = Game::parse("octal:0.3").unwrap();
        let values = grundy::values(&take_one, 30, &Silent).unwrap();
        assert!(Rules::new(&take_one, &values).check_take_away().is_ok());
        // 0.1: take one stone only from a heap of one: refused.
        let last_only = Game::parse("octal:0.1").unwrap();
        let values = grundy::values(&last_only, 30, &Silent).unwrap();
        assert!(Rules::new(&last_only, &values).check_take_away().is_err());
    }
}
