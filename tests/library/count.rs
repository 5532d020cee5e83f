//! The counting engine against brute-force enumeration and independent computations.

use nimcount::Error;
use nimcount::count::{Counts, Kind, Method, Query, Source};
use nimcount::game::Game;
use nimcount::grundy::{Certificate, Theorem};
use nimcount::histogram::Histogram;
use num_bigint::BigUint;
use num_traits::{One, Zero};

use crate::support::common::Rng;
use crate::support::count_support::{self, Shape, brute_distribution, brute_misere_nim, dp_distribution};

/// Moduli of every kind: 1, small and word-sized primes, odd composites (3·5, 3², 3^60),
/// even numbers, powers of two up to 2^100·3, odd numbers beyond 2^63, a prime too large to
/// factor quickly (2^89 − 1) — and `None` for exact counts.
/// `query` modulo `modulus`, or exact when it is `None`.
fn modulo<'p>(query: Query<'p>, modulus: Option<&BigUint>) -> Query<'p> {
    match modulus {
        Some(m) => query.modulus(m.clone()),
        None => query,
    }
}

fn moduli() -> Vec<Option<BigUint>> {
    let big = |s: &str| Some(nimcount::number::parse(s).unwrap());
    vec![
        None,
        big("1"),
        big("2"),
        big("3"),
        big("4"),
        big("7"),
        big("8"),
        big("9"),
        big("12"),
        big("15"),
        big("1000"),
        big("10^9+7"),
        big("998244353"),
        big("10^9"),
        big("1234567890"),
        big("2^31-1"),
        big("2^31+1"),
        big("2^32"),
        big("2^63-25"),
        big("2^63+2"),
        big("2^64"),
        big("2^64+13"),
        big("2^89-1"),
        big("10^30"),
        big("3*2^100"),
        big("3^60"),
    ]
}

fn shape_of(kind: Kind) -> Shape {
    match kind {
        Kind::Ordered => Shape::Ordered,
        Kind::Multiset => Shape::Multiset,
        Kind::Set => Shape::Set,
        _ => unreachable!("the kinds tested"),
    }
}

/// Checks a result against exact losing and total counts.
fn check(counts: &Counts, losing: &BigUint, total: &BigUint, modulus: &Option<BigUint>, what: &str) {
    let reduce = |x: &BigUint| match modulus {
        Some(m) => x % m,
        None => x.clone(),
    };
    assert_eq!(counts.losing, reduce(losing), "losing, {what}");
    assert_eq!(counts.total, reduce(total), "total, {what}");
    assert_eq!(counts.winning, reduce(&(total - losing)), "winning, {what}");
    assert_eq!(&counts.modulus, modulus, "{what}");
}

/// A random small game: a subtraction set or an octal game, with 48 Grundy values.
fn random_game(rng: &mut Rng) -> (String, Vec<u32>) {
    const OCTAL: [&str; 8] = ["0.07", "0.137", "0.77", "0.6", "0.51", "0.007", "4.07", "0.16"];
    if rng.below(2) == 0 {
        let moves: Vec<usize> = (1..=8).filter(|_| rng.below(3) == 0).collect();
        let moves = if moves.is_empty() { vec![1 + rng.below(4) as usize] } else { moves };
        (format!("subtract {moves:?}"), count_support::subtraction(&moves, 48))
    } else {
        let code = *rng.pick(&OCTAL);
        let digits: Vec<u8> = code.chars().filter(|c| c.is_ascii_digit()).map(|c| c as u8 - b'0').collect();
        (format!("octal {code}"), count_support::octal(&digits, 48))
    }
}

#[test]
fn counts_match_brute_force_on_random_games() {
    let mut rng = Rng::new(0x5EED_0001);
    let moduli = moduli();
    for case in 0..120 {
        let (game, g) = random_game(&mut rng);
        let lo = rng.below(8) as usize;
        let hi = (lo + rng.below(10) as usize).saturating_sub(usize::from(case % 17 == 0) * (lo + 1));
        let histogram = Histogram::from_values(&g, lo as u64, hi as u64).unwrap();
        for kind in [Kind::Ordered, Kind::Multiset, Kind::Set] {
            let k = rng.below(if kind == Kind::Set { 6 } else { 5 }) as usize;
            let k = if case % 23 == 0 { 0 } else { k };
            let dist = brute_distribution(&g, lo, hi, k, shape_of(kind));
            let losing = BigUint::from(dist.get(&0).copied().unwrap_or(0));
            let total = BigUint::from(dist.values().sum::<u64>());
            for modulus in &moduli {
                for method in [Method::Auto, Method::Classes, Method::Slots] {
                    let query = modulo(
                        Query::from_histogram(histogram.clone()).heaps(k as u64).kind(kind).method(method),
                        modulus.as_ref(),
                    );
                    let what = format!(
                        "{game}, sizes {lo}..={hi}, k = {k}, {kind}, {method:?}, modulus {modulus:?}"
                    );
                    check(&query.count().unwrap(), &losing, &total, modulus, &what);
                }
            }
        }
    }
}

#[test]
fn game_queries_match_brute_force() {
    // The library's games (period search, or values computed directly) against tables computed
    // here by their definition.
    let games: Vec<(&str, Vec<u32>)> = vec![
        ("subtract:1,3,4", count_support::subtraction(&[1, 3, 4], 3000)),
        ("subtract:2,5,6", count_support::subtraction(&[2, 5, 6], 3000)),
        ("subtract:1-3", count_support::subtraction(&[1, 2, 3], 3000)),
        ("octal:0.07", count_support::octal(&[0, 0, 7], 3000)),
        ("octal:0.137", count_support::octal(&[0, 1, 3, 7], 3000)),
        ("octal:4.07", count_support::octal(&[4, 0, 7], 3000)),
        ("nim", (0..3000).collect()),
    ];
    let mut rng = Rng::new(0x5EED_0007);
    for (spec, g) in &games {
        let game = Game::parse(spec).unwrap();
        assert_eq!(&nimcount::grundy::values(&game, 3000, &nimcount::progress::Silent).unwrap(), g, "{spec}");
        for _ in 0..6 {
            let lo = rng.below(6) as usize;
            let hi = lo + rng.below(8) as usize;
            for kind in [Kind::Ordered, Kind::Multiset, Kind::Set] {
                let k = rng.below(4) as usize;
                let dist = brute_distribution(g, lo, hi, k, shape_of(kind));
                let losing = BigUint::from(dist.get(&0).copied().unwrap_or(0));
                let total = BigUint::from(dist.values().sum::<u64>());
                for modulus in [None, Some(BigUint::from(1_000_000_007u32)), Some(BigUint::from(1u32 << 20))]
                {
                    let query =
                        Query::new(game.clone()).sizes(lo as u64, hi as u64).heaps(k as u64).kind(kind);
                    let query = modulo(query, modulus.as_ref());
                    let what = format!("{spec}, sizes {lo}..={hi}, k = {k}, {kind}, {modulus:?}");
                    check(&query.count().unwrap(), &losing, &total, &modulus, &what);
                }
            }
        }
        // A larger range through the period against the values counted directly.
        let (lo, hi) = (17u64, 2900u64);
        let direct = Histogram::from_values(g, lo, hi).unwrap();
        for kind in [Kind::Ordered, Kind::Multiset, Kind::Set] {
            let via_game =
                Query::new(game.clone()).sizes(lo, hi).heaps(5u32).kind(kind).modulus(998_244_353u32);
            let via_values =
                Query::from_histogram(direct.clone()).heaps(5u32).kind(kind).modulus(998_244_353u32);
            let (a, b) = (via_game.count().unwrap(), via_values.count().unwrap());
            assert_eq!((a.losing, a.total), (b.losing, b.total), "{spec} {kind}");
        }
    }
}

#[test]
fn periodic_histograms_count_like_their_values() {
    // Values with a preperiod and a period by construction (saltus 0 and 2): the histogram from
    // the certificate (stretches of values, or growing values) against direct counting.
    let mut rng = Rng::new(0x5EED_0006);
    let moduli = moduli();
    for case in 0..24 {
        let (n0, p) = (rng.below(4), 1 + rng.below(6));
        let saltus = if case % 3 == 0 { 2 } else { 0 };
        let pre: Vec<u32> = (0..n0).map(|_| rng.below(9) as u32).collect();
        let base: Vec<u32> = (0..p).map(|_| rng.below(9) as u32).collect();
        let values: Vec<u32> = (0..60u64)
            .map(|n| {
                if n < n0 {
                    pre[n as usize]
                } else {
                    base[((n - n0) % p) as usize] + ((n - n0) / p) as u32 * saltus
                }
            })
            .collect();
        let certificate =
            Certificate { preperiod: n0, period: p, saltus: u64::from(saltus), theorem: Theorem::Nim };
        let lo = rng.below(20);
        let hi = lo + rng.below(25);
        let periodic = Histogram::from_period(values.clone(), &certificate, lo, hi).unwrap();
        let direct = Histogram::from_values(&values, lo, hi).unwrap();
        assert_eq!(periodic.total(), direct.total());
        for kind in [Kind::Ordered, Kind::Multiset, Kind::Set] {
            let k = 1 + rng.below(3);
            for modulus in &moduli {
                for method in [Method::Auto, Method::Classes] {
                    let count = |h: &Histogram| {
                        let query = Query::from_histogram(h.clone()).heaps(k).kind(kind).method(method);
                        modulo(query, modulus.as_ref()).count().unwrap()
                    };
                    let (a, b) = (count(&periodic), count(&direct));
                    let what = format!("{certificate:?} {lo}..={hi} k = {k} {kind} {method:?} {modulus:?}");
                    assert_eq!((a.losing, a.total), (b.losing, b.total), "{what}");
                }
            }
        }
    }
}

#[test]
fn distributions_match_brute_force() {
    let mut rng = Rng::new(0x5EED_0002);
    let moduli = moduli();
    for case in 0..30 {
        let (game, g) = random_game(&mut rng);
        let lo = rng.below(6) as usize;
        let hi = lo + rng.below(9) as usize;
        let histogram = Histogram::from_values(&g, lo as u64, hi as u64).unwrap();
        for kind in [Kind::Ordered, Kind::Multiset, Kind::Set] {
            let k = (case % 5) as usize;
            let dist = brute_distribution(&g, lo, hi, k, shape_of(kind));
            let total: u64 = dist.values().sum();
            for modulus in &moduli {
                for method in [Method::Auto, Method::Classes] {
                    let query = modulo(
                        Query::from_histogram(histogram.clone()).heaps(k as u64).kind(kind).method(method),
                        modulus.as_ref(),
                    );
                    let what = format!(
                        "{game}, sizes {lo}..={hi}, k = {k}, {kind}, {method:?}, modulus {modulus:?}"
                    );
                    let d = query.distribution().unwrap();
                    let reduce = |x: u64| match modulus {
                        Some(m) => BigUint::from(x) % m,
                        None => BigUint::from(x),
                    };
                    if modulus.as_ref().is_some_and(|m| m.is_one()) {
                        assert!(d.counts.iter().all(Zero::is_zero), "{what}");
                        continue;
                    }
                    assert_eq!(d.counts.len(), histogram.transform_len(), "{what}");
                    for (x, c) in d.counts.iter().enumerate() {
                        assert_eq!(
                            *c,
                            reduce(dist.get(&(x as u32)).copied().unwrap_or(0)),
                            "XOR {x}, {what}"
                        );
                    }
                    assert_eq!(d.total, reduce(total), "{what}");
                }
            }
        }
    }
}

#[test]
fn misere_nim_matches_brute_force() {
    let moduli = moduli();
    for lo in 0..4usize {
        for hi in lo..lo + 5 {
            for kind in [Kind::Ordered, Kind::Multiset, Kind::Set] {
                for k in 0..=4usize {
                    let (losing, total) = brute_misere_nim(lo, hi, k, shape_of(kind));
                    for modulus in &moduli {
                        let query = modulo(
                            Query::new(Game::Nim)
                                .sizes(lo as u64, hi as u64)
                                .heaps(k as u64)
                                .kind(kind)
                                .misere(true),
                            modulus.as_ref(),
                        );
                        let what =
                            format!("misère nim, sizes {lo}..={hi}, k = {k}, {kind}, modulus {modulus:?}");
                        check(&query.count().unwrap(), &losing.into(), &total.into(), modulus, &what);
                    }
                    if total > 0 {
                        let p = Query::new(Game::Nim)
                            .sizes(lo as u64, hi as u64)
                            .heaps(k as u64)
                            .kind(kind)
                            .misere(true)
                            .probability(false)
                            .unwrap();
                        let want = losing as f64 / total as f64;
                        assert!(
                            (p.losing - want).abs() < 1e-12,
                            "{lo}..={hi} k={k} {kind}: {} vs {want}",
                            p.losing
                        );
                    }
                }
            }
        }
    }
    // The empty position is won in misère play, lost in normal play.
    let empty = Query::new(Game::Nim).sizes(0u32, 5u32).heaps(0u32);
    assert_eq!(empty.count().unwrap().losing, BigUint::one());
    let empty = Query::new(Game::Nim).sizes(0u32, 5u32).heaps(0u32).misere(true);
    assert_eq!(empty.count().unwrap().losing, BigUint::zero());
}

#[test]
fn probabilities_match_exact_fractions() {
    let mut rng = Rng::new(0x5EED_0003);
    for _ in 0..40 {
        let (game, g) = random_game(&mut rng);
        let lo = rng.below(5) as usize;
        let hi = lo + 1 + rng.below(8) as usize;
        let histogram = Histogram::from_values(&g, lo as u64, hi as u64).unwrap();
        for kind in [Kind::Ordered, Kind::Multiset, Kind::Set] {
            let k = rng.below(5) as usize;
            let dist = brute_distribution(&g, lo, hi, k, shape_of(kind));
            let total: u64 = dist.values().sum();
            let query = Query::from_histogram(histogram.clone()).heaps(k as u64).kind(kind);
            if total == 0 {
                assert!(query.probability(false).is_err(), "no sets of {k} among {lo}..={hi}");
                continue;
            }
            let p = query.probability(true).unwrap();
            let what = format!("{game}, sizes {lo}..={hi}, k = {k}, {kind}");
            let want = dist.get(&0).copied().unwrap_or(0) as f64 / total as f64;
            assert!((p.losing - want).abs() < 1e-12, "{what}: {} vs {want}", p.losing);
            assert!((p.winning - (1.0 - want)).abs() < 1e-12, "{what}");
            for (x, &q) in p.distribution.as_ref().unwrap().iter().enumerate() {
                let want = dist.get(&(x as u32)).copied().unwrap_or(0) as f64 / total as f64;
                assert!((q - want).abs() < 1e-12, "{what}, XOR {x}: {q} vs {want}");
            }
        }
    }
}

#[test]
fn probabilities_with_huge_exponents() {
    // Two values with weights 3 and 1: P(XOR = 0) = (1 + (1/2)^k) / 2 for ordered heaps.
    let h = Histogram::parse("0 3\n1 1\n", "weights").unwrap();
    for (k, want) in [("1", 0.75), ("2", 0.625), ("60", 0.5 + 0.5f64.powi(61)), ("10^30", 0.5)] {
        let k = nimcount::number::parse(k).unwrap();
        let p = Query::from_histogram(h.clone()).heaps(k.clone()).probability(false).unwrap();
        assert!((p.losing - want).abs() < 1e-15, "k = {k}: {}", p.losing);
    }
    // Near-certain ratios: Ĥ = N − 2 with N = 10^15, k = 10^15: (1 − 2·10^-15)^(10^15) = e^-2.
    let n = 1_000_000_000_000_000u64;
    let h = Histogram::from_counts([(0, BigUint::from(n - 1)), (1, BigUint::one())]).unwrap();
    let p = Query::from_histogram(h).heaps(n).probability(false).unwrap();
    let want = 0.5 + 0.5 * (-2.0f64).exp();
    assert!((p.losing - want).abs() < 1e-12, "{} vs {want}", p.losing);
}

/// `a *ₓ b` by the definition, modulo `m`.
fn naive_xor_convolve(a: &[BigUint], b: &[BigUint], m: &BigUint) -> Vec<BigUint> {
    let mut c = vec![BigUint::zero(); a.len()];
    for (i, x) in a.iter().enumerate() {
        for (j, y) in b.iter().enumerate() {
            c[i ^ j] = (&c[i ^ j] + x * y) % m;
        }
    }
    c
}

/// `h^{*k}` modulo `m` by binary powering of naive XOR convolutions: no transform, no
/// exponent reduction.
fn binary_power(h: &[BigUint], k: &BigUint, m: &BigUint) -> Vec<BigUint> {
    let mut result = vec![BigUint::zero(); h.len()];
    result[0] = BigUint::one() % m;
    for i in (0..k.bits()).rev() {
        result = naive_xor_convolve(&result, &result, m);
        if k.bit(i) {
            result = naive_xor_convolve(&result, h, m);
        }
    }
    result
}

#[test]
fn huge_exponents_match_binary_powering() {
    let mut rng = Rng::new(0x5EED_0004);
    let exponents = [
        "0",
        "1",
        "2",
        "3",
        "64",
        "65",
        "10^9+6",
        "2*10^9+12",
        "998244352",
        "3*998244352+1",
        "2^64",
        "2^64+1",
        "10^30",
        "12*10^30",
        "2^100-1",
        "2^120+7",
    ];
    let moduli: Vec<BigUint> = moduli().into_iter().flatten().collect();
    for case in 0..6 {
        // Counts that share factors with the moduli: multiples of 2, 3, 5 and 7, 0 and 1.
        let len = 1usize << (case % 4);
        let counts: Vec<BigUint> = (0..len)
            .map(|i| match (case + i) % 5 {
                0 => BigUint::from(6u32 * (1 + rng.below(4) as u32)),
                1 => BigUint::from(10u32),
                2 => BigUint::from(rng.below(1000) as u32),
                3 => BigUint::one(),
                _ => BigUint::from(7u64.pow(1 + rng.below(20) as u32)),
            })
            .collect();
        let pairs: Vec<(u64, BigUint)> =
            counts.iter().cloned().enumerate().map(|(i, c)| (i as u64, c)).collect();
        let histogram = Histogram::from_counts(pairs).unwrap();
        let f = histogram.transform_len();
        let mut padded = counts.clone();
        padded.resize(f, BigUint::zero());
        for text in exponents {
            let k = nimcount::number::parse(text).unwrap();
            for m in &moduli {
                let want = binary_power(&padded, &k, m);
                let total = histogram.total().modpow(&k, m);
                for method in [Method::Auto, Method::Classes] {
                    let counts = Query::from_histogram(histogram.clone())
                        .heaps(k.clone())
                        .modulus(m.clone())
                        .method(method)
                        .count()
                        .unwrap();
                    let what = format!("counts {counts:?}, k = {k}, modulus {m}, {method:?}");
                    assert_eq!(counts.losing, want[0], "{what}");
                    assert_eq!(counts.total, total, "{what}");
                }
            }
        }
    }
}

#[test]
fn huge_counts_match_dynamic_programming() {
    let mut rng = Rng::new(0x5EED_0005);
    let nasty: Vec<BigUint> =
        ["0", "1", "2", "2^64-1", "2^64", "2^63", "10^20", "3^41", "10^40+1", "2^127-1"]
            .iter()
            .map(|s| nimcount::number::parse(s).unwrap())
            .collect();
    let moduli = moduli();
    for case in 0..16 {
        let len = 1 + rng.below(6) as usize;
        let counts: Vec<BigUint> = (0..len)
            .map(|_| if rng.below(3) == 0 { BigUint::from(rng.below(20)) } else { rng.pick(&nasty).clone() })
            .collect();
        let pairs: Vec<(u64, BigUint)> =
            counts.iter().cloned().enumerate().map(|(i, c)| (i as u64, c)).collect();
        let histogram = Histogram::from_counts(pairs).unwrap();
        for kind in [Kind::Ordered, Kind::Multiset, Kind::Set] {
            let k = (case % 7) as usize;
            let want = dp_distribution(&counts, k, shape_of(kind));
            let total: BigUint = want.iter().sum();
            for modulus in &moduli {
                for method in [Method::Auto, Method::Classes] {
                    let query = modulo(
                        Query::from_histogram(histogram.clone()).heaps(k as u64).kind(kind).method(method),
                        modulus.as_ref(),
                    );
                    let what = format!("counts {counts:?}, k = {k}, {kind}, {method:?}, modulus {modulus:?}");
                    check(&query.count().unwrap(), &want[0], &total, modulus, &what);
                }
            }
        }
    }
}

#[test]
fn unordered_counts_with_many_heaps_match_dynamic_programming() {
    // k up to 40 with composite and even moduli: the valuation method's exponents grow.
    let counts: Vec<BigUint> = [5u64, 3, 8, 1, 0, 2, 7].iter().map(|&c| BigUint::from(c)).collect();
    let pairs: Vec<(u64, BigUint)> = counts.iter().cloned().enumerate().map(|(i, c)| (i as u64, c)).collect();
    let histogram = Histogram::from_counts(pairs).unwrap();
    let moduli = moduli();
    for kind in [Kind::Multiset, Kind::Set] {
        for k in [8usize, 17, 26, 40] {
            let want = dp_distribution(&counts, k, shape_of(kind));
            let total: BigUint = want.iter().sum();
            for modulus in &moduli {
                let query = modulo(
                    Query::from_histogram(histogram.clone()).heaps(k as u64).kind(kind),
                    modulus.as_ref(),
                );
                check(
                    &query.count().unwrap(),
                    &want[0],
                    &total,
                    modulus,
                    &format!("k = {k}, {kind}, {modulus:?}"),
                );
            }
        }
    }
}

#[test]
fn statement_values() {
    // Taking a proper divisor of the pile, three heaps of 1..=n: 692 and 735 494 wins.
    let g = count_support::take_proper_divisor(101);
    for (n, wins) in [(10u64, 692u32), (100, 735_494)] {
        let h = Histogram::from_values(&g, 1, n).unwrap();
        let counts = Query::from_histogram(h).heaps(3u32).count().unwrap();
        assert_eq!(counts.winning, BigUint::from(wins), "n = {n}");
        assert_eq!(counts.total, BigUint::from(n.pow(3)));
    }
    // Splitting a pile into two proper divisors greater than 1, five heaps of 2..=10: 40 085 wins.
    let g = count_support::split_into_divisors(11);
    let h = Histogram::from_values(&g, 2, 10).unwrap();
    for modulus in [None, Some(1_000_000_007u32), Some(1 << 20)].map(|m| m.map(BigUint::from)) {
        let counts = modulo(Query::from_histogram(h.clone()).heaps(5u32), modulus.as_ref()).count().unwrap();
        assert_eq!(counts.winning, BigUint::from(40_085u32));
    }
}

#[test]
fn empty_positions_and_modulus_one() {
    let h = Histogram::from_values(&[0, 1, 2, 0, 1, 2], 0, 5).unwrap();
    for kind in [Kind::Ordered, Kind::Multiset, Kind::Set] {
        let counts = Query::from_histogram(h.clone()).heaps(0u32).kind(kind).count().unwrap();
        assert_eq!((counts.losing, counts.winning, counts.total), (1u32.into(), 0u32.into(), 1u32.into()));
        let counts = Query::from_histogram(h.clone()).heaps(3u32).kind(kind).modulus(1u32).count().unwrap();
        assert!(counts.losing.is_zero() && counts.winning.is_zero() && counts.total.is_zero());
        assert_eq!(counts.report.sizes, BigUint::from(6u32));
        // No heap sizes at all: only the empty position exists, even for huge k.
        let empty = Histogram::from_counts([]).unwrap();
        for k in [BigUint::zero(), BigUint::from(10u32).pow(30)] {
            let want = BigUint::from(u8::from(k.is_zero()));
            for modulus in [None, Some(BigUint::from(1000u32))] {
                let query = modulo(
                    Query::from_histogram(empty.clone()).heaps(k.clone()).kind(kind),
                    modulus.as_ref(),
                );
                let counts = query.count().unwrap();
                assert_eq!((&counts.losing, &counts.total), (&want, &want), "{kind}, k = {k}");
            }
        }
        // More distinct sizes than there are: no sets at all, even for huge k.
        let none = Query::from_histogram(h.clone()).heaps(BigUint::from(10u32).pow(30)).kind(Kind::Set);
        if kind == Kind::Set {
            let counts = none.modulus(1000u32).count().unwrap();
            assert!(counts.losing.is_zero() && counts.total.is_zero());
        }
    }
}

#[test]
fn modulus_one_still_reports_the_query_it_answered() {
    let hi = BigUint::from(10u32).pow(40);
    let game = "subtract:1,2".parse::<Game>().unwrap();
    let query = Query::new(game).sizes(1u32, hi.clone()).heaps(BigUint::from(10u32).pow(30));
    let counts = query.modulus(1u32).count().unwrap();
    assert!(counts.losing.is_zero() && counts.winning.is_zero() && counts.total.is_zero());
    assert_eq!(counts.report.sizes, hi);
    assert!(matches!(counts.report.source, Source::Period { .. }), "{:?}", counts.report.source);
    // A range that cannot be counted is refused whatever the modulus.
    let open = Query::new("octal:0.16".parse::<Game>().unwrap()).sizes(0u32, hi).heaps(2u32).max_heap(1000);
    assert!(open.modulus(1u32).count().is_err());
}

#[test]
fn bad_queries_are_refused_with_one_line() {
    let h = Histogram::from_values(&[0, 1, 2, 3], 0, 3).unwrap();
    let errors = [
        Query::from_histogram(h.clone()).heaps(2u32).modulus(0u32).count().unwrap_err(),
        Query::new(Game::Nim).sizes(5u32, 3u32).heaps(2u32).count().unwrap_err(),
        Query::new(Game::Nim).heaps(2u32).count().unwrap_err(),
        Query::from_histogram(h.clone()).heaps(2u32).misere(true).count().unwrap_err(),
        Query::from_histogram(h.clone()).sizes(0u32, 3u32).count().unwrap_err(),
        // The transform of allbut:3 (saltus 3) over 0..=10^15 needs 2^49 slots.
        Query::new("allbut:3".parse::<Game>().unwrap())
            .sizes(0u32, BigUint::from(10u32).pow(15))
            .heaps(2u32)
            .count()
            .unwrap_err(),
        // Exact answers beyond 2^26 bits.
        Query::from_histogram(h.clone()).heaps(BigUint::from(10u32).pow(9)).count().unwrap_err(),
        // O(k) per distinct value, beyond the work limit (over 64 sizes: no closed form).
        Query::from_histogram(Histogram::from_values(&(0..100).collect::<Vec<u32>>(), 0, 99).unwrap())
            .heaps(BigUint::from(10u32).pow(12))
            .kind(Kind::Multiset)
            .modulus(7u32)
            .count()
            .unwrap_err(),
    ];
    for err in &errors {
        let message = err.to_string();
        assert!(!message.contains('\n') && !message.is_empty(), "{message}");
    }
    assert!(matches!(errors[5], Error::OutOfMemory { .. }), "{}", errors[5]);
    // Nim over 0..=10^15 is counted without arrays, but its distribution would need 2^50 counts.
    let nim = Query::new(Game::Nim).sizes(0u32, BigUint::from(10u32).pow(15)).heaps(2u32);
    assert_eq!(nim.count().unwrap().losing, BigUint::from(10u32).pow(15) + 1u32);
    let err = nim.distribution().unwrap_err();
    assert!(matches!(err, Error::DistributionTooLarge { log2: 50 }), "{err}");
    assert!(errors[0].to_string().contains("modulus 0"), "{}", errors[0]);
    assert!(errors[1].to_string().contains("5 is above 3"), "{}", errors[1]);
    assert!(errors[7].to_string().contains("steps"), "{}", errors[7]);
}

#[test]
fn nim_counts_agree_with_the_formula_for_pairs() {
    // Two Nim heaps from 0..=n: XOR 0 exactly when equal, so n + 1 losing ordered pairs.
    for n in [0u64, 1, 5, 1000, 65_535, 65_536] {
        let counts = Query::new(Game::Nim).sizes(0u32, n).heaps(2u32).count().unwrap();
        assert_eq!(counts.losing, BigUint::from(n + 1), "n = {n}");
        let multisets =
            Query::new(Game::Nim).sizes(0u32, n).heaps(2u32).kind(Kind::Multiset).count().unwrap();
        assert_eq!(multisets.losing, BigUint::from(n + 1), "n = {n}");
        let sets = Query::new(Game::Nim).sizes(0u32, n).heaps(2u32).kind(Kind::Set).count().unwrap();
        assert_eq!(sets.losing, BigUint::zero(), "n = {n}");
    }
}

/// Every query kind against the answers of nimcount 0.2 (commit e597e62), kept in
/// `tests/data/count_golden.tsv`: ordered, unordered and distinct counts of games and
/// histograms, misère Nim, probabilities, Moore's Nim-K and staircases, exact and modulo 1, odd,
/// even, `2^64` and big moduli, with `k` from 0 to `10^30`.
mod golden {
    use nimcount::count::{Kind, Query};
    use nimcount::game::Game;
    use nimcount::histogram::Histogram;
    use num_bigint::BigUint;

    const GOLDEN: &str = include_str!(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/count_golden.tsv"));

    fn big(s: &str) -> BigUint {
        s.parse().unwrap_or_else(|_| panic!("not a number: {s}"))
    }

    /// The kind named by the last word of a line's kind (`ordered`, `unordered`, `distinct`).
    fn kind(name: &str) -> Kind {
        match name.rsplit('-').next() {
            Some("ordered") => Kind::Ordered,
            Some("unordered") => Kind::Multiset,
            Some("distinct") => Kind::Set,
            _ => panic!("no kind in {name}"),
        }
    }

    /// The query of one line, over a game or a histogram of listed values.
    fn query(game: &str, lo: &str, hi: &str) -> Query<'static> {
        match game.strip_prefix("values:") {
            Some(values) => {
                let values: Vec<u32> = values.split(',').map(|v| v.parse().unwrap()).collect();
                Query::from_histogram(Histogram::from_values(&values, 0, values.len() as u64 - 1).unwrap())
            }
            None => Query::new(Game::parse(game).unwrap()).sizes(big(lo), big(hi)),
        }
    }

    /// The three answers of a line's query, as the file writes them.
    fn answer(kind_name: &str, game: &str, lo: &str, hi: &str, heaps: &str, modulus: &str) -> [String; 3] {
        let modulus = (modulus != "-").then(|| big(modulus));
        let counts = |c: nimcount::count::Counts| [c.losing, c.winning, c.total].map(|x| x.to_string());
        let misere = kind_name.starts_with("misere");
        let mut q = match kind_name {
            "moore" => {
                let k = game.strip_prefix("moore:").unwrap().parse().unwrap();
                Query::moore(k).sizes(big(lo), big(hi)).heaps(big(heaps))
            }
            "staircase" => query(game, lo, hi).heaps(big(heaps)).staircase(true),
            _ => query(game, lo, hi).heaps(big(heaps)).kind(kind(kind_name)),
        };
        if misere {
            q = q.misere(true);
        }
        if kind_name.contains("probability") {
            let p = q.probability(false).unwrap();
            return [format!("{:?}", p.losing), format!("{:?}", p.winning), p.exact.to_string()];
        }
        if let Some(m) = modulus {
            q = q.modulus(m);
        }
        counts(q.count().unwrap())
    }

    #[test]
    fn every_query_kind_answers_as_before() {
        let mut seen = std::collections::BTreeMap::<&str, usize>::new();
        for line in GOLDEN.lines().filter(|l| !l.starts_with('#')) {
            let f: Vec<&str> = line.split('\t').collect();
            assert_eq!(f.len(), 9, "{line}");
            let got = answer(f[0], f[1], f[2], f[3], f[4], f[5]);
            if f[0].contains("probability") {
                // Floating point: the same rounding is expected, allow one part in 10^12.
                for (g, w) in got[..2].iter().zip(&f[6..8]) {
                    let (g, w): (f64, f64) = (g.parse().unwrap(), w.parse().unwrap());
                    assert!((g - w).abs() <= 1e-12 * w.abs().max(1e-300), "{line}: got {g}");
                }
                assert_eq!(got[2], f[8], "{line}: exactness");
            } else {
                assert_eq!(got, [f[6], f[7], f[8]], "{line}");
            }
            *seen.entry(f[0]).or_default() += 1;
        }
        // Every kind is there, a hundred times or more (probabilities split by play).
        for kind in ["ordered", "unordered", "distinct", "misere-ordered", "moore", "staircase"] {
            assert!(seen.get(kind).is_some_and(|&n| n >= 100), "{kind}: {seen:?}");
        }
        assert!(seen.iter().filter(|(k, _)| k.contains("probability")).map(|(_, n)| n).sum::<usize>() >= 300);
    }
}
