//! Minimum excludants: [`mex`] of a bit set (the one definition every engine calls), a
//! reusable bitset for one-off sets, and a counted set with a three-level index of absent
//! values for sliding windows.

/// The mex of a bit set of values (value `v` is bit `v % 64` of word `v / 64`): the smallest
/// value whose bit is clear, `64 · words.len()` when every bit is set.
#[inline]
pub fn mex(words: &[u64]) -> u32 {
    match words.iter().position(|&w| w != u64::MAX) {
        Some(w) => (w * 64) as u32 + (!words[w]).trailing_zeros(),
        None => (words.len() * 64) as u32,
    }
}

/// A reusable set of small values: insert, take the mex, clear only what was touched.
#[derive(Debug, Default, Clone)]
pub struct MexSet {
    words: Vec<u64>,
    /// Words `0..dirty` may hold set bits.
    dirty: usize,
}

impl MexSet {
    /// An empty set.
    pub fn new() -> Self {
        MexSet::default()
    }

    /// Adds `v`.
    #[inline]
    pub fn insert(&mut self, v: u32) {
        let w = (v / 64) as usize;
        if w >= self.words.len() {
            self.words.resize((w + 1).next_power_of_two(), 0);
        }
        self.words[w] |= 1 << (v % 64);
        self.dirty = self.dirty.max(w + 1);
    }

    /// The smallest value not in the set.
    pub fn mex(&self) -> u32 {
        mex(&self.words[..self.dirty])
    }

    /// Empties the set.
    pub fn clear(&mut self) {
        self.words[..self.dirty].fill(0);
        self.dirty = 0;
    }
}

/// A multiset of values with a fast "smallest value with count 0 from here on" query.
///
/// Bit `v` of level 0 is set when `count[v] = 0`; bit `w` of level 1 when word `w` of level 0
/// is non-zero; bit `x` of level 2 when word `x` of level 1 is non-zero. Updates touch at most
/// one word per level; a query reads at most one word of levels 0 and 1 and scans level 2
/// (one word per 2^18 values). Values beyond the capacity have count 0; the capacity grows on
/// demand.
#[derive(Debug, Clone)]
pub struct CountedMex {
    counts: Vec<u32>,
    level0: Vec<u64>,
    level1: Vec<u64>,
    level2: Vec<u64>,
}

impl CountedMex {
    /// An empty multiset ready for values below `capacity` (more is allocated on demand).
    pub fn with_capacity(capacity: u64) -> Self {
        let mut set =
            CountedMex { counts: Vec::new(), level0: Vec::new(), level1: Vec::new(), level2: Vec::new() };
        set.grow(capacity.max(1 << 12));
        set
    }

    fn capacity(&self) -> u64 {
        self.counts.len() as u64
    }

    /// Grows the capacity to a power of two >= `needed` (a multiple of 2^18 beyond 2^18).
    fn grow(&mut self, needed: u64) {
        let capacity = needed.next_power_of_two() as usize;
        let old = self.counts.len();
        if capacity <= old {
            return;
        }
        self.counts.resize(capacity, 0);
        self.level0.resize(capacity.div_ceil(64), 0);
        self.level1.resize(capacity.div_ceil(64 * 64), 0);
        self.level2.resize(capacity.div_ceil(64 * 64 * 64), 0);
        // The new values all have count 0: set their bits on every level.
        for v in (old / 64)..self.level0.len() {
            self.level0[v] = u64::MAX;
            self.level1[v / 64] |= 1 << (v % 64);
            self.level2[v / 4096] |= 1 << ((v / 64) % 64);
        }
        if capacity < 64 {
            self.level0[0] = (1u64 << capacity) - 1;
        }
    }

    /// Adds one copy of `v`.
    #[inline]
    pub fn insert(&mut self, v: u32) {
        if u64::from(v) >= self.capacity() {
            self.grow(u64::from(v) + 1);
        }
        let v = v as usize;
        let count = &mut self.counts[v];
        *count += 1;
        if *count == 1 {
            let w = v / 64;
            self.level0[w] &= !(1 << (v % 64));
            if self.level0[w] == 0 {
                self.level1[w / 64] &= !(1 << (w % 64));
                if self.level1[w / 64] == 0 {
                    self.level2[w / 4096] &= !(1 << ((w / 64) % 64));
                }
            }
        }
    }

    /// Removes one copy of `v`, which must be present.
    #[inline]
    pub fn remove(&mut self, v: u32) {
        let v = v as usize;
        let count = &mut self.counts[v];
        debug_assert!(*count > 0, "removing absent value {v}");
        *count -= 1;
        if *count == 0 {
            let w = v / 64;
            if self.level0[w] == 0 {
                if self.level1[w / 64] == 0 {
                    self.level2[w / 4096] |= 1 << ((w / 64) % 64);
                }
                self.level1[w / 64] |= 1 << (w % 64);
            }
            self.level0[w] |= 1 << (v % 64);
        }
    }

    /// The smallest value `>= low` whose count is 0.
    #[inline]
    pub fn mex_from(&self, low: u32) -> u32 {
        let low = low as usize;
        if low >= self.counts.len() {
            return low as u32;
        }
        let w = low / 64;
        let bits = self.level0[w] & (u64::MAX << (low % 64));
        if bits != 0 {
            return (w * 64 + bits.trailing_zeros() as usize) as u32;
        }
        // Level-0 words after w.
        let w = w + 1;
        if w < self.level0.len() {
            let x = w / 64;
            let bits = self.level1[x] & (u64::MAX << (w % 64));
            if bits != 0 {
                return self.first_in_word0(x * 64 + bits.trailing_zeros() as usize);
            }
            // Level-1 words after x.
            let x = x + 1;
            if x < self.level1.len() {
                let y = x / 64;
                let mut bits = self.level2[y] & (u64::MAX << (x % 64));
                let mut y = y;
                loop {
                    if bits != 0 {
                        let x = y * 64 + bits.trailing_zeros() as usize;
                        return self.first_in_word0(x * 64 + self.level1[x].trailing_zeros() as usize);
                    }
                    y += 1;
                    if y >= self.level2.len() {
                        break;
                    }
                    bits = self.level2[y];
                }
            }
        }
        self.counts.len() as u32
    }

    #[inline]
    fn first_in_word0(&self, w: usize) -> u32 {
        (w * 64 + self.level0[w].trailing_zeros() as usize) as u32
    }
}
