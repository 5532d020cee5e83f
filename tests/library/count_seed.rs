//! The seed query — remove 1 to 1 000 000 stones from one heap; heap sizes 1..=12 983 567 378 251;
//! 98 670 634 123 ordered heaps — against a second, independent method for every modulus kind:
//! binary powering of the whole XOR distribution by convolutions (transform, pointwise product,
//! inverse transform), with no exponent reduction; modulo 2^64 each convolution is exact through
//! three primes and the Chinese remainder theorem.

use nimcount::arith::{inv_mod, is_prime, mul_mod};
use nimcount::count::{Method, Query};
use nimcount::fwht::Plan;
use nimcount::game::Game;
use nimcount::grundy::{Certificate, Theorem};
use nimcount::histogram::Histogram;
use nimcount::ring::{Mod32, Mod64, Ring};
use num_bigint::BigUint;

const PERIOD: u64 = 1_000_001;
const HI: u64 = 12_983_567_378_251;
const HEAPS: u64 = 98_670_634_123;
const LOG2: u32 = 20;

/// The histogram over 1..=HI of G(n) = n mod 1 000 001, counted here from the formula:
/// value g occurs for n = g, g + p, … (n >= 1).
fn formula_counts() -> Vec<u64> {
    let mut h = vec![0u64; 1 << LOG2];
    for (g, slot) in h.iter_mut().enumerate().take(PERIOD as usize) {
        let g = g as u64;
        // n = g + j·p in 1..=HI.
        let first = if g == 0 { PERIOD } else { g };
        *slot = if first > HI { 0 } else { (HI - first) / PERIOD + 1 };
    }
    h
}

/// The same histogram through the library, from the period certificate of G(n) = n mod p.
fn seed_histogram() -> Histogram {
    let values: Vec<u32> = (0..PERIOD as u32).collect();
    let certificate = Certificate { preperiod: 0, period: PERIOD, saltus: 0, theorem: Theorem::Nim };
    Histogram::from_period(values, &certificate, 1u32, HI).unwrap()
}

/// `h^{*k}` modulo a prime `p < 2^31` by binary powering: each step is a full XOR convolution.
fn binary_power_mod32(h: &[u64], k: u64, p: u32) -> Vec<u32> {
    let ring = Mod32::new(p).unwrap();
    let plan = Plan::new(ring, h.len()).unwrap();
    let mut base: Vec<u32> = h.iter().map(|&c| (c % u64::from(p)) as u32).collect();
    plan.forward(&mut base).unwrap();
    let convolve = |a: &[u32], transformed_b: &[u32]| -> Vec<u32> {
        let mut x = a.to_vec();
        plan.forward(&mut x).unwrap();
        for (u, &v) in x.iter_mut().zip(transformed_b) {
            *u = ring.mul(*u, v);
        }
        plan.inverse(&mut x).unwrap();
        x
    };
    let mut result = vec![0u32; h.len()];
    result[0] = 1;
    for i in (0..u64::BITS - k.leading_zeros()).rev() {
        let mut transformed = result.clone();
        plan.forward(&mut transformed).unwrap();
        result = convolve(&result, &transformed);
        if (k >> i) & 1 == 1 {
            result = convolve(&result, &base);
        }
    }
    result
}

/// Three primes below 2^62, found here by scanning down.
fn primes() -> [u64; 3] {
    let mut found = Vec::new();
    let mut candidate = (1u64 << 62) - 1;
    while found.len() < 3 {
        if is_prime(candidate) {
            found.push(candidate);
        }
        candidate -= 2;
    }
    [found[0], found[1], found[2]]
}

/// `v mod p` for a prime `p` just below 2^62, without a division (the reductions of every entry
/// of every convolution below would cost more than the convolutions): `v < 2^64 < 8p`, so three
/// conditional subtractions, of `4p`, `2p` and `p`, each kept only where it does not wrap.
fn reduce(v: u64, p: u64) -> u64 {
    debug_assert!(p > 1 << 61 && p < 1 << 62);
    let v = v.min(v.wrapping_sub(4 * p));
    let v = v.min(v.wrapping_sub(2 * p));
    v.min(v.wrapping_sub(p))
}

/// `a *ₓ b` exactly modulo 2^64 for `a, b` below 2^64: every exact entry is below
/// F · 2^128 = 2^148 < p1·p2·p3, so three prime convolutions and Garner's mixed-radix
/// reconstruction give it, reduced modulo 2^64 with wrapping arithmetic. The products modulo
/// each prime are the rings' own (checked against `mul_mod` on the constants below).
fn convolve_mod_2_64(a: &[u64], b: &[u64], primes: &[u64; 3]) -> Vec<u64> {
    let residues: Vec<Vec<u64>> = primes
        .iter()
        .map(|&p| {
            let ring = Mod64::new(p).unwrap();
            let plan = Plan::new(ring, a.len()).unwrap();
            let mut x: Vec<u64> = a.iter().map(|&v| reduce(v, p)).collect();
            plan.forward(&mut x).unwrap();
            // A square transforms its one factor once.
            let y = if std::ptr::eq(a, b) {
                x.clone()
            } else {
                let mut y: Vec<u64> = b.iter().map(|&v| reduce(v, p)).collect();
                plan.forward(&mut y).unwrap();
                y
            };
            for (u, &v) in x.iter_mut().zip(&y) {
                *u = ring.mul(*u, v);
            }
            plan.inverse(&mut x).unwrap();
            x
        })
        .collect();
    let [p1, p2, p3] = *primes;
    let (ring2, ring3) = (Mod64::new(p2).unwrap(), Mod64::new(p3).unwrap());
    let inv_p1_mod_p2 = inv_mod(p1 % p2, p2).unwrap();
    let inv_p1p2_mod_p3 = inv_mod(mul_mod(p1 % p3, p2 % p3, p3), p3).unwrap();
    let p1_mod_p3 = p1 % p3;
    for (x, y, m, ring) in [(p2 - 1, inv_p1_mod_p2, p2, ring2), (p3 - 2, p1_mod_p3, p3, ring3)] {
        assert_eq!(ring.mul(x, y), mul_mod(x, y, m));
    }
    for v in [0, p3 - 1, p3, 2 * p3 - 1, 3 * p3, 4 * p3 - 1, 4 * p3, u64::MAX, a[a.len() / 3]] {
        assert_eq!(reduce(v, p3), v % p3, "{v}");
    }
    (0..a.len())
        .map(|i| {
            let (r1, r2, r3) = (residues[0][i], residues[1][i], residues[2][i]);
            // x = t1 + t2·p1 + t3·p1·p2 with t1 = r1, t2 < p2, t3 < p3.
            let t2 = ring2.mul(ring2.sub(r2, reduce(r1, p2)), inv_p1_mod_p2);
            let partial = ring3.add(reduce(r1, p3), ring3.mul(reduce(t2, p3), p1_mod_p3));
            let t3 = ring3.mul(ring3.sub(r3, partial), inv_p1p2_mod_p3);
            r1.wrapping_add(t2.wrapping_mul(p1)).wrapping_add(t3.wrapping_mul(p1.wrapping_mul(p2)))
        })
        .collect()
}

#[test]
fn the_seed_histogram_matches_the_formula() {
    let h = seed_histogram();
    let formula = formula_counts();
    assert_eq!(h.transform_len(), 1 << LOG2);
    assert_eq!(*h.total(), BigUint::from(HI));
    for g in [0u64, 1, 2, 500_000, 999_999, 1_000_000, 1_000_001, (1 << 20) - 1] {
        assert_eq!(h.count(g), BigUint::from(formula[g as usize]), "value {g}");
    }
    let sum: u64 = formula.iter().sum();
    assert_eq!(sum, HI);
}

#[test]
fn seed_query_modulo_primes_matches_binary_powering() {
    let formula = formula_counts();
    for p in [1_000_000_007u32, 998_244_353] {
        let want = binary_power_mod32(&formula, HEAPS, p);
        let total = BigUint::from(HI).modpow(&HEAPS.into(), &p.into());
        for method in [Method::Auto, Method::Slots, Method::Classes] {
            let counts = Query::from_histogram(seed_histogram())
                .heaps(HEAPS)
                .modulus(p)
                .method(method)
                .count()
                .unwrap();
            assert_eq!(counts.losing, BigUint::from(want[0]), "modulo {p}, {method:?}");
            assert_eq!(counts.total, total, "modulo {p}, {method:?}");
            assert_eq!(counts.winning, (&total + p - &counts.losing) % p, "modulo {p}, {method:?}");
        }
    }
}

#[test]
fn seed_query_modulo_2_64_matches_exact_convolutions() {
    let primes = primes();
    let formula = formula_counts();
    let mut result = vec![0u64; formula.len()];
    result[0] = 1;
    for i in (0..u64::BITS - HEAPS.leading_zeros()).rev() {
        result = convolve_mod_2_64(&result, &result, &primes);
        if (HEAPS >> i) & 1 == 1 {
            result = convolve_mod_2_64(&result, &formula, &primes);
        }
    }
    let m = BigUint::from(2u8).pow(64);
    for method in [Method::Auto, Method::Classes] {
        let counts = Query::from_histogram(seed_histogram())
            .heaps(HEAPS)
            .modulus(m.clone())
            .method(method)
            .count()
            .unwrap();
        assert_eq!(counts.losing, BigUint::from(result[0]), "{method:?}");
        assert_eq!(counts.total, BigUint::from(HI).modpow(&HEAPS.into(), &m));
    }
}

#[test]
fn seed_query_exactly_for_three_heaps() {
    // L = Σ_x h[x] · (h *ₓ h)[x]; (h *ₓ h)[x] <= N² < 2^88 is exact through two primes.
    let primes = primes();
    let formula = formula_counts();
    let squares: Vec<Vec<u64>> = primes[..2]
        .iter()
        .map(|&p| {
            let ring = Mod64::new(p).unwrap();
            let plan = Plan::new(ring, formula.len()).unwrap();
            let mut x: Vec<u64> = formula.iter().map(|&v| v % p).collect();
            plan.forward(&mut x).unwrap();
            for u in x.iter_mut() {
                *u = ring.mul(*u, *u);
            }
            plan.inverse(&mut x).unwrap();
            x
        })
        .collect();
    let (p1, p2) = (primes[0], primes[1]);
    let inv = inv_mod(p1 % p2, p2).unwrap();
    let mut want = BigUint::from(0u8);
    for (x, &h) in formula.iter().enumerate() {
        let (r1, r2) = (squares[0][x], squares[1][x]);
        let t2 = mul_mod((r2 + p2 - r1 % p2) % p2, inv, p2);
        let square = u128::from(r1) + u128::from(t2) * u128::from(p1);
        want += BigUint::from(square) * h;
    }
    let n = BigUint::from(HI);
    for method in [Method::Auto, Method::Classes] {
        let counts = Query::from_histogram(seed_histogram()).heaps(3u32).method(method).count().unwrap();
        assert_eq!(counts.losing, want, "{method:?}");
        assert_eq!(counts.total, &n * &n * &n);
        assert_eq!(counts.winning, &n * &n * &n - &want);
        assert_eq!(counts.modulus, None);
    }
}

#[test]
fn seed_query_through_the_game() {
    // The game's period search (not the formula) builds the histogram here.
    let game = Game::parse("subtract:1-1000000").unwrap();
    let from_game = Query::new(game.clone()).sizes(1u32, HI).heaps(HEAPS).modulus(1_000_000_007u32);
    let from_game = from_game.count().unwrap();
    let from_formula =
        Query::from_histogram(seed_histogram()).heaps(HEAPS).modulus(1_000_000_007u32).count().unwrap();
    assert_eq!(from_game.losing, from_formula.losing);
    assert_eq!(from_game.total, from_formula.total);
    match &from_game.report.source {
        nimcount::count::Source::Period { certificate, .. } => {
            assert_eq!((certificate.preperiod, certificate.period, certificate.saltus), (0, PERIOD, 0));
        }
        other => panic!("expected a period, got {other:?}"),
    }
    let query = Query::new(game).sizes(1u32, HI);
    let (h, _) = query.histogram().unwrap();
    for g in [0u64, 1, 77, 999_999, 1_000_000, 1_000_001] {
        assert_eq!(h.count(g), seed_histogram().count(g), "value {g}");
    }
}
