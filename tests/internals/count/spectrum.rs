/// The multiset `{Ĥ_j}` of the transform of `h`'s array of slots, by the O(F log F) reference
/// transform (values below 2^127).
pub(crate) fn array_multiset(h: &nimcount::histogram::Histogram) -> std::collections::HashMap<i128, u64> {
    let array = h.to_array().unwrap();
    let mut data = vec![0i128; array.transform_len()];
    for term in array.terms() {
        let w = i128::try_from(term.weight()).unwrap();
        for (slot, &c) in data.iter_mut().zip(term.counts().iter()) {
            *slot += w * i128::from(c);
        }
    }
    nimcount::internals::fwht::reference::textbook(&nimcount::internals::ring::Exact128, &mut data);
    let mut out = std::collections::HashMap::new();
    for x in data {
        *out.entry(x).or_default() += 1;
    }
    out
}

mod tests {
    use nimcount::internals::count::answer::Options;
    use nimcount::internals::count::spectrum::*;
    use nimcount::internals::fwht::reference;
    use nimcount::internals::histogram::Histogram;
    use nimcount::internals::histogram::Term;
    use num_bigint::{BigInt, BigUint};
    use num_traits::Zero;

    const OPTIONS: Options = Options {
        method: nimcount::internals::count::Method::Auto,
        backend: nimcount::internals::simd::Backend::Scalar,
        parallel: true,
        spectrum: nimcount::internals::count::SpectrumPath::Auto,
        work_limit: nimcount::internals::count::MAX_STEPS,
    };

    #[test]
    fn classes_partition_the_slots_by_exact_value() {
        let huge = BigUint::from(10u8).pow(40);
        let terms = vec![
            Term::new(huge.clone(), vec![1, 1, 1, 1, 1, 0, 0, 0]),
            Term::new(1u32.into(), vec![0, 3, 0, 0, 2, 0, 7, 0]),
            Term::new(5u32.into(), vec![u32::MAX, 0, 0, u32::MAX, 0, 0, 0, 1]),
        ];
        let h = Histogram::from_terms(terms.clone()).unwrap();
        let s = ArraySpectrum::new(&h, true, OPTIONS).unwrap();
        let slots = s.slot_class.as_ref().unwrap();
        assert_eq!(s.multiplicity.iter().sum::<u64>(), 8);
        assert_eq!(slots[0] as usize, s.zero_class);
        assert_eq!(s.value(s.zero_class), BigInt::from(h.total().clone()));
        // Ĥ_j exactly, from the O(n²) reference transform of each term.
        for (j, &c) in slots.iter().enumerate() {
            let mut exact = BigInt::zero();
            for t in &terms {
                let counts: Vec<i128> = t.counts().iter().map(|&x| x as i128).collect();
                let transformed = reference::naive(&nimcount::internals::ring::Exact128, &counts);
                exact += BigInt::from(t.weight().clone()) * transformed[j];
            }
            assert_eq!(s.value(c as usize), exact, "slot {j}");
        }
        let mut values: Vec<BigInt> = (0..s.len()).map(|c| s.value(c)).collect();
        values.sort();
        values.dedup();
        assert_eq!(values.len(), s.len(), "classes with equal tuples were merged");
    }

    #[test]
    fn many_classes_grow_the_table() {
        let mut state = 12345u64;
        let counts: Vec<u32> = (0..4096)
            .map(|_| {
                state = state.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
                ((state >> 33) % 1001) as u32
            })
            .collect();
        let h = Histogram::from_terms(vec![Term::new(1u32.into(), counts)]).unwrap();
        let s = ArraySpectrum::new(&h, false, OPTIONS).unwrap();
        assert!(s.len() > 1000, "{}", s.len());
        assert_eq!(s.multiplicity.iter().sum::<u64>(), 4096);
    }
}
