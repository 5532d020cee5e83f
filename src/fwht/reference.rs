//! Slow, obviously correct references: the O(n²) definition, the textbook O(n log n) loop, and
//! the O(n²) XOR convolution. Tests compare every fast path with these; benchmarks use the
//! textbook loop as their baseline.

use crate::ring::Ring;

pub use crate::simd::portable::textbook_with;

/// The definition: `y[j] = Σ_i (-1)^popcount(i & j) · x[i]`, in O(n²).
///
/// ```
/// use nimcount::{fwht::reference, ring::Exact64};
/// assert_eq!(reference::naive(&Exact64, &[1, 2, 3, 4]), [10, -2, -4, 0]);
/// ```
pub fn naive<R: Ring>(ring: &R, x: &[R::Elem]) -> Vec<R::Elem> {
    (0..x.len())
        .map(|j| {
            x.iter().enumerate().fold(ring.zero(), |acc, (i, xi)| {
                if (i & j).count_ones() % 2 == 0 {
                    ring.add(acc, xi.clone())
                } else {
                    ring.sub(acc, xi.clone())
                }
            })
        })
        .collect()
}

/// The textbook iterative loop ([`textbook_with`]) with the ring's butterfly
/// `(a, b) → (a + b, a − b)`. `x.len()` must be a power of two (or 0).
pub fn textbook<R: Ring>(ring: &R, x: &mut [R::Elem]) {
    textbook_with(x, |a, b| (ring.add(a.clone(), b.clone()), ring.sub(a.clone(), b.clone())));
}

/// The XOR convolution by its definition: `c[i ^ j] += a[i] · b[j]`, in O(n²).
/// `a` and `b` must have the same power-of-two length.
pub fn xor_convolve<R: Ring>(ring: &R, a: &[R::Elem], b: &[R::Elem]) -> Vec<R::Elem> {
    assert_eq!(a.len(), b.len());
    let mut c = vec![ring.zero(); a.len()];
    for (i, ai) in a.iter().enumerate() {
        for (j, bj) in b.iter().enumerate() {
            c[i ^ j] = ring.add(c[i ^ j].clone(), ring.mul(ai.clone(), bj.clone()));
        }
    }
    c
}

/// The textbook loop for residues modulo `m` as it is usually written, reducing with `%`:
/// `(u + v) % m` and `(u + m - v) % m`. The remainder is strength-reduced to multiplications
/// (as a compiler does for a constant modulus), so this matches the fastest C++ rendering of
/// the same loop. It is the baseline the benchmarks compare against for `u32` residues.
///
/// # Panics
/// Unless `1 <= m < 2^31` (the moduli of [`crate::ring::Mod32`]), where `u + m - v` fits.
pub fn textbook_remainder(m: u32, x: &mut [u32]) {
    assert!((1..1 << 31).contains(&m), "textbook_remainder needs a modulus in 1..2^31, not {m}");
    let rem = Remainder::new(m);
    textbook_with(x, |&u, &v| (rem.of(u + v), rem.of(u + m - v)));
}

/// `x % m` for 32-bit `x` and `m` by two multiplications (Lemire, Kaser and Kurz, 2019):
/// with `c = ⌈2^64 / m⌉`, the low 64 bits of `c · x` are the fraction `x/m` scaled by 2^64, and
/// multiplying that fraction by `m` gives the remainder in the high 64 bits.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Remainder {
    m: u32,
    c: u64,
}

impl Remainder {
    pub(crate) fn new(m: u32) -> Self {
        Remainder { m, c: (u64::MAX / u64::from(m)).wrapping_add(1) }
    }

    #[inline]
    pub(crate) fn of(self, x: u32) -> u32 {
        let fraction = self.c.wrapping_mul(u64::from(x));
        ((u128::from(fraction) * u128::from(self.m)) >> 64) as u32
    }
}
