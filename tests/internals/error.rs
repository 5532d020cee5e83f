mod tests {
    use nimcount::internals::error::*;

    use num_bigint::BigUint;

    #[test]
    fn malformed_files_name_the_line_when_there_is_one() {
        let at = |line| Error::Malformed { path: "h.txt".into(), line, reason: "bad".into() }.to_string();
        assert_eq!(at(3), "h.txt, line 3: bad");
        assert_eq!(at(0), "h.txt: bad");
    }

    #[test]
    fn seconds_read_well() {
        let at = |s: f64| Seconds(s).to_string();
        assert_eq!(at(0.01), "about 0.1 s or less");
        assert_eq!(at(3.24), "about 3.2 s");
        assert_eq!(at(42.0), "about 42 s");
        assert_eq!(at(59.9), "about 1.0 min");
        assert_eq!(at(300.0), "about 5.0 min");
        assert_eq!(at(7200.0), "about 2.0 h");
        assert_eq!(at(3.0 * 86_400.0), "about 3.0 days");
        assert_eq!(at(40.0 * 31_557_600.0), "about 40 years");
        assert_eq!(at(1e20), "more than a million years");
        assert_eq!(at(f64::INFINITY), "more than a million years");
    }

    #[test]
    fn estimates_never_print_a_saturated_figure() {
        assert_eq!(Estimate(Some(12)).to_string(), "about 12");
        assert_eq!(Estimate(Some(u128::MAX)).to_string(), "more than 10^38");
        assert_eq!(Estimate(None).to_string(), "more than 10^38");
        let huge = BigUint::from(10u32).pow(300_000);
        let msg = Error::EmptyRange { lo: huge.clone(), hi: 1u32.into() }.to_string();
        assert_eq!(
            msg,
            "empty range of heap sizes: a number of 996579 bits (about 300001 digits) is above 1"
        );
        let msg = Error::NoSets { k: huge, n: 5u32.into() }.to_string();
        assert!(msg.len() < 150, "{msg}");
    }

    #[test]
    fn bytes_print_with_binary_units() {
        assert_eq!(Bytes(0).to_string(), "0 B");
        assert_eq!(Bytes(1023).to_string(), "1023 B");
        assert_eq!(Bytes(4 << 30).to_string(), "4.00 GiB");
        assert_eq!(Bytes(3 << 19).to_string(), "1.50 MiB");
        assert_eq!(Bytes(1 << 62).to_string(), "4.00 EiB");
        assert_eq!(Bytes(u64::MAX).to_string(), "more than 16 EiB");
    }
}
