mod tests {
    use nimcount::internals::ring::residue::*;

    use nimcount::internals::ring::{Mod32, Mod64, Ring, Wrap64};
    use num_bigint::BigUint;
    use num_integer::Integer;
    use num_traits::{One, ToPrimitive, Zero};

    fn check<R: Residues>(r: &R, big_m: &BigUint) {
        assert_eq!(r.modulus(), *big_m);
        let top = big_m.to_u128().unwrap_or(u128::MAX);
        let values: Vec<u128> = [0, 1, 2, 3, top / 2, top - 2, top - 1, 12345]
            .into_iter()
            .filter(|&v| BigUint::from(v) < *big_m)
            .collect();
        for &a in &values {
            let ea = r.residue_u128(a);
            assert_eq!(r.to_biguint(&ea), BigUint::from(a));
            let small = (a % 1000) as i64;
            assert_eq!(r.to_biguint(&r.residue_i64(-small)), (big_m - BigUint::from(small as u64)) % big_m);
            for &b in &values {
                let eb = r.residue_u128(b);
                let (ba, bb) = (BigUint::from(a), BigUint::from(b));
                assert_eq!(r.to_biguint(&r.add(ea.clone(), eb.clone())), (&ba + &bb) % big_m);
                assert_eq!(r.to_biguint(&r.sub(ea.clone(), eb.clone())), (&ba + big_m - &bb) % big_m);
                assert_eq!(r.to_biguint(&r.mul(ea.clone(), eb.clone())), (&ba * &bb) % big_m);
            }
            let many: Vec<R::Elem> = values.iter().map(|&v| r.residue_u128(v)).collect();
            let dot = values.iter().fold(BigUint::zero(), |s, &v| s + BigUint::from(a) * v) % big_m;
            let repeated = vec![ea.clone(); many.len()];
            assert_eq!(r.to_biguint(&r.dot(&repeated, &many)), dot, "{a} · values mod {big_m}");
            if let Some(inv) = r.inverse(&ea) {
                assert_eq!(r.to_biguint(&r.mul(ea.clone(), inv)), BigUint::one() % big_m);
            } else {
                assert!(!BigUint::from(a).gcd(big_m).is_one(), "{a} mod {big_m}");
            }
            for e in [0u64, 1, 2, 5, 64, 129, 1000] {
                let want = BigUint::from(a).modpow(&e.into(), big_m);
                assert_eq!(r.to_biguint(&r.pow(ea.clone(), &e.into())), want, "{a}^{e} mod {big_m}");
                let reduced = r.reduce_exponent(&e.into());
                assert!(reduced <= BigUint::from(e));
                assert_eq!(r.to_biguint(&pow_reduced(r, ea.clone(), &reduced)), want, "{a}^{e} mod {big_m}");
            }
        }
    }

    #[test]
    fn every_kind_of_residue_computes_exactly() {
        for m in [3u64, 9, 15, 1_000_000_007, (1 << 61) - 1, (1 << 63) - 25] {
            check(&OddWord::new(m), &m.into());
        }
        for bits in [1, 2, 3, 20, 63, 64, 84, 127, 128] {
            check(&TwoWord::new(bits), &(BigUint::one() << bits));
        }
        for m in [2u128, 10, 1_000_000_000, 1 << 100, (1 << 89) - 1, 3 * (1 << 70) + 1] {
            check(&Big::new(m.into()), &m.into());
        }
        for m in [3u32, 9, 998_244_353, (1 << 31) - 1] {
            check(&Mod32::new(m).unwrap(), &m.into());
        }
        for m in [3u64, 1_000_000_007, (1 << 63) - 25] {
            check(&Mod64::new(m).unwrap(), &m.into());
        }
        check(&Wrap64, &(BigUint::one() << 64));
    }

    #[test]
    fn huge_exponents_modulo_2_128_follow_the_exponent_rule() {
        let k: BigUint = "1000000000000000000000000000000".parse().unwrap();
        let ring = TwoWord::new(128);
        for x in [0u128, 1, 2, 3, u128::MAX, 1 << 64, (1 << 100) + 7] {
            let mut slow = 1u128;
            let mut base = x;
            for i in 0..k.bits() {
                if k.bit(i) {
                    slow = slow.wrapping_mul(base);
                }
                base = base.wrapping_mul(base);
            }
            assert_eq!(ring.pow(x, &k), slow, "{x}");
        }
    }
}
