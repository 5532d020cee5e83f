mod tests {

    use nimcount::internals::error::Error;
    use nimcount::internals::histogram::Histogram;
    use nimcount::internals::input::Input;
    use num_bigint::BigUint;
    use num_traits::Zero;

    #[test]
    fn malformed_files_name_the_line() {
        for (text, line, reason) in [
            ("0 1\nx 2\n", 2, "bad Grundy value"),
            ("0 1 2\n", 1, "expected 'value count'"),
            ("# c\n\n5\n", 3, "expected 'value count'"),
            ("1 -3\n", 1, "bad count"),
            ("1 2\n1 3\n", 2, "already given on line 1"),
            ("5..=3 1\n", 1, "empty range of values 5..=3: 5 is above 3"),
            ("1..=5 1\n7 1\n1..=5 2\n", 3, "values 1..=5 are already given on line 1"),
            ("3 1\n1..=5 2\n", 2, "values 1..=5 overlap 3 on line 1"),
            ("1..=5 2\n5 1\n", 2, "value 5 overlaps 1..=5 on line 1"),
            ("0..=2^70 1\n2^70..=2^71 1\n", 2, "overlap 0..=1180591620717411303424 on line 1"),
            ("1..=x 1\n", 1, "bad range of values"),
            ("1..=3..=4 1\n", 1, "bad range of values"),
            ("9..=100 1\n1..=20 1\n50..=60 1\n", 2, "values 1..=20 overlap 9..=100 on line 1"),
        ] {
            match Histogram::parse(text, "h.txt").unwrap_err() {
                Error::Malformed { path, line: l, reason: r } => {
                    assert_eq!((path.as_str(), l), ("h.txt", line), "{text:?}");
                    assert!(r.contains(reason), "{text:?}: {r}");
                }
                other => panic!("{text:?}: {other}"),
            }
        }
        for empty in ["", "\u{feff}", "# nothing\n\n"] {
            let err = Histogram::parse(empty, "h.txt").unwrap_err().to_string();
            assert_eq!(err, "h.txt: no 'value count' line: the histogram is empty");
        }
        let h = Histogram::parse("\u{feff}0 0\r\n", "zero").unwrap();
        assert_eq!((h.transform_len(), h.total().is_zero()), (1, true));
    }

    /// A stream cut in the middle of a line (`head -c`) or at a line end is refused, not counted
    /// as a smaller histogram.
    #[test]
    fn cut_streams_are_refused() {
        let read = |text: &str| Histogram::read_input(&mut Input::from_reader(text.as_bytes(), "-", 1 << 20));
        let header = "# octal:0.77, heap sizes 1..=10: Grundy value (or lo..=hi) and count\n";
        let whole = format!("{header}0 1\n1 4\n2 5\n");
        assert_eq!(read(&whole).unwrap().total(), &BigUint::from(10u8));
        assert_eq!(read(&whole.replace('\n', "\r\n")).unwrap().total(), &BigUint::from(10u8));
        let err = read(&whole[..whole.len() - 2]).unwrap_err().to_string();
        assert_eq!(err, "-, line 4: the last line has no line end: the input was cut short");
        // Without a header too.
        let err = read("0 1\n1 4").unwrap_err().to_string();
        assert_eq!(err, "-, line 2: the last line has no line end: the input was cut short");
        // Cut at a line end: the header's range disagrees with the counts.
        let err = read(&format!("{header}0 1\n1 4\n")).unwrap_err().to_string();
        assert_eq!(
            err,
            "-, line 1: the header states heap sizes 1..=10 (10 of them), but the counts add up to 5: the \
             input was cut short or edited"
        );
        // Ranges of values over a huge range of sizes.
        let huge = "# lasker, heap sizes 0..=2^100-1: Grundy value (or lo..=hi) and count\n0..=2^100-1 1\n";
        assert!(Histogram::parse(huge, "h").is_ok());
        assert!(Histogram::parse(&huge.replace("0..=2^100-1 1", "0..=2^99 1"), "h").is_err());
        // Other comments state nothing.
        for text in [
            "# heap sizes 1..=10\n0 1\n",
            "0 1\n# x, heap sizes 1..=10: y\n",
            "# a, heap sizes x..=10: y\n0 1\n",
        ] {
            assert!(Histogram::parse(text, "h").is_ok(), "{text}");
        }
    }

    #[test]
    fn one_value_lines_beyond_an_array_are_one_point_ranges() {
        let h = Histogram::parse("2^40 3\n0 5\n", "far.txt").unwrap();
        assert!(h.is_structured());
        assert_eq!((h.count(1 << 40), h.count(0), h.count(1)), (3u8.into(), 5u8.into(), 0u8.into()));
        assert_eq!((h.log2_len(), h.total().clone()), (41, 8u8.into()));
        // Counts of many limbs too; small files stay arrays.
        let h = Histogram::parse("0 2^100000\n1 1\n", "long.txt").unwrap();
        assert!(h.is_structured());
        assert_eq!(h.count(0), BigUint::from(1u8) << 100_000u32);
        assert!(!Histogram::parse("0 2^127\n16777215 1\n", "small.txt").unwrap().is_structured());
        assert!(Histogram::parse("0 2^128\n", "limbs.txt").unwrap().is_structured());
        assert!(Histogram::parse("16777216 1\n", "slots.txt").unwrap().is_structured());
        let h = Histogram::parse("2^1000 7\n1 1\n", "beyond.txt").unwrap();
        assert_eq!((h.count(1), h.max_value()), (1u8.into(), Some(BigUint::from(1u8) << 1000u32)));
        let err = Histogram::parse("2^70 1\n2^70 1\n", "dup.txt").unwrap_err().to_string();
        assert_eq!(err, "dup.txt, line 2: value 1180591620717411303424 is already given on line 1");
        // A value given twice is refused on both paths.
        let err = Histogram::parse("2^40 1\n0 1\n2^40 2\n", "dup.txt").unwrap_err().to_string();
        assert_eq!(err, "dup.txt, line 3: value 1099511627776 is already given on line 1");
    }

    #[test]
    fn messages_show_huge_values_by_their_size() {
        // Spelling out 2^20000000 would take minutes and six million digits.
        let err = Histogram::parse("0..=2^20000000 1\n5 1\n", "h.txt").unwrap_err().to_string();
        assert_eq!(err, "h.txt, line 2: value 5 overlaps 0..=2^20000000 on line 1");
        let err = Histogram::parse("10^200000..=1 1\n", "h.txt").unwrap_err().to_string();
        assert!(err.len() < 200 && err.contains("about 200001 digits"), "{err}");
        let err = Histogram::parse("0 1\u{1b}[2J\n", "h\u{7}.txt").unwrap_err().to_string();
        assert!(!err.chars().any(nimcount::internals::message::is_escaped), "{err}");
        assert!(err.starts_with("h\\u{7}.txt, line 1: bad count: invalid number '1\\u{1b}[2J'"), "{err}");
    }

    #[test]
    fn ranges_and_values_make_one_histogram() {
        let h = Histogram::parse("# ranges\n3..=5 2\n0 7\n6..=6 1 # one value\n10..=2^65 10^20\n", "r.txt")
            .unwrap();
        assert!(h.is_structured());
        let big = BigUint::from(10u8).pow(20);
        for (v, want) in [
            (0u64, 7u8.into()),
            (1, 0u8.into()),
            (3, 2u8.into()),
            (5, 2u8.into()),
            (6, 1u8.into()),
            (9, BigUint::zero()),
            (10, big.clone()),
            (u64::MAX, big.clone()),
        ] {
            assert_eq!(h.count(v), want, "value {v}");
        }
        assert_eq!(h.log2_len(), 66);
        // Without ranges, the array as before.
        assert!(!Histogram::parse("0 1\n5 2\n", "v.txt").unwrap().is_structured());
    }
}
