mod tests {
    use nimcount::internals::play::moore::*;
    use nimcount::internals::play::{Move, Verdict};
    use num_bigint::BigUint;

    fn heaps(h: &[u64]) -> Vec<BigUint> {
        h.iter().map(|&n| n.into()).collect()
    }

    #[test]
    fn specs() {
        assert_eq!(Moore::parse("moore:3").unwrap().k(), 3);
        assert_eq!(Moore::parse(" moore : 10^2 ").unwrap().spec(), "moore:100");
        for (bad, needle) in [
            ("moore:0", "K must be at least 1"),
            ("moore", "needs parameters"),
            ("moore:", "invalid number"),
            ("moore:-1", "negative"),
            ("moore:x", "unexpected character"),
        ] {
            let err = Moore::parse(bad).unwrap_err().to_string();
            assert!(
                err.contains(needle) && err.starts_with(&format!("invalid game '{bad}'")),
                "{bad}: {err}"
            );
        }
        assert!(Moore::names("moore") && Moore::names(" moore:2") && !Moore::names("nim"));
    }

    #[test]
    fn combinations_in_order() {
        let mut c = vec![0, 1];
        let mut all = vec![c.clone()];
        while next_combination(&mut c, 4) {
            all.push(c.clone());
        }
        assert_eq!(all, [[0, 1], [0, 2], [0, 3], [1, 2], [1, 3], [2, 3]]);
        let mut none: Vec<usize> = vec![];
        assert!(!next_combination(&mut none, 3));
    }

    #[test]
    fn k_one_is_nim() {
        let nim = Moore::new(1).unwrap();
        let h = heaps(&[3, 4, 5]);
        assert_eq!(nim.verdict(&h), Verdict::Won);
        assert_eq!(nim.winning_move(&h).unwrap().to_string(), "heap 1: 3 → 1");
        let all: Vec<String> = nim.winning_moves(&h).map(|m| m.to_string()).collect();
        assert_eq!(all, ["heap 1: 3 → 1"]);
    }

    #[test]
    fn more_than_k_heaps_may_not_change() {
        let moore = Moore::new(2).unwrap();
        // 7 7 7 7: four 1s in every column; reduce one or two heaps so that each column has 3.
        let h = heaps(&[7, 7, 7, 7]);
        let all: Vec<Move> = moore.winning_moves(&h).collect();
        assert!(all.iter().all(|m| (1..=2).contains(&m.changes.len())));
        assert!(all.iter().any(|m| m.to_string() == "heap 1: 7 → 0"));
        // Two heaps whose bits split 7 between them: 1 + 6, 2 + 5, 3 + 4, 4 + 3, … on any pair.
        assert!(all.iter().any(|m| m.to_string() == "heap 2: 7 → 1, heap 4: 7 → 6"));
        for m in &all {
            let mut next = h.clone();
            for c in &m.changes {
                next[c.heap] = c.to.first().cloned().unwrap_or_default();
            }
            assert_eq!(moore.verdict(&next), Verdict::Lost, "{m}");
        }
        assert!(Moore::new(2).unwrap().winning_moves(&heaps(&[0, 0])).next().is_none());
    }
}
