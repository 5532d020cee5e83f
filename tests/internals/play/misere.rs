mod tests {
    use std::collections::HashMap;

    use num_bigint::BigUint;

    use nimcount::internals::play::misere::*;
    use num_traits::ToPrimitive;

    use nimcount::internals::error::Error;
    use nimcount::internals::game::Game;
    use nimcount::internals::play::Verdict;
    use nimcount::internals::play::rules::Rules;

    use nimcount::internals::progress::Silent;

    /// The options of a heap of `n`, written out from the rules of each game: every option as
    /// its non-empty heaps, sorted.
    fn plain_options(spec: &str, n: u64) -> Vec<Vec<u64>> {
        let mut out: Vec<Vec<u64>> = Vec::new();
        let mut take = |k: u64| {
            if 1 <= k && k <= n {
                out.push(if k == n { vec![] } else { vec![n - k] });
            }
        };
        match spec {
            "nim" => (1..=n).for_each(&mut take),
            "subtract:2" => take(2),
            "subtract:1,2" => (1..=2).for_each(&mut take),
            "subtract:1-3" => (1..=3).for_each(&mut take),
            octal => {
                // d0.d1d2…: digit j, bit 1 takes j leaving nothing, bit 2 leaving one heap,
                // bit 4 leaving two non-empty heaps.
                let code = octal.strip_prefix("octal:").unwrap().replace('.', "");
                for (j, digit) in code.chars().enumerate() {
                    let (j, d) = (j as u64, digit.to_digit(8).unwrap());
                    if j > n {
                        break;
                    }
                    let rest = n - j;
                    if d & 1 != 0 && rest == 0 && j > 0 {
                        out.push(vec![]);
                    }
                    if d & 2 != 0 && rest > 0 && j > 0 {
                        out.push(vec![rest]);
                    }
                    if d & 4 != 0 {
                        for a in 1..=rest / 2 {
                            if rest - a >= 1 {
                                out.push(vec![a, rest - a]);
                            }
                        }
                    }
                }
            }
        }
        out.sort();
        out.dedup();
        out
    }

    /// Misère: lost when some move exists and every move leaves a position won for the opponent.
    fn brute_lost(
        position: &[(usize, u64)],
        specs: &[&str],
        memo: &mut HashMap<Vec<(usize, u64)>, bool>,
    ) -> bool {
        let mut position: Vec<(usize, u64)> = position.iter().copied().filter(|h| h.1 > 0).collect();
        position.sort();
        if let Some(&lost) = memo.get(&position) {
            return lost;
        }
        let mut any_move = false;
        let mut lost = true;
        for i in 0..position.len() {
            let (game, n) = position[i];
            for option in plain_options(specs[game], n) {
                any_move = true;
                let mut next = position.clone();
                next.remove(i);
                next.extend(option.iter().map(|&h| (game, h)));
                if brute_lost(&next, specs, memo) {
                    lost = false;
                }
            }
        }
        let lost = any_move && lost;
        memo.insert(position, lost);
        lost
    }

    /// Every multiset of positive sizes with sum at most `total`, as non-increasing lists.
    fn multisets(total: u64, largest: u64) -> Vec<Vec<u64>> {
        let mut out = vec![vec![]];
        for first in 1..=largest.min(total) {
            for mut rest in multisets(total - first, first) {
                rest.insert(0, first);
                out.push(rest);
            }
        }
        out
    }

    fn rules_for(spec: &str, largest: u64) -> Rules<'static> {
        Rules::for_game(&Game::parse(spec).unwrap(), &BigUint::from(largest), None, &Silent).unwrap()
    }

    /// Checks the verdict and the winning moves of `position` against the brute force.
    fn check(
        position: &[(usize, u64)],
        specs: &[&str],
        rules: &[Rules<'static>],
        memo: &mut HashMap<Vec<(usize, u64)>, bool>,
    ) -> MisereRule {
        let judged = MiserePosition::new(position.iter().map(|&(g, n)| (&rules[g], n)), 1_000_000).unwrap();
        let lost = brute_lost(position, specs, memo);
        let what = format!("{position:?} of {specs:?}");
        assert_eq!(judged.verdict(), Verdict::lost_if(lost), "{what}: {:?}", judged.rule());
        let mut winning = 0;
        for (i, &(game, n)) in position.iter().enumerate() {
            for option in plain_options(specs[game], n) {
                let mut next: Vec<(usize, u64)> = position.to_vec();
                next[i] = (game, 0);
                next.extend(option.iter().map(|&h| (game, h)));
                if brute_lost(&next, specs, memo) {
                    winning += 1;
                    let to: Vec<BigUint> = option.iter().map(|&h| BigUint::from(h)).collect();
                    let found = judged
                        .winning_moves()
                        .iter()
                        .any(|m| m.changes[0].heap == i && m.changes[0].to == to);
                    assert!(found, "{what}: heap {i} to {option:?} wins");
                }
            }
        }
        assert_eq!(judged.winning_moves().len(), winning, "{what}: {:?}", judged.winning_moves());
        judged.rule()
    }

    #[test]
    fn misere_verdicts_and_moves_equal_a_plain_search_up_to_twenty_stones() {
        let games = [
            "nim",
            "subtract:2",
            "subtract:1,2",
            "subtract:1-3",
            "octal:0.07",
            "octal:0.77",
            "octal:0.137",
            "octal:4.007",
        ];
        let positions = multisets(20, 20);
        assert_eq!(positions.len(), 2714); // Σ p(t) for t <= 20, the empty position included
        for spec in games {
            let rules = vec![if spec == "nim" { Rules::nim() } else { rules_for(spec, 20) }];
            let mut memo = HashMap::new();
            let mut rules_used = [0usize; 5];
            for sizes in &positions {
                let position: Vec<(usize, u64)> = sizes.iter().map(|&n| (0, n)).collect();
                match check(&position, &[spec], &rules, &mut memo) {
                    MisereRule::Nim => rules_used[0] += 1,
                    MisereRule::Binary => rules_used[1] += 1,
                    MisereRule::Search { .. } => rules_used[2] += 1,
                    MisereRule::Quotient { .. } => rules_used[3] += 1,
                    MisereRule::PartialQuotient { .. } => rules_used[4] += 1,
                }
            }
            // Nim by its rule; subtract:2 (values 0, 0, 1, 1, …) by the binary rule throughout;
            // the others by the binary rule on their small heaps and by a quotient elsewhere.
            match spec {
                "nim" => assert_eq!(rules_used, [2714, 0, 0, 0, 0]),
                // (The empty position has no heap that is not Nim's: Nim's rule.)
                "subtract:2" => assert_eq!(rules_used, [1, 2713, 0, 0, 0]),
                // A game whose quotient is found: by the quotient beyond the binary heaps.
                "subtract:1,2" | "subtract:1-3" | "octal:0.77" => {
                    assert!(rules_used[1] > 0 && rules_used[3] > 1000, "{spec}: {rules_used:?}")
                }
                // Without a quotient of every heap (within play's budget): the quotient of the
                // heaps up to the largest.
                _ => assert!(rules_used[1] > 0 && rules_used[4] > 1000, "{spec}: {rules_used:?}"),
            }
        }
    }

    #[test]
    fn quotient_verdicts_and_moves_equal_a_plain_search() {
        for spec in ["octal:0.75", "subtract:1,2"] {
            let rules = vec![rules_for(spec, 33)];
            let mut memo = HashMap::new();
            let mut positions: Vec<Vec<(usize, u64)>> = (1..=33).map(|n| vec![(0, n)]).collect();
            positions.extend((1..=25).flat_map(|a| (1..=11).map(move |b| vec![(0, a), (0, b)])));
            let mut by_quotient = 0;
            for position in &positions {
                if matches!(check(position, &[spec], &rules, &mut memo), MisereRule::Quotient { .. }) {
                    by_quotient += 1;
                }
            }
            assert!(by_quotient > 250, "{spec}: {by_quotient}");
        }
    }

    #[test]
    fn quotients_judge_heaps_of_any_size_with_every_split_counted() {
        let rules = rules_for("octal:0.75", 10);
        let huge = nimcount::internals::number::parse("10^18").unwrap();
        let position =
            MiserePosition::new([(&rules, huge.clone()), (&rules, huge.clone() + 1u32)], 10).unwrap();
        assert!(matches!(position.rule(), MisereRule::Quotient { order: 8, .. }));
        // Every winning move is a winning move by the quotient, and the count is exact: count
        // the splits of the first heap by brute force over one period of classes.
        let game = Game::parse("octal:0.75").unwrap();
        let q = nimcount::internals::misere::Search::new(&game).budget(PLAY_BUDGET).run().unwrap();
        let element = |h: &BigUint| q.element(h).unwrap();
        let other = element(&(huge.clone() + 1u32));
        for m in position.winning_moves() {
            let i = m.changes[0].heap;
            let rest = if i == 0 { other } else { element(&huge) };
            let after = m.changes[0].to.iter().fold(rest, |x, h| q.mul(x, element(h)));
            assert!(q.in_p(after), "{m}");
        }
        assert!(*position.winning_move_count().unwrap() >= BigUint::from(position.winning_moves().len()));
        // Split classes cover every split exactly once: m = 40 by brute force.
        let m = BigUint::from(40u32);
        let classes = nimcount::internals::misere::split_classes(&q, &m).unwrap();
        let total: BigUint = classes.iter().map(|c| c.count.clone()).sum();
        assert_eq!(total, BigUint::from(20u32));
        for c in &classes {
            let mut a = c.first.clone();
            for _ in 0..c.count.to_u64().unwrap() {
                assert_eq!(q.mul(element(&a), element(&(&m - &a))), c.element);
                a += c.step;
            }
        }
    }

    #[test]
    fn mixed_misere_positions_equal_a_plain_search() {
        let specs = ["octal:0.77", "nim", "subtract:1,2", "octal:0.07"];
        let rules: Vec<Rules<'static>> =
            specs.iter().map(|s| if *s == "nim" { Rules::nim() } else { rules_for(s, 14) }).collect();
        let mut memo = HashMap::new();
        let mut state = 0x9E37_79B9_7F4A_7C15u64;
        for _ in 0..400 {
            let mut position = Vec::new();
            let mut total = 0;
            loop {
                state = state.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
                let (game, n) = ((state >> 40) as usize % specs.len(), (state >> 20) % 6);
                if total + n > 14 || position.len() >= 5 {
                    break;
                }
                total += n;
                position.push((game, n));
            }
            check(&position, &specs, &rules, &mut memo);
        }
    }

    /// The cost estimated before a search bounds the moves it examines and the bytes it counts.
    #[test]
    fn the_estimated_cost_bounds_the_search() {
        for (spec, heaps) in [
            ("squares", &[60u64, 7][..]),
            ("allbut:1", &[50]),
            ("subtract:1,2", &[20, 9, 4]),
            ("octal:0.07", &[9, 5]),
            ("octal:0.77", &[7, 6, 3]),
        ] {
            let game = Game::parse(spec).unwrap();
            let mut search = MisereSearch::new(vec![&game], 1_000_000);
            let position = search.normal_form(heaps.iter().map(|&h| (0, h)));
            let cost = SearchCost::of(&position, search.games(), reachable_bound(&position, search.games()));
            search.is_lost(&position).unwrap();
            let (moves, bytes) = search.spent();
            assert!(moves > 0 && u128::from(moves) <= cost.moves, "{spec}: {search:?} {cost:?}");
            assert!(u128::from(bytes) <= cost.bytes, "{spec}: {bytes} {cost:?}");
        }
        // The review's square game: fewer than 10^6 positions, hundreds of millions of moves.
        let squares = Game::parse("squares").unwrap();
        let err = MisereSearch::new(vec![&squares], 1_000_000).is_lost(&[(0, 100_000), (0, 7)]).unwrap_err();
        assert!(matches!(err, Error::MisereTooLong { moves: Some(m), .. } if m > 100_000_000), "{err}");
    }

    #[test]
    fn searches_beyond_the_limit_are_refused_before_they_start() {
        // Dawson's chess (0.137): no quotient within play's budget, so a search.
        let kayles = rules_for("octal:0.137", 200);
        let err = MiserePosition::new([(&kayles, 200u32)], 1_000_000).unwrap_err();
        assert!(matches!(err, Error::MisereTooLarge { .. }), "{err}");
        assert!(err.to_string().contains("closed form only for nim"), "{err}");
        // A small limit refuses a small search too; a heap of Kayles of 10 is within 10^6.
        assert!(MiserePosition::new([(&kayles, 30u32)], 100).is_err());
        assert!(MiserePosition::new([(&kayles, 10u32)], 1_000_000).is_ok());
        // The bound: multisets with sum <= 4 are 1 + 1 + 2 + 3 + 5.
        assert_eq!(multisets_up_to(4), 12);
        assert_eq!(multisets_up_to(20), 2714);
    }
}
