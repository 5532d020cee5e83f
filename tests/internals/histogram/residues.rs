mod tests {

    use nimcount::internals::histogram::Histogram;

    use nimcount::internals::histogram::Term;
    use num_bigint::BigUint;
    use num_traits::One;

    #[test]
    fn residues_agree_with_big_counts() {
        let big = BigUint::from(u64::MAX) * 3u32 + 5u32;
        let h = Histogram::from_counts([(0, big.clone()), (3, 7u32.into()), (3, BigUint::from(u64::MAX))])
            .unwrap();
        assert_eq!(h.count(3), BigUint::from(u64::MAX) + 7u32);
        // Also the shapes `P` and `q · P + R`, with nasty counts and weights.
        let two = Histogram::from_terms(vec![
            Term::new(BigUint::from(10u8).pow(30), vec![u32::MAX, 0, 1, u32::MAX - 1]),
            Term::new(BigUint::one(), vec![u32::MAX, 7, 0, 1]),
        ])
        .unwrap();
        let one =
            Histogram::from_terms(vec![Term::new(BigUint::from(u64::MAX), vec![u32::MAX, 0, 1, 5])]).unwrap();
        for h in [&h, &two, &one] {
            let exact: Vec<BigUint> = (0..4).map(|g| h.count(g)).collect();
            for m in [1u64, 2, 7, 1_000_000_007, (1 << 63) + 5, u64::MAX] {
                let want: Vec<BigUint> = exact.iter().map(|c| c % m).collect();
                assert_eq!(h.residues(m).into_iter().map(BigUint::from).collect::<Vec<_>>(), want, "m = {m}");
            }
            for m in [1u32, 2, 3, 998_244_353, (1 << 31) - 1, 1 << 31, u32::MAX] {
                let want: Vec<BigUint> = exact.iter().map(|c| c % m).collect();
                assert_eq!(
                    h.residues_u32(m).into_iter().map(BigUint::from).collect::<Vec<_>>(),
                    want,
                    "m = {m}"
                );
            }
            let want: Vec<BigUint> = exact.iter().map(|c| c % (BigUint::one() << 64)).collect();
            assert_eq!(h.residues_wrapping().into_iter().map(BigUint::from).collect::<Vec<_>>(), want);
        }
    }

    /// Every slot range (from 0, to the end, single slots, empty) against the exact counts,
    /// modulo odd, even and extreme words and powers of two up to 2^128, for dense terms and
    /// terms over stretches of values (a periodic histogram).
    #[test]
    fn residues_of_slots_agree_with_big_counts() {
        let values: Vec<u32> = (0..40u32).map(|n| (n * 7 + n / 3) % 13).collect();
        let periodic = Histogram::from_values(&values, 3, 39).unwrap();
        let big = BigUint::from(u64::MAX) * 3u32 + 5u32;
        let dense = Histogram::from_terms(vec![
            Term::new(BigUint::from(10u8).pow(40) + 1u8, vec![u32::MAX, 0, 1, u32::MAX - 1, 9, 0, 0, 3]),
            Term::new(big, vec![u32::MAX, 7, 0, 1]),
        ])
        .unwrap();
        // Value intervals (a structured histogram), filled without an array of all the slots.
        let b = |x: u128| BigUint::from(x);
        let intervals = Histogram::from_intervals([
            (b(0), b(5), b(u128::MAX)),
            (b(3), b(40), b(7)),
            (b(100), b(100), b(1) << 70u32),
            (b(17), b(17), b(1)),
            (b(64), b(127), b(u64::MAX.into())),
        ])
        .unwrap();
        assert!(intervals.is_structured());
        for h in [&periodic, &dense, &intervals] {
            let len = h.transform_len();
            let exact: Vec<BigUint> = (0..len as u64).map(|g| h.count(g)).collect();
            let mut ranges = vec![0..len, 0..0, len..len, 0..1, len - 1..len, 1..len - 1];
            ranges.extend((0..len).step_by(3).map(|s| s..(s + 5).min(len)));
            for slots in ranges {
                let want = |m: &BigUint| exact[slots.clone()].iter().map(|c| c % m).collect::<Vec<_>>();
                for m in [1u64, 2, 7, 1_000_000_007, 1 << 40, (1 << 63) + 5, u64::MAX] {
                    let mut out = vec![0u64; slots.len()];
                    h.residues_of_slots_into(m, slots.clone(), &mut out);
                    assert_eq!(
                        out.into_iter().map(BigUint::from).collect::<Vec<_>>(),
                        want(&m.into()),
                        "m = {m}"
                    );
                }
                for m in [1u64, 3, 998_244_353, u64::from(u32::MAX)] {
                    let mut out = vec![0u32; slots.len()];
                    h.residues_of_slots_into(m, slots.clone(), &mut out);
                    assert_eq!(
                        out.into_iter().map(BigUint::from).collect::<Vec<_>>(),
                        want(&m.into()),
                        "m = {m}"
                    );
                }
                for bits in [0u32, 1, 31, 64, 65, 84, 127, 128] {
                    let mut out = vec![0u128; slots.len()];
                    h.residues_wrapping_of_slots_into(bits, slots.clone(), &mut out);
                    let m = BigUint::one() << bits;
                    assert_eq!(out.into_iter().map(BigUint::from).collect::<Vec<_>>(), want(&m), "2^{bits}");
                    if bits <= 64 {
                        let mut out = vec![0u64; slots.len()];
                        h.residues_wrapping_of_slots_into(bits, slots.clone(), &mut out);
                        assert_eq!(
                            out.into_iter().map(BigUint::from).collect::<Vec<_>>(),
                            want(&m),
                            "2^{bits}"
                        );
                    }
                }
            }
        }
    }
}
