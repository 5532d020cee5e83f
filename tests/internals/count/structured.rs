mod tests {
    use nimcount::internals::count::structured::*;
    use std::collections::HashMap;

    use nimcount::internals::count::MAX_STEPS;
    use num_bigint::{BigInt, BigUint};
    use num_traits::One;

    use nimcount::internals::histogram::Histogram;
    use nimcount::internals::histogram::Progression;
    use rayon::prelude::*;

    /// The classes of the histogram of `progressions`, whose transform has `2^d` slots.
    fn classes_of(d: u32, shift: u32, progressions: &[Progression]) -> Vec<(BigInt, BigUint)> {
        let h = Histogram::from_progressions(shift, progressions.to_vec()).unwrap();
        assert_eq!(h.log2_len(), d);
        let s = StructuredSpectrum::new(&h, MAX_STEPS).unwrap();
        s.values.into_iter().zip(s.multiplicity).collect()
    }

    /// The multiset of the structured spectrum of `h`, checked for distinct values and the
    /// zero class.
    fn structured_classes(h: &Histogram) -> HashMap<i128, u64> {
        let s = StructuredSpectrum::new(h, MAX_STEPS).unwrap();
        assert_eq!(s.values[s.zero_class], BigInt::from(h.total().clone()));
        let mut out = HashMap::new();
        for (v, m) in s.values.iter().zip(&s.multiplicity) {
            let v = i128::try_from(v).unwrap();
            assert!(out.insert(v, u64::try_from(m).unwrap()).is_none(), "values are distinct");
        }
        out
    }

    /// Checks the classes of every interval `[a, b]` of `[0, 2^d)` with `a` in `starts` against
    /// the array transform over `2^d` slots; the number of intervals checked.
    ///
    /// `T_m` = transform of `1[0 <= v < m]`, for every `m`, by adding one row of characters at a
    /// time (the definition; no closed form). Then `[a, b]` is `T_{b+1} − T_a`, and its multiset
    /// of values must be the structured one.
    fn check_intervals(d: u32, starts: &[usize]) -> usize {
        let f = 1usize << d;
        let mut table = vec![0i16; (f + 1) * f];
        for m in 0..f {
            let (previous, next) = table.split_at_mut((m + 1) * f);
            for j in 0..f {
                let character = if (m & j).count_ones() % 2 == 0 { 1 } else { -1 };
                next[j] = previous[m * f + j] + character;
            }
        }
        let row = |m: usize| &table[m * f..(m + 1) * f];
        starts
            .par_iter()
            .map(|&a| {
                // How many slots have each value v, at bins[v + f]; every bin is back to 0 once
                // an interval's classes have all been matched.
                let mut bins = vec![0u32; 2 * f + 1];
                for b in a..f {
                    for (&x, &y) in row(b + 1).iter().zip(row(a)) {
                        bins[(i32::from(x - y) + f as i32) as usize] += 1;
                    }
                    // Σ w · 1[v < m]: +1 at b + 1 (dropped at 2^d), −1 at a (dropped at 0).
                    let (mut ends, mut weights) = (Vec::new(), Vec::new());
                    if b + 1 < f {
                        ends.push((b + 1) as i128);
                        weights.push(1i128);
                    }
                    if a > 0 {
                        ends.push(a as i128);
                        weights.push(-1);
                    }
                    let mut sink = Sink::default();
                    sink.add((b + 1 - a) as i128, (0, 0));
                    interval_classes(d, &ends, &weights, &mut sink);
                    // Distinct values whose multiplicities add up to f, each taken by exactly
                    // that many slots of the array: the multisets are equal.
                    let mut total = 0;
                    for (value, ranges) in &sink.classes {
                        let m: u64 = ranges.iter().map(|&(lo, hi)| (2u64 << hi) - (1u64 << lo)).sum();
                        let bin = usize::try_from(*value + f as i128).expect("|value| <= f");
                        assert_eq!(u64::from(bins[bin]), m, "[{a}, {b}], value {value}");
                        bins[bin] = 0;
                        total += m;
                    }
                    assert_eq!(total, f as u64, "[{a}, {b}]");
                }
                f - a
            })
            .sum()
    }

    #[test]
    fn every_interval_below_2_9_matches_the_array_transform() {
        let starts: Vec<usize> = (0..1 << 9).collect();
        assert_eq!(check_intervals(9, &starts), (1 << 9) * ((1 << 9) + 1) / 2);
    }

    #[test]
    fn intervals_below_2_12_match_the_array_transform() {
        // Every interval starting at the first and last 8 values, at powers of two and their
        // neighbours, and at fixed pseudo-random values.
        let mut starts: Vec<usize> = (0..8).chain(4088..4096).collect();
        for i in 3..12 {
            starts.extend([(1 << i) - 1, 1 << i, (1 << i) + 1]);
        }
        starts.extend((1..=16).map(|i| (i * 2654435761usize) % 4096));
        starts.sort_unstable();
        starts.dedup();
        let want: usize = starts.iter().map(|a| 4096 - a).sum();
        assert_eq!(check_intervals(12, &starts), want);
    }

    /// Every interval of `[0, 2^12)` (about two CPU minutes): `cargo test --release -- --ignored`.
    #[test]
    #[ignore]
    fn every_interval_below_2_12_matches_the_array_transform() {
        let starts: Vec<usize> = (0..1 << 12).collect();
        assert_eq!(check_intervals(12, &starts), (1 << 12) * ((1 << 12) + 1) / 2);
    }

    #[test]
    fn random_unions_match_the_array_transform() {
        let mut rng = crate::testing::Rng(0x2545_F491_4F6C_DD1D);
        let mut next = |n: u64| rng.next() % n;
        for case in 0..1500 {
            let bits = 1 + next(10);
            let shift = if case % 3 == 0 { next(4) as u32 } else { 0 };
            let count = 1 + next(6);
            let progressions: Vec<Progression> = (0..count)
                .map(|_| {
                    let a = next(1 << bits);
                    let b = a + next(1 << bits);
                    let weight = match next(4) {
                        0 => BigUint::from(u64::MAX) * (1 + next(1000)),
                        1 => 1u8.into(),
                        _ => (1 + next(100)).into(),
                    };
                    Progression { residue: next(1 << shift), lo: a.into(), hi: b.into(), weight }
                })
                .collect();
            let h = Histogram::from_progressions(shift, progressions.clone()).unwrap();
            assert_eq!(
                structured_classes(&h),
                crate::count::spectrum::array_multiset(&h),
                "case {case}: {shift} {progressions:?}"
            );
        }
    }

    #[test]
    fn huge_nim_ranges_have_few_classes() {
        // 1..=2^n − 1 over 2^n slots: N once, −1 on every other slot.
        for n in [1u32, 2, 5, 64, 1000, 100_000] {
            let top = (BigUint::one() << n) - 1u8;
            let classes = classes_of(
                n,
                0,
                &[Progression { residue: 0, lo: 1u8.into(), hi: top.clone(), weight: 1u8.into() }],
            );
            let want: Vec<(BigInt, BigUint)> = if n == 1 {
                vec![(1.into(), 1u8.into()), (BigInt::from(-1), 1u8.into())]
            } else {
                vec![(BigInt::from(top.clone()), 1u8.into()), (BigInt::from(-1), top.clone())]
            };
            let mut got = classes;
            got.sort();
            let mut want = want;
            want.sort();
            assert_eq!(got, want, "n = {n}");
        }
    }

    #[test]
    fn orthogonal_complements() {
        let mut basis = Vec::new();
        // Relations 0b011 and 0b110 over 3 endpoints: patterns with p0 = p1 = p2.
        orthogonal([0b011, 0b110].into_iter(), 3, &mut basis);
        assert_eq!(basis, vec![0b111]);
        orthogonal([].into_iter(), 2, &mut basis);
        assert_eq!(basis, vec![0b01, 0b10]);
        orthogonal([0b1, 0b1].into_iter(), 1, &mut basis);
        assert!(basis.is_empty());
    }
}
