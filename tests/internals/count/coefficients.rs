mod tests {
    use nimcount::internals::count::coefficients::*;
    use num_bigint::{BigInt, BigUint};
    use num_integer::Integer;
    use num_traits::{One, ToPrimitive};

    use nimcount::internals::ring::Residues;
    use nimcount::internals::ring::{Big, OddWord, TwoWord};

    /// `C(n, i)` exactly.
    fn binomial(n: &BigInt, i: u64) -> BigInt {
        if i == 0 {
            return BigInt::one();
        }
        let mut c = BigInt::one();
        for t in 0..i {
            c = c * (n - t) / (t + 1);
        }
        c
    }

    /// `c(Ĥ)` by the convolution of the two series, exactly.
    fn convolution(kind: Unordered, a: u64, b: u64, k: u64) -> BigInt {
        let (a, b) = (BigInt::from(a), BigInt::from(b));
        (0..=k)
            .map(|i| {
                let j = k - i;
                let (x, y) = match kind {
                    Unordered::Multiset => (binomial(&(&a + i - 1u32), i), binomial(&(&b + j - 1u32), j)),
                    Unordered::Set => (binomial(&a, i), binomial(&b, j)),
                };
                if j.is_multiple_of(2) { x * y } else { -(x * y) }
            })
            .sum()
    }

    fn check_all_moduli(kind: Unordered, a: u64, b: u64, k: u64) {
        let want = convolution(kind, a, b, k);
        let n = BigUint::from(a + b);
        let h = BigInt::from(a) - BigInt::from(b);
        assert_eq!(exact(kind, &n, &h, k), want, "{kind:?} A={a} B={b} k={k}");
        let (big_a, big_b) = (BigUint::from(a), BigUint::from(b));
        let max_factor = &n + k;
        let reduce = |m: &BigUint| want.mod_floor(&BigInt::from(m.clone())).to_biguint().unwrap();
        for m in [3u64, 5, 9, 15, 45, 7 * 11 * 13, 1_000_000_007, 3_486_784_401] {
            let r = OddWord::new(m);
            let bin = Binomials::new(&r, k, &max_factor).unwrap();
            let got = r.to_biguint(&bin.coefficient(kind, &big_a, &big_b));
            assert_eq!(got, reduce(&m.into()), "{kind:?} A={a} B={b} k={k} mod {m}");
        }
        for bits in [1, 3, 10, 64, 84, 128] {
            let r = TwoWord::new(bits);
            let bin = Binomials::new(&r, k, &max_factor).unwrap();
            let got = r.to_biguint(&bin.coefficient(kind, &big_a, &big_b));
            assert_eq!(got, reduce(&r.modulus()), "{kind:?} A={a} B={b} k={k} mod 2^{bits}");
        }
        for m in [BigUint::from(1_000_000_000u32), BigUint::from(720u32), BigUint::from(2u8).pow(200) * 3u32]
        {
            let r = Big::new(m.clone());
            let bin = Binomials::new(&r, k, &max_factor).unwrap();
            let got = r.to_biguint(&bin.coefficient(kind, &big_a, &big_b));
            assert_eq!(got, reduce(&m), "{kind:?} A={a} B={b} k={k} mod {m}");
        }
        if a + b > 0 && (kind == Unordered::Multiset || k <= a + b) {
            let total = match kind {
                Unordered::Multiset => binomial(&BigInt::from(a + b + k - 1), k),
                Unordered::Set => binomial(&BigInt::from(a + b), k),
            };
            let x = (a as f64 - b as f64) / (a + b) as f64;
            let got = ratio(kind, (a + b) as f64, x, k);
            let want = want.to_f64().unwrap() / total.to_f64().unwrap();
            assert!((got - want).abs() < 1e-9, "{kind:?} A={a} B={b} k={k}: {got} vs {want}");
        }
    }

    #[test]
    fn coefficients_agree_with_the_convolution_for_every_modulus() {
        for kind in [Unordered::Multiset, Unordered::Set] {
            for a in [0u64, 1, 2, 5, 12, 30] {
                for b in [0u64, 1, 3, 8, 25] {
                    for k in [0u64, 1, 2, 3, 4, 7, 12, 20] {
                        check_all_moduli(kind, a, b, k);
                    }
                }
            }
        }
    }

    #[test]
    fn huge_factors_cross_the_word_limit() {
        // A near 2^126 and 2^200: the big-integer walker, with and without bad primes.
        for a in [(BigUint::one() << 126u32) - 3u32, BigUint::one() << 200u32] {
            let b = BigUint::from(17u32);
            let n = &a + &b;
            let h = BigInt::from(a.clone()) - BigInt::from(b.clone());
            for kind in [Unordered::Multiset, Unordered::Set] {
                let k = 9;
                let want = exact(kind, &n, &h, k);
                for m in [BigUint::from(1_000_000_000u32), BigUint::from(998_244_353u32)] {
                    let r = Big::new(m.clone());
                    let bin = Binomials::new(&r, k, &(&n + k)).unwrap();
                    let got = r.to_biguint(&bin.coefficient(kind, &a, &b));
                    assert_eq!(
                        BigInt::from(got),
                        want.mod_floor(&BigInt::from(m.clone())),
                        "{kind:?} mod {m}"
                    );
                }
            }
        }
    }

    #[test]
    fn bad_primes_of_unfactorable_moduli() {
        let m = BigUint::from((1u128 << 89) - 1) * BigUint::from((1u128 << 89) - 1) * 6u32 * 70001u32;
        assert_eq!(bad_primes(&m, 100_000), vec![2, 3, 70001]);
        assert_eq!(bad_primes(&m, 5), vec![2, 3]);
        assert_eq!(bad_primes(&BigUint::from(1_000_000_007u32), 1000), Vec::<u64>::new());
    }
}

mod few_sizes_tests {
    use nimcount::internals::count::coefficients::*;
    use num_bigint::{BigInt, BigUint};

    use num_traits::{One, Zero};

    use nimcount::internals::histogram::Histogram;

    /// Every multiset (or set) of `k` of the sizes, by brute force: (losing, total).
    fn enumerate(values: &[u64], k: usize, kind: Unordered) -> (u128, u128) {
        fn go(values: &[u64], from: usize, left: usize, x: u64, repeat: bool, out: &mut (u128, u128)) {
            if left == 0 {
                out.1 += 1;
                out.0 += u128::from(x == 0);
                return;
            }
            for i in from..values.len() {
                go(values, if repeat { i } else { i + 1 }, left - 1, x ^ values[i], repeat, out);
            }
        }
        let mut out = (0, 0);
        go(values, 0, k, 0, kind == Unordered::Multiset, &mut out);
        out
    }

    /// The general path: `(1/F) Σ_j c(Ĥ_j)` with the O(k) recurrence [`exact`].
    fn through_coefficients(values: &[u64], k: u64, kind: Unordered) -> (BigInt, BigInt) {
        let d = values.iter().max().map_or(0, |&v| 64 - v.leading_zeros());
        let n = BigUint::from(values.len());
        let mut sum = BigInt::zero();
        let mut total = BigInt::zero();
        for j in 0..1u64 << d {
            let h: i64 = values.iter().map(|&v| if (v & j).count_ones() % 2 == 0 { 1 } else { -1 }).sum();
            let c = exact(kind, &n, &BigInt::from(h), k);
            if j == 0 {
                total = c.clone();
            }
            sum += c;
        }
        (sum >> d, total)
    }

    fn histogram(values: &[u64]) -> Histogram {
        let mut counts = vec![0u32; values.iter().max().map_or(1, |&v| v as usize + 1)];
        for &v in values {
            counts[v as usize] += 1;
        }
        Histogram::from_terms(vec![nimcount::internals::histogram::Term::new(BigUint::one(), counts)])
            .unwrap()
    }

    const KINDS: [Unordered; 2] = [Unordered::Multiset, Unordered::Set];

    #[test]
    fn few_sizes_match_brute_force_enumeration() {
        let cases: [&[u64]; 9] = [
            &[0],
            &[5],
            &[0, 0],
            &[3, 3],
            &[0, 7],
            &[1, 2],
            &[1, 2, 3],
            &[0, 1, 1, 4, 5],
            &[2, 2, 2, 6, 4, 1],
        ];
        for values in cases {
            let h = histogram(values);
            for kind in KINDS {
                for k in 0..=8usize {
                    let (losing, total) = enumerate(values, k, kind);
                    let got = few_sizes(Some(kind), &h, &BigUint::from(k), None).unwrap();
                    assert_eq!(
                        got,
                        (BigUint::from(losing), BigUint::from(total)),
                        "{values:?} {kind:?} k = {k}"
                    );
                }
            }
        }
    }

    #[test]
    fn few_sizes_match_the_coefficient_path() {
        let moduli = [1u64, 2, 7, 64, 720, 1_000_000_007, u64::MAX];
        for values in [&[6u64][..], &[0, 9], &[3, 5], &[4, 4], &[1, 2, 3, 7, 7, 12]] {
            let h = histogram(values);
            for kind in KINDS {
                for k in [0u64, 1, 2, 3, 5, 40, 41, 1000, 1001] {
                    let (losing, total) = through_coefficients(values, k, kind);
                    let (losing, total) = (losing.to_biguint().unwrap(), total.to_biguint().unwrap());
                    let k = BigUint::from(k);
                    assert_eq!(few_sizes(Some(kind), &h, &k, None), Some((losing.clone(), total.clone())));
                    for m in moduli {
                        let m = BigUint::from(m);
                        let got = few_sizes(Some(kind), &h, &k, Some(&m)).unwrap();
                        assert_eq!(got, (&losing % &m, &total % &m), "{values:?} {kind:?} k = {k} mod {m}");
                    }
                }
            }
        }
    }

    #[test]
    fn few_sizes_at_k_10_18() {
        let k = BigUint::from(10u64.pow(18));
        let m = BigUint::from(1_000_000_007u64);
        // One size: a single multiset, lost for even k whatever the value.
        assert_eq!(
            few_sizes(Some(Unordered::Multiset), &histogram(&[5]), &k, None),
            Some((1u8.into(), 1u8.into()))
        );
        assert_eq!(
            few_sizes(Some(Unordered::Multiset), &histogram(&[5]), &(&k + 1u8), None),
            Some((0u8.into(), 1u8.into()))
        );
        // Two sizes of different non-zero values, k even: the k/2 + 1 multisets (i, k − i), i even.
        let two = few_sizes(Some(Unordered::Multiset), &histogram(&[1, 2]), &k, Some(&m)).unwrap();
        assert_eq!(two, ((&k / 2u8 + 1u8) % &m, (&k + 1u8) % &m));
        // Equal values: every multiset of even k loses.
        let equal = few_sizes(Some(Unordered::Multiset), &histogram(&[3, 3]), &k, None).unwrap();
        assert_eq!(equal, (&k + 1u8, &k + 1u8));
        // Distinct sizes: none of k > N.
        let sets = few_sizes(Some(Unordered::Set), &histogram(&[1, 2]), &k, Some(&m)).unwrap();
        assert_eq!(sets, (0u8.into(), 0u8.into()));
        // Three sizes of values 1, 2, 3: the zero-XOR sets are {} and {1, 2, 3}; for even k
        // only {} has the right parity, so the losing multisets are those with every count
        // even, C(k/2 + 2, 2) of them.
        let three = few_sizes(Some(Unordered::Multiset), &histogram(&[1, 2, 3]), &k, None).unwrap();
        let half = &k / 2u8;
        assert_eq!(three.0, (&half + 2u8) * (&half + 1u8) / 2u8);
        assert_eq!(three.1, (&k + 2u8) * (&k + 1u8) / 2u8);
        // Ordered heaps and more than 64 sizes are not this closed form's.
        assert_eq!(few_sizes(None, &histogram(&[1, 2]), &k, None), None);
        let many: Vec<u64> = (0..65).collect();
        assert_eq!(few_sizes(Some(Unordered::Set), &histogram(&many), &k, None), None);
    }
}
