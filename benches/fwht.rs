//! Walsh–Hadamard transform benchmarks.
use criterion::{Criterion, criterion_group, criterion_main};

fn transforms(_c: &mut Criterion) {}

criterion_group!(benches, transforms);
criterion_main!(benches);
