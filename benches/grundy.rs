//! Grundy-value and period-search benchmarks. Each group puts the fast method next to its
//! baseline so every figure reads as a ratio:
//!
//! - `find_period`: `subtract:1-1000000` by its closed form and by the general path
//!   (sliding-window mex and window theorem), and octal 0.16 (sparse space);
//! - `subtraction values`: the sliding-window mex against the plain mex over every move;
//! - `block values`: subtract-a-square and a scattered subtraction set by blocks (SIMD
//!   gathers, on one thread and on all) against the plain mex over every move;
//! - `octal values`: the sparse-space method against the plain O(n²) method.
//!
//! `benches/squares_mex.cpp` is the plain C++ loop for subtract-a-square, timed as a whole
//! process beside `nimcount grundy --game squares --first N` (see the README).
//!
//! `cargo bench --bench grundy -- find_period` runs one group.

use std::hint::black_box;

use criterion::{BenchmarkId, Criterion, Throughput, criterion_group, criterion_main};
use nimcount::game::{Game, OctalCode};
use nimcount::grundy::{find_period, find_period_general, octal_values_plain, values, values_of};
use nimcount::progress::Silent;

fn game(spec: &str) -> Game {
    Game::parse(spec).expect("a valid spec")
}

fn period_search(c: &mut Criterion) {
    let mut group = c.benchmark_group("find_period");
    group.sample_size(10);
    let interval = game("subtract:1-1000000");
    group.bench_function("subtract:1-1000000/closed form", |b| {
        b.iter(|| black_box(find_period(black_box(&interval), 1 << 21, &Silent).unwrap()))
    });
    group.bench_function("subtract:1-1000000/general", |b| {
        b.iter(|| black_box(find_period_general(black_box(&interval), 1 << 21, &Silent).unwrap()))
    });
    let dawson = game("octal:0.16");
    group.bench_function("octal:0.16", |b| {
        b.iter(|| black_box(find_period(black_box(&dawson), 1 << 21, &Silent).unwrap()))
    });
    group.finish();
}

fn subtraction_values(c: &mut Criterion) {
    let mut group = c.benchmark_group("subtraction values");
    group.sample_size(10);
    let count = 1u64 << 17;
    group.throughput(Throughput::Elements(count));
    // Not single intervals: those have a closed form.
    for spec in ["subtract:1-998,1000", "subtract:1-3,7,10-12,100-400"] {
        let g = game(spec);
        group.bench_with_input(BenchmarkId::new("sliding window", spec), &g, |b, g| {
            b.iter(|| black_box(values(g, count, &Silent).unwrap()))
        });
        group.bench_with_input(BenchmarkId::new("plain mex", spec), &g, |b, g| {
            b.iter(|| black_box(values_of(g, count, &Silent).unwrap()))
        });
    }
    group.finish();
}

fn block_values(c: &mut Criterion) {
    let mut group = c.benchmark_group("block values");
    group.sample_size(10);
    let count = 1u64 << 18;
    group.throughput(Throughput::Elements(count));
    let one_thread = rayon::ThreadPoolBuilder::new().num_threads(1).build().expect("a pool");
    for spec in ["squares", "subtract:2,3,5,7,11,13,17,19,23,29,31,37,41,43,47,53,59,61,67,71,73,79,83,89,97"]
    {
        let g = game(spec);
        group.bench_with_input(BenchmarkId::new("blocks, one thread", spec), &g, |b, g| {
            b.iter(|| one_thread.install(|| black_box(values(g, count, &Silent).unwrap())))
        });
        group.bench_with_input(BenchmarkId::new("blocks, all threads", spec), &g, |b, g| {
            b.iter(|| black_box(values(g, count, &Silent).unwrap()))
        });
        group.bench_with_input(BenchmarkId::new("plain mex", spec), &g, |b, g| {
            b.iter(|| black_box(values_of(g, count, &Silent).unwrap()))
        });
    }
    group.finish();
}

fn octal_values(c: &mut Criterion) {
    let mut group = c.benchmark_group("octal values");
    group.sample_size(10);
    let count = 20_000usize;
    group.throughput(Throughput::Elements(count as u64));
    for spec in ["0.16", "0.6", "0.106"] {
        let code: OctalCode = spec.parse().unwrap();
        let g = Game::Octal(code.clone());
        group.bench_with_input(BenchmarkId::new("sparse space", spec), &g, |b, g| {
            b.iter(|| black_box(values(g, count as u64, &Silent).unwrap()))
        });
        group.bench_with_input(BenchmarkId::new("plain", spec), &code, |b, code| {
            b.iter(|| black_box(octal_values_plain(code, count)))
        });
    }
    group.finish();
}

criterion_group!(benches, period_search, subtraction_values, block_values, octal_values);
criterion_main!(benches);
