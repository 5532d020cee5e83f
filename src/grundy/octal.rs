//! Octal games: the plain O(n²) computation (the reference) and the sparse-space method.
//!
//! **Sparse space.** Pick a bit mask; a value `v` is *common* when `popcount(v & mask)` is
//! odd and *rare* otherwise. Parity of `popcount(· & mask)` is additive under XOR, so a split
//! `a + b` gives a common value exactly when one part is rare and the other common. Hence the
//! common values among the options of a heap are all found by pairing each *rare position*
//! (heap size with a rare value) with the rest — O(#rare positions) per heap. That yields the
//! smallest absent common value `c`; the mex is `c` unless some rare value below `c` is
//! absent. Those few rare values are then looked for among all splits, stopping as soon as
//! each has been seen (usually after a short scan); only when one is truly absent — the heap
//! gets a rare value, which is rare — is the scan complete. The result is exact for every
//! mask (with mask 0 it is the plain method); the mask only decides the speed, and is
//! re-chosen from time to time to minimise the number of rare positions.
//!
//! Grundy's game (split a heap into two *unequal* heaps) is the code `4.0` without the equal
//! split `a = r − a`: the same method, with that one split left out of the pairs and scans.

use super::cost::{PULSE_WORK, Pulse};
use super::mex::mex;
use super::store::Value;
use crate::game::OctalCode;

/// Parity of `popcount(v & mask)`: 1 for common values, 0 for rare ones.
#[inline]
fn is_common(v: u32, mask: u32) -> bool {
    (v & mask).count_ones() & 1 == 1
}

/// Moves of an octal game, by amount taken.
#[derive(Debug, Clone)]
struct Takes {
    /// `digits[j]` for `j = 0..=t`.
    digits: Vec<u8>,
    /// Amounts `j` after which two heaps may be left (bit 4).
    split: Vec<usize>,
    /// Splits into two equal heaps are not moves (Grundy's game).
    unequal: bool,
}

impl Takes {
    fn new(code: &OctalCode) -> Takes {
        let digits: Vec<u8> = (0..=code.last_digit()).map(|j| code.digit(j)).collect();
        let split = code.split_takes().into_iter().map(|j| j as usize).collect();
        Takes { digits, split, unequal: false }
    }

    /// Grundy's game: split without taking, into two unequal heaps.
    fn grundy_game() -> Takes {
        Takes { digits: vec![4], split: vec![0], unequal: true }
    }

    /// The largest smaller part `a` of a split `r = a + (r − a)`: `r / 2`, or `(r − 1) / 2`
    /// when the parts must differ.
    #[inline]
    fn half(&self, r: usize) -> usize {
        if self.unequal { r.saturating_sub(1) / 2 } else { r / 2 }
    }

    /// Whether the rare position `a` pairs with `r − a` in a split that is a move: always, but
    /// for the equal split of Grundy's game.
    #[inline]
    fn pairs(&self, a: usize, r: usize) -> bool {
        !self.unequal || 2 * a != r
    }

    /// Inserts the values of the options of heap `n` that leave at most one heap.
    #[inline]
    fn single_options<T: Value>(&self, n: usize, values: &[T], mut insert: impl FnMut(u32)) {
        let t = self.digits.len() - 1;
        for j in 1..=t.min(n) {
            let d = self.digits[j];
            if j == n && d & 1 != 0 {
                insert(0);
            }
            if j < n && d & 2 != 0 {
                insert(values[n - j].into());
            }
        }
    }
}

/// Calls `f(G(a) ^ G(r - a))` for every split `r = a + (r - a)` with `1 <= a <= half`.
#[inline]
fn each_split<T: Value>(values: &[T], r: usize, half: usize, mut f: impl FnMut(u32)) {
    for (&x, &y) in values[1..=half].iter().zip(values[r - half..r].iter().rev()) {
        f(x.into() ^ y.into());
    }
}

/// The bit of `v` in its word (`wrapping_shl` takes the shift modulo 64: `v % 64`).
#[inline]
fn bit(v: u32) -> u64 {
    1u64.wrapping_shl(v)
}

/// Words for a bitset of the values below `2^(bits + 1)`.
fn words_for(bits: u32) -> usize {
    ((2usize << bits) / 64).max(1)
}

/// `G(0..count)` of an octal game by the textbook method: every split of every heap.
/// O(count²) for games that split; kept as the reference for the sparse-space method.
pub fn values_plain(code: &OctalCode, count: usize) -> Vec<u32> {
    let takes = Takes::new(code);
    let mut values: Vec<u32> = Vec::with_capacity(count);
    // Every value so far is below 2^bits, hence every option too, and the mex is <= 2^bits.
    let mut bits = 1;
    let mut seen = vec![0u64; words_for(bits)];
    for n in 0..count {
        seen.fill(0);
        let mut insert = |v: u32| seen[(v / 64) as usize] |= bit(v);
        takes.single_options(n, &values, &mut insert);
        for &j in &takes.split {
            if n >= j + 2 {
                each_split(&values, n - j, takes.half(n - j), &mut insert);
            }
        }
        let g = mex(&seen);
        if g >> bits != 0 {
            bits += 1;
            seen = vec![0; words_for(bits)];
        }
        values.push(g);
    }
    values
}

/// Incremental sparse-space computation of an octal game's values.
pub struct SparseSpace {
    takes: Takes,
    mask: u32,
    /// Heap sizes `a >= 1` whose value is rare under `mask`, increasing.
    pub rare: Vec<u32>,
    /// Every value so far is below `2^bits`, so every option value is too, and the mex is at
    /// most `2^bits`.
    bits: u32,
    /// Option values of the current heap (values below `2^(bits + 1)`).
    options: Vec<u64>,
    /// Rare values below `c` still to be found among the splits.
    wanted: Vec<u64>,
    /// Bit `i` of word `w`: whether `64 w + i` is common.
    common: Vec<u64>,
    /// Heap at which the mask is next reconsidered.
    next_review: usize,
    /// `histogram[v]`: heaps `a >= 1` with value `v`.
    histogram: Vec<u64>,
    /// What the computation has cost so far: pairs formed with rare positions, splits scanned
    /// (for missing rare values, or all of them while no mask pays), and words of the per-heap
    /// bit sets of values of 64 and more.
    pub pairs: u64,
    pub scanned: u64,
    pub words: u64,
    /// `pairs + scanned + words` at the next pulse.
    next_pulse: u64,
}

impl SparseSpace {
    pub fn new(code: &OctalCode) -> SparseSpace {
        SparseSpace::with_takes(Takes::new(code))
    }

    /// Grundy's game.
    pub fn grundy_game() -> SparseSpace {
        SparseSpace::with_takes(Takes::grundy_game())
    }

    fn with_takes(takes: Takes) -> SparseSpace {
        let mut sparse = SparseSpace {
            takes,
            mask: 0,
            rare: Vec::new(),
            bits: 1,
            options: Vec::new(),
            wanted: Vec::new(),
            common: Vec::new(),
            next_review: 64,
            histogram: Vec::new(),
            pairs: 0,
            scanned: 0,
            words: 0,
            next_pulse: PULSE_WORK,
        };
        sparse.resize();
        sparse
    }

    /// The current mask (for tests and diagnostics).
    #[cfg(feature = "internals")]
    pub fn mask(&self) -> u32 {
        self.mask
    }

    /// Resizes the per-heap bitsets after `bits` or `mask` changed.
    fn resize(&mut self) {
        let words = words_for(self.bits);
        self.options = vec![0; words];
        self.wanted = vec![0; words];
        self.common = (0..words)
            .map(|w| {
                (0..64).fold(0u64, |acc, i| acc | (u64::from(is_common((w * 64 + i) as u32, self.mask)) << i))
            })
            .collect();
    }

    /// Chooses the non-zero mask (over the bits in use) that leaves the fewest rare positions
    /// among `values[1..]`, and rebuilds the list of rare positions.
    fn review_mask<T: Value>(&mut self, values: &[T]) {
        let size = 1usize << self.bits;
        // rare(mask) = (N + Ĥ(mask)) / 2 where Ĥ is the Walsh–Hadamard transform of the value
        // histogram (kept as values come; recounting them at every review made the method
        // quadratic): minimise Ĥ over masks.
        let mut spectrum = vec![0i64; size];
        for (s, &count) in spectrum.iter_mut().zip(&self.histogram) {
            *s = count as i64;
        }
        let mut half = 1;
        while half < size {
            for block in spectrum.chunks_mut(2 * half) {
                let (low, high) = block.split_at_mut(half);
                for (u, v) in low.iter_mut().zip(high) {
                    (*u, *v) = (*u + *v, *u - *v);
                }
            }
            half *= 2;
        }
        let current = spectrum.get(self.mask as usize).copied().unwrap_or(i64::MAX);
        let (best, &best_value) =
            spectrum.iter().enumerate().skip(1).min_by_key(|&(_, &h)| h).expect("size >= 2");
        if best_value < current {
            self.mask = best as u32;
            self.rare = (1..values.len())
                .filter(|&a| !is_common(values[a].into(), self.mask))
                .map(|a| a as u32)
                .collect();
            self.resize();
        }
    }

    /// Computes `values[values.len()..upto]` (values must hold at least `G(0)` … from an
    /// earlier call or be empty). Returns `Some(g)` when the next value `g` does not fit in
    /// `T`: the caller stores it wider and continues. Stops early, returning `None` with fewer
    /// values, when `pulse` (called between values, about every [`PULSE_WORK`] counted steps)
    /// answers `true`.
    pub fn extend<T: Value>(&mut self, values: &mut Vec<T>, upto: usize, pulse: Pulse<'_>) -> Option<u32> {
        values.reserve(upto.saturating_sub(values.len()));
        while values.len() < upto {
            let work = self.pairs + self.scanned + self.words;
            if work >= self.next_pulse {
                self.next_pulse = work + PULSE_WORK;
                if pulse() {
                    return None;
                }
            }
            let n = values.len();
            if n >= self.next_review {
                self.review_mask(values);
                self.next_review = if n < 1 << 16 { 2 * n } else { n + (1 << 16) };
            }
            // Values below 64 (bits <= 6) keep their sets in one 128-bit register.
            let g = if self.bits <= 6 { self.value_narrow(n, values) } else { self.value(n, values) };
            if g >> self.bits != 0 {
                while g >> self.bits != 0 {
                    self.bits += 1;
                }
                self.resize();
            }
            if n >= 1 {
                if !is_common(g, self.mask) {
                    self.rare.push(n as u32);
                }
                if self.histogram.len() <= g as usize {
                    self.histogram.resize(g as usize + 1, 0);
                }
                self.histogram[g as usize] += 1;
            }
            match T::narrow(g) {
                Some(x) => values.push(x),
                None => return Some(g),
            }
        }
        None
    }

    /// [`value`](Self::value) when every value is below 64: the option values, the common
    /// values and the wanted rare values are bit sets in one `u64` each, in registers (the
    /// word-array version ORs into the same memory word pair after pair, a store-forwarding
    /// chain).
    fn value_narrow<T: Value>(&mut self, n: usize, values: &[T]) -> u32 {
        debug_assert!(self.bits <= 6);
        // Every option value is below 2^bits <= 64, so the mex is at most 64.
        let mut options = 0u64;
        self.takes.single_options(n, values, |v| options |= 1 << v);
        if 4 * self.rare.len() >= n || self.mask == 0 {
            for &j in &self.takes.split {
                if n >= j + 2 {
                    let half = self.takes.half(n - j);
                    each_split(values, n - j, half, |x| options |= 1 << x);
                    self.scanned += half as u64;
                }
            }
            return mex(&[options]);
        }
        for &j in &self.takes.split {
            if n >= j + 2 {
                let r = n - j;
                let below = self.rare.partition_point(|&a| (a as usize) < r);
                for &a in &self.rare[..below] {
                    if self.takes.pairs(a as usize, r) {
                        options |= 1 << (values[a as usize].into() ^ values[r - a as usize].into());
                    }
                }
                self.pairs += below as u64;
            }
        }
        let common = self.common[0];
        let c = (common & !options).trailing_zeros().min(1 << self.bits);
        let below = if c >= 64 { u64::MAX } else { (1 << c) - 1 };
        let mut wanted = !common & !options & below;
        if wanted == 0 {
            return c;
        }
        let mut scanned = 0u64;
        'scan: for &j in &self.takes.split {
            if n >= j + 2 {
                let (r, half) = (n - j, self.takes.half(n - j));
                for (&left, &right) in values[1..=half].iter().zip(values[r - half..r].iter().rev()) {
                    scanned += 1;
                    let x = left.into() ^ right.into();
                    if wanted >> x & 1 != 0 {
                        wanted &= !(1 << x);
                        if wanted == 0 {
                            break 'scan;
                        }
                    }
                }
            }
        }
        self.scanned += scanned;
        if wanted == 0 { c } else { wanted.trailing_zeros() }
    }

    /// `G(n)` from `values = G(0..n)`.
    fn value<T: Value>(&mut self, n: usize, values: &[T]) -> u32 {
        self.words += self.options.len() as u64;
        let options = &mut self.options;
        options.fill(0);
        let mut insert = |v: u32| options[(v / 64) as usize] |= bit(v);
        self.takes.single_options(n, values, &mut insert);
        if 4 * self.rare.len() >= n || self.mask == 0 {
            // No sparse space (yet): pairing the rare positions and then looking for the
            // missing rare values would cost more than every split.
            for &j in &self.takes.split {
                if n >= j + 2 {
                    let half = self.takes.half(n - j);
                    each_split(values, n - j, half, &mut insert);
                    self.scanned += half as u64;
                }
            }
            return mex(&self.options);
        }
        // Splits with a rare part: every common option value comes from one of these.
        for &j in &self.takes.split {
            if n >= j + 2 {
                let r = n - j;
                let below = self.rare.partition_point(|&a| (a as usize) < r);
                for &a in &self.rare[..below] {
                    let a = a as usize;
                    if self.takes.pairs(a, r) {
                        insert(values[a].into() ^ values[r - a].into());
                    }
                }
                self.pairs += below as u64;
            }
        }
        // c: the smallest absent common value (2^(bits+1) when there is none, mask 0).
        let words = self.options.len();
        let mut c = (words * 64) as u32;
        for w in 0..words {
            let absent = self.common[w] & !self.options[w];
            if absent != 0 {
                c = (w * 64) as u32 + absent.trailing_zeros();
                break;
            }
        }
        // Rare values below c not yet seen.
        let mut remaining = 0u32;
        for w in 0..words {
            let below = if (w as u32 + 1) * 64 <= c {
                u64::MAX
            } else if (w as u32) * 64 >= c {
                0
            } else {
                (1u64 << (c % 64)) - 1
            };
            let wanted = !self.common[w] & !self.options[w] & below;
            self.wanted[w] = wanted;
            remaining += wanted.count_ones();
        }
        if remaining == 0 {
            return c;
        }
        // Look for them among all splits, stopping once each has been seen.
        let (wanted, mut scanned) = (&mut self.wanted, 0u64);
        'scan: for &j in &self.takes.split {
            if n >= j + 2 {
                let (r, half) = (n - j, self.takes.half(n - j));
                for (&left, &right) in values[1..=half].iter().zip(values[r - half..r].iter().rev()) {
                    let x = left.into() ^ right.into();
                    scanned += 1;
                    let (w, bit) = ((x / 64) as usize, bit(x));
                    if wanted[w] & bit != 0 {
                        wanted[w] &= !bit;
                        remaining -= 1;
                        if remaining == 0 {
                            break 'scan;
                        }
                    }
                }
            }
        }
        self.scanned += scanned;
        if remaining == 0 {
            return c;
        }
        let w = self.wanted.iter().position(|&w| w != 0).expect("a wanted value remains");
        (w * 64) as u32 + self.wanted[w].trailing_zeros()
    }
}
