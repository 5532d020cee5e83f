//! The transform against its definition, on every ring, backend and length 2^0 … 2^10, and the
//! fast paths against the textbook loop on larger lengths (2^11 on).

use nimcount::Error;
use nimcount::fwht::{Backend, Plan, reference};
use nimcount::ring::{Exact64, Exact128, Float32, Float64, Mod32, Mod64, Ring, Wrap32, Wrap64};

use crate::support::common::{Rng, SmallPrime, TestRing, available_backends, vectors};

const MAX_NAIVE_LOG2: u32 = 10;

/// For every length up to 2^10 and every test vector: each backend's forward equals the O(n²)
/// definition, the unnormalised inverse equals the forward, and (where the ring has 1/2) the
/// inverse restores the input.
fn matches_definition<R: TestRing>(ring: R) {
    let backends = available_backends(&format!("definition tests for {ring}"));
    for log2 in 0..=MAX_NAIVE_LOG2 {
        for (case, x) in vectors(&ring, log2, 0x5EED).into_iter().enumerate() {
            let expected = reference::naive(&ring, &x);
            for &backend in &backends {
                let plan = Plan::new(ring, x.len()).unwrap().with_backend(backend).unwrap();
                let mut y = x.clone();
                plan.forward(&mut y).unwrap();
                // Floats too: the test values are small integers, so every sum is exact.
                assert!(
                    y == expected,
                    "{ring}, 2^{log2}, vector {case}, {backend}: forward differs from the definition"
                );
                let mut z = x.clone();
                plan.inverse_unnormalized(&mut z).unwrap();
                assert!(z == y, "{ring}, 2^{log2}, vector {case}, {backend}: unnormalised inverse differs");
                if ring.can_halve() {
                    match plan.inverse(&mut y) {
                        Ok(()) => assert!(
                            y == x,
                            "{ring}, 2^{log2}, vector {case}, {backend}: inverse(forward(x)) != x"
                        ),
                        // Exact rings refuse when the transformed values' absolute sum exceeds the type.
                        Err(Error::Overflow { .. }) => assert!(
                            !ring.fits(&expected),
                            "{ring}, 2^{log2}, vector {case}: refused although it fits"
                        ),
                        Err(e) => panic!("{ring}, 2^{log2}, vector {case}, {backend}: {e}"),
                    }
                }
            }
        }
    }
}

#[test]
fn mod32_matches_definition() {
    for m in [1, 3, 65_537, 998_244_353, 1_000_000_007, Mod32::MAX_MODULUS] {
        matches_definition(Mod32::new(m).unwrap());
    }
}

#[test]
fn mod64_matches_definition() {
    for m in [1, 3, 1_000_000_007, (1 << 61) - 1, 4_611_686_018_427_387_847, Mod64::MAX_MODULUS] {
        matches_definition(Mod64::new(m).unwrap());
    }
}

#[test]
fn wrapping_rings_match_definition() {
    matches_definition(Wrap32);
    matches_definition(Wrap64);
}

#[test]
fn exact_rings_match_definition() {
    matches_definition(Exact64);
    matches_definition(Exact128);
}

#[test]
fn float_rings_match_definition_on_integers() {
    matches_definition(Float32);
    matches_definition(Float64);
}

/// Beyond the reach of the definition: every backend, sequential and parallel, equals the
/// portable textbook loop exactly — bit for bit on floats too (signed zeros and infinities
/// included), since every path applies the same operations in the same order.
fn backends_agree<R: TestRing>(ring: R, random: impl Fn(&mut Rng) -> R::Elem) {
    let backends = available_backends(&format!("backend agreement for {ring}"));
    let mut rng = Rng::new(0xFA57);
    for log2 in (MAX_NAIVE_LOG2 + 1..=18).chain([21]) {
        let x: Vec<R::Elem> = (0..1usize << log2).map(|_| random(&mut rng)).collect();
        let mut expected = x.clone();
        reference::textbook(&ring, &mut expected);
        for &backend in &backends {
            for parallel in [false, true] {
                let plan =
                    Plan::new(ring, x.len()).unwrap().with_backend(backend).unwrap().with_parallel(parallel);
                let mut y = x.clone();
                plan.forward(&mut y).unwrap();
                if !same_bits(&y, &expected) {
                    let i = (0..y.len()).find(|&i| !same_bits(&y[i..=i], &expected[i..=i])).unwrap_or(0);
                    panic!(
                        "{ring}, 2^{log2}, {backend}, parallel {parallel}: differs from textbook at {i}: {:?} vs {:?}",
                        y[i], expected[i]
                    );
                }
            }
        }
    }
}

#[test]
fn backends_agree_mod32() {
    let ring = Mod32::new(998_244_353).unwrap();
    backends_agree(ring, |rng| ring.random(rng, 0));
    let ring = Mod32::new(Mod32::MAX_MODULUS).unwrap();
    backends_agree(ring, |rng| if rng.below(4) == 0 { Mod32::MAX_MODULUS - 1 } else { ring.random(rng, 0) });
}

#[test]
fn backends_agree_mod64() {
    let ring = Mod64::new(Mod64::MAX_MODULUS).unwrap();
    backends_agree(ring, |rng| if rng.below(4) == 0 { Mod64::MAX_MODULUS - 1 } else { ring.random(rng, 0) });
}

#[test]
fn backends_agree_wrapping_and_exact() {
    backends_agree(Wrap32, |rng| rng.next_u64() as u32);
    backends_agree(Wrap64, |rng| rng.next_u64());
    backends_agree(Exact64, |rng| rng.signed(1 << 40));
}

/// Equality of the bytes, except that any two NaNs match (Rust leaves their sign and payload
/// unspecified); `-0.0` and `0.0` differ.
fn same_bits<T: bytemuck::Pod + PartialEq>(a: &[T], b: &[T]) -> bool {
    #[allow(clippy::eq_op)] // NaN is the one value unequal to itself
    let is_nan = |x: &T| x != x;
    a.len() == b.len()
        && a.iter()
            .zip(b)
            .all(|(x, y)| (is_nan(x) && is_nan(y)) || bytemuck::bytes_of(x) == bytemuck::bytes_of(y))
}

#[test]
fn backends_agree_bit_for_bit_on_random_floats() {
    backends_agree(Float32, |rng| (rng.next_u64() as f64 / u64::MAX as f64 * 2.0 - 1.0) as f32);
    backends_agree(Float64, |rng| rng.next_u64() as f64 / u64::MAX as f64 * 2.0 - 1.0);
}

#[test]
fn backends_agree_bit_for_bit_on_signed_zeros_infinities_and_nans() {
    let specials =
        [0.0f64, -0.0, 1.0, -1.0, f64::INFINITY, f64::NEG_INFINITY, f64::NAN, 1e-310, -5e-324, f64::MAX];
    backends_agree(Float64, |rng| specials[rng.below(specials.len() as u64) as usize]);
    backends_agree(Float32, |rng| specials[rng.below(specials.len() as u64) as usize] as f32);
    // Mostly zeros of both signs, so that exact zeros and their signs survive many levels.
    backends_agree(Float32, |rng| {
        if rng.below(8) == 0 {
            1.5
        } else if rng.below(2) == 0 {
            0.0
        } else {
            -0.0
        }
    });
}

#[test]
fn a_buffer_of_several_chunks_is_transformed_chunk_by_chunk() {
    let ring = Mod32::new(998_244_353).unwrap();
    let mut rng = Rng::new(7);
    // 2^10 × 130 and 2^6 × 3000 pass 2^17 elements: chunks are batched across threads, with a
    // partial last batch.
    for (log2, chunks) in [(0, 5), (3, 4), (12, 3), (10, 130), (6, 3000)] {
        let n = 1usize << log2;
        let x: Vec<u32> = (0..n * chunks).map(|_| ring.random(&mut rng, 0)).collect();
        let expected: Vec<u32> = x.chunks(n).flat_map(|c| reference::naive(&ring, c)).collect();
        for backend in available_backends("chunked transforms") {
            let mut y = x.clone();
            Plan::new(ring, n).unwrap().with_backend(backend).unwrap().forward(&mut y).unwrap();
            assert_eq!(y, expected, "2^{log2} × {chunks}, {backend}");
        }
    }
}

#[test]
fn lengths_that_are_not_powers_of_two_are_refused() {
    let ring = Mod32::new(7).unwrap();
    for len in [0, 3, 6, 12, 1000] {
        assert!(matches!(Plan::new(ring, len), Err(Error::NotPowerOfTwo { .. })), "{len}");
        let mut data = vec![0; len];
        assert!(nimcount::fwht::forward(ring, &mut data).is_err(), "{len}");
    }
    let plan = Plan::new(ring, 8).unwrap();
    let mut data = vec![1u32; 12];
    let err = plan.forward(&mut data).unwrap_err();
    assert!(matches!(err, Error::LengthMismatch { len: 12, plan_len: 8 }), "{err}");
    assert_eq!(data, vec![1; 12], "a refused buffer is untouched");
}

#[test]
fn wrapping_rings_refuse_the_normalised_inverse_but_allow_the_unnormalised_one() {
    let mut data = vec![1u32, 2, 3, 4];
    let err = nimcount::fwht::inverse(Wrap32, &mut data).unwrap_err();
    assert!(matches!(err, Error::NoInverseOfTwo { .. }), "{err}");
    assert_eq!(data, [1, 2, 3, 4], "nothing was written");
    nimcount::fwht::forward(Wrap32, &mut data).unwrap();
    nimcount::fwht::inverse_unnormalized(Wrap32, &mut data).unwrap();
    assert_eq!(data, [4, 8, 12, 16], "W·W = n·I");
    let mut one = vec![u64::MAX];
    nimcount::fwht::inverse(Wrap64, &mut one).unwrap(); // length 1: dividing by 2^0 is fine
    assert_eq!(one, [u64::MAX]);
}

#[test]
fn exact_rings_refuse_a_transform_that_could_overflow_before_writing() {
    for log2 in [1u32, 4, 10] {
        let n = 1usize << log2;
        let top = i64::MAX >> log2;
        let mut fits = vec![top; n];
        nimcount::fwht::forward(Exact64, &mut fits).unwrap();
        assert_eq!(fits[0], top * n as i64);
        // Absolute values summing to exactly i64::MAX + 1.
        let mut too_big = vec![-top; n];
        too_big[n / 2] = -(i64::MAX - (n as i64 - 1) * top) - 1;
        let before = too_big.clone();
        let err = nimcount::fwht::forward(Exact64, &mut too_big).unwrap_err();
        assert!(matches!(err, Error::Overflow { .. }), "{err}");
        assert_eq!(too_big, before);
    }
    let mut min = vec![i64::MIN, 0];
    assert!(nimcount::fwht::forward(Exact64, &mut min).is_err());
    let mut huge = vec![i128::MAX / 2 + 1, -(i128::MAX / 2) - 1]; // |.| sums to i128::MAX + 1
    assert!(nimcount::fwht::forward(Exact128, &mut huge).is_err());
}

#[test]
fn exact_inverse_refuses_values_that_are_not_multiples_of_the_length() {
    let mut data = vec![1i64, 0, 0, 0];
    let err = nimcount::fwht::inverse(Exact64, &mut data).unwrap_err();
    assert!(matches!(err, Error::NotDivisible { .. }), "{err}");
    let mut data = vec![4i128, 0, 0, -4];
    nimcount::fwht::inverse(Exact128, &mut data).unwrap();
    assert_eq!(data, [0, 2, 2, 0]);
}

/// The obvious names are the safe ones: `forward`, `inverse`, `inverse_unnormalized`, the free
/// functions and `xor_convolve_in_place` refuse residues not below the modulus, naming the first
/// and leaving the data as it was; only the `_unchecked` methods take them as they are.
#[test]
fn modular_transforms_refuse_residues_not_below_the_modulus() {
    let plan = Plan::new(Mod32::new(7).unwrap(), 4).unwrap();
    let bad = [100u32, 200, 3_000_000_000, 4];
    let refused = |result: nimcount::Result<()>, what: &str| match result {
        Err(Error::ValueOutOfRange { index: 0, .. }) => {}
        other => panic!("{what}: {other:?}"),
    };
    for inverse in [false, true] {
        let mut x = bad;
        refused(if inverse { plan.inverse(&mut x) } else { plan.forward(&mut x) }, "plan");
        assert_eq!(x, bad);
        refused(plan.inverse_unnormalized(&mut x), "inverse_unnormalized");
        assert_eq!(x, bad);
        let ring = Mod32::new(7).unwrap();
        let free = if inverse {
            nimcount::fwht::inverse(ring, &mut x)
        } else {
            nimcount::fwht::forward(ring, &mut x)
        };
        refused(free, "free function");
        assert_eq!(x, bad);
    }
    // The first bad element is named, in a later chunk too.
    let mut x = [1u32, 2, 3, 4, 5, 6, 0, 1, 2, 9, 7, 3];
    let before = x;
    match plan.forward(&mut x) {
        Err(Error::ValueOutOfRange { index: 9, .. }) => assert_eq!(x, before),
        other => panic!("chunks: {other:?}"),
    }
    // A convolution with one bad operand leaves both as they were.
    let (mut a, mut b) = ([1u32, 2, 3, 4], [5u32, 6, 7, 1]);
    match plan.xor_convolve_in_place(&mut a, &mut b) {
        Err(Error::ValueOutOfRange { index: 2, .. }) => assert_eq!((a, b), ([1, 2, 3, 4], [5, 6, 7, 1])),
        other => panic!("convolution: {other:?}"),
    }
    let plan64 = Plan::new(Mod64::new(7).unwrap(), 2).unwrap();
    let mut y = [3u64, u64::MAX];
    assert!(matches!(plan64.forward(&mut y), Err(Error::ValueOutOfRange { index: 1, .. })));
    assert_eq!(y, [3, u64::MAX]);
    // The unchecked path says what it is: it takes the values as they are.
    let mut x = bad;
    plan.forward_unchecked(&mut x).unwrap();
    assert_ne!(x, bad);
    let mut x = [1u32, 6, 0, 2];
    plan.forward(&mut x).unwrap();
    plan.inverse_unchecked(&mut x).unwrap();
    assert_eq!(x, [1, 6, 0, 2]);
}

#[test]
fn unavailable_backends_are_refused() {
    for backend in Backend::ALL {
        let plan = Plan::new(Wrap32, 16).unwrap().with_backend(backend);
        assert_eq!(plan.is_ok(), backend.is_available(), "{backend}");
    }
    assert!("sse9".parse::<Backend>().is_err());
    assert_eq!("avx512".parse::<Backend>().unwrap(), Backend::Avx512);
}

#[test]
fn user_defined_rings_get_the_portable_kernel() {
    // Arithmetic modulo 3 with its own element type: only `Ring`'s required methods.
    let mod3 = SmallPrime::<3>;
    let mut rng = Rng::new(3);
    for log2 in 0..=10 {
        let x: Vec<u16> = (0..1 << log2).map(|_| rng.below(3) as u16).collect();
        let mut y = x.clone();
        nimcount::fwht::forward(mod3, &mut y).unwrap();
        assert_eq!(y, reference::naive(&mod3, &x), "2^{log2}");
        nimcount::fwht::inverse(mod3, &mut y).unwrap();
        assert_eq!(y, x);
        assert!(mod3.validate(&x).is_ok());
    }
    assert!(mod3.validate(&[0, 1, 3]).is_err());
}

/// Transforms larger than L2 (16 MiB buffers of 4-, 8- and 16-byte elements; the portable kernel
/// through i128), whose top passes stream from the last-level cache or memory, against the
/// textbook loop. No step of the kernel depends on the size of a cache: these lengths already run
/// every kind of pass a larger transform of their element size runs (radix-4 and radix-8 passes,
/// those over rows 2 MiB apart split across threads, the radix-16 pass of 16-byte elements), and
/// a longer one only repeats them, up to the staggered passes of the test below.
#[test]
fn transforms_larger_than_l2_agree_with_textbook() {
    fn check<R: Ring<Elem: bytemuck::Pod>>(
        ring: R,
        log2: u32,
        backends: &[Backend],
        random: impl Fn(&mut Rng) -> R::Elem,
    ) {
        let mut rng = Rng::new(0x7153);
        let x: Vec<R::Elem> = (0..1usize << log2).map(|_| random(&mut rng)).collect();
        let mut expected = x.clone();
        reference::textbook(&ring, &mut expected);
        for &backend in backends {
            for parallel in [false, true] {
                let mut y = x.clone();
                Plan::new(ring.clone(), x.len())
                    .unwrap()
                    .with_backend(backend)
                    .unwrap()
                    .with_parallel(parallel)
                    .forward(&mut y)
                    .unwrap();
                assert!(same_bits(&y, &expected), "{ring}, 2^{log2}, {backend}, parallel {parallel}");
            }
        }
    }
    let best = [Backend::best()];
    let ring = Mod32::new(998_244_353).unwrap();
    check(ring, 22, &best, |rng| ring.random(rng, 0));
    let ring = Mod64::new((1 << 63) - 25).unwrap();
    check(ring, 21, &best, |rng| ring.random(rng, 0));
    check(Float32, 22, &best, |rng| (rng.next_u64() as f64 / u64::MAX as f64 - 0.5) as f32);
    check(Exact128, 20, &[Backend::Scalar], |rng| rng.signed(1 << 40) as i128);
}

/// A 512 MiB transform, whose top pass runs over rows 64 MiB apart in the staggered memory order,
/// against the textbook loop, on one thread and on all. The input is a Kronecker product,
/// `x[r·2^24 + c] = a[r]·b[c]` for random `a` (8 values, one a row of the top pass) and `b`
/// (2^24), whose transform is `(W a)[r]·(W b)[c]` (`W_{2^27} = W_8 ⊗ W_{2^24}`): the textbook
/// loop runs on the factors, a ninth of the work on the whole, and the data still differ from
/// column to column and from row to row, so that a column or row moved, skipped or paired with
/// the wrong one shows.
#[test]
fn transforms_with_staggered_passes_agree_with_textbook() {
    const ROWS_LOG2: u32 = 3;
    const COLUMNS_LOG2: u32 = 24;
    let mut rng = Rng::new(0x5a66);
    let a: Vec<u32> = (0..1 << ROWS_LOG2).map(|_| rng.next_u64() as u32).collect();
    let b: Vec<u32> = (0..1 << COLUMNS_LOG2).map(|_| rng.next_u64() as u32).collect();
    let (mut wa, mut wb) = (a.clone(), b.clone());
    reference::textbook(&Wrap32, &mut wa);
    reference::textbook(&Wrap32, &mut wb);
    let mut y = vec![0u32; 1 << (ROWS_LOG2 + COLUMNS_LOG2)];
    for parallel in [false, true] {
        for (row, &ar) in y.chunks_exact_mut(b.len()).zip(&a) {
            row.iter_mut().zip(&b).for_each(|(y, &bc)| *y = ar.wrapping_mul(bc));
        }
        Plan::new(Wrap32, y.len()).unwrap().with_parallel(parallel).forward(&mut y).unwrap();
        for (r, (row, &war)) in y.chunks_exact(b.len()).zip(&wa).enumerate() {
            let bad = row.iter().zip(&wb).position(|(&y, &wbc)| y != war.wrapping_mul(wbc));
            assert!(bad.is_none(), "parallel {parallel}: row {r}, column {bad:?}");
        }
    }
}

/// An element size no built-in ring has (48 bytes, so rows alias in cache at other lengths than
/// for 4- and 8-byte elements) through a 24 MiB transform, after a 16 MiB `f64` one on the same
/// thread, against the textbook loop. 2^19 elements of 48 bytes take the same kinds of pass as
/// 2^22 and more (a radix-4 pass, a radix-16 one over rows that do not alias in cache, radix-8
/// ones over rows that do); a longer transform only repeats the last kind.
#[test]
fn unusual_element_sizes_go_through_every_pass() {
    /// 384 bits under XOR: a ring of characteristic 2 (so `a - b = a + b`), enough to check
    /// data movement through every pass.
    #[derive(Clone, Copy, PartialEq, Debug, bytemuck::Zeroable, bytemuck::Pod)]
    #[repr(transparent)]
    struct Bits([u64; 6]);
    impl std::fmt::Display for Bits {
        fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
            write!(f, "{:?}", self.0)
        }
    }
    #[derive(Clone, Copy, Debug)]
    struct Xor;
    impl std::fmt::Display for Xor {
        fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
            f.write_str("GF(2)^384")
        }
    }
    impl Ring for Xor {
        type Elem = Bits;
        fn zero(&self) -> Bits {
            Bits([0; 6])
        }
        fn one(&self) -> Bits {
            Bits([1, 0, 0, 0, 0, 0])
        }
        fn add(&self, a: Bits, b: Bits) -> Bits {
            Bits(std::array::from_fn(|i| a.0[i] ^ b.0[i]))
        }
        fn sub(&self, a: Bits, b: Bits) -> Bits {
            self.add(a, b)
        }
        fn mul(&self, a: Bits, b: Bits) -> Bits {
            Bits(std::array::from_fn(|i| a.0[i] & b.0[i]))
        }
    }
    let mut rng = Rng::new(48);
    let mut floats: Vec<f64> = (0..1 << 21).map(|_| rng.signed(100) as f64).collect();
    Plan::new(Float64, floats.len()).unwrap().with_parallel(false).forward(&mut floats).unwrap();
    // Each element is a random bit vector with a single set bit, so the transform stays sparse
    // enough to compare cheaply but every pass moves data.
    let x: Vec<Bits> = (0..1usize << 19)
        .map(|_| {
            let mut b = [0u64; 6];
            b[rng.below(6) as usize] = 1 << rng.below(64);
            Bits(b)
        })
        .collect();
    let mut expected = x.clone();
    reference::textbook(&Xor, &mut expected);
    let mut y = x;
    Plan::new(Xor, y.len()).unwrap().with_parallel(false).forward(&mut y).unwrap();
    assert!(y == expected);
}
