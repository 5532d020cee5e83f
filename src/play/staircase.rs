//! Staircase Nim and its relatives: coins on steps move one step down.
//!
//! Steps are numbered `1, 2, …`; a move takes coins from step `i` to step `i − 1` (coins moved
//! to step 0 leave the game), as many as the base game lets a move take from a heap of that
//! size: any positive number for Nim, at most `s` for `subtract:1-s` (the bounded staircase).
//! Only the odd steps matter: coins moved from an odd step to an even one act like a move of the
//! base game on the odd step's heap, and a move from an even step `i` to the odd step `i − 1` can
//! be undone by moving the same coins on from `i − 1` to `i − 2`. So a position is lost exactly
//! when the XOR of the base game's values over the odd steps is 0, and a winning move either
//! moves coins off an odd step like the base game's winning move, or moves coins onto an odd step
//! from the even step above when that gives it the value the XOR asks for.

use num_bigint::BigUint;
use num_traits::Zero;

use super::{Change, Move, Rules, Verdict};
use crate::error::Result;

/// A staircase position: `steps[0]` coins on step 1, `steps[1]` on step 2, …
///
/// The base game must take stones (Nim, `subtract:…`, `allbut:…`, `squares`, or a game of your
/// own whose allowed numbers of stones do not depend on the heap). Only the odd steps matter:
/// coins moved from an odd step to an even one act like a move of the base game on the odd step's
/// heap, and a move from an even step `i` to the odd step `i − 1` can be undone by moving the same
/// coins on to `i − 2`. So a position is lost exactly when the XOR of the base game's values over
/// the odd steps is 0.
///
/// ```
/// use nimcount::play::{Rules, Staircase, Verdict};
///
/// // Steps 1..3 hold 3, 0, 5 coins: odd steps 3 and 5, XOR 6, won. Moving 2 coins from step
/// // 3 leaves 3 ⊕ 3 = 0.
/// let nim = Rules::nim();
/// let stairs = Staircase::new(&nim, [3u32, 0, 5])?;
/// assert_eq!(stairs.verdict(), Verdict::Won);
/// let first = stairs.winning_moves().next().unwrap();
/// assert_eq!(Staircase::describe(&first), "step 3: 5 → 3, step 2 gains 2");
/// # Ok::<(), nimcount::Error>(())
/// ```
#[derive(Debug)]
pub struct Staircase<'r> {
    rules: &'r Rules<'r>,
    steps: Vec<BigUint>,
    grundy: Vec<BigUint>,
    xor: BigUint,
}

impl<'r> Staircase<'r> {
    /// The staircase with `steps[i]` coins on step `i + 1`.
    ///
    /// Fails when the base game does not take stones, or when the values it needs are not known:
    /// those of every step, and of every odd step plus the coins of the step above (a move may
    /// bring them down).
    pub fn new<T: Into<BigUint>>(rules: &'r Rules<'r>, steps: impl IntoIterator<Item = T>) -> Result<Self> {
        rules.check_take_away()?;
        let steps: Vec<BigUint> = steps.into_iter().map(Into::into).collect();
        steps.iter().try_for_each(super::check_heap)?;
        let grundy = steps.iter().map(|c| rules.value_or_error(c)).collect::<Result<Vec<_>>>()?;
        for pair in steps.windows(2).step_by(2) {
            rules.value_or_error(&(&pair[0] + &pair[1]))?;
        }
        let xor = grundy.iter().step_by(2).fold(BigUint::zero(), |x, g| x ^ g);
        Ok(Staircase { rules, steps, grundy, xor })
    }

    /// The coins on each step, from step 1 up.
    pub fn steps(&self) -> &[BigUint] {
        &self.steps
    }

    /// The base game's value of each step's coins.
    pub fn grundy(&self) -> &[BigUint] {
        &self.grundy
    }

    /// The XOR of the values of the odd steps `1, 3, 5, …`.
    pub fn xor(&self) -> &BigUint {
        &self.xor
    }

    /// Won or lost for the player to move.
    pub fn verdict(&self) -> Verdict {
        Verdict::lost_if(self.xor.is_zero())
    }

    /// Every winning move, step by step from step 1. A move has one change (coins off step 1) or
    /// two, by increasing index: the step below gains what the step above loses.
    pub fn winning_moves(&self) -> StaircaseMoves<'_> {
        let steps = if self.xor.is_zero() { 0 } else { self.steps.len() };
        StaircaseMoves { staircase: self, step: 0, steps, pending: Vec::new().into_iter() }
    }

    /// `step i: n → m, step i−1 gains n−m` (steps from 1, step 0 collecting the coins).
    pub fn describe(m: &Move) -> String {
        Staircase::describe_with(m, &BigUint::to_string)
    }

    /// [`describe`](Staircase::describe), each number written by `number`.
    pub fn describe_with(m: &Move, number: &dyn Fn(&BigUint) -> String) -> String {
        let Some(from) = m.changes.iter().find(|c| c.to.first().is_none_or(|to| *to < c.from)) else {
            return m.describe(number);
        };
        let left = from.to.first().cloned().unwrap_or_default();
        format!(
            "step {}: {} → {}, step {} gains {}",
            from.heap + 1,
            number(&from.from),
            number(&left),
            from.heap,
            number(&(&from.from - &left))
        )
    }

    /// The winning moves that take coins from step `j + 1`.
    fn moves_from(&self, j: usize) -> Vec<Move> {
        let coins = &self.steps[j];
        // Onto step j, which is step 0 (off the staircase) for j = 0.
        let below = j.checked_sub(1).map(|b| &self.steps[b]);
        let moved = |k: BigUint| {
            let mut changes = Vec::with_capacity(2);
            if let Some(b) = below {
                changes.push(Change { heap: j - 1, from: b.clone(), to: vec![b + &k] });
            }
            changes.push(Change { heap: j, from: coins.clone(), to: super::non_empty([coins - &k]) });
            Move { changes }
        };
        if j.is_multiple_of(2) {
            // An odd step: its value must become G ⊕ xor.
            let target = &self.grundy[j] ^ &self.xor;
            self.rules
                .options_with_value(coins, &target)
                .into_iter()
                .map(|left| moved(coins - left.first().cloned().unwrap_or_default()))
                .collect()
        } else {
            // An even step: the odd step below must reach G(below) ⊕ xor.
            let b = below.expect("an even step has an odd step below");
            let target = &self.grundy[j - 1] ^ &self.xor;
            self.rules.takes_to_value(coins, b, &target).into_iter().map(moved).collect()
        }
    }
}

/// The winning moves of a [`Staircase`], step by step.
#[derive(Debug)]
pub struct StaircaseMoves<'s> {
    staircase: &'s Staircase<'s>,
    step: usize,
    steps: usize,
    pending: std::vec::IntoIter<Move>,
}

impl Iterator for StaircaseMoves<'_> {
    type Item = Move;

    fn next(&mut self) -> Option<Move> {
        loop {
            if let Some(m) = self.pending.next() {
                return Some(m);
            }
            if self.step == self.steps {
                return None;
            }
            self.pending = self.staircase.moves_from(self.step).into_iter();
            self.step += 1;
        }
    }
}
