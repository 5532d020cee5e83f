//! Shared test helpers: a seeded generator and, for every ring, random and adversarial values.
#![allow(dead_code)]

use std::io::Write;

use nimcount::fwht::Backend;
use nimcount::ring::{Exact64, Exact128, Float32, Float64, Mod32, Mod64, Ring, Wrap32, Wrap64};

/// SplitMix64: tiny, seeded, good enough for test data.
pub struct Rng(u64);

impl Rng {
    pub fn new(seed: u64) -> Self {
        Rng(seed)
    }
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
    /// Uniform in `0..n` (n > 0), up to negligible bias.
    pub fn below(&mut self, n: u64) -> u64 {
        ((self.next_u64() as u128 * n as u128) >> 64) as u64
    }
    /// Uniform in `-bound..=bound`.
    pub fn signed(&mut self, bound: i64) -> i64 {
        self.below(2 * bound as u64 + 1) as i64 - bound
    }
    /// One of `items`, uniformly.
    pub fn pick<'a, T>(&mut self, items: &'a [T]) -> &'a T {
        &items[self.below(items.len() as u64) as usize]
    }
}

/// The backends this CPU runs; the others are announced as skipped on the terminal (outside the
/// test harness's capture, so a skip is never silent).
pub fn available_backends(what: &str) -> Vec<Backend> {
    Backend::ALL
        .into_iter()
        .filter(|b| {
            let ok = b.is_available();
            if !ok {
                let _ =
                    writeln!(std::io::stderr(), "SKIPPED {what}: backend {b} is not available on this CPU");
            }
            ok
        })
        .collect()
}

/// Arithmetic modulo a small odd prime `P` on `u16`, an element type no built-in ring uses, with
/// only `Ring`'s required methods: a ring of the user's, which takes the portable paths.
#[derive(Clone, Copy, Debug)]
pub struct SmallPrime<const P: u16>;

impl<const P: u16> std::fmt::Display for SmallPrime<P> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Z/{P}")
    }
}

impl<const P: u16> Ring for SmallPrime<P> {
    type Elem = u16;
    fn zero(&self) -> u16 {
        0
    }
    fn one(&self) -> u16 {
        1
    }
    fn add(&self, a: u16, b: u16) -> u16 {
        (a + b) % P
    }
    fn sub(&self, a: u16, b: u16) -> u16 {
        (a + P - b) % P
    }
    fn mul(&self, a: u16, b: u16) -> u16 {
        a * b % P
    }
    fn is_valid(&self, x: &u16) -> bool {
        *x < P
    }
    fn can_halve(&self) -> bool {
        true
    }
    fn divide_by_power_of_two(&self, data: &mut [u16], log2: u32, _: bool) -> nimcount::Result<()> {
        // 2⁻¹ = (P + 1) / 2 modulo an odd P.
        let factor = (0..log2).fold(1, |f, _| f * P.div_ceil(2) % P);
        data.iter_mut().for_each(|x| *x = *x * factor % P);
        Ok(())
    }
}

/// A ring under test, with generators of the values it accepts.
pub trait TestRing: Ring<Elem: bytemuck::Pod> + Copy {
    /// A uniformly random accepted value small enough that a transform of `2^log2` of them is
    /// exact (exact rings) or computed without rounding (floats).
    fn random(&self, rng: &mut Rng, log2: u32) -> Self::Elem;
    /// Adversarial values: 0, 1, the largest accepted value (for the length), and its neighbours.
    fn nasty(&self, log2: u32) -> Vec<Self::Elem>;
    /// Whether a transform of `x` passes the exact rings' bound (absolute values summing to at
    /// most the type's maximum), computed independently in big integers.
    fn fits(&self, x: &[Self::Elem]) -> bool {
        let _ = x;
        true
    }
}

fn abs_sum_at_most<T: Copy + Into<num_bigint::BigInt>>(x: &[T], max: num_bigint::BigInt) -> bool {
    let sum: num_bigint::BigInt = x.iter().map(|&v| num_traits::Signed::abs(&v.into())).sum();
    sum <= max
}

impl TestRing for Mod32 {
    fn random(&self, rng: &mut Rng, _: u32) -> u32 {
        rng.below(u64::from(self.modulus())) as u32
    }
    fn nasty(&self, _: u32) -> Vec<u32> {
        let m = self.modulus();
        vec![0, 1 % m, m - 1, m.saturating_sub(2), m / 2, (m / 2 + 1) % m]
    }
}

impl TestRing for Mod64 {
    fn random(&self, rng: &mut Rng, _: u32) -> u64 {
        rng.below(self.modulus())
    }
    fn nasty(&self, _: u32) -> Vec<u64> {
        let m = self.modulus();
        vec![0, 1 % m, m - 1, m.saturating_sub(2), m / 2, (m / 2 + 1) % m]
    }
}

impl TestRing for Wrap32 {
    fn random(&self, rng: &mut Rng, _: u32) -> u32 {
        rng.next_u64() as u32
    }
    fn nasty(&self, _: u32) -> Vec<u32> {
        vec![0, 1, u32::MAX, u32::MAX - 1, 1 << 31, (1 << 31) - 1]
    }
}

impl TestRing for Wrap64 {
    fn random(&self, rng: &mut Rng, _: u32) -> u64 {
        rng.next_u64()
    }
    fn nasty(&self, _: u32) -> Vec<u64> {
        vec![0, 1, u64::MAX, u64::MAX - 1, 1 << 63, (1 << 63) - 1]
    }
}

impl TestRing for Exact64 {
    fn fits(&self, x: &[i64]) -> bool {
        abs_sum_at_most(x, i64::MAX.into())
    }
    fn random(&self, rng: &mut Rng, log2: u32) -> i64 {
        rng.signed(i64::MAX >> log2)
    }
    /// `±(i64::MAX >> log2)` is the largest magnitude a full chunk may hold.
    fn nasty(&self, log2: u32) -> Vec<i64> {
        let top = i64::MAX >> log2;
        vec![0, 1, -1, top, -top, top - 1]
    }
}

impl TestRing for Exact128 {
    fn fits(&self, x: &[i128]) -> bool {
        abs_sum_at_most(x, i128::MAX.into())
    }
    fn random(&self, rng: &mut Rng, log2: u32) -> i128 {
        let bound = i128::MAX >> log2;
        let x = ((rng.next_u64() as i128) << 64 | rng.next_u64() as i128) % bound;
        if rng.below(2) == 0 { x } else { -x }
    }
    fn nasty(&self, log2: u32) -> Vec<i128> {
        let top = i128::MAX >> log2;
        vec![0, 1, -1, top, -top, top - 1]
    }
}

impl TestRing for Float32 {
    /// Integers below 2^10 in magnitude: every partial sum of 2^12 of them is exact in f32.
    fn random(&self, rng: &mut Rng, _: u32) -> f32 {
        rng.signed(1 << 10) as f32
    }
    fn nasty(&self, _: u32) -> Vec<f32> {
        vec![0.0, -0.0, 1.0, -1.0, 1024.0, -1024.0]
    }
}

impl TestRing for Float64 {
    fn random(&self, rng: &mut Rng, _: u32) -> f64 {
        rng.signed(1 << 30) as f64
    }
    fn nasty(&self, _: u32) -> Vec<f64> {
        vec![0.0, -0.0, 1.0, -1.0, (1u64 << 30) as f64, -((1u64 << 30) as f64)]
    }
}

/// Test vectors of length `2^log2`: seeded random, every nasty value as a constant vector,
/// nasty values cycled, and an impulse at the last index.
pub fn vectors<R: TestRing>(ring: &R, log2: u32, seed: u64) -> Vec<Vec<R::Elem>> {
    let n = 1usize << log2;
    let mut rng = Rng::new(seed ^ u64::from(log2) << 32);
    let nasty = ring.nasty(log2);
    let mut out = vec![(0..n).map(|_| ring.random(&mut rng, log2)).collect::<Vec<_>>()];
    for &v in &nasty {
        out.push(vec![v; n]);
    }
    out.push((0..n).map(|i| nasty[(i * 7 + i / 3) % nasty.len()]).collect());
    let mut impulse = vec![ring.zero(); n];
    impulse[n - 1] = nasty[2];
    out.push(impulse);
    out
}
