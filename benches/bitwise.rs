//! The bitwise transforms beside the Walsh–Hadamard one, one thread, `u32` modulo 998 244 353,
//! at 2^16 and 2^20: the zeta transforms over subsets and supersets (each restored by its
//! Möbius transform, not timed) against the forward Walsh–Hadamard transform, and the AND, OR
//! and subset convolutions against the XOR convolution, every figure a ratio against the others
//! measured in the same run.
//!
//! `cargo bench --bench bitwise -- zeta` runs one group.

use std::hint::black_box;
use std::time::{Duration, Instant};

use criterion::{BenchmarkId, Criterion, Throughput, criterion_group, criterion_main};
use nimcount::convolve::{and_convolve, or_convolve, subset_convolve, xor_convolve};
use nimcount::fwht::{Plan, Sets};
use nimcount::ring::Mod32;

const P: u32 = 998_244_353;

/// Seeded residues (SplitMix64).
fn data(n: usize, seed: u64) -> Vec<u32> {
    (0..n as u64)
        .map(|i| {
            let mut z = seed.wrapping_add((i + 1).wrapping_mul(0x9E37_79B9_7F4A_7C15));
            z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
            z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
            ((z ^ (z >> 31)) % u64::from(P)) as u32
        })
        .collect()
}

/// `iters` runs of `run`, each followed by an untimed `restore`.
fn timed(iters: u64, x: &mut [u32], run: impl Fn(&mut [u32]), restore: impl Fn(&mut [u32])) -> Duration {
    let mut total = Duration::ZERO;
    for _ in 0..iters {
        let start = Instant::now();
        run(black_box(&mut *x));
        total += start.elapsed();
        restore(x);
    }
    total
}

fn zeta(c: &mut Criterion) {
    let ring = Mod32::new(P).unwrap();
    let mut g = c.benchmark_group("zeta/u32 mod 998244353");
    for log2 in [16, 20] {
        let n = 1usize << log2;
        g.throughput(Throughput::Elements(n as u64));
        if log2 >= 20 {
            g.sample_size(10).measurement_time(Duration::from_secs(3));
        }
        let plan = Plan::new(ring, n).unwrap().with_parallel(false);
        let mut x = data(n, 1);
        g.bench_with_input(BenchmarkId::new("xor", n), &n, |b, _| {
            b.iter_custom(|iters| {
                timed(iters, &mut x, |d| plan.forward(d).unwrap(), |d| plan.inverse(d).unwrap())
            })
        });
        for (name, sets) in [("and", Sets::Superset), ("or", Sets::Subset)] {
            g.bench_with_input(BenchmarkId::new(name, n), &n, |b, _| {
                b.iter_custom(|iters| {
                    timed(iters, &mut x, |d| plan.zeta(d, sets).unwrap(), |d| plan.mobius(d, sets).unwrap())
                })
            });
        }
    }
    g.finish();
}

fn convolutions(c: &mut Criterion) {
    let ring = Mod32::new(P).unwrap();
    let pool = rayon::ThreadPoolBuilder::new().num_threads(1).build().unwrap();
    let mut g = c.benchmark_group("convolve/u32 mod 998244353");
    for log2 in [16, 20] {
        let n = 1usize << log2;
        g.throughput(Throughput::Elements(n as u64));
        if log2 >= 20 {
            g.sample_size(10).measurement_time(Duration::from_secs(5));
        }
        let (a, b) = (data(n, 1), data(n, 2));
        type Convolve = fn(Mod32, &[u32], &[u32]) -> nimcount::Result<Vec<u32>>;
        let kinds: [(&str, Convolve); 4] = [
            ("xor", xor_convolve::<Mod32>),
            ("and", and_convolve::<Mod32>),
            ("or", or_convolve::<Mod32>),
            ("subset", subset_convolve::<Mod32>),
        ];
        for (name, f) in kinds {
            g.bench_with_input(BenchmarkId::new(name, n), &n, |bench, _| {
                bench.iter(|| pool.install(|| f(ring, black_box(&a), black_box(&b)).unwrap()))
            });
        }
    }
    g.finish();
}

criterion_group!(benches, zeta, convolutions);
criterion_main!(benches);
