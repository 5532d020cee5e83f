mod hex;
mod moves;
mod octal;
mod splits;

mod tests {
    use nimcount::internals::game::*;

    use nimcount::internals::game::names::NAMES;

    #[test]
    fn specs_round_trip() {
        for (spec, canonical) in [
            ("nim", "nim"),
            (" squares ", "squares"),
            ("subtract:1,3,4", "subtract:1,3,4"),
            ("subtract:1-1000000", "subtract:1-1000000"),
            ("subtract:1-3,7,10-12", "subtract:1-3,7,10-12"),
            ("subtract:1,2,3", "subtract:1-3"),
            ("allbut:2,1", "allbut:1,2"),
            ("octal:0.07", "octal:0.07"),
            ("octal:4.007", "octal:4.007"),
            ("octal:.137", "octal:0.137"),
            ("kayles", "octal:0.77"),
            ("dawsons-kayles", "octal:0.07"),
            ("dawsons-chess", "octal:0.137"),
            ("officers", "octal:0.6"),
            ("guiles", "octal:0.15"),
            ("hex:0.77", "octal:0.77"),
            ("hex:0.f8", "hex:0.F8"),
            ("hex:c.1", "hex:C.1"),
            ("grundy-game", "grundy-game"),
            (" lasker ", "lasker"),
            ("fraction:1/2", "fraction:1/2"),
            ("fraction:2/4", "fraction:1/2"),
            ("fraction:2^32-1/2^32", "fraction:4294967295/4294967296"),
        ] {
            let game = Game::parse(spec).unwrap();
            assert_eq!(game.spec(), canonical);
            assert_eq!(game.to_string(), canonical);
            assert_eq!(Game::parse(canonical).unwrap(), game);
        }
    }

    #[test]
    fn constructors_match_specs() {
        assert_eq!(Game::subtract(&[4, 1, 3]).unwrap(), Game::parse("subtract:1,3,4").unwrap());
        assert_eq!(Game::subtract_runs(&[(1, 3), (7, 7)]).unwrap(), Game::parse("subtract:1-3,7").unwrap());
        assert_eq!(Game::all_but(&[2, 1]).unwrap(), Game::parse("allbut:1,2").unwrap());
        assert_eq!(Game::octal("0.16").unwrap(), Game::parse("octal:0.16").unwrap());
        assert!(Game::subtract(&[]).is_err());
        assert!(Game::subtract(&[0]).is_err());
    }

    #[test]
    fn bad_specs_name_the_problem_on_one_line() {
        for (spec, needle) in [
            ("octal:0.8", "8 is not an octal digit"),
            ("octal:", "expected an octal code"),
            ("octal", "needs parameters"),
            ("octal:2.07", "leading digit must be 0 or 4"),
            ("subtract:", "expected a list of moves"),
            ("subtract:5-1", "the range 5-1 is empty"),
            ("subtract:0", "moves must be positive"),
            ("subtract:1,3-2^50", "larger than the limit"),
            ("subtract:1-2^63", "larger than the limit"),
            ("subtract:1-99999999999999999999999", "larger than 2^64"),
            ("allbut:", "expected the excluded moves"),
            ("squares:3", "takes no parameters"),
            ("nim:1", "takes no parameters"),
            ("chess", "unknown game 'chess'"),
            ("moore:2", "moore:K is Moore's Nim, whose moves change several heaps at once"),
            ("kayles:3", "takes no parameters"),
            ("lasker:1", "takes no parameters"),
            ("grundy-game:2", "takes no parameters"),
            ("hex:0.G", "'G' is not a hexadecimal digit"),
            ("hex:1.F", "leading digit must be 0, 4, 8 or C"),
            ("hex", "needs parameters"),
            ("fraction", "needs parameters"),
            ("fraction:1", "expected a fraction P/Q"),
            ("fraction:1/", "expected a fraction P/Q"),
            ("fraction:1/0", "the denominator must be positive"),
            ("fraction:0/3", "the numerator must be positive"),
            ("fraction:3/3", "is at least 1"),
            ("fraction:5/3", "the game is nim"),
            ("fraction:1/2^33", "larger than the limit 2^32"),
            ("fraction:x/2", "fraction:x/2"),
            ("Kayles", "unknown game 'Kayles'"),
            ("", "empty specification"),
        ] {
            let err = Game::parse(spec).unwrap_err().to_string();
            assert!(err.contains(needle), "{spec}: {err}");
            assert!(err.starts_with(&format!("invalid game '{spec}'")), "{spec}: {err}");
            assert!(!err.contains('\n'), "{spec}: {err}");
        }
    }

    fn options_of(game: &Game, n: u64) -> Vec<Vec<u64>> {
        let mut all = Vec::new();
        game.options(n, &mut |heaps| all.push(heaps.to_vec()));
        all.sort();
        all
    }

    #[test]
    fn options_follow_the_rules() {
        let g = |s: &str| Game::parse(s).unwrap();
        assert_eq!(options_of(&g("nim"), 3), vec![vec![], vec![1], vec![2]]);
        assert_eq!(options_of(&g("nim"), 0), Vec::<Vec<u64>>::new());
        assert_eq!(options_of(&g("subtract:1,3,4"), 3), vec![vec![], vec![2]]);
        assert_eq!(options_of(&g("allbut:1,2"), 4), vec![vec![], vec![1]]);
        assert_eq!(options_of(&g("squares"), 5), vec![vec![1], vec![4]]);
        // 0.137: take 1 leaving nothing; take 2 leaving one heap; take 3 leaving 0, 1 or 2 heaps.
        assert_eq!(options_of(&g("octal:0.137"), 3), vec![vec![], vec![1]]);
        assert_eq!(options_of(&g("octal:0.137"), 6), vec![vec![1, 2], vec![3], vec![4]]);
        // 4.0: split without taking.
        assert_eq!(options_of(&g("octal:4.0"), 4), vec![vec![1, 3], vec![2, 2]]);
        assert_eq!(options_of(&g("octal:0.0"), 4), Vec::<Vec<u64>>::new());
        // Grundy's game: unequal splits only.
        assert_eq!(options_of(&g("grundy-game"), 6), vec![vec![1, 5], vec![2, 4]]);
        assert_eq!(options_of(&g("grundy-game"), 2), Vec::<Vec<u64>>::new());
        // Lasker's Nim: take any number, or split.
        assert_eq!(options_of(&g("lasker"), 3), vec![vec![], vec![1], vec![1, 2], vec![2]]);
        // Take at most 2/3 of 7: one to four stones.
        assert_eq!(options_of(&g("fraction:2/3"), 7), vec![vec![3], vec![4], vec![5], vec![6]]);
        assert_eq!(options_of(&g("fraction:1/2"), 1), Vec::<Vec<u64>>::new());
        // 0.8: take one stone, leaving three non-empty heaps.
        assert_eq!(options_of(&g("hex:0.8"), 6), vec![vec![1, 1, 3], vec![1, 2, 2]]);
        // 8.0: split into three without taking.
        assert_eq!(options_of(&g("hex:8.0"), 3), vec![vec![1, 1, 1]]);
    }

    #[test]
    fn names_are_aliases_of_their_codes() {
        for named in NAMES.iter().filter(|n| n.is_alias()) {
            let game = Game::parse(named.name).unwrap();
            assert_eq!(game.spec(), named.spec);
            assert_eq!(game.classic_name(), Some(named.name));
        }
        for named in NAMES.iter().filter(|n| !n.is_family() && !n.is_alias()) {
            assert_eq!(Game::parse(named.name).unwrap().spec(), named.name);
        }
        assert_eq!(Game::parse("octal:0.16").unwrap().classic_name(), None);
    }
}
