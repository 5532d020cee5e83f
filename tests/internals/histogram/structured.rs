mod tests {
    use nimcount::internals::histogram::Histogram;
    use nimcount::internals::histogram::structured::*;
    use num_bigint::BigUint;
    use num_traits::{One, Zero};

    #[test]
    fn arrays_match_the_progressions() {
        let big = BigUint::from(u64::MAX) * 5u8 + 3u8;
        let h = Histogram::from_progressions(
            2,
            vec![
                Progression { residue: 1, lo: 0u8.into(), hi: 3u8.into(), weight: 2u8.into() },
                Progression { residue: 1, lo: 2u8.into(), hi: 6u8.into(), weight: big.clone() },
                Progression { residue: 6, lo: 0u8.into(), hi: 0u8.into(), weight: 1u8.into() }, // 2 + 4·1
                Progression { residue: 3, lo: 4u8.into(), hi: 2u8.into(), weight: 9u8.into() }, // empty
                Progression { residue: 0, lo: 0u8.into(), hi: 0u8.into(), weight: 0u8.into() }, // no weight
            ],
        )
        .unwrap();
        assert_eq!(h.log2_len(), 5); // largest value 1 + 4·6 = 25
        let array = h.to_array().unwrap();
        assert_eq!(array.log2_len(), 5);
        assert_eq!(array.total(), h.total());
        for v in 0..40u64 {
            let mut want = BigUint::zero();
            if v % 4 == 1 && v / 4 <= 3 {
                want += 2u8;
            }
            if v % 4 == 1 && (2..=6).contains(&(v / 4)) {
                want += &big;
            }
            if v == 6 {
                want += 1u8;
            }
            assert_eq!(h.count(v), want, "value {v}");
            assert_eq!(array.count(v), want, "value {v}");
        }
        assert_eq!(h.max_value(), Some(25u8.into()));
    }

    #[test]
    fn weights_longer_than_the_progressions_make_one_term_each() {
        let huge = BigUint::one() << 100_000u32;
        let h = Histogram::from_intervals([
            (0u8.into(), 2u8.into(), huge.clone() + 1u8),
            (2u8.into(), 5u8.into(), huge.clone()),
        ])
        .unwrap();
        let array = h.to_array().unwrap();
        assert_eq!(array.terms().len(), 2);
        assert_eq!(array.total(), h.total());
        for v in 0..8u64 {
            assert_eq!(array.count(v), h.count(v), "value {v}");
        }
        assert_eq!(array.count(2), &huge * 2u8 + 1u8);
    }

    #[test]
    fn subtraction_intervals_follow_the_formula() {
        for (a, b) in [(1u64, 1u64), (1, 3), (2, 3), (3, 3), (3, 10), (5, 7), (4, 17)] {
            let p = a + b;
            for lo in 0..40u64 {
                for hi in lo..lo + 3 * p + 5 {
                    let h = subtraction_interval(a, b, &lo.into(), &hi.into()).unwrap();
                    let mut want = std::collections::BTreeMap::new();
                    for n in lo..=hi {
                        *want.entry((n % p) / a).or_insert(0u64) += 1;
                    }
                    for v in 0..(p / a + 3) {
                        let count = want.get(&v).copied().unwrap_or(0);
                        assert_eq!(h.count(v), count.into(), "{a}-{b} over {lo}..={hi}, value {v}");
                    }
                    assert_eq!(*h.total(), BigUint::from(hi - lo + 1));
                }
            }
        }
    }

    #[test]
    fn shifts_stop_at_the_largest_value() {
        let h = Histogram::from_progressions(
            40,
            vec![Progression { residue: 5, lo: 0u8.into(), hi: 0u8.into(), weight: 1u8.into() }],
        )
        .unwrap();
        assert_eq!(h.progressions().unwrap().0, 3);
        assert_eq!(h.to_array().unwrap().count(5), 1u8.into());
    }
}
