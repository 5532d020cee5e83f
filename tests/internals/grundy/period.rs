mod tests {
    use nimcount::internals::grundy::period::*;

    fn tail_naive(x: &[u32], p: usize) -> usize {
        (0..x.len() - p).rev().find(|&n| x[n] != x[n + p]).map_or(0, |n| n + 1)
    }

    #[test]
    fn tails_match_a_direct_scan() {
        let mut state = 7u64;
        for len in [1usize, 2, 3, 10, 100, 1000] {
            for alphabet in [1u64, 2, 3, 7] {
                let x: Vec<u32> = (0..len)
                    .map(|i| {
                        state = state.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
                        // Periodic with noise near the start, so tails vary.
                        if i < len / 3 { (state >> 33) as u32 % alphabet as u32 } else { (i % 5) as u32 % 3 }
                    })
                    .collect();
                let tail = tails(&x);
                for (p, &t) in tail.iter().enumerate().skip(1) {
                    assert_eq!(t as usize, tail_naive(&x, p), "len {len} p {p} {x:?}");
                }
            }
        }
    }

    #[test]
    fn minimise_finds_divisor_periods_and_walks_back() {
        // Period 3 from n0 = 2, presented as period 12 from q = 20.
        let x = |n: u64| if n < 2 { 9 } else { [0, 1, 1][(n % 3) as usize] };
        assert_eq!(minimise(x, 20, 12), (2, 3));
        // Preperiod 0.
        let y = |n: u64| n % 4;
        assert_eq!(minimise(y, 5, 8), (0, 4));
        // Already minimal.
        assert_eq!(minimise(|n: u64| n.is_multiple_of(7) as u8, 0, 7), (0, 7));
    }
}
