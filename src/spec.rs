//! What a game specification names: a heap game, Moore's Nim-K, a staircase of a heap game, or
//! a sum of heap games. This is the one parser of specifications that the command-line tool and
//! the Python binding call; neither looks at the text of a specification itself.
//!
//! - `nim`, `subtract:1-3`, `octal:0.77`, `kayles`, … ([`Game::parse`]): a heap game, whose heaps
//!   have Grundy values ([`Spec::Game`]).
//! - `moore:K`, `K >= 1` ([`Moore::parse`]): Moore's Nim-K, whose moves change up to `K` heaps at
//!   once: no Grundy values of single heaps ([`Spec::Moore`]).
//! - A staircase of a heap game ([`Spec::staircase`]): coins on steps move one step down as the
//!   game lets them leave a heap ([`Spec::Staircase`]).
//! - A sum of heap games ([`Spec::sum`]): every heap belongs to one of the parts
//!   ([`Spec::Sum`]); each part is parsed by [`Spec::part`], which refuses Moore's Nim.
//!
//! ```
//! use nimcount::game::Game;
//! use nimcount::spec::Spec;
//!
//! assert_eq!(Spec::parse("kayles")?, Spec::Game(Game::parse("octal:0.77")?));
//! assert_eq!(Spec::parse("moore:2")?.spec(), "moore:2");
//! assert!(Spec::parse("moore:0").is_err()); // Moore's Nim-K needs K >= 1
//! assert_eq!(Spec::staircase("subtract:1-2")?.spec(), "subtract:1,2 staircase");
//! assert!(Spec::staircase("moore:2").is_err()); // a staircase needs a game of single heaps
//! assert_eq!(Spec::sum(["nim", "kayles"])?.spec(), "nim + octal:0.77");
//! assert!(Spec::sum(["nim", "moore:2"]).is_err());
//! // Counting goes through one query, whatever the specification names.
//! let counts = Spec::parse("moore:2")?.query()?.sizes(0u32, 3u32).heaps(3u32).count()?;
//! assert_eq!(counts.losing, 4u32.into());
//! # Ok::<(), nimcount::Error>(())
//! ```

use crate::count::Query;
use crate::error::{Error, Result, quote};
use crate::game::Game;
use crate::play::Moore;

/// What a specification names.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum Spec {
    /// A heap game: heaps with Grundy values.
    Game(Game),
    /// Moore's Nim-K: a move takes stones from up to `K` heaps.
    Moore(Moore),
    /// A staircase of a heap game that takes stones ([`crate::play::Staircase`]).
    Staircase(Game),
    /// A sum of heap games, in the order given, each at most once.
    Sum(Vec<Game>),
}

impl Spec {
    /// Parses `moore:K` or a heap game ([`Game::parse`]); the error names the problem on one line.
    /// Anything whose name is `moore` is Moore's Nim, well formed or not: `moore:0` is refused
    /// because `K` must be at least 1.
    pub fn parse(text: &str) -> Result<Spec> {
        if Moore::names(text) {
            return Moore::parse(text).map(Spec::Moore).map_err(|e| match e {
                Error::InvalidGame { reason, .. } => Error::InvalidGame { spec: quote(text), reason },
                other => other,
            });
        }
        Game::parse(text).map(Spec::Game)
    }

    /// A staircase of the heap game `text` names. Moore's Nim is refused (it changes several
    /// heaps at once); which heap games a staircase takes is checked where it is counted or
    /// played ([`Error::NotTakeAway`]).
    pub fn staircase(text: &str) -> Result<Spec> {
        match Spec::parse(text)? {
            Spec::Game(game) => Ok(Spec::Staircase(game)),
            other => Err(Error::NotForQuery {
                query: other.spec(),
                reason: "a staircase needs a game of single heaps; Moore's Nim changes several heaps at once",
            }),
        }
    }

    /// One part of a sum of games: a heap game. Moore's Nim is refused: it moves on several
    /// heaps at once, so its heaps do not add to others'.
    pub fn part(text: &str) -> Result<Game> {
        match Spec::parse(text)? {
            Spec::Game(game) => Ok(game),
            other => Err(Error::NotForQuery {
                query: other.spec(),
                reason: "Moore's Nim moves on several heaps at once: it is not a part of a sum of games",
            }),
        }
    }

    /// A sum of the heap games `parts` name (each parsed by [`Spec::part`]); a game named twice
    /// is one part. At least one part.
    pub fn sum<S: AsRef<str>>(parts: impl IntoIterator<Item = S>) -> Result<Spec> {
        let mut games: Vec<Game> = Vec::new();
        for part in parts {
            let game = Spec::part(part.as_ref())?;
            if !games.contains(&game) {
                games.push(game);
            }
        }
        if games.is_empty() {
            return Err(Error::NotForQuery {
                query: "a sum of games".into(),
                reason: "it needs at least one part",
            });
        }
        Ok(Spec::Sum(games))
    }

    /// The heap game this names, for what needs Grundy values of single heaps (values, periods,
    /// histograms): Moore's Nim, staircases and sums are refused.
    pub fn heap_game(self) -> Result<Game> {
        match self {
            Spec::Game(game) => Ok(game),
            Spec::Moore(moore) => Err(Error::NotForQuery {
                query: moore.spec(),
                reason: "Moore's Nim has no Grundy values of single heaps (it moves on several at once)",
            }),
            other => Err(Error::NotForQuery {
                query: other.spec(),
                reason: "Grundy values belong to single heaps of one game",
            }),
        }
    }

    /// The counting query of this specification (give it sizes and heaps): a game, Moore's
    /// Nim-K, or a staircase of a game. A sum is refused: its parts have sizes and heaps of
    /// their own ([`Query::sum`]).
    pub fn query(&self) -> Result<Query<'static>> {
        match self {
            Spec::Game(game) => Ok(Query::new(game.clone())),
            Spec::Moore(moore) => Ok(Query::moore(moore.k())),
            Spec::Staircase(game) => Ok(Query::new(game.clone()).staircase(true)),
            Spec::Sum(_) => Err(Error::NotForQuery {
                query: self.spec(),
                reason: "each part has sizes and heaps of its own (a query over components)",
            }),
        }
    }

    /// The canonical specification: the game's ([`Game::spec`]), `moore:K`, `GAME staircase`,
    /// or the parts joined by ` + `.
    pub fn spec(&self) -> String {
        match self {
            Spec::Game(game) => game.spec(),
            Spec::Moore(moore) => moore.spec(),
            Spec::Staircase(game) => format!("{} staircase", game.spec()),
            Spec::Sum(games) => games.iter().map(Game::spec).collect::<Vec<_>>().join(" + "),
        }
    }
}
