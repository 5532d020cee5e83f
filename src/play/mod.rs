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

pub(crate) mod misere;
pub(crate) mod moore;
pub(crate) mod position;
pub(crate) mod rules;
pub(crate) mod staircase;

use std::fmt;

use num_bigint::BigUint;

use crate::error::{Bytes, Error, Result};

pub use misere::{
    MISERE_KEPT_MOVES, MISERE_MAX_MOVES, MISERE_MAX_POSITIONS, MiserePosition, MisereRule, MisereSearch,
    PLAY_BUDGET,
};
pub use moore::{Moore, MooreMoves};
pub use position::{Position, WinningMoves};
pub use rules::Rules;
pub use staircase::{Staircase, StaircaseMoves};

/// The most bits a heap may have: positions of larger heaps are refused before they are judged
/// (about 315 000 decimal digits; judging, and writing out a heap and its moves in decimal,
/// take well under a second up to there).
pub const MAX_HEAP_BITS: u64 = 1 << 20;

/// Refuses a heap of more than [`MAX_HEAP_BITS`] bits ([`Error::HeapTooLarge`]).
///
/// ```
/// use nimcount::play::check_heap;
/// assert!(check_heap(&nimcount::number::parse("10^300000")?).is_ok());
/// assert!(check_heap(&nimcount::number::parse("2^100000000")?).is_err());
/// # Ok::<(), nimcount::Error>(())
/// ```
pub fn check_heap(heap: &BigUint) -> Result<()> {
    if heap.bits() > MAX_HEAP_BITS {
        return Err(Error::HeapTooLarge { bits: heap.bits(), limit: MAX_HEAP_BITS });
    }
    Ok(())
}

/// The most bytes a list of moves may take ([`list_moves`]): 256 MiB, far above the 100 000
/// moves of Nim heaps of hundreds of digits, far below what Moore's Nim-K can list (moves of
/// up to K changes each).
pub const MAX_LIST_BYTES: u64 = 1 << 28;

/// At most `most` of `moves`, listed within [`MAX_LIST_BYTES`] and the memory available: a list
/// that would take more is refused ([`Error::MovesTooLarge`]) as soon as it passes the bound,
/// before the next move is kept. Take `most` one above what you show to learn whether there are
/// more.
///
/// ```
/// use nimcount::play::{Moore, list_moves};
/// let heaps = [7u32, 7, 7, 7].map(Into::into);
/// let moves = list_moves(Moore::new(2)?.winning_moves(&heaps), 10)?;
/// assert!(!moves.is_empty() && moves.len() <= 10);
/// # Ok::<(), nimcount::Error>(())
/// ```
pub fn list_moves(moves: impl IntoIterator<Item = Move>, most: usize) -> Result<Vec<Move>> {
    let limit = crate::memory::available().map_or(MAX_LIST_BYTES, |room| room.min(MAX_LIST_BYTES));
    let mut listed = Vec::new();
    let mut bytes = 0u64;
    for m in moves.into_iter().take(most) {
        // The move and its slot in the list, twice over while the list grows.
        bytes = bytes.saturating_add(m.bytes() + 2 * std::mem::size_of::<Move>() as u64);
        if bytes > limit {
            return Err(Error::MovesTooLarge { moves: listed.len(), limit: Bytes(limit) });
        }
        listed.push(m);
    }
    Ok(listed)
}

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

    /// The bytes the move holds outside its own struct: its changes and their numbers (an
    /// estimate that counts each number's digits and the allocator's header of each vector).
    pub fn bytes(&self) -> u64 {
        const HEADER: u64 = 16;
        let number = |x: &BigUint| std::mem::size_of::<BigUint>() as u64 + HEADER + x.bits().div_ceil(64) * 8;
        let change = |c: &Change| {
            std::mem::size_of::<Change>() as u64
                + number(&c.from)
                + HEADER
                + c.to.iter().map(number).sum::<u64>()
        };
        HEADER + self.changes.iter().map(change).sum::<u64>()
    }
}

impl Change {
    /// The change as [`Display`](fmt::Display) writes it, each number written by `number`.
    pub fn describe(&self, number: &dyn Fn(&BigUint) -> String) -> String {
        let to = if self.to.is_empty() {
            "0".to_string()
        } else {
            self.to.iter().map(number).collect::<Vec<_>>().join(" + ")
        };
        format!("heap {}: {} → {to}", self.heap + 1, number(&self.from))
    }
}

impl Move {
    /// The move as [`Display`](fmt::Display) writes it, each number written by `number`: for
    /// instance [`message::short`](crate::message::short) for numbers of millions of digits.
    ///
    /// ```
    /// use nimcount::play::Move;
    /// let m = Move::single(0, nimcount::number::parse("2^300000")?, vec![7u8.into()]);
    /// assert_eq!(
    ///     m.describe(&nimcount::message::short),
    ///     "heap 1: 2^300000 → 7"
    /// );
    /// # Ok::<(), nimcount::Error>(())
    /// ```
    pub fn describe(&self, number: &dyn Fn(&BigUint) -> String) -> String {
        self.changes.iter().map(|c| c.describe(number)).collect::<Vec<_>>().join(", ")
    }
}

impl fmt::Display for Change {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.describe(&BigUint::to_string))
    }
}

impl fmt::Display for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.describe(&BigUint::to_string))
    }
}

/// The heaps `to` of a change written as one list: `[]` for an emptied heap, `[m]`, `[a, b]`.
pub(crate) fn non_empty(heaps: impl IntoIterator<Item = BigUint>) -> Vec<BigUint> {
    heaps.into_iter().filter(|h| h.bits() > 0).collect()
}
