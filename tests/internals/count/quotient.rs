mod tests {
    use num_bigint::BigUint;

    use nimcount::internals::count::{Kind, Query};
    use nimcount::internals::game::Game;
    use nimcount::internals::play::MisereSearch;

    /// Exact, a prime, 2^64, 12 and 1.
    fn moduli() -> Vec<Option<BigUint>> {
        vec![
            None,
            Some(1_000_000_007u32.into()),
            Some(BigUint::from(1u8) << 64u32),
            Some(12u8.into()),
            Some(1u8.into()),
        ]
    }

    /// Ordered, unordered and distinct misère counts against every tuple judged by a plain
    /// memoised search (the player who cannot move wins; multisets are the non-decreasing
    /// tuples, sets the increasing ones), exact and modulo 10^9+7, 2^64, 12 and 1.
    #[test]
    fn counts_equal_a_plain_search() {
        let moduli = moduli();
        for spec in ["octal:0.75", "subtract:1,2", "subtract:1,3,4"] {
            let game = Game::parse(spec).unwrap();
            let mut search = MisereSearch::new(vec![&game], 1_000_000);
            for (lo, hi) in [(0u64, 0u64), (0, 7), (1, 1), (2, 9), (5, 6)] {
                for k in 0..=3u32 {
                    // [losing, total] per kind: ordered, multisets, sets.
                    let mut tally = [[0u64; 2]; 3];
                    let mut tuple = vec![lo; k as usize];
                    loop {
                        let heaps: Vec<(usize, u64)> = tuple.iter().map(|&h| (0, h)).collect();
                        let lost = u64::from(search.is_lost(&heaps).unwrap());
                        let sorted = tuple.windows(2).all(|w| w[0] <= w[1]);
                        let increasing = tuple.windows(2).all(|w| w[0] < w[1]);
                        for (kind, counted) in [true, sorted, increasing].into_iter().enumerate() {
                            if counted {
                                tally[kind][0] += lost;
                                tally[kind][1] += 1;
                            }
                        }
                        // The next tuple, the last heap fastest.
                        let Some(i) = (0..tuple.len()).rev().find(|&i| tuple[i] < hi) else { break };
                        tuple[i] += 1;
                        tuple[i + 1..].iter_mut().for_each(|h| *h = lo);
                    }
                    for (kind, [lost, total]) in
                        [Kind::Ordered, Kind::Multiset, Kind::Set].into_iter().zip(tally)
                    {
                        for m in &moduli {
                            let mut query =
                                Query::new(game.clone()).sizes(lo, hi).heaps(k).kind(kind).misere(true);
                            if let Some(m) = m {
                                query = query.modulus(m.clone());
                            }
                            let counts = query.count().unwrap();
                            let reduce =
                                |x: u64| m.as_ref().map_or(BigUint::from(x), |m| BigUint::from(x) % m);
                            let what = format!("{spec} {lo}..={hi} k = {k} {kind} mod {m:?}");
                            assert_eq!(
                                (counts.losing, counts.total),
                                (reduce(lost), reduce(total)),
                                "{what}"
                            );
                        }
                    }
                }
            }
        }
    }

    /// Misère counts over a range of heap counts (the geometric series in the quotient's algebra;
    /// misère Nim's summed correction) equal the counts of each number of heaps added up: ranges
    /// from 0, of one count, and across the all-small positions; exact and modulo a prime, 2^64,
    /// 12 and 1. Multisets and sets of Nim too (the transform's own range, corrected).
    #[test]
    fn ranges_of_heap_counts_equal_the_counts_one_by_one() {
        let moduli = moduli();
        for (spec, kinds) in [
            ("octal:0.75", &[Kind::Ordered][..]),
            ("subtract:1,3,4", &[Kind::Ordered][..]),
            ("nim", &[Kind::Ordered, Kind::Multiset, Kind::Set][..]),
        ] {
            let game = Game::parse(spec).unwrap();
            for (lo, hi) in [(0u64, 0u64), (0, 7), (1, 1), (1, 6), (2, 9)] {
                for &kind in kinds {
                    for (k_lo, k_hi) in [(0u32, 0u32), (0, 5), (1, 1), (2, 7), (3, 4)] {
                        for m in &moduli {
                            let query = |q: Query<'static>| {
                                let q = q.kind(kind).misere(true);
                                let q = match m {
                                    Some(m) => q.modulus(m.clone()),
                                    None => q,
                                };
                                q.count().unwrap()
                            };
                            let range = query(Query::new(game.clone()).sizes(lo, hi).heaps_range(k_lo, k_hi));
                            let (mut losing, mut total) = (BigUint::from(0u8), BigUint::from(0u8));
                            for k in k_lo..=k_hi {
                                let one = query(Query::new(game.clone()).sizes(lo, hi).heaps(k));
                                losing += one.losing;
                                total += one.total;
                            }
                            if let Some(m) = m {
                                losing %= m;
                                total %= m;
                            }
                            let what = format!("{spec} {lo}..={hi} heaps {k_lo}..={k_hi} {kind} mod {m:?}");
                            assert_eq!((range.losing, range.total), (losing, total), "{what}");
                        }
                    }
                }
            }
        }
    }

    /// Multisets and sets of two and three heaps over huge ranges against the cycle index of
    /// the symmetric group (Burnside): with `S_1 = Σ h_a h_b h_c [abc ∈ P]`,
    /// `S_2 = Σ h_a h_b [a²b ∈ P]`, `S_3 = Σ h_a [a³ ∈ P]`, multisets of three number
    /// `(S_1 + 3 S_2 + 2 S_3)/6` and sets `(S_1 − 3 S_2 + 2 S_3)/6`; of two,
    /// `(T_1 ± T_2)/2`. Exact and modulo words, big odd numbers and powers of two.
    #[test]
    fn unordered_counts_of_huge_ranges_equal_the_cycle_index() {
        let parse = |s: &str| nimcount::internals::number::parse(s).unwrap();
        let moduli: Vec<Option<BigUint>> =
            [None, Some("10^9+7"), Some("2^64"), Some("12"), Some("2^89-1"), Some("2^130")]
                .into_iter()
                .map(|m| m.map(parse))
                .collect();
        for (spec, lo, hi) in [("octal:0.75", "0", "10^18"), ("subtract:1,2", "7", "10^30+1")] {
            let game = Game::parse(spec).unwrap();
            let q = nimcount::internals::misere::Search::new(&game).run().unwrap();
            let (lo, hi) = (parse(lo), parse(hi));
            let h = nimcount::internals::count::quotient::histogram(&q, &lo, &hi);
            let p = |a: usize| q.in_p(a);
            let mut s1 = BigUint::from(0u8);
            let mut s2 = BigUint::from(0u8);
            let mut s3 = BigUint::from(0u8);
            let mut t1 = BigUint::from(0u8);
            let mut t2 = BigUint::from(0u8);
            for (a, x) in h.iter().enumerate() {
                let aa = q.mul(a, a);
                if p(q.mul(aa, a)) {
                    s3 += x;
                }
                if p(aa) {
                    t2 += x;
                }
                for (b, y) in h.iter().enumerate() {
                    if p(q.mul(aa, b)) {
                        s2 += x * y;
                    }
                    if p(q.mul(a, b)) {
                        t1 += x * y;
                    }
                    for (c, z) in h.iter().enumerate() {
                        if p(q.mul(q.mul(a, b), c)) {
                            s1 += x * y * z;
                        }
                    }
                }
            }
            let expect = [
                (2u32, Kind::Multiset, (&t1 + &t2) / 2u32),
                (2, Kind::Set, (&t1 - &t2) / 2u32),
                (3, Kind::Multiset, (&s1 + 3u32 * &s2 + 2u32 * &s3) / 6u32),
                (3, Kind::Set, (&s1 + 2u32 * &s3 - 3u32 * &s2) / 6u32),
            ];
            for (k, kind, lost) in expect {
                for m in &moduli {
                    let mut query = Query::new(game.clone())
                        .sizes(lo.clone(), hi.clone())
                        .heaps(k)
                        .kind(kind)
                        .misere(true);
                    if let Some(m) = m {
                        query = query.modulus(m.clone());
                    }
                    let counts = query.count().unwrap();
                    let expect = m.as_ref().map_or(lost.clone(), |m| &lost % m);
                    assert_eq!(counts.losing, expect, "{spec} k = {k} {kind} mod {m:?}");
                }
            }
        }
    }

    #[test]
    fn huge_ranges_and_refusals() {
        // Heaps of any size: the histogram from the period; 10^18 sizes, k = 10^30.
        let game = Game::parse("octal:0.75").unwrap();
        let big = nimcount::internals::number::parse("10^18").unwrap();
        let k = nimcount::internals::number::parse("10^30").unwrap();
        let q =
            Query::new(game.clone()).sizes(1u32, big.clone()).heaps(k).misere(true).modulus(1_000_000_007u32);
        let counts = q.count().unwrap();
        assert!(counts.losing < BigUint::from(1_000_000_007u32));
        // Parts add up: 1..=10^18 split at 4·10^17, two heaps.
        let cut = nimcount::internals::number::parse("4*10^17").unwrap();
        let whole =
            Query::new(game.clone()).sizes(1u32, big.clone()).heaps(1u32).misere(true).count().unwrap();
        let low = Query::new(game.clone()).sizes(1u32, cut.clone()).heaps(1u32).misere(true).count().unwrap();
        let high = Query::new(game.clone()).sizes(&cut + 1u32, big).heaps(1u32).misere(true).count().unwrap();
        assert_eq!(whole.losing, low.losing + high.losing);
        // Three heaps over 1..=10^18 split at 4·10^17: the eight sums of parts add up.
        let m = BigUint::from(1_000_000_007u32);
        let big = nimcount::internals::number::parse("10^18").unwrap();
        let whole =
            Query::new(game.clone()).sizes(1u32, big.clone()).heaps(3u32).misere(true).modulus(m.clone());
        let halves = [(BigUint::from(1u8), cut.clone()), (&cut + 1u32, big)];
        let mut sum = BigUint::from(0u8);
        for choice in 0..8 {
            let parts: Vec<nimcount::internals::count::Component> = (0..3)
                .map(|i| {
                    let (lo, hi) = &halves[(choice >> i) & 1];
                    nimcount::internals::count::Component::new(game.clone(), lo.clone(), hi.clone(), 1u32)
                })
                .collect();
            sum += Query::sum(parts).misere(true).modulus(m.clone()).count().unwrap().losing;
        }
        assert_eq!(whole.count().unwrap().losing, sum % &m);
        // Unordered: k beyond every estimate and a small work limit refused, sets of more sizes
        // than there are none at all.
        let unordered =
            |k: BigUint, kind| Query::new(game.clone()).sizes(1u32, 9u32).heaps(k).kind(kind).misere(true);
        for e in [
            unordered(nimcount::internals::number::parse("10^30").unwrap(), Kind::Multiset).count(),
            unordered(BigUint::from(3u8), Kind::Set).max_work(10).count(),
        ] {
            let e = e.unwrap_err();
            assert!(matches!(e, nimcount::Error::TooMuchWork { .. }), "{e}");
            assert!(e.to_string().contains("unordered misère positions"), "{e}");
        }
        let none = unordered(nimcount::internals::number::parse("10^30").unwrap(), Kind::Set)
            .modulus(7u8)
            .count()
            .unwrap();
        assert_eq!((none.losing, none.total), (0u8.into(), 0u8.into()));
        // Sums of parts, multisets within each part, against a plain search: two heaps of
        // 0..=5 and one of 3..=7.
        let mut search = MisereSearch::new(vec![&game], 1_000_000);
        let mut lost = [0u32; 2];
        for a in 0..=5u64 {
            for b in a..=5 {
                for c in 3..=7 {
                    let l = search.is_lost(&[(0, a), (0, b), (0, c)]).unwrap();
                    lost[0] += u32::from(l);
                    lost[1] += u32::from(l && a < b);
                }
            }
        }
        for (kind, lost) in [(Kind::Multiset, lost[0]), (Kind::Set, lost[1])] {
            let parts = [
                nimcount::internals::count::Component::new(game.clone(), 0u32, 5u32, 2u32),
                nimcount::internals::count::Component::new(game.clone(), 3u32, 7u32, 1u32),
            ];
            let counts = Query::sum(parts).kind(kind).misere(true).count().unwrap();
            assert_eq!(counts.losing, lost.into(), "{kind}");
        }
        // Lasker's Nim has no quotient of every heap size here: sizes up to the budget's
        // largest heap are counted through the quotient of the heaps in range, more refused.
        let e = Query::new(Game::Lasker).sizes(0u32, 5000u32).heaps(2u32).misere(true).count();
        assert!(e.unwrap_err().to_string().contains("above the limit of heap 1000"));
    }
}
