//! Shared by the counting tests: small games with Grundy values computed here by their
//! definition (mex over the options), and brute-force enumeration of positions.
#![allow(dead_code)]

use std::collections::BTreeMap;

use num_bigint::BigUint;
use num_traits::{One, Zero};

/// The minimum excludant.
fn mex(seen: &mut [bool]) -> u32 {
    let m = seen.iter().position(|&s| !s).unwrap_or(seen.len()) as u32;
    seen.iter_mut().for_each(|s| *s = false);
    m
}

/// Grundy values `G(0..n)` of a game given by the heaps each move leaves, by definition.
pub fn grundy_by_mex(n: usize, options: impl Fn(usize, &mut dyn FnMut(&[usize]))) -> Vec<u32> {
    let mut g: Vec<u32> = Vec::with_capacity(n);
    let mut seen = vec![false; 2 * n + 2];
    for size in 0..n {
        options(size, &mut |heaps: &[usize]| {
            let v = heaps.iter().fold(0u32, |acc, &h| acc ^ g[h]) as usize;
            if v < seen.len() {
                seen[v] = true;
            }
        });
        g.push(mex(&mut seen));
    }
    g
}

/// Subtraction game: remove `m` stones for a move `m` in `moves`.
pub fn subtraction(moves: &[usize], n: usize) -> Vec<u32> {
    grundy_by_mex(n, |size, option| {
        for &m in moves {
            if m <= size {
                option(&[size - m]);
            }
        }
    })
}

/// Octal game `d0.d1d2…`: digit `j` (bits 1, 2, 4) allows taking `j` stones leaving no heap,
/// one heap, or two non-empty heaps.
pub fn octal(digits: &[u8], n: usize) -> Vec<u32> {
    grundy_by_mex(n, |size, option| {
        for (j, &d) in digits.iter().enumerate() {
            if j > size {
                break;
            }
            let rest = size - j;
            if d & 1 != 0 && rest == 0 && j > 0 {
                option(&[]);
            }
            if d & 2 != 0 && rest >= 1 && j > 0 {
                option(&[rest]);
            }
            if d & 4 != 0 && rest >= 2 {
                for a in 1..=rest / 2 {
                    option(&[a, rest - a]);
                }
            }
        }
    })
}

/// "Take a proper divisor": from a heap of n, remove d stones where d divides n and d < n.
/// (This reading gives the stated 692 and 735 494 winning positions.)
pub fn take_proper_divisor(n: usize) -> Vec<u32> {
    grundy_by_mex(n, |size, option| {
        for d in (1..size).filter(|d| size % d == 0) {
            option(&[size - d]);
        }
    })
}

/// "Split into two proper divisors greater than 1": replace a heap of n by two heaps a and b,
/// each a divisor of n with 1 < a, b < n (the sizes need not add up to n; this reading gives
/// the stated 40 085 winning positions).
pub fn split_into_divisors(n: usize) -> Vec<u32> {
    grundy_by_mex(n, |size, option| {
        let divisors: Vec<usize> = (2..size).filter(|d| size % d == 0).collect();
        for &a in &divisors {
            for &b in &divisors {
                option(&[a, b]);
            }
        }
    })
}

/// Which positions to enumerate.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Shape {
    Ordered,
    Multiset,
    Set,
}

/// Every position of `k` heaps with sizes from `sizes` (indices into it), by shape.
pub fn positions(count: usize, k: usize, shape: Shape, visit: &mut dyn FnMut(&[usize])) {
    fn go(
        count: usize,
        k: usize,
        shape: Shape,
        start: usize,
        current: &mut Vec<usize>,
        visit: &mut dyn FnMut(&[usize]),
    ) {
        if current.len() == k {
            visit(current);
            return;
        }
        let from = match shape {
            Shape::Ordered => 0,
            Shape::Multiset => start,
            Shape::Set => start,
        };
        for i in from..count {
            current.push(i);
            let next = if shape == Shape::Set { i + 1 } else { i };
            go(count, k, shape, next, current, visit);
            current.pop();
        }
    }
    go(count, k, shape, 0, &mut Vec::new(), visit);
}

/// The positions of `k` heaps with sizes in `lo..=hi` for which `lost` holds, counted as ordered
/// tuples, multisets (non-decreasing tuples) and sets (increasing tuples).
pub fn lost_by_shape(lo: u64, hi: u64, k: usize, mut lost: impl FnMut(&[u64]) -> bool) -> [u64; 3] {
    let count = if lo <= hi { (hi - lo + 1) as usize } else { 0 };
    let mut counts = [0u64; 3];
    let mut heaps = Vec::with_capacity(k);
    positions(count, k, Shape::Ordered, &mut |tuple| {
        heaps.clear();
        heaps.extend(tuple.iter().map(|&i| lo + i as u64));
        if lost(&heaps) {
            counts[0] += 1;
            counts[1] += u64::from(heaps.is_sorted());
            counts[2] += u64::from(heaps.windows(2).all(|w| w[0] < w[1]));
        }
    });
    counts
}

/// Brute force: the number of positions for every XOR value, over heap sizes `lo..=hi` with
/// Grundy values `g`.
pub fn brute_distribution(g: &[u32], lo: usize, hi: usize, k: usize, shape: Shape) -> BTreeMap<u32, u64> {
    let values: Vec<u32> = if lo <= hi { g[lo..=hi].to_vec() } else { Vec::new() };
    let mut counts = BTreeMap::new();
    positions(values.len(), k, shape, &mut |p| {
        let x = p.iter().fold(0, |acc, &i| acc ^ values[i]);
        *counts.entry(x).or_insert(0) += 1;
    });
    counts
}

/// Brute force misère Nim: (losing, total) over heap sizes `lo..=hi`.
pub fn brute_misere_nim(lo: usize, hi: usize, k: usize, shape: Shape) -> (u64, u64) {
    let sizes: Vec<usize> = (lo..=hi).collect();
    let (mut losing, mut total) = (0, 0);
    positions(sizes.len(), k, shape, &mut |p| {
        total += 1;
        let heaps: Vec<usize> = p.iter().map(|&i| sizes[i]).collect();
        let lost = if heaps.iter().any(|&h| h >= 2) {
            heaps.iter().fold(0, |a, &h| a ^ h) == 0
        } else {
            heaps.iter().filter(|&&h| h == 1).count() % 2 == 1
        };
        losing += u64::from(lost);
    });
    (losing, total)
}

/// `C(n, k)` exactly.
pub fn binomial(n: &BigUint, k: u64) -> BigUint {
    if BigUint::from(k) > *n {
        return BigUint::zero();
    }
    let mut c = BigUint::one();
    for i in 0..k {
        c = c * (n - i) / (i + 1);
    }
    c
}

/// The XOR distribution of positions of `k` heaps for a histogram `h` (index = Grundy value,
/// any counts), by dynamic programming over the values (no transform): for each value with
/// count c, t of the k heaps take it in `c^t` orders (ordered, then multinomial placement),
/// `C(c+t−1, t)` ways (multisets) or `C(c, t)` ways (sets). Exact big integers.
pub fn dp_distribution(h: &[BigUint], k: usize, shape: Shape) -> Vec<BigUint> {
    let f = h.len().next_power_of_two().max(1);
    // table[s][x]: ways with s heaps chosen so far, XOR x; for ordered, an exponential
    // generating function would be needed, so count ordered tuples as sequences instead.
    if shape == Shape::Ordered {
        let mut dist = vec![BigUint::zero(); f];
        dist[0] = BigUint::one();
        for _ in 0..k {
            let mut next = vec![BigUint::zero(); f];
            for (x, a) in dist.iter().enumerate().filter(|(_, a)| !a.is_zero()) {
                for (g, c) in h.iter().enumerate().filter(|(_, c)| !c.is_zero()) {
                    next[x ^ g] += a * c;
                }
            }
            dist = next;
        }
        return dist;
    }
    let mut table = vec![vec![BigUint::zero(); f]; k + 1];
    table[0][0] = BigUint::one();
    for (g, c) in h.iter().enumerate().filter(|(_, c)| !c.is_zero()) {
        let mut next = vec![vec![BigUint::zero(); f]; k + 1];
        for (s, row) in table.iter().enumerate() {
            for (x, ways_so_far) in row.iter().enumerate() {
                if ways_so_far.is_zero() {
                    continue;
                }
                for t in 0..=(k - s) {
                    let ways = match shape {
                        Shape::Multiset => binomial(&(c + t as u64 - 1u32), t as u64),
                        _ => binomial(c, t as u64),
                    };
                    if ways.is_zero() {
                        break;
                    }
                    let y = if t % 2 == 1 { x ^ g } else { x };
                    next[s + t][y] += ways_so_far * ways;
                }
            }
        }
        table = next;
    }
    table.swap_remove(k)
}
