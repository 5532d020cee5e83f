mod barrett;
mod montgomery;
mod shoup;

mod tests {
    use nimcount::internals::arith::*;

    use num_bigint::BigUint;
    use num_integer::Integer;
    use num_traits::{One, ToPrimitive};

    /// Brute-force power, one multiplication at a time.
    fn slow_pow(a: u64, k: u64, m: u64) -> u64 {
        (0..k).fold(1 % m, |acc, _| mul_mod(acc, a, m))
    }

    #[test]
    fn primality_matches_trial_division_and_known_primes() {
        let trial = |n: u64| n >= 2 && (2..).take_while(|d| d * d <= n).all(|d| !n.is_multiple_of(d));
        for n in 0..5000 {
            assert_eq!(is_prime(n), trial(n), "{n}");
        }
        for p in [998_244_353, 1_000_000_007, (1 << 61) - 1, 18_446_744_073_709_551_557] {
            assert!(is_prime(p), "{p}");
        }
        // Strong pseudoprimes to several bases, and Carmichael numbers.
        for c in [3_215_031_751u64, 2_152_302_898_747, 3_474_749_660_383, 341_550_071_728_321, 561, 41041] {
            assert!(!is_prime(c), "{c}");
        }
    }

    #[test]
    fn factorisation_multiplies_back_and_has_prime_parts() {
        let samples = [
            1u64,
            2,
            97,
            1 << 40,
            1_000_000_000,
            1_234_567_890,
            998_244_353 * 3,
            4_294_967_291 * 4_294_967_279, // two primes near 2^32
            600_851_475_143,
            u64::MAX,
            (1 << 63) - 25,
            999_999_999_999_999_989,
        ];
        for n in samples {
            let f = factor(n);
            let product: u128 = f.iter().map(|&(p, e)| (p as u128).pow(e)).product();
            assert_eq!(product, n as u128, "{n}: {f:?}");
            assert!(f.iter().all(|&(p, _)| is_prime(p)), "{n}: {f:?}");
            assert!(f.windows(2).all(|w| w[0].0 < w[1].0), "{n}: {f:?}");
        }
    }

    #[test]
    fn inverses_exist_exactly_for_units() {
        for m in 1..60u64 {
            for a in 0..m {
                match inv_mod(a, m) {
                    Some(x) => assert_eq!(mul_mod(a, x, m), 1 % m, "{a} mod {m}"),
                    None => assert_ne!(a.gcd(&m), 1, "{a} mod {m}"),
                }
            }
        }
    }

    #[test]
    fn exponent_rule_preserves_every_power_for_every_small_modulus() {
        // Includes bases sharing factors with m, exponents at and around multiples of λ,
        // and prime-power moduli where the threshold matters (8, 9, 16, 27, 32, ...).
        for m in 1..=200u64 {
            let rule = ExponentRule::for_modulus(m);
            for a in 0..m {
                for k in 0..100u64 {
                    let reduced = rule.reduce_u64(&BigUint::from(k)).unwrap();
                    assert!(reduced <= k, "reduction never grows the exponent");
                    assert_eq!(pow_mod(a, reduced, m), slow_pow(a, k, m), "{a}^{k} mod {m}");
                }
            }
        }
    }

    #[test]
    fn exponent_rule_on_huge_exponents() {
        let k: BigUint = BigUint::from(10u8).pow(100u32);
        for m in [998_244_353u64, 1_000_000_007, 1 << 32, 1_000_000_000, 1_234_567_890, 3 * 3 * 3 * 7] {
            let rule = ExponentRule::for_modulus(m);
            let e = rule.reduce_u64(&k).unwrap();
            for a in [0u64, 1, 2, 3, 6, m - 1, m / 2] {
                // (a^(10^50))^(10^50) computed independently by iterating pow_mod.
                let big_half = BigUint::from(10u8).pow(50u32);
                let direct = BigUint::from(a).modpow(&big_half, &m.into()).modpow(&big_half, &m.into());
                assert_eq!(BigUint::from(pow_mod(a, e, m)), direct, "{a}^(10^100) mod {m}");
            }
        }
    }

    #[test]
    fn big_factorisation_when_possible() {
        let m = BigUint::from(2u8).pow(64) * 1_000_000_007u64 * 3u32 * 3u32;
        let f = factor_big(&m).unwrap();
        assert_eq!(f, vec![(2u32.into(), 64), (3u32.into(), 2), (1_000_000_007u32.into(), 1)]);
        let m = BigUint::from((1u128 << 89) - 1) * BigUint::from((1u128 << 89) - 1);
        assert_eq!(factor_big(&m), None);
        assert_eq!(factor_big(&BigUint::one()), Some(vec![]));
    }

    #[test]
    fn chinese_remainders() {
        let (m1, m2) = (BigUint::from(1_953_125u32), BigUint::from(512u32));
        for x in [0u64, 1, 999_999_999, 123_456_789] {
            let r = crt(&(BigUint::from(x) % &m1), &m1, &(BigUint::from(x) % &m2), &m2);
            assert_eq!(r, BigUint::from(x));
        }
    }

    #[test]
    fn carmichael_values() {
        let lambda = |m: u64| ExponentRule::for_modulus(m).lambda.to_u64().unwrap();
        assert_eq!(lambda(1), 1);
        assert_eq!(lambda(2), 1);
        assert_eq!(lambda(4), 2);
        assert_eq!(lambda(8), 2);
        assert_eq!(lambda(1 << 32), 1 << 30);
        assert_eq!(lambda(15), 4);
        assert_eq!(lambda(998_244_353), 998_244_352);
        assert_eq!(ExponentRule::for_power_of_two(64).threshold, 64);
        assert_eq!(ExponentRule::for_power_of_two(0), ExponentRule::for_modulus(1));
    }
}
