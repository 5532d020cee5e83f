mod tests {
    use nimcount::internals::game::splits::*;
    use num_bigint::{BigInt, BigUint};

    use num_traits::ToPrimitive;

    /// Every split of `r` into `parts` parts in the module's order, by looking at each.
    fn brute(labels: &[u32], n0: usize, p: usize, r: u64, parts: usize, target: u32) -> Vec<Vec<u64>> {
        let label = |n: u64| {
            let n = n as usize;
            if n < n0 + p { labels[n] } else { labels[n0 + (n - n0) % p] }
        };
        let mut out = Vec::new();
        if parts == 2 {
            for a in 1..=r / 2 {
                if label(a) ^ label(r - a) == target {
                    out.push(vec![a, r - a]);
                }
            }
        } else {
            for a in 1..=r / 3 {
                for b in a..=(r - a) / 2 {
                    if label(a) ^ label(b) ^ label(r - a - b) == target {
                        out.push(vec![a, b, r - a - b]);
                    }
                }
            }
        }
        out
    }

    #[test]
    fn splits_equal_those_found_one_by_one() {
        let mut state = 0x2545_F491_4F6C_DD1Du64;
        let mut random = |below: u64| {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            state % below
        };
        let mut checked = 0;
        for round in 0..60 {
            let (n0, p) = (random(6) as usize, 1 + random(5) as usize);
            let values: Vec<u32> = (0..n0 + p).map(|_| random(4) as u32).collect();
            let labels = PeriodicLabels::new(&values, n0 as u64, p as u64).unwrap();
            for r in 0..=40u64 {
                for parts in [2, 3] {
                    let target = random(4) as u32;
                    let accept = |l: &[&u32]| l.iter().fold(0, |x, &&g| x ^ g) == target;
                    let splits = Splits::new(labels, r.into(), parts, accept);
                    let listed: Vec<Vec<u64>> = splits
                        .clone()
                        .into_iter()
                        .map(|s| s.iter().map(|x| x.to_u64().unwrap()).collect())
                        .collect();
                    let expected = brute(&values, n0, p, r, parts, target);
                    assert_eq!(listed, expected, "round {round}: {values:?} n0 {n0} p {p}, {r} into {parts}");
                    assert_eq!(
                        splits.count(),
                        BigUint::from(expected.len()),
                        "round {round}: {r} into {parts}"
                    );
                    checked += expected.len();
                }
            }
        }
        assert!(checked > 10_000, "{checked}");
        // The labelling's own checks.
        assert!(PeriodicLabels::new(&[0u32, 1], 1, 0).is_none());
        assert!(PeriodicLabels::new(&[0u32, 1], 1, 2).is_none());
    }

    #[test]
    fn huge_heaps_are_counted_by_arithmetic() {
        // Kayles-like toy: labels 0, 1, 1, 2 repeating from 0 with period 4.
        let values = [0u32, 1, 1, 2];
        let labels = PeriodicLabels::new(&values, 0, 4).unwrap();
        let huge = BigUint::from(10u32).pow(30) + 7u8;
        // With the identity test, every split counts: ⌊r/2⌋ pairs, and the triples.
        let pairs = Splits::new(labels, huge.clone(), 2, |_: &[&u32]| true);
        assert_eq!(pairs.count(), &huge / 2u8);
        let listed: Vec<_> = pairs.into_iter().take(3).collect();
        assert_eq!(listed[2], [BigUint::from(3u8), &huge - 3u8]);
        // Triples of r: the partitions of r into 3 parts, round(r²/12).
        let triples = Splits::new(labels, huge.clone(), 3, |_: &[&u32]| true);
        assert_eq!(triples.count(), (&huge * &huge + 6u8) / 12u8);
        // The floor sum against its definition, negative offsets included.
        for (n, m, a, b) in [(0i64, 3i64, 2i64, -5i64), (7, 4, 3, -9), (10, 6, 5, 11), (5, 1, 0, -3)] {
            let direct: i64 = (0..n).map(|i| (a * i + b).div_euclid(m)).sum();
            let [n, m, a, b] = [n, m, a, b].map(BigInt::from);
            assert_eq!(floor_sum(&n, &m, &a, &b), BigInt::from(direct));
        }
    }
}
