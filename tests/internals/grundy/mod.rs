mod block;
mod classics;
mod cost;
mod mex;
mod octal;
mod period;
mod range;
mod saltus;
mod search;
mod shifts;
mod store;

mod tests {
    use nimcount::internals::grundy::*;

    use nimcount::internals::game::Game;

    use nimcount::internals::progress::Silent;

    #[test]
    fn nim_is_arithmetic_periodic() {
        let search = find_period(&Game::Nim, 10, &Silent).unwrap();
        let c = search.certificate.clone().unwrap();
        assert_eq!((c.preperiod, c.period, c.saltus, c.theorem), (0, 1, 1, Theorem::Nim));
        assert_eq!(search.value(12345), Some(12345));
        assert_eq!(values(&Game::Nim, 5, &Silent).unwrap(), [0, 1, 2, 3, 4]);
    }

    #[test]
    fn limits_are_checked_before_allocating() {
        let err = find_period(&Game::Nim, MAX_HEAP + 1, &Silent).unwrap_err();
        assert!(err.to_string().contains("beyond the limit"), "{err}");
        let err = values(&Game::Squares, u64::MAX, &Silent).unwrap_err();
        assert!(err.to_string().contains("beyond the limit"), "{err}");
    }
}
