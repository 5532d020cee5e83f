mod tests {
    use nimcount::internals::ring::modular::*;

    use nimcount::internals::ring::Ring;

    use nimcount::internals::simd::Backend;

    const PRIMES32: [u32; 4] = [3, 65_537, 998_244_353, 2_147_483_647];

    #[test]
    fn moduli_outside_the_range_are_refused() {
        for m in [0, 2, 1 << 31, u32::MAX - 1] {
            assert!(Mod32::new(m).is_err(), "{m}");
        }
        assert!(Mod32::new(u32::MAX).is_err());
        for m in [0, 2, 1 << 63, u64::MAX] {
            assert!(Mod64::new(m).is_err(), "{m}");
        }
        assert!(Mod32::new(1).is_ok() && Mod64::new(1).is_ok());
    }

    #[test]
    fn mod32_arithmetic_matches_u64_reference_on_nasty_values() {
        for m in PRIMES32.into_iter().chain([1, 9, 15, 999_999_999, Mod32::MAX_MODULUS - 2]) {
            let ring = Mod32::new(m).unwrap();
            let nasty = [0, 1, 2, m / 2, m / 2 + 1, m.saturating_sub(2), m - 1];
            for &a in nasty.iter().filter(|&&a| a < m) {
                for &b in nasty.iter().filter(|&&b| b < m) {
                    let (a64, b64, m64) = (u64::from(a), u64::from(b), u64::from(m));
                    assert_eq!(u64::from(ring.add(a, b)), (a64 + b64) % m64);
                    assert_eq!(u64::from(ring.sub(a, b)), (a64 + m64 - b64) % m64);
                    assert_eq!(u64::from(ring.mul(a, b)), a64 * b64 % m64);
                }
            }
        }
    }

    #[test]
    fn mod64_arithmetic_matches_u128_reference_on_nasty_values() {
        for m in [1u64, 3, 1_000_000_007, (1 << 61) - 1, Mod64::MAX_MODULUS, Mod64::MAX_MODULUS - 2] {
            let ring = Mod64::new(m).unwrap();
            let nasty = [0, 1, 2, m / 2, m / 2 + 1, m.saturating_sub(2), m - 1];
            for &a in nasty.iter().filter(|&&a| a < m) {
                for &b in nasty.iter().filter(|&&b| b < m) {
                    let (a1, b1, m1) = (u128::from(a), u128::from(b), u128::from(m));
                    assert_eq!(u128::from(ring.add(a, b)), (a1 + b1) % m1);
                    assert_eq!(u128::from(ring.sub(a, b)), (a1 + m1 - b1) % m1);
                    assert_eq!(u128::from(ring.mul(a, b)), a1 * b1 % m1);
                }
            }
        }
    }

    /// Every backend's vectorised power against `pow_mod`, on nasty values and exponents, with
    /// lengths that leave a scalar tail, serial and parallel.
    #[test]
    fn powers_on_every_backend_match_pow_mod() {
        for m in [1u32, 3, 9, 2835, 998_244_353, 1_000_000_007, Mod32::MAX_MODULUS] {
            let ring = Mod32::new(m).unwrap();
            let mut x: Vec<u32> = (0..20_000u32).map(|i| i.wrapping_mul(2_654_435_761) % m).collect();
            x.extend([0, 1 % m, m - 1, m / 2, m.saturating_sub(2)].iter().cycle().take(77));
            for e in [0u64, 1, 2, 3, 31, 32, 1 << 31, u64::from(m - 1), u64::from(m), u64::MAX] {
                let expected: Vec<u32> = x
                    .iter()
                    .map(|&v| nimcount::internals::arith::pow_mod(u64::from(v), e, u64::from(m)) as u32)
                    .collect();
                for backend in Backend::ALL {
                    if !backend.is_available() {
                        eprintln!("SKIPPED: powers on {backend} (this CPU lacks it)");
                        continue;
                    }
                    for parallel in [false, true] {
                        let mut y = x.clone();
                        ring.pow_each(&mut y, &e.into(), backend, parallel, nimcount::internals::internal())
                            .unwrap();
                        assert_eq!(y, expected, "m = {m}, e = {e}, {backend}");
                    }
                }
            }
        }
        let ring = Mod64::new((1 << 61) - 1).unwrap();
        let x: Vec<u64> =
            (0..1000u64).map(|i| i.wrapping_mul(0x9E37_79B9_7F4A_7C15) % ((1 << 61) - 1)).collect();
        let mut y = x.clone();
        ring.pow_each(&mut y, &12345u32.into(), Backend::best(), true, nimcount::internals::internal())
            .unwrap();
        let expected: Vec<u64> =
            x.iter().map(|&v| nimcount::internals::arith::pow_mod(v, 12345, (1 << 61) - 1)).collect();
        assert_eq!(y, expected);
    }

    #[test]
    fn halving_is_multiplication_by_the_inverse_of_a_power_of_two() {
        for m in [1u32, 3, 998_244_353, Mod32::MAX_MODULUS] {
            let ring = Mod32::new(m).unwrap();
            for log2 in [0, 1, 5, 31, 40] {
                let mut data: Vec<u32> = [0, 1, m / 2, m - 1].iter().map(|&x| x % m).collect();
                let original = data.clone();
                ring.divide_by_power_of_two(&mut data, log2, false).unwrap();
                let two_pow = nimcount::internals::arith::pow_mod(2, u64::from(log2), u64::from(m)) as u32;
                let back: Vec<u32> = data.iter().map(|&x| ring.mul(x, two_pow)).collect();
                assert_eq!(back, original, "m = {m}, log2 = {log2}");
            }
        }
        for m in [1u64, 3, Mod64::MAX_MODULUS] {
            let ring = Mod64::new(m).unwrap();
            let mut data = vec![0, 1 % m, m / 2, m - 1];
            let original = data.clone();
            ring.divide_by_power_of_two(&mut data, 63, true).unwrap();
            let two_pow = nimcount::internals::arith::pow_mod(2, 63, m);
            let back: Vec<u64> = data.iter().map(|&x| ring.mul(x, two_pow)).collect();
            assert_eq!(back, original, "m = {m}");
        }
    }
}
