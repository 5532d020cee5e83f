//! AND, OR and subset convolutions against their O(4^n) definitions, in every ring.

use nimcount::Error;
use nimcount::convolve::{and_convolve, or_convolve, subset_convolve, subset_convolve_with_backend};
use nimcount::fwht::Backend;
use nimcount::ring::{Exact64, Exact128, Float32, Float64, Mod32, Mod64, Ring, Wrap32, Wrap64};

use crate::support::common::{Rng, SmallPrime, TestRing};

/// `c[s] = Σ a[i] b[j]` over the pairs with `i & j = s`, `i | j = s`, or disjoint `i | j = s`.
fn brute<R: Ring>(ring: &R, a: &[R::Elem], b: &[R::Elem]) -> [Vec<R::Elem>; 3]
where
    R::Elem: Copy,
{
    let n = a.len();
    let mut out = [vec![ring.zero(); n], vec![ring.zero(); n], vec![ring.zero(); n]];
    for i in 0..n {
        for j in 0..n {
            let p = ring.mul(a[i], b[j]);
            out[0][i & j] = ring.add(out[0][i & j], p);
            out[1][i | j] = ring.add(out[1][i | j], p);
            if i & j == 0 {
                out[2][i | j] = ring.add(out[2][i | j], p);
            }
        }
    }
    out
}

/// Every size 2^0 … 2^max, random values and (when given) adversarial ones.
fn check<R: Ring>(ring: R, max_log2: u32, value: impl Fn(&mut Rng, u32) -> R::Elem)
where
    R::Elem: Copy,
{
    let mut rng = Rng::new(0xB17_3153);
    for log2 in 0..=max_log2 {
        let n = 1usize << log2;
        let a: Vec<R::Elem> = (0..n).map(|_| value(&mut rng, log2)).collect();
        let b: Vec<R::Elem> = (0..n).map(|_| value(&mut rng, log2)).collect();
        let [and, or, subset] = brute(&ring, &a, &b);
        assert_eq!(and_convolve(ring.clone(), &a, &b).unwrap(), and, "{ring} AND 2^{log2}");
        assert_eq!(or_convolve(ring.clone(), &a, &b).unwrap(), or, "{ring} OR 2^{log2}");
        assert_eq!(subset_convolve(ring.clone(), &a, &b).unwrap(), subset, "{ring} subset 2^{log2}");
    }
}

#[test]
fn bitwise_convolutions_equal_their_definitions_in_every_ring() {
    let p = Mod32::new(998_244_353).unwrap();
    check(p, 9, |rng, l| p.random(rng, l));
    let nasty = p.nasty(0);
    check(p, 6, |rng, _| nasty[rng.below(nasty.len() as u64) as usize]);
    for m in [3, Mod32::MAX_MODULUS] {
        let ring = Mod32::new(m).unwrap();
        check(ring, 5, |rng, l| ring.random(rng, l));
    }
    let q = Mod64::new(Mod64::MAX_MODULUS).unwrap();
    check(q, 7, |rng, l| q.random(rng, l));
    // Exact: every sum of products of values up to 2^20 over 2^9 × 2^9 pairs stays below 2^63.
    check(Exact64, 9, |rng, _| rng.signed(1 << 20));
    check(Exact128, 6, |rng, _| i128::from(rng.signed(1 << 40)));
    check(Wrap32, 8, |rng, _| rng.next_u64() as u32);
    check(Wrap64, 7, |rng, _| rng.next_u64());
    // Small integers: every product and sum is exact in f64, and in f32 (below 2^24).
    check(Float64, 7, |rng, _| rng.signed(8) as f64);
    check(Float32, 6, |rng, _| rng.signed(8) as f32);
    // A ring of the user's: the element-by-element path.
    check(SmallPrime::<7>, 7, |rng, _| rng.below(7) as u16);
}

/// The subset convolution at 2^12 and 2^16 (one block of 2^12 sets; blocks of 2^12 with four
/// levels above them, in one column pass) on every backend this CPU runs, against the
/// definition, summing over the subsets of each set (3^n pairs), with the largest residue among
/// random ones. Smaller blocks, with several passes above them, are the unit tests'.
#[test]
fn subset_convolution_at_2_12_and_2_16_equals_the_sum_over_subsets() {
    let ring = Mod32::new(998_244_353).unwrap();
    let mut rng = Rng::new(12);
    for log2 in [12, 16] {
        let n = 1usize << log2;
        let mut value = |i: usize| if i % 7 == 3 { 998_244_352 } else { ring.random(&mut rng, log2) };
        let a: Vec<u32> = (0..n).map(&mut value).collect();
        let b: Vec<u32> = (0..n).map(&mut value).collect();
        let want: Vec<u32> = (0..n)
            .map(|s| {
                let (mut t, mut sum) = (s, 0u64);
                loop {
                    sum = (sum + u64::from(a[t]) * u64::from(b[s ^ t])) % 998_244_353;
                    if t == 0 {
                        break sum as u32;
                    }
                    t = (t - 1) & s;
                }
            })
            .collect();
        for backend in Backend::ALL {
            if !backend.is_available() {
                eprintln!("SKIPPED: the subset convolution on {backend} (this CPU lacks it)");
                continue;
            }
            let got = subset_convolve_with_backend(ring, &a, &b, backend).unwrap();
            assert!(got == want, "2^{log2} on {backend}");
        }
        assert_eq!(subset_convolve(ring, &a, &b).unwrap(), want, "2^{log2}");
    }
    // Exact i64 as large as the bound allows: Σ|a| · Σ|b| <= i64::MAX.
    let a = vec![i64::MAX / 4 - 2, 1, -1, 0];
    let b = vec![2, 1, 0, -1];
    let c = subset_convolve(Exact64, &a, &b).unwrap();
    assert_eq!(c, brute(&Exact64, &a, &b)[2]);
    let a = vec![i64::MAX / 4 - 1, 1, -1, 0];
    assert!(matches!(subset_convolve(Exact64, &a, &b), Err(Error::Overflow { .. })));
}

#[test]
fn bitwise_convolutions_refuse_bad_inputs() {
    let p = Mod32::new(7).unwrap();
    for f in [and_convolve::<Mod32>, or_convolve::<Mod32>, subset_convolve::<Mod32>] {
        assert!(matches!(f(p, &[1, 2], &[1]), Err(Error::LengthsDiffer { .. })));
        assert!(matches!(f(p, &[], &[]), Err(Error::EmptyBuffer)));
        assert!(matches!(f(p, &[1, 2, 3], &[1, 2, 3]), Err(Error::NotPowerOfTwo { .. })));
        assert!(matches!(f(p, &[1, 7], &[1, 2]), Err(Error::ValueOutOfRange { index: 1, .. })));
    }
    for backend in Backend::ALL.into_iter().filter(|b| !b.is_available()) {
        let got = subset_convolve_with_backend(p, &[1, 2], &[1, 2], backend);
        assert!(matches!(got, Err(Error::BackendUnavailable { .. })), "{backend}");
    }
    let big = [i64::MAX / 2, i64::MAX / 2];
    for f in [and_convolve::<Exact64>, or_convolve::<Exact64>, subset_convolve::<Exact64>] {
        assert!(matches!(f(Exact64, &big, &[2, 2]), Err(Error::Overflow { .. })));
    }
}
