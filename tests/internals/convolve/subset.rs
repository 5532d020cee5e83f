mod tests {
    use nimcount::internals::convolve::subset::*;

    use nimcount::internals::ring::{Mod32, Wrap64};
    use nimcount::internals::simd::Backend;

    /// `c[s] = Σ_{t ⊆ s} a[t] · b[s ∖ t] mod m`, subset by subset.
    fn sum_over_subsets(a: &[u32], b: &[u32], m: u32) -> Vec<u32> {
        (0..a.len()).map(|s| sum_at(a, b, m, s)).collect()
    }

    /// `c[s]` of [`sum_over_subsets`] at one set.
    fn sum_at(a: &[u32], b: &[u32], m: u32, s: usize) -> u32 {
        let (mut t, mut sum) = (s, 0u64);
        loop {
            sum = (sum + u64::from(a[t]) * u64::from(b[s ^ t])) % u64::from(m);
            if t == 0 {
                return sum as u32;
            }
            t = (t - 1) & s;
        }
    }

    /// A residue below `m` from the generator `seed`: `m − 1` one time in eight.
    fn residue(seed: &mut u64, m: u32) -> u32 {
        *seed = seed.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
        if *seed >> 61 == 0 { m - 1 } else { ((*seed >> 20) % u64::from(m)) as u32 }
    }

    /// The rank products of [`Mod32Ranks`], 16 sets in pairs and one set alone, against sums of
    /// products in `u128` times `2^−32`, over 41 rank rows (up to 21 terms a rank: past the fold
    /// every `terms` products, for each modulus) of residues up to `m − 1`, with the rows above
    /// `top` zero as the contract says; and the fold on the extremes of `u64`.
    #[test]
    fn rank_products_equal_sums_of_products_in_u128() {
        let mut seed = 0x9e37u64;
        let (n, row_len, at) = (40usize, 32usize, 16usize);
        for m in [998_244_353u32, Mod32::MAX_MODULUS, 999_999_999, 3, 1] {
            let ranks = Mod32Ranks::new(Mod32::new(m).unwrap());
            let cap = u64::from(m) << 32;
            for t in [0, 1, cap - 1, cap, u64::MAX - 1, u64::MAX, 1 << 63] {
                let folded = ranks.fold(t);
                assert!(folded < cap && folded % u64::from(m) == t % u64::from(m), "fold of {t} mod {m}");
            }
            // 2^−32 mod m, as ((m + 1) / 2)^32.
            let half = u128::from(m / 2 + 1);
            let unit = (0..32).fold(1u128 % u128::from(m), |x, _| x * half % u128::from(m));
            let mut random = || residue(&mut seed, m);
            for (from, top) in [(0, 4), (9, 13), (18, 22), (20, 24), (36, 40)] {
                let mut rows = |_| -> Vec<u32> {
                    (0..(n + 1) * row_len).map(|x| if x / row_len <= top { random() } else { 0 }).collect()
                };
                let (fa, fb) = (rows(0), rows(1));
                let want = |r: usize, l: usize| {
                    let sum = (r.saturating_sub(top)..=r.min(top)).fold(0u128, |s, i| {
                        s + u128::from(fa[i * row_len + at + l]) * u128::from(fb[(r - i) * row_len + at + l])
                    });
                    (sum % u128::from(m) * unit % u128::from(m)) as u32
                };
                let mut scratch = vec![[0u64; LANES]; 2 * (n + 1)];
                let mut pairs = fa.clone();
                ranks.products::<LANES>(Products {
                    fa: &mut pairs,
                    fb: &fb,
                    row_len,
                    at,
                    top,
                    from,
                    n,
                    scratch: &mut scratch,
                });
                let mut alone = fa.clone();
                for l in 0..LANES {
                    let f = Products {
                        fa: &mut alone,
                        fb: &fb,
                        row_len,
                        at: at + l,
                        top,
                        from,
                        n,
                        scratch: &mut scratch,
                    };
                    ranks.products::<1>(f);
                }
                for r in from..=n {
                    for l in 0..LANES {
                        let (x, y, w) =
                            (pairs[r * row_len + at + l], alone[r * row_len + at + l], want(r, l));
                        assert!(
                            x == w && y == w,
                            "m {m}, from {from}, top {top}, rank {r}, lane {l}: {x}, {y}, {w}"
                        );
                    }
                }
            }
        }
    }

    /// The levels above the blocks in several column tiles a rank row (2^18 sets, blocks of 2^10:
    /// eight levels in one sweep, two tiles a row) and in two sweeps (blocks of 2^8, ten levels),
    /// on every backend this CPU runs, against one block of all the sets (no levels above it).
    #[test]
    fn tiles_of_columns_equal_one_block() {
        let (m, n) = (998_244_353u32, 18);
        let ranks = Mod32Ranks::new(Mod32::new(m).unwrap());
        let mut seed = 0x71e5u64;
        let a: Vec<u32> = (0..1 << n).map(|_| residue(&mut seed, m)).collect();
        let b: Vec<u32> = (0..1 << n).map(|_| residue(&mut seed, m)).collect();
        let want = ranked_blocks(&ranks, &a, &b, |x| x, n, n, Backend::best());
        // The reference itself, at a few sets, against the sum over their subsets.
        for s in [0usize, 1, 0x2aaaa, (1 << n) - 1] {
            assert_eq!(want[s], sum_at(&a, &b, m, s), "set {s:#x}");
        }
        for backend in Backend::ALL {
            if !backend.is_available() {
                eprintln!("SKIPPED: the subset convolution on {backend} (this CPU lacks it)");
                continue;
            }
            for block_log2 in [8, 10] {
                let got = ranked_blocks(&ranks, &a, &b, |x| x, n, block_log2, backend);
                assert!(got == want, "blocks of 2^{block_log2}, {backend}");
            }
        }
    }

    /// The ranked computation with every kind of block (one set; blocks below the SIMD kernels'
    /// 256; 2^8 and 2^9 with two to five levels above them, in one or two column passes; the
    /// whole vector) on every backend this CPU runs, against the sum over subsets: residues up to
    /// `m − 1` (one input all `m − 1`, the largest sums of products), for the largest modulus,
    /// 998 244 353, and the smallest ones; and a ring of words.
    #[test]
    fn every_block_size_on_every_backend_equals_the_sum_over_subsets() {
        let mut seed = 0x5b5e7u64;
        let mut random = |m: u32| residue(&mut seed, m);
        for (m, n) in [(998_244_353u32, 13), (Mod32::MAX_MODULUS, 11), (3, 6), (1, 2)] {
            let ranks = Mod32Ranks::new(Mod32::new(m).unwrap());
            let len = 1usize << n;
            let a: Vec<u32> = (0..len).map(|_| random(m)).collect();
            for b in [(0..len).map(|_| random(m)).collect(), vec![m - 1; len]] {
                let want = sum_over_subsets(&a, &b, m);
                for backend in Backend::ALL {
                    if !backend.is_available() {
                        eprintln!("SKIPPED: the subset convolution on {backend} (this CPU lacks it)");
                        continue;
                    }
                    for block_log2 in [0, 1, 5, 8, 9, n].into_iter().filter(|&l| l <= n) {
                        let got = ranked_blocks(&ranks, &a, &b, |x| x, n, block_log2, backend);
                        assert!(got == want, "m {m}, 2^{n}, blocks of 2^{block_log2}, {backend}");
                    }
                }
            }
        }
        let ring = WordRanks(Wrap64);
        let a: Vec<u64> = (0..1 << 10).map(|_| u64::from(random(u32::MAX)) << 31 | 1).collect();
        let b: Vec<u64> = (0..1 << 10).map(|_| u64::from(random(u32::MAX)) << 17).collect();
        let want: Vec<u64> = (0..a.len())
            .map(|s| {
                (0..a.len())
                    .filter(|t| t & s == *t)
                    .fold(0u64, |x, t| x.wrapping_add(a[t].wrapping_mul(b[s ^ t])))
            })
            .collect();
        for block_log2 in [0, 3, 10] {
            let got = ranked_blocks(&ring, &a, &b, |x| x, 10, block_log2, Backend::best());
            assert!(got == want, "wrapping u64, blocks of 2^{block_log2}");
        }
    }
}
