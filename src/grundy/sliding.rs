//! Sliding-window mex for games whose moves are runs of subtractions: subtraction games and
//! all-but games.
//!
//! From a heap `n`, a run of moves `lo..=hi` reaches the heaps `n - hi ..= n - lo`. Going from
//! `n` to `n + 1` that window slides by one: heap `n + 1 - lo` enters and heap `n - hi` leaves.
//! The values of the reachable heaps are kept as a multiset with a fast mex
//! ([`CountedMex`]), so each heap costs O(number of runs), whatever the number of moves.

use super::mex::CountedMex;
use super::store::Value;
use crate::game::MoveSet;

/// The sliding-window state: the multiset holds the values of the heaps reachable from the
/// last heap computed.
pub(crate) struct Sliding {
    /// Runs of moves `(lo, hi)`; `hi = None` for the unbounded run of an all-but game.
    runs: Vec<(u64, Option<u64>)>,
    reachable: CountedMex,
    /// One more than the largest value that entered through the unbounded run. Values of a
    /// prefix of heaps always form `0..max + 1` (a value v needs options of every value below
    /// v, at smaller heaps), so every value below `floor` is reachable for good: the mex
    /// search starts there.
    floor: u32,
}

impl Sliding {
    /// The subtraction game with these moves.
    pub fn subtraction(moves: &MoveSet) -> Sliding {
        let runs = moves.runs().iter().map(|&(lo, hi)| (lo, Some(hi))).collect();
        // The mex never exceeds the number of moves.
        let capacity = moves.len().min(1 << 20) + 1;
        Sliding { runs, reachable: CountedMex::with_capacity(capacity), floor: 0 }
    }

    /// The all-but game that forbids the moves in `excluded`.
    pub fn all_but(excluded: &MoveSet) -> Sliding {
        let mut runs = Vec::new();
        let mut next = 1;
        for &(first, last) in excluded.runs() {
            if first > next {
                runs.push((next, Some(first - 1)));
            }
            next = last + 1;
        }
        runs.push((next, None));
        Sliding { runs, reachable: CountedMex::with_capacity(1 << 12), floor: 0 }
    }

    /// Computes `values[values.len()..upto]`. Returns `Some(g)` when the next value `g` does
    /// not fit in `T`: the caller stores it wider and continues.
    pub fn extend<T: Value>(&mut self, values: &mut Vec<T>, upto: usize) -> Option<u32> {
        values.reserve(upto.saturating_sub(values.len()));
        while values.len() < upto {
            let n = values.len() as u64;
            if n > 0 {
                // Slide from heap n - 1 to heap n.
                for &(lo, hi) in &self.runs {
                    if n >= lo {
                        let entering: u32 = values[(n - lo) as usize].into();
                        self.reachable.insert(entering);
                        if hi.is_none() && entering >= self.floor {
                            self.floor = entering + 1;
                        }
                    }
                    if let Some(hi) = hi
                        && n > hi
                    {
                        self.reachable.remove(values[(n - 1 - hi) as usize].into());
                    }
                }
            }
            let g = self.reachable.mex_from(self.floor);
            match T::narrow(g) {
                Some(x) => values.push(x),
                None => return Some(g),
            }
        }
        None
    }

    /// The runs of moves slid per heap (the cost of a heap).
    pub fn runs(&self) -> usize {
        self.runs.len()
    }
}

/// Take at most a fraction `P/Q`: from heap `n` the moves reach the heaps
/// `n − ⌊n·P/Q⌋ ..= n − 1`. With `P < Q` the window's start `n − ⌊n·P/Q⌋ = ⌈n·(Q − P)/Q⌉` grows
/// by 0 or 1 from one heap to the next, so going from `n − 1` to `n` heap `n − 1` enters and at
/// most one heap leaves: O(1) per heap, values kept as a multiset with a fast mex.
pub(crate) struct FractionWindow {
    numerator: u64,
    denominator: u64,
    reachable: CountedMex,
    /// The first heap in the window of the last heap computed.
    start: u64,
}

impl FractionWindow {
    pub fn new(numerator: u64, denominator: u64) -> FractionWindow {
        FractionWindow { numerator, denominator, reachable: CountedMex::with_capacity(1 << 12), start: 0 }
    }

    /// `n − ⌊n·P/Q⌋` (`n·P < 2^96`: no overflow in 128 bits).
    fn start_of(&self, n: u64) -> u64 {
        n - (u128::from(n) * u128::from(self.numerator) / u128::from(self.denominator)) as u64
    }

    /// Computes `values[values.len()..upto]`. Returns `Some(g)` when the next value `g` does
    /// not fit in `T`: the caller stores it wider and continues.
    pub fn extend<T: Value>(&mut self, values: &mut Vec<T>, upto: usize) -> Option<u32> {
        values.reserve(upto.saturating_sub(values.len()));
        while values.len() < upto {
            let n = values.len() as u64;
            if n > 0 {
                self.reachable.insert(values[n as usize - 1].into());
                let start = self.start_of(n);
                for h in self.start..start {
                    self.reachable.remove(values[h as usize].into());
                }
                self.start = start;
            }
            let g = self.reachable.mex_from(0);
            match T::narrow(g) {
                Some(x) => values.push(x),
                None => return Some(g),
            }
        }
        None
    }
}
