mod tests {
    use nimcount::internals::fwht::reference::*;

    #[test]
    fn strength_reduced_remainder_is_exact() {
        for m in [1u32, 2, 3, 7, 998_244_353, 1_000_000_007, (1 << 31) - 1, u32::MAX] {
            for x in [0u32, 1, m - 1, m, m.wrapping_add(1), u32::MAX, u32::MAX - 1, 1 << 31, 123_456_789] {
                assert_eq!(remainder(m, x), x % m, "{x} % {m}");
            }
        }
    }

    #[test]
    fn remainder_textbook_matches_the_ring_textbook() {
        let ring = nimcount::internals::ring::Mod32::new(998_244_353).unwrap();
        let mut a: Vec<u32> = (0..1024u32).map(|i| i.wrapping_mul(2_654_435_761) % 998_244_353).collect();
        let mut b = a.clone();
        textbook(&ring, &mut a);
        textbook_remainder(998_244_353, &mut b);
        assert_eq!(a, b);
    }
}
