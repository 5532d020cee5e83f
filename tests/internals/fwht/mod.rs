mod hadamard;
mod reference;
mod zeta;

mod tests {
    use nimcount::internals::fwht::*;

    use nimcount::internals::simd::Backend;

    use crate::testing::Rng;
    use nimcount::internals::error::Error;
    use nimcount::internals::ring::Ring;
    use nimcount::internals::ring::{Mod32, Mod64};

    /// `forward` and `inverse` (checked) on every backend, lengths from the textbook loop
    /// through the portable and SIMD leaves to nodes checked in many blocks (2^17 `u32` is
    /// 512 KiB, split and parallel), batches of chunks: valid residues up to `m − 1` give the
    /// unchecked transform bit for bit; each invalid value at the first, a middle, the last and a
    /// random position is refused with its index, `data` left as it was; of two invalid
    /// values, the first is named.
    fn check_ring<R: Ring>(ring: R, invalid: &[R::Elem], residue: impl Fn(u64) -> R::Elem)
    where
        R::Elem: Copy,
    {
        let mut rng = Rng(0x5eed_c0de);
        for backend in Backend::ALL.into_iter().filter(|b| b.is_available()) {
            for (log2, chunks) in
                [(0, 3), (3, 1), (4, 2), (7, 1), (9, 3), (12, 1), (13, 5), (15, 1), (17, 1), (12, 40)]
            {
                let len = 1usize << log2;
                let n = len * chunks;
                for parallel in [false, true] {
                    let plan = Plan::new(ring.clone(), len)
                        .unwrap()
                        .with_backend(backend)
                        .unwrap()
                        .with_parallel(parallel);
                    let what = format!("{ring} {backend} 2^{log2} × {chunks} parallel {parallel}");
                    // Mostly random residues, some the largest one.
                    let data: Vec<R::Elem> = (0..n)
                        .map(|_| residue(if rng.next().is_multiple_of(4) { u64::MAX } else { rng.next() }))
                        .collect();
                    let mut expected = data.clone();
                    plan.forward_unchecked(&mut expected).unwrap();
                    let mut got = data.clone();
                    plan.forward(&mut got).unwrap();
                    assert!(got == expected, "{what}: forward");
                    let mut back = got.clone();
                    plan.inverse(&mut back).unwrap();
                    assert!(back == data, "{what}: inverse");
                    let random = (rng.next() % n as u64) as usize;
                    // Every invalid value at four places; past 2^13 values, the first and the
                    // last invalid value at two (each a copy of the whole buffer).
                    let (invalid, places) = if n > 1 << 13 {
                        (&[invalid[0], invalid[invalid.len() - 1]][..], &[n - 1, random][..])
                    } else {
                        (invalid, &[0, n / 2, n - 1, random][..])
                    };
                    for &bad in invalid {
                        for &at in places {
                            let mut x = data.clone();
                            x[at] = bad;
                            let before = x.clone();
                            for inverse in [false, true] {
                                let err = if inverse { plan.inverse(&mut x) } else { plan.forward(&mut x) };
                                match err {
                                    Err(Error::ValueOutOfRange { index, .. }) => {
                                        assert_eq!(index, at, "{what}")
                                    }
                                    other => panic!("{what}: {bad} at {at}: {other:?}"),
                                }
                                assert!(x == before, "{what}: {bad} at {at} changed the data");
                            }
                        }
                        let (first, second) = (random.min(n - 1 - random), random.max(n - 1 - random));
                        let mut x = data.clone();
                        x[second] = bad;
                        x[first] = bad;
                        match plan.forward(&mut x) {
                            Err(Error::ValueOutOfRange { index, .. }) => assert_eq!(index, first, "{what}"),
                            other => panic!("{what}: two invalid values: {other:?}"),
                        }
                    }
                }
            }
        }
    }

    #[test]
    fn checked_transforms_refuse_exactly_the_values_not_below_the_modulus() {
        for m in [998_244_353u32, Mod32::MAX_MODULUS, 3] {
            let ring = Mod32::new(m).unwrap();
            check_ring(ring, &[m, m + 1, 1 << 31, u32::MAX], |s| {
                if s == u64::MAX { m - 1 } else { (s % u64::from(m)) as u32 }
            });
        }
        for m in [(1u64 << 62) - 57, Mod64::MAX_MODULUS] {
            let ring = Mod64::new(m).unwrap();
            check_ring(ring, &[m, m + 1, 1 << 63, u64::MAX], |s| if s == u64::MAX { m - 1 } else { s % m });
        }
    }

    #[test]
    fn transforms_of_rings_without_bounds_equal_the_unchecked_ones() {
        use nimcount::internals::ring::{Float64, Wrap32};
        let x: Vec<u32> = (0..3 * 512u32).map(|i| i.wrapping_mul(2_654_435_761)).collect();
        let plan = Plan::new(Wrap32, 512).unwrap();
        let (mut a, mut b) = (x.clone(), x);
        plan.forward_unchecked(&mut a).unwrap();
        plan.forward(&mut b).unwrap();
        assert_eq!(a, b);
        let x: Vec<f64> = (0..1024).map(|i| f64::from(i) * 0.37 - 100.0).collect();
        let plan = Plan::new(Float64, 1024).unwrap();
        let (mut a, mut b) = (x.clone(), x);
        plan.inverse_unchecked(&mut a).unwrap();
        plan.inverse(&mut b).unwrap();
        assert!(a.iter().zip(&b).all(|(p, q)| p.to_bits() == q.to_bits()));
    }
}
