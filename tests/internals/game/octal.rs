mod tests {
    use nimcount::internals::game::octal::*;

    #[test]
    fn codes_parse_and_print() {
        for (text, canonical, t) in [
            ("0.07", "0.07", 2),
            (".137", "0.137", 3),
            ("4.0070", "4.007", 3),
            ("0.0", "0.0", 0),
            ("4.0", "4.0", 0),
        ] {
            let code: OctalCode = text.parse().unwrap();
            assert_eq!(code.to_string(), canonical);
            assert_eq!(code.last_digit(), t);
            assert_eq!(canonical.parse::<OctalCode>().unwrap(), code);
        }
        let code: OctalCode = "4.16".parse().unwrap();
        assert_eq!(code.split_takes(), vec![0, 2]);
        assert_eq!(code.digit(5), 0);
    }

    #[test]
    fn bad_codes_are_refused() {
        for bad in ["0.8", "", "0.", "1.07", "04.07", "0.0x", "07", "0.-1"] {
            let err = bad.parse::<OctalCode>().unwrap_err();
            assert!(!err.to_string().contains('\n'), "{bad}: {err}");
        }
    }
}
