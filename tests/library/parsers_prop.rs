//! Property tests of every parser a user's input goes through: numbers, ranges, game
//! specifications, histogram files, transform files (text and binary) and moduli. Round trips
//! (what is written reads back the same) and refusals (what is malformed is refused with one
//! line, never a panic), with a fixed seed so every run tries the same inputs.

use nimcount::elements::{self, Format};
use nimcount::game::Game;
use nimcount::histogram::Histogram;
use nimcount::input::Input;
use nimcount::num_bigint::BigUint;
use nimcount::number;
use nimcount::ring::{AnyRing, Float64, Mod32, Mod64, Wrap64};
use proptest::prelude::*;
use proptest::test_runner::{Config, RngSeed};

fn config(cases: u32) -> Config {
    Config { cases, rng_seed: RngSeed::Fixed(0x6e69_6d63), failure_persistence: None, ..Config::default() }
}

/// A one-line message of reasonable length.
fn one_line(message: &str) {
    assert!(!message.contains('\n'), "{message}");
    assert!(message.chars().count() <= 400, "{message}");
}

/// `digits` with single `_` separators at the chosen places between digits.
fn separated(digits: &str, cuts: &[bool]) -> String {
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && cuts.get(i).copied().unwrap_or(false) {
            out.push('_');
        }
        out.push(c);
    }
    out
}

fn big(bytes: &[u8]) -> BigUint {
    BigUint::from_bytes_le(bytes)
}

proptest! {
    #![proptest_config(config(256))]

    #[test]
    fn numbers_read_back_with_separators(bytes in prop::collection::vec(any::<u8>(), 0..40), cuts in prop::collection::vec(any::<bool>(), 0..100)) {
        let x = big(&bytes);
        let text = separated(&x.to_string(), &cuts);
        prop_assert_eq!(number::parse(&text).unwrap(), x.clone());
        prop_assert_eq!(number::parse(&format!("  {text} ")).unwrap(), x.clone());
        if let Ok(small) = u64::try_from(&x) {
            prop_assert_eq!(number::parse_u64(&text).unwrap(), small);
        } else {
            prop_assert!(number::parse_u64(&text).is_err());
        }
    }

    #[test]
    fn expressions_evaluate_as_written(a in 0u64..1000, b in 0u32..40, c in 0u64..1_000_000, d in 0u64..1_000_000) {
        let power = BigUint::from(a).pow(b);
        prop_assert_eq!(number::parse(&format!("{a}^{b}")).unwrap(), power.clone());
        prop_assert_eq!(number::parse(&format!("{c}*{a}^{b}+{d}")).unwrap(), BigUint::from(c) * &power + d);
        let (hi, lo) = (c.max(d), c.min(d));
        prop_assert_eq!(number::parse(&format!("{hi} - {lo}")).unwrap(), BigUint::from(hi - lo));
        if hi > lo {
            let msg = number::parse(&format!("{lo}-{hi}")).unwrap_err().to_string();
            prop_assert!(msg.contains("negative"), "{}", msg);
        }
    }

    #[test]
    fn negative_and_doubly_separated_numbers_are_refused(x in 1u64.., at in 1usize..19) {
        let msg = number::parse(&format!("-{x}")).unwrap_err().to_string();
        prop_assert!(msg.contains("negative"), "{}", msg);
        let digits = x.to_string();
        if at < digits.len() {
            let text = format!("{}__{}", &digits[..at], &digits[at..]);
            let msg = number::parse(&text).unwrap_err().to_string();
            prop_assert!(msg.contains("'_'"), "{}", msg);
        }
    }

    #[test]
    fn any_text_parses_or_is_refused_on_one_line(text in "[0-9_+*^ \\-a-z.]{0,40}|\\PC{0,40}") {
        match number::parse(&text) {
            Ok(_) => prop_assert!(text.chars().any(|c| c.is_ascii_digit())),
            Err(e) => one_line(&e.to_string()),
        }
        if let Err(e) = number::parse_range(&text) {
            one_line(&e.to_string());
        }
    }

    #[test]
    fn ranges_read_back(lo in prop::collection::vec(any::<u8>(), 0..20), hi in prop::collection::vec(any::<u8>(), 0..20)) {
        let (lo, hi) = (big(&lo), big(&hi));
        prop_assert_eq!(number::parse_range(&format!("{lo}..={hi}")).unwrap(), (lo.clone(), hi.clone()));
        let (open, twice) = (format!("{lo}..{hi}"), format!("{lo}..={hi}..={hi}"));
        prop_assert!(number::parse_range(&open).is_err());
        prop_assert!(number::parse_range(&twice).is_err());
    }

    #[test]
    fn game_specs_read_back(moves in prop::collection::btree_set(1u64..10_000, 1..12), excluded in prop::collection::btree_set(1u64..100, 1..6), digits in prop::collection::vec(0u8..8, 1..6)) {
        let moves: Vec<u64> = moves.into_iter().collect();
        let excluded: Vec<u64> = excluded.into_iter().collect();
        let octal = format!("0.{}", digits.iter().map(u8::to_string).collect::<String>());
        let mut games = vec![Game::Nim, Game::Squares, Game::subtract(&moves).unwrap(), Game::all_but(&excluded).unwrap()];
        if let Ok(g) = Game::octal(&octal) {
            games.push(g);
        }
        for game in games {
            let spec = game.spec();
            prop_assert_eq!(Game::parse(&spec).unwrap(), game.clone());
            prop_assert_eq!(Game::parse(&format!(" {spec} ")).unwrap(), game);
        }
        // A list written with its runs and in any order reads as the same set.
        let listed: Vec<String> = moves.iter().rev().map(u64::to_string).collect();
        prop_assert_eq!(Game::parse(&format!("subtract:{}", listed.join(","))).unwrap(), Game::subtract(&moves).unwrap());
    }

    #[test]
    fn any_game_spec_parses_or_is_refused_on_one_line(spec in "(nim|squares|subtract|allbut|octal|moore)?:?[0-9,.\\- ]{0,30}|\\PC{0,60}") {
        if let Err(e) = Game::parse(&spec) {
            one_line(&e.to_string());
        }
    }

    #[test]
    fn histogram_files_read_back(counts in prop::collection::btree_map(0u64..5000, prop::collection::vec(any::<u8>(), 0..24), 1..40), crlf in any::<bool>(), bom in any::<bool>(), comments in any::<bool>()) {
        let end = if crlf { "\r\n" } else { "\n" };
        let mut text = String::from(if bom { "\u{feff}" } else { "" });
        // Lines in reverse order: the order of lines does not matter.
        for (value, count) in counts.iter().rev() {
            if comments {
                text += &format!("# value {value}{end}{end}");
            }
            text += &format!("{value} {}{}{end}", big(count), if comments { " # count" } else { "" });
        }
        let parsed = Histogram::parse(&text, "h.txt").unwrap();
        let read = Histogram::read_input(&mut Input::from_reader(text.as_bytes(), "h.txt", 1 << 30)).unwrap();
        for (value, count) in &counts {
            prop_assert_eq!(parsed.count(*value), big(count));
            prop_assert_eq!(read.count(*value), big(count));
        }
        let total: BigUint = counts.values().map(|c| big(c)).sum();
        prop_assert_eq!(parsed.total(), &total);
        // The same value twice is refused, naming both lines.
        let (&value, _) = counts.iter().next().unwrap();
        let repeated = format!("{text}{value} 1{end}");
        let msg = Histogram::parse(&repeated, "h.txt").unwrap_err().to_string();
        prop_assert!(msg.contains("already given on line"), "{}", msg);
    }

    #[test]
    fn any_histogram_text_parses_or_is_refused_on_one_line(text in "([0-9 #^_x]{0,12}(\n|\r\n)){0,6}|\\PC{0,80}") {
        if let Err(e) = Histogram::parse(&text, "h.txt") {
            one_line(&e.to_string());
        }
    }

    #[test]
    fn transform_files_read_back(values in prop::collection::vec(any::<u64>(), 0..64), modulus in (1u64..(1 << 30)).prop_map(|m| 2 * m + 1)) {
        let ring = Mod64::new(modulus).unwrap();
        let residues: Vec<u64> = values.iter().map(|&v| v % modulus).collect();
        for format in [Format::Binary, Format::Text] {
            let mut bytes = Vec::new();
            elements::write(&ring, &mut bytes, &residues, format).unwrap();
            let mut input = Input::from_reader(&bytes[..], "x", 1 << 30);
            prop_assert_eq!(elements::read_input(&ring, &mut input, format).unwrap(), residues.clone());
        }
        let words: Vec<u64> = values.clone();
        let mut bytes = Vec::new();
        elements::write(&Wrap64, &mut bytes, &words, Format::Text).unwrap();
        let crlf = String::from_utf8(bytes).unwrap().replace('\n', "\r\n");
        let mut input = Input::from_reader(crlf.as_bytes(), "x", 1 << 30);
        prop_assert_eq!(elements::read_input(&Wrap64, &mut input, Format::Text).unwrap(), words);
    }

    #[test]
    fn out_of_range_elements_are_refused_with_their_place(values in prop::collection::vec(0u64..1000, 1..40), at in any::<prop::sample::Index>(), modulus in (1u64..500).prop_map(|m| 2 * m + 1)) {
        let ring = Mod64::new(modulus).unwrap();
        let mut residues: Vec<u64> = values.iter().map(|&v| v % modulus).collect();
        let i = at.index(residues.len());
        residues[i] = modulus + values[i];
        let text: String = residues.iter().map(|v| format!("{v}\n")).collect();
        let msg = elements::read_input(&ring, &mut Input::from_reader(text.as_bytes(), "x.txt", 1 << 20), Format::Text).unwrap_err().to_string();
        prop_assert!(msg.starts_with(&format!("x.txt, line {}:", i + 1)), "{}", msg);
        let bytes: Vec<u8> = residues.iter().flat_map(|v| v.to_le_bytes()).collect();
        let msg = elements::read_input(&ring, &mut Input::from_reader(&bytes[..], "x.bin", 1 << 20), Format::Binary).unwrap_err().to_string();
        prop_assert!(msg.contains(&format!("element {i} ")), "{}", msg);
        // A truncated binary file.
        let msg = elements::read_input(&ring, &mut Input::from_reader(&bytes[..bytes.len() - 1], "x.bin", 1 << 20), Format::Binary).unwrap_err().to_string();
        prop_assert!(msg.contains("not a whole number"), "{}", msg);
    }

    #[test]
    fn non_finite_floats_are_refused_with_their_place(values in prop::collection::vec(-1e300f64..1e300, 1..20), at in any::<prop::sample::Index>(), bad in prop::sample::select(vec![f64::INFINITY, f64::NEG_INFINITY, f64::NAN])) {
        let mut values = values;
        let i = at.index(values.len());
        let mut bytes = Vec::new();
        elements::write(&Float64, &mut bytes, &values, Format::Text).unwrap();
        let text = String::from_utf8(bytes).unwrap();
        prop_assert_eq!(elements::read_input(&Float64, &mut Input::from_reader(text.as_bytes(), "x", 1 << 20), Format::Text).unwrap(), values.clone());
        values[i] = bad;
        let bytes: Vec<u8> = values.iter().flat_map(|v| v.to_le_bytes()).collect();
        let msg = elements::read_input(&Float64, &mut Input::from_reader(&bytes[..], "x.bin", 1 << 20), Format::Binary).unwrap_err().to_string();
        prop_assert!(msg.contains(&format!("element {i} ")) && msg.contains("finite"), "{}", msg);
        let mut lines: Vec<String> = text.lines().map(String::from).collect();
        lines[i] = "1e400".into();
        let text = lines.join("\n");
        let msg = elements::read_input(&Float64, &mut Input::from_reader(text.as_bytes(), "x.txt", 1 << 20), Format::Text).unwrap_err().to_string();
        prop_assert!(msg.starts_with(&format!("x.txt, line {}:", i + 1)) && msg.contains("finite"), "{}", msg);
    }

    #[test]
    fn text_given_as_binary_is_recognised(values in prop::collection::vec(any::<u32>(), 1..200)) {
        let text: String = values.iter().map(|v| format!("{v}\n")).collect();
        let err = elements::read_input(&Wrap64, &mut Input::from_reader(text.as_bytes(), "x.txt", 1 << 20), Format::Binary).unwrap_err();
        prop_assert!(matches!(err, nimcount::Error::LooksLikeText { .. }), "{}", err);
        // Binary words are never taken for text: they hold bytes no number's text has.
        let bytes: Vec<u8> = values.iter().flat_map(|v| (u64::from(*v) << 8).to_le_bytes()).collect();
        let read = elements::read_input(&Wrap64, &mut Input::from_reader(&bytes[..], "x.bin", 1 << 20), Format::Binary).unwrap();
        prop_assert_eq!(read.len(), values.len());
    }

    #[test]
    fn moduli_are_accepted_exactly_when_the_ring_can_use_them(m in any::<u64>()) {
        let expect32 = m % 2 == 1 && m < 1 << 31;
        prop_assert_eq!(u32::try_from(m).map(|m| Mod32::new(m).is_ok()).unwrap_or(false), expect32);
        prop_assert_eq!(Mod64::new(m).is_ok(), m % 2 == 1 && m < 1 << 63);
        prop_assert_eq!(AnyRing::parse("u32", Some(m)).is_ok(), expect32);
        if let Err(e) = AnyRing::parse("u64", Some(m)) {
            one_line(&e.to_string());
        }
        let text = format!("{m}");
        prop_assert_eq!(number::parse_u64(&text).unwrap(), m);
    }
}

#[test]
fn edge_values_of_every_parser() {
    // Numbers: 0, 1, the word boundaries.
    for (text, value) in
        [("0", "0"), ("1", "1"), ("2^64-1", "18446744073709551615"), ("2^64", "18446744073709551616")]
    {
        assert_eq!(number::parse(text).unwrap().to_string(), value);
    }
    assert!(number::parse_u64("2^64").is_err());
    // Ranges starting at 0, and of one size.
    assert_eq!(number::parse_range("0..=0").unwrap(), (0u32.into(), 0u32.into()));
    // Histograms: a count of 0, the largest value a word holds, a constant file.
    let h = Histogram::parse("0 0\n", "h").unwrap();
    assert_eq!(h.total(), &BigUint::from(0u32));
    assert!(Histogram::parse("", "h").is_err());
    // Elements: 0, 1, m − 1 accepted; m refused; an empty file reads as no elements.
    let ring = Mod32::new(7).unwrap();
    let read = |text: &str| {
        elements::read_input(&ring, &mut Input::from_reader(text.as_bytes(), "x", 100), Format::Text)
    };
    assert_eq!(read("0\n1\n6\n").unwrap(), [0, 1, 6]);
    assert!(read("7\n").is_err());
    assert_eq!(read("").unwrap(), Vec::<u32>::new());
}

/// Expressions with a budget, messages without raw control characters, and histogram values
/// relabelled far apart: the second round of hostile input.
mod budgets_and_messages {
    use nimcount::count::Query;
    use nimcount::histogram::Histogram;
    use nimcount::message::{is_escaped, quote};
    use nimcount::num_bigint::BigUint;
    use nimcount::number;
    use proptest::prelude::*;
    use proptest::test_runner::{Config, RngSeed};

    fn config(cases: u32) -> Config {
        Config {
            cases,
            rng_seed: RngSeed::Fixed(0x6275_6467),
            failure_persistence: None,
            ..Config::default()
        }
    }

    /// Terms from cheap to far beyond every limit.
    fn term() -> impl Strategy<Value = String> {
        prop::sample::select(vec![
            "7",
            "10^9",
            "2^64",
            "3^1000",
            "2^100000000",
            "2^268435455",
            "2^4294967295",
            "10^10^10",
            "3^2^24",
            "9^5000000",
            "2^2^40",
            "0^0",
            "1^99999999999999999999",
        ])
        .prop_map(String::from)
    }

    proptest! {
        #![proptest_config(config(32))]

        /// Any expression of such terms is made within the limits or refused on one short line
        /// before it is made.
        #[test]
        fn expressions_are_made_within_their_limits_or_refused(terms in prop::collection::vec((term(), prop::sample::select(vec!["+", "*", "^", "-"])), 1..6)) {
            let mut text = String::new();
            for (i, (t, op)) in terms.iter().enumerate() {
                if i > 0 {
                    text.push_str(op);
                }
                text.push_str(t);
            }
            match number::parse(&text) {
                Ok(value) => prop_assert!(value.bits() <= number::MAX_BITS, "{text}"),
                Err(err) => {
                    let message = err.to_string();
                    prop_assert!(!message.contains('\n') && message.len() <= 400, "{message}");
                }
            }
        }

        /// Quoting escapes every control character, keeps at most 80 characters, and changes
        /// nothing the second time.
        #[test]
        fn quoted_text_is_short_escaped_and_stable(text in "\\PC{0,200}|[\\x00-\\x1f\\x7f\\u{80}-\\u{9f}a-z]{0,300}") {
            let once = quote(&text);
            prop_assert!(once.chars().count() <= 80, "{once}");
            prop_assert!(!once.chars().any(is_escaped), "{once:?}");
            prop_assert_eq!(quote(&once), once.clone());
            if text.chars().count() <= 80 && !text.chars().any(is_escaped) {
                prop_assert_eq!(once, text);
            }
        }

        /// Any histogram or number text with control characters is refused without echoing them.
        #[test]
        fn refusals_never_echo_control_characters(text in "[0-9 \\x00-\\x1f\\x7f\\u{9b}]{1,30}") {
            if let Err(err) = Histogram::parse(&text, "h\u{1b}.txt") {
                let message = err.to_string();
                prop_assert!(!message.chars().any(is_escaped), "{message:?}");
            }
            if let Err(err) = number::parse(&text) {
                let message = err.to_string();
                prop_assert!(!message.chars().any(is_escaped), "{message:?}");
            }
        }

        /// Values moved far apart by an injective linear map (bit i to bit p_i) count like the
        /// small values: one-value lines beyond an array are one-point ranges, never a table.
        #[test]
        fn far_values_count_like_small_ones(counts in prop::collection::btree_map(0u64..16, 1u64..1000, 1..6), heaps in 1u32..6, shift in 25u32..60) {
            let far = |v: u64| (0..4).filter(|i| v >> i & 1 == 1).map(|i| 1u64 << (shift + i)).fold(0, |a, b| a ^ b);
            let file = |map: &dyn Fn(u64) -> u64| counts.iter().map(|(&v, &c)| format!("{} {c}\n", map(v))).collect::<String>();
            let small = Histogram::parse(&file(&|v| v), "small").unwrap();
            let large = Histogram::parse(&file(&far), "far").unwrap();
            prop_assert!(large.is_structured() || counts.keys().all(|&v| v == 0));
            let losing = |h: Histogram, m: u64| Query::from_histogram(h).heaps(heaps).modulus(m).count().unwrap().losing;
            // Brute force over the small values: ordered tuples whose XOR is 0.
            let mut by_xor = vec![BigUint::from(1u8)];
            by_xor.resize(16, BigUint::from(0u8));
            for _ in 0..heaps {
                let mut next = vec![BigUint::from(0u8); 16];
                for (x, ways) in by_xor.iter().enumerate() {
                    for (&v, &c) in &counts {
                        next[x ^ v as usize] += ways * c;
                    }
                }
                by_xor = next;
            }
            for m in [1_000_000_007u64, 1 << 40, 6] {
                let want = &by_xor[0] % m;
                prop_assert_eq!(losing(small.clone(), m), want.clone());
                prop_assert_eq!(losing(large.clone(), m), want);
            }
        }
    }
}
