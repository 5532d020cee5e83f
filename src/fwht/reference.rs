//! Slow, obviously correct references: the O(n²) definition, the textbook O(n log n) loop, and
//! the O(n²) XOR convolution. Tests compare every fast path with these; benchmarks use the
//! textbook loop as their baseline.

use crate::ring::Ring;

/// The definition: `y[j] = Σ_i (-1)^popcount(i & j) · x[i]`, in O(n²).
///
/// ```
/// use nimcount::{fwht::reference, ring::Exact64};
/// assert_eq!(reference::naive(&Exact64, &[1, 2, 3, 4]), [10, -2, -4, 0]);
/// ```
pub fn naive<R: Ring>(ring: &R, x: &[R::Elem]) -> Vec<R::Elem> {
    (0..x.len())
        .map(|j| {
            x.iter().enumerate().fold(ring.zero(), |acc, (i, &xi)| {
                if (i & j).count_ones() % 2 == 0 { ring.add(acc, xi) } else { ring.sub(acc, xi) }
            })
        })
        .collect()
}

/// The textbook iterative loop: for `h = 1, 2, 4, …`, butterflies `(x[j], x[j + h])`.
/// `x.len()` must be a power of two.
pub fn textbook<R: Ring>(ring: &R, x: &mut [R::Elem]) {
    let n = x.len();
    debug_assert!(n.is_power_of_two());
    let mut h = 1;
    while h < n {
        for block in x.chunks_exact_mut(2 * h) {
            let (lo, hi) = block.split_at_mut(h);
            for (a, b) in lo.iter_mut().zip(hi.iter_mut()) {
                (*a, *b) = (ring.add(*a, *b), ring.sub(*a, *b));
            }
        }
        h *= 2;
    }
}

/// The XOR convolution by its definition: `c[i ^ j] += a[i] · b[j]`, in O(n²).
/// `a` and `b` must have the same power-of-two length.
pub fn xor_convolve<R: Ring>(ring: &R, a: &[R::Elem], b: &[R::Elem]) -> Vec<R::Elem> {
    assert_eq!(a.len(), b.len());
    let mut c = vec![ring.zero(); a.len()];
    for (i, &ai) in a.iter().enumerate() {
        for (j, &bj) in b.iter().enumerate() {
            c[i ^ j] = ring.add(c[i ^ j], ring.mul(ai, bj));
        }
    }
    c
}
