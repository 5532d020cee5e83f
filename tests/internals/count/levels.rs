mod tests {
    use nimcount::internals::count::levels::*;
    use num_bigint::{BigInt, BigUint};

    use nimcount::internals::error::Error;
    use nimcount::internals::histogram::Histogram;

    use crate::count::spectrum::array_multiset;
    use std::collections::HashMap;

    /// `T_m(s) = g_v(m) · χ_u(m >> (v + 1))` for `s = 2^v (2u + 1)`, and `T_m(0) = m`, against the
    /// definition `Σ_{y < m} (−1)^{popcount(y & s)}` (O(F²)), for every `m <= F = 2^d`, `d <= 6`.
    #[test]
    fn prefix_transforms_follow_the_level_weights() {
        for d in 0..=6u32 {
            let f = 1u64 << d;
            for m in 0..=f {
                for s in 0..f {
                    let definition: i64 =
                        (0..m).map(|y| if (y & s).count_ones() % 2 == 0 { 1 } else { -1 }).sum();
                    let closed = if s == 0 {
                        m as i64
                    } else {
                        let v = s.trailing_zeros();
                        let u = s >> (v + 1);
                        let character = if ((m >> (v + 1)) & u).count_ones() % 2 == 0 { 1 } else { -1 };
                        character * level_weight(m, v) as i64
                    };
                    assert_eq!(closed, definition, "m = {m}, s = {s}, F = {f}");
                }
            }
        }
    }

    /// The level spectrum as a multiset, checked for increasing distinct values and slot 0.
    fn level_classes(h: &Histogram) -> HashMap<i128, u64> {
        let s = LevelSpectrum::new(h, u128::MAX).unwrap();
        assert!(s.values.windows(2).all(|w| w[0] < w[1]), "distinct and increasing");
        assert_eq!(BigInt::from(s.values[s.zero_class]), BigInt::from(h.total().clone()));
        s.values.iter().map(|&v| i128::from(v)).zip(s.multiplicity.iter().copied()).collect()
    }

    /// Take at most half over `lo..=hi` for `lo` = 0, 1, random, `hi` = 0, 1, `2^j − 1`, `2^j`
    /// and random: the level spectrum is the array transform's multiset of values.
    #[test]
    fn take_at_most_half_matches_the_array_transform() {
        let mut rng = crate::testing::Rng(0x6A09_E667_F3BC_C908);
        let mut ranges: Vec<(u64, u64)> = Vec::new();
        for j in 0..=16u32 {
            for hi in [(1u64 << j) - 1, 1 << j, (1 << j) + 1] {
                ranges.extend([(0, hi), (1.min(hi), hi)]);
            }
        }
        for _ in 0..150 {
            let hi = rng.next() % (1 << (1 + rng.next() % 17));
            ranges.extend([(0, hi), (1.min(hi), hi), (rng.next() % (hi + 1), hi)]);
        }
        let mut entangled = 0;
        for (lo, hi) in ranges {
            let h = nimcount::internals::histogram::fraction_half(&lo.into(), &hi.into()).unwrap();
            let (levels, ..) = plan(&h).expect("word-sized intervals");
            entangled += levels.iter().filter(|l| !l.entangled.is_empty()).count();
            assert_eq!(level_classes(&h), array_multiset(&h), "{lo}..={hi}");
        }
        assert!(entangled > 100, "ranges with entangled endpoints are checked: {entangled}");
    }

    /// Random weighted intervals (overlapping, sharing endpoints, cancelling) against the array.
    #[test]
    fn random_intervals_match_the_array_transform() {
        let mut rng = crate::testing::Rng(0xBB67_AE85_84CA_A73B);
        let mut next = |n: u64| rng.next() % n;
        for case in 0..600 {
            let bits = 1 + next(12);
            let intervals: Vec<(BigUint, BigUint, BigUint)> = (0..1 + next(12))
                .map(|_| {
                    let a = next(1 << bits);
                    let b = a + next(1 << bits);
                    let w = if next(5) == 0 { 1 + next(1 << 40) } else { 1 + next(3) };
                    (a.into(), b.into(), w.into())
                })
                .collect();
            let h = Histogram::from_intervals(intervals.clone()).unwrap();
            assert_eq!(level_classes(&h), array_multiset(&h), "case {case}: {intervals:?}");
        }
    }

    /// Only word-sized intervals are taken: progressions with a shift, values or weights that
    /// could overflow a word are left to the other spectra.
    #[test]
    fn only_word_sized_intervals_are_taken() {
        let interval = |hi: BigUint, w: BigUint| Histogram::from_intervals([(1u8.into(), hi, w)]).unwrap();
        assert!(estimate(&interval(BigUint::from(1u8) << 61, 1u8.into())).is_some());
        assert!(estimate(&interval(BigUint::from(1u8) << 62, 1u8.into())).is_none());
        assert!(estimate(&interval(1000u32.into(), BigUint::from(1u8) << 60)).is_none());
        let odd = nimcount::internals::histogram::Progression {
            residue: 1,
            lo: 0u8.into(),
            hi: 9u8.into(),
            weight: 1u8.into(),
        };
        assert!(estimate(&Histogram::from_progressions(1, vec![odd]).unwrap()).is_none());
        // The work of 1..=H grows about 2^(b/2) for b bits, and is refused beyond the limit.
        let half = |hi: u64| nimcount::internals::histogram::fraction_half(&1u8.into(), &hi.into()).unwrap();
        let (small, large) = (estimate(&half(1 << 30)).unwrap(), estimate(&half(0x9E37_79B9_7F4A)).unwrap());
        assert!(large > 100 * small, "{small} {large}");
        let err = LevelSpectrum::new(&half(0x9E37_79B9_7F4A), 1000).unwrap_err();
        assert!(matches!(err, Error::TooMuchWork { limit: 1000, .. }), "{err}");
    }
}
