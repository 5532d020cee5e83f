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

/// A progress that cancels the computation, as the Python binding does on Ctrl-C (unwinding
/// out of a report), at its first report after `deadline`.
struct CancelAt(std::time::Instant);

impl CancelAt {
    fn check(&self) {
        if std::time::Instant::now() >= self.0 {
            std::panic::resume_unwind(Box::new("cancelled"));
        }
    }
}

impl nimcount::progress::Progress for CancelAt {
    fn start(&self, _: &str, _: u64) {
        self.check();
    }
    fn set_position(&self, _: u64) {
        self.check();
    }
    fn set_total(&self, _: u64) {
        self.check();
    }
}

/// The values of a hexadecimal game of 1024 digits (each value costs seconds past a few
/// thousand heaps: minutes in all) and its period search report progress inside each value: a
/// cancelling progress stops them within a second.
#[test]
fn a_cancelling_progress_stops_values_that_each_cost_much() {
    use std::panic::{AssertUnwindSafe, catch_unwind};
    use std::time::{Duration, Instant};
    let game = Game::parse(&format!("hex:0.{}", "F".repeat(1024))).unwrap();
    type Run<'a> = Box<dyn Fn(&CancelAt) + 'a>;
    let runs: [(&str, Run<'_>); 2] = [
        ("values", Box::new(|p: &CancelAt| drop(nimcount::grundy::values(&game, 20_000, p)))),
        ("period search", Box::new(|p: &CancelAt| drop(Search::new().progress(p).run(&game)))),
    ];
    for (what, run) in runs {
        let started = Instant::now();
        let cancel = CancelAt(started + Duration::from_millis(500));
        assert!(catch_unwind(AssertUnwindSafe(|| run(&cancel))).is_err(), "{what}: not cancelled");
        let seconds = started.elapsed().as_secs_f64();
        assert!(seconds < 5.0, "{what}: cancelled after {seconds:.1} s");
    }
}
