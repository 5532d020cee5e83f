mod tests {
    use nimcount::internals::grundy::octal::*;

    use nimcount::internals::game::OctalCode;

    #[test]
    fn sparse_space_equals_plain_for_a_few_codes() {
        for code in ["0.16", "0.6", "0.14", "0.77", "4.0", "4.7", "0.0", "0.137", "0.007", "0.4"] {
            let code: OctalCode = code.parse().unwrap();
            let plain = values_plain(&code, 3000);
            let mut sparse = SparseSpace::new(&code);
            let mut values = Vec::new();
            // In several steps, to exercise resumption.
            for upto in [0, 1, 2, 100, 1000, 3000] {
                assert_eq!(sparse.extend::<u32>(&mut values, upto, &mut || false), None);
            }
            assert_eq!(values, plain, "{code}");
        }
    }

    #[test]
    fn the_mask_adapts() {
        // 0.16's values reach 2^5 and beyond; a non-zero mask must have been chosen.
        let code: OctalCode = "0.16".parse().unwrap();
        let mut sparse = SparseSpace::new(&code);
        let mut values = Vec::new();
        assert_eq!(sparse.extend::<u8>(&mut values, 5000, &mut || false), None);
        assert_ne!(sparse.mask(), 0);
        assert!(sparse.rare.len() < 500, "{} rare positions of 5000", sparse.rare.len());
    }
}
