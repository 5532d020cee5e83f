mod tests {
    use nimcount::internals::arith::montgomery::*;

    #[test]
    fn montgomery_products_and_powers_match_plain_arithmetic_on_nasty_values() {
        for m in [1u32, 3, 9, 15, 65_537, 998_244_353, 999_999_999, (1 << 31) - 1] {
            let mont = Montgomery32::new(m);
            let nasty = [0, 1, 2, m / 2, m / 2 + 1, m.saturating_sub(2), m - 1];
            for &a in nasty.iter().filter(|&&a| a < m) {
                for &b in nasty.iter().filter(|&&b| b < m) {
                    let want = (u64::from(a) * u64::from(b) % u64::from(m)) as u32;
                    assert_eq!(mont.leave(mont.mul(mont.enter(a), mont.enter(b))), want, "{a}·{b} mod {m}");
                }
                for e in [0u64, 1, 2, 31, u64::from(m - 1), u64::MAX] {
                    assert_eq!(
                        u64::from(mont.pow(a, e)),
                        nimcount::internals::arith::pow_mod(u64::from(a), e, u64::from(m))
                    );
                }
            }
        }
        for m in [1u64, 3, 1_000_000_007, (1 << 61) - 1, (1 << 63) - 1, (1 << 63) - 25] {
            let mont = Montgomery64::new(m);
            let nasty = [0, 1, 2, m / 2, m / 2 + 1, m.saturating_sub(2), m - 1];
            for &a in nasty.iter().filter(|&&a| a < m) {
                for &b in nasty.iter().filter(|&&b| b < m) {
                    let want = (u128::from(a) * u128::from(b) % u128::from(m)) as u64;
                    assert_eq!(mont.mul_plain(a, b), want, "{a}·{b} mod {m}");
                    assert_eq!(mont.leave(mont.mul(mont.enter(a), mont.enter(b))), want);
                }
                for e in [0u64, 1, 2, 63, m - 1, u64::MAX] {
                    assert_eq!(mont.pow(a, &e), nimcount::internals::arith::pow_mod(a, e, m));
                }
            }
        }
    }

    /// `redc(t) · R ≡ t (mod m)` with `redc(t) < m`, checked with big integers.
    fn check_redc<W: Word + Into<u64>>(mont: &Montgomery<W>, t: W::Wide, t_big: &num_bigint::BigUint) {
        let m = num_bigint::BigUint::from(mont.modulus().into());
        let r: u64 = mont.redc(t).into();
        assert!(num_bigint::BigUint::from(r) < m, "redc({t_big}) = {r} not below {m}");
        assert_eq!((num_bigint::BigUint::from(r) << W::BITS) % &m, t_big % &m, "redc({t_big}) mod {m}");
    }

    #[test]
    fn reduction_holds_at_the_edges_of_its_bound() {
        use num_bigint::BigUint;
        // The largest moduli, the smallest, and ones whose inverse needs every Newton step.
        for m in [1u32, 3, 5, 0x5555_5555, (1 << 31) - 1, (1 << 31) - 3, 998_244_353] {
            let mont = Montgomery32::new(m);
            assert_eq!(m.wrapping_mul(mont.neg_inv()), u32::MAX, "−m⁻¹ for {m}");
            let top = u64::from(m) << 32; // the bound of redc: t < m · 2^32
            for t in [0, 1, u64::from(m) - 1, u64::from(m), top / 2, top - u64::from(m), top - 1] {
                check_redc(&mont, t, &BigUint::from(t));
            }
            // The largest product of residues, (m − 1)², also in Montgomery form.
            assert_eq!(mont.mul_plain(m - 1, m - 1), (1 % m), "(−1)² mod {m}");
            assert_eq!(mont.leave(mont.one()), 1 % m);
            assert_eq!(mont.pow(m - 1, 0), 1 % m);
        }
        for m in [1u64, 3, 0x5555_5555_5555_5555, (1 << 63) - 1, (1 << 63) - 25, (1 << 32) + 15] {
            let mont = Montgomery64::new(m);
            assert_eq!(m.wrapping_mul(mont.neg_inv()), u64::MAX, "−m⁻¹ for {m}");
            let top = u128::from(m) << 64;
            for t in [0, 1, u128::from(m) - 1, u128::from(m), top / 2, top - u128::from(m), top - 1] {
                check_redc(&mont, t, &BigUint::from(t));
            }
            assert_eq!(mont.mul_plain(m - 1, m - 1), (1 % m), "(−1)² mod {m}");
            assert_eq!(mont.leave(mont.one()), 1 % m);
            assert_eq!(mont.pow(m - 1, &0u64), 1 % m);
        }
    }

    #[test]
    #[should_panic(expected = "Montgomery32 needs an odd modulus below 2^31, not 2147483649")]
    fn a_modulus_at_the_top_bit_is_refused() {
        Montgomery32::new((1 << 31) + 1);
    }

    #[test]
    #[should_panic(expected = "Montgomery64 needs an odd modulus below 2^63, not 10")]
    fn an_even_modulus_is_refused() {
        Montgomery64::new(10);
    }
}
