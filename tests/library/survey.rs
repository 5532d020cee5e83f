//! Surveys of small families against plain references: every periodic line's values against a
//! plain mex, every misère quotient and every "tame" verdict against a plain misère search of
//! every position of up to 16 stones, equal games against each other's values, and the
//! published table of octal games.

use std::collections::HashMap;

use nimcount::game::Game;
use nimcount::survey::{Limits, MisereStatus, NormalStatus, Row, Survey, games_of};

use crate::support::count_support;
use crate::support::game_tree::GameTree;

/// Half a second of estimated time per game: the small games resolve, the open ones stop soon.
fn quick() -> Limits {
    Limits { seconds_per_game: 0.5, ..Limits::default() }
}

/// The digits `d0, d1, …` of an octal specification.
fn digits(spec: &str) -> Vec<u8> {
    let code = spec.strip_prefix("octal:").expect("an octal game");
    code.chars().filter(|&c| c != '.').map(|c| c.to_digit(8).unwrap() as u8).collect()
}

/// Every multiset of heaps (each at least 1) of at most `stones` stones in all.
fn positions(stones: u64) -> Vec<Vec<u64>> {
    fn extend(rest: u64, largest: u64, heaps: &mut Vec<u64>, out: &mut Vec<Vec<u64>>) {
        out.push(heaps.clone());
        for h in 1..=largest.min(rest) {
            heaps.push(h);
            extend(rest - h, h, heaps, out);
            heaps.pop();
        }
    }
    let mut out = Vec::new();
    extend(stones, stones, &mut Vec::new(), &mut out);
    out
}

/// Misère Nim's rule on the Grundy values `g` of the heaps.
fn tame_rule(g: &[u32], heaps: &[u64]) -> bool {
    let values: Vec<u32> = heaps.iter().map(|&h| g[h as usize]).collect();
    let xor = values.iter().fold(0, |a, &v| a ^ v);
    if values.iter().any(|&v| v >= 2) { xor == 0 } else { xor == 1 }
}

fn two_digit_rows() -> &'static [Row] {
    static ROWS: std::sync::OnceLock<Vec<Row>> = std::sync::OnceLock::new();
    ROWS.get_or_init(|| Survey::new(&["octal:0.??"]).unwrap().limits(quick()).unwrap().run().unwrap())
}

#[test]
fn patterns_name_their_families() {
    assert_eq!(games_of("octal:0.??").unwrap().len(), 64);
    assert_eq!(games_of("octal:0.?7").unwrap().len(), 8);
    assert_eq!(games_of("octal:4.?").unwrap().len(), 8);
    assert_eq!(games_of("hex:0.?").unwrap().len(), 16);
    assert_eq!(games_of("subtract:{1..8}").unwrap().len(), 255);
    assert_eq!(games_of("subtract:{1..12}").unwrap().len(), 4095);
    assert_eq!(games_of("octal:0.????").unwrap().len(), 4096);
    let three = games_of("subtract:{2..6}:3").unwrap();
    assert_eq!(three.len(), 10);
    assert_eq!(three[0].spec(), "subtract:2-4");
    assert_eq!(three[9].spec(), "subtract:4-6");
    for bad in [
        "octal",
        "octal:0.8",
        "octal:0.?x",
        "octal:00.?",
        "chess:0.?",
        "subtract:{0..3}",
        "subtract:{3..1}",
        "subtract:{1..4}:5",
        "subtract:{1..40}",
        "subtract:{1..13}",
        "octal:0.?????",
        "octal:0.?????????",
    ] {
        let err = games_of(bad).unwrap_err();
        assert!(err.to_string().starts_with("invalid pattern"), "{bad}: {err}");
    }
    assert!(Survey::new(&[]).is_err());
}

#[test]
fn every_two_digit_code_is_reported_once() {
    let rows = two_digit_rows();
    let mut seen: Vec<String> = Vec::new();
    for row in rows {
        seen.push(row.game.clone());
        seen.extend(row.equal_to.iter().map(|e| e.game.clone()));
    }
    let mut all: Vec<String> = games_of("octal:0.??").unwrap().iter().map(Game::spec).collect();
    all.sort();
    seen.sort();
    assert_eq!(seen, all);
    // Winning Ways' first cousins: 0.41 and 0.43 are 0.17 with every heap one larger.
    let cousins = rows.iter().find(|r| r.game == "octal:0.17").unwrap();
    let names: Vec<(&str, i64)> = cousins.equal_to.iter().map(|e| (e.game.as_str(), e.shift)).collect();
    assert_eq!(names, [("octal:0.41", 1), ("octal:0.43", 1)]);
}

/// The most values of one game computed by the plain mex here (quadratic in the heaps).
const PLAIN_HEAPS: usize = 2500;

#[test]
fn periodic_lines_equal_a_plain_mex() {
    for row in two_digit_rows() {
        let search = &row.normal.search;
        let Some(c) = &search.certificate else {
            assert_eq!(row.normal.status, NormalStatus::Open);
            continue;
        };
        assert_eq!(row.normal.status, NormalStatus::Periodic, "{}", row.game);
        // 3·(preperiod + period) + 200 values, at most PLAIN_HEAPS: 0.16 and 0.56, whose
        // periods start past 10^5, are compared on their first values only here.
        let n = ((3 * (c.preperiod + c.period) + 200) as usize).min(PLAIN_HEAPS);
        let plain = count_support::octal(&digits(&row.game), n);
        for (i, &v) in plain.iter().enumerate() {
            assert_eq!(search.value(i as u128), Some(u128::from(v)), "{} at {i}", row.game);
        }
        if n < PLAIN_HEAPS {
            assert_eq!(search.max_value, *plain.iter().max().unwrap(), "{}", row.game);
        }
        // Equal games: the same values, heap n + shift for heap n, and their own preperiods.
        for equal in &row.equal_to {
            let theirs = count_support::octal(&digits(&equal.game), n + 8);
            let own = (0..n as u64 - c.period)
                .rev()
                .find(|&m| theirs[m as usize] != theirs[(m + c.period) as usize])
                .map_or(0, |m| m + 1);
            if n < PLAIN_HEAPS {
                assert_eq!(equal.preperiod, Some(own), "{} ~ {}", equal.game, row.game);
            }
            for i in 1..n as i64 {
                let j = i + equal.shift;
                if j >= 1 {
                    assert_eq!(theirs[j as usize], plain[i as usize], "{} ~ {} at {i}", equal.game, row.game);
                }
            }
        }
    }
}

#[test]
fn misere_quotients_and_tame_verdicts_equal_a_plain_misere_search() {
    let all = positions(16);
    let mut checked = 0;
    for row in two_digit_rows() {
        let Some(q) = &row.misere.quotient else {
            assert_eq!(row.misere.status, MisereStatus::NotFound);
            assert!(row.misere.reason.is_some());
            continue;
        };
        let game = Game::parse(&row.game).unwrap();
        let mut tree = GameTree::misere(&game);
        let g = count_support::octal(&digits(&row.game), 17);
        let mut tame_everywhere = true;
        for heaps in &all {
            let big: Vec<num_bigint::BigUint> = heaps.iter().map(|&h| h.into()).collect();
            let lost = !tree.is_won(heaps);
            assert_eq!(q.is_lost(&big).unwrap(), lost, "{} {heaps:?}", row.game);
            tame_everywhere &= tame_rule(&g, heaps) == lost;
        }
        match row.misere.status {
            MisereStatus::Tame => assert!(tame_everywhere, "{} reported tame", row.game),
            MisereStatus::Found => assert!(!tame_everywhere, "{} is tame up to 16 stones", row.game),
            MisereStatus::NotFound => unreachable!(),
        }
        checked += 1;
    }
    // Kayles (order 40), Guiles (0.15, order 42), 0.75 (order 8) among them.
    assert!(checked >= 20, "{checked} quotients");
    let order = |game: &str| {
        two_digit_rows().iter().find(|r| r.game == game).unwrap().misere.quotient.as_ref().map(|q| q.order())
    };
    assert_eq!(
        (order("octal:0.77"), order("octal:0.15"), order("octal:0.75")),
        (Some(40), Some(42), Some(8))
    );
}

/// A line of the published table: the representative, its status, and `(prefix, period)` when
/// solved.
type Published = (String, String, Option<(u64, u64)>);

/// The published table (`data/octal_table.tsv`), by code.
fn published() -> HashMap<String, Published> {
    let text = include_str!("../../data/octal_table.tsv");
    text.lines()
        .skip(1)
        .map(|line| {
            let f: Vec<&str> = line.split('\t').collect();
            let solved = (f[2] == "solved").then(|| (f[3].parse().unwrap(), f[4].parse().unwrap()));
            (f[0].to_string(), (f[1].to_string(), f[2].to_string(), solved))
        })
        .collect()
}

/// The published representative as a nimcount specification (`.17` → `octal:0.17`, `4` →
/// `octal:4.0`).
fn representative(published: &str) -> String {
    match published.split_once('.') {
        Some(("", code)) => format!("octal:0.{code}"),
        Some(_) => format!("octal:{published}"),
        None => format!("octal:{published}.0"),
    }
}

#[test]
fn two_digit_codes_agree_with_the_published_table() {
    let table = published();
    let mut compared = 0;
    for row in two_digit_rows() {
        let codes = std::iter::once(row.game.as_str()).chain(row.equal_to.iter().map(|e| e.game.as_str()));
        for code in codes {
            let Some((rep, status, solved)) = table.get(code) else { continue };
            let search = &row.normal.search;
            match (status.as_str(), solved) {
                ("open", _) => assert_eq!(row.normal.status, NormalStatus::Open, "{code} is published open"),
                ("solved", Some((prefix, period))) => {
                    let Some(c) = &search.certificate else {
                        // Half a second per game leaves the long ones (0.16, 0.56) open here.
                        assert!(prefix + period > 10_000, "{code} not proven");
                        continue;
                    };
                    assert_eq!(c.period, *period, "{code} (published as {rep})");
                    let theirs = nimcount::grundy::Search::new()
                        .run(&Game::parse(&representative(rep)).unwrap())
                        .unwrap();
                    let theirs = theirs.certificate.unwrap_or_else(|| panic!("{rep}: no period"));
                    assert_eq!((theirs.preperiod, theirs.period), (*prefix, *period), "{rep}");
                }
                _ => unreachable!(),
            }
            compared += 1;
        }
    }
    assert_eq!(compared, 63);
}

/// The survey of every three-digit octal code, 10 s a game, against the published table: every
/// code listed open is open, every code listed solved is proven with the published period (and
/// preperiod, for a code listed under its own name), but `0.354` and `0.376`, whose proofs need
/// more than 10 s a game. About 16 minutes on two cores.
#[test]
#[ignore = "the whole three-digit survey: about 16 minutes"]
fn three_digit_codes_agree_with_the_published_table() {
    let limits = Limits { seconds_per_game: 10.0, ..Limits::default() };
    let rows = Survey::new(&["octal:0.???"]).unwrap().limits(limits).unwrap().run().unwrap();
    let table = published();
    let mut checked = 0;
    for row in &rows {
        let own =
            std::iter::once((row.game.as_str(), row.normal.search.certificate.as_ref().map(|c| c.preperiod)));
        let codes = own.chain(row.equal_to.iter().map(|e| (e.game.as_str(), e.preperiod)));
        for (code, preperiod) in codes {
            let Some((rep, status, solved)) = table.get(code) else { continue };
            checked += 1;
            if status == "open" || ["octal:0.354", "octal:0.376"].contains(&code) {
                assert_eq!(row.normal.status, NormalStatus::Open, "{code}");
                continue;
            }
            let (prefix, period) = solved.unwrap();
            let c = row.normal.search.certificate.as_ref().unwrap_or_else(|| panic!("{code} not proven"));
            assert_eq!(c.period, period, "{code} (published as {rep})");
            if representative(rep) == code {
                assert_eq!(preperiod, Some(prefix), "{code}");
            }
        }
    }
    assert_eq!(checked, 511);
}

/// The two-digit lines whose periods start past 10^5 (`0.16`, `0.56`), against a plain mex
/// over `3·(preperiod + period) + 200` heaps (up to a million: quadratic, minutes).
#[test]
#[ignore = "a plain mex over a million heaps: about ten minutes"]
fn long_periods_equal_a_plain_mex() {
    let limits = Limits { seconds_per_game: 10.0, ..Limits::default() };
    let rows = Survey::new(&["octal:0.16", "octal:0.56"]).unwrap().limits(limits).unwrap().run().unwrap();
    for row in &rows {
        let c = row.normal.search.certificate.as_ref().expect("proven within 10 s");
        let n = (3 * (c.preperiod + c.period) + 200) as usize;
        let plain = count_support::octal(&digits(&row.game), n);
        for (i, &v) in plain.iter().enumerate() {
            assert_eq!(row.normal.search.value(i as u128), Some(u128::from(v)), "{} at {i}", row.game);
        }
    }
}
