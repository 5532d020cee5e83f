//! The splits of a heap into two or three non-empty heaps whose labels pass a test, counted
//! and listed without looking at every split, for labellings of heap sizes that are eventually
//! periodic (Grundy values with saltus 0, elements of a misère quotient, …).
//!
//! A labelling `L` is eventually periodic with preperiod `n0` and period `p` when
//! `L(n + p) = L(n)` for every `n >= n0`. The heap sizes then fall into `n0 + p` **classes**:
//! each size `n < n0` alone, and for each `c` in `n0..n0 + p` the sizes `c, c + p, c + 2p, …`.
//!
//! - **Two parts**, `a + b = r` with `1 <= a <= b`: a smaller part `a >= n0` has `b >= a >= n0`,
//!   and `b ≡ r − a (mod p)`, so the class of `b` is fixed by the class of `a`. Every split whose
//!   smaller part lies in one class passes the test or none does; those `a` of a class up to
//!   `⌊r/2⌋` are counted by one division. The parts below `n0` are tried one by one.
//! - **Three parts**, `a + b + c = r` with `1 <= a <= b <= c`: for `a < n0`, the two-part splits
//!   of `r − a` with smaller part at least `a`. For `a = a0 + p·i >= n0` (`a0` the first size
//!   of its class that is at least 1 and `n0`) and `b ≡ B (mod p)`, the class of `c` is fixed;
//!   the `b ≡ B` in `a..=⌊(r − a)/2⌋` number `⌊(r − a0 − 2B − p·i)/(2p)⌋ − i − ⌊(a0 − 1 − B)/p⌋`,
//!   summed over `i` by the floor-sum algorithm.
//!
//! Conventions: a split is unordered and listed once, its parts in increasing order
//! (`a <= b`, `a <= b <= c`); every part is at least 1; splits are listed by increasing `a`,
//! then increasing `b`. The test sees the labels of the parts in that order. Counting costs
//! `O(n0 + p)` tests for two parts and `O((n0 + p)²)` for three, whatever the heap's size;
//! listing costs at most `p` steps per split listed beyond the first `n0` sizes.
//!
//! ```
//! use nimcount::game::{PeriodicLabels, Splits};
//! use nimcount::num_bigint::BigUint;
//!
//! // Labels 0, 1, then 2, 3 repeating (preperiod 2, period 2): even sizes from 2 on have
//! // label 2, odd ones from 3 on label 3.
//! let values = [0u32, 1, 2, 3];
//! let labels = PeriodicLabels::new(&values, 2, 2).unwrap();
//! // Splits of 11 whose labels XOR to 1: 1 + 10 has 1 ⊕ 2 = 3, then every a + b with
//! // 2 <= a <= 5 has one even and one odd part, 2 ⊕ 3 = 1.
//! let splits = Splits::new(labels, BigUint::from(11u32), 2, |l: &[&u32]| *l[0] ^ *l[1] == 1);
//! let listed: Vec<Vec<BigUint>> = splits.clone().into_iter().collect();
//! assert_eq!(splits.count(), BigUint::from(listed.len()));
//! assert_eq!(splits.count(), BigUint::from(4u8));
//! assert_eq!(listed[0], [BigUint::from(2u32), BigUint::from(9u32)]);
//! ```

use num_bigint::{BigInt, BigUint};
use num_integer::Integer;
use num_traits::{ToPrimitive, Zero};

/// An eventually periodic labelling of heap sizes: `labels[n]` for `n < preperiod + period`,
/// and `label(n) = label(n − period)` for every larger `n` (see the module's conventions).
#[derive(Debug)]
pub struct PeriodicLabels<'a, L> {
    labels: &'a [L],
    preperiod: u64,
    period: u64,
}

impl<L> Clone for PeriodicLabels<'_, L> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<L> Copy for PeriodicLabels<'_, L> {}

impl<'a, L> PeriodicLabels<'a, L> {
    /// The labelling whose first `preperiod + period` labels are `labels`; `None` unless the
    /// period is at least 1 and `labels` holds exactly that many.
    pub fn new(labels: &'a [L], preperiod: u64, period: u64) -> Option<Self> {
        let len = preperiod.checked_add(period)?;
        (period >= 1 && labels.len() as u64 == len).then_some(PeriodicLabels { labels, preperiod, period })
    }

    /// The preperiod `n0`.
    pub fn preperiod(&self) -> u64 {
        self.preperiod
    }

    /// The period `p`.
    pub fn period(&self) -> u64 {
        self.period
    }

    /// The class of a heap of `n`: `n` itself below `n0 + p`, else `n0 + (n − n0) mod p`.
    pub fn class(&self, n: &BigUint) -> u64 {
        let top = self.preperiod + self.period;
        match n.to_u64() {
            Some(n) if n < top => n,
            Some(n) => self.preperiod + (n - self.preperiod) % self.period,
            None => self.preperiod + ((n - self.preperiod) % self.period).to_u64().expect("below p"),
        }
    }

    /// The label of a heap of `n`.
    pub fn label(&self, n: &BigUint) -> &'a L {
        &self.labels[self.class(n) as usize]
    }

    /// The class from `n0` on of the sizes `≡ r − a − b (mod p)`.
    fn class_of_difference(&self, r: u128, a: u64, b: u64) -> u64 {
        let p = u128::from(self.period);
        let [a, b, n0] = [a, b, self.preperiod].map(|x| u128::from(x) % p);
        self.preperiod + ((r + 3 * p - a - b - n0) % p) as u64
    }
}

/// The splits of a heap into `parts` (2 or 3) non-empty heaps whose labels pass `accept`
/// (given the parts' labels in increasing order of the parts): [`count`](Splits::count) them,
/// or list them by iterating.
#[derive(Debug, Clone)]
pub struct Splits<'a, L, F> {
    labels: PeriodicLabels<'a, L>,
    heap: BigUint,
    parts: usize,
    accept: F,
}

impl<'a, L, F: Fn(&[&L]) -> bool> Splits<'a, L, F> {
    /// The splits of `heap` into `parts` heaps (2 or 3; any other number has none here).
    pub fn new(labels: PeriodicLabels<'a, L>, heap: BigUint, parts: usize, accept: F) -> Self {
        Splits { labels, heap, parts, accept }
    }

    /// How many splits pass the test, exactly, whatever the heap's size.
    pub fn count(&self) -> BigUint {
        match self.parts {
            2 => count_pairs(&self.labels, &self.heap, &BigUint::from(1u8), None, &self.accept),
            3 => count_triples(&self.labels, &self.heap, &self.accept),
            _ => BigUint::zero(),
        }
    }
}

impl<'a, L, F: Fn(&[&L]) -> bool> IntoIterator for Splits<'a, L, F> {
    type Item = Vec<BigUint>;
    type IntoIter = SplitIter<'a, L, F>;

    fn into_iter(self) -> SplitIter<'a, L, F> {
        let third = &self.heap / 3u8;
        let pairs = (self.parts == 2).then(|| Pairs::new(self.labels, self.heap.clone(), 1u8.into(), None));
        let next = if self.parts == 3 { BigUint::from(1u8) } else { third.clone() + 1u8 };
        SplitIter {
            labels: self.labels,
            heap: self.heap,
            parts: self.parts,
            accept: self.accept,
            pairs,
            smallest: None,
            third,
            next,
            class: 0,
            viable: None,
        }
    }
}

/// The splits of a [`Splits`], in the order of the module's conventions.
#[derive(Debug)]
pub struct SplitIter<'a, L, F> {
    labels: PeriodicLabels<'a, L>,
    heap: BigUint,
    parts: usize,
    accept: F,
    /// The pairs being listed: the whole split (two parts), or the two larger parts after
    /// `smallest` (three parts).
    pairs: Option<Pairs<'a, L>>,
    smallest: Option<BigUint>,
    /// Three parts: the largest smallest part, the next smallest part to try, its class (from
    /// `n0` on), and whether each class of the smallest part can lead to a split.
    third: BigUint,
    next: BigUint,
    class: u64,
    viable: Option<Vec<bool>>,
}

impl<L, F: Fn(&[&L]) -> bool> Iterator for SplitIter<'_, L, F> {
    type Item = Vec<BigUint>;

    fn next(&mut self) -> Option<Vec<BigUint>> {
        loop {
            if let Some(pairs) = &mut self.pairs {
                if let Some((b, c)) = pairs.next(&self.accept) {
                    return Some(match &self.smallest {
                        Some(a) => vec![a.clone(), b, c],
                        None => vec![b, c],
                    });
                }
                self.pairs = None;
            }
            if self.parts != 3 || self.next > self.third {
                return None;
            }
            let a = self.next.clone();
            let (n0, p) = (self.labels.preperiod, self.labels.period);
            let a_class = if a < BigUint::from(n0) {
                a.to_u64().expect("below n0")
            } else {
                if self.viable.is_none() {
                    self.class = self.labels.class(&a);
                    let viable = self.viable_classes();
                    if !viable.contains(&true) {
                        return None;
                    }
                    self.viable = Some(viable);
                }
                let class = self.class;
                self.class = if class + 1 == n0 + p { n0 } else { class + 1 };
                class
            };
            self.next += 1u8;
            if let Some(viable) = &self.viable
                && !viable[(a_class - n0) as usize]
            {
                continue;
            }
            let first = &self.labels.labels[a_class as usize];
            self.pairs = Some(Pairs::new(self.labels, &self.heap - &a, a.clone(), Some(first)));
            self.smallest = Some(a);
        }
    }
}

impl<L, F: Fn(&[&L]) -> bool> SplitIter<'_, L, F> {
    /// Three parts: whether a smallest part of each class from `n0` on has some class of the
    /// middle part whose split passes the test.
    fn viable_classes(&self) -> Vec<bool> {
        let (n0, p) = (self.labels.preperiod, self.labels.period);
        let r = residue(&self.heap, p);
        (n0..n0 + p)
            .map(|a| {
                (n0..n0 + p).any(|b| {
                    let c = self.labels.class_of_difference(r, a, b);
                    let l = &self.labels.labels;
                    (self.accept)(&[&l[a as usize], &l[b as usize], &l[c as usize]])
                })
            })
            .collect()
    }
}

/// `n mod p`.
fn residue(n: &BigUint, p: u64) -> u128 {
    u128::from((n % p).to_u64().expect("below p"))
}

/// The two-part splits `a + b` of a heap with `lo <= a <= b`, after a part of label `first`
/// when there is one (the test then sees three labels), listed by increasing `a`.
#[derive(Debug)]
struct Pairs<'a, L> {
    labels: PeriodicLabels<'a, L>,
    first: Option<&'a L>,
    heap: BigUint,
    half: BigUint,
    /// The next smaller part to try, and its class once it is `n0` or more.
    next: BigUint,
    class: u64,
    /// From `n0` on: whether the pairs whose smaller part has each class pass the test.
    accepted: Option<Vec<bool>>,
}

impl<'a, L> Pairs<'a, L> {
    fn new(labels: PeriodicLabels<'a, L>, heap: BigUint, lo: BigUint, first: Option<&'a L>) -> Self {
        let half = &heap >> 1u8;
        Pairs { labels, first, heap, half, next: lo, class: 0, accepted: None }
    }

    fn test(&self, accept: &dyn Fn(&[&L]) -> bool, a: &L, b: &L) -> bool {
        match self.first {
            Some(f) => accept(&[f, a, b]),
            None => accept(&[a, b]),
        }
    }

    fn next(&mut self, accept: &dyn Fn(&[&L]) -> bool) -> Option<(BigUint, BigUint)> {
        let (n0, p) = (self.labels.preperiod, self.labels.period);
        loop {
            if self.next > self.half {
                return None;
            }
            let a = self.next.clone();
            self.next += 1u8;
            if a < BigUint::from(n0) {
                let b = &self.heap - &a;
                if self.test(accept, self.labels.label(&a), self.labels.label(&b)) {
                    return Some((a, b));
                }
                continue;
            }
            if self.accepted.is_none() {
                self.class = self.labels.class(&a);
                let accepted = accepted_classes(&self.labels, &self.heap, &|a, b| self.test(accept, a, b));
                if !accepted.contains(&true) {
                    self.next = &self.half + 1u8;
                    return None;
                }
                self.accepted = Some(accepted);
            }
            let class = self.class;
            self.class = if class + 1 == n0 + p { n0 } else { class + 1 };
            if self.accepted.as_ref().expect("computed")[(class - n0) as usize] {
                let b = &self.heap - &a;
                return Some((a, b));
            }
        }
    }
}

/// For each class `c` from `n0` on: whether the pairs `a + b = heap` with `a` of class `c`
/// and `b >= a` (so `b` of the class of `heap − c`) pass `test`.
fn accepted_classes<L>(
    labels: &PeriodicLabels<'_, L>,
    heap: &BigUint,
    test: &dyn Fn(&L, &L) -> bool,
) -> Vec<bool> {
    let (n0, p) = (labels.preperiod, labels.period);
    let r = residue(heap, p);
    (n0..n0 + p)
        .map(|a| {
            let b = labels.class_of_difference(r, a, 0);
            test(&labels.labels[a as usize], &labels.labels[b as usize])
        })
        .collect()
}

/// The pairs `a + b = heap` with `lo <= a <= b` that pass the test (after a part of label
/// `first`, when there is one).
fn count_pairs<L>(
    labels: &PeriodicLabels<'_, L>,
    heap: &BigUint,
    lo: &BigUint,
    first: Option<&L>,
    accept: &dyn Fn(&[&L]) -> bool,
) -> BigUint {
    let test = |a: &L, b: &L| match first {
        Some(f) => accept(&[f, a, b]),
        None => accept(&[a, b]),
    };
    let (n0, p) = (labels.preperiod, labels.period);
    let half = heap >> 1u8;
    let mut total = BigUint::zero();
    if *lo > half {
        return total;
    }
    // The smaller parts below n0, one by one.
    let lo_small = lo.to_u64().unwrap_or(u64::MAX);
    let below = half.to_u64().map_or(n0, |h| n0.min(h + 1));
    for a in lo_small..below {
        let a = BigUint::from(a);
        if test(labels.label(&a), labels.label(&(heap - &a))) {
            total += 1u8;
        }
    }
    // From n0 on: each class at once.
    let start = lo.max(&BigUint::from(n0)).clone();
    for (c, ok) in (n0..).zip(accepted_classes(labels, heap, &test)) {
        if !ok {
            continue;
        }
        let first = first_in_class(&start, c, p);
        if first <= half {
            total += (&half - &first) / p + 1u8;
        }
    }
    total
}

/// The smallest size `>= start` of the class `c >= n0` (sizes `c + p·i`).
fn first_in_class(start: &BigUint, c: u64, p: u64) -> BigUint {
    let c = BigUint::from(c);
    if c >= *start { c } else { &c + ((start - &c) + (p - 1)) / p * p }
}

/// The triples `a + b + c = heap` with `1 <= a <= b <= c` that pass the test.
fn count_triples<L>(
    labels: &PeriodicLabels<'_, L>,
    heap: &BigUint,
    accept: &dyn Fn(&[&L]) -> bool,
) -> BigUint {
    let (n0, p) = (labels.preperiod, labels.period);
    let third = heap / 3u8;
    let mut total = BigUint::zero();
    let below = third.to_u64().map_or(n0, |t| n0.min(t + 1));
    for a in 1..below {
        let a = BigUint::from(a);
        total += count_pairs(labels, &(heap - &a), &a, Some(labels.label(&a)), accept);
    }
    let r = residue(heap, p);
    let heap = BigInt::from(heap.clone());
    let pb = BigInt::from(p);
    let third = BigInt::from(third);
    let start = BigUint::from(n0.max(1));
    for a in n0..n0 + p {
        // The smallest parts a_0 + p·i of the class (from 1 and n0 on), i < n, up to ⌊heap/3⌋.
        let big_a = BigInt::from(first_in_class(&start, a, p));
        if big_a > third {
            continue;
        }
        let n: BigInt = (&third - &big_a) / &pb + 1u8;
        for b in n0..n0 + p {
            let c = labels.class_of_difference(r, a, b);
            let l = &labels.labels;
            if !accept(&[&l[a as usize], &l[b as usize], &l[c as usize]]) {
                continue;
            }
            let big_b = BigInt::from(b);
            // Σ_i ⌊(heap − a_0 − 2B − p·i)/(2p)⌋, with i = n − 1 − j: Σ_j ⌊(p·j + k)/(2p)⌋.
            let k = &heap - &big_a - 2u8 * &big_b - &pb * (&n - 1u8);
            let upper = floor_sum(&n, &(2u8 * &pb), &pb, &k);
            let lower = &n * (&n - 1u8) / 2u8 + &n * (&big_a - 1u8 - &big_b).div_floor(&pb);
            let count = upper - lower;
            total += count.to_biguint().expect("a count is not negative");
        }
    }
    total
}

/// `Σ_{i < n} ⌊(a·i + b)/m⌋` for `n >= 0`, `m > 0`, `a >= 0` and any `b` (the floor-sum
/// algorithm: Euclid's recursion on `(a, m)`).
pub fn floor_sum(n: &BigInt, m: &BigInt, a: &BigInt, b: &BigInt) -> BigInt {
    let mut total = BigInt::zero();
    let (mut n, mut m, mut a, mut b) = (n.clone(), m.clone(), a.clone(), b.clone());
    // A negative b: b = m·q + b', adding q·n.
    let (q, rest) = b.div_mod_floor(&m);
    total += &q * &n;
    b = rest;
    loop {
        if a >= m {
            total += (&n * (&n - 1u8) / 2u8) * (&a / &m);
            a = &a % &m;
        }
        if b >= m {
            total += &n * (&b / &m);
            b = &b % &m;
        }
        let y = &a * &n + &b;
        if y < m {
            return total;
        }
        n = &y / &m;
        b = &y % &m;
        std::mem::swap(&mut m, &mut a);
    }
}
