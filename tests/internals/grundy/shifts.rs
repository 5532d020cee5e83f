mod tests {
    use nimcount::internals::grundy::shifts::*;

    #[test]
    fn shifts_and_tails_match_a_direct_scan() {
        // Noise, then period 37 from 5000; the last block also recurs at 74, 111, ….
        let mut state = 99u64;
        let mut values: Vec<u8> = (0..5000)
            .map(|_| {
                state = state.wrapping_mul(6364136223846793005).wrapping_add(1);
                (state >> 59) as u8
            })
            .collect();
        let period: Vec<u8> = values[..37].iter().map(|v| v ^ 1).collect();
        for i in 0..20_000 {
            values.push(period[i % 37]);
        }
        let (found, work) = shifts(&values);
        assert!(work >= values.len() as u64);
        assert_eq!(found[0].period, 37);
        let naive = |values: &[u8], p: usize| {
            (0..values.len() - p).rev().find(|&n| values[n] != values[n + p]).map_or(0, |n| n + 1)
        };
        for s in &found {
            assert_eq!(s.period % 37, 0);
            assert_eq!(s.tail as usize, naive(&values, s.period as usize), "{s:?}");
        }
        // Updating over more values keeps the tail; a break moves it.
        let mut shift = found[0];
        values.extend_from_slice(&period[(20_000 % 37)..]);
        shift.update(&values);
        assert_eq!(shift.tail as usize, naive(&values, 37));
        values.push(200);
        shift.update(&values);
        assert_eq!((shift.tail as usize, shift.checked as usize), (values.len() - 37, values.len()));
        // Too short a prefix has no candidates.
        assert!(shifts(&values[..50]).0.is_empty());
    }
}
