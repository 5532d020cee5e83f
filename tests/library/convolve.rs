//! The convolution theorem against the O(n²) XOR convolution, XOR powers against repeated
//! convolution, and ring powers against independent big-integer arithmetic.

use nimcount::Error;
use nimcount::convolve::{pow_each, xor_convolve, xor_power};
use nimcount::fwht::reference;
use nimcount::ring::{Exact64, Exact128, Float64, Mod32, Mod64, Ring, Wrap32, Wrap64};
use num_bigint::BigUint;
use num_traits::{One, ToPrimitive};

use crate::support::common::{Rng, TestRing};

/// `xor_convolve` equals the definition, and `xor_power(a, k)` equals `k` convolutions, for
/// random and adversarial inputs.
fn convolution_theorem<R: TestRing>(ring: R, max_log2: u32, value: impl Fn(&mut Rng, u32) -> R::Elem) {
    let mut rng = Rng::new(0xC0417);
    for log2 in 0..=max_log2 {
        let n = 1usize << log2;
        let a: Vec<R::Elem> = (0..n).map(|_| value(&mut rng, log2)).collect();
        let b: Vec<R::Elem> = (0..n).map(|_| value(&mut rng, log2)).collect();
        assert_eq!(
            xor_convolve(ring, &a, &b).unwrap(),
            reference::xor_convolve(&ring, &a, &b),
            "{ring}, 2^{log2}"
        );
        let mut power = vec![ring.zero(); n];
        power[0] = ring.one();
        for k in 0u32..=4 {
            assert_eq!(xor_power(ring, &a, k).unwrap(), power, "{ring}, 2^{log2}, k = {k}");
            power = reference::xor_convolve(&ring, &power, &a);
        }
    }
}

#[test]
fn convolution_theorem_for_odd_moduli() {
    for m in [1, 3, 2835, 998_244_353, Mod32::MAX_MODULUS] {
        let ring = Mod32::new(m).unwrap();
        convolution_theorem(ring, 8, |rng, l| ring.random(rng, l));
        let nasty = ring.nasty(0);
        convolution_theorem(ring, 6, |rng, _| nasty[rng.below(nasty.len() as u64) as usize]);
    }
    for m in [3, 1_000_000_007 * 3, Mod64::MAX_MODULUS] {
        let ring = Mod64::new(m).unwrap();
        convolution_theorem(ring, 7, |rng, l| ring.random(rng, l));
    }
}

#[test]
fn convolution_theorem_for_exact_and_float_rings() {
    // Values small enough that the fourth XOR power (|.| <= (8 · 2^7)^4 = 2^40) fits.
    convolution_theorem(Exact64, 7, |rng, _| rng.signed(8));
    convolution_theorem(Exact128, 6, |rng, _| rng.signed(1 << 10) as i128);
    // Small integers: every product and sum is exact in f64, so equality is exact.
    convolution_theorem(Float64, 6, |rng, _| rng.signed(8) as f64);
}

#[test]
fn huge_exponents_agree_with_unreduced_modular_powers() {
    // Composite moduli whose transformed values share factors with the modulus: the exponent
    // reduction must use the rule that holds for every base.
    let k: BigUint = "98670634123000000000000000000000000000000000000001".parse().unwrap();
    for m in [3u32 * 3 * 3 * 3 * 5 * 7, 9, 998_244_353, 1_000_000_007, 3 * 5 * 7 * 11 * 13 * 17 * 19] {
        let ring = Mod32::new(m).unwrap();
        let mut rng = Rng::new(u64::from(m));
        for log2 in [0u32, 1, 5, 9] {
            let a: Vec<u32> = (0..1 << log2).map(|_| ring.random(&mut rng, 0)).collect();
            let got = xor_power(ring, &a, k.clone()).unwrap();
            // Independently: transform, BigUint::modpow with the full exponent, transform back.
            let mut t = reference::naive(&ring, &a);
            for x in t.iter_mut() {
                *x = BigUint::from(*x).modpow(&k, &m.into()).to_u32().unwrap();
            }
            let mut expected = reference::naive(&ring, &t);
            ring.divide_by_power_of_two(&mut expected, log2, true).unwrap();
            assert_eq!(got, expected, "m = {m}, 2^{log2}");
        }
    }
}

#[test]
fn ring_powers_with_multiples_of_the_group_order_and_shared_factors() {
    let cases: [(u64, Vec<u64>); 2] =
        [(998_244_353, vec![0, 1, 2, 998_244_352, 3]), (2835, vec![0, 1, 3, 5, 7, 9, 15, 27, 81, 2834, 405])];
    for (m, bases) in &cases {
        let ring = Mod64::new(*m).unwrap();
        let order = BigUint::from(m - 1);
        for k in [
            BigUint::from(0u8),
            BigUint::one(),
            order.clone(),
            &order * 12345u32,
            &order * 7u32 + 1u8,
            BigUint::from(10u8).pow(40),
        ] {
            let mut x = bases.clone();
            pow_each(&ring, &mut x, k.clone()).unwrap();
            let expected: Vec<u64> =
                bases.iter().map(|&b| BigUint::from(b).modpow(&k, &(*m).into()).to_u64().unwrap()).collect();
            assert_eq!(x, expected, "m = {m}, k = {k}");
            let ring32 = Mod32::new(*m as u32).unwrap();
            let mut y: Vec<u32> = bases.iter().map(|&b| b as u32).collect();
            pow_each(&ring32, &mut y, k.clone()).unwrap();
            assert_eq!(
                y.iter().map(|&v| u64::from(v)).collect::<Vec<_>>(),
                expected,
                "u32 ring, m = {m}, k = {k}"
            );
        }
    }
}

#[test]
fn wrapping_powers_follow_arithmetic_modulo_powers_of_two() {
    let bases32 = [0u32, 1, 2, 3, 4, 6, 1 << 31, u32::MAX, 0x1234_5679];
    let bases64 = [0u64, 1, 2, 3, 12, 1 << 63, u64::MAX, 0x0123_4567_89AB_CDEF];
    for k in [0u64, 1, 2, 31, 32, 33, 63, 64, 65, 1 << 30, (1 << 30) + 32, u64::MAX] {
        let k = BigUint::from(k) * 1_000_003u32 + 17u8;
        let mut x = bases32.to_vec();
        pow_each(&Wrap32, &mut x, k.clone()).unwrap();
        for (b, got) in bases32.iter().zip(x) {
            assert_eq!(BigUint::from(got), BigUint::from(*b).modpow(&k, &(BigUint::one() << 32)), "{b}^{k}");
        }
        let mut y = bases64.to_vec();
        pow_each(&Wrap64, &mut y, k.clone()).unwrap();
        for (b, got) in bases64.iter().zip(y) {
            assert_eq!(BigUint::from(got), BigUint::from(*b).modpow(&k, &(BigUint::one() << 64)), "{b}^{k}");
        }
    }
}

#[test]
fn exact_powers_report_overflow_and_keep_trivial_bases() {
    let huge = BigUint::from(10u8).pow(30);
    let mut x = vec![0i64, 1, -1, 1];
    pow_each(&Exact64, &mut x, huge.clone()).unwrap();
    assert_eq!(x, [0, 1, 1, 1]);
    let mut x = vec![0i64, 1, -1];
    pow_each(&Exact64, &mut x, huge.clone() + 1u8).unwrap();
    assert_eq!(x, [0, 1, -1]);
    let mut x = vec![-2i64, 3];
    pow_each(&Exact64, &mut x, 3u8).unwrap();
    assert_eq!(x, [-8, 27]);
    let err = pow_each(&Exact64, &mut [2i64], 63u8).unwrap_err();
    assert!(matches!(err, Error::Overflow { .. }), "{err}");
    assert!(matches!(xor_power(Exact64, &[1, 1], 200u8), Err(Error::Overflow { .. })));
    assert!(matches!(xor_convolve(Exact64, &[i64::MAX / 2, 0], &[4, 0]), Err(Error::Overflow { .. })));
}

#[test]
fn k_zero_is_the_identity_and_float_parity_survives_huge_exponents() {
    let ring = Mod32::new(7).unwrap();
    assert_eq!(xor_power(ring, &[3, 1, 4, 1], 0u8).unwrap(), [1, 0, 0, 0]);
    assert_eq!(xor_power(Exact64, &[0, 0], 0u8).unwrap(), [1, 0]);
    let odd = BigUint::from(10u8).pow(30) + 1u8;
    let mut x = vec![-1.0f64, 1.0, 0.5, -0.5];
    pow_each(&Float64, &mut x, odd.clone()).unwrap();
    assert_eq!(x, [-1.0, 1.0, 0.0, -0.0]);
}

#[test]
fn convolution_errors_are_reported() {
    let ring = Mod32::new(7).unwrap();
    let err = xor_convolve(ring, &[1, 2], &[1, 2, 3, 4]).unwrap_err();
    assert!(matches!(err, Error::LengthsDiffer { left: 2, right: 4 }), "{err}");
    assert_eq!(err.to_string(), "operands of different lengths, 2 and 4");
    assert!(matches!(xor_convolve(ring, &[1, 2, 3], &[1, 2, 3]), Err(Error::NotPowerOfTwo { .. })));
    assert!(matches!(xor_convolve(Wrap32, &[1, 2], &[1, 2]), Err(Error::NoInverseOfTwo { .. })));
    assert_eq!(xor_convolve(Wrap64, &[3], &[5]).unwrap(), [15], "length 1 needs no 1/2");
}

/// The fused in-place convolution (normalisation folded into vectorised Montgomery products) on
/// every backend, serial and parallel, against the O(n²) definition for small lengths and against
/// the unfused forward · product · inverse for a length that splits across threads; nasty values.
#[test]
fn in_place_convolution_on_every_backend() {
    use nimcount::fwht::{Backend, Plan};
    let mut rng = Rng::new(0x1_2_3);
    for m in [1u32, 3, 998_244_353, Mod32::MAX_MODULUS] {
        let ring = Mod32::new(m).unwrap();
        for log2 in [0u32, 3, 6, 9, 17] {
            let n = 1usize << log2;
            let nasty = [0, 1 % m, m - 1, m / 2];
            let a: Vec<u32> =
                (0..n).map(|i| if i % 7 == 0 { nasty[i % 4] } else { ring.random(&mut rng, 0) }).collect();
            let b: Vec<u32> =
                (0..n).map(|i| if i % 5 == 0 { nasty[i % 4] } else { ring.random(&mut rng, 0) }).collect();
            let expected = if log2 <= 9 {
                reference::xor_convolve(&ring, &a, &b)
            } else {
                let (mut fa, mut fb) = (a.clone(), b.clone());
                let plan = Plan::new(ring, n).unwrap();
                plan.forward(&mut fa).unwrap();
                plan.forward(&mut fb).unwrap();
                fa.iter_mut().zip(&fb).for_each(|(x, &y)| *x = ring.mul(*x, y));
                plan.inverse(&mut fa).unwrap();
                fa
            };
            for backend in Backend::ALL {
                if !backend.is_available() {
                    eprintln!("SKIPPED: in-place convolution on {backend} (this CPU lacks it)");
                    continue;
                }
                for parallel in [false, true] {
                    let plan =
                        Plan::new(ring, n).unwrap().with_backend(backend).unwrap().with_parallel(parallel);
                    let (mut x, mut y) = (a.clone(), b.clone());
                    plan.xor_convolve_in_place(&mut x, &mut y).unwrap();
                    assert_eq!(x, expected, "mod {m}, 2^{log2}, {backend}, parallel {parallel}");
                }
            }
        }
    }
    let ring = Mod64::new((1 << 63) - 25).unwrap();
    let a: Vec<u64> = (0..64).map(|_| ring.random(&mut rng, 0)).collect();
    let b: Vec<u64> = (0..64).map(|_| ring.random(&mut rng, 0)).collect();
    let (mut x, mut y) = (a.clone(), b.clone());
    Plan::new(ring, 64).unwrap().xor_convolve_in_place(&mut x, &mut y).unwrap();
    assert_eq!(x, reference::xor_convolve(&ring, &a, &b));
}

#[test]
fn empty_buffers_are_refused_everywhere() {
    use nimcount::fwht::Plan;
    let ring = Mod32::new(7).unwrap();
    let plan = Plan::new(ring, 4).unwrap();
    assert!(matches!(plan.forward(&mut []), Err(Error::EmptyBuffer)));
    assert!(matches!(plan.inverse(&mut []), Err(Error::EmptyBuffer)));
    assert!(matches!(plan.pow_each(&mut [], 3u8), Err(Error::EmptyBuffer)));
    assert!(matches!(plan.xor_convolve_in_place(&mut [], &mut []), Err(Error::EmptyBuffer)));
    assert!(matches!(nimcount::fwht::forward(ring, &mut []), Err(Error::EmptyBuffer)));
    assert!(matches!(xor_convolve(ring, &[], &[]), Err(Error::EmptyBuffer)));
    assert!(matches!(xor_power(ring, &[], 2u8), Err(Error::EmptyBuffer)));
    assert!(matches!(pow_each(&ring, &mut [], 2u8), Err(Error::EmptyBuffer)));
}
