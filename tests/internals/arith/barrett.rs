mod tests {
    use nimcount::internals::arith::barrett::*;

    #[test]
    fn barrett_reduction_is_exact_on_nasty_values() {
        for m in [1u64, 2, 3, 1_000_000_007, (1 << 32) - 1, 1 << 32, (1 << 63) - 1, 1 << 63, u64::MAX] {
            let r = Barrett64::new(m);
            for x in
                [0, 1, m - 1, m, m.wrapping_add(1), u64::MAX, u64::MAX - 1, u64::MAX / 2, m.wrapping_mul(3)]
            {
                assert_eq!(r.reduce(x), x % m, "{x} mod {m}");
            }
            assert_eq!(r.reduce_wide(u128::MAX), (u128::MAX % u128::from(m)) as u64);
        }
    }
}
