//! Hexadecimal games: moves that leave up to three heaps.
//!
//! For every heap `m` the set `S2(m) = {G(a) ⊕ G(m − a) : 1 <= a <= m/2}` of the values of its
//! splits into two non-empty heaps is kept as a bit set (one pass over the splits of `m`, once).
//! A split of `r` into three non-empty heaps has a smallest part `a <= r/3`, and the other two
//! are a split of `r − a`; conversely every `a <= r/3` with a split of `r − a` is a split of
//! `r` into three. So the values of the three-heap options of `r` are exactly
//! `⋃_{1 <= a <= r/3} G(a) ⊕ S2(r − a)`: a heap costs `O(r · |S2|)`, not `O(r²)`.

use super::cost::{PULSE_WORK, Pulse};
use super::mex::mex;
use super::store::Value;
use crate::error::Result;
use crate::game::HexCode;

/// Incremental computation of a hexadecimal game's values.
pub struct HexValues {
    /// `digits[j]` for `j = 0..=t`.
    digits: Vec<u8>,
    /// Every value so far is below `2^bits`, so every option value is too.
    bits: u32,
    /// Words of one set `S2(m)` (values below `2^bits`).
    stride: usize,
    /// `S2(m)` for `m = 0, 1, …` (empty for 0 and 1), `stride` words each.
    pairs: Vec<u64>,
    /// Option values of the current heap (values below `2^(bits + 1)`: the mex fits).
    options: Vec<u64>,
    /// Operations so far: splits into two scanned, values of three-heap options inserted, and
    /// words of bit sets read.
    pub work: u64,
    /// `work` at the next pulse.
    next_pulse: u64,
}

impl HexValues {
    pub fn new(code: &HexCode) -> HexValues {
        HexValues {
            digits: code.digits().to_vec(),
            bits: 1,
            stride: 1,
            pairs: Vec::new(),
            options: vec![0; 1],
            work: 0,
            next_pulse: PULSE_WORK,
        }
    }

    /// Words for `bits` bits of values: sets of the values below `2^bits`.
    fn words(bits: u32) -> usize {
        ((1usize << bits) / 64).max(1)
    }

    /// Widens every stored set after `bits` grew.
    fn widen(&mut self, bits: u32) {
        let stride = HexValues::words(bits);
        if stride != self.stride {
            let heaps = self.pairs.len() / self.stride;
            let mut pairs = vec![0u64; heaps * stride];
            for m in 0..heaps {
                pairs[m * stride..m * stride + self.stride]
                    .copy_from_slice(&self.pairs[m * self.stride..(m + 1) * self.stride]);
            }
            (self.pairs, self.stride) = (pairs, stride);
        }
        self.bits = bits;
        self.options = vec![0; HexValues::words(bits + 1)];
    }

    /// Computes `values[values.len()..upto]`. Returns `Some(g)` when the next value `g` does not
    /// fit in `T`: the caller stores it wider and continues. Fails when the sets `S2` would not
    /// fit in memory (they take `n · 2^bits / 8` bytes: games whose values grow with the heap
    /// exhaust memory long before time). Stops early, returning `None` with fewer values, when
    /// `pulse` answers `true`.
    pub fn extend<T: Value>(
        &mut self,
        values: &mut Vec<T>,
        upto: usize,
        pulse: Pulse<'_>,
    ) -> Result<Option<u32>> {
        values.reserve(upto.saturating_sub(values.len()));
        while values.len() < upto {
            let n = values.len();
            // S2(n) of the heaps computed so far (the value of n itself is not needed).
            if self.pairs.len() / self.stride <= n {
                if self.pairs.len() == self.pairs.capacity() {
                    let words = (self.pairs.len() * 2).max(self.stride * 1024) as u64;
                    crate::memory::ensure_fits(
                        || format!("the values of the splits of {n} heaps into two"),
                        words.saturating_mul(8),
                    )?;
                    self.pairs.reserve_exact(words as usize - self.pairs.len());
                }
                self.push_pairs(values, n);
            }
            let Some(g) = self.value(n, values, pulse) else { return Ok(None) };
            if g >> self.bits != 0 {
                let bits = 32 - g.leading_zeros();
                let words = (self.pairs.len() / self.stride * HexValues::words(bits)) as u64;
                crate::memory::ensure_fits(
                    || format!("the values of the splits of {n} heaps into two"),
                    words.saturating_mul(8),
                )?;
                self.widen(bits);
            }
            match T::narrow(g) {
                Some(x) => values.push(x),
                None => return Ok(Some(g)),
            }
        }
        Ok(None)
    }

    /// Appends `S2(m)` from `values[1..m]`.
    fn push_pairs<T: Value>(&mut self, values: &[T], m: usize) {
        let start = self.pairs.len();
        self.pairs.resize(start + self.stride, 0);
        let set = &mut self.pairs[start..];
        for a in 1..=m / 2 {
            let v = values[a].into() ^ values[m - a].into();
            set[(v / 64) as usize] |= 1 << (v % 64);
        }
        self.work += (m / 2) as u64;
    }

    /// Calls `pulse` when the work has grown by [`PULSE_WORK`] since the last call: whether to
    /// stop.
    fn pulse(&mut self, pulse: Pulse<'_>) -> bool {
        if self.work < self.next_pulse {
            return false;
        }
        self.next_pulse = self.work + PULSE_WORK;
        pulse()
    }

    /// `G(n)` from `values = G(0..n)`; `None` when `pulse` stopped it.
    fn value<T: Value>(&mut self, n: usize, values: &[T], pulse: Pulse<'_>) -> Option<u32> {
        if self.pulse(pulse) {
            return None;
        }
        let stride = self.stride;
        self.options.fill(0);
        self.work += self.options.len() as u64;
        let insert = |options: &mut [u64], v: u32| options[(v / 64) as usize] |= 1 << (v % 64);
        for j in 0..self.digits.len().min(n + 1) {
            let (d, r) = (self.digits[j], n - j);
            if self.pulse(pulse) {
                return None;
            }
            let options = &mut self.options;
            if r == 0 && d & 1 != 0 {
                insert(options, 0);
            }
            if r > 0 && j > 0 && d & 2 != 0 {
                insert(options, values[r].into());
            }
            if d & 4 != 0 && r >= 2 {
                for (o, &w) in options.iter_mut().zip(&self.pairs[r * stride..(r + 1) * stride]) {
                    *o |= w;
                }
                self.work += stride as u64;
            }
            if d & 8 != 0 && r >= 3 {
                for (a, &x) in values.iter().enumerate().take(r / 3 + 1).skip(1) {
                    let x: u32 = x.into();
                    let set = &self.pairs[(r - a) * stride..(r - a + 1) * stride];
                    for (w, &word) in set.iter().enumerate() {
                        let mut word = word;
                        while word != 0 {
                            let v = ((w * 64) as u32 + word.trailing_zeros()) ^ x;
                            insert(options, v);
                            word &= word - 1;
                            self.work += 1;
                        }
                    }
                }
                self.work += (r / 3 * stride) as u64;
            }
        }
        Some(mex(&self.options))
    }
}
