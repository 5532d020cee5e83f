//! Candidate periods of long prefixes, in constant extra memory.
//!
//! The Z-function ([`super::period`]) gives the tail of every shift at once, but needs four
//! bytes per value beside the values: 1.7 GB at the 4.4·10^8 values the octal game 0.1777
//! needs. Beyond a few million values the search looks instead for the shifts at which the
//! last [`BLOCK`] values occur earlier (a rolling hash over the prefix, each hit compared
//! exactly), and computes the tail of the nearest few by a backward scan. A shift found this
//! way is only a candidate; it becomes a certificate when its theorem window fits in the
//! values computed, and [`super::period::minimise`] then reduces it to the smallest period and
//! its exact preperiod — so the certificate is the same as the Z-function's would be.

use std::collections::VecDeque;

use super::store::Value;

/// Values at the end of the prefix whose earlier occurrences give the candidate shifts.
const BLOCK: usize = 1024;
/// Occurrences kept (the nearest), and backward scans done, per search.
const KEEP: usize = 32;
const SCANS: usize = 4;

/// A shift `period` with `G(n) = G(n + period)` for `tail <= n < checked − period`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Shift {
    pub period: u64,
    pub tail: u64,
    /// The values checked: `G(0..checked)`.
    pub checked: u64,
}

impl Shift {
    /// Extends the check over the values computed since (`values` holds `G(0..)`).
    pub fn update<T: Value>(&mut self, values: &[T]) {
        let (p, from) = (self.period as usize, (self.checked as usize).max(self.period as usize));
        if from < values.len()
            && let Some(i) = values[from..].iter().zip(&values[from - p..]).rposition(|(a, b)| a != b)
        {
            self.tail = (from + i - p + 1) as u64;
        }
        self.checked = values.len() as u64;
    }
}

/// The tail of shift `p` over `values`: one more than the last `n` with `G(n) != G(n + p)`.
fn tail<T: Value>(values: &[T], p: usize) -> u64 {
    values[p..].iter().zip(values).rposition(|(a, b)| a != b).map_or(0, |i| i as u64 + 1)
}

/// The nearest shifts at which the last values of `values` occur earlier, with their tails,
/// nearest first; the number of values hashed (the work done).
pub fn shifts<T: Value>(values: &[T]) -> (Vec<Shift>, u64) {
    let n = values.len();
    let m = BLOCK.min(n / 4);
    if m < 16 {
        return (Vec::new(), 0);
    }
    const BASE: u64 = 0x9E37_79B9_7F4A_7C15;
    let x = |i: usize| -> u64 { u64::from(values[i].into()) + 1 };
    let mut power = 1u64; // BASE^m
    let (mut target, mut h) = (0u64, 0u64);
    for i in 0..m {
        power = power.wrapping_mul(BASE);
        target = target.wrapping_mul(BASE).wrapping_add(x(n - m + i));
        h = h.wrapping_mul(BASE).wrapping_add(x(i));
    }
    // Starts j of earlier windows with the target's hash, the last KEEP of them.
    let mut hits: VecDeque<usize> = VecDeque::with_capacity(KEEP);
    for j in 0..n - m {
        if h == target {
            if hits.len() == KEEP {
                hits.pop_front();
            }
            hits.push_back(j);
        }
        if j + m < n {
            h = h.wrapping_mul(BASE).wrapping_sub(x(j).wrapping_mul(power)).wrapping_add(x(j + m));
        }
    }
    let block = &values[n - m..];
    let mut found = Vec::new();
    for &j in hits.iter().rev() {
        if found.len() == SCANS {
            break;
        }
        if values[j..j + m] == *block {
            let p = n - m - j;
            found.push(Shift { period: p as u64, tail: tail(values, p), checked: n as u64 });
        }
    }
    let scanned: u64 = found.iter().map(|s| n as u64 - s.tail).sum();
    (found, n as u64 + scanned)
}
