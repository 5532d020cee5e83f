mod tests {
    use nimcount::internals::play::staircase::*;

    use nimcount::internals::play::Rules;

    #[test]
    fn even_steps_answer_moves_from_above() {
        let nim = Rules::nim();
        // Steps 1, 2 hold 1 and 2 coins: xor 1. Take the coin off step 1, or bring coins from
        // step 2 onto step 1: 1 + k with G = 1 ⊕ 1 = 0 is impossible; so one move.
        let s = Staircase::new(&nim, [1u32, 2]).unwrap();
        let moves: Vec<String> = s.winning_moves().map(|m| Staircase::describe(&m)).collect();
        assert_eq!(moves, ["step 1: 1 → 0, step 0 gains 1"]);
        // Steps 1..3 hold 2, 4, 3: xor 2 ⊕ 3 = 1. Step 1 cannot go up by taking; one coin
        // from step 2 brings it to 3 = 2 ⊕ 1; or step 3 goes down to 2 = 3 ⊕ 1.
        let s = Staircase::new(&nim, [2u32, 4, 3]).unwrap();
        let moves: Vec<String> = s.winning_moves().map(|m| Staircase::describe(&m)).collect();
        assert_eq!(
            moves,
            ["step 2: 4 → 3, step 1 gains 1", "step 3: 3 → 2, step 2 gains 1"],
            "{:?}",
            s.winning_moves().collect::<Vec<_>>()
        );
    }
}
