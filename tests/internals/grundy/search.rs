mod tests {
    use nimcount::internals::grundy::search::*;

    use nimcount::internals::game::Game;

    /// A default-style limit stops where the estimate reaches it, even for a game whose values
    /// defeat the sparse space (0.06: every split of every heap, about n²/4 ns for n values).
    #[test]
    fn a_time_limit_holds_for_a_game_without_sparse_space() {
        let game = Game::parse("octal:0.06").unwrap();
        let search = Search::new().limit(Limit::Seconds(0.02)).parallel(false).run(&game).unwrap();
        // n²/4 ns = 0.02 s at n ≈ 9000; chunks of 4096 values may go one chunk past.
        let n = search.checked_upto;
        assert!((6_000..=16_000).contains(&n), "{n} values");
        assert!(!search.stopped_by_clock);
    }

    #[test]
    fn suggestions_are_round() {
        assert_eq!([1, 3, 7, 10, 11, 400, 4_000_001].map(round_up), [1, 5, 10, 10, 20, 500, 5_000_000]);
        assert_eq!(human(1_234_567.0), "1.23 M");
        assert_eq!(human(45_600.0), "46 k");
    }
}
