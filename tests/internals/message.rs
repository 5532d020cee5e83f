mod tests {
    use nimcount::internals::message::*;
    use num_bigint::BigUint;

    #[test]
    fn short_texts_are_kept_and_controls_escaped() {
        assert_eq!(quote(""), "");
        assert_eq!(quote("nim"), "nim");
        assert_eq!(quote("a\tb\r\n"), "a\\tb\\r\\n");
        assert_eq!(quote("\u{7f}\u{9b}"), "\\u{7f}\\u{9b}");
        assert_eq!(quote("a\u{202e}b"), "a\\u{202e}b");
        assert_eq!(quote("é ü ∞"), "é ü ∞");
        assert_eq!(quote(&"x".repeat(80)), "x".repeat(80));
    }

    #[test]
    fn long_texts_are_cut_with_their_length() {
        let long = "y".repeat(81);
        assert_eq!(quote(&long), format!("{}… (81 characters)", "y".repeat(56)));
        // Escapes count as the characters they are shown with: 20 escapes make 120.
        let escapes = "\u{1b}".repeat(20);
        let q = quote(&escapes);
        assert!(q.ends_with("… (20 characters)") && !q.contains('\u{1b}'), "{q}");
        // Never an escape cut in half.
        assert!(q.trim_end_matches(|c| c != '…').trim_end_matches('…').ends_with("\\u{1b}"), "{q}");
        // Multi-byte characters are never split.
        let wide = "∞".repeat(500);
        assert_eq!(quote(&wide), format!("{}… (500 characters)", "∞".repeat(56)));
    }

    #[test]
    fn quoting_is_idempotent_and_bounded() {
        for text in [
            "9".repeat(200_000),
            "\u{1b}[31m".repeat(10_000),
            "a".repeat(2_000_000),
            format!("{}\n", "z".repeat(79)),
        ] {
            let once = quote(&text);
            assert_eq!(quote(&once), once);
            assert_eq!(shorten(&once, REASON_CHARS), once);
            assert!(once.chars().count() <= QUOTE_CHARS, "{once}");
            assert!(!once.chars().any(is_escaped), "{once}");
        }
        let reason = format!("unknown game '{}' (known: nim)", quote(&"q".repeat(10_000)));
        assert_eq!(shorten(&reason, REASON_CHARS), reason);
    }

    #[test]
    fn numbers_are_shown_by_size_beyond_80_digits() {
        assert_eq!(short(&0u32.into()), "0");
        let ten = BigUint::from(10u8);
        assert_eq!(short(&ten.pow(79)).len(), 80);
        assert_eq!(short(&ten.pow(80)), "a number of 266 bits (about 81 digits)");
    }

    /// The ground floor imports nothing from the crate, and the error type nothing above it (the
    /// numbers and memory estimates it describes import it).
    #[test]
    fn the_ground_floor_imports_nothing_above_it() {
        for (file, source, allowed) in [
            ("message.rs", include_str!(concat!(env!("CARGO_MANIFEST_DIR"), "/src/message.rs")), &[][..]),
            (
                "error.rs",
                include_str!(concat!(env!("CARGO_MANIFEST_DIR"), "/src/error.rs")),
                &["message"][..],
            ),
            ("progress.rs", include_str!(concat!(env!("CARGO_MANIFEST_DIR"), "/src/progress.rs")), &[][..]),
        ] {
            let code = source.split("#[cfg(test)]").next().unwrap();
            for line in code.lines().filter(|l| !l.trim_start().starts_with("//")) {
                for (at, _) in line.match_indices("crate::") {
                    let module: String =
                        line[at + 7..].chars().take_while(|c| c.is_alphanumeric() || *c == '_').collect();
                    assert!(allowed.contains(&module.as_str()), "{file} imports crate::{module}");
                }
            }
        }
    }
}
