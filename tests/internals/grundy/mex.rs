mod tests {
    use nimcount::internals::grundy::mex::*;

    /// [`mex`] against the definition, on sets that end inside a word, on a word boundary, and
    /// full ones.
    #[test]
    fn mex_of_words_is_the_smallest_clear_bit() {
        let definition = |words: &[u64]| {
            (0u32..).find(|&v| words.get(v as usize / 64).is_none_or(|w| w >> (v % 64) & 1 == 0)).unwrap()
        };
        let cases: [&[u64]; 8] = [
            &[],
            &[0],
            &[1],
            &[u64::MAX],
            &[u64::MAX, u64::MAX],
            &[u64::MAX, 0b1011],
            &[u64::MAX >> 1, u64::MAX],
            &[u64::MAX, u64::MAX, 1 << 63],
        ];
        for words in cases {
            assert_eq!(mex(words), definition(words), "{words:x?}");
        }
        assert_eq!(mex(&[u64::MAX, 0b1011]), 66);
        assert_eq!(mex(&[u64::MAX; 3]), 192);
    }

    #[test]
    fn mex_set_basics() {
        let mut set = MexSet::new();
        assert_eq!(set.mex(), 0);
        for v in [0, 1, 2, 4] {
            set.insert(v);
        }
        assert_eq!(set.mex(), 3);
        set.clear();
        assert_eq!(set.mex(), 0);
        for v in 0..64 {
            set.insert(v);
        }
        assert_eq!(set.mex(), 64);
        set.insert(1000);
        assert_eq!(set.mex(), 64);
    }

    /// Random inserts and removes against a plain count array, with fixed seeds.
    #[test]
    fn counted_mex_matches_counts() {
        for (seed, range) in [(1u64, 100u32), (2, 5000), (3, 300_000), (4, 2_000_000)] {
            let mut rng = crate::testing::Rng(seed);
            let mut next = move || rng.next();
            let mut set = CountedMex::with_capacity(64);
            let mut counts = vec![0u32; range.max(200) as usize + 1];
            let mut present: Vec<u32> = Vec::new();
            for step in 0..20_000 {
                // Mostly dense values near 0 so that mexes are interesting, some far ones.
                let v =
                    if next() % 4 == 0 { (next() % u64::from(range)) as u32 } else { (next() % 200) as u32 };
                if next() % 3 != 0 || present.is_empty() {
                    set.insert(v);
                    counts[v as usize] += 1;
                    present.push(v);
                } else {
                    let i = (next() % present.len() as u64) as usize;
                    let v = present.swap_remove(i);
                    set.remove(v);
                    counts[v as usize] -= 1;
                }
                if step % 7 == 0 {
                    let low = if next() % 2 == 0 { 0 } else { (next() % u64::from(range)) as u32 };
                    let expected = (low..).find(|&u| counts.get(u as usize).is_none_or(|&c| c == 0)).unwrap();
                    assert_eq!(set.mex_from(low), expected, "seed {seed} step {step} low {low}");
                }
            }
        }
    }

    #[test]
    fn counted_mex_across_levels() {
        // Fill 0..300_000 so the first absent value is found through level 2.
        let mut set = CountedMex::with_capacity(1);
        for v in 0..300_000 {
            set.insert(v);
        }
        assert_eq!(set.mex_from(0), 300_000);
        set.remove(262_143);
        assert_eq!(set.mex_from(0), 262_143);
        assert_eq!(set.mex_from(262_144), 300_000);
        set.insert(262_143);
        for v in 300_000..(1 << 19) {
            set.insert(v);
        }
        assert_eq!(set.mex_from(5), 1 << 19);
    }
}
