//! Misère quotients against a plain memoised misère search.

use std::collections::HashMap;

use nimcount::game::{Game, HeapGame};
use nimcount::misere::{Budget, shared};
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
    let q = shared(&game, &Budget::default()).unwrap();
    let mut memo = HashMap::new();
    let mut position: Vec<u64> = Vec::new();
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
    let mut checked = 0;
    each(&mut position, heaps, 1, largest, &mut |p| {
        let big: Vec<BigUint> = p.iter().map(|&h| h.into()).collect();
        assert_eq!(q.is_lost(&big), lost(&game, p, &mut memo), "{spec} {p:?}");
        checked += 1;
    });
    assert!(checked > 100);
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
        let q = shared(&Game::parse(spec).unwrap(), &Budget::default()).unwrap();
        assert_eq!((q.order(), q.preperiod(), q.period()), (order, preperiod, period), "{spec}");
        assert_eq!(q.order() % 2, 0);
    }
}

/// Multisets and sets of up to three heap sizes of Kayles and Guiles counted through the
/// quotient, against every one judged by the plain search; exact and modulo 10^9+7, 2^64 and 12.
#[test]
fn unordered_counts_equal_a_plain_search() {
    use nimcount::count::{Kind, Query};
    let moduli: [Option<BigUint>; 4] =
        [None, Some(1_000_000_007u32.into()), Some(BigUint::from(1u8) << 64u32), Some(12u8.into())];
    for spec in ["kayles", "octal:0.15"] {
        let game = Game::parse(spec).unwrap();
        let mut memo = HashMap::new();
        for (lo, hi) in [(0u64, 9u64), (1, 11), (4, 4)] {
            for k in 0..=3usize {
                // [losing, total] of multisets (non-decreasing tuples) and sets (increasing).
                let mut tally = [[0u64; 2]; 2];
                fn each(tuple: &mut Vec<u64>, k: usize, from: u64, hi: u64, f: &mut dyn FnMut(&[u64])) {
                    if tuple.len() == k {
                        return f(tuple);
                    }
                    for h in from..=hi {
                        tuple.push(h);
                        each(tuple, k, h, hi, f);
                        tuple.pop();
                    }
                }
                each(&mut Vec::new(), k, lo, hi, &mut |t| {
                    let heaps: Vec<u64> = t.iter().copied().filter(|&h| h > 0).collect();
                    let l = u64::from(lost(&game, &heaps, &mut memo));
                    tally[0] = [tally[0][0] + l, tally[0][1] + 1];
                    if t.windows(2).all(|w| w[0] < w[1]) {
                        tally[1] = [tally[1][0] + l, tally[1][1] + 1];
                    }
                });
                for (kind, [losing, total]) in [Kind::Multiset, Kind::Set].into_iter().zip(tally) {
                    for m in &moduli {
                        let mut query =
                            Query::new(game.clone()).sizes(lo, hi).heaps(k as u32).kind(kind).misere(true);
                        if let Some(m) = m {
                            query = query.modulus(m.clone());
                        }
                        let counts = query.count().unwrap();
                        let reduce = |x: u64| m.as_ref().map_or(BigUint::from(x), |m| BigUint::from(x) % m);
                        let what = format!("{spec} {lo}..={hi} k = {k} {kind} mod {m:?}");
                        assert_eq!((counts.losing, counts.total), (reduce(losing), reduce(total)), "{what}");
                    }
                }
            }
        }
    }
}
