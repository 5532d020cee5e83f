mod tests {
    use nimcount::internals::arith::shoup::*;

    #[test]
    fn shoup_products_are_exact_for_every_word() {
        for m in [1u32, 2, 3, 998_244_353, (1 << 31) - 1] {
            for w in [0, 1, m / 2, m - 1].into_iter().filter(|&w| w < m) {
                let s = Shoup32::new(w, m);
                for x in [0u32, 1, m - 1, m, m.wrapping_add(1), u32::MAX, u32::MAX - 1, 1 << 31] {
                    assert_eq!(
                        u64::from(s.mul(x)),
                        u64::from(x) * u64::from(w) % u64::from(m),
                        "{x}·{w} mod {m}"
                    );
                }
            }
        }
        for m in [1u64, 2, 3, 1_000_000_007, (1 << 63) - 1] {
            for w in [0, 1, m / 2, m - 1].into_iter().filter(|&w| w < m) {
                let s = Shoup64::new(w, m);
                for x in [0u64, 1, m - 1, m, m.wrapping_add(1), u64::MAX, u64::MAX - 1, 1 << 63] {
                    assert_eq!(u128::from(s.mul(x)), u128::from(x) * u128::from(w) % u128::from(m));
                }
            }
        }
    }
}
