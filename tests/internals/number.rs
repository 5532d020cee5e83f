mod tests {
    use nimcount::internals::number::*;

    use nimcount::internals::message::short;

    fn p(s: &str) -> String {
        parse(s).unwrap().to_string()
    }

    #[test]
    fn plain_and_separated_decimals() {
        assert_eq!(p("0"), "0");
        assert_eq!(p("12983567378251"), "12983567378251");
        assert_eq!(p("12_983_567_378_251"), "12983567378251");
        assert_eq!(p("  98670634123 "), "98670634123");
        assert_eq!(p("007"), "7");
    }

    #[test]
    fn powers_products_and_sums() {
        assert_eq!(p("10^12"), "1000000000000");
        assert_eq!(p("2^64"), "18446744073709551616");
        assert_eq!(p("10^9+7"), "1000000007");
        assert_eq!(p("2^61-1"), "2305843009213693951");
        assert_eq!(p("3*10^8"), "300000000");
        assert_eq!(p("2^2^3"), "256");
        assert_eq!(p("0^0"), "1");
        assert_eq!(p("0^5"), "0");
        assert_eq!(p("1^100000000000000000000000"), "1");
        assert_eq!(p("0^100000000000000000000000"), "0");
        assert_eq!(p("5-5"), "0");
        assert_eq!(parse("10^100").unwrap().to_string().len(), 101);
        // Towers of any height are evaluated without recursion.
        assert_eq!(p(&format!("{}1", "1^".repeat(200_000))), "1");
        assert!(parse(&format!("{}2", "2^".repeat(200_000))).is_err());
    }

    #[test]
    fn malformed_inputs_are_refused_with_a_reason() {
        for bad in [
            "",
            " ",
            "-3",
            "1-2",
            "abc",
            "1e9",
            "10^",
            "^2",
            "1__",
            "_1",
            "1_",
            "2^-1",
            "1.5",
            "3+",
            "10^10^10",
            "1__0",
            "1_0__0",
            "2^-1",
            "-2^64",
            "--3",
            "\u{feff}5",
        ] {
            let err = parse(bad).unwrap_err();
            let msg = err.to_string();
            assert!(msg.starts_with("invalid number"), "{bad:?}: {msg}");
            assert!(!msg.contains('\n'), "{bad:?}: {msg}");
        }
    }

    #[test]
    fn sizes_are_bounded_by_cost_not_by_digits() {
        // Powers of two are shifts: ten million bits are instant.
        let big = parse("2^10000000-1").unwrap();
        assert_eq!((big.bits(), big.count_ones()), (10_000_000, 10_000_000));
        assert_eq!(parse("4^3000000").unwrap().bits(), 6_000_001);
        // Absurd sizes are refused from the operands' sizes, with the size in the message.
        for (bad, size) in [
            ("10^10^10", "about 33219280948 bits"),
            ("3^2^30", "about 1701840526 bits"),
            ("2^2^40", "about 1099511627776 bits"),
            ("2^2^100", "about 2^100 bits"),
            ("10^3000000*10^3000000", "bits"),
        ] {
            let msg = parse(bad).unwrap_err().to_string();
            assert!(msg.contains(size), "{bad}: {msg}");
        }
        // A long input is quoted shortly.
        let msg = parse(&format!("{}x", "9".repeat(100_000))).unwrap_err().to_string();
        assert!(msg.len() < 200 && msg.contains("(100001 characters)"), "{msg}");
        assert!(parse(&"9".repeat(MAX_DIGITS + 1)).unwrap_err().to_string().contains("digits"));
        assert_eq!(parse(&"9".repeat(1000)).unwrap().to_string().len(), 1000);
    }

    #[test]
    fn expressions_are_refused_from_their_size_before_they_are_made() {
        // Each would once have been made (512 MiB and more) before being used or refused.
        for (bad, needle) in [
            ("2^4294967295", "about 4294967295 bits, more than the 2^28 bits"),
            ("2^4000000000*3*3*3", "about 4000000000 bits"),
            ("1+2^268435456", "the power has about 268435456 bits"),
            ("2^268435455*4", "the product has about 268435459 bits"),
            ("2^268435455+2^268435455", "the sum has about 268435457 bits"),
        ] {
            let msg = parse(bad).unwrap_err().to_string();
            assert!(msg.contains(needle), "{bad}: {msg}");
        }
        // The largest value of each kind is made.
        assert_eq!(parse("2^268435455").unwrap().bits(), MAX_BITS);
        assert_eq!(parse("2^268435453*3").unwrap().bits(), MAX_BITS - 1);
    }

    #[test]
    fn the_whole_expression_has_a_work_budget() {
        // Nine large powers of two and their sums: each allowed, together beyond the budget.
        let chain = ["2^200000000"; 9].join("+");
        let msg = parse(&chain).unwrap_err().to_string();
        assert!(msg.contains("bit operations") && msg.contains("2^31"), "{msg}");
        assert_eq!(parse(&["2^200000000"; 4].join("+")).unwrap().bits(), 200_000_003);
        // Big multiplications cost BIG_STEP_COST a bit: two powers of 2^24 bits, not three (the
        // work named is the third power's, so the first two were made).
        let power = "3^10000000"; // 15849626 bits
        let msg = parse(&format!("{power}+{power}+{power}")).unwrap_err().to_string();
        let named: u64 =
            msg.split("more than ").nth(1).and_then(|r| r.split(' ').next()?.parse().ok()).unwrap();
        assert!(named >= 3 * 15_849_626 * BIG_STEP_COST, "{msg}");
        // Written-out digits are charged before any is converted.
        assert!(digits_cost(MAX_DIGITS as u64) <= MAX_WORK / 2);
        let many = vec!["9".repeat(MAX_DIGITS); 3].join("+");
        assert!(parse(&many).unwrap_err().to_string().contains("bit operations"));
    }

    #[test]
    fn ranges_and_short_forms() {
        assert_eq!(parse_range("0..=0").unwrap(), (0u32.into(), 0u32.into()));
        assert_eq!(parse_range(" 5 ..= 2^3 ").unwrap(), (5u32.into(), 8u32.into()));
        for bad in ["1..10", "..=3", "1..=", "1..=2..=3", "-1..=2", ""] {
            assert!(parse_range(bad).is_err(), "{bad}");
        }
        assert_eq!(short(&0u32.into()), "0");
        assert_eq!(short(&parse("10^79").unwrap()).len(), 80);
        assert_eq!(short(&parse("10^80").unwrap()), "a number of 266 bits (about 81 digits)");
    }

    #[test]
    fn u64_range_is_checked() {
        assert_eq!(parse_u64("2^64-1").unwrap(), u64::MAX);
        assert!(parse_u64("2^64").is_err());
    }
}
