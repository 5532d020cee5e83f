//! Misère quotients against a plain memoised misère search.

use std::collections::HashMap;

use nimcount::game::{Game, HeapGame};
use nimcount::misere::{Budget, Search};
use nimcount::num_bigint::BigUint;

/// Whether the position (heap sizes, ascending) is lost for the player to move when whoever
/// cannot move wins: it has a move, and every option is won.
fn lost(game: &Game, position: &[u64], memo: &mut HashMap<Vec<u64>, bool>) -> bool {
    if let Some(&known) = memo.get(position) {
        return known;
    }
    let mut options: Vec<Vec<u64>> = Vec::new();
    for (i, &h) in position.iter().enumerate() {
        if i > 0 && position[i - 1] == h {
            continue;
        }
        game.options(h, &mut |left| {
            let mut next: Vec<u64> = position[..i].iter().chain(&position[i + 1..]).copied().collect();
            next.extend(left.iter().copied().filter(|&g| g > 0));
            next.sort_unstable();
            options.push(next);
        });
    }
    let answer = !options.is_empty() && options.iter().all(|o| !lost(game, o, memo));
    memo.insert(position.to_vec(), answer);
    answer
}

/// Every position of up to `heaps` heaps of at most `largest` stones: the quotient's outcome
/// against the plain search.
fn agrees_with_search(spec: &str, heaps: usize, largest: u64) {
    let game = Game::parse(spec).unwrap();
    let q = Search::new(&game).cached().run().unwrap();
    let mut memo = HashMap::new();
    let mut position: Vec<u64> = Vec::new();
    let mut checked = 0;
    each(&mut position, heaps, 1, largest, &mut |p| {
        let big: Vec<BigUint> = p.iter().map(|&h| h.into()).collect();
        assert_eq!(q.is_lost(&big).unwrap(), lost(&game, p, &mut memo), "{spec} {p:?}");
        checked += 1;
    });
    assert!(checked > 100);
}

/// `f` on `position` and on every sorted extension of it by heaps of `from..=largest`, up to
/// `heaps` heaps.
fn each(position: &mut Vec<u64>, heaps: usize, from: u64, largest: u64, f: &mut dyn FnMut(&[u64])) {
    f(position);
    if position.len() == heaps {
        return;
    }
    for h in from..=largest {
        position.push(h);
        each(position, heaps, h, largest, f);
        position.pop();
    }
}

#[test]
fn outcomes_equal_a_plain_search() {
    agrees_with_search("subtract:1,2", 4, 9);
    agrees_with_search("subtract:1,3,4", 3, 12);
    agrees_with_search("octal:0.75", 3, 10);
    agrees_with_search("octal:0.75", 4, 6);
    agrees_with_search("octal:0.52", 3, 10);
    agrees_with_search("octal:4.0", 4, 8);
    agrees_with_search("kayles", 3, 10);
    agrees_with_search("kayles", 2, 18);
    agrees_with_search("octal:0.15", 3, 10);
    agrees_with_search("octal:0.15", 2, 18);
}

/// The orders, preperiods and periods of the quotients found (see `nimcount::misere`'s
/// documentation for their sources).
#[test]
fn orders_of_the_quotients() {
    for (spec, order, preperiod, period) in
        [("kayles", 40, 71, 12), ("octal:0.15", 42, 66, 10), ("octal:0.75", 8, 8, 2)]
    {
        let q = Search::new(&Game::parse(spec).unwrap()).cached().run().unwrap();
        assert_eq!((q.order(), q.preperiod(), q.period()), (order, preperiod, period), "{spec}");
        assert_eq!(q.order() % 2, 0);
    }
}

/// A budget whose search for a quotient of every heap size gives up in a few milliseconds
/// (Dawson's Kayles and 0.137 have none known): the counts below go to the quotient of the
/// heaps `0..=hi`, which these small ranges need little of.
const QUICK: Budget = Budget { max_heap: 1000, max_order: 2000, max_states: 20_000, max_seconds: 60 };

/// Ordered tuples, multisets and sets of up to three heap sizes counted through a misère
/// quotient, against every tuple judged by the plain search; ranges from 0 and from 1; exact and
/// modulo 10^9+7, 2^64 and 12. Kayles and Guiles through their quotients of every heap size;
/// Dawson's Kayles, 0.137 and Lasker's Nim (none known) through the quotient of the heaps
/// `0..=hi`.
#[test]
fn counts_through_a_quotient_equal_a_plain_search() {
    use nimcount::count::{Kind, Query, Source};
    let moduli: [Option<BigUint>; 4] =
        [None, Some(1_000_000_007u32.into()), Some(BigUint::from(1u8) << 64u32), Some(12u8.into())];
    for (spec, ranges, every_heap) in [
        ("kayles", [(0u64, 9u64), (1, 11), (4, 4)], true),
        ("octal:0.15", [(0, 9), (1, 11), (4, 4)], true),
        ("dawsons-kayles", [(0, 12), (1, 12), (3, 3)], false),
        ("octal:0.137", [(0, 11), (1, 11), (2, 2)], false),
        ("lasker", [(0, 9), (1, 9), (5, 5)], false),
    ] {
        let game = Game::parse(spec).unwrap();
        let mut memo = HashMap::new();
        for (lo, hi) in ranges {
            for k in 0..=3usize {
                // [losing, total] of ordered tuples, multisets and sets.
                let mut tally = [[0u64; 2]; 3];
                fn each(tuple: &mut Vec<u64>, k: usize, lo: u64, hi: u64, f: &mut dyn FnMut(&[u64])) {
                    if tuple.len() == k {
                        return f(tuple);
                    }
                    for h in lo..=hi {
                        tuple.push(h);
                        each(tuple, k, lo, hi, f);
                        tuple.pop();
                    }
                }
                each(&mut Vec::new(), k, lo, hi, &mut |t| {
                    let mut heaps: Vec<u64> = t.iter().copied().filter(|&h| h > 0).collect();
                    heaps.sort_unstable();
                    let l = u64::from(lost(&game, &heaps, &mut memo));
                    tally[0] = [tally[0][0] + l, tally[0][1] + 1];
                    if t.windows(2).all(|w| w[0] <= w[1]) {
                        tally[1] = [tally[1][0] + l, tally[1][1] + 1];
                    }
                    if t.windows(2).all(|w| w[0] < w[1]) {
                        tally[2] = [tally[2][0] + l, tally[2][1] + 1];
                    }
                });
                for (kind, [losing, total]) in
                    [Kind::Ordered, Kind::Multiset, Kind::Set].into_iter().zip(tally)
                {
                    for m in &moduli {
                        let mut query = Query::new(game.clone())
                            .sizes(lo, hi)
                            .heaps(k as u32)
                            .kind(kind)
                            .misere(true)
                            .misere_budget(if every_heap { Budget::default() } else { QUICK });
                        if let Some(m) = m {
                            query = query.modulus(m.clone());
                        }
                        let what = format!("{spec} {lo}..={hi} k = {k} {kind} mod {m:?}");
                        let counts = query.count().unwrap_or_else(|e| panic!("{what}: {e}"));
                        let reduce = |x: u64| m.as_ref().map_or(BigUint::from(x), |m| BigUint::from(x) % m);
                        assert_eq!((counts.losing, counts.total), (reduce(losing), reduce(total)), "{what}");
                        if k > 0 && !(kind == Kind::Set && k as u64 > hi - lo + 1) {
                            let source = counts.report.source;
                            if every_heap {
                                assert!(matches!(source, Source::Quotient { .. }), "{what}: {source:?}");
                            } else {
                                assert_eq!(
                                    source,
                                    Source::PartialQuotient {
                                        order: source_order(&source),
                                        largest_heap: hi
                                    },
                                    "{what}"
                                );
                            }
                        }
                    }
                }
            }
        }
    }
}

/// The order a partial quotient's source names.
fn source_order(source: &nimcount::count::Source) -> usize {
    match source {
        nimcount::count::Source::PartialQuotient { order, .. } => *order,
        other => panic!("not a partial quotient: {other:?}"),
    }
}

/// The quotient of the heaps `0..=n` judges every position of those heaps as the plain search
/// does, for games with and without a quotient of every heap size, and refuses a heap above
/// `n` (never a wrong answer); a count whose sizes pass the budget's largest heap is refused,
/// naming the limit.
#[test]
fn partial_quotients_judge_their_heaps_and_refuse_the_others() {
    use nimcount::misere::MisereTheorem;
    for (spec, heaps, largest) in [
        ("dawsons-kayles", 3, 14),
        ("octal:0.137", 3, 12),
        ("lasker", 3, 9),
        ("nim", 3, 7),
        ("kayles", 3, 10),
        ("allbut:1,2", 3, 9),
        ("hex:0.8", 2, 14),
    ] {
        let game = Game::parse(spec).unwrap();
        let q = Search::new(&game).heaps(largest).budget(QUICK).run().unwrap();
        assert_eq!(q.largest_heap(), Some(largest), "{spec}");
        assert_eq!(q.theorem(), MisereTheorem::Heaps { largest_heap: largest });
        assert_eq!(q.images().len() as u64, largest + 1);
        // Misère quotients of impartial games have even order.
        assert_eq!(q.order() % 2, 0, "{spec}");
        let mut memo = HashMap::new();
        each(&mut Vec::new(), heaps, 1, largest, &mut |p| {
            let big: Vec<BigUint> = p.iter().map(|&h| h.into()).collect();
            assert!(q.check_heaps(&big).is_ok());
            assert_eq!(q.is_lost(&big).unwrap(), lost(&game, p, &mut memo), "{spec} {p:?}");
        });
        let above = [BigUint::from(3u8), BigUint::from(largest + 1)];
        let e = q.check_heaps(&above).unwrap_err();
        assert!(matches!(e, nimcount::Error::QuotientNotFound { limit: Some("max_heap"), .. }), "{e}");
        assert!(e.to_string().contains(&format!("0..={largest}")), "{e}");
        // Every lookup by heap refuses such a heap the same way, never panics.
        let huge = BigUint::from(u64::MAX) * 4u32;
        assert_eq!(q.is_lost(&above).unwrap_err().to_string(), e.to_string());
        assert!(q.product(&above).is_err() && q.element(&huge).is_err());
        assert!(q.element_u64(largest + 1).is_err() && q.element_u64(u64::MAX).is_err());
        assert_eq!(q.element_u64(largest).unwrap(), q.element(&BigUint::from(largest)).unwrap());
    }
    // Heaps above the budget's largest, before any work.
    let game = Game::parse("lasker").unwrap();
    let few = Budget { max_heap: 20, ..QUICK };
    let e = Search::new(&game).heaps(21).budget(few).run().unwrap_err();
    assert!(matches!(e, nimcount::Error::QuotientNotFound { limit: Some("max_heap"), .. }), "{e}");
    let query = nimcount::count::Query::new(game).sizes(0u32, 21u32).heaps(2u32).misere(true);
    let e = query.misere_budget(few).count().unwrap_err();
    assert!(e.to_string().contains("above the limit of heap 20") && !e.to_string().contains('\n'), "{e}");
    // A construction that passes a limit says which.
    let e = Search::new(&Game::parse("dawsons-kayles").unwrap()).heaps(30).budget(QUICK).run().unwrap_err();
    assert!(matches!(e, nimcount::Error::QuotientNotFound { limit: Some("max_states"), .. }), "{e}");
}

/// Q_30(0.07), the quotient of Dawson's Kayles' heaps 0..=30, has order 360 (Siegel, "Some
/// MisereSolver questions answered", miseregames.wordpress.com, 2007). Its construction checks
/// about 2.2·10^6 states (seconds): ignored by `cargo test`, run by `.ci/run`.
#[test]
#[ignore]
fn dawsons_kayles_heaps_up_to_thirty_have_the_published_order() {
    let budget = Budget { max_states: 1_000_000, ..Budget::default() };
    let q = Search::new(&Game::parse("octal:0.07").unwrap()).heaps(30).budget(budget).run().unwrap();
    assert_eq!(q.order(), 360);
}
