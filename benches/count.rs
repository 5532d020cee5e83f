//! Counting benchmarks: the seed query (subtract 1 to 1 000 000 stones; heap sizes
//! 1..=12 983 567 378 251; 98 670 634 123 ordered heaps; modulo 1 000 000 007) through every
//! evaluation method, next to the textbook pipeline (iterative transform, pointwise
//! square-and-multiply, iterative inverse transform) in the same group.
use std::time::Duration;

use criterion::{Criterion, criterion_group, criterion_main};
use nimcount::count::{Kind, Method, Query};
use nimcount::fwht::reference;
use nimcount::game::Game;
use nimcount::grundy::{Certificate, Theorem};
use nimcount::histogram::Histogram;
use nimcount::ring::{Mod32, Ring};

const PERIOD: u64 = 1_000_001;
const HI: u64 = 12_983_567_378_251;
const HEAPS: u64 = 98_670_634_123;
const P: u32 = 1_000_000_007;

/// The seed histogram from its period: G(n) = n mod 1 000 001.
fn seed_histogram(values: &[u32]) -> Histogram {
    let certificate = Certificate { preperiod: 0, period: PERIOD, saltus: 0, theorem: Theorem::Nim };
    Histogram::from_period(values.to_vec(), &certificate, 1u32, HI).unwrap()
}

/// The textbook pipeline: iterative transform, square-and-multiply in every slot with the
/// exponent as given, iterative inverse transform, division by the length.
fn textbook(histogram: &Histogram) -> u32 {
    let ring = Mod32::new(P).unwrap();
    let mut data = histogram.residues_u32(P);
    reference::textbook(&ring, &mut data);
    for x in data.iter_mut() {
        let (mut base, mut acc, mut e) = (*x, 1u32, HEAPS);
        while e > 0 {
            if e & 1 == 1 {
                acc = ring.mul(acc, base);
            }
            base = ring.mul(base, base);
            e >>= 1;
        }
        *x = ring.mul(acc, 1);
    }
    reference::textbook(&ring, &mut data);
    let log2 = data.len().trailing_zeros();
    ring.divide_by_power_of_two(&mut data, log2, false).unwrap();
    data[0]
}

fn count(c: &mut Criterion) {
    let values: Vec<u32> = (0..PERIOD as u32).collect();
    let histogram = seed_histogram(&values);
    let mut group = c.benchmark_group("count");
    group.sample_size(10).measurement_time(Duration::from_secs(3)).warm_up_time(Duration::from_millis(500));
    let query = |method: Method| {
        Query::from_histogram(seed_histogram(&values))
            .heaps(HEAPS)
            .modulus(P)
            .method(method)
            .count()
            .unwrap()
            .losing
    };
    let expected = query(Method::Auto);
    assert_eq!(expected, textbook(&histogram).into(), "the textbook pipeline agrees");
    group
        .bench_function("seed/1e9+7/histogram+count (distinct residues)", |b| b.iter(|| query(Method::Auto)));
    group.bench_function("seed/1e9+7/histogram+count (every slot, vectorised power)", |b| {
        b.iter(|| query(Method::Slots))
    });
    group.bench_function("seed/1e9+7/histogram+count (exact classes)", |b| b.iter(|| query(Method::Classes)));
    group.bench_function("seed/1e9+7/textbook pipeline", |b| b.iter(|| textbook(&histogram)));
    if let Ok(game) = Game::parse("subtract:1-1000000") {
        group.bench_function("seed/1e9+7/game (period search+histogram+count)", |b| {
            b.iter(|| {
                Query::new(game.clone()).sizes(1u32, HI).heaps(HEAPS).modulus(P).count().unwrap().losing
            })
        });
    }
    group.bench_function("seed/2^64", |b| {
        b.iter(|| {
            Query::from_histogram(histogram.clone()).heaps(HEAPS).modulus(1u128 << 64).count().unwrap().losing
        })
    });
    group.bench_function("seed/exact, 3 heaps", |b| {
        b.iter(|| Query::from_histogram(histogram.clone()).heaps(3u32).count().unwrap().losing)
    });
    group.bench_function("seed/1e9+7, 1000 unordered heaps", |b| {
        b.iter(|| {
            Query::from_histogram(histogram.clone())
                .heaps(1000u32)
                .kind(Kind::Multiset)
                .modulus(P)
                .count()
                .unwrap()
                .losing
        })
    });
    group.finish();
}

criterion_group!(benches, count);
criterion_main!(benches);
