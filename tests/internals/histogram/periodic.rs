mod tests {

    use num_bigint::BigUint;

    use nimcount::internals::error::Error;
    use nimcount::internals::grundy::Certificate;
    use nimcount::internals::histogram::{Histogram, log2_len_for};

    use nimcount::internals::grundy::Theorem;

    fn certificate(preperiod: u64, period: u64, saltus: u64) -> Certificate {
        Certificate { preperiod, period, saltus, theorem: Theorem::Nim }
    }

    /// The value at position n of a periodic sequence, computed directly.
    fn value_at(values: &[u32], c: &Certificate, n: u64) -> u64 {
        if n < c.preperiod {
            return u64::from(values[n as usize]);
        }
        let (j, r) = ((n - c.preperiod) / c.period, (n - c.preperiod) % c.period);
        u64::from(values[(c.preperiod + r) as usize]) + j * c.saltus
    }

    #[test]
    fn periodic_histograms_match_direct_counts() {
        let values = [3u32, 0, 1, 2, 2, 0, 5, 1, 1, 4];
        for (n0, p, s) in
            [(0, 1, 0), (0, 3, 0), (2, 3, 0), (3, 7, 0), (0, 1, 1), (2, 3, 2), (1, 4, 1), (4, 5, 7)]
        {
            let c = certificate(n0, p, s);
            for lo in 0..25u64 {
                for hi in lo.saturating_sub(1)..30 {
                    let h = Histogram::from_period(values.to_vec(), &c, lo, hi).unwrap();
                    let mut expected = std::collections::BTreeMap::new();
                    for n in lo..=hi {
                        *expected.entry(value_at(&values, &c, n)).or_insert(0u64) += 1;
                    }
                    for g in 0..(h.transform_len() as u64 + 3) {
                        let want = expected.get(&g).copied().unwrap_or(0);
                        assert_eq!(h.count(g), want.into(), "{c:?} {lo}..={hi} value {g}");
                    }
                    let top = expected.keys().max().copied();
                    assert_eq!(h.max_value(), top.map(BigUint::from), "{c:?} {lo}..={hi}");
                    assert_eq!(h.is_structured(), s.is_power_of_two() && lo <= hi, "{c:?} {lo}..={hi}");
                    if h.is_structured() {
                        let array = h.to_array().unwrap();
                        for g in 0..(h.transform_len() as u64 + 3) {
                            assert_eq!(array.count(g), h.count(g), "{c:?} {lo}..={hi} value {g}");
                        }
                    }
                    assert_eq!(h.transform_len(), 1 << log2_len_for(top).unwrap());
                    assert_eq!(*h.total(), BigUint::from(hi + 1 - lo.min(hi + 1)));
                }
            }
        }
    }

    #[test]
    fn huge_ranges_have_two_terms() {
        let values = [0u32, 1, 2];
        let c = certificate(0, 3, 0);
        let hi = BigUint::from(10u8).pow(30u32);
        let h = Histogram::from_period(values.to_vec(), &c, 1u8, hi.clone()).unwrap();
        assert_eq!(h.terms().len(), 2);
        assert_eq!(*h.total(), hi.clone());
        // 1..=10^30: value 1 at 1, 4, …: (10^30 + 2) / 3 of them.
        assert_eq!(h.count(1), (&hi + 2u32) / 3u32);
        assert_eq!(h.count(0), &hi / 3u32);
    }

    #[test]
    fn saltus_growing_past_the_limit_is_refused_unless_a_power_of_two() {
        let c = certificate(0, 3, 3);
        let err = Histogram::from_period(vec![0, 1, 2], &c, 0u32, BigUint::from(10u8).pow(15)).unwrap_err();
        assert!(matches!(err, Error::OutOfMemory { .. }), "{err}");
        assert!(err.to_string().contains("Grundy values up to"), "{err}");
        assert!(err.to_string().contains("power-of-two saltus"), "{err}");
        // Nim (saltus 1) and saltus 4 over any range: progressions.
        let nim = certificate(0, 1, 1);
        let h = Histogram::from_period(vec![0], &nim, 0u32, BigUint::from(10u8).pow(15)).unwrap();
        assert_eq!((h.is_structured(), h.log2_len()), (true, 50));
        let c = certificate(1, 2, 4);
        let h = Histogram::from_period(vec![3, 0, 1], &c, 0u32, BigUint::from(10u8).pow(40)).unwrap();
        assert_eq!(h.progressions().unwrap().0, 2);
        assert_eq!(*h.total(), BigUint::from(10u8).pow(40) + 1u8);
    }
}
