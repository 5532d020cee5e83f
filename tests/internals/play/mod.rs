mod misere;
mod moore;
mod position;
mod rules;
mod staircase;

mod tests {
    use nimcount::internals::play::*;

    use num_bigint::BigUint;

    #[test]
    fn moves_print_with_heaps_from_one() {
        let big = |n: u32| BigUint::from(n);
        assert_eq!(Move::single(0, big(3), vec![big(1)]).to_string(), "heap 1: 3 → 1");
        assert_eq!(Move::single(1, big(7), vec![big(2), big(3)]).to_string(), "heap 2: 7 → 2 + 3");
        let two = Move {
            changes: vec![
                Change { heap: 0, from: big(5), to: vec![] },
                Change { heap: 2, from: big(2), to: vec![big(1)] },
            ],
        };
        assert_eq!(two.to_string(), "heap 1: 5 → 0, heap 3: 2 → 1");
        assert_eq!(non_empty([big(0), big(4)]), vec![big(4)]);
        assert_eq!(Verdict::lost_if(true).to_string(), "lost");
    }
}
