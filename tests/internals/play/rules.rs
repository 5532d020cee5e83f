mod tests {
    use nimcount::internals::play::rules::*;
    use num_bigint::BigUint;

    use num_traits::{One, ToPrimitive};

    use nimcount::internals::game::{Game, HeapGame};

    use nimcount::internals::grundy::{self, Certificate, Theorem};

    use nimcount::internals::progress::Silent;

    #[test]
    fn periodic_games_take_heaps_of_any_size() {
        let game = Game::parse("subtract:1,3,4").unwrap();
        let huge = BigUint::from(10u32).pow(40);
        let rules = Rules::for_game(&game, &huge, None, &Silent).unwrap();
        assert_eq!(rules.limit(), None);
        // G(n) = 0, 1, 0, 1, 2, 3, 2 repeating with period 7; 10^40 ≡ 4 (mod 7).
        assert_eq!(rules.value(&huge), Some(2u32.into()));
        // From a value-2 heap to value 0: take 4 (leaving ≡ 0) or take 1 (leaving ≡ 3, value 1: no).
        let options = rules.options_with_value(&huge, &BigUint::default());
        assert_eq!(options, vec![vec![&huge - 4u32]]);
    }

    #[test]
    fn splitting_games_read_any_heap_off_their_period() {
        let game = Game::parse("octal:0.07").unwrap();
        // Dawson's Kayles splits heaps; its period (34 from 53 on) is proven within 1000 values:
        // only the preperiod and one period are kept, and every heap is read off them.
        let rules = Rules::for_game(&game, &BigUint::from(5000u32), Some(1000), &Silent).unwrap();
        assert_eq!(rules.limit(), None);
        let Source::Builtin(b) = rules.source() else { panic!("a built-in game") };
        assert_eq!(b.values.len(), 53 + 34);
        let direct = grundy::values(&game, 5001, &Silent).unwrap();
        for n in [0usize, 51, 52, 85, 86, 1000, 4999, 5000] {
            assert_eq!(rules.value(&n.into()), Some(direct[n].into()), "G({n})");
        }
        // No period within 100 values, and 5001 values not allowed: refused.
        let err =
            Rules::for_game(&game, &BigUint::from(5000u32), Some(100), &Silent).unwrap_err().to_string();
        assert!(err.contains("no proven period in G(0) … G(99)"), "{err}");
        // A heap of 10^30: its value through the period.
        let huge = BigUint::from(10u32).pow(30);
        let rules = Rules::for_game(&game, &huge, None, &Silent).unwrap();
        let offset = ((&huge - 53u32) % 34u32).to_usize().unwrap();
        assert_eq!(rules.value(&huge), Some(direct[53 + offset].into()));
    }

    /// The options of a heap beyond the stored values against every option of the heap, with
    /// the values computed directly: the options listed for each value are exactly the moves
    /// of that value, each once, and counted (Lasker's Nim: those listed are moves of the
    /// value, and every value below G(n) is reached; its count is unknown).
    #[test]
    fn options_of_large_heaps_are_every_option_of_their_value() {
        for (spec, heaps) in [
            ("kayles", &[100u64, 777, 1500][..]),
            ("octal:0.07", &[90, 1001]),
            ("hex:0.F", &[60, 999]),
            ("hex:4.8", &[500]),
            ("allbut:1,2", &[300, 301]),
            ("lasker", &[70_000, 70_003]),
            ("fraction:1/2", &[70_000, 70_001, 99_999]),
            ("subtract:3-1000", &[70_000, 70_001]),
            ("subtract:1-10", &[70_005]),
        ] {
            let game = Game::parse(spec).unwrap();
            let top = *heaps.iter().max().unwrap();
            let rules = Rules::for_game(&game, &BigUint::from(top), Some(1000), &Silent).unwrap();
            assert_eq!(rules.limit(), None, "{spec}");
            let direct = grundy::values(&game, top + 1, &Silent).unwrap();
            for &n in heaps {
                let Source::Builtin(b) = rules.source() else { panic!("{spec}: a built-in game") };
                assert!(!b.enumerates(&n.into()), "{spec}: heap {n} is beyond the stored values");
                let mut by_value: std::collections::BTreeMap<u32, std::collections::BTreeSet<Vec<u64>>> =
                    std::collections::BTreeMap::new();
                game.options(n, &mut |left| {
                    let mut left: Vec<u64> = left.iter().copied().filter(|&h| h > 0).collect();
                    left.sort_unstable();
                    let x = left.iter().fold(0, |x, &h| x ^ direct[h as usize]);
                    by_value.entry(x).or_default().insert(left);
                });
                let top_value = by_value.keys().max().copied().unwrap_or(0);
                for target in 0..=top_value + 1 {
                    let options = rules.options_to(&n.into(), &target.into());
                    let count = options.count();
                    let listed: Vec<Vec<u64>> = options
                        .into_iter()
                        .map(|o| o.iter().map(|h| h.to_u64().unwrap()).collect())
                        .collect();
                    let distinct: std::collections::BTreeSet<Vec<u64>> = listed.iter().cloned().collect();
                    assert_eq!(distinct.len(), listed.len(), "{spec}: {n} to value {target}: listed twice");
                    let expected = by_value.remove(&target).unwrap_or_default();
                    if spec == "lasker" {
                        assert!(distinct.is_subset(&expected), "{spec}: {n} to value {target}");
                        assert_eq!(count, None);
                        if target < direct[n as usize] {
                            assert!(!distinct.is_empty(), "{spec}: {n} to value {target}");
                        }
                    } else {
                        assert_eq!(distinct, expected, "{spec}: {n} to value {target}");
                        assert_eq!(count, Some(BigUint::from(listed.len())), "{spec}: {n} to value {target}");
                    }
                }
            }
        }
    }

    /// Splits of a game of arithmetic period (hex:0.8: G(n + 3) = G(n) + 1 from n = 1) are
    /// looked at one by one: every one of a heap of 40, and the first ones of a huge heap,
    /// whose count is then unknown.
    #[test]
    fn splits_of_an_arithmetic_period_are_looked_at_one_by_one() {
        let game = Game::parse("hex:0.8").unwrap();
        let direct = grundy::values(&game, 61, &Silent).unwrap();
        assert!((1..58).all(|n| direct[n + 3] == direct[n] + 1), "{direct:?}");
        let theorem = Theorem::OctalSplitting { last_digit: 1 };
        let certificate = Certificate { preperiod: 1, period: 3, saltus: 1, theorem };
        let builtin = Builtin {
            game: game.clone(),
            values: direct[..4].to_vec(),
            beyond: Beyond::Period(certificate),
            takes: Vec::new(),
        };
        let rules = Rules::from_source(Source::Builtin(Box::new(builtin)));
        for n in [40u64, 59, 60] {
            let mut by_value: std::collections::BTreeMap<u32, Vec<Vec<BigUint>>> = Default::default();
            game.options(n, &mut |left| {
                let x = left.iter().fold(0, |x, &h| x ^ direct[h as usize]);
                let mut heaps: Vec<BigUint> = left.iter().filter(|&&h| h > 0).map(|&h| h.into()).collect();
                heaps.sort();
                by_value.entry(x).or_default().push(heaps);
            });
            for (target, mut expected) in by_value {
                expected.sort();
                expected.dedup();
                let options = rules.options_to(&n.into(), &target.into());
                assert_eq!(options.count(), Some(BigUint::from(expected.len())), "{n} to {target}");
                assert_eq!(rules.options_with_value(&n.into(), &target.into()), expected, "{n} to {target}");
            }
        }
        let huge = BigUint::from(10u32).pow(18);
        // Take 1 and split into 1 + 1 + (10^18 − 3): the value of the largest part; it comes first.
        let options = rules.options_to(&huge, &rules.value(&(&huge - 3u8)).unwrap());
        assert_eq!(options.count(), None);
        let first = vec![BigUint::one(), BigUint::one(), &huge - 3u8];
        assert_eq!(options.into_iter().next(), Some(first));
        let ends =
            |lo: u8, hi: u8| both_ends(lo.into(), hi.into()).map(|x| x.to_u8().unwrap()).collect::<Vec<_>>();
        assert_eq!(
            (ends(1, 4), ends(2, 6), ends(3, 3), ends(3, 2)),
            (vec![1, 4, 2, 3], vec![2, 6, 3, 5, 4], vec![3], vec![])
        );
    }

    #[test]
    fn staircases_need_take_away_games() {
        let octal = Game::parse("octal:0.07").unwrap();
        let rules = Rules::for_game(&octal, &BigUint::from(3u32), Some(100), &Silent).unwrap();
        assert!(rules.check_take_away().is_err());
        for spec in ["hex:0.F", "grundy-game", "lasker", "fraction:1/2", "fraction:2/3"] {
            let game = Game::parse(spec).unwrap();
            let rules = Rules::for_game(&game, &BigUint::from(3u32), Some(100), &Silent).unwrap();
            assert!(rules.check_take_away().is_err(), "{spec}");
        }
        for spec in ["nim", "subtract:1-2", "allbut:2", "squares"] {
            let game = Game::parse(spec).unwrap();
            let values = grundy::values(&game, 30, &Silent).unwrap();
            // The built-in games pass the check made for games of one's own, too.
            assert!(Rules::new(&game, &values).check_take_away().is_ok(), "{spec}");
        }
        let values = grundy::values(&octal, 30, &Silent).unwrap();
        assert!(Rules::new(&octal, &values).check_take_away().is_err());
        // 0.3: take one stone, leaving nothing or one heap: subtract:1 in disguise.
        let take_one = Game::parse("octal:0.3").unwrap();
        let values = grundy::values(&take_one, 30, &Silent).unwrap();
        assert!(Rules::new(&take_one, &values).check_take_away().is_ok());
        // 0.1: take one stone only from a heap of one: refused.
        let last_only = Game::parse("octal:0.1").unwrap();
        let values = grundy::values(&last_only, 30, &Silent).unwrap();
        assert!(Rules::new(&last_only, &values).check_take_away().is_err());
    }
}
