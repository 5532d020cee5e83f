mod tests {
    use nimcount::internals::game::hex::*;

    #[test]
    fn codes_parse_and_print() {
        for (text, canonical, t) in
            [("0.f", "0.F", 1), (".48", "0.48", 2), ("c.10", "C.1", 1), ("8.0", "8.0", 0)]
        {
            let code: HexCode = text.parse().unwrap();
            assert_eq!(code.to_string(), canonical);
            assert_eq!(code.last_digit(), t);
            assert_eq!(canonical.parse::<HexCode>().unwrap(), code);
        }
        assert!("0.7".parse::<HexCode>().is_ok_and(|c| !c.leaves_three()));
        assert!("8.0".parse::<HexCode>().is_ok_and(|c| c.leaves_three()));
    }

    #[test]
    fn bad_codes_are_refused() {
        for bad in ["0.G", "", "0.", "1.07", "2.0", "04.07", "0.-1", "F", "0.é"] {
            let err = bad.parse::<HexCode>().unwrap_err();
            assert!(!err.to_string().contains('\n'), "{bad}: {err}");
        }
    }
}
