mod tests {
    use num_bigint::BigUint;

    use nimcount::internals::count::{Component, Kind, Query};
    use nimcount::internals::game::{Game, HeapGame};

    /// `G(0..=top)` by the plain mex over every option (splits included).
    fn plain_values(game: &Game, top: u64) -> Vec<u64> {
        let mut g: Vec<u64> = Vec::new();
        for n in 0..=top {
            let mut seen = Vec::new();
            game.options(n, &mut |left| seen.push(left.iter().fold(0, |x, &h| x ^ g[h as usize])));
            g.push((0..).find(|v| !seen.contains(v)).unwrap());
        }
        g
    }

    /// Every tuple of `k` sizes in `lo..=hi`: all of them, non-decreasing, or increasing.
    fn tuples(lo: u64, hi: u64, k: u64, kind: Kind) -> Vec<Vec<u64>> {
        let mut out = vec![vec![]];
        for _ in 0..k {
            let mut next = Vec::new();
            for t in &out {
                for size in lo..=hi {
                    let ok = match (kind, t.last()) {
                        (_, None) | (Kind::Ordered, _) => true,
                        (Kind::Multiset, Some(&last)) => size >= last,
                        (_, Some(&last)) => size > last,
                    };
                    if ok {
                        let mut u: Vec<u64> = t.clone();
                        u.push(size);
                        next.push(u);
                    }
                }
            }
            out = next;
        }
        out
    }

    /// The number of positions for every XOR value, by enumerating every position.
    fn brute(parts: &[(Game, u64, u64, u64)], kind: Kind) -> Vec<u64> {
        let mut xors: Vec<u64> = vec![0];
        for (game, lo, hi, k) in parts {
            let g = plain_values(game, *hi);
            let own: Vec<u64> = tuples(*lo, *hi, *k, kind)
                .iter()
                .map(|t| t.iter().fold(0, |x, &n| x ^ g[n as usize]))
                .collect();
            xors = xors.iter().flat_map(|&x| own.iter().map(move |&y| x ^ y)).collect();
        }
        let mut counts = vec![0u64; 64];
        for x in xors {
            counts[x as usize] += 1;
        }
        counts
    }

    #[test]
    fn sums_of_games_equal_every_position_enumerated() {
        let games =
            ["nim", "subtract:1,2", "octal:0.07", "octal:0.77", "squares", "allbut:1", "subtract:2,5"];
        let games: Vec<Game> = games.iter().map(|s| Game::parse(s).unwrap()).collect();
        // A fixed linear congruential sequence: the same queries on every run.
        let mut state = 0x2545_F491_4F6C_DD1Du64;
        let mut next = |n: u64| {
            state = state.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            (state >> 33) % n
        };
        let moduli =
            [None, Some(1u128), Some(2), Some(8), Some(7), Some(12), Some(1 << 64), Some(1_000_000_007)];
        let mut checked = 0;
        for round in 0..300 {
            let kind = [Kind::Ordered, Kind::Multiset, Kind::Set][round % 3];
            let parts: Vec<(Game, u64, u64, u64)> = (0..1 + next(3))
                .map(|_| {
                    let lo = next(6);
                    (games[next(games.len() as u64) as usize].clone(), lo, lo + next(9), next(4))
                })
                .collect();
            let counts = brute(&parts, kind);
            let total: u64 = counts.iter().sum();
            let components = || parts.iter().map(|(g, lo, hi, k)| Component::new(g.clone(), *lo, *hi, *k));
            let modulus = moduli[next(moduli.len() as u64) as usize];
            let query = || {
                let q = Query::sum(components()).kind(kind);
                match modulus {
                    Some(m) => q.modulus(m),
                    None => q,
                }
            };
            let reduce = |x: u64| match modulus {
                Some(m) => BigUint::from(u128::from(x) % m),
                None => BigUint::from(x),
            };
            let what = format!("{parts:?} {kind} mod {modulus:?}");
            let c = query().count().unwrap();
            assert_eq!((c.losing, c.total), (reduce(counts[0]), reduce(total)), "{what}");
            assert_eq!(c.winning, reduce(total - counts[0]), "{what}");
            if round % 4 == 0 {
                let d = query().distribution().unwrap();
                for (x, count) in d.counts.iter().enumerate() {
                    assert_eq!(*count, reduce(counts[x]), "{what}: XOR {x}");
                }
                assert!(counts[d.counts.len()..].iter().all(|&c| c == 0), "{what}");
            }
            if round % 5 == 0 && total > 0 {
                let p = Query::sum(components()).kind(kind).probability(false).unwrap();
                assert!((p.losing - counts[0] as f64 / total as f64).abs() < 1e-12, "{what}");
            }
            checked += 1;
        }
        assert_eq!(checked, 300);
    }
}
