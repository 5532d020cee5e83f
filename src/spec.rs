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

#[cfg(test)]
mod tests {
    use super::*;

    fn reason(result: Result<impl std::fmt::Debug>) -> String {
        result.unwrap_err().to_string()
    }

    #[test]
    fn heap_games_parse_as_the_game_parser_does() {
        for text in
            ["nim", " nim ", "subtract:1-3,7", "allbut:1,2", "octal:0.07", "hex:0.F8", "squares", "kayles"]
        {
            assert_eq!(Spec::parse(text).unwrap(), Spec::Game(Game::parse(text).unwrap()), "{text}");
        }
        assert_eq!(Spec::parse("kayles").unwrap().spec(), "octal:0.77");
    }

    #[test]
    fn moore_parses_with_k_at_least_one() {
        assert_eq!(Spec::parse("moore:2").unwrap(), Spec::Moore(Moore::new(2).unwrap()));
        assert_eq!(Spec::parse(" moore : 10^3 ").unwrap().spec(), "moore:1000");
        assert_eq!(Spec::parse("moore:1").unwrap().spec(), "moore:1");
        for bad in ["moore:0", " moore:0", "moore: 0"] {
            let msg = reason(Spec::parse(bad));
            assert!(msg.contains("K must be at least 1"), "{bad}: {msg}");
        }
        assert!(reason(Spec::parse("moore")).contains("needs parameters"));
        assert!(reason(Spec::parse("moore:x")).contains("invalid game"));
        assert!(reason(Spec::parse("moore:2^64")).contains("2^64"));
    }

    #[test]
    fn staircases_take_heap_games_only() {
        assert_eq!(Spec::staircase("nim").unwrap(), Spec::Staircase(Game::Nim));
        assert_eq!(Spec::staircase("subtract:1-2").unwrap().spec(), "subtract:1,2 staircase");
        assert!(reason(Spec::staircase("moore:2")).contains("a staircase needs a game of single heaps"));
        assert!(reason(Spec::staircase("moore:0")).contains("K must be at least 1"));
        assert!(reason(Spec::staircase("kayle")).contains("unknown game"));
    }

    #[test]
    fn sums_take_heap_games_once_each() {
        let sum = Spec::sum(["nim", "octal:0.77", "kayles", "subtract:1,2"]).unwrap();
        assert_eq!(
            sum,
            Spec::Sum(vec![Game::Nim, Game::parse("kayles").unwrap(), Game::parse("subtract:1,2").unwrap()])
        );
        assert_eq!(sum.spec(), "nim + octal:0.77 + subtract:1,2");
        assert_eq!(Spec::part("nim").unwrap(), Game::Nim);
        assert!(reason(Spec::sum(["nim", "moore:2"])).contains("not a part of a sum"));
        assert!(reason(Spec::sum(["moore:0"])).contains("K must be at least 1"));
        assert!(reason(Spec::sum(["nim", "kayle"])).contains("unknown game 'kayle'"));
        assert!(reason(Spec::sum(Vec::<String>::new())).contains("at least one part"));
    }

    #[test]
    fn bad_forms_are_refused_on_one_line() {
        for bad in
            ["", " ", "kayle", "nim:3", "subtract", "octal:0.8", "moore:", "moore:-1", ":", "fraction:0/2"]
        {
            let msg = reason(Spec::parse(bad));
            assert!(msg.starts_with("invalid game"), "{bad:?}: {msg}");
            assert!(!msg.contains('\n'), "{bad:?}: {msg}");
        }
    }

    #[test]
    fn heap_games_are_what_grundy_values_need() {
        assert_eq!(Spec::parse("nim").unwrap().heap_game().unwrap(), Game::Nim);
        assert!(reason(Spec::parse("moore:2").unwrap().heap_game()).contains("no Grundy values"));
        assert!(Spec::staircase("nim").unwrap().heap_game().is_err());
        assert!(Spec::sum(["nim"]).unwrap().heap_game().is_err());
    }

    /// The binary and the Python binding parse specifications here only: no text of theirs
    /// looks at a specification's name or calls the parsers this one is built on.
    #[test]
    fn no_specification_is_sniffed_outside_this_parser() {
        const SNIFFING: [&str; 7] = [
            "Moore::names",
            "Moore::parse",
            "Game::parse",
            "starts_with(\"moore",
            "starts_with(\"stair",
            "strip_prefix(\"moore",
            "strip_prefix(\"stair",
        ];
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
        let mut dirs = vec![root.join("src/bin"), root.join("python/src")];
        let mut read = 0;
        while let Some(dir) = dirs.pop() {
            for entry in std::fs::read_dir(&dir).unwrap() {
                let path = entry.unwrap().path();
                if path.is_dir() {
                    dirs.push(path);
                } else if path.extension().is_some_and(|e| e == "rs") {
                    let text = std::fs::read_to_string(&path).unwrap();
                    read += 1;
                    for (n, line) in text.lines().enumerate() {
                        for pattern in SNIFFING {
                            assert!(
                                !line.contains(pattern),
                                "{}:{}: `{pattern}`: parse specifications with nimcount::spec::Spec",
                                path.display(),
                                n + 1
                            );
                        }
                    }
                }
            }
        }
        assert!(read >= 10, "only {read} source files under src/bin and python/src");
    }

    #[test]
    fn every_form_but_a_sum_is_one_query() {
        let count = |spec: Spec| spec.query().unwrap().sizes(0u32, 3u32).heaps(3u32).count().unwrap().losing;
        assert_eq!(count(Spec::parse("nim").unwrap()), 16u32.into());
        assert_eq!(count(Spec::parse("moore:2").unwrap()), 4u32.into());
        // Steps 1 and 3 equal (4 ways), step 2 free (4 ways).
        assert_eq!(count(Spec::staircase("nim").unwrap()), 16u32.into());
        assert!(Spec::sum(["nim"]).unwrap().query().is_err());
    }
}
