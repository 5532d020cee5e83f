mod tests {
    use nimcount::internals::grundy::saltus::*;

    use nimcount::internals::game::{Game, HexCode};
    use nimcount::internals::grundy::Theorem;
    use nimcount::internals::grundy::values_of;
    use nimcount::internals::progress::Silent;

    fn code(spec: &str) -> HexCode {
        spec.parse().unwrap()
    }

    /// The games of the literature: their flat values, the certificate, and the windows.
    #[test]
    fn flat_hexadecimal_games_are_certified() {
        for (spec, n0, p, w) in
            [("0.8", 1, 3, 7), ("0.C", 1, 2, 5), ("0.48", 1, 2, 7), ("8.0", 1, 2, 5), ("0.0F", 0, 2, 6)]
        {
            let code = code(spec);
            let game = Game::Hex(code.clone());
            let v = values_of(&game, 200, &Silent).unwrap();
            let c = certify(&code, &v).unwrap_or_else(|| panic!("{spec}"));
            assert_eq!((c.preperiod, c.period, c.saltus), (n0, p, 1), "{spec}");
            let t = code.last_digit();
            let j3 = code.digits().iter().position(|&d| d & 8 != 0).unwrap() as u64;
            let theorem = Theorem::HexadecimalSaltus { last_digit: t, three_heap_take: j3, pairs_take: j3 };
            assert_eq!(c.theorem, theorem);
            assert_eq!(c.theorem.window(n0, p), Some(w), "{spec}");
            // The window's values are enough, one fewer is not.
            let needed = (w + p) as usize;
            assert!(certify(&code, &v[..needed]).is_some(), "{spec}");
            assert!(certify(&code, &v[..needed - 1]).is_none(), "{spec}");
        }
    }

    /// Each hypothesis refuses: values that are not flat, a one-heap move shorter than the period,
    /// a split that can reach the next value, and codes without a three-heap move.
    #[test]
    fn hypotheses_are_checked() {
        let flat_values = |n0: u64, p: u64| (0..100).map(|n| flat(n0, p, n) as u32).collect::<Vec<_>>();
        // 0.8's values are flat with n0 = 1, p = 3, but 0.F8 can take one stone leaving a heap.
        assert!(certify(&code("0.8"), &flat_values(1, 3)).is_some());
        assert!(certify(&code("0.A8"), &flat_values(1, 3)).is_none());
        // C.0 splits without taking: 0 + 2·1 < 1 + 2.
        assert!(certify(&code("C.0"), &flat_values(1, 2)).is_none());
        // No three-heap move; and a value beyond the flat form.
        assert!(certify(&code("0.4"), &flat_values(1, 2)).is_none());
        let mut broken = flat_values(1, 3);
        broken[90] += 1;
        assert!(certify(&code("0.8"), &broken).is_none());
        // Period 1 needs three-heap moves of both parities (one heap per value: no choice of
        // parity for it, the two equal heaps take the rest).
        assert!(certify(&code("0.8"), &flat_values(1, 1)).is_none());
        let nim_like = values_of(&Game::Hex(code("0.FF")), 120, &Silent).unwrap();
        assert_eq!(nim_like, (0..120).collect::<Vec<u32>>());
        let c = certify(&code("0.FF"), &nim_like).unwrap();
        assert_eq!((c.preperiod, c.period, c.saltus), (0, 1, 1));
        assert_eq!(
            c.theorem,
            Theorem::HexadecimalSaltus { last_digit: 2, three_heap_take: 1, pairs_take: 2 }
        );
    }
}
