mod tests {

    use num_bigint::BigUint;

    use nimcount::internals::count::answer::Source;

    use nimcount::internals::error::Error;
    use nimcount::internals::game::Game;
    use nimcount::internals::grundy;
    use nimcount::internals::histogram::Histogram;

    use nimcount::internals::count::{Kind, Query};
    use nimcount::internals::progress::Silent;

    /// Ordered tuples of `k` heaps in `lo..=hi` whose values XOR to 0, one by one.
    fn brute_force(values: &[u32], lo: usize, hi: usize, k: u32) -> u64 {
        let mut xors = vec![0u64; 1 << 12];
        xors[0] = 1;
        for _ in 0..k {
            let mut next = vec![0u64; 1 << 12];
            for (x, &c) in xors.iter().enumerate().filter(|&(_, &c)| c > 0) {
                for &v in &values[lo..=hi] {
                    next[x ^ v as usize] += c;
                }
            }
            xors = next;
        }
        xors[0]
    }

    /// Lasker's Nim (a period with saltus 4) and take at most half (a closed form, one interval of
    /// values per class of trailing ones) are counted through the structured histogram: equal to
    /// enumeration on small ranges, and to the histogram of direct values on a larger one.
    #[test]
    fn closed_forms_count_as_enumeration_does() {
        for spec in ["lasker", "fraction:1/2"] {
            let game = Game::parse(spec).unwrap();
            let values = grundy::values(&game, 300, &Silent).unwrap();
            for (lo, hi) in [(0usize, 0usize), (0, 1), (1, 30), (5, 64), (3, 257), (100, 299)] {
                for k in 1..=3u32 {
                    let counts =
                        Query::new(game.clone()).sizes(lo as u64, hi as u64).heaps(k).count().unwrap();
                    assert_eq!(
                        counts.losing,
                        brute_force(&values, lo, hi, k).into(),
                        "{spec} {lo}..={hi}, {k} heaps"
                    );
                    let modular = Query::new(game.clone())
                        .sizes(lo as u64, hi as u64)
                        .heaps(k)
                        .modulus(1000u32)
                        .count()
                        .unwrap();
                    assert_eq!(modular.losing, (brute_force(&values, lo, hi, k) % 1000).into());
                }
            }
            let query = Query::new(game.clone()).sizes(1u32, 1u32 << 20).heaps(3u32);
            let (histogram, source) = query.histogram().unwrap();
            assert!(histogram.is_structured(), "{spec}");
            assert!(matches!(source, Source::Period { .. } | Source::ClosedForm { .. }), "{spec}");
            let direct = grundy::values(&game, (1 << 20) + 1, &Silent).unwrap();
            let array = Histogram::from_values(&direct, 1, 1 << 20).unwrap();
            for kind in [Kind::Ordered, Kind::Multiset, Kind::Set] {
                let structured =
                    Query::new(game.clone()).sizes(1u32, 1u32 << 20).heaps(3u32).kind(kind).count().unwrap();
                let plain = Query::from_histogram(array.clone()).heaps(3u32).kind(kind).count().unwrap();
                assert_eq!(structured.losing, plain.losing, "{spec} {kind:?}");
            }
        }
        // Huge ranges: Lasker's values are four progressions; take at most half has one interval
        // per bit of the largest heap, counted while the structured spectrum stays small.
        let huge = Query::new(Game::Lasker)
            .sizes(1u32, BigUint::from(10u32).pow(30))
            .heaps(3u32)
            .modulus(1_000_000_007u32);
        assert!(huge.count().is_ok());
        let half = Game::parse("fraction:1/2").unwrap();
        let wide =
            Query::new(half).sizes(1u32, 1u64 << 24).heaps(5u32).modulus(1_000_000_007u32).count().unwrap();
        assert!(matches!(wide.report.source, Source::ClosedForm { .. }));
    }

    /// Take at most half counted without arrays (level by level, as signed subset sums) equals
    /// the array path on ranges `lo..=hi` (`lo` = 0, 1, random; `hi` = 0, 1, `2^j − 1`, `2^j`,
    /// random), for `k` = 0, 1, 2, 3, 7 and beyond 2^64, modulo 1, 2, 2^64, 10^9 + 7 and exactly,
    /// ordered, unordered and distinct.
    #[test]
    fn take_at_most_half_without_arrays_counts_as_the_array_does() {
        use nimcount::internals::count::SpectrumPath;
        let half = Game::parse("fraction:1/2").unwrap();
        let mut rng = crate::testing::Rng(0x3C6E_F372_FE94_F82B);
        let mut ranges: Vec<(u64, u64)> = vec![(0, 0), (1, 1), (0, 1), (0, 2), (1, 2)];
        for j in [3u32, 7, 12, 16] {
            ranges.extend([(0, (1 << j) - 1), (1, (1 << j) - 1), (0, 1 << j), (1, 1 << j)]);
        }
        for _ in 0..10 {
            let hi = rng.next() % (1 << (8 + rng.next() % 9));
            ranges.extend([(1.min(hi), hi), (rng.next() % (hi + 1), hi)]);
        }
        let huge = BigUint::from(3u8).pow(50); // beyond 2^64
        let moduli = [
            Some(BigUint::from(1u8)),
            Some(2u8.into()),
            Some(BigUint::from(1u8) << 64u32),
            Some(1_000_000_007u32.into()),
            None,
        ];
        let mut levels = 0;
        for &(lo, hi) in &ranges {
            let h = nimcount::internals::histogram::fraction_half(&lo.into(), &hi.into()).unwrap();
            let by_levels = nimcount::internals::count::levels::estimate(&h);
            if by_levels
                .is_some_and(|l| nimcount::internals::count::structured::estimate(&h).is_none_or(|p| l < p))
            {
                levels += 1;
            }
            for k in [0u32.into(), 1u32.into(), 2u32.into(), 3u32.into(), 7u32.into(), huge.clone()] {
                for modulus in &moduli {
                    if modulus.is_none() && k == huge && hi > lo {
                        continue; // the exact answer has about 2^79 bits
                    }
                    let count = |path| {
                        let q = Query::new(half.clone()).sizes(lo, hi).heaps(k.clone()).spectrum(path);
                        match modulus {
                            Some(m) => q.modulus(m.clone()),
                            None => q,
                        }
                        .count()
                        .unwrap()
                    };
                    let (closed, array) = (count(SpectrumPath::Structured), count(SpectrumPath::Array));
                    let what = format!("{lo}..={hi}, k = {k}, modulus {modulus:?}");
                    assert_eq!((&closed.losing, &closed.total), (&array.losing, &array.total), "{what}");
                    assert_eq!(closed.report.spectrum, SpectrumPath::Structured, "{what}");
                }
            }
            let probability = |path| {
                Query::new(half.clone()).sizes(lo, hi).heaps(3u32).spectrum(path).probability(false).unwrap()
            };
            let (closed, array) = (probability(SpectrumPath::Structured), probability(SpectrumPath::Array));
            assert!((closed.losing - array.losing).abs() <= 1e-12, "{lo}..={hi}: {closed:?} {array:?}");
            for kind in [Kind::Multiset, Kind::Set] {
                for k in [2u32, 3] {
                    let count = |path| {
                        Query::new(half.clone())
                            .sizes(lo, hi)
                            .heaps(k)
                            .kind(kind)
                            .spectrum(path)
                            .modulus(1_000_000_007u32)
                            .count()
                    };
                    match (count(SpectrumPath::Structured), count(SpectrumPath::Array)) {
                        (Ok(a), Ok(b)) => assert_eq!(a.losing, b.losing, "{lo}..={hi} {kind:?} {k}"),
                        (a, b) => assert!(a.is_err() && b.is_err(), "{lo}..={hi} {kind:?} {k}: {a:?} {b:?}"),
                    }
                }
            }
        }
        // From about 2^10 sizes on, ranges from 0 or 1 take the level spectrum (a small range, or
        // one from an unrelated lo, is cheaper by patterns of characters).
        assert!(levels >= 15, "ranges taking the level spectrum: {levels} of {}", ranges.len());
    }

    /// `1..=10^12`: the losing ordered pairs are `Σ_y h(y)²` for the histogram `h(y) = #{t : y
    /// in the class-t interval}`, a step function of the interval ends, summed directly here;
    /// beyond the limit the query is refused, naming a range that fits.
    #[test]
    fn take_at_most_half_over_10_12_counts_pairs_and_refuses_beyond_its_reach() {
        let half = Game::parse("fraction:1/2").unwrap();
        let hi = 10u64.pow(12);
        // Class t holds the values 0..c_t (1..c_0 for t = 0, heap 0 excluded): h(y) = #{t : y < c_t}
        // minus [y = 0], constant between consecutive ends.
        let mut ends: Vec<u128> =
            (0..41).map(|t| (u128::from(hi) + 1 + (1 << t)) >> (t + 1)).filter(|&c| c > 0).collect();
        ends.sort_unstable();
        let (mut pairs, mut previous) = (0u128, 0u128);
        for (i, &c) in ends.iter().enumerate() {
            let h = (ends.len() - i) as u128; // y in [previous, c): every end above y
            pairs += h * h * (c - previous);
            previous = c;
        }
        // y = 0 has one class fewer (heap 0 is not counted): h(0)² − (h(0) − 1)².
        pairs -= 2 * ends.len() as u128 - 1;
        let counts = Query::new(half.clone()).sizes(1u32, hi).heaps(2u32).count().unwrap();
        assert_eq!(counts.losing, BigUint::from(pairs));
        assert_eq!(counts.total, BigUint::from(u128::from(hi).pow(2)));
        let err = Query::new(half).sizes(1u32, 10u64.pow(16)).heaps(2u32).modulus(7u32).count().unwrap_err();
        let Error::HalfTooWide { reach, .. } = &err else { panic!("{err}") };
        assert!(**reach > BigUint::from(10u64.pow(12)) && **reach < BigUint::from(10u64.pow(16)), "{err}");
        assert!(!err.to_string().contains('\n'), "{err}");
    }
}
