//! Counts over a range of heap counts (`Query::heaps_range`) against the sums of the counts of
//! each number of heaps, and against a transform and geometric series written out plainly.

use nimcount::Error;
use nimcount::count::{Kind, Query};
use nimcount::game::Game;
use nimcount::histogram::Histogram;
use num_bigint::BigUint;
use num_traits::Zero;

use crate::support::common::Rng;

fn with_modulus<'p>(query: Query<'p>, modulus: &Option<BigUint>) -> Query<'p> {
    match modulus {
        Some(m) => query.modulus(m.clone()),
        None => query,
    }
}

/// Every kind, exact and modulo odd, even, power-of-two and big moduli, ranges from 0 and
/// single numbers of heaps: the range's losing count and total equal the sums of the single
/// counts (reduced), for Kayles, Nim and `subtract:1,3,4` over `1..=10^12` and over a few
/// sizes (sets of more heaps than sizes included). The games themselves count over ranges in
/// `ranges_refuse_what_they_cannot_sum` and in the command-line tests.
#[test]
fn ranges_equal_the_sums_of_single_counts() {
    let big = |s: &str| Some(nimcount::number::parse(s).unwrap());
    let moduli = [None, big("998244353"), big("12"), big("2^70*3"), big("2^64"), big("3^50*5"), big("1")];
    let sizes = [(1u64, 1_000_000_000_000u64), (2, 4), (0, 0)];
    let ranges = [(0u64, 0u64), (0, 3), (1, 4), (2, 6), (3, 3)];
    for spec in ["kayles", "nim", "subtract:1,3,4"] {
        let game = Game::parse(spec).unwrap();
        for (lo, hi) in sizes {
            // The game's histogram once (its period search is the slow part), then every query
            // over it: the same counting path as a query over the game.
            let of_game = Query::new(game.clone()).sizes(lo, hi).heaps(1u32);
            let histogram = of_game.histogram().unwrap().0.into_owned();
            for kind in [Kind::Ordered, Kind::Multiset, Kind::Set] {
                let query = || Query::from_histogram(histogram.clone()).kind(kind);
                // Exact single counts, reduced below for each modulus.
                let singles: Vec<(BigUint, BigUint)> = (0..=6u32)
                    .map(|k| {
                        let c = query().heaps(k).count().unwrap();
                        (c.losing, c.total)
                    })
                    .collect();
                for (a, b) in ranges {
                    let (losing, total) = singles[a as usize..=b as usize]
                        .iter()
                        .fold((BigUint::zero(), BigUint::zero()), |(l, t), (x, y)| (l + x, t + y));
                    for m in &moduli {
                        let what = format!("{spec} {lo}..={hi} {kind} heaps {a}..={b} modulo {m:?}");
                        let got = with_modulus(query().heaps_range(a, b), m).count().expect(&what);
                        let reduce = |x: &BigUint| m.as_ref().map_or(x.clone(), |m| x % m);
                        assert_eq!((got.losing, got.total), (reduce(&losing), reduce(&total)), "{what}");
                    }
                }
            }
        }
    }
}

/// The distribution over a range is the sum of the distributions, exact and modulo 2^5·3.
#[test]
fn range_distributions_equal_the_sums_of_distributions() {
    let h = Histogram::from_values(&[0, 1, 2, 3, 1, 0, 5, 2, 6], 0, 8).unwrap();
    for kind in [Kind::Ordered, Kind::Multiset, Kind::Set] {
        for m in [None, Some(BigUint::from(96u32))] {
            let query = || with_modulus(Query::from_histogram(h.clone()).kind(kind), &m);
            let mut expected = vec![BigUint::zero(); 8];
            for k in 2..=5u32 {
                let d = query().heaps(k).distribution().unwrap();
                for (e, c) in expected.iter_mut().zip(d.counts) {
                    *e += c;
                }
            }
            if let Some(m) = &m {
                expected.iter_mut().for_each(|e| *e %= m);
            }
            let got = query().heaps_range(2u32, 5u32).distribution().unwrap();
            assert_eq!(got.counts, expected, "{kind} modulo {m:?}");
        }
    }
}

/// A histogram of 1 000 random values below 2^16, every number of heaps from 1 to 10^18 modulo
/// 998 244 353: the losing count equals `F⁻¹ Σ_j Σ_k Ĥ_j^k` computed here with a plain
/// transform and the series as a quotient (the library never divides: it doubles).
#[test]
fn a_huge_range_equals_a_plain_transform_and_geometric_series() {
    const P: u64 = 998_244_353;
    let mut rng = Rng::new(0x6e0_5eed);
    let values: Vec<u32> = (0..1000).map(|_| (rng.next_u64() % (1 << 16)) as u32).collect();
    let histogram = Histogram::from_values(&values, 0, 999).unwrap();
    let hi = 10u64.pow(18);
    let got = Query::from_histogram(histogram).heaps_range(1u32, hi).modulus(P).count().unwrap();

    let mul = |a: u64, b: u64| a * b % P;
    let pow = |mut a: u64, mut e: u64| {
        let mut r = 1;
        while e > 0 {
            if e & 1 == 1 {
                r = mul(r, a);
            }
            a = mul(a, a);
            e >>= 1;
        }
        r
    };
    // Σ_{k=1}^{hi} v^k: modulo a prime, (v^(hi+1) − v) / (v − 1) for v ≠ 1 (Fermat's inverse).
    let series = |v: u64| match v {
        1 => hi % P,
        v => mul((pow(v, hi + 1) + P - v) % P, pow(v + P - 1, P - 2)),
    };
    let mut h = vec![0u64; 1 << 16];
    for &v in &values {
        h[v as usize] += 1;
    }
    let mut len = 1;
    while len < h.len() {
        for i in (0..h.len()).step_by(2 * len) {
            for j in i..i + len {
                let (a, b) = (h[j], h[j + len]);
                (h[j], h[j + len]) = ((a + b) % P, (a + P - b) % P);
            }
        }
        len *= 2;
    }
    let sum = h.iter().fold(0, |acc, &v| (acc + series(v)) % P);
    let losing = mul(sum, pow(pow(2, 16), P - 2));
    assert_eq!(got.losing, BigUint::from(losing));
    assert_eq!(got.total, BigUint::from(series(1000)));
}

/// Refusals: an empty range, and the queries whose counts are not sums over the transform (misère
/// multisets of a quotient's game among them; misère ranges of nim and ordered misère ranges are
/// summed, and checked against the counts one by one in the library's unit tests).
#[test]
fn ranges_refuse_what_they_cannot_sum() {
    let nim = || Query::new(Game::Nim).sizes(0u32, 7u32);
    match nim().heaps_range(5u32, 3u32).count() {
        Err(Error::EmptyHeapsRange { lo, hi }) => assert_eq!((lo, hi), (5u32.into(), 3u32.into())),
        other => panic!("{other:?}"),
    }
    for err in [
        Query::new(Game::parse("kayles").unwrap())
            .sizes(0u32, 7u32)
            .heaps_range(1u32, 3u32)
            .misere(true)
            .kind(nimcount::count::Kind::Multiset)
            .count()
            .unwrap_err(),
        nim().heaps_range(1u32, 3u32).staircase(true).count().unwrap_err(),
        nim().heaps_range(1u32, 3u32).probability(false).unwrap_err(),
        Query::moore(2).sizes(0u32, 3u32).heaps_range(1u32, 3u32).count().unwrap_err(),
    ] {
        assert!(matches!(err, Error::NotForQuery { .. }), "{err}");
        assert!(err.to_string().contains("range of heap counts"), "{err}");
    }
    // A range as wide as anything, counted modulo a word in one pass.
    let wide = nimcount::number::parse("10^1000").unwrap();
    let c = nim().heaps_range(0u32, wide).modulus(1_000_000_007u32).count().unwrap();
    assert!(c.losing < 1_000_000_007u32.into());
    // `heaps` after `heaps_range` counts one number of heaps again.
    let one = nim().heaps_range(1u32, 3u32).heaps(2u32).count().unwrap();
    assert_eq!(one.losing, 8u32.into());
}
