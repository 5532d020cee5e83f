mod tests {
    use nimcount::internals::count::misere::*;
    use num_bigint::{BigInt, BigUint};

    use nimcount::internals::count::answer::Kind;

    /// The sum over a range of heap counts equals the corrections added one by one, for every
    /// kind, every range of sizes that decides `z` and `o`, and ranges from 0.
    #[test]
    fn correction_sums_equal_the_corrections_one_by_one() {
        let b = |x: u32| BigUint::from(x);
        for kind in [Kind::Ordered, Kind::Multiset, Kind::Set] {
            for (lo, hi) in [(0, 0), (0, 1), (0, 5), (1, 1), (1, 4), (2, 9)] {
                for k_lo in 0..7 {
                    for k_hi in k_lo..9 {
                        let one_by_one: i64 =
                            (k_lo..=k_hi).map(|k| correction(kind, &b(k), &b(lo), &b(hi))).sum();
                        let sum = correction_sum(kind, &b(k_lo), &b(k_hi), &b(lo), &b(hi));
                        assert_eq!(
                            sum,
                            BigInt::from(one_by_one),
                            "{kind:?} sizes {lo}..={hi} heaps {k_lo}..={k_hi}"
                        );
                    }
                }
            }
        }
    }
}
