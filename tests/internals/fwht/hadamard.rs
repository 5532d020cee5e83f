mod tests {
    use half::{bf16, f16};
    use nimcount::internals::fwht::hadamard::*;

    use nimcount::internals::simd::Backend;

    #[test]
    fn lengths_split_into_an_order_and_a_power_of_two() {
        let fht = HadamardFamily::FastHadamardTransform;
        let rule = |len| choose(len, None, None).ok();
        assert_eq!(rule(1), Some((1, 0, fht)));
        assert_eq!(rule(1 << 20), Some((1, 20, fht)));
        assert_eq!(rule(12), Some((12, 0, fht)));
        assert_eq!(rule(28 << 10), Some((28, 10, fht)));
        assert_eq!(rule(40 << 3), Some((40, 3, fht)));
        assert_eq!(rule(20), Some((20, 0, fht)));
        assert_eq!(rule(40), Some((40, 0, fht)));
        assert_eq!(rule(80), Some((40, 1, fht)));
        assert_eq!(rule(12 << 6), Some((12, 6, fht)));
        assert_eq!(rule(36), Some((36, 0, HadamardFamily::Sloane)));
        assert_eq!(rule(172 << 6), Some((172, 6, HadamardFamily::Sloane)));
        for bad in [0, 3, 6, 10, 18, 22, 56 * 3, 172 * 3, usize::MAX] {
            assert_eq!(rule(bad), None, "{bad}");
        }
    }

    #[test]
    fn every_matrix_is_hadamard() {
        for family in HadamardFamily::ALL {
            for &m in family.orders() {
                let h = signs(family, m);
                assert_eq!(h.len(), m * m);
                for a in 0..m {
                    for b in 0..m {
                        let dot: f32 = (0..m).map(|c| h[a * m + c] * h[b * m + c]).sum();
                        assert_eq!(
                            dot,
                            if a == b { m as f32 } else { 0.0 },
                            "{family} order {m}, rows {a} {b}"
                        );
                    }
                }
            }
        }
    }

    /// Many short rows (blocks of fewer than [`SHORT_BLOCK`] values: the batched path) equal each
    /// row transformed alone (the row-by-row path), bit for bit, for every order, storage,
    /// direction and backend, with a number of rows that leaves a partial last batch.
    #[test]
    fn short_rows_in_batches_equal_each_row_alone() {
        fn check<S: Storage + PartialEq + std::fmt::Debug>(make: impl Fn(f32) -> S) {
            let orders =
                HadamardFamily::ALL.into_iter().flat_map(|f| f.orders().iter().map(move |&m| (f, m)));
            for (family, m) in orders {
                for k in 0..6u32 {
                    let len = m << k;
                    let rows = SHORT_COLUMNS.div_ceil(1 << k) + 3;
                    let x: Vec<S> =
                        (0..rows * len).map(|i| make(((i * 7919) % 1009) as f32 / 64.0 - 7.0)).collect();
                    for backend in Backend::ALL.iter().filter(|b| b.available().is_ok()) {
                        let plan = HadamardPlan::with_factor(len, Some(m), Some(family))
                            .unwrap()
                            .with_backend(*backend)
                            .unwrap()
                            .with_parallel(false);
                        for inverse in [false, true] {
                            let run = |d: &mut [S]| {
                                if inverse {
                                    plan.inverse(d, 0.5).unwrap()
                                } else {
                                    plan.forward(d, 0.5).unwrap()
                                }
                            };
                            let mut batch = x.clone();
                            run(&mut batch);
                            let mut alone = x.clone();
                            alone.chunks_mut(len).for_each(run);
                            assert_eq!(
                                batch, alone,
                                "{family} order {m}, 2^{k}, {backend:?}, inverse {inverse}"
                            );
                        }
                    }
                }
            }
        }
        check(|x| x);
        check(f64::from);
        check(f16::from_f32);
        check(bf16::from_f32);
    }
}
