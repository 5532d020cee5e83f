//! Counting games without a proven period: direct values, with no flag, over ranges whose
//! estimate is small; a refusal, before computing, beyond. Project Euler 310 is subtract-a-
//! square with three unordered heaps of 0..=100 000 stones.

use std::time::Instant;

use nimcount::Error;
use nimcount::count::{Kind, Query, Source};
use nimcount::game::Game;
use nimcount::grundy::values_of;
use nimcount::progress::Silent;
use num_bigint::BigUint;

use crate::support::count_support;

/// Lost positions of `k` heaps of `lo..=hi` stones, as ordered tuples, multisets and sets, by
/// enumerating the tuples with values from the plain mex (itself checked against a game-tree
/// search in `grundy_brute`).
fn enumerate(g: &[u32], lo: usize, hi: usize, k: usize) -> [u64; 3] {
    count_support::lost_by_shape(lo as u64, hi as u64, k, |heaps| {
        heaps.iter().fold(0, |x, &h| x ^ g[h as usize]) == 0
    })
}

#[test]
fn project_euler_310_without_a_flag() {
    let query = Query::new(Game::Squares).sizes(0u32, 100_000u32).heaps(3u32).kind(Kind::Multiset);
    let counts = query.count().unwrap();
    assert_eq!(counts.losing, BigUint::from(2_586_528_661_783u64));
    assert_eq!(counts.report.source, Source::Values { values_computed: 100_001 });
}

#[test]
fn squares_agree_with_enumeration_on_small_ranges() {
    let g = values_of(&Game::Squares, 400, &Silent).unwrap();
    for (lo, hi, k) in [(0, 30, 3), (1, 60, 2), (5, 17, 4), (0, 399, 2), (250, 260, 5)] {
        let expected = enumerate(&g, lo, hi, k);
        assert!(expected[0] > 0);
        for (kind, want) in [Kind::Ordered, Kind::Multiset, Kind::Set].into_iter().zip(expected) {
            let counts = Query::new(Game::Squares)
                .sizes(lo as u64, hi as u64)
                .heaps(k as u64)
                .kind(kind)
                .count()
                .unwrap();
            assert_eq!(counts.losing, BigUint::from(want), "{lo}..={hi}, {k} heaps, {kind}");
            let modular = Query::new(Game::Squares)
                .sizes(lo as u64, hi as u64)
                .heaps(k as u64)
                .kind(kind)
                .modulus(97u32);
            assert_eq!(
                modular.count().unwrap().losing,
                BigUint::from(want % 97),
                "{lo}..={hi}, {k}, {kind} mod 97"
            );
        }
    }
}

#[test]
fn a_range_too_costly_is_refused_before_computing() {
    for (hi, years) in [(10u64.pow(12), true), (10u64.pow(9), false)] {
        let started = Instant::now();
        let err = Query::new(Game::Squares).sizes(0u32, hi).heaps(2u32).count().unwrap_err();
        // The probe of the cost takes a fraction of a second on the reference machine.
        assert!(started.elapsed().as_secs_f64() < 3.0, "{hi}: {:?}", started.elapsed());
        let Error::TooCostly { values, seconds, bytes, .. } = &err else { panic!("{err}") };
        assert_eq!(*values, Some(hi + 1));
        assert!(*seconds > 60.0 && *bytes > hi, "{err}");
        assert_eq!(err.to_string().contains("years"), years, "{err}");
        assert!(err.to_string().starts_with("squares is never periodic"), "{err}");
    }
    // Beyond 2^64 values: no estimate can be finite.
    let huge = BigUint::from(10u32).pow(30);
    let err = Query::new(Game::Squares).sizes(0u32, huge).heaps(2u32).count().unwrap_err();
    assert!(matches!(err, Error::TooCostly { values: None, .. }), "{err}");
    // An open octal game: a period search first (bounded here), then the refusal.
    let officers = Game::parse("octal:0.6").unwrap();
    let err = Query::new(officers).sizes(0u32, 10u64.pow(12)).heaps(2u32).max_heap(5000).count().unwrap_err();
    assert!(err.to_string().contains("has no proven period in G(0) … G(4999)"), "{err}");
}

#[test]
fn small_ranges_of_open_games_use_their_own_values() {
    // 0.6 over 0..=3000: the search within the range finds no period, and its values serve.
    let officers = Game::parse("octal:0.6").unwrap();
    let g = values_of(&officers, 3001, &Silent).unwrap();
    let counts = Query::new(officers).sizes(0u32, 3000u32).heaps(2u32).count().unwrap();
    assert_eq!(counts.report.source, Source::Values { values_computed: 3001 });
    assert_eq!(counts.losing, BigUint::from(enumerate(&g, 0, 3000, 2)[0]));
    // Kayles over a range longer than its certificate's window: the period.
    let kayles = Game::parse("octal:0.77").unwrap();
    let counts = Query::new(kayles).sizes(0u32, 3000u32).heaps(2u32).count().unwrap();
    assert!(matches!(counts.report.source, Source::Period { .. }), "{:?}", counts.report.source);
}
