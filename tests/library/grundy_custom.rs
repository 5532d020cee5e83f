//! Games of the user's through the whole pipeline: the example's games against brute-force
//! enumeration, declared structures proven periodic and checked against direct values far
//! beyond their certificates, declarations that contradict the options refused, and games
//! that declare nothing counted over ranges that fit.

#[allow(dead_code)]
#[path = "../../examples/prime_moves.rs"]
mod prime_moves;

use nimcount::Error;
use nimcount::count::{Kind, Query};
use nimcount::game::{Game, HeapGame, Structure};
use nimcount::grundy::{Theorem, certify, find_period, values, values_of};
use nimcount::progress::Silent;
use num_bigint::BigUint;
use prime_moves::{PrimeMoves, SmallPrimes};

use crate::support::count_support;
use crate::support::game_tree::GameTree;

/// Lost positions of `k` heaps of `lo..=hi` stones (ordered tuples, multisets, sets), by
/// enumeration and game-tree search.
fn brute(game: &dyn HeapGame, lo: u64, hi: u64, k: usize) -> [u64; 3] {
    let mut tree = GameTree::new(game);
    count_support::lost_by_shape(lo, hi, k, |heaps| !tree.is_won(heaps))
}

fn counted(game: Game, lo: u64, hi: u64, k: u64) -> [u64; 3] {
    [Kind::Ordered, Kind::Multiset, Kind::Set].map(|kind| {
        let counts = Query::new(game.clone()).sizes(lo, hi).heaps(k).kind(kind).count().unwrap();
        u64::try_from(&counts.losing).unwrap()
    })
}

#[test]
fn the_example_games_agree_with_brute_force() {
    for (lo, hi, k) in [(0, 14, 3), (1, 25, 2), (3, 9, 4)] {
        let expected = brute(&PrimeMoves::default(), lo, hi, k as usize);
        assert!(expected[0] > 0, "no lost position checked");
        assert_eq!(
            counted(Game::custom(PrimeMoves::default()), lo, hi, k),
            expected,
            "primes {lo}..={hi}, {k}"
        );
        let small = SmallPrimes::below(6);
        let expected = brute(&small, lo, hi, k as usize);
        assert_eq!(counted(Game::custom(small), lo, hi, k), expected, "primes below 6 {lo}..={hi}, {k}");
    }
    // The example's own function, modulo a prime.
    let counts =
        prime_moves::count(PrimeMoves::default(), 1, 12, 3, Kind::Ordered, Some(1_000_000_007)).unwrap();
    assert_eq!(counts.losing, BigUint::from(brute(&PrimeMoves::default(), 1, 12, 3)[0]));
}

#[test]
fn declared_moves_get_the_fast_values_and_a_proven_period() {
    // The declared games' values (read from their options, then by blocks or the sliding
    // window) equal the plain mex over their options.
    let primes = PrimeMoves::default();
    assert_eq!(values(&primes, 20_000, &Silent).unwrap(), values_of(&primes, 20_000, &Silent).unwrap());
    let search = find_period(&primes, 5000, &Silent).unwrap();
    assert!(search.certificate.is_none() && search.suggestion.is_none(), "no theorem for an infinite set");

    for bound in [6, 30, 100] {
        let game = SmallPrimes::below(bound);
        let search = find_period(&game, 1 << 16, &Silent).unwrap();
        let c = search.certificate.clone().unwrap_or_else(|| panic!("primes below {bound}: no period"));
        let largest = (2..bound).rev().find(|&p| (2..p).all(|d| p % d != 0)).unwrap();
        assert_eq!(c.theorem, Theorem::SubtractionWindow { largest_move: largest });
        // Far beyond the certificate's window: a million heaps by the plain mex.
        let window = c.theorem.window(c.preperiod, c.period).unwrap() + c.period;
        let direct = values_of(&game, 1_000_000, &Silent).unwrap();
        assert!(direct.len() as u64 > 20 * window, "{window}");
        for (n, &v) in direct.iter().enumerate() {
            assert_eq!(search.value(n as u128), Some(u128::from(v)), "primes below {bound}: G({n})");
        }
        // The same certificate as the built-in subtraction game with those moves.
        let moves: Vec<u64> = (2..bound).filter(|&p| (2..p).all(|d| p % d != 0)).collect();
        let builtin = find_period(&Game::subtract(&moves).unwrap(), 1 << 16, &Silent).unwrap();
        assert_eq!(builtin.certificate, Some(c.clone()));
        assert_eq!(certify(&game, &direct[..window as usize]), Some(c));
    }
}

/// Kayles written as a rule: knock down one pin or two adjacent pins from a row, which may
/// split it in two.
struct Kayles;

impl HeapGame for Kayles {
    fn options(&self, n: u64, option: &mut dyn FnMut(&[u64])) {
        for take in 1..=n.min(2) {
            let rest = n - take;
            for left in 0..=rest / 2 {
                match (left, rest - left) {
                    (0, 0) => option(&[]),
                    (0, right) => option(&[right]),
                    (left, right) => option(&[left, right]),
                }
            }
        }
    }

    fn name(&self) -> String {
        "kayles by rule".into()
    }

    fn structure(&self) -> Structure {
        Structure::Octal { last_digit: 2 }
    }
}

#[test]
fn a_declared_octal_game_is_proven_like_its_code() {
    let search = find_period(&Kayles, 1 << 16, &Silent).unwrap();
    let c = search.certificate.clone().unwrap();
    assert_eq!((c.preperiod, c.period, c.theorem.id()), (71, 12, "octal-splitting"));
    assert_eq!(search.game, "kayles by rule");
    assert_eq!(
        values(&Kayles, 1000, &Silent).unwrap(),
        values(&Game::parse("octal:0.77").unwrap(), 1000, &Silent).unwrap()
    );
    // Far beyond the window (2 · 71 + 12 + 2 + 12 values): the plain O(n²) mex over the rule.
    let direct = values_of(&Kayles, 1500, &Silent).unwrap();
    for (n, &v) in direct.iter().enumerate() {
        assert_eq!(search.value(n as u128), Some(u128::from(v)), "G({n})");
    }
    // And counted through a query, against the built-in code.
    let query =
        |game: Game| Query::new(game).sizes(1u32, 10u64.pow(12)).heaps(5u32).modulus(998_244_353u32).count();
    assert_eq!(
        query(Game::custom(Kayles)).unwrap().losing,
        query(Game::parse("octal:0.77").unwrap()).unwrap().losing
    );
}

/// Kayles by rule with one flaw at heap 40 (past the heaps the code is read from): an extra
/// option of three heaps, or the split 1 + 38 missing.
struct FlawedKayles {
    extra: bool,
}

impl HeapGame for FlawedKayles {
    fn options(&self, n: u64, option: &mut dyn FnMut(&[u64])) {
        Kayles.options(n, &mut |heaps| {
            if self.extra || n != 40 || heaps != [1, 38] {
                option(heaps)
            }
        });
        if self.extra && n == 40 {
            option(&[20, 9, 9]);
        }
    }

    fn name(&self) -> String {
        "flawed kayles".into()
    }

    fn structure(&self) -> Structure {
        Structure::Octal { last_digit: 2 }
    }
}

#[test]
fn a_declared_octal_game_is_refused_at_its_first_flaw() {
    for (extra, shown) in
        [(true, "(extra Some([9, 9, 20]), missing None)"), (false, "(extra None, missing Some([1, 38]))")]
    {
        let err = values(&FlawedKayles { extra }, 100, &Silent).unwrap_err();
        let text = err.to_string();
        assert!(matches!(err, Error::InvalidGame { .. }), "{text}");
        assert!(
            text.contains("options at heap 40 differ from those of the code 0.77") && text.ends_with(shown),
            "{text}"
        );
    }
}

struct Parity(Structure);

impl HeapGame for Parity {
    fn options(&self, n: u64, option: &mut dyn FnMut(&[u64])) {
        if n >= 1 {
            if n == 1 { option(&[]) } else { option(&[n - 1]) }
        }
        if n >= 2 && n.is_multiple_of(2) {
            if n == 2 { option(&[]) } else { option(&[n - 2]) }
        }
    }

    fn name(&self) -> String {
        "parity".into()
    }

    fn structure(&self) -> Structure {
        self.0
    }
}

#[test]
fn a_declaration_the_options_contradict_is_refused() {
    for structure in [
        Structure::Subtraction { largest_move: Some(2) },
        Structure::Subtraction { largest_move: None },
        Structure::Subtraction { largest_move: Some(1) },
        Structure::Octal { last_digit: 2 },
    ] {
        let game = Parity(structure);
        for err in [
            find_period(&game, 100, &Silent).unwrap_err(),
            values(&game, 100, &Silent).unwrap_err(),
            Query::new(Game::custom(Parity(structure))).sizes(0u32, 10u32).heaps(2u32).count().unwrap_err(),
        ] {
            let text = err.to_string();
            assert!(matches!(err, Error::InvalidGame { .. }), "{structure:?}: {text}");
            assert!(text.starts_with("invalid game 'parity': it declares"), "{structure:?}: {text}");
            assert!(!text.contains('\n'));
        }
        assert_eq!(certify(&game, &values_of(&game, 100, &Silent).unwrap()), None);
    }
}

#[test]
fn a_game_that_declares_nothing_gets_direct_values() {
    let game = Parity(Structure::General);
    let search = find_period(&game, 300, &Silent).unwrap();
    assert!(search.certificate.is_none() && search.suggestion.is_none());
    assert_eq!(search.values, values_of(&game, 300, &Silent).unwrap());
    assert_eq!(counted(Game::custom(Parity(Structure::General)), 0, 12, 3), brute(&game, 0, 12, 3));
    // A range far beyond what may be computed: refused at once, with the estimate.
    let started = std::time::Instant::now();
    let query = Query::new(Game::custom(Parity(Structure::General))).sizes(0u32, 10u64.pow(14)).heaps(2u32);
    let err = query.count().unwrap_err();
    assert!(started.elapsed().as_secs_f64() < 5.0, "the refusal took {:?}", started.elapsed());
    let Error::TooCostly { values, seconds, .. } = &err else { panic!("{err}") };
    assert_eq!(*values, Some(10u64.pow(14) + 1));
    assert!(*seconds > 60.0, "{err}");
    assert!(err.to_string().contains("declares no structure"), "{err}");
    // With a limit of values that covers the range, it is computed whatever the estimate.
    let limited = Query::new(Game::custom(Parity(Structure::General))).sizes(0u32, 2000u32).heaps(2u32);
    assert!(limited.max_heap(2001).count().is_ok());
    let err = Query::new(Game::custom(Parity(Structure::General)))
        .sizes(0u32, 2000u32)
        .heaps(2u32)
        .max_heap(2000)
        .count()
        .unwrap_err();
    assert!(matches!(err, Error::TooCostly { values: Some(2001), .. }), "{err}");
}
