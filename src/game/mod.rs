//! Heap games: what a move does to one heap.
//!
//! (Interface stub: the implementation lands with the Grundy work.)

use crate::error::Result;

/// A heap game defined by the options of a single heap.
///
/// A move takes one heap of size `n` and leaves zero or more non-empty heaps (taking the whole
/// heap leaves none; an ordinary subtraction leaves one smaller heap; a split leaves several).
/// Every heap left must be smaller than `n` or the game would not terminate.
pub trait HeapGame: Send + Sync {
    /// Calls `option` once for every position reachable from one heap of size `n`, each given as
    /// the list of non-empty heaps it leaves (duplicates are allowed and harmless).
    fn options(&self, n: u64, option: &mut dyn FnMut(&[u64]));

    /// A short human-readable name.
    fn name(&self) -> String;
}

/// The built-in games, parsed from specifications such as `octal:0.07` or `subtract:1-3,7`.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum Game {
    /// Nim: remove any positive number of stones (`G(n) = n`).
    Nim,
}

impl Game {
    /// Parses a game specification.
    pub fn parse(spec: &str) -> Result<Game> {
        Err(crate::Error::InvalidGame { spec: spec.into(), reason: "not implemented yet".into() })
    }

    /// The canonical specification of this game.
    pub fn spec(&self) -> String {
        match self {
            Game::Nim => "nim".into(),
        }
    }
}
