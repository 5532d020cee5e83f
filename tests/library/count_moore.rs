//! Counts of Moore's Nim-K positions (`Query::moore`, digit by digit) against brute-force
//! enumeration, against an independent heap-by-heap count over column residues, and, for K = 1,
//! against the Nim counts of the transform engine.

use nimcount::count::{Counts, Query, Source};
use nimcount::game::Game;
use num_bigint::BigUint;
use num_traits::{ToPrimitive, Zero};

/// Moore's Nim-`kk` with `k` heaps in `lo..=hi`, modulo `m` or exactly.
fn moore_count(
    kk: u64,
    (lo, hi): (impl Into<BigUint>, impl Into<BigUint>),
    k: impl Into<BigUint>,
    m: Option<&BigUint>,
    parallel: bool,
) -> nimcount::Result<Counts> {
    let query = Query::moore(kk).sizes(lo, hi).heaps(k).parallel(parallel);
    match m {
        Some(m) => query.modulus(m.clone()).count(),
        None => query.count(),
    }
}

const LARGEST: u64 = 40;

/// Moduli of every kind: 1, even, odd composite, prime, a word above 2^32, 2^64, beyond 2^64.
fn moduli() -> Vec<Option<BigUint>> {
    let mut all: Vec<Option<BigUint>> = vec![None];
    for m in [1u128, 2, 6, 1000, 1_000_000_007, (1 << 32) + 15, 1 << 64, 10u128.pow(30) + 57] {
        all.push(Some(m.into()));
    }
    all
}

/// For every multiset of `k` sizes in `0..=LARGEST` that is lost in Moore's Nim-K, its number
/// of orderings, added at `[smallest][largest]` of the multiset: the lost tuples in `lo..=hi`
/// are those with `lo <= smallest` and `largest <= hi`.
fn lost_by_extremes(k: usize, kk: u64) -> Vec<Vec<u128>> {
    let n = LARGEST as usize + 1;
    let mut table = vec![vec![0u128; n]; n];
    let factorial = |m: usize| (1..=m as u128).product::<u128>();
    let mut tuple = vec![0u64; k];
    loop {
        let lost = (0..6)
            .all(|c| (tuple.iter().filter(|&&h| h >> c & 1 == 1).count() as u64).is_multiple_of(kk + 1));
        if lost && k > 0 {
            let mut orderings = factorial(k);
            let mut run = 1;
            for i in 1..=k {
                if i < k && tuple[i] == tuple[i - 1] {
                    run += 1;
                } else {
                    orderings /= factorial(run);
                    run = 1;
                }
            }
            table[tuple[0] as usize][tuple[k - 1] as usize] += orderings;
        }
        // Next non-decreasing tuple.
        let Some(i) = (0..k).rev().find(|&i| tuple[i] < LARGEST) else { break };
        let v = tuple[i] + 1;
        tuple[i..].fill(v);
    }
    table
}

fn brute(table: &[Vec<u128>], lo: u64, hi: u64) -> u128 {
    (lo..=hi).flat_map(|a| (a..=hi).map(move |b| (a, b))).map(|(a, b)| table[a as usize][b as usize]).sum()
}

fn ranges() -> Vec<(u64, u64)> {
    let mut all =
        vec![(0, 0), (0, 1), (0, 40), (1, 40), (5, 5), (31, 33), (32, 32), (16, 31), (15, 16), (7, 8)];
    let mut seed = 0x2545_f491_4f6c_dd1du64;
    for _ in 0..14 {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        let (a, b) = (seed % (LARGEST + 1), (seed >> 20) % (LARGEST + 1));
        all.push((a.min(b), a.max(b)));
    }
    all
}

#[test]
fn small_ranges_equal_brute_force_enumeration() {
    let moduli = moduli();
    for (k, ks) in [
        (0, vec![1]),
        (1, vec![1, 2]),
        (2, vec![1, 2]),
        (3, vec![1, 2, 3]),
        (4, vec![1, 2, 3, 4]),
        (5, vec![2, 4, 8]),
    ] {
        for kk in ks {
            let table = lost_by_extremes(k, kk);
            for (lo, hi) in ranges() {
                let expected = if k == 0 { 1 } else { brute(&table, lo, hi) };
                let total = BigUint::from(hi - lo + 1).pow(k as u32);
                for m in &moduli {
                    let c = moore_count(kk, (lo, hi), k, m.as_ref(), k % 2 == 0).unwrap();
                    let reduce = |x: BigUint| m.as_ref().map_or(x.clone(), |m| x % m);
                    let what = format!("moore:{kk}, {k} heaps in {lo}..={hi}, modulus {m:?}");
                    assert_eq!(c.losing, reduce(expected.into()), "{what}");
                    assert_eq!(c.total, reduce(total.clone()), "{what}");
                    assert_eq!(c.winning, reduce(total.clone() - expected), "{what}");
                    assert_eq!(c.report.sizes, BigUint::from(hi - lo + 1));
                    let columns = u64::from(64 - hi.leading_zeros());
                    assert_eq!(c.report.source, Source::Columns { columns });
                }
            }
        }
    }
}

/// Heap by heap over the vector of column residues: `state[r]` counts the tuples so far whose
/// columns hold `r` (base q, one digit a column) ones modulo q.
fn by_residues(k: usize, q: u64, lo: u64, hi: u64, m: u64) -> u64 {
    let columns = 64 - hi.leading_zeros();
    let states = (q as usize).pow(columns);
    let digits =
        |n: u64| (0..columns).fold(0usize, |acc, c| acc + ((n >> c & 1) as usize) * (q as usize).pow(c));
    let add = |r: usize, d: usize| {
        let (mut r, mut d, mut out, mut place) = (r, d, 0, 1);
        for _ in 0..columns {
            out += ((r % q as usize + d % q as usize) % q as usize) * place;
            (r, d, place) = (r / q as usize, d / q as usize, place * q as usize);
        }
        out
    };
    let mut state = vec![0u64; states];
    state[0] = 1 % m;
    for _ in 0..k {
        let mut next = vec![0u64; states];
        for (r, &count) in state.iter().enumerate().filter(|(_, c)| **c != 0) {
            for n in lo..=hi {
                let s = add(r, digits(n));
                next[s] = ((u128::from(next[s]) + u128::from(count)) % u128::from(m)) as u64;
            }
        }
        state = next;
    }
    state[0]
}

#[test]
fn many_heaps_equal_a_count_heap_by_heap() {
    for (k, kk, lo, hi, m) in [
        (200, 8, 1, 15, 1_000_000_007),
        (120, 2, 3, 14, 998_244_353),
        (64, 5, 0, 7, 1 << 32),
        (37, 3, 2, 13, 1_000_000),
        (90, 1, 0, 15, 97),
    ] {
        let c = moore_count(kk, (lo, hi), k, Some(&m.into()), true).unwrap();
        assert_eq!(
            c.losing,
            by_residues(k, kk + 1, lo, hi, m).into(),
            "moore:{kk}, {k} heaps in {lo}..={hi} mod {m}"
        );
    }
}

#[test]
fn moore_one_counts_nim() {
    let big = |s: &str| nimcount::number::parse(s).unwrap();
    for (k, lo, hi) in [
        (1u32, "0", "0"),
        (2, "0", "40"),
        (3, "1", "40"),
        (4, "17", "39"),
        (6, "1", "10^5"),
        (5, "2^20-3", "2^21+5"),
    ] {
        for m in moduli() {
            let (lo, hi) = (big(lo), big(hi));
            let mut query = Query::new(Game::Nim).sizes(lo.clone(), hi.clone()).heaps(k);
            if let Some(m) = &m {
                query = query.modulus(m.clone());
            }
            let nim = query.count().unwrap();
            let moore = moore_count(1, (lo.clone(), hi.clone()), k, m.as_ref(), false).unwrap();
            let what = format!("{k} heaps in {lo}..={hi}, modulus {m:?}");
            assert_eq!(
                (moore.losing, moore.winning, moore.total),
                (nim.losing, nim.winning, nim.total),
                "{what}"
            );
        }
    }
}

#[test]
fn edge_cases() {
    let count = |kk: u64, lo: u64, hi: u64, k: u64| moore_count(kk, (lo, hi), k, None, true);
    // K at least the number of heaps: only all-zero tuples are lost.
    assert_eq!(count(5, 0, 9, 5).unwrap().losing, 1u32.into());
    assert_eq!(count(5, 1, 9, 5).unwrap().losing, BigUint::zero());
    // No heaps: the empty position is lost.
    assert_eq!(count(2, 3, 9, 0).unwrap().losing, 1u32.into());
    // A single size: (lo, …, lo) is lost exactly when K + 1 divides the number of heaps (lo > 0).
    assert_eq!(count(2, 5, 5, 6).unwrap().losing, 1u32.into());
    assert_eq!(count(2, 5, 5, 7).unwrap().losing, BigUint::zero());
    // Refusals, before any work.
    let err = count(2, 9, 3, 2).unwrap_err();
    assert!(matches!(err, nimcount::Error::EmptyRange { .. }), "{err}");
    let err = moore_count(2, (0u32, 9u32), 2u32, Some(&BigUint::zero()), true).unwrap_err();
    assert!(err.to_string().contains("invalid modulus 0"), "{err}");
    let err = count(8, 1, u64::MAX, 100_000).unwrap_err().to_string();
    assert!(err.contains("steps, more than the limit") && err.contains("exactly"), "{err}");
    let huge = nimcount::number::parse("10^30").unwrap();
    let err = moore_count(2, (0u32, 9u32), huge.clone(), Some(&7u32.into()), true).unwrap_err();
    assert!(err.to_string().contains("more than 10^38 steps"), "{err}");
    // Few operations (sizes 0 and 1 have one column) but tables of 60001² entries: refused.
    let err = moore_count(8, (0u32, 1u32), 60_000u32, Some(&7u32.into()), true);
    let err = err.unwrap_err().to_string();
    assert!(err.contains("memory is available"), "{err}");
    let exact_too_big = count(2, 1, u64::MAX, 10_000_000).unwrap_err().to_string();
    assert!(exact_too_big.contains("2^26 bits"), "{exact_too_big}");
    // What only counts refuses the rest, before any work: other kinds, misère play, a largest
    // heap, staircases, distributions, probabilities, K = 0, and a query without heaps.
    let query = || Query::moore(2).sizes(0u32, 9u32).heaps(3u32);
    let refused = [
        query().kind(nimcount::count::Kind::Multiset).count().unwrap_err(),
        query().kind(nimcount::count::Kind::Set).count().unwrap_err(),
        query().misere(true).count().unwrap_err(),
        query().max_heap(100).count().unwrap_err(),
        query().staircase(true).count().unwrap_err(),
        query().distribution().unwrap_err(),
        query().probability(false).unwrap_err(),
        Query::moore(0).sizes(0u32, 9u32).heaps(3u32).count().unwrap_err(),
        Query::moore(2).sizes(0u32, 9u32).count().unwrap_err(),
    ];
    let needles = [
        "only ordered",
        "only ordered",
        "misère",
        "no Grundy values",
        "single heaps",
        "only counts",
        "only counts",
        "K must be at least 1",
        "number of heaps",
    ];
    for (err, needle) in refused.iter().zip(needles) {
        assert!(err.to_string().contains(needle), "{err}: expected '{needle}'");
    }
    // The brute-force table is not empty: the checks above compare real numbers.
    let t = lost_by_extremes(3, 2);
    assert!(t.iter().flatten().filter(|&&c| c > 0).count() > 20);
    assert_eq!(brute(&t, 0, 40).to_u64(), Some(41)); // three equal heaps
}
