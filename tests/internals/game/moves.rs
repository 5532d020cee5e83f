mod tests {
    use nimcount::internals::game::moves::*;

    #[test]
    fn runs_merge_and_print_canonically() {
        let set: MoveSet = "5, 1-3, 4, 9, 8".parse().unwrap();
        assert_eq!(set.runs(), &[(1, 5), (8, 9)]);
        assert_eq!(set.to_string(), "1-5,8,9");
        assert_eq!(set.to_string().parse::<MoveSet>().unwrap(), set);
        assert_eq!("10^6".parse::<MoveSet>().unwrap().largest(), 1_000_000);
        // One interval may reach 2^62; runs that merge into one interval too.
        assert_eq!("1-10^18".parse::<MoveSet>().unwrap().largest(), 1_000_000_000_000_000_000);
        assert_eq!("2^62".parse::<MoveSet>().unwrap().runs(), &[(1 << 62, 1 << 62)]);
        assert_eq!("1-5,6-2^50".parse::<MoveSet>().unwrap().runs(), &[(1, 1 << 50)]);
    }

    #[test]
    fn bad_lists_are_refused() {
        for bad in ["", "0", "5-1", "1,,2", "1-", "-3", "x", "1-2-3", "1-5-1", "2^63", "1,2^41", "1-3,5-2^41"]
        {
            let err = bad.parse::<MoveSet>().unwrap_err();
            assert!(!err.to_string().contains('\n'), "{bad}: {err}");
        }
    }

    #[test]
    fn membership() {
        let set: MoveSet = "2-4,7".parse().unwrap();
        let members: Vec<u64> = (0..10).filter(|&k| set.contains(k)).collect();
        assert_eq!(members, vec![2, 3, 4, 7]);
        assert_eq!(set.iter().collect::<Vec<_>>(), members);
    }
}
