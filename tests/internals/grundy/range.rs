mod tests {
    use nimcount::internals::grundy::range::*;

    use nimcount::internals::game::Game;

    use nimcount::internals::progress::Silent;
    use nimcount::internals::simd::Backend;

    #[test]
    fn values_on_every_backend_equal_the_plain_mex() {
        let squares = Game::Squares;
        let want = nimcount::internals::grundy::values_of(&squares, 20_000, &Silent).unwrap();
        for backend in Backend::ALL.into_iter().filter(|b| b.is_available()) {
            let got = values_within_on(&squares, 20_000, 60.0, &Silent, backend).unwrap();
            assert_eq!(got, Within::Values(want.clone()), "{backend}");
        }
    }
}
