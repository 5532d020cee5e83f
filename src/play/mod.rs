//! Positions, not only counts: who wins one position, and how.
//!
//! A position is a list of heaps; the player to move either **wins** (some move leaves a position
//! lost for the opponent) or **loses** (every move leaves one the opponent wins). Heaps are
//! numbered from 0 here and in JSON, from 1 in the text the command-line tool prints.
//!
//! - [`Position`]: a position of a heap game, judged by Sprague–Grundy: lost exactly when the XOR
//!   of the heaps' Grundy values is 0; a winning move takes one heap `n` to an option whose value
//!   is `G(n) ⊕ xor`. The heaps' options and values come from [`Rules`]: Nim (any size), a
//!   built-in game (any size when a proven period allows it), or your own
//!   [`HeapGame`](crate::game::HeapGame) with the values of [`crate::grundy::values_of`].
//!   Misère Nim (whoever takes the last stone loses) is [`Position::misere_nim`]. A position
//!   whose heaps belong to different games is [`Position::mixed`].
//! - [`MiserePosition`]: misère play of any heap games (mixed ones too): Nim's rule, a closed
//!   form for heaps whose values are 0 and 1, or a memoised search with a limit.
//! - [`Moore`]: Moore's Nim-K, where a move takes stones from up to `K` heaps at once; not a
//!   sum of heaps, so it has no Grundy values of heaps. A position is lost exactly when in every
//!   binary column the number of 1s is a multiple of `K + 1`.
//! - [`Staircase`]: coins on steps `1, 2, …` move one step down (step 0 collects them); only the
//!   odd steps count, and a position is lost exactly when the XOR of the base game's values over
//!   the odd steps is 0.
//!
//! The classic teaching examples:
//!
//! ```
//! use nimcount::play::{Moore, Position, Rules, Verdict};
//!
//! // Nim 3 4 5: 3 ⊕ 4 ⊕ 5 = 2, so the player to move wins, taking heap 3 to 3 ⊕ 2 = 1.
//! let nim = Rules::nim();
//! let position = Position::new(&nim, [3u32, 4, 5])?;
//! assert_eq!(position.xor().to_string(), "2");
//! assert_eq!(position.verdict(), Verdict::Won);
//! let best = position.winning_moves().next().unwrap();
//! assert_eq!(best.to_string(), "heap 1: 3 → 1");
//!
//! // Moore's Nim-2, 1 2 3 3 (binary 01 10 11 11): three 1s in bit 1, three in bit 0, both
//! // multiples of 3: lost.
//! let moore = Moore::new(2)?;
//! assert_eq!(moore.verdict(&[1u32, 2, 3, 3].map(Into::into)), Verdict::Lost);
//!
//! // Misère Nim: 1 1 1 is lost (three single stones: you take the second to last),
//! // 1 1 is won (take one, the opponent must take the last).
//! assert_eq!(Position::misere_nim([1u32, 1, 1]).verdict(), Verdict::Lost);
//! assert_eq!(Position::misere_nim([1u32, 1]).verdict(), Verdict::Won);
//! # Ok::<(), nimcount::Error>(())
//! ```

mod misere;
mod moore;
mod position;
mod rules;
mod staircase;

use std::fmt;

use num_bigint::BigUint;

pub use misere::{MISERE_MAX_POSITIONS, MiserePosition, MisereRule, MisereSearch};
pub use moore::{Moore, MooreMoves};
pub use position::{Position, WinningMoves};
pub use rules::Rules;
pub use staircase::{Staircase, StaircaseMoves};

/// Who wins a position, from the point of view of the player to move.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Verdict {
    /// The player to move has a move to a position lost for the opponent.
    Won,
    /// Every move leaves a position won for the opponent (or there is no move).
    Lost,
}

impl Verdict {
    /// `"won"` or `"lost"`.
    pub fn as_str(self) -> &'static str {
        match self {
            Verdict::Won => "won",
            Verdict::Lost => "lost",
        }
    }

    /// `Lost` when `lost`, else `Won`.
    pub fn lost_if(lost: bool) -> Verdict {
        if lost { Verdict::Lost } else { Verdict::Won }
    }
}

impl fmt::Display for Verdict {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// What a move does to one heap: heap `heap` (counted from 0) of `from` stones is replaced by the
/// heaps `to` (empty when the heap is emptied; two heaps for a split).
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Change {
    /// The heap's index, from 0.
    pub heap: usize,
    /// Its size before the move.
    pub from: BigUint,
    /// The non-empty heaps left in its place.
    pub to: Vec<BigUint>,
}

/// A move: the changes it makes, one for most games, up to `K` in Moore's Nim-K, two in a
/// staircase (the step the coins leave and the step below that gains them).
///
/// Displayed with heaps counted from 1: `heap 1: 3 → 1`, `heap 2: 7 → 2 + 3`,
/// `heap 1: 5 → 0, heap 3: 2 → 1` (a staircase move has its own wording,
/// [`Staircase::describe`]).
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Move {
    /// The changes, by increasing heap index.
    pub changes: Vec<Change>,
}

impl Move {
    /// The move that replaces heap `heap` of `from` stones by `to`.
    pub fn single(heap: usize, from: BigUint, to: Vec<BigUint>) -> Move {
        Move { changes: vec![Change { heap, from, to }] }
    }
}

impl fmt::Display for Change {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "heap {}: {} → ", self.heap + 1, self.from)?;
        if self.to.is_empty() {
            return f.write_str("0");
        }
        for (i, h) in self.to.iter().enumerate() {
            if i > 0 {
                f.write_str(" + ")?;
            }
            write!(f, "{h}")?;
        }
        Ok(())
    }
}

impl fmt::Display for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, change) in self.changes.iter().enumerate() {
            if i > 0 {
                f.write_str(", ")?;
            }
            write!(f, "{change}")?;
        }
        Ok(())
    }
}

/// The heaps `to` of a change written as one list: `[]` for an emptied heap, `[m]`, `[a, b]`.
fn non_empty(heaps: impl IntoIterator<Item = BigUint>) -> Vec<BigUint> {
    heaps.into_iter().filter(|h| h.bits() > 0).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn moves_print_with_heaps_from_one() {
        let big = |n: u32| BigUint::from(n);
        assert_eq!(Move::single(0, big(3), vec![big(1)]).to_string(), "heap 1: 3 → 1");
        assert_eq!(Move::single(1, big(7), vec![big(2), big(3)]).to_string(), "heap 2: 7 → 2 + 3");
        let two = Move {
            changes: vec![
                Change { heap: 0, from: big(5), to: vec![] },
                Change { heap: 2, from: big(2), to: vec![big(1)] },
            ],
        };
        assert_eq!(two.to_string(), "heap 1: 5 → 0, heap 3: 2 → 1");
        assert_eq!(non_empty([big(0), big(4)]), vec![big(4)]);
        assert_eq!(Verdict::lost_if(true).to_string(), "lost");
    }
}
