//! Walsh–Hadamard transform benchmarks: one group per ring; in each, one id per backend (single
//! thread), the best backend without the range check (`-unchecked`), the best backend on all
//! threads, and the textbook loop, for sizes 2^10 … 2^24, so
//! every figure reads as a ratio against the others measured in the same run.
//!
//! `cargo bench --bench fwht -- 'u32 mod'` runs one group; `NIMCOUNT_BENCH_MAX_LOG2=20` caps
//! the sizes.
//!
//! The group `hadamard` times the shapes of machine learning's use, one thread: bfloat16 rows of
//! 4096 with a scale against widening to f32, the f32 transform, scaling and narrowing in
//! separate passes; f32 rows of 28·2^10 against the 1024-point transforms followed by the dense
//! 28 × 28 product in a separate pass.

use std::hint::black_box;
use std::time::{Duration, Instant};

use criterion::{BenchmarkId, Criterion, Throughput, criterion_group, criterion_main};
use nimcount::fwht::{Backend, HadamardPlan, Plan, hadamard_matrix, reference};
use nimcount::half::bf16;
use nimcount::ring::{Exact64, Float32, Float64, Mod32, Mod64, Ring, Wrap32, Wrap64};

/// Seeded values for each ring: residues, raw bits, {-1, 0, 1} for exact integers (a forward and
/// inverse round trip then always fits), uniform [-1, 1) for floats.
trait BenchRing: Ring<Elem: Copy> + Copy {
    fn value(&self, bits: u64) -> Self::Elem;
    /// The baseline loop (`%` reductions for u32 residues).
    fn textbook(&self, data: &mut [Self::Elem]) {
        reference::textbook(self, data);
    }
}

impl BenchRing for Mod32 {
    fn value(&self, bits: u64) -> u32 {
        self.reduce(bits)
    }
    fn textbook(&self, data: &mut [u32]) {
        reference::textbook_remainder(self.modulus(), data);
    }
}
impl BenchRing for Mod64 {
    fn value(&self, bits: u64) -> u64 {
        self.reduce(u128::from(bits))
    }
}
impl BenchRing for Wrap32 {
    fn value(&self, bits: u64) -> u32 {
        bits as u32
    }
}
impl BenchRing for Wrap64 {
    fn value(&self, bits: u64) -> u64 {
        bits
    }
}
impl BenchRing for Exact64 {
    fn value(&self, bits: u64) -> i64 {
        (bits % 3) as i64 - 1
    }
}
impl BenchRing for Float32 {
    fn value(&self, bits: u64) -> f32 {
        ((bits >> 40) as f32 / (1u32 << 24) as f32) * 2.0 - 1.0
    }
}
impl BenchRing for Float64 {
    fn value(&self, bits: u64) -> f64 {
        ((bits >> 11) as f64 / (1u64 << 53) as f64) * 2.0 - 1.0
    }
}

fn data<R: BenchRing>(ring: &R, n: usize) -> Vec<R::Elem> {
    let mut state = 0x0123_4567_89AB_CDEFu64;
    (0..n)
        .map(|_| {
            state = state.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1_442_695_040_888_963_407);
            ring.value(state ^ (state >> 29))
        })
        .collect()
}

/// Times `iters` runs of `method`, restoring the data after each one (untimed) so every run
/// transforms the same kind of values (floats would otherwise grow without bound).
fn timed<T>(
    iters: u64,
    data: &mut [T],
    mut method: impl FnMut(&mut [T]),
    mut restore: impl FnMut(&mut [T]),
) -> Duration {
    let mut total = Duration::ZERO;
    for _ in 0..iters {
        let start = Instant::now();
        method(black_box(&mut *data));
        total += start.elapsed();
        restore(data);
    }
    total
}

fn group<R: BenchRing>(c: &mut Criterion, ring: R) {
    let max_log2: u32 =
        std::env::var("NIMCOUNT_BENCH_MAX_LOG2").ok().and_then(|v| v.parse().ok()).unwrap_or(24);
    let mut g = c.benchmark_group(format!("fwht/{ring}"));
    for log2 in (10..=max_log2).step_by(2) {
        let n = 1usize << log2;
        g.throughput(Throughput::Elements(n as u64));
        if log2 >= 20 {
            g.sample_size(10).measurement_time(Duration::from_secs(if log2 >= 24 { 8 } else { 3 }));
        }
        let mut buffer = data(&ring, n);
        let restorer = Plan::new(ring, n).unwrap();
        let restore = |d: &mut [R::Elem]| {
            if ring.can_halve() {
                restorer.inverse(d).unwrap();
            }
        };
        let best = Backend::best();
        // `forward` checks the elements' range; `forward_unchecked` on the best backend beside it
        // shows what the check costs.
        let variants = Backend::ALL
            .into_iter()
            .filter(|b| b.is_available())
            .map(|b| (b, false, false))
            .chain([(best, false, true), (best, true, false)]);
        for (backend, parallel, unchecked) in variants {
            let plan = Plan::new(ring, n).unwrap().with_backend(backend).unwrap().with_parallel(parallel);
            let id = match (parallel, unchecked) {
                (true, _) => format!("{backend}-threads"),
                (false, true) => format!("{backend}-unchecked"),
                (false, false) => backend.to_string(),
            };
            let forward = |d: &mut [R::Elem]| {
                if unchecked { plan.forward_unchecked(d).unwrap() } else { plan.forward(d).unwrap() }
            };
            g.bench_with_input(BenchmarkId::new(id, n), &n, |b, _| {
                b.iter_custom(|iters| timed(iters, &mut buffer, forward, restore))
            });
        }
        g.bench_with_input(BenchmarkId::new("textbook", n), &n, |b, _| {
            b.iter_custom(|iters| timed(iters, &mut buffer, |d| ring.textbook(d), restore))
        });
    }
    g.finish();
}

fn transforms(c: &mut Criterion) {
    group(c, Mod32::new(998_244_353).unwrap());
    group(c, Mod64::new(4_611_686_018_427_387_847).unwrap());
    group(c, Wrap32);
    group(c, Wrap64);
    group(c, Exact64);
    group(c, Float32);
    group(c, Float64);
}

/// bfloat16 2048 × 4096 with a scale, and f32 256 × 28·2^10, each against the same work done in
/// separate passes.
fn hadamard(c: &mut Criterion) {
    let mut g = c.benchmark_group("hadamard");
    g.sample_size(10).measurement_time(Duration::from_secs(3));
    let (rows, n) = (2048, 4096);
    g.throughput(Throughput::Elements((rows * n) as u64));
    let x: Vec<bf16> = data(&Float32, rows * n).into_iter().map(bf16::from_f32).collect();
    let plan = HadamardPlan::new(n).unwrap().with_parallel(false);
    let scale = 1.0 / (n as f64).sqrt();
    let mut buffer = x.clone();
    g.bench_function("bf16 2048x4096 scaled/nimcount", |b| {
        b.iter_custom(|iters| {
            timed(iters, &mut buffer, |d| plan.forward(d, scale).unwrap(), |d| d.copy_from_slice(&x))
        })
    });
    let f32_plan = Plan::new(Float32, n).unwrap().with_parallel(false);
    let mut wide = vec![0.0f32; rows * n];
    g.bench_function("bf16 2048x4096 scaled/widen+f32+scale+narrow", |b| {
        b.iter_custom(|iters| {
            timed(
                iters,
                &mut buffer,
                |d| {
                    wide.iter_mut().zip(d.iter()).for_each(|(w, v)| *w = v.to_f32());
                    f32_plan.forward(&mut wide).unwrap();
                    wide.iter_mut().for_each(|w| *w *= scale as f32);
                    d.iter_mut().zip(&wide).for_each(|(v, w)| *v = bf16::from_f32(*w));
                },
                |d| d.copy_from_slice(&x),
            )
        })
    });
    let (rows, n) = (256, 28 << 10);
    g.throughput(Throughput::Elements((rows * n) as u64));
    let x = data(&Float32, rows * n);
    let plan = HadamardPlan::new(n).unwrap().with_parallel(false);
    let mut buffer = x.clone();
    g.bench_function("f32 256x28672/nimcount", |b| {
        b.iter_custom(|iters| {
            timed(iters, &mut buffer, |d| plan.forward(d, 1.0).unwrap(), |d| d.copy_from_slice(&x))
        })
    });
    let block = Plan::new(Float32, 1024).unwrap().with_parallel(false);
    let h: Vec<f32> = hadamard_matrix(28).unwrap().into_iter().map(f32::from).collect();
    let mut column = [0.0f32; 28];
    g.bench_function("f32 256x28672/blocks+dense", |b| {
        b.iter_custom(|iters| {
            timed(
                iters,
                &mut buffer,
                |d| {
                    block.forward(d).unwrap();
                    for row in d.chunks_exact_mut(n) {
                        for j in 0..1024 {
                            (0..28).for_each(|c| column[c] = row[c * 1024 + j]);
                            for a in 0..28 {
                                row[a * 1024 + j] = (0..28).map(|c| h[a * 28 + c] * column[c]).sum();
                            }
                        }
                    }
                },
                |d| d.copy_from_slice(&x),
            )
        })
    });
    g.finish();
}

criterion_group!(benches, transforms, hadamard);
criterion_main!(benches);
