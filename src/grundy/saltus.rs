//! Arithmetic periodicity of hexadecimal games: the check behind
//! [`Theorem::HexadecimalSaltus`] (the statement and its proof are in that variant's docs).
//!
//! The values it certifies are *flat*: `G(n) = h(n)` with `h(n) = ⌊max(0, n − n0)/p⌋`, that is
//! `G(n) = 0` for `n < n0 + p` and `G(n + p) = G(n) + 1` from `n0` on (saltus 1, every value
//! `u >= 1` held by exactly `p` consecutive heaps). `hex:0.8` (`n0 = 1`, `p = 3`), `hex:0.C`,
//! `hex:0.48`, `hex:8.0` (`n0 = 1`, `p = 2`), `hex:0.0F` (`n0 = 0`, `p = 2`) and `hex:0.FF`
//! (`G(n) = n`) are such games.
//! Octal codes never pass: a finite octal game is never arithmetic-periodic (Austin 1976; see
//! Horrocks and Nowakowski, *Integers* 3 (2003) G2), and the check needs a three-heap move.
//!
//! What is checked, all on the moves and the formula `h` (no value beyond those computed is
//! guessed): a three-heap move exists (`j3` the fewest stones such a move takes; with `p = 1`,
//! one of each parity); every split leaves a value below the next one (`j + i·c >= n0 + p` for
//! a move taking `j` and leaving `i >= 2` heaps, `c = min(n0, 1)`); every one-heap move takes
//! at least `p` stones; the few largest values below `h(N)` that the pairs argument
//! ([`by_pairs`]) does not reach have a witness that moves up with `N` ([`top_witness`]),
//! checked for one period of `N`; and `G = h` on the values computed, at least `W + p` of them.

use super::store::Value;
use super::{Certificate, Theorem};
use crate::game::HexCode;

/// `h(n) = ⌊max(0, n − n0)/p⌋`.
pub fn flat(n0: u64, p: u64, n: u64) -> u64 {
    n.saturating_sub(n0) / p
}

/// `K = ⌊(r + 2)/p⌋`: at `N >= W1`, every `u >= 1` with `h(N) − u > K` is reached by the pairs
/// argument ([`by_pairs`]); `W1 = n0 + p·(K + 1)` is the first heap with `h >= K + 1`.
fn top_offsets(r: u64, p: u64) -> u64 {
    r.saturating_add(2) / p.max(1)
}

/// `W1 = n0 + p·(K + 1)`: the witnesses of the top values are checked for `N` in `W1..W1 + p`.
fn first_checked(r: u64, n0: u64, p: u64) -> u64 {
    n0.saturating_add(p.saturating_mul(top_offsets(r, p).saturating_add(1)))
}

/// The window `W` of [`Theorem::HexadecimalSaltus`]: `max(W1, t + 1, j3 + 4, n0 + p)`.
pub(super) fn window(t: u64, j3: u64, r: u64, n0: u64, p: u64) -> u64 {
    first_checked(r, n0, p).max(t.saturating_add(1)).max(j3.saturating_add(4)).max(n0.saturating_add(p))
}

/// Whether `u >= 1` is the value of an option `(j; a, b, b)` of `N`: `j` a three-heap take,
/// `a` in the block of `u`, `N − j − a` even and at least 2. Adding `p` to `N` and to `a`
/// keeps the answer.
fn by_pairs(takes: &[u64], n0: u64, p: u64, n: u64, u: u64) -> bool {
    let block = n0 + u * p..n0 + u * p + p;
    takes.iter().any(|&j| block.clone().any(|a| a + j + 2 <= n && (n - j - a).is_multiple_of(2)))
}

/// Whether `u >= 1` is the value of an option of `N` made of one heap `a` of value `u`
/// (`a >= n0`) and heaps of fixed sizes whose values cancel: a move taking `j` that leaves
/// `a` alone, `a` and one heap of value 0, or `a` and two heaps of equal values. Such an
/// option moves up with `N`: `a + p` has value `u + 1`, the rest is unchanged.
fn top_witness(code: &HexCode, n0: u64, p: u64, n: u64, u: u64) -> bool {
    let h = |x: u64| flat(n0, p, x);
    (0..=code.last_digit()).any(|j| {
        let d = code.digit(j);
        (n0 + u * p..n0 + u * p + p).any(|a| {
            let Some(rest) = n.checked_sub(j + a) else { return false };
            (j >= 1 && d & 2 != 0 && rest == 0)
                || (d & 4 != 0 && rest >= 1 && h(rest) == 0)
                || (d & 8 != 0 && rest >= 2 && (1..rest).any(|z| h(z) == h(rest - z)))
        })
    })
}

/// Whether 0 is the value of an option of `N` that moves up with `N` by 2: two equal heaps
/// `(b, b)`, or a heap of value 0 and two equal heaps `(a, b, b)`.
fn zero_witness(code: &HexCode, n0: u64, p: u64, n: u64) -> bool {
    (0..=code.last_digit()).any(|j| {
        let d = code.digit(j);
        let Some(r) = n.checked_sub(j) else { return false };
        (d & 4 != 0 && r >= 2 && r % 2 == 0)
            || (d & 8 != 0 && (1..n0 + p).any(|a| r >= a + 2 && (r - a) % 2 == 0))
    })
}

/// The certificate of [`Theorem::HexadecimalSaltus`] for `values = G(0..N)` of the game of
/// `code`, or `None` when the values are not flat or a hypothesis fails.
pub fn certify<T: Value>(code: &HexCode, values: &[T]) -> Option<Certificate> {
    let digits = code.digits();
    let takes: Vec<u64> = (0u64..).zip(digits).filter(|&(_, &d)| d & 8 != 0).map(|(j, _)| j).collect();
    let j3 = *takes.first()?;
    let g = |n: usize| -> u32 { values[n].into() };
    // The block of 1 starts at n0 + p, the block of 2 at n0 + 2p.
    let first = (0..values.len()).find(|&n| g(n) != 0)?;
    let second = (first..values.len()).find(|&n| g(n) >= 2)?;
    if g(first) != 1 {
        return None;
    }
    let p = (second - first) as u64;
    let n0 = (first as u64).checked_sub(p)?;
    // Pairs of one take reach every block when it holds both parities; with p = 1 they need a
    // take of each parity.
    let r = if p >= 2 { j3 } else { takes.iter().copied().find(|j| (j + j3) % 2 == 1)? };
    let t = code.last_digit();
    let w = window(t, j3, r, n0, p);
    if p == 0 || (values.len() as u64) < w.saturating_add(p) {
        return None;
    }
    // G = h on every value computed (the theorem needs W + p of them).
    if (0..values.len()).any(|n| u64::from(g(n)) != flat(n0, p, n as u64)) {
        return None;
    }
    // Splits stay below h(N); one-heap moves fall a block at least.
    let c = n0.min(1);
    for (j, &d) in (0u64..).zip(digits) {
        let splits_low = (d & 4 == 0 || j + 2 * c >= n0 + p) && (d & 8 == 0 || j + 3 * c >= n0 + p);
        if !splits_low || (j >= 1 && d & 2 != 0 && j < p) {
            return None;
        }
    }
    // The top values: by pairs or by a witness that moves up, for one period of N.
    let w1 = first_checked(r, n0, p);
    for n in w1..w1 + p {
        let top = flat(n0, p, n);
        for offset in 1..=top_offsets(r, p) {
            let u = top - offset;
            if !by_pairs(&takes, n0, p, n, u) && !top_witness(code, n0, p, n, u) {
                return None;
            }
        }
    }
    // The value 0: heaps 1 and 2 both have value 0 unless n0 + p < 3.
    if n0 + p < 3 && !(w1..w1 + 2).all(|n| zero_witness(code, n0, p, n)) {
        return None;
    }
    Some(Certificate {
        preperiod: n0,
        period: p,
        saltus: 1,
        theorem: Theorem::HexadecimalSaltus { last_digit: t, three_heap_take: j3, pairs_take: r },
    })
}
