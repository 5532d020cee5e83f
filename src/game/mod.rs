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
//! | `hex:0.F`, `hex:0.48`, `hex:8.0` | hexadecimal game: an octal game whose moves may also leave three heaps (see [`HexCode`]) |
//! | `grundy-game` | split a heap into two unequal non-empty heaps |
//! | `lasker` | Lasker's Nim: remove any positive number of stones, or split a heap into two non-empty heaps |
//! | `fraction:1/2`, `fraction:2/3` | remove `k` stones, `1 <= k <= ⌊n·P/Q⌋` from a heap of `n` |
//!
//! The classic games are also known by name ([`NAMES`]): `kayles` (`octal:0.77`),
//! `dawsons-kayles` (`octal:0.07`), `dawsons-chess` (`octal:0.137`), `officers` (`octal:0.6`),
//! `guiles` (`octal:0.15`). A name is an alias: it parses to the game of its code, and that game
//! prints back as its code (`kayles` prints `octal:0.77`), so one game has one specification.
//! Games without a code print as their names (`lasker`, `grundy-game`). A `hex:` code whose
//! digits have no bit 8 is an octal code, and prints as one (`hex:0.77` is `octal:0.77`).
//!
//! Other games implement [`HeapGame`], declare their [`Structure`] when a theorem applies,
//! and go wherever a [`Game`] goes as [`Game::custom`].

pub(crate) mod custom;
pub(crate) mod hex;
pub(crate) mod moves;
pub(crate) mod names;
pub(crate) mod octal;
pub(crate) mod splits;
pub(crate) mod structure;

use std::fmt;

pub use custom::CustomGame;
pub use hex::HexCode;
pub use moves::{MAX_INTERVAL_MOVE, MAX_MOVE, MoveSet};
pub use names::{NAMES, Named};
pub use octal::{MAX_OCTAL_DIGITS, OctalCode};
pub use splits::{PeriodicLabels, SplitIter, Splits};
pub use structure::Structure;

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

    /// What the game declares about its moves ([`Structure::General`], nothing, by default).
    ///
    /// ```
    /// use nimcount::game::{HeapGame, Structure};
    /// use nimcount::grundy::find_period;
    /// use nimcount::progress::Silent;
    ///
    /// /// Remove 1, 4 or 6 stones, written as a rule rather than a list.
    /// struct OneFourSix;
    ///
    /// impl HeapGame for OneFourSix {
    ///     fn options(&self, n: u64, option: &mut dyn FnMut(&[u64])) {
    ///         for m in [1, 4, 6].into_iter().filter(|&m| m <= n) {
    ///             if m == n { option(&[]) } else { option(&[n - m]) }
    ///         }
    ///     }
    ///     fn name(&self) -> String {
    ///         "one-four-six".into()
    ///     }
    ///     fn structure(&self) -> Structure {
    ///         Structure::Subtraction { largest_move: Some(6) }
    ///     }
    /// }
    ///
    /// let search = find_period(&OneFourSix, 1000, &Silent)?;
    /// let c = search.certificate.expect("the subtraction-window theorem applies");
    /// assert_eq!((c.preperiod, c.period), (0, 5));
    /// # Ok::<(), nimcount::Error>(())
    /// ```
    fn structure(&self) -> Structure {
        Structure::General
    }

    /// The built-in game this is, when it is one: only [`Game`] answers, so that its closed
    /// forms and theorems apply through a `&dyn HeapGame`. Leave the default.
    fn builtin(&self) -> Option<&Game> {
        None
    }
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
    /// Hexadecimal game with some move that leaves three heaps (codes without one are
    /// [`Game::Octal`]).
    Hex(HexCode),
    /// Grundy's game: split a heap into two unequal non-empty heaps (no period is known).
    GrundyGame,
    /// Lasker's Nim: remove any positive number of stones, or split a heap into two non-empty
    /// heaps. `G(0) = 0` and, for `k >= 0`, `G(4k+1) = 4k+1`, `G(4k+2) = 4k+2`,
    /// `G(4k+3) = 4k+4`, `G(4k+4) = 4k+3`.
    Lasker,
    /// Take at most a fraction: remove `k` stones, `1 <= k <= ⌊n·P/Q⌋`, from a heap of `n`.
    /// The fraction is in lowest terms with `0 < P < Q <= 2^32` (with `P >= Q` every heap may be
    /// taken whole: that is Nim). For `1/2`, `G(2n) = n` and `G(2n + 1) = G(n)`.
    Fraction {
        /// `P`.
        numerator: u64,
        /// `Q`.
        denominator: u64,
    },
    /// A game of the user's ([`Game::custom`]); it has no specification to parse back.
    Custom(CustomGame),
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
        if let Some(named) = NAMES.iter().find(|named| named.is_alias() && named.name == text) {
            return Game::parse(named.spec);
        }
        let (name, argument) = match text.split_once(':') {
            Some((name, argument)) => (name.trim(), Some(argument)),
            None => (text, None),
        };
        match (name, argument) {
            ("nim", None) => Ok(Game::Nim),
            ("squares", None) => Ok(Game::Squares),
            ("grundy-game", None) => Ok(Game::GrundyGame),
            ("lasker", None) => Ok(Game::Lasker),
            ("nim" | "squares" | "grundy-game" | "lasker", Some(_)) => {
                Err(fail(format!("'{name}' takes no parameters")))
            }
            _ if NAMES.iter().any(|named| named.is_alias() && named.name == name) => {
                Err(fail(format!("'{name}' takes no parameters")))
            }
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
            ("hex", Some(code)) => {
                let code: HexCode = code.parse().map_err(restate)?;
                if code.leaves_three() {
                    return Ok(Game::Hex(code));
                }
                OctalCode::from_digits(code.digits()).map(Game::Octal).map_err(restate)
            }
            ("fraction", Some(fraction)) => parse_fraction(fraction).map_err(fail),
            ("subtract" | "allbut" | "octal" | "hex" | "fraction", None) => {
                Err(fail(format!("'{name}' needs parameters, e.g. {}", Game::example(name))))
            }
            ("", _) => Err(fail("empty specification".into())),
            ("moore", _) => Err(fail(
                "moore:K is Moore's Nim, whose moves change several heaps at once: it has no Grundy \
                 value per heap (its positions are decided and counted by a rule of their own)"
                    .into(),
            )),
            _ => Err(fail(format!(
                "unknown game '{}' (known: nim, subtract:…, allbut:…, octal:…, hex:…, squares, grundy-game, \
                 lasker, fraction:P/Q, and the names that `nimcount games` lists)",
                quote(name)
            ))),
        }
    }

    fn example(name: &str) -> &'static str {
        match name {
            "subtract" => "subtract:1,3,4 or subtract:1-10",
            "allbut" => "allbut:1,2",
            "hex" => "hex:0.F or hex:0.48",
            "fraction" => "fraction:1/2",
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

    /// A game of your own, to count its positions or search its period like a built-in one.
    ///
    /// ```
    /// use nimcount::count::Query;
    /// use nimcount::game::{Game, HeapGame};
    ///
    /// /// Take one stone, or two from an even heap.
    /// struct OneOrTwoFromEven;
    ///
    /// impl HeapGame for OneOrTwoFromEven {
    ///     fn options(&self, n: u64, option: &mut dyn FnMut(&[u64])) {
    ///         if n >= 1 { option(&[n - 1]) }
    ///         if n >= 2 && n % 2 == 0 { option(&[n - 2]) }
    ///     }
    ///     fn name(&self) -> String {
    ///         "one, or two from even".into()
    ///     }
    /// }
    ///
    /// let game = Game::custom(OneOrTwoFromEven);
    /// assert_eq!(game.spec(), "one, or two from even");
    /// let pairs = Query::new(game).sizes(0u32, 9u32).heaps(2u32).count()?;
    /// assert_eq!(pairs.total, 100u32.into());
    /// # Ok::<(), nimcount::Error>(())
    /// ```
    pub fn custom(game: impl HeapGame + 'static) -> Game {
        Game::Custom(CustomGame::new(game))
    }

    /// The canonical specification of this game (it parses back to the same game), or the name
    /// of a custom game.
    pub fn spec(&self) -> String {
        match self {
            Game::Nim => "nim".into(),
            Game::Subtract(moves) => format!("subtract:{moves}"),
            Game::AllBut(excluded) => format!("allbut:{excluded}"),
            Game::Octal(code) => format!("octal:{code}"),
            Game::Squares => "squares".into(),
            Game::Hex(code) => format!("hex:{code}"),
            Game::GrundyGame => "grundy-game".into(),
            Game::Lasker => "lasker".into(),
            Game::Fraction { numerator, denominator } => format!("fraction:{numerator}/{denominator}"),
            Game::Custom(game) => game.game().name(),
        }
    }

    /// The classic name of this game, when it has one (`kayles` for `octal:0.77`).
    ///
    /// ```
    /// use nimcount::game::Game;
    /// let kayles = Game::parse("kayles")?;
    /// assert_eq!(kayles, Game::parse("octal:0.77")?);
    /// assert_eq!((kayles.spec(), kayles.classic_name()), ("octal:0.77".to_string(), Some("kayles")));
    /// # Ok::<(), nimcount::Error>(())
    /// ```
    pub fn classic_name(&self) -> Option<&'static str> {
        let spec = self.spec();
        NAMES.iter().find(|named| named.is_alias() && named.spec == spec).map(|named| named.name)
    }
}

/// The largest denominator of `fraction:P/Q` (2^32: `n·P` stays within 128 bits for every heap).
pub const MAX_DENOMINATOR: u64 = 1 << 32;

/// `P/Q` in lowest terms, `0 < P < Q <= 2^32`; the reason on one line otherwise.
fn parse_fraction(text: &str) -> std::result::Result<Game, String> {
    let Some((p, q)) = text.split_once('/') else {
        return Err("expected a fraction P/Q such as 1/2 or 2/3".into());
    };
    let number = |part: &str| {
        let part = part.trim();
        if part.is_empty() {
            return Err("expected a fraction P/Q such as 1/2 or 2/3".to_string());
        }
        crate::number::parse_u64(part).map_err(|e| e.to_string())
    };
    let (p, q) = (number(p)?, number(q)?);
    if q == 0 {
        return Err("the denominator must be positive".into());
    }
    if p == 0 {
        return Err("the numerator must be positive (with P = 0 no move is allowed)".into());
    }
    if p >= q {
        return Err(format!("{p}/{q} is at least 1: every heap may be taken whole, and the game is nim"));
    }
    let g = num_integer::gcd(p, q);
    let (p, q) = (p / g, q / g);
    if q > MAX_DENOMINATOR {
        return Err(format!("the denominator {q} (in lowest terms) is larger than the limit 2^32"));
    }
    Ok(Game::Fraction { numerator: p, denominator: q })
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
            Game::Fraction { numerator, denominator } => {
                let most = (u128::from(n) * u128::from(*numerator) / u128::from(*denominator)) as u64;
                (1..=most).for_each(|k| leave(n - k))
            }
            Game::Lasker => {
                (1..=n).for_each(|k| leave(n - k));
                (1..=n / 2).for_each(|a| option(&[a, n - a]));
            }
            Game::GrundyGame => (1..=n.saturating_sub(1) / 2).for_each(|a| option(&[a, n - a])),
            Game::Hex(code) => {
                for j in 0..=code.last_digit().min(n) {
                    let (d, r) = (code.digit(j), n - j);
                    if r == 0 && d & 1 != 0 {
                        option(&[]);
                    }
                    if r > 0 && j > 0 && d & 2 != 0 {
                        option(&[r]);
                    }
                    if d & 4 != 0 {
                        (1..=r / 2).for_each(|a| option(&[a, r - a]));
                    }
                    if d & 8 != 0 {
                        for a in 1..=r / 3 {
                            (a..=(r - a) / 2).for_each(|b| option(&[a, b, r - a - b]));
                        }
                    }
                }
            }
            Game::Custom(game) => game.game().options(n, option),
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

    fn structure(&self) -> Structure {
        match self {
            Game::Subtract(moves) => Structure::Subtraction { largest_move: Some(moves.largest()) },
            Game::Nim | Game::AllBut(_) | Game::Squares => Structure::Subtraction { largest_move: None },
            Game::Octal(code) => Structure::Octal { last_digit: code.last_digit() },
            Game::Hex(_) | Game::GrundyGame | Game::Lasker | Game::Fraction { .. } => Structure::General,
            Game::Custom(game) => game.game().structure(),
        }
    }

    fn builtin(&self) -> Option<&Game> {
        match self {
            Game::Custom(game) => game.game().builtin(),
            _ => Some(self),
        }
    }
}
