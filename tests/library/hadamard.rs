//! The Hadamard transforms of lengths `m·2^k` in `f16`, `bf16`, `f32` and `f64` against the
//! dense product with [`hadamard_matrix`] in `f64` (O(n²) per row), and the matrices against
//! their definition.

use nimcount::Error;
use nimcount::fwht::{Backend, HadamardPlan, Storage, hadamard_matrix};
use nimcount::half::{bf16, f16};

use crate::support::common::{Rng, available_backends};

/// A storage type under test: its conversions and its tolerance, relative to the largest
/// magnitude of the exact result (a few units in the last place of the storage type: the
/// transform rounds once, to storage, at the end).
trait Under: Storage + PartialEq {
    fn from_f64(x: f64) -> Self;
    fn to_f64(self) -> f64;
    const TOLERANCE: f64;
}

impl Under for f16 {
    fn from_f64(x: f64) -> Self {
        f16::from_f64(x)
    }
    fn to_f64(self) -> f64 {
        f16::to_f64(self)
    }
    const TOLERANCE: f64 = 2e-3;
}

impl Under for bf16 {
    fn from_f64(x: f64) -> Self {
        bf16::from_f64(x)
    }
    fn to_f64(self) -> f64 {
        bf16::to_f64(self)
    }
    const TOLERANCE: f64 = 1.6e-2;
}

impl Under for f32 {
    fn from_f64(x: f64) -> Self {
        x as f32
    }
    fn to_f64(self) -> f64 {
        f64::from(self)
    }
    const TOLERANCE: f64 = 1e-6;
}

impl Under for f64 {
    fn from_f64(x: f64) -> Self {
        x
    }
    fn to_f64(self) -> f64 {
        self
    }
    const TOLERANCE: f64 = 1e-14;
}

/// `scale · H x` (or `Hᵀ` when `transpose`) for every row of `x`, in `f64`.
fn dense(h: &[i8], n: usize, x: &[f64], transpose: bool, scale: f64) -> Vec<f64> {
    let mut y = vec![0.0; x.len()];
    for (row, out) in x.chunks_exact(n).zip(y.chunks_exact_mut(n)) {
        for (i, o) in out.iter_mut().enumerate() {
            let mut sum = 0.0;
            for (j, &v) in row.iter().enumerate() {
                let sign = if transpose { h[j * n + i] } else { h[i * n + j] };
                sum += f64::from(sign) * v;
            }
            *o = sum * scale;
        }
    }
    y
}

fn check<S: Under>(n: usize, x: &[f64], forward: &[f64], inverse: &[f64], backends: &[Backend]) {
    let rows = x.len() / n;
    let input: Vec<S> = x.iter().map(|&v| S::from_f64(v)).collect();
    // The values are multiples of 1/8 of at most 4 in magnitude: exact in every storage type.
    assert!(input.iter().zip(x).all(|(a, &b)| a.to_f64() == b));
    for scale in [1.0, 1.0 / (n as f64).sqrt(), -0.375] {
        let expected: Vec<f64> = forward.iter().map(|v| v * scale).collect();
        let top = expected.iter().fold(0.0f64, |m, v| m.max(v.abs())).max(f64::MIN_POSITIVE);
        let mut first: Option<Vec<S>> = None;
        for &backend in backends {
            for parallel in [false, true] {
                let what = format!("{} n {n} × {rows} scale {scale} {backend} parallel {parallel}", S::NAME);
                let plan =
                    HadamardPlan::new(n).unwrap().with_backend(backend).unwrap().with_parallel(parallel);
                let mut y = input.clone();
                plan.forward(&mut y, scale).unwrap();
                for (i, (a, b)) in y.iter().zip(&expected).enumerate() {
                    assert!(
                        (a.to_f64() - b).abs() <= S::TOLERANCE * top,
                        "{what}: [{i}] {} against {b}",
                        a.to_f64()
                    );
                }
                // Every backend, serial or parallel, gives the same bits.
                match &first {
                    None => first = Some(y.clone()),
                    Some(f) => assert!(*f == y, "{what}: differs from the first backend"),
                }
                // The inverse with the reciprocal scale brings the input back (up to one more
                // rounding of the transformed values).
                plan.inverse(&mut y, 1.0 / scale).unwrap();
                let back_top = x.iter().fold(0.0f64, |m, v| m.max(v.abs())).max(f64::MIN_POSITIVE);
                for (i, (a, b)) in y.iter().zip(x).enumerate() {
                    assert!(
                        (a.to_f64() - b).abs() <= 4.0 * S::TOLERANCE * back_top * (n as f64).sqrt().max(1.0),
                        "{what}: inverse [{i}] {} against {b}",
                        a.to_f64()
                    );
                }
            }
        }
    }
    // The inverse alone is the transposed matrix over n.
    let expected = inverse;
    let top = expected.iter().fold(0.0f64, |m, v| m.max(v.abs())).max(f64::MIN_POSITIVE);
    let mut y = input.clone();
    HadamardPlan::new(n).unwrap().inverse(&mut y, 1.0).unwrap();
    for (a, b) in y.iter().zip(expected) {
        assert!(
            (a.to_f64() - b).abs() <= S::TOLERANCE * top,
            "{} n {n}: inverse {} against {b}",
            S::NAME,
            a.to_f64()
        );
    }
}

/// Every storage type, every backend, serial and parallel, lengths 2^0 … 2^12 and `m·2^k` for
/// `m` in 12, 20, 28, 40 and `k` in 0, 3, 6, three rows each (one row for the longest), three
/// scales (1, 1/√n, −0.375): the dense product in `f64` within the storage type's tolerance;
/// backends bit for bit alike; the inverse undoes the forward transform.
#[test]
fn transforms_equal_the_dense_product_for_every_storage_type() {
    let backends = available_backends("Hadamard transforms");
    let mut rng = Rng::new(0x4ada);
    let mut lengths: Vec<usize> = (0..=12).map(|k| 1 << k).collect();
    for m in [12, 20, 28, 40] {
        for k in [0, 3, 6] {
            lengths.push(m << k);
        }
    }
    for n in lengths {
        let h = hadamard_matrix(n).unwrap();
        let rows = if n >= 2048 { 1 } else { 3 };
        let mut x: Vec<f64> = (0..n * rows).map(|_| rng.signed(32) as f64 / 8.0).collect();
        // Nasty values: zeros, the extremes of the range, one lone spike.
        x[0] = 4.0;
        if n > 2 {
            x[1] = -4.0;
            x[2] = 0.0;
        }
        let (forward, inverse) = (dense(&h, n, &x, false, 1.0), dense(&h, n, &x, true, 1.0 / n as f64));
        check::<f16>(n, &x, &forward, &inverse, &backends);
        check::<bf16>(n, &x, &forward, &inverse, &backends);
        check::<f32>(n, &x, &forward, &inverse, &backends);
        check::<f64>(n, &x, &forward, &inverse, &backends);
    }
}

/// `H · Hᵀ = n · I` and entries ±1, for every order and a few Kronecker products; the
/// power-of-two matrices are Sylvester's; the dense orders are those of fast-hadamard-transform
/// (first rows checked against `had_12_paley`, `had_20_will`, `had_28_will`, `had_40_tpal`).
#[test]
fn matrices_are_hadamard() {
    for n in [1, 2, 4, 8, 12, 20, 28, 40, 64, 24, 96, 160, 224, 320] {
        let h = hadamard_matrix(n).unwrap();
        assert_eq!(h.len(), n * n);
        assert!(h.iter().all(|&v| v == 1 || v == -1));
        for a in 0..n {
            for b in 0..n {
                let dot: i64 = (0..n).map(|c| i64::from(h[a * n + c]) * i64::from(h[b * n + c])).sum();
                assert_eq!(dot, if a == b { n as i64 } else { 0 }, "order {n}, rows {a} {b}");
            }
        }
        if n.is_power_of_two() {
            for (i, &v) in h.iter().enumerate() {
                let (a, b) = (i / n, i % n);
                assert_eq!(v, if (a & b).count_ones() % 2 == 0 { 1 } else { -1 });
            }
        }
    }
    let first_row = |n: usize| -> String {
        hadamard_matrix(n).unwrap()[..n].iter().map(|&v| if v > 0 { '+' } else { '-' }).collect()
    };
    assert_eq!(first_row(12), "+-++++++++++");
    assert_eq!(first_row(20), "+----+----++--++-++-");
    assert_eq!(first_row(28), "+------++----++-+--+-+--++--");
    assert_eq!(first_row(40), "+-------------------+-------------------");
}

#[test]
fn lengths_without_a_matrix_are_refused() {
    for n in [0, 3, 6, 10, 36, 44, 48 + 1, 7 << 1] {
        assert!(matches!(HadamardPlan::new(n), Err(Error::NotHadamardLength { len }) if len == n), "{n}");
        assert!(matches!(hadamard_matrix(n), Err(Error::NotHadamardLength { .. })), "{n}");
    }
    let plan = HadamardPlan::new(12).unwrap();
    assert_eq!((plan.order(), plan.log2()), (12, 0));
    let mut x = vec![1.0f32; 13];
    assert!(matches!(plan.forward(&mut x, 1.0), Err(Error::LengthMismatch { len: 13, plan_len: 12 })));
    assert!(x.iter().all(|&v| v == 1.0), "a refused call leaves the data as it was");
    assert!(matches!(plan.forward::<f32>(&mut [], 1.0), Err(Error::EmptyBuffer)));
    // 40·2^k is taken as 40·2^k, not 20·2^(k+1).
    let plan = HadamardPlan::new(80).unwrap();
    assert_eq!((plan.order(), plan.log2()), (40, 1));
    // A matrix too large for memory is refused before it is built.
    if nimcount::memory::available().is_some() {
        assert!(matches!(hadamard_matrix(40 << 40), Err(Error::OutOfMemory { .. })));
    }
}
