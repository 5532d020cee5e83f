mod tests {
    use nimcount::internals::play::position::*;
    use num_bigint::BigUint;

    use nimcount::internals::play::Verdict;
    use nimcount::internals::play::rules::Rules;

    fn moves(position: &Position) -> Vec<String> {
        position.winning_moves().map(|m| m.to_string()).collect()
    }

    #[test]
    fn nim_moves_reduce_the_heaps_with_the_top_bit_of_the_xor() {
        let nim = Rules::nim();
        let p = Position::new(&nim, [3u32, 5, 7]).unwrap();
        // 3 ⊕ 5 ⊕ 7 = 1: every heap has bit 0.
        assert_eq!(moves(&p), ["heap 1: 3 → 2", "heap 2: 5 → 4", "heap 3: 7 → 6"]);
        let lost = Position::new(&nim, [1u32, 2, 3]).unwrap();
        assert_eq!(lost.verdict(), Verdict::Lost);
        assert!(moves(&lost).is_empty());
        let empty = Position::new(&nim, Vec::<u32>::new()).unwrap();
        assert_eq!(empty.verdict(), Verdict::Lost);
    }

    #[test]
    fn nim_heaps_of_any_size() {
        let nim = Rules::nim();
        let huge = BigUint::from(10u32).pow(3000);
        let p = Position::new(&nim, [huge.clone(), huge.clone() + 5u32]).unwrap();
        assert_eq!(*p.xor(), (&huge ^ (&huge + 5u32)));
        let m = p.winning_moves().collect::<Vec<_>>();
        assert_eq!(m.len(), 1);
        assert_eq!(m[0].changes[0].to, vec![huge]);
    }

    #[test]
    fn misere_nim() {
        for (heaps, verdict) in [
            (vec![], Verdict::Won),
            (vec![1u32], Verdict::Lost),
            (vec![1, 1], Verdict::Won),
            (vec![1, 1, 1], Verdict::Lost),
            (vec![2], Verdict::Won),
            (vec![2, 2], Verdict::Lost),
            (vec![0, 1, 0], Verdict::Lost),
            (vec![0, 0], Verdict::Won),
        ] {
            let p = Position::misere_nim(heaps.clone());
            assert_eq!(p.verdict(), verdict, "{heaps:?}");
            // The empty position is won without a move: the opponent took the last stone.
            let moves_expected = verdict == Verdict::Won && !heaps.iter().all(|&h| h == 0);
            assert_eq!(p.winning_moves().next().is_some(), moves_expected, "{heaps:?}");
        }
        assert_eq!(moves(&Position::misere_nim([5u32])), ["heap 1: 5 → 1"]);
        assert_eq!(moves(&Position::misere_nim([5u32, 1])), ["heap 1: 5 → 0"]);
    }
}
