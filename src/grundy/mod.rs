//! Grundy values and certified periodicity.
//!
//! (Interface stub: the implementation lands with the Grundy work.)

use crate::error::Result;
use crate::game::Game;
use crate::progress::Progress;

/// The theorem a periodicity certificate stands on.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum Theorem {
    /// Nim: `G(n) = n` (arithmetic-periodic with preperiod 0, period 1, saltus 1).
    Nim,
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
    /// The game searched.
    pub game: Game,
    /// `G(0)`, `G(1)`, … — every value computed (at least `preperiod + period` of them when a
    /// certificate was found).
    pub values: Vec<u32>,
    /// The largest value computed.
    pub max_value: u32,
    /// The certificate, or `None` when no period was proven within the limit.
    pub certificate: Option<Certificate>,
}

/// `G(0)`, …, `G(count - 1)` of a built-in game.
pub fn values(game: &Game, count: u64, progress: &dyn Progress) -> Result<Vec<u32>> {
    let _ = (game, count, progress);
    todo!("Grundy values")
}

/// Searches for a certified period, computing at most `max_heap` values.
pub fn find_period(game: &Game, max_heap: u64, progress: &dyn Progress) -> Result<PeriodSearch> {
    let _ = (game, max_heap, progress);
    todo!("period search")
}
