//! The games known by name and the new families against a slow reference written from their
//! rules, their proven periods against the literature, and the hexadecimal theorem on games
//! whose values are known far beyond its window.

use nimcount::internals::game::{Game, NAMES};
use nimcount::internals::grundy::*;
use nimcount::internals::progress::Silent;

/// The moves of a game as the reference sees them, written from the rules, not from
/// [`HeapGame::options`].
enum Rule {
    /// Digits `d0, d1, …` of an octal or hexadecimal code.
    Code(Vec<u8>),
    Nim,
    Squares,
    GrundyGame,
    Lasker,
    Fraction(u64, u64),
}

/// `G(0..count)` by a plain mex over every move: every heap left, every split into two and into
/// three non-empty heaps as ordered pairs and triples.
fn reference(rule: &Rule, count: usize) -> Vec<u32> {
    let mut g: Vec<u32> = Vec::with_capacity(count);
    for n in 0..count {
        let mut seen = std::collections::BTreeSet::new();
        let splits_in_two = |r: usize, seen: &mut std::collections::BTreeSet<u32>, unequal: bool| {
            for a in 1..r {
                if !(unequal && 2 * a == r) {
                    seen.insert(g[a] ^ g[r - a]);
                }
            }
        };
        match rule {
            Rule::Code(digits) => {
                for (j, &d) in digits.iter().enumerate().filter(|&(j, _)| j <= n) {
                    let r = n - j;
                    if r == 0 && d & 1 != 0 {
                        seen.insert(0);
                    }
                    if r > 0 && j > 0 && d & 2 != 0 {
                        seen.insert(g[r]);
                    }
                    if d & 4 != 0 {
                        splits_in_two(r, &mut seen, false);
                    }
                    if d & 8 != 0 {
                        for a in 1..r {
                            for b in 1..r - a {
                                seen.insert(g[a] ^ g[b] ^ g[r - a - b]);
                            }
                        }
                    }
                }
            }
            Rule::Nim => seen.extend(g[..n].iter().copied()),
            Rule::Squares => seen.extend((1..).map(|k| k * k).take_while(|&s| s <= n).map(|s| g[n - s])),
            Rule::GrundyGame => splits_in_two(n, &mut seen, true),
            Rule::Lasker => {
                seen.extend(g[..n].iter().copied());
                splits_in_two(n, &mut seen, false);
            }
            Rule::Fraction(p, q) => {
                let most = n as u64 * p / q;
                seen.extend((1..=most as usize).map(|k| g[n - k]));
            }
        }
        g.push((0..).find(|v| !seen.contains(v)).unwrap());
    }
    g
}

fn code(digits: &str) -> Rule {
    Rule::Code(digits.chars().filter(|&c| c != '.').map(|c| c.to_digit(16).unwrap() as u8).collect())
}

fn game(spec: &str) -> Game {
    Game::parse(spec).unwrap()
}

#[test]
fn every_named_game_matches_the_reference_for_a_thousand_heaps() {
    let rules = [
        ("nim", Rule::Nim),
        ("kayles", code("0.77")),
        ("dawsons-kayles", code("0.07")),
        ("dawsons-chess", code("0.137")),
        ("officers", code("0.6")),
        ("guiles", code("0.15")),
        ("grundy-game", Rule::GrundyGame),
        ("lasker", Rule::Lasker),
        ("squares", Rule::Squares),
    ];
    // Every name that is one game is checked.
    let named: Vec<&str> = NAMES.iter().filter(|n| !n.is_family()).map(|n| n.name).collect();
    assert_eq!(named, rules.iter().map(|(name, _)| *name).collect::<Vec<_>>());
    for (name, rule) in &rules {
        let want = reference(rule, 1000);
        assert_eq!(values(&game(name), 1000, &Silent).unwrap(), want, "{name}");
        // The period search's values, too, where it has them.
        let search = find_period(&game(name), 1000, &Silent).unwrap();
        for n in [0u64, 1, 7, 70, 71, 500, 999] {
            if let Some(v) = search.value(n.into()) {
                assert_eq!(v, u128::from(want[n as usize]), "{name}: G({n})");
            }
        }
    }
}

/// Grundy's game far enough for the sparse space to choose a mask and pair rare positions: the
/// sparse-space values against a plain mex over the game's options.
#[test]
fn grundy_game_by_sparse_space_equals_the_plain_mex() {
    let game = game("grundy-game");
    assert_eq!(values(&game, 8000, &Silent).unwrap(), values_of(&game, 8000, &Silent).unwrap());
}

#[test]
fn new_families_match_the_reference() {
    for (spec, rule, count) in [
        ("fraction:1/2", Rule::Fraction(1, 2), 1000),
        ("fraction:2/3", Rule::Fraction(2, 3), 1000),
        ("fraction:1/3", Rule::Fraction(1, 3), 1000),
        ("fraction:3/7", Rule::Fraction(3, 7), 1000),
        ("hex:0.F", code("0.F"), 300),
        ("hex:0.8", code("0.8"), 300),
        ("hex:0.48", code("0.48"), 300),
        ("hex:8.0", code("8.0"), 300),
        ("hex:C.9", code("C.9"), 300),
        ("hex:0.1F8", code("0.1F8"), 300),
        ("hex:0.77", code("0.77"), 300),
    ] {
        let want = reference(&rule, count);
        assert_eq!(values(&game(spec), count as u64, &Silent).unwrap(), want, "{spec}");
        // The plain mex over the game's own options agrees (the options are right too).
        assert_eq!(
            values_of(&game(spec), count.min(200) as u64, &Silent).unwrap(),
            want[..count.min(200)],
            "{spec}"
        );
    }
    // Take at most half without its closed form: the sliding window.
    let half = game("fraction:1/2");
    let by_window = Search::new().limit(Limit::Heaps(5000)).closed_forms(false).run(&half).unwrap();
    assert_eq!(by_window.values, values(&half, 5000, &Silent).unwrap());
}

#[test]
fn closed_forms_hold_far_out() {
    let direct = values(&game("fraction:1/2"), 1 << 16, &Silent).unwrap();
    let window =
        Search::new().limit(Limit::Heaps(1 << 16)).closed_forms(false).run(&game("fraction:1/2")).unwrap();
    assert_eq!(window.values, direct);
    for (n, &g) in direct.iter().enumerate() {
        // G(2m) = m, G(2m + 1) = G(m).
        let want = if n % 2 == 0 { n as u32 / 2 } else { direct[n / 2] };
        assert_eq!(g, want, "G({n})");
        assert_eq!(closed_form_value(&game("fraction:1/2"), &(n as u64).into()), Some(g.into()));
    }
    let lasker = reference(&Rule::Lasker, 2000);
    for (n, &g) in lasker.iter().enumerate() {
        assert_eq!(closed_form_value(&game("lasker"), &(n as u64).into()), Some(g.into()), "G({n})");
    }
    let search = find_period(&game("lasker"), 10, &Silent).unwrap();
    let c = search.certificate.clone().unwrap();
    assert_eq!((c.preperiod, c.period, c.saltus, c.theorem), (1, 4, 4, Theorem::Lasker));
    assert_eq!(search.value(1999), Some(u128::from(lasker[1999])));
}

#[test]
fn periods_are_those_of_the_literature() {
    for (name, preperiod, period) in [
        // Last exception at 70, period 12.
        ("kayles", 71, 12),
        // Dawson's chess (OEIS A002187): last exception at 51, period 34; Dawson's Kayles is
        // the same sequence one heap later.
        ("dawsons-chess", 52, 34),
        ("dawsons-kayles", 53, 34),
        // Guiles: period 10.
        ("guiles", 1, 10),
    ] {
        let search = find_period(&game(name), 10_000, &Silent).unwrap();
        let c = search.certificate.unwrap_or_else(|| panic!("{name}: no period"));
        assert_eq!((c.preperiod, c.period, c.saltus), (preperiod, period, 0), "{name}");
        let claim = NAMES.iter().find(|n| n.name == name).unwrap().proven;
        assert!(claim.starts_with(&format!("period {period} from heap {preperiod} on")), "{name}: {claim}");
    }
    let chess = values(&game("dawsons-chess"), 2000, &Silent).unwrap();
    let kayles = values(&game("dawsons-kayles"), 2001, &Silent).unwrap();
    assert_eq!(chess[..], kayles[1..]);
    // Officers and Grundy's game have no known period: none is claimed.
    for name in ["officers", "grundy-game"] {
        let search = find_period(&game(name), 20_000, &Silent).unwrap();
        assert!(search.certificate.is_none(), "{name}");
        assert!(NAMES.iter().find(|n| n.name == name).unwrap().proven.starts_with("none"));
    }
}

/// The hexadecimal window, on codes whose values are computed far beyond it: each certificate
/// found on a short prefix must hold on every value of a long one, and octal codes read as
/// hexadecimal ones (three-heap window, hexadecimal engine) keep their periods.
#[test]
fn the_hexadecimal_theorem_proves_periods_that_hold() {
    for spec in ["hex:0.F", "hex:4.8", "hex:0.B", "hex:0.9F", "hex:0.38", "hex:0.28", "hex:0.A8", "hex:0.18"]
    {
        let g = game(spec);
        let long = values(&g, 2000, &Silent).unwrap();
        let search = find_period(&g, 1000, &Silent).unwrap();
        let Some(c) = search.certificate else { continue };
        let Game::Hex(code) = &g else { panic!("{spec} leaves three heaps") };
        assert_eq!(c.theorem, Theorem::Hexadecimal { last_digit: code.last_digit() });
        let window = c.theorem.window(c.preperiod, c.period).unwrap();
        assert!(window + c.period <= search.checked_upto, "{spec}");
        for n in c.preperiod as usize..2000 - c.period as usize {
            assert_eq!(long[n + c.period as usize], long[n], "{spec}: G({n} + {})", c.period);
        }
    }
    // Octal codes through the hexadecimal engine and window.
    for (digits, preperiod, period) in
        [(vec![0u8, 7, 7], 71, 12), (vec![0, 1, 3, 7], 52, 34), (vec![0, 1, 5], 1, 10)]
    {
        let code = nimcount::internals::game::HexCode::from_digits(&digits).unwrap();
        let mut engine = hex::HexValues::new(&code);
        let mut v: Vec<u32> = Vec::new();
        assert_eq!(engine.extend(&mut v, 1500, &mut || false).unwrap(), None);
        let octal = Game::Octal(nimcount::internals::game::OctalCode::from_digits(&digits).unwrap());
        assert_eq!(v, values(&octal, 1500, &Silent).unwrap());
        let c = certify_plain(&v, Theorem::Hexadecimal { last_digit: code.last_digit() }).unwrap();
        assert_eq!((c.preperiod, c.period), (preperiod, period), "{digits:?}");
    }
    // Codes without bit 8 are octal codes.
    assert_eq!(game("hex:0.77"), game("kayles"));
    assert_eq!(game("hex:4.7").spec(), "octal:4.7");
}

/// The window is needed: the periods proven are never proven from fewer values than it.
#[test]
fn the_hexadecimal_window_is_respected() {
    let g = game("hex:0.F");
    let search = find_period(&g, 10_000, &Silent).unwrap();
    let c = search.certificate.unwrap();
    // The window as the theorem states it, written out: 3·n0 + 2p + t, n0 = 1 standing for 0.
    let (n0, p, t) = (c.preperiod, c.period, 1);
    let window = 3 * n0.max(1) + 2 * p + t;
    assert_eq!(c.theorem.window(n0, p), Some(window));
    for (n0, p, t, w) in [(0, 1, 1, 6), (1, 2, 3, 10), (52, 34, 3, 227), (5, 7, 0, 29)] {
        assert_eq!(Theorem::Hexadecimal { last_digit: t }.window(n0, p), Some(w), "n0 {n0}, p {p}, t {t}");
    }
    let needed = window + p;
    let short = values(&g, needed - 1, &Silent).unwrap();
    assert_eq!(certify(&g, &short), None);
    let enough = values(&g, needed, &Silent).unwrap();
    assert_eq!(certify(&g, &enough).map(|c| (c.preperiod, c.period)), Some((c.preperiod, c.period)));
}
