mod tests {
    use nimcount::internals::count::geometric::*;
    use nimcount::internals::ring::Residues;
    use nimcount::internals::ring::{Big, OddWord, Ring, TwoWord};
    use num_bigint::{BigInt, BigUint};
    use num_integer::Integer;
    use num_traits::{One, Zero};

    fn plain(v: &BigInt, lo: u64, hi: u64) -> BigInt {
        (lo..=hi).map(|k| num_traits::pow::Pow::pow(v, k)).sum()
    }

    /// Exact and modular series against the plain sum, for every small range including those from
    /// 0, with values 0, ±1, ±2, 3 and moduli odd, even (powers of two), and where `v ≡ 1`.
    #[test]
    fn geometric_series_equal_the_plain_sums() {
        for v in [-3i64, -2, -1, 0, 1, 2, 3, 5] {
            let v = BigInt::from(v);
            for lo in 0u64..=6 {
                for hi in lo..=lo + 9 {
                    let expected = plain(&v, lo, hi);
                    let (l, h) = (BigUint::from(lo), BigUint::from(hi));
                    assert_eq!(geometric_exact(&v, &l, &h), expected, "{v} over {lo}..={hi}");
                    let len = BigUint::from(hi - lo + 1);
                    for m in [998_244_353u64, 9, 15, 3, 7] {
                        let r = OddWord::new(m);
                        let x = r.residue_big(&v.mod_floor(&BigInt::from(m)).to_biguint().unwrap());
                        let got = r.to_biguint(&geometric(&r, x, &r.reduce_exponent(&l), &len));
                        let want = expected.mod_floor(&BigInt::from(m)).to_biguint().unwrap();
                        assert_eq!(got, want, "{v} over {lo}..={hi} mod {m}");
                    }
                    for bits in [1u32, 5, 64, 100] {
                        let r = TwoWord::new(bits);
                        let m = BigInt::one() << bits;
                        let x = r.residue_big(&v.mod_floor(&m).to_biguint().unwrap());
                        let got = r.to_biguint(&geometric(&r, x, &r.reduce_exponent(&l), &len));
                        assert_eq!(got, expected.mod_floor(&m).to_biguint().unwrap(), "mod 2^{bits}");
                    }
                    let m = BigUint::from(3u32).pow(90);
                    let r = Big::new(m.clone());
                    let x = r.residue_big(&v.mod_floor(&BigInt::from(m.clone())).to_biguint().unwrap());
                    let got = r.to_biguint(&geometric(&r, x, &r.reduce_exponent(&l), &len));
                    assert_eq!(got, expected.mod_floor(&BigInt::from(m)).to_biguint().unwrap());
                }
            }
        }
        // A huge range: modulo 7 the value 2 has order 3, so the sum of 2^k over 3·10^30 consecutive k is 10^30 · (1 + 2 + 4) ≡ 0.
        let r = OddWord::new(7);
        let len = BigUint::from(3u32) * BigUint::from(10u32).pow(30);
        assert_eq!(r.to_biguint(&geometric(&r, r.residue_u128(2), &BigUint::zero(), &len)), BigUint::zero());
        // And v ≡ 1 counts the terms: 10^30 mod 7 = 1.
        let len = BigUint::from(10u32).pow(30);
        assert_eq!(r.to_biguint(&geometric(&r, r.residue_u128(8), &BigUint::zero(), &len)), BigUint::one());
    }
}
