//! Distinct values of a transformed buffer, with their multiplicities.
//!
//! Periodic histograms have very structured transforms: the `2^20` slots of a large query often
//! hold a few dozen distinct residues. Raising each distinct residue once is then far cheaper
//! than raising every slot. The tally gives up as soon as the values turn out to be many (then
//! raising every slot with the vectorised power is the better plan).

use rayon::prelude::*;

/// An open-addressing table from values to counts (a count of 0 marks an empty entry).
struct Table {
    keys: Vec<u64>,
    counts: Vec<u64>,
    len: usize,
    log2: u32,
    limit: usize,
}

impl Table {
    fn new(limit: usize) -> Self {
        let log2 = 8;
        Table { keys: vec![0; 1 << log2], counts: vec![0; 1 << log2], len: 0, log2, limit }
    }

    /// Adds `count` to `key`; false when the table would exceed its limit.
    #[inline]
    fn add(&mut self, key: u64, count: u64) -> bool {
        let mask = (1usize << self.log2) - 1;
        let mut index = (key.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> (64 - self.log2)) as usize;
        loop {
            if self.counts[index] == 0 {
                if self.len == self.limit {
                    return false;
                }
                self.keys[index] = key;
                self.counts[index] = count;
                self.len += 1;
                if 4 * self.len > 1 << self.log2 {
                    self.grow();
                }
                return true;
            }
            if self.keys[index] == key {
                self.counts[index] += count;
                return true;
            }
            index = (index + 1) & mask;
        }
    }

    fn grow(&mut self) {
        let keys = std::mem::take(&mut self.keys);
        let counts = std::mem::take(&mut self.counts);
        self.log2 += 1;
        self.keys = vec![0; 1 << self.log2];
        self.counts = vec![0; 1 << self.log2];
        self.len = 0;
        for (key, count) in keys.into_iter().zip(counts).filter(|&(_, c)| c != 0) {
            let fits = self.add(key, count);
            debug_assert!(fits, "growing keeps every entry");
        }
    }

    fn entries(self) -> Vec<(u64, u64)> {
        self.keys.into_iter().zip(self.counts).filter(|&(_, c)| c != 0).collect()
    }
}

fn tally_serial<T: Copy + Into<u64>>(data: &[T], limit: usize) -> Option<Table> {
    let mut table = Table::new(limit);
    let mut rest = data;
    while !rest.is_empty() {
        // The hot loop on locals: hits increment, the first miss goes through `add` (which
        // may grow the table), then the loop restarts with the new table.
        let shift = 64 - table.log2;
        let mask = (1usize << table.log2) - 1;
        let (keys, counts) = (&table.keys[..], &mut table.counts[..]);
        let mut done = 0;
        let mut missed = None;
        'slots: for &x in rest {
            let key: u64 = x.into();
            let mut index = (key.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> shift) as usize;
            loop {
                let c = counts[index & mask];
                if c != 0 && keys[index & mask] == key {
                    counts[index & mask] = c + 1;
                    break;
                }
                if c == 0 {
                    missed = Some(key);
                    break 'slots;
                }
                index += 1;
            }
            done += 1;
        }
        if let Some(key) = missed {
            if !table.add(key, 1) {
                return None;
            }
            done += 1;
        }
        rest = &rest[done..];
    }
    Some(table)
}

/// The distinct values of `data` with their counts, or `None` when there are more than
/// `limit`. With `sample_share`, a sample of the first 4096 values gives up early when more
/// than that share of it (plus 16) are distinct.
pub fn tally<T: Copy + Into<u64> + Send + Sync>(
    data: &[T],
    limit: usize,
    sample_share: Option<usize>,
    parallel: bool,
) -> Option<Vec<(u64, u64)>> {
    if data.is_empty() {
        return Some(Vec::new());
    }
    if let Some(share) = sample_share {
        let sample = &data[..data.len().min(4096)];
        tally_serial(sample, limit.min(sample.len() / share + 16))?;
    }
    if !parallel || data.len() < 1 << 16 {
        return tally_serial(data, limit).map(Table::entries);
    }
    let chunk = (data.len() / 8).max(1 << 14);
    let merged = data.par_chunks(chunk).map(|c| tally_serial(c, limit)).try_reduce_with(|mut a, b| {
        for (key, count) in b.entries() {
            if !a.add(key, count) {
                return None;
            }
        }
        Some(a)
    })?;
    merged.map(Table::entries)
}
