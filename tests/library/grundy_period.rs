//! Certificates are sound and minimal: checked against slow, direct scans of long prefixes
//! computed by a plain mex, against every truncation of the values, and on the known traps
//! (s - 1 matches for subtraction games, the textbook octal window with preperiod 0).

use nimcount::game::{Game, HeapGame, OctalCode};
use nimcount::grundy::{
    Certificate, PeriodSearch, Theorem, certify, find_period, find_period_general, values, values_of,
};
use nimcount::progress::Silent;
use proptest::prelude::*;
use proptest::test_runner::{Config, RngSeed};

/// The slow check: the rule `G(n + p) = G(n) + s` holds over the whole prefix `g` (which must
/// reach `n0 + 2p`), fails at `n0 - 1`, and no smaller shift has a constant difference over one
/// period from `n0` (as it would if it were an eventual period of this p-periodic tail).
fn assert_minimal(g: &[u32], c: &Certificate, what: &str) {
    let (n0, p, s) = (c.preperiod as usize, c.period as usize, i64::try_from(c.saltus).unwrap());
    assert!(g.len() >= n0 + 2 * p, "{what}: prefix too short");
    let len = g.len();
    let g = |n: usize| i64::from(g[n]);
    for n in n0..len - p {
        assert_eq!(g(n + p), g(n) + s, "{what}: rule fails at n = {n}");
    }
    if n0 > 0 {
        assert_ne!(g(n0 - 1 + p), g(n0 - 1) + s, "{what}: preperiod {n0} is not the smallest");
    }
    for q in 1..p {
        let d = g(n0 + q) - g(n0);
        assert!((n0..n0 + p).any(|n| g(n + q) - g(n) != d), "{what}: {q} is a smaller period than {p}");
    }
}

/// The certificate of `game` and plain values long enough to check it.
fn certificate_and_plain_values(game: &Game, max_heap: u64) -> (Certificate, Vec<u32>) {
    let search = find_period(game, max_heap, &Silent).unwrap();
    let c = search.certificate.unwrap_or_else(|| panic!("{game}: no period within {max_heap}"));
    let len = c.preperiod + 2 * c.period + 64;
    (c, values_of(game, len, &Silent).unwrap())
}

/// Every subset of `1..=max` as a subtraction game.
fn subtraction_games(max: u64) -> Vec<Game> {
    (1u32..1 << max)
        .map(|bits| {
            Game::subtract(&(1..=max).filter(|&k| bits >> (k - 1) & 1 == 1).collect::<Vec<u64>>()).unwrap()
        })
        .collect()
}

/// Every octal code with at most two digits after the point, leading digit 0 or 4.
fn short_octal_games() -> Vec<Game> {
    let mut games = Vec::new();
    for d0 in [0, 4] {
        for d1 in 0..8 {
            for d2 in 0..8 {
                games.push(Game::Octal(OctalCode::from_digits(&[d0, d1, d2]).unwrap()));
            }
        }
    }
    games
}

#[test]
fn subtraction_certificates_are_minimal() {
    for game in subtraction_games(8) {
        let (c, g) = certificate_and_plain_values(&game, 1 << 16);
        assert_minimal(&g, &c, &game.spec());
    }
}

#[test]
fn octal_certificates_are_minimal() {
    let mut checked = 0;
    for game in short_octal_games() {
        let search = find_period(&game, 1 << 14, &Silent).unwrap();
        // Long certificates (0.16 and a few others) are checked elsewhere; the O(n²) check
        // below stays for short ones.
        let Some(c) = search.certificate.filter(|c| c.preperiod + 2 * c.period < 3000) else { continue };
        let g = values_of(&game, c.preperiod + 2 * c.period + 64, &Silent).unwrap();
        assert_minimal(&g, &c, &game.spec());
        checked += 1;
    }
    assert!(checked > 100, "only {checked} codes checked");
}

#[test]
fn all_but_certificates_are_minimal() {
    for bits in 1u32..1 << 6 {
        let excluded: Vec<u64> = (1..=6).filter(|&k| bits >> (k - 1) & 1 == 1).collect();
        let game = Game::all_but(&excluded).unwrap();
        let (c, g) = certificate_and_plain_values(&game, 1 << 16);
        assert!(c.saltus > 0, "{game}");
        assert_minimal(&g, &c, &game.spec());
    }
}

/// Whatever a prefix proves is the truth: for every truncation up to 64 values past the first
/// proof, then every seventh and the whole, `certify` finds nothing or exactly the certificate
/// of the full search.
fn assert_sound_on_every_prefix(game: &Game, truth: &Certificate, g: &[u32]) {
    let mut found_at = None;
    let mut len = 0;
    while len <= g.len() {
        match certify(game, &g[..len]) {
            None => assert!(found_at.is_none(), "{game}: proven with {found_at:?} values but not {len}"),
            Some(c) => {
                assert_eq!(
                    (c.preperiod, c.period, c.saltus),
                    (truth.preperiod, truth.period, truth.saltus),
                    "{game}: {len} values"
                );
                found_at.get_or_insert(len);
            }
        }
        len = match found_at {
            Some(at) if len >= at + 64 && len < g.len() => (len + 7).min(g.len()),
            _ => len + 1,
        };
    }
    assert!(found_at.is_some(), "{game}: never proven within {} values", g.len());
}

#[test]
fn prefixes_prove_the_truth_or_nothing() {
    let mut games = subtraction_games(7);
    games.extend(short_octal_games());
    for excluded in [&[1][..], &[1, 2], &[2, 3], &[1, 4, 5], &[3]] {
        games.push(Game::all_but(excluded).unwrap());
    }
    for game in games {
        let search = find_period_general(&game, 1 << 14, &Silent).unwrap();
        let Some(truth) = search.certificate else { continue };
        // The search keeps a preperiod and a period; the prefixes go as far as it computed.
        let g = values_of(&game, search.checked_upto.min(2500), &Silent).unwrap();
        assert_sound_on_every_prefix(&game, &truth, &g);
    }
}

/// Subtraction games: `s - 1` consecutive matches do not prove a period. Find games where the
/// last `s - 1` values of a prefix repeat with shift `p` from `n0` and yet `p` fails later, and
/// check that such a prefix proves nothing false.
#[test]
fn s_minus_one_matches_are_not_enough() {
    let mut traps = 0;
    for game in subtraction_games(9) {
        let Game::Subtract(moves) = &game else { unreachable!() };
        let s = moves.largest() as usize;
        let g = values(&game, 400, &Silent).unwrap();
        for p in 1..40 {
            for n0 in 0..100 {
                let fresh = n0 == 0 || g[n0 - 1] != g[n0 - 1 + p];
                let matches = (n0..n0 + s - 1).all(|n| g[n] == g[n + p]);
                let breaks = g[n0 + s - 1] != g[n0 + s - 1 + p];
                if s >= 2 && fresh && matches && breaks {
                    traps += 1;
                    let prefix = &g[..n0 + s - 1 + p];
                    if let Some(c) = certify(&game, prefix) {
                        assert_ne!(
                            (c.preperiod, c.period),
                            (n0 as u64, p as u64),
                            "{game}: fooled by s - 1 matches"
                        );
                    }
                    // With the right window the next value is needed, and it breaks the rule.
                    assert_eq!(
                        Theorem::SubtractionWindow { largest_move: s as u64 }.window(n0 as u64, p as u64),
                        Some((n0 + s) as u64)
                    );
                }
            }
        }
    }
    assert!(traps > 10, "only {traps} traps found: the test would not catch a window of s - 1");
}

/// 0.4 starts 0, 0, 0, 1: the textbook window `2·n0 + p + t = 2` is met by three zeros, yet
/// period 1 is false. The window for `n0 = 0` is `p + t + 1`.
#[test]
fn the_textbook_octal_window_is_not_used_for_preperiod_0() {
    let game = Game::parse("octal:0.4").unwrap();
    let g = values(&game, 4, &Silent).unwrap();
    assert_eq!(g, [0, 0, 0, 1]);
    let theorem = Theorem::OctalSplitting { last_digit: 1 };
    assert_eq!(theorem.window(0, 1), Some(3), "p + t + 1");
    assert_eq!(theorem.window(2, 1), Some(2 * 2 + 1 + 1), "2·n0 + p + t");
    assert_eq!(certify(&game, &g[..3]), None);
    assert_eq!(certify(&game, &g), None);
    let (c, plain) = certificate_and_plain_values(&game, 1 << 14);
    assert_minimal(&plain, &c, "0.4");
    assert!(c.preperiod > 0);
    // Without splits the window is max(n0 + t, t + 1).
    let no_split = Theorem::OctalNoSplitting { last_digit: 3 };
    assert_eq!(
        (no_split.window(0, 5), no_split.window(1, 5), no_split.window(7, 5)),
        (Some(4), Some(4), Some(10))
    );
}

/// `G(n) = floor((n mod (a + b)) / a)` for the subtraction set `{a, …, b}`, against the plain mex.
#[test]
fn the_interval_closed_form_matches_the_mex() {
    for a in 1..=12u64 {
        for b in a..=40 {
            let game = Game::subtract_runs(&[(a, b)]).unwrap();
            let count = 3 * (a + b) + 7;
            let closed = values(&game, count, &Silent).unwrap();
            assert_eq!(closed, values_of(&game, count, &Silent).unwrap(), "{game}");
            let formula: Vec<u32> = (0..count).map(|n| ((n % (a + b)) / a) as u32).collect();
            assert_eq!(closed, formula, "{game}");
            let search = find_period(&game, 1 << 16, &Silent).unwrap();
            let c = search.certificate.unwrap();
            assert_eq!((c.preperiod, c.period, c.saltus), (0, a + b, 0), "{game}");
            assert_eq!(c.theorem, Theorem::SubtractionInterval { first: a, last: b });
            let general = find_period_general(&game, 1 << 16, &Silent).unwrap().certificate.unwrap();
            assert_eq!((general.preperiod, general.period), (0, a + b), "{game}");
            assert_eq!(general.theorem, Theorem::SubtractionWindow { largest_move: b });
            assert_minimal(&formula, &c, &game.spec());
        }
    }
}

/// On big intervals the general path (sliding-window mex, window theorem) proves what the
/// closed form states, with the same values.
#[test]
fn the_general_path_agrees_with_the_closed_form_on_big_intervals() {
    for (a, b) in [(1, 1_000_000), (1000, 5000), (12_345, 99_999), (7, 200_000), (250_000, 250_000)] {
        let game = Game::subtract_runs(&[(a, b)]).unwrap();
        let closed = find_period(&game, 1 << 21, &Silent).unwrap();
        let general = find_period_general(&game, 1 << 21, &Silent).unwrap();
        let (c, g) = (closed.certificate.unwrap(), general.certificate.unwrap());
        assert_eq!((c.preperiod, c.period), (0, a + b));
        assert_eq!((g.preperiod, g.period, g.saltus), (0, a + b, 0), "{game}");
        assert_eq!(closed.values[..], general.values[..(a + b) as usize], "{game}");
        assert_eq!(closed.max_value, general.max_value);
    }
}

/// The number literature gives as period 144 with last exception 326 637 (OEIS A071436):
/// nimcount proves last exception 326 639 — see data/README.md.
#[test]
fn octal_056() {
    let search = find_period(&Game::parse("octal:0.56").unwrap(), 1 << 21, &Silent).unwrap();
    let c = search.certificate.unwrap();
    assert_eq!((c.preperiod, c.period), (326_640, 144));
    assert_ne!(search.values[326_639], search.values[326_639 + 144]);
    assert_ne!(search.values[326_636], search.values[326_636 + 144]);
}

fn value_through(search: &PeriodSearch, n: u64) -> u32 {
    search.value(u128::from(n)).unwrap() as u32
}

#[test]
fn values_beyond_the_prefix_follow_the_certificate() {
    for spec in
        ["nim", "subtract:1,3,4", "subtract:2-5", "allbut:2,3", "allbut:1,4,5", "octal:0.77", "octal:0.51"]
    {
        let game = Game::parse(spec).unwrap();
        let search = find_period(&game, 1 << 16, &Silent).unwrap();
        let direct = values_of(&game, 5000, &Silent).unwrap();
        for (n, &v) in direct.iter().enumerate() {
            assert_eq!(value_through(&search, n as u64), v, "{spec}: G({n})");
        }
        assert!(search.value(u128::MAX).is_some() || search.certificate.as_ref().unwrap().saltus > 0);
    }
    // Without a certificate nothing beyond the prefix is claimed.
    let open = find_period(&Game::parse("octal:0.6").unwrap(), 1000, &Silent).unwrap();
    assert_eq!(open.value(999).map(|v| v as u32), Some(open.values[999]));
    assert_eq!(open.value(1000), None);
    // Arithmetic periodicity overflowing u128 is refused, not wrapped.
    let nim_like = find_period(&Game::parse("allbut:1").unwrap(), 1000, &Silent).unwrap();
    assert_eq!(nim_like.value(1 << 40), Some(1 << 39));
    assert_eq!(nim_like.value(u128::MAX), Some(u128::MAX / 2));
}

#[test]
fn tiny_limits_and_edge_cases() {
    for spec in ["nim", "subtract:1", "subtract:1,3,4", "allbut:1", "octal:0.07", "octal:0.0", "squares"] {
        let game = Game::parse(spec).unwrap();
        for max_heap in [0, 1, 2, 3] {
            let search = find_period(&game, max_heap, &Silent).unwrap();
            assert!(search.checked_upto <= max_heap, "{spec} {max_heap}");
            assert!(search.values.len() as u64 <= search.checked_upto, "{spec} {max_heap}");
            match &search.certificate {
                // Closed forms answer whatever the limit; the others need the values.
                Some(c) if matches!(c.theorem, Theorem::Nim | Theorem::SubtractionInterval { .. }) => {}
                Some(c) => assert!(c.preperiod + c.period <= search.checked_upto, "{spec} {max_heap}"),
                None => assert_eq!(search.values.len() as u64, search.checked_upto, "{spec} {max_heap}"),
            }
            for n in 0..search.values.len() as u128 + 5 {
                if let Some(v) = search.value(n) {
                    assert_eq!(v, u128::from(values(&game, n as u64 + 1, &Silent).unwrap()[n as usize]));
                }
            }
        }
        assert_eq!(values(&game, 0, &Silent).unwrap(), Vec::<u32>::new());
        assert_eq!(values(&game, 1, &Silent).unwrap(), vec![0]);
    }
    // The game without moves: every value 0, period 1 from the start.
    let none = find_period(&Game::parse("octal:0.0").unwrap(), 100, &Silent).unwrap();
    let c = none.certificate.unwrap();
    assert_eq!((c.preperiod, c.period, c.saltus, none.max_value), (0, 1, 0, 0));
    // A single move {1}: 0, 1, 0, 1, …
    let one = find_period(&Game::parse("subtract:1").unwrap(), 100, &Silent).unwrap().certificate.unwrap();
    assert_eq!((one.preperiod, one.period), (0, 2));
    // Closed forms need no values: nim and {1..b} answer within 0 heaps, and say G(n) for any n.
    let nim = find_period(&Game::Nim, 0, &Silent).unwrap();
    assert_eq!(nim.certificate.as_ref().unwrap().theorem, Theorem::Nim);
    assert_eq!(nim.value(1 << 100), Some(1 << 100));
    let big = find_period(&Game::parse("subtract:1-10^12").unwrap(), 10, &Silent).unwrap();
    assert_eq!(big.certificate.as_ref().map(|c| c.period), Some(1_000_000_000_001));
    assert_eq!((big.values.len(), big.max_value), (10, u32::MAX));
    assert_eq!(big.value(2_000_000_000_000), Some(999_999_999_999));
    assert_eq!(big.value(2_000_000_000_002), Some(0));
    // Ranges must start at 1: 0 is not a move.
    assert!(Game::parse("subtract:0-3").is_err());
    // Squares: no period, and the search says it is provably so.
    let squares = find_period(&Game::Squares, 2000, &Silent).unwrap();
    assert!(squares.certificate.is_none() && squares.never_periodic);
}

#[test]
fn theorems_print_on_one_line() {
    let theorems = [
        Theorem::Nim,
        Theorem::SubtractionInterval { first: 1, last: 1_000_000 },
        Theorem::SubtractionWindow { largest_move: 14 },
        Theorem::OctalSplitting { last_digit: 2 },
        Theorem::OctalNoSplitting { last_digit: 3 },
        Theorem::AllButWindow { largest_excluded: 2 },
    ];
    let ids: Vec<&str> = theorems.iter().map(|t| t.id()).collect();
    assert_eq!(
        ids,
        [
            "nim",
            "subtraction-interval",
            "subtraction-window",
            "octal-splitting",
            "octal-no-splitting",
            "all-but-window"
        ]
    );
    for theorem in theorems {
        let text = theorem.to_string();
        assert!(!text.contains('\n') && text.len() > 20, "{text}");
    }
    assert!(Theorem::SubtractionInterval { first: 1, last: 1_000_000 }.to_string().contains("n mod 1000001"));
}

proptest! {
    #![proptest_config(Config { cases: 200, rng_seed: RngSeed::Fixed(0x6772_756e_6479), failure_persistence: None, ..Config::default() })]

    /// Random subtraction sets with moves up to 24: the fast values equal the plain mex, and
    /// the certificate passes the slow minimality check.
    #[test]
    fn random_subtraction_games(moves in proptest::collection::btree_set(1u64..=24, 1..6)) {
        let moves: Vec<u64> = moves.into_iter().collect();
        let game = Game::subtract(&moves).unwrap();
        let (c, g) = certificate_and_plain_values(&game, 1 << 18);
        prop_assert_eq!(values(&game, g.len() as u64, &Silent).unwrap(), g.clone());
        assert_minimal(&g, &c, &game.spec());
    }

    /// Random all-but games.
    #[test]
    fn random_all_but_games(excluded in proptest::collection::btree_set(1u64..=12, 1..5)) {
        let excluded: Vec<u64> = excluded.into_iter().collect();
        let game = Game::all_but(&excluded).unwrap();
        let (c, g) = certificate_and_plain_values(&game, 1 << 18);
        prop_assert_eq!(values(&game, g.len() as u64, &Silent).unwrap(), g.clone());
        assert_minimal(&g, &c, &game.spec());
    }

    /// Random octal codes with up to five digits: sparse space equals plain.
    #[test]
    fn random_octal_codes(d0 in prop_oneof![Just(0u8), Just(4u8)], digits in proptest::collection::vec(0u8..8, 1..6)) {
        let mut all = vec![d0];
        all.extend(digits);
        let code = OctalCode::from_digits(&all).unwrap();
        let game = Game::Octal(code.clone());
        prop_assert_eq!(values(&game, 2000, &Silent).unwrap(), nimcount::grundy::octal_values_plain(&code, 2000));
    }
}

#[test]
fn the_options_of_a_heap_game_drive_values_of() {
    // The trait object path and the built-in path agree for every kind.
    for spec in ["nim", "subtract:2,5,7", "allbut:2,3", "octal:0.137", "squares"] {
        let game = Game::parse(spec).unwrap();
        let as_trait: &dyn HeapGame = &game;
        assert_eq!(
            values_of(as_trait, 500, &Silent).unwrap(),
            values(&game, 500, &Silent).unwrap(),
            "{spec}"
        );
        assert_eq!(as_trait.name(), game.spec());
    }
}

/// Flat arithmetic periodicity of hexadecimal games ([`Theorem::HexadecimalSaltus`]): the
/// games of the literature are certified, and every certificate, on them and on random codes
/// (fixed seed), gives the values of a plain mex over every option far beyond the values the
/// certificate was found on; codes it does not certify are the ones whose values break the
/// flat form or its hypotheses, never a sequence the certificate would mispredict.
#[test]
fn hexadecimal_saltus_certificates_hold_on_a_plain_mex() {
    let mut specs: Vec<String> = ["hex:0.8", "hex:0.C", "hex:0.48", "hex:8.0", "hex:0.0F", "hex:0.FF"]
        .iter()
        .map(|s| s.to_string())
        .collect();
    let named = specs.len();
    // A fixed linear congruential sequence: codes of one to three digits after the point.
    let mut state = 0x2545_f491_4f6c_dd1du64;
    let mut next = |m: u64| {
        state = state.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1_442_695_040_888_963_407);
        (state >> 33) % m
    };
    while specs.len() < named + 60 {
        let digits = 1 + next(3);
        let mut spec = format!("hex:{:X}.", [0, 0, 4, 8, 12][next(5) as usize]);
        for _ in 0..digits {
            spec.push_str(&format!("{:X}", next(16)));
        }
        specs.push(spec);
    }
    let mut certified = 0;
    for (i, spec) in specs.iter().enumerate() {
        let game = Game::parse(spec).unwrap();
        let search = find_period(&game, 200, &Silent).unwrap();
        let Some(c) = search.certificate.clone().filter(|c| c.saltus > 0) else {
            assert!(i >= named, "{spec} is certified");
            continue;
        };
        certified += 1;
        assert!(matches!(c.theorem, Theorem::HexadecimalSaltus { .. }), "{spec}: {:?}", c.theorem);
        assert_eq!(c.saltus, 1, "{spec}");
        let plain = values_of(&game, 360, &Silent).unwrap();
        assert_minimal(&plain, &c, spec);
        for (n, &v) in plain.iter().enumerate() {
            assert_eq!(search.value(n as u128), Some(u128::from(v)), "{spec}: G({n})");
        }
    }
    assert!(certified >= named + 5, "{certified} certified");
    let hex08 = find_period(&Game::parse("hex:0.8").unwrap(), 200, &Silent).unwrap();
    let c = hex08.certificate.as_ref().unwrap();
    assert_eq!((c.preperiod, c.period, c.saltus), (1, 3, 1));
    assert_eq!(c.theorem.id(), "hexadecimal-saltus");
    // G(n) = floor((n - 1)/3) from 1 on, however far.
    assert_eq!(hex08.value(10u128.pow(30) + 1), Some(10u128.pow(30) / 3));
}
