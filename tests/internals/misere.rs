mod tests {
    use nimcount::internals::misere::*;

    use nimcount::internals::error::Error;
    use nimcount::internals::game::Game;
    use nimcount::internals::misere::cost::estimate;

    /// Orders published for these games: 0.75's quotient is the monoid of order 8 (Plambeck,
    /// "Taming the wild in impartial combinatorial games", Integers 5, 2005, G05; Siegel, "The
    /// structure and classification of misère quotients", 2007: the only quotient of order 8); a
    /// tame game whose values are 0, 1, 2 has the tame quotient of order 6 (Plambeck and Siegel,
    /// "Misère quotients for impartial games", JCTA 115, 2008); values 0 and 1 alone, order 2.
    #[test]
    fn orders_equal_the_published_ones() {
        for (spec, order, preperiod, period) in [
            ("octal:0.75", 8, 8, 2),
            ("subtract:1,2", 6, 0, 3),
            ("subtract:2,3", 6, 0, 5),
            ("octal:4.0", 2, 1, 2),
        ] {
            let q = Search::new(&Game::parse(spec).unwrap()).run().unwrap();
            assert_eq!((q.order(), q.preperiod(), q.period()), (order, preperiod, period), "{spec}");
            // Misère quotients of impartial games have even order and a P-portion of at least one.
            assert_eq!(q.order() % 2, 0);
            assert!(!q.p_portion().is_empty() && !q.in_p(0));
        }
    }

    #[test]
    fn presentations_rewrite_every_word_to_its_element() {
        let q = Search::new(&Game::parse("octal:0.75").unwrap()).run().unwrap();
        let p = q.presentation();
        let gens: Vec<usize> = p.generators.iter().map(|&(_, h)| q.element_u64(h).unwrap()).collect();
        let eval = |w: &[u32]| w.iter().zip(&gens).fold(0, |x, (&e, &g)| (0..e).fold(x, |x, _| q.mul(x, g)));
        for (a, w) in p.normal_forms.iter().enumerate() {
            assert_eq!(eval(w), a);
        }
        assert!(!p.relations.is_empty());
        for (lhs, rhs) in &p.relations {
            assert_eq!(eval(lhs), eval(rhs), "{} = {}", p.word(lhs), p.word(rhs));
        }
        // The monoid's laws.
        for a in 0..q.order() {
            assert_eq!(q.mul(0, a), a);
            for b in 0..q.order() {
                assert_eq!(q.mul(a, b), q.mul(b, a));
                for c in 0..q.order() {
                    assert_eq!(q.mul(q.mul(a, b), c), q.mul(a, q.mul(b, c)));
                }
            }
        }
    }

    #[test]
    fn quotients_not_found_say_why_on_one_line() {
        let small = Budget { max_heap: 40, max_order: 100, max_states: 1000, max_seconds: 60 };
        let few_heaps = Budget { max_heap: 20, ..small };
        for (spec, budget, needle, limit) in [
            ("dawsons-kayles", small, "limit of 1000 states", Some("max_states")),
            ("nim", small, "octal games and finite subtraction games", None),
            ("lasker", small, "octal games and finite subtraction games", None),
            ("octal:0.56", small, "1000 states", Some("max_states")),
            ("octal:0.56", few_heaps, "heaps up to 20 joined", Some("max_heap")),
            (
                "dawsons-kayles",
                Budget { max_order: 20, ..Budget::default() },
                "limit of 20",
                Some("max_order"),
            ),
        ] {
            let e = Search::new(&Game::parse(spec).unwrap()).budget(budget).run().unwrap_err();
            let Error::QuotientNotFound { limit: reached, .. } = &e else { panic!("{spec}: {e}") };
            assert_eq!(*reached, limit, "{spec}: {e}");
            let e = e.to_string();
            assert!(e.contains(needle) && !e.contains('\n'), "{spec}: {e}");
        }
    }

    /// Limits whose search is estimated beyond its time are refused before any work, by every
    /// entry; the defaults, and the budgets of the tests and of play, are not.
    #[test]
    fn budgets_estimated_beyond_their_time_are_refused_at_once() {
        let raised = Budget { max_states: MAX_STATES, max_order: MAX_ORDER, ..Budget::default() };
        let started = std::time::Instant::now();
        for spec in ["lasker", "kayles", "octal:0.07"] {
            let game = Game::parse(spec).unwrap();
            // (Lasker's Nim has no theorem here: quotient refuses it before any estimate.)
            let every =
                MisereTheorem::for_game(&game).map(|_| Search::new(&game).budget(raised).run().unwrap_err());
            for e in every.into_iter().chain([
                Search::new(&game).heaps(1000).budget(raised).run().unwrap_err(),
                Search::new(&game).heaps(10).budget(raised).cached().run().unwrap_err(),
            ]) {
                let Error::QuotientTooCostly { seconds, states, limit, .. } = e else {
                    panic!("{spec}: {e}")
                };
                assert!(seconds > 60.0 && states == 5 * MAX_STATES && limit == 60, "{spec}: {e}");
                assert!(!e.to_string().contains('\n'), "{e}");
            }
        }
        assert!(started.elapsed() < std::time::Duration::from_secs(1), "{:?}", started.elapsed());
        // The estimate grows with the limits and is lifted by max_seconds (the bytes are then
        // the memory check's to judge).
        let e = estimate(&raised);
        assert!(e.seconds <= MAX_SECONDS as f64 && e.bytes > estimate(&Budget::default()).bytes);
        for budget in [
            Budget::default(),
            Budget { max_states: 1_000_000, ..Budget::default() },
            Budget { max_heap: 200, max_order: 500, max_states: 50_000, max_seconds: 60 },
        ] {
            let e = estimate(&budget);
            assert!(e.seconds < budget.max_seconds as f64 / 2.0 && e.bytes < 1 << 30, "{budget:?}: {e:?}");
        }
    }

    /// The meter stops a construction where its estimated time passes the limit: at the same
    /// heap and the same charge on every run, whatever the machine's load.
    #[test]
    fn the_meter_stops_a_construction_at_the_same_step_every_time() {
        let game = Game::parse("lasker").unwrap();
        let run = || {
            let mut stage = build::Stage::start();
            stage.meter.limit_ns(20_000_000);
            loop {
                match stage.grow(&game, &Budget::default()) {
                    Ok(()) => {}
                    Err(build::Stuck::Time(_)) => return (stage.heaps(), stage.work(), stage.meter.spent()),
                    Err(other) => panic!("{other:?}"),
                }
            }
        };
        let first = run();
        assert!(first.0 > 10 && first.2 > 20_000_000, "{first:?}");
        assert_eq!(run(), first);
        // Its error names the limit that searches further.
        let e = stuck_error("lasker", first.0, build::Stuck::Time(60), &Budget::default());
        let Error::QuotientNotFound { limit: Some("max_seconds"), .. } = &e else { panic!("{e}") };
        assert!(e.to_string().contains("the limit of 60 s of estimated time"), "{e}");
    }
}
