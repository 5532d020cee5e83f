//! The period search: limits by estimated time that stop at the same heap on every run,
//! suggestions, and the long-prefix path (candidate shifts instead of the Z-function) giving
//! the same certificates as the Z-function, as soon as the window is covered.

use nimcount::game::Game;
use nimcount::grundy::{Limit, Search, find_period, values_of};
use nimcount::progress::Silent;

#[test]
fn a_time_limit_stops_at_the_same_heap_every_time() {
    let officers = Game::parse("octal:0.6").unwrap();
    let run = || Search::new().limit(Limit::Seconds(0.15)).run(&officers).unwrap();
    let (a, b) = (run(), run());
    assert!(a.certificate.is_none() && a.checked_upto > 5000, "{}", a.checked_upto);
    assert_eq!(a.checked_upto, b.checked_upto);
    assert_eq!(a.values, values_of(&officers, a.checked_upto, &Silent).unwrap());
    let s = a.suggestion.expect("a suggestion");
    assert!(s.max_heap >= 4 * a.checked_upto && s.estimate.seconds > 0.0);
    // A periodic game within the same limit: the certificate, well before the limit.
    let kayles = Search::new().limit(Limit::Seconds(0.3)).run(&Game::parse("octal:0.77").unwrap()).unwrap();
    assert_eq!(kayles.certificate.map(|c| (c.preperiod, c.period)), Some((71, 12)));
    assert!(kayles.suggestion.is_none());
}

#[test]
fn candidate_shifts_certify_what_the_z_function_does() {
    for (spec, max_heap) in [
        ("octal:0.16", 1u64 << 20),
        ("octal:0.127", 1 << 18),
        ("octal:0.177", 1 << 14),
        ("octal:0.77", 1 << 12),
        ("subtract:3,7,12,14", 1 << 12),
        ("subtract:1-998,1000", 1 << 22),
        ("octal:0.4", 1 << 12),
        ("octal:0.52", 1 << 12),
    ] {
        let game = Game::parse(spec).unwrap();
        let z = find_period(&game, max_heap, &Silent).unwrap();
        let truth = z.certificate.clone().unwrap_or_else(|| panic!("{spec}"));
        let window = truth.theorem.window(truth.preperiod, truth.period).unwrap() + truth.period;
        for z_limit in [256usize, 4096] {
            let search = Search::new().limit(Limit::Heaps(max_heap)).z_limit(z_limit).run(&game).unwrap();
            assert_eq!(search.certificate.as_ref(), Some(&truth), "{spec} beyond {z_limit}");
            assert_eq!(search.values, z.values, "{spec}");
            if window > 16_384 {
                // A candidate's window sets the last checkpoint: no value beyond it.
                assert_eq!(search.checked_upto, window, "{spec} beyond {z_limit}");
            }
        }
    }
}

#[test]
fn an_open_game_beyond_the_z_limit_reports_its_candidate_or_none() {
    // 0.6 has no period: no certificate, whichever path.
    let officers = Game::parse("octal:0.6").unwrap();
    let search = Search::new().limit(Limit::Heaps(30_000)).z_limit(1000).run(&officers).unwrap();
    assert!(search.certificate.is_none());
    assert_eq!(search.values, values_of(&officers, 30_000, &Silent).unwrap());
    // 0.16 stopped before its window ends (preperiod 105 351, period 149 459): the candidate
    // shift is the period, with the values its theorem needs.
    let dawson = Game::parse("octal:0.16").unwrap();
    let search = Search::new().limit(Limit::Heaps(420_000)).z_limit(1000).run(&dawson).unwrap();
    assert!(search.certificate.is_none());
    let c = search.candidate.expect("the shift is seen before it is proven");
    assert_eq!((c.preperiod, c.period), (105_351, 149_459));
    assert_eq!(c.needed, 2 * 105_351 + 149_459 + 2 + 149_459);
    assert_eq!(search.suggestion.map(|s| s.max_heap), Some(c.needed));
}
