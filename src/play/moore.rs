//! Moore's Nim-K: a move takes stones from at least one and at most `K` heaps.
//!
//! Write the heaps in binary. A position is lost for the player to move exactly when, in every
//! binary column, the number of heaps with a 1 there is a multiple of `K + 1` (Moore, 1910;
//! `K = 1` is Nim). From a lost position every move changes some top column by 1 to `K`, which
//! is no multiple of `K + 1`. From a won position, a winning move is built column by column from
//! the top: the heaps already reduced are free to take any bit below; a column whose 1s among the
//! other heaps leave a remainder `r` is fixed either by setting bits of free heaps, or by reducing
//! `r` more heaps that have a 1 there (their lower bits become free). At most `K` heaps change.
//!
//! Moore's Nim is not a sum of independent heaps, so it has no Grundy values of single heaps and
//! is not a [`Game`](crate::game::Game).

use num_bigint::BigUint;

use super::{Change, Move, Verdict};
use crate::error::{Error, Result};
use crate::number::parse_u64;

/// Moore's Nim-`K`: remove any positive number of stones from each of up to `K` heaps.
///
/// ```
/// use nimcount::play::{Moore, Verdict};
/// use num_bigint::BigUint;
///
/// let moore = Moore::parse("moore:2")?;
/// let heaps: Vec<BigUint> = [1u32, 2, 3, 3].map(Into::into).to_vec();
/// assert_eq!(moore.verdict(&heaps), Verdict::Lost); // three 1s in each column
/// let heaps: Vec<BigUint> = [1u32, 2, 3, 4].map(Into::into).to_vec();
/// let answer = moore.winning_move(&heaps).unwrap();
/// assert_eq!(answer.to_string(), "heap 4: 4 → 3"); // to 1 2 3 3
/// assert!(moore.winning_moves(&heaps).all(|m| m.changes.len() <= 2));
/// # Ok::<(), nimcount::Error>(())
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Moore {
    k: u64,
}

impl Moore {
    /// Moore's Nim-`k`; `k` must be at least 1.
    pub fn new(k: u64) -> Result<Moore> {
        if k == 0 {
            return Err(Error::InvalidGame {
                spec: "moore:0".into(),
                reason: "K must be at least 1: moore:K takes stones from up to K heaps".into(),
            });
        }
        Ok(Moore { k })
    }

    /// Parses `moore:K` (`K` a number such as `3` or `10^6`, at least 1).
    pub fn parse(spec: &str) -> Result<Moore> {
        let fail = |reason: String| Error::InvalidGame { spec: spec.to_string(), reason };
        let Some((name, k)) = spec.trim().split_once(':') else {
            return Err(fail(if Moore::names(spec) {
                "'moore' needs parameters, e.g. moore:2 (take from up to 2 heaps)".into()
            } else {
                "not moore:K".into()
            }));
        };
        if name.trim() != "moore" {
            return Err(fail("not moore:K".into()));
        }
        let k = parse_u64(k).map_err(|e| fail(e.to_string()))?;
        Moore::new(k)
            .map_err(|_| fail("K must be at least 1: moore:K takes stones from up to K heaps".into()))
    }

    /// Whether `spec` names Moore's Nim (`moore` or `moore:…`), well formed or not. The one
    /// parser of specifications ([`crate::spec::Spec`]) decides with it; nothing else looks.
    pub(crate) fn names(spec: &str) -> bool {
        spec.trim().split(':').next().map(str::trim) == Some("moore")
    }

    /// `K`, the most heaps a move may change.
    pub fn k(&self) -> u64 {
        self.k
    }

    /// The specification `moore:K`.
    pub fn spec(&self) -> String {
        format!("moore:{}", self.k)
    }

    /// The number of heaps with a 1 in each binary column, from the highest column of the
    /// largest heap down to bit 0 (empty when every heap is 0).
    pub fn column_ones(heaps: &[BigUint]) -> Vec<u64> {
        let mut ones = column_counts(heaps);
        ones.reverse();
        ones
    }

    /// Won or lost for the player to move: lost exactly when every column's count of 1s is a
    /// multiple of `K + 1`.
    pub fn verdict(&self, heaps: &[BigUint]) -> Verdict {
        let q = self.modulus_for(heaps.len());
        Verdict::lost_if(column_counts(heaps).iter().all(|&c| c % q == 0))
    }

    /// `K + 1`, or `heaps + 1` when `K` is larger than the number of heaps (a column's count is
    /// at most the number of heaps, so both say "no 1s at all").
    fn modulus_for(&self, heaps: usize) -> u64 {
        self.k.min(heaps as u64) + 1
    }

    /// One winning move, built column by column from the top (changing as few heaps at each
    /// column as it can), or `None` when the position is lost.
    pub fn winning_move(&self, heaps: &[BigUint]) -> Option<Move> {
        let q = self.modulus_for(heaps.len());
        let kmax = (q - 1) as usize;
        let ones = column_counts(heaps);
        if ones.iter().all(|&c| c % q == 0) {
            return None;
        }
        // Heaps already reduced, with their new values so far.
        let mut free: Vec<(usize, BigUint)> = Vec::new();
        let mut reduced = vec![false; heaps.len()];
        for column in (0..ones.len() as u64).rev() {
            let f = free.len();
            let a = ones[column as usize] - free.iter().filter(|(i, _)| heaps[*i].bit(column)).count() as u64;
            let (y, x) = choices(a, f, kmax, q).next().expect("every column has a choice");
            let mut dropped = 0;
            for (i, heap) in heaps.iter().enumerate() {
                if dropped == y {
                    break;
                }
                if !reduced[i] && heap.bit(column) {
                    reduced[i] = true;
                    free.push((i, (heap >> (column + 1)) << (column + 1)));
                    dropped += 1;
                }
            }
            for (_, value) in free.iter_mut().take(x) {
                value.set_bit(column, true);
            }
        }
        free.sort_unstable_by_key(|(i, _)| *i);
        let changes = free
            .into_iter()
            .map(|(i, to)| Change { heap: i, from: heaps[i].clone(), to: super::non_empty([to]) })
            .collect();
        Some(Move { changes })
    }

    /// Every winning move, each exactly once, as a lazy depth-first search over the columns from
    /// the top. Every branch of the search ends in a winning move (a column can always be
    /// fixed), so listing the moves costs time in proportion to their number and the columns.
    pub fn winning_moves<'h>(&self, heaps: &'h [BigUint]) -> MooreMoves<'h> {
        let q = self.modulus_for(heaps.len());
        let ones = column_counts(heaps);
        MooreMoves {
            heaps,
            kmax: (q - 1) as usize,
            q,
            columns: ones.len() as u64,
            ones,
            free: Vec::new(),
            reduced: vec![false; heaps.len()],
            stack: Vec::new(),
            started: false,
        }
    }
}

/// `ones[c]`: the heaps with bit `c` set, for `c` below the largest heap's length.
fn column_counts(heaps: &[BigUint]) -> Vec<u64> {
    let columns = heaps.iter().map(BigUint::bits).max().unwrap_or(0);
    let mut ones = vec![0u64; columns as usize];
    for heap in heaps {
        for (w, mut word) in heap.iter_u64_digits().enumerate() {
            while word != 0 {
                ones[w * 64 + word.trailing_zeros() as usize] += 1;
                word &= word - 1;
            }
        }
    }
    ones
}

/// The ways to fix a column: `(y, x)` with `y` more heaps reduced here (among `a` unreduced ones
/// with a 1, at most `kmax` reduced in all) and `x` of the `f` reduced heaps given a 1, such that
/// `a − y + x` is a multiple of `q`. Fewest new reductions first, then fewest 1s.
fn choices(a: u64, f: usize, kmax: usize, q: u64) -> impl Iterator<Item = (usize, usize)> {
    let most = (a as usize).min(kmax - f);
    (0..=most).flat_map(move |y| {
        // x ≡ y − a (mod q)
        let first = ((y as u64 % q + q - a % q) % q) as usize;
        (first..=f).step_by(q as usize).map(move |x| (y, x))
    })
}

/// The winning moves of Moore's Nim-K from one position ([`Moore::winning_moves`]).
#[derive(Debug)]
pub struct MooreMoves<'h> {
    heaps: &'h [BigUint],
    kmax: usize,
    q: u64,
    columns: u64,
    ones: Vec<u64>,
    /// Heaps reduced so far on the current branch, with the column where they were reduced.
    free: Vec<(usize, u64)>,
    reduced: Vec<bool>,
    /// One frame per column, from the top column down.
    stack: Vec<Frame>,
    started: bool,
}

/// The choices at one column and the one being explored.
#[derive(Debug)]
struct Frame {
    column: u64,
    /// `free.len()` before this column's reductions.
    free_before: usize,
    /// The unreduced heaps with a 1 in this column (only when some choice reduces one).
    candidates: Vec<usize>,
    options: Vec<(usize, usize)>,
    option: usize,
    /// The current choice: which candidates are reduced and which reduced heaps get a 1 (both
    /// as increasing positions).
    reduce: Vec<usize>,
    set: Vec<usize>,
}

impl MooreMoves<'_> {
    /// Enters `column` with its first choice; false when it has none (never, by the argument in
    /// the module documentation).
    fn push(&mut self, column: u64) -> bool {
        let f = self.free.len();
        let mut a = self.ones[column as usize];
        for &(i, _) in &self.free {
            a -= u64::from(self.heaps[i].bit(column));
        }
        let options: Vec<(usize, usize)> = choices(a, f, self.kmax, self.q).collect();
        let Some(&(y, x)) = options.first() else {
            debug_assert!(false, "a column without a choice");
            return false;
        };
        let candidates = if options.iter().any(|&(y, _)| y > 0) {
            (0..self.heaps.len()).filter(|&i| !self.reduced[i] && self.heaps[i].bit(column)).collect()
        } else {
            Vec::new()
        };
        let frame = Frame {
            column,
            free_before: f,
            candidates,
            options,
            option: 0,
            reduce: (0..y).collect(),
            set: (0..x).collect(),
        };
        self.stack.push(frame);
        self.apply();
        true
    }

    /// Applies the top frame's current choice to `free`.
    fn apply(&mut self) {
        let frame = self.stack.last().expect("a frame");
        for &(i, _) in &self.free[frame.free_before..] {
            self.reduced[i] = false;
        }
        self.free.truncate(frame.free_before);
        for &r in &frame.reduce {
            let i = frame.candidates[r];
            self.reduced[i] = true;
            self.free.push((i, frame.column));
        }
    }

    /// Moves the top frame to its next choice; false when it has none left.
    fn advance(&mut self) -> bool {
        let frame = self.stack.last_mut().expect("a frame");
        let advanced = next_combination(&mut frame.set, frame.free_before)
            || next_combination(&mut frame.reduce, frame.candidates.len()) && {
                frame.set = (0..frame.set.len()).collect();
                true
            }
            || frame.option + 1 < frame.options.len() && {
                frame.option += 1;
                let (y, x) = frame.options[frame.option];
                frame.reduce = (0..y).collect();
                frame.set = (0..x).collect();
                true
            };
        if advanced {
            self.apply();
        }
        advanced
    }

    /// Leaves the top frame, undoing its reductions.
    fn pop(&mut self) {
        let frame = self.stack.pop().expect("a frame");
        for &(i, _) in &self.free[frame.free_before..] {
            self.reduced[i] = false;
        }
        self.free.truncate(frame.free_before);
    }

    /// The move at the end of the current branch.
    fn current(&self) -> Move {
        let mut values: Vec<BigUint> =
            self.free.iter().map(|&(i, column)| (&self.heaps[i] >> (column + 1)) << (column + 1)).collect();
        for frame in &self.stack {
            for &s in &frame.set {
                values[s].set_bit(frame.column, true);
            }
        }
        let mut changes: Vec<Change> = self
            .free
            .iter()
            .zip(values)
            .map(|(&(i, _), to)| Change { heap: i, from: self.heaps[i].clone(), to: super::non_empty([to]) })
            .collect();
        changes.sort_unstable();
        Move { changes }
    }
}

impl Iterator for MooreMoves<'_> {
    type Item = Move;

    fn next(&mut self) -> Option<Move> {
        let mut resume = self.started;
        if !self.started {
            self.started = true;
            if self.columns == 0 || !self.push(self.columns - 1) {
                return None;
            }
        }
        loop {
            if resume {
                while !self.advance() {
                    self.pop();
                    self.stack.last()?;
                }
            }
            resume = true;
            let mut complete = true;
            while let Some(column) = self.stack.last().map(|f| f.column).filter(|&c| c > 0) {
                if !self.push(column - 1) {
                    complete = false;
                    break;
                }
            }
            if complete && !self.free.is_empty() {
                return Some(self.current());
            }
        }
    }
}

/// The next `k`-subset of `0..n` in lexicographic order, in place; false (and unchanged) after
/// the last one.
pub fn next_combination(c: &mut [usize], n: usize) -> bool {
    let k = c.len();
    for i in (0..k).rev() {
        if c[i] < n - k + i {
            c[i] += 1;
            for j in i + 1..k {
                c[j] = c[j - 1] + 1;
            }
            return true;
        }
    }
    false
}
