mod tests {
    use nimcount::internals::count::moore::*;
    use num_bigint::BigUint;

    use nimcount::internals::progress::Silent;

    /// Every ordered tuple, checked column by column.
    fn brute(k: usize, q: u64, lo: u64, hi: u64) -> u64 {
        let mut count = 0;
        let mut tuple = vec![lo; k];
        loop {
            let lost = (0..64)
                .all(|c| (tuple.iter().filter(|&&h| h >> c & 1 == 1).count() as u64).is_multiple_of(q));
            count += u64::from(lost);
            let mut i = 0;
            loop {
                if i == k {
                    return count;
                }
                if tuple[i] < hi {
                    tuple[i] += 1;
                    break;
                }
                tuple[i] = lo;
                i += 1;
            }
        }
    }

    #[test]
    fn small_ranges_by_every_arithmetic() {
        for (k, kk, lo, hi) in
            [(3, 2, 0, 7), (4, 2, 3, 12), (3, 1, 5, 9), (4, 3, 1, 6), (2, 1, 6, 6), (3, 2, 5, 5)]
        {
            let expected = brute(k, kk + 1, lo, hi);
            let (lo, hi, heaps) = (BigUint::from(lo), BigUint::from(hi), BigUint::from(k));
            let exact = count(kk, (&lo, &hi), &heaps, None, false, &Silent).unwrap();
            assert_eq!(exact.0, expected.into(), "{k} heaps, K = {kk}, {lo}..={hi}");
            for m in [1u128, 2, 6, 97, (1 << 32) + 15, (1 << 64) - 59, u128::MAX] {
                let m = BigUint::from(m);
                let modular = count(kk, (&lo, &hi), &heaps, Some(&m), true, &Silent).unwrap();
                assert_eq!(modular.0, BigUint::from(expected) % &m, "mod {m}");
                assert_eq!(modular.1, exact.1.clone() % &m);
            }
        }
    }
}
