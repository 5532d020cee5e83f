mod tests {
    use nimcount::internals::count::modulus::*;
    use num_bigint::BigUint;
    use num_traits::{One, Zero};

    #[test]
    fn parts_join_back_to_every_residue() {
        for m in [1u128, 2, 3, 12, 64, 1_000_000_007, 3 << 70, (1 << 64) - 59, u128::MAX] {
            let m = BigUint::from(m);
            let parts = Part::of(&m);
            let product = parts.iter().fold(BigUint::one(), |p, part| p * part.modulus());
            assert_eq!(product, m);
            for x in [0u128, 1, 5, 1 << 65, u128::MAX - 3] {
                let x = BigUint::from(x);
                let joined =
                    by_parts(&m, 2, |part| Ok(vec![&x % part.modulus(), (&x + 1u32) % part.modulus()]));
                assert_eq!(joined.unwrap(), [&x % &m, (&x + 1u32) % &m], "{x} mod {m}");
            }
        }
        assert!(check(Some(&BigUint::zero())).is_err());
        assert!(check(Some(&BigUint::one())).is_ok() && check(None).is_ok());
    }

    #[test]
    fn a_part_reads_the_losing_count_off_the_sum() {
        // S = 2^d · L for L = 123456789123 and d = 7.
        let (l, d) = (BigUint::from(123_456_789_123u64), 7);
        let s = &l << d;
        for m in [3u64, 1_000_000_007, (1 << 61) - 1] {
            assert_eq!(Part::Odd(m.into()).losing(&s % m, d), &l % m);
        }
        for a in [1u64, 5, 40, 64] {
            let wide = BigUint::one() << (a + u64::from(d));
            assert_eq!(Part::Two(a).losing(&s % &wide, d), &l % (BigUint::one() << a));
        }
        assert_eq!(winning(&5u32.into(), &7u32.into(), Some(&BigUint::from(10u32))), 8u32.into());
        assert_eq!(winning(&9u32.into(), &4u32.into(), None), 5u32.into());
    }
}
