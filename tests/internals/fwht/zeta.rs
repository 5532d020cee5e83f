mod tests {
    use nimcount::internals::error::Error;
    use nimcount::internals::fwht::Plan;
    use nimcount::internals::fwht::zeta::*;

    use nimcount::internals::fwht::Backend;
    use nimcount::internals::ring::Ring;
    use nimcount::internals::ring::{Exact64, Float64, Mod32, Wrap32};

    /// Every kind against the definition (sums over subsets or supersets, signed for Möbius),
    /// lengths 1 to 2^11 (the textbook loop, leaves and column passes), two chunks.
    #[test]
    fn zeta_and_mobius_equal_their_definitions() {
        let ring = Mod32::new(998_244_353).unwrap();
        let mut seed = 7u64;
        for log2 in 0..=11u32 {
            let n = 1usize << log2;
            let x: Vec<u32> = (0..2 * n)
                .map(|_| {
                    seed = seed.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
                    ((seed >> 33) % 998_244_353) as u32
                })
                .collect();
            let plan = Plan::new(ring, n).unwrap();
            for sets in [Sets::Subset, Sets::Superset] {
                let inside = |t: usize, s: usize| match sets {
                    Sets::Subset => t & s == t,
                    Sets::Superset => t & s == s,
                };
                let mut z = x.clone();
                plan.zeta(&mut z, sets).unwrap();
                let mut m = x.clone();
                plan.mobius(&mut m, sets).unwrap();
                if log2 <= 8 {
                    for c in 0..2 {
                        for s in 0..n {
                            let (mut sum, mut signed) = (0u32, 0u32);
                            for t in (0..n).filter(|&t| inside(t, s)) {
                                let v = x[c * n + t];
                                sum = ring.add(sum, v);
                                let odd = ((t ^ s).count_ones() & 1) == 1;
                                signed = if odd { ring.sub(signed, v) } else { ring.add(signed, v) };
                            }
                            assert_eq!(z[c * n + s], sum, "{sets:?} zeta 2^{log2} at {s}");
                            assert_eq!(m[c * n + s], signed, "{sets:?} Möbius 2^{log2} at {s}");
                        }
                    }
                }
                plan.mobius(&mut z, sets).unwrap();
                assert_eq!(z, x, "{sets:?} Möbius undoes zeta at 2^{log2}");
            }
        }
    }

    /// Every kind on every SIMD backend of every ring with one equals the scalar backend exactly
    /// (floats bit for bit): lengths from below one SIMD leaf through leaves, column passes over
    /// 2 to 16 rows and nodes of several levels to a parallel 2^17, values up to `m − 1` and the
    /// extremes of the wrapping and float types, two chunks.
    fn check_backends<R: Ring>(
        ring: R,
        value: impl Fn(u64) -> R::Elem,
        same: impl Fn(&R::Elem, &R::Elem) -> bool,
    ) where
        R::Elem: Copy,
    {
        let mut rng = crate::testing::Rng(0x5e75);
        for backend in [Backend::Avx2, Backend::Avx512] {
            if !backend.is_available() {
                eprintln!("SKIPPED: zeta and Möbius on {backend} over {ring} (this CPU lacks it)");
                continue;
            }
            for log2 in [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 13, 17] {
                let n = 1usize << log2;
                let chunks = if log2 >= 13 { 1 } else { 2 };
                let x: Vec<R::Elem> = (0..n * chunks)
                    .map(|_| {
                        let r = rng.next();
                        value(if r.is_multiple_of(8) { u64::MAX - r % 3 } else { r })
                    })
                    .collect();
                if log2 >= 8 {
                    // The SIMD kernel itself runs (every leaf is at most 2^8 elements).
                    let mut y = x[..n].to_vec();
                    assert!(
                        ring.transform_sets(
                            &mut y,
                            log2,
                            true,
                            false,
                            backend,
                            false,
                            nimcount::internals::internal()
                        ),
                        "{ring}"
                    );
                }
                for parallel in [false, true] {
                    let plan = Plan::new(ring.clone(), n).unwrap().with_parallel(parallel);
                    let scalar = plan.clone().with_backend(Backend::Scalar).unwrap();
                    let simd = plan.with_backend(backend).unwrap();
                    for sets in [Sets::Subset, Sets::Superset] {
                        for inverse in [false, true] {
                            let (mut want, mut got) = (x.clone(), x.clone());
                            scalar.run_sets(&mut want, sets, inverse);
                            simd.run_sets(&mut got, sets, inverse);
                            let what = format!(
                                "{ring} {backend} {sets:?} inverse {inverse} 2^{log2} parallel {parallel}"
                            );
                            assert!(want.iter().zip(&got).all(|(w, g)| same(w, g)), "{what}");
                        }
                    }
                }
            }
        }
    }

    #[test]
    fn zeta_and_mobius_on_every_backend_equal_the_scalar_kernel() {
        use nimcount::internals::ring::{Exact64, Float32, Mod64, Wrap64};
        for m in [998_244_353u32, Mod32::MAX_MODULUS, 3] {
            check_backends(
                Mod32::new(m).unwrap(),
                |r| if r >= u64::MAX - 2 { m - 1 } else { (r % u64::from(m)) as u32 },
                |a, b| a == b,
            );
        }
        for m in [(1u64 << 62) - 57, Mod64::MAX_MODULUS] {
            check_backends(
                Mod64::new(m).unwrap(),
                |r| if r >= u64::MAX - 2 { m - 1 } else { r % m },
                |a, b| a == b,
            );
        }
        check_backends(Wrap32, |r| r as u32, |a, b| a == b);
        check_backends(Wrap64, |r| r, |a, b| a == b);
        // Exact i64 within the bound: |x| < 2^40 over at most 2^17 elements.
        check_backends(Exact64, |r| (r >> 24) as i64 - (1 << 39), |a, b| a == b);
        check_backends(Float32, |r| (r >> 40) as f32 * 0.37 - 1e6, |a, b| a.to_bits() == b.to_bits());
        check_backends(
            Float64,
            |r| if r >= u64::MAX - 2 { f64::MAX } else { (r >> 11) as f64 * 1e-3 - 4e12 },
            |a, b| a.to_bits() == b.to_bits(),
        );
    }

    #[test]
    fn zeta_refuses_what_forward_refuses() {
        let plan = Plan::new(Mod32::new(7).unwrap(), 4).unwrap();
        let mut x = vec![1, 2, 7, 3];
        assert!(matches!(plan.zeta(&mut x, Sets::Subset), Err(Error::ValueOutOfRange { index: 2, .. })));
        assert_eq!(x, [1, 2, 7, 3]);
        assert!(matches!(plan.zeta(&mut [1, 2, 3], Sets::Subset), Err(Error::LengthMismatch { .. })));
        assert!(matches!(plan.zeta(&mut [], Sets::Subset), Err(Error::EmptyBuffer)));
        let plan = Plan::new(Exact64, 2).unwrap();
        let mut x = vec![i64::MAX, 1];
        assert!(matches!(plan.zeta(&mut x, Sets::Superset), Err(Error::Overflow { .. })));
        // Rings without 1/2 and floats have both.
        let mut w = vec![u32::MAX, 2];
        Plan::new(Wrap32, 2).unwrap().zeta(&mut w, Sets::Subset).unwrap();
        assert_eq!(w, [u32::MAX, 1]);
        let mut f = vec![0.5, 0.25];
        Plan::new(Float64, 2).unwrap().mobius(&mut f, Sets::Superset).unwrap();
        assert_eq!(f, [0.25, 0.25]);
    }
}
