mod tests {
    use nimcount::internals::count::tally::*;

    #[test]
    fn tallies_count_every_value_or_give_up() {
        let data: Vec<u32> = (0..100_000u32).map(|i| u32::MAX - 40 + (i * 7919) % 37).collect();
        let mut entries = tally(&data, 100, Some(16), true).unwrap();
        entries.sort();
        assert_eq!(entries.len(), 37);
        assert_eq!(entries.iter().map(|e| e.1).sum::<u64>(), 100_000);
        for (key, count) in entries {
            let expected = data.iter().filter(|&&x| u64::from(x) == key).count() as u64;
            assert_eq!(count, expected);
        }
        assert!(tally(&data, 36, None, false).is_none());
        let many: Vec<u64> = (0..50_000u64).map(|i| i.wrapping_mul(0x1234_5678_9ABC_DEF1)).collect();
        assert!(tally(&many, 1000, Some(16), true).is_none());
        assert!(tally(&many, 60_000, None, true).is_some());
        let zeros = vec![0u64; 10];
        assert_eq!(tally(&zeros, 1, Some(16), false), Some(vec![(0, 10)]));
        assert_eq!(tally::<u64>(&[], 1, None, true), Some(vec![]));
    }
}
