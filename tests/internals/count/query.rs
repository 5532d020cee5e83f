mod tests {
    use nimcount::internals::count::query::*;

    use nimcount::internals::count::answer::{Kind, Source, SpectrumPath};

    use nimcount::internals::error::Error;
    use nimcount::internals::game::Game;
    use nimcount::internals::histogram::Histogram;

    #[test]
    fn trivial_queries_answer_before_any_grundy_value_and_as_the_engine_does() {
        // The period search of octal:0.06 takes many seconds: none is started.
        let far = || Query::new(Game::parse("octal:0.06").unwrap()).sizes(1u32, 10u32.pow(6));
        let none = far().heaps(0u32).count().unwrap();
        assert_eq!((none.losing, none.total), (1u32.into(), 1u32.into()));
        assert_eq!((none.report.source, none.report.stages.len()), (Source::Trivial, 0));
        let one = Query::new(Game::parse("octal:0.06").unwrap()).sizes(10u32.pow(6), 10u32.pow(6));
        let even = one.heaps(4u32).modulus(3u32).count().unwrap();
        assert_eq!((even.losing, even.winning, even.total), (1u32.into(), 0u32.into(), 1u32.into()));
        assert_eq!(even.report.source, Source::Trivial);
        // The same answers from the engine, over nim's histogram (never trivial).
        let values: Vec<u32> = (0..=9).collect();
        for (lo, hi) in [(0u64, 0u64), (1, 1), (3, 3), (0, 4), (2, 9)] {
            for k in 0u32..=5 {
                for kind in [Kind::Ordered, Kind::Multiset, Kind::Set] {
                    for misere in [false, true] {
                        for modulus in [None, Some(1u32), Some(2), Some(7)] {
                            let with = |q: Query<'static>| match modulus {
                                Some(m) => q.modulus(m),
                                None => q,
                            };
                            let game =
                                with(Query::new(Game::Nim).sizes(lo, hi).heaps(k).kind(kind).misere(misere));
                            let histogram = Histogram::from_values(&values, lo, hi).unwrap();
                            let engine = with(Query::from_histogram(histogram).heaps(k).kind(kind));
                            let (a, b) = (game.count().unwrap(), engine.count().unwrap());
                            let what = format!("{lo}..={hi}, k = {k}, {kind}, misère {misere}, {modulus:?}");
                            assert_eq!(a.total, b.total, "{what}");
                            if !misere {
                                assert_eq!((a.losing, a.winning), (b.losing, b.winning), "{what}");
                            }
                            let trivial = k == 0
                                || (kind == Kind::Set && u64::from(k) > hi - lo + 1)
                                || (lo == hi && k % 2 == 0 && kind != Kind::Set && !misere);
                            assert_eq!(a.report.source == Source::Trivial, trivial, "{what}");
                        }
                    }
                }
            }
        }
        // Misère: the empty position is won for the player to move.
        let misere = Query::new(Game::Nim).sizes(0u32, 5u32).heaps(0u32).misere(true).count().unwrap();
        assert_eq!((misere.losing, misere.winning), (0u32.into(), 1u32.into()));
    }

    #[test]
    fn options_a_query_would_not_use_are_refused() {
        let nim = || Query::new(Game::Nim).sizes(0u32, 7u32).heaps(2u32).spectrum(SpectrumPath::Structured);
        let err = nim().distribution().unwrap_err().to_string();
        assert!(err.contains("not the distribution"), "{err}");
        assert!(nim().probability(true).is_err());
        assert!(nim().probability(false).is_ok() && nim().count().is_ok());
        let moore = || Query::moore(2).sizes(0u32, 3u32).heaps(3u32);
        assert!(
            moore()
                .spectrum(SpectrumPath::Array)
                .count()
                .unwrap_err()
                .to_string()
                .contains("without a spectrum")
        );
        assert!(moore().max_work(10).count().is_err());
        assert_eq!(moore().count().unwrap().losing, 4u32.into());
    }

    #[test]
    fn a_query_without_heaps_is_refused() {
        let err = Query::new(Game::Nim).sizes(1u32, 5u32).count().unwrap_err();
        assert!(matches!(err, Error::MissingHeaps), "{err}");
        let h = Histogram::from_values(&[0, 1], 0, 1).unwrap();
        assert!(matches!(Query::from_histogram(h).probability(false), Err(Error::MissingHeaps)));
    }
}
