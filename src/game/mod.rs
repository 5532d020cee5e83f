//! Heap games: what a move does to one heap.
//!
//! A position is a collection of heaps; a move changes one heap. The built-in games are the
//! variants of [`Game`], written as specifications:
//!
//! | spec | game |
//! |------|------|
//! | `nim` | remove any positive number of stones |
//! | `subtract:1,3,4`, `subtract:1-1000000`, `subtract:1-3,7,10-12` | remove a number of stones from the list |
//! | `allbut:1,2` | remove any positive number of stones except those listed |
//! | `octal:0.07`, `octal:0.137`, `octal:4.007` | octal game (see [`OctalCode`]) |
//! | `squares` | remove a positive perfect square |
//!
//! Other games implement [`HeapGame`].

mod moves;
mod octal;

use std::fmt;

pub use moves::{MAX_MOVE, MoveSet};
pub use octal::{MAX_OCTAL_DIGITS, OctalCode};

use crate::error::{Error, Result, quote};

/// A heap game defined by the options of a single heap.
///
/// A move takes one heap of size `n` and leaves zero or more non-empty heaps (taking the whole
/// heap leaves none; an ordinary subtraction leaves one smaller heap; a split leaves several).
/// Every heap left must be smaller than `n` or the game would not terminate.
///
/// A game of your own, here "take one or two stones, or split a heap into three equal heaps":
///
/// ```
/// use nimcount::game::HeapGame;
/// use nimcount::grundy::values_of;
/// use nimcount::progress::Silent;
///
/// struct TakeOrThirds;
///
/// impl HeapGame for TakeOrThirds {
///     fn options(&self, n: u64, option: &mut dyn FnMut(&[u64])) {
///         for take in 1..=n.min(2) {
///             if take == n { option(&[]) } else { option(&[n - take]) }
///         }
///         if n >= 3 && n.is_multiple_of(3) {
///             option(&[n / 3, n / 3, n / 3]);
///         }
///     }
///     fn name(&self) -> String {
///         "take 1 or 2, or split into three equal heaps".into()
///     }
/// }
///
/// let values = values_of(&TakeOrThirds, 10, &Silent).unwrap();
/// assert_eq!(values, [0, 1, 2, 0, 1, 2, 0, 1, 2, 3]);
/// ```
pub trait HeapGame: Send + Sync {
    /// Calls `option` once for every position reachable from one heap of size `n`, each given as
    /// the list of non-empty heaps it leaves (duplicates are allowed and harmless).
    fn options(&self, n: u64, option: &mut dyn FnMut(&[u64]));

    /// A short human-readable name.
    fn name(&self) -> String;
}

/// The built-in games, parsed from specifications such as `octal:0.07` or `subtract:1-3,7`.
///
/// ```
/// use nimcount::game::Game;
/// let game = Game::parse("subtract:4,1-3,7").unwrap();
/// assert_eq!(game.spec(), "subtract:1-4,7");
/// assert_eq!(Game::parse(&game.spec()).unwrap(), game);
/// let err = Game::parse("octal:0.8").unwrap_err();
/// assert_eq!(err.to_string(), "invalid game 'octal:0.8': 8 is not an octal digit");
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Game {
    /// Nim: remove any positive number of stones (`G(n) = n`).
    Nim,
    /// Subtraction game: remove `k` stones for some `k` in the set.
    Subtract(MoveSet),
    /// All-but game: remove any positive number of stones except those in the set.
    AllBut(MoveSet),
    /// Octal game.
    Octal(OctalCode),
    /// Remove a positive perfect square (never periodic).
    Squares,
}

impl Game {
    /// Parses a game specification; the error names the problem on one line.
    pub fn parse(spec: &str) -> Result<Game> {
        let fail = |reason: String| Error::InvalidGame { spec: quote(spec), reason };
        // A part's own error, restated for the whole specification.
        let restate = |e: Error| match e {
            Error::InvalidGame { reason, .. } => fail(reason),
            other => other,
        };
        let text = spec.trim();
        let (name, argument) = match text.split_once(':') {
            Some((name, argument)) => (name.trim(), Some(argument)),
            None => (text, None),
        };
        match (name, argument) {
            ("nim", None) => Ok(Game::Nim),
            ("squares", None) => Ok(Game::Squares),
            ("nim" | "squares", Some(_)) => Err(fail(format!("'{name}' takes no parameters"))),
            ("subtract", Some(list)) => list.parse().map(Game::Subtract).map_err(restate),
            ("allbut", Some(list)) => {
                let excluded: MoveSet = list.parse().map_err(|e| {
                    if list.trim().is_empty() {
                        fail("expected the excluded moves, e.g. allbut:1,2 (with nothing excluded the game is nim)".into())
                    } else {
                        restate(e)
                    }
                })?;
                Ok(Game::AllBut(excluded))
            }
            ("octal", Some(code)) => code.parse().map(Game::Octal).map_err(restate),
            ("subtract" | "allbut" | "octal", None) => {
                Err(fail(format!("'{name}' needs parameters, e.g. {}", Game::example(name))))
            }
            ("", _) => Err(fail("empty specification".into())),
            ("moore", _) => Err(fail(
                "moore:K is Moore's Nim, whose moves change several heaps at once: it has no Grundy \
                 value per heap (its positions are decided and counted by a rule of their own)"
                    .into(),
            )),
            _ => Err(fail(format!(
                "unknown game '{}' (known: nim, subtract:…, allbut:…, octal:…, squares)",
                quote(name)
            ))),
        }
    }

    fn example(name: &str) -> &'static str {
        match name {
            "subtract" => "subtract:1,3,4 or subtract:1-10",
            "allbut" => "allbut:1,2",
            _ => "octal:0.07",
        }
    }

    /// The subtraction game with the given moves.
    pub fn subtract(moves: &[u64]) -> Result<Game> {
        MoveSet::from_moves(moves).map(Game::Subtract).map_err(|e| prefixed("subtract", e))
    }

    /// The subtraction game whose moves are the runs `first..=last`.
    pub fn subtract_runs(runs: &[(u64, u64)]) -> Result<Game> {
        MoveSet::from_runs(runs).map(Game::Subtract).map_err(|e| prefixed("subtract", e))
    }

    /// The all-but game that forbids the given moves.
    pub fn all_but(excluded: &[u64]) -> Result<Game> {
        MoveSet::from_moves(excluded).map(Game::AllBut).map_err(|e| prefixed("allbut", e))
    }

    /// The octal game with the given code (`"0.07"`).
    pub fn octal(code: &str) -> Result<Game> {
        Game::parse(&format!("octal:{code}"))
    }

    /// The canonical specification of this game (it parses back to the same game).
    pub fn spec(&self) -> String {
        match self {
            Game::Nim => "nim".into(),
            Game::Subtract(moves) => format!("subtract:{moves}"),
            Game::AllBut(excluded) => format!("allbut:{excluded}"),
            Game::Octal(code) => format!("octal:{code}"),
            Game::Squares => "squares".into(),
        }
    }
}

/// A move set's error, with the game's name in front of its specification.
fn prefixed(name: &str, e: Error) -> Error {
    match e {
        Error::InvalidGame { spec, reason } => Error::InvalidGame { spec: format!("{name}:{spec}"), reason },
        other => other,
    }
}

impl fmt::Display for Game {
    /// The canonical specification.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.spec())
    }
}

impl std::str::FromStr for Game {
    type Err = Error;

    fn from_str(spec: &str) -> Result<Game> {
        Game::parse(spec)
    }
}

impl HeapGame for Game {
    fn options(&self, n: u64, option: &mut dyn FnMut(&[u64])) {
        let mut leave = |left: u64| if left == 0 { option(&[]) } else { option(&[left]) };
        match self {
            Game::Nim => (1..=n).for_each(|k| leave(n - k)),
            Game::Subtract(moves) => moves.iter().take_while(|&k| k <= n).for_each(|k| leave(n - k)),
            Game::AllBut(excluded) => (1..=n).filter(|&k| !excluded.contains(k)).for_each(|k| leave(n - k)),
            Game::Squares => (1..).map(|k: u64| k * k).take_while(|&k| k <= n).for_each(|k| leave(n - k)),
            Game::Octal(code) => {
                for j in 0..=code.last_digit().min(n) {
                    let d = code.digit(j);
                    if j == n && d & 1 != 0 {
                        option(&[]);
                    }
                    if j < n && d & 2 != 0 {
                        option(&[n - j]);
                    }
                    if d & 4 != 0 && n - j >= 2 {
                        for a in 1..=(n - j) / 2 {
                            option(&[a, n - j - a]);
                        }
                    }
                }
            }
        }
    }

    fn name(&self) -> String {
        self.spec()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn specs_round_trip() {
        for (spec, canonical) in [
            ("nim", "nim"),
            (" squares ", "squares"),
            ("subtract:1,3,4", "subtract:1,3,4"),
            ("subtract:1-1000000", "subtract:1-1000000"),
            ("subtract:1-3,7,10-12", "subtract:1-3,7,10-12"),
            ("subtract:1,2,3", "subtract:1-3"),
            ("allbut:2,1", "allbut:1,2"),
            ("octal:0.07", "octal:0.07"),
            ("octal:4.007", "octal:4.007"),
            ("octal:.137", "octal:0.137"),
        ] {
            let game = Game::parse(spec).unwrap();
            assert_eq!(game.spec(), canonical);
            assert_eq!(game.to_string(), canonical);
            assert_eq!(Game::parse(canonical).unwrap(), game);
        }
    }

    #[test]
    fn constructors_match_specs() {
        assert_eq!(Game::subtract(&[4, 1, 3]).unwrap(), Game::parse("subtract:1,3,4").unwrap());
        assert_eq!(Game::subtract_runs(&[(1, 3), (7, 7)]).unwrap(), Game::parse("subtract:1-3,7").unwrap());
        assert_eq!(Game::all_but(&[2, 1]).unwrap(), Game::parse("allbut:1,2").unwrap());
        assert_eq!(Game::octal("0.16").unwrap(), Game::parse("octal:0.16").unwrap());
        assert!(Game::subtract(&[]).is_err());
        assert!(Game::subtract(&[0]).is_err());
    }

    #[test]
    fn bad_specs_name_the_problem_on_one_line() {
        for (spec, needle) in [
            ("octal:0.8", "8 is not an octal digit"),
            ("octal:", "expected an octal code"),
            ("octal", "needs parameters"),
            ("octal:2.07", "leading digit must be 0 or 4"),
            ("subtract:", "expected a list of moves"),
            ("subtract:5-1", "the range 5-1 is empty"),
            ("subtract:0", "moves must be positive"),
            ("subtract:1-2^50", "larger than the limit"),
            ("subtract:1-99999999999999999999999", "larger than 2^64"),
            ("allbut:", "expected the excluded moves"),
            ("squares:3", "takes no parameters"),
            ("nim:1", "takes no parameters"),
            ("chess", "unknown game 'chess'"),
            ("moore:2", "moore:K is Moore's Nim, whose moves change several heaps at once"),
            ("", "empty specification"),
        ] {
            let err = Game::parse(spec).unwrap_err().to_string();
            assert!(err.contains(needle), "{spec}: {err}");
            assert!(err.starts_with(&format!("invalid game '{spec}'")), "{spec}: {err}");
            assert!(!err.contains('\n'), "{spec}: {err}");
        }
    }

    fn options_of(game: &Game, n: u64) -> Vec<Vec<u64>> {
        let mut all = Vec::new();
        game.options(n, &mut |heaps| all.push(heaps.to_vec()));
        all.sort();
        all
    }

    #[test]
    fn options_follow_the_rules() {
        let g = |s: &str| Game::parse(s).unwrap();
        assert_eq!(options_of(&g("nim"), 3), vec![vec![], vec![1], vec![2]]);
        assert_eq!(options_of(&g("nim"), 0), Vec::<Vec<u64>>::new());
        assert_eq!(options_of(&g("subtract:1,3,4"), 3), vec![vec![], vec![2]]);
        assert_eq!(options_of(&g("allbut:1,2"), 4), vec![vec![], vec![1]]);
        assert_eq!(options_of(&g("squares"), 5), vec![vec![1], vec![4]]);
        // 0.137: take 1 leaving nothing; take 2 leaving one heap; take 3 leaving 0, 1 or 2 heaps.
        assert_eq!(options_of(&g("octal:0.137"), 3), vec![vec![], vec![1]]);
        assert_eq!(options_of(&g("octal:0.137"), 6), vec![vec![1, 2], vec![3], vec![4]]);
        // 4.0: split without taking.
        assert_eq!(options_of(&g("octal:4.0"), 4), vec![vec![1, 3], vec![2, 2]]);
        assert_eq!(options_of(&g("octal:0.0"), 4), Vec::<Vec<u64>>::new());
    }
}
