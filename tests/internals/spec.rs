mod tests {
    use nimcount::internals::spec::*;

    use nimcount::internals::error::Result;
    use nimcount::internals::game::Game;
    use nimcount::internals::play::Moore;

    fn reason(result: Result<impl std::fmt::Debug>) -> String {
        result.unwrap_err().to_string()
    }

    #[test]
    fn heap_games_parse_as_the_game_parser_does() {
        for text in
            ["nim", " nim ", "subtract:1-3,7", "allbut:1,2", "octal:0.07", "hex:0.F8", "squares", "kayles"]
        {
            assert_eq!(Spec::parse(text).unwrap(), Spec::Game(Game::parse(text).unwrap()), "{text}");
        }
        assert_eq!(Spec::parse("kayles").unwrap().spec(), "octal:0.77");
    }

    #[test]
    fn moore_parses_with_k_at_least_one() {
        assert_eq!(Spec::parse("moore:2").unwrap(), Spec::Moore(Moore::new(2).unwrap()));
        assert_eq!(Spec::parse(" moore : 10^3 ").unwrap().spec(), "moore:1000");
        assert_eq!(Spec::parse("moore:1").unwrap().spec(), "moore:1");
        for bad in ["moore:0", " moore:0", "moore: 0"] {
            let msg = reason(Spec::parse(bad));
            assert!(msg.contains("K must be at least 1"), "{bad}: {msg}");
        }
        assert!(reason(Spec::parse("moore")).contains("needs parameters"));
        assert!(reason(Spec::parse("moore:x")).contains("invalid game"));
        assert!(reason(Spec::parse("moore:2^64")).contains("2^64"));
    }

    #[test]
    fn staircases_take_heap_games_only() {
        assert_eq!(Spec::staircase("nim").unwrap(), Spec::Staircase(Game::Nim));
        assert_eq!(Spec::staircase("subtract:1-2").unwrap().spec(), "subtract:1,2 staircase");
        assert!(reason(Spec::staircase("moore:2")).contains("a staircase needs a game of single heaps"));
        assert!(reason(Spec::staircase("moore:0")).contains("K must be at least 1"));
        assert!(reason(Spec::staircase("kayle")).contains("unknown game"));
    }

    #[test]
    fn sums_take_heap_games_once_each() {
        let sum = Spec::sum(["nim", "octal:0.77", "kayles", "subtract:1,2"]).unwrap();
        assert_eq!(
            sum,
            Spec::Sum(vec![Game::Nim, Game::parse("kayles").unwrap(), Game::parse("subtract:1,2").unwrap()])
        );
        assert_eq!(sum.spec(), "nim + octal:0.77 + subtract:1,2");
        assert_eq!(Spec::part("nim").unwrap(), Game::Nim);
        assert!(reason(Spec::sum(["nim", "moore:2"])).contains("not a part of a sum"));
        assert!(reason(Spec::sum(["moore:0"])).contains("K must be at least 1"));
        assert!(reason(Spec::sum(["nim", "kayle"])).contains("unknown game 'kayle'"));
        assert!(reason(Spec::sum(Vec::<String>::new())).contains("at least one part"));
    }

    #[test]
    fn bad_forms_are_refused_on_one_line() {
        for bad in
            ["", " ", "kayle", "nim:3", "subtract", "octal:0.8", "moore:", "moore:-1", ":", "fraction:0/2"]
        {
            let msg = reason(Spec::parse(bad));
            assert!(msg.starts_with("invalid game"), "{bad:?}: {msg}");
            assert!(!msg.contains('\n'), "{bad:?}: {msg}");
        }
    }

    #[test]
    fn heap_games_are_what_grundy_values_need() {
        assert_eq!(Spec::parse("nim").unwrap().heap_game().unwrap(), Game::Nim);
        assert!(reason(Spec::parse("moore:2").unwrap().heap_game()).contains("no Grundy values"));
        assert!(Spec::staircase("nim").unwrap().heap_game().is_err());
        assert!(Spec::sum(["nim"]).unwrap().heap_game().is_err());
    }

    /// The binary and the Python binding parse specifications here only: no text of theirs
    /// looks at a specification's name or calls the parsers this one is built on.
    #[test]
    fn no_specification_is_sniffed_outside_this_parser() {
        const SNIFFING: [&str; 7] = [
            "Moore::names",
            "Moore::parse",
            "Game::parse",
            "starts_with(\"moore",
            "starts_with(\"stair",
            "strip_prefix(\"moore",
            "strip_prefix(\"stair",
        ];
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
        let mut dirs = vec![root.join("src/bin"), root.join("python/src")];
        let mut read = 0;
        while let Some(dir) = dirs.pop() {
            for entry in std::fs::read_dir(&dir).unwrap() {
                let path = entry.unwrap().path();
                if path.is_dir() {
                    dirs.push(path);
                } else if path.extension().is_some_and(|e| e == "rs") {
                    let text = std::fs::read_to_string(&path).unwrap();
                    read += 1;
                    for (n, line) in text.lines().enumerate() {
                        for pattern in SNIFFING {
                            assert!(
                                !line.contains(pattern),
                                "{}:{}: `{pattern}`: parse specifications with nimcount::spec::Spec",
                                path.display(),
                                n + 1
                            );
                        }
                    }
                }
            }
        }
        assert!(read >= 10, "only {read} source files under src/bin and python/src");
    }

    #[test]
    fn every_form_but_a_sum_is_one_query() {
        let count = |spec: Spec| spec.query().unwrap().sizes(0u32, 3u32).heaps(3u32).count().unwrap().losing;
        assert_eq!(count(Spec::parse("nim").unwrap()), 16u32.into());
        assert_eq!(count(Spec::parse("moore:2").unwrap()), 4u32.into());
        // Steps 1 and 3 equal (4 ways), step 2 free (4 ways).
        assert_eq!(count(Spec::staircase("nim").unwrap()), 16u32.into());
        assert!(Spec::sum(["nim"]).unwrap().query().is_err());
    }
}
