//! The Hadamard transforms of lengths `m·2^k` in `f16`, `bf16`, `f32` and `f64` against the
//! dense product with [`hadamard_matrix`] in `f64` (O(n²) per row), and the matrices against
//! their definition.

use nimcount::Error;
use nimcount::fwht::{Backend, HadamardFamily, HadamardPlan, Storage, hadamard_matrix, hadamard_matrix_with};
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

/// The plan of length `n` with `factor` and `family` (the rule's and the default's for `None`).
fn plan_of(n: usize, (factor, family): Choice) -> HadamardPlan {
    HadamardPlan::with_factor(n, factor, family).unwrap()
}

/// A factor and a family, as [`HadamardPlan::with_factor`] takes them.
type Choice = (Option<usize>, Option<HadamardFamily>);

fn check<S: Under>(
    n: usize,
    choice: Choice,
    x: &[f64],
    forward: &[f64],
    inverse: &[f64],
    backends: &[Backend],
) {
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
                let plan = plan_of(n, choice).with_backend(backend).unwrap().with_parallel(parallel);
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
    plan_of(n, choice).inverse(&mut y, 1.0).unwrap();
    for (a, b) in y.iter().zip(expected) {
        assert!(
            (a.to_f64() - b).abs() <= S::TOLERANCE * top,
            "{} n {n}: inverse {} against {b}",
            S::NAME,
            a.to_f64()
        );
    }
}

/// Every storage type, every backend, serial and parallel, lengths 2^0 … 2^12 and `K·2^k` for
/// every order `K` of every family and `k` in 0, 3, 6, three rows
/// each (one row for the longest), three scales (1, 1/√n, −0.375): the dense product in `f64`
/// within the storage type's tolerance; backends bit for bit alike; the inverse undoes the
/// forward transform.
#[test]
fn transforms_equal_the_dense_product_for_every_storage_type() {
    let backends = available_backends("Hadamard transforms");
    let mut rng = Rng::new(0x4ada);
    let mut lengths: Vec<(usize, Choice)> = (0..=12).map(|k| (1 << k, (None, None))).collect();
    for family in HadamardFamily::ALL {
        for &m in family.orders() {
            for k in [0, 3, 6] {
                lengths.push((m << k, (Some(m), Some(family))));
            }
        }
    }
    for (n, choice) in lengths {
        let h = hadamard_matrix_with(n, choice.0, choice.1).unwrap();
        let rows = if n >= 2048 { 1 } else { 3 };
        let mut x: Vec<f64> = (0..n * rows).map(|_| rng.signed(32) as f64 / 8.0).collect();
        // Nasty values: zeros, the extremes of the range, one lone spike.
        x[0] = 4.0;
        if n > 2 {
            x[1] = -4.0;
            x[2] = 0.0;
        }
        let (forward, inverse) = (dense(&h, n, &x, false, 1.0), dense(&h, n, &x, true, 1.0 / n as f64));
        check::<f16>(n, choice, &x, &forward, &inverse, &backends);
        check::<bf16>(n, choice, &x, &forward, &inverse, &backends);
        check::<f32>(n, choice, &x, &forward, &inverse, &backends);
        check::<f64>(n, choice, &x, &forward, &inverse, &backends);
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

/// FNV-1a (64 bits) of a matrix written row by row as `+` and `-`.
fn fingerprint(h: &[i8]) -> u64 {
    h.iter().fold(0xcbf2_9ce4_8422_2325, |hash, &v| {
        (hash ^ u64::from(if v > 0 { b'+' } else { b'-' })).wrapping_mul(0x0100_0000_01b3)
    })
}

/// The fingerprints of the published matrices ([`fingerprint`]).
const FHT_12: u64 = 0x6d27d4ef16d47d75;
const FHT_20: u64 = 0x021413dcefa542c5;
const FHT_28: u64 = 0x2b859142f8574c35;
const FHT_40: u64 = 0x8b986804b3983415;
const SLOANE_12: u64 = 0x35c7785e68b764ad;
const SLOANE_20: u64 = 0x47ee1a0779da2545;
const SLOANE_28: u64 = 0x65c668d18606a97d;
const SLOANE_36: u64 = 0x03cbd584a619bddd;
const SLOANE_44: u64 = 0xcb05c18b98abacbd;
const SLOANE_52: u64 = 0x64547545b4660cc5;
const SLOANE_60: u64 = 0x976dbe55c09a5eb5;
const SLOANE_108: u64 = 0x6391c059935eebb5;
const SLOANE_140: u64 = 0x7e0d0c2c703d8685;
const SLOANE_156: u64 = 0x1311bcd59e9c3ef5;
const SLOANE_172: u64 = 0xa0b3f25b06595585;

/// Every matrix of every family is Hadamard and is the one its package ships: the fingerprints
/// below were taken from the matrices of fast-hadamard-transform's `csrc/code_gen.py` and of
/// QuIP#'s `matmul_had.py`, QuaRot's and torchao's `hadamard_utils` (which agree), written as
/// `+` and `-` row by row.
#[test]
fn every_family_has_the_published_matrices() {
    let published: [(HadamardFamily, usize, u64); 16] = [
        (HadamardFamily::FastHadamardTransform, 12, FHT_12),
        (HadamardFamily::FastHadamardTransform, 20, FHT_20),
        (HadamardFamily::FastHadamardTransform, 28, FHT_28),
        (HadamardFamily::FastHadamardTransform, 40, FHT_40),
        (HadamardFamily::Sloane, 12, SLOANE_12),
        (HadamardFamily::Sloane, 20, SLOANE_20),
        (HadamardFamily::Sloane, 28, SLOANE_28),
        (HadamardFamily::Sloane, 36, SLOANE_36),
        (HadamardFamily::Sloane, 40, FHT_40),
        (HadamardFamily::Sloane, 44, SLOANE_44),
        (HadamardFamily::Sloane, 52, SLOANE_52),
        (HadamardFamily::Sloane, 60, SLOANE_60),
        (HadamardFamily::Sloane, 108, SLOANE_108),
        (HadamardFamily::Sloane, 140, SLOANE_140),
        (HadamardFamily::Sloane, 156, SLOANE_156),
        (HadamardFamily::Sloane, 172, SLOANE_172),
    ];
    for (family, m, expected) in published {
        assert!(family.orders().contains(&m));
        let h = hadamard_matrix_with(m, None, Some(family)).unwrap();
        assert_eq!(fingerprint(&h), expected, "{family} order {m}");
        for a in 0..m {
            for b in a..m {
                let dot: i64 = (0..m).map(|c| i64::from(h[a * m + c]) * i64::from(h[b * m + c])).sum();
                assert_eq!(dot, if a == b { m as i64 } else { 0 }, "{family} order {m}, rows {a} {b}");
            }
        }
    }
    let orders = |f: HadamardFamily| published.iter().filter(|p| p.0 == f).count();
    assert_eq!(
        orders(HadamardFamily::FastHadamardTransform),
        HadamardFamily::FastHadamardTransform.orders().len()
    );
    assert_eq!(orders(HadamardFamily::Sloane), HadamardFamily::Sloane.orders().len());
}

/// The factor each length gets: the rule (QuaRot's `get_hadK`) on the sizes of models, a factor
/// given, and the families' defaults.
#[test]
fn lengths_get_the_factor_of_the_rule_or_the_one_given() {
    let sloane = Some(HadamardFamily::Sloane);
    let fht = Some(HadamardFamily::FastHadamardTransform);
    // Llama-2-7B, Llama-2-13B, 8 960, Llama-3.1-405B, Llama-3-8B, Llama-3-70B; powers of two.
    for (n, k, log2) in [
        (11_008, 172, 6),
        (13_824, 108, 7),
        (8_960, 140, 6),
        (53_248, 52, 10),
        (14_336, 28, 9),
        (28_672, 28, 10),
    ] {
        let plan = HadamardPlan::with_factor(n, None, sloane).unwrap();
        assert_eq!((plan.order(), plan.log2(), plan.family()), (k, log2, HadamardFamily::Sloane), "{n}");
    }
    for (n, k, log2, family) in [
        (1, 1, 0, HadamardFamily::FastHadamardTransform),
        (4096, 1, 12, HadamardFamily::FastHadamardTransform),
        (12, 12, 0, HadamardFamily::FastHadamardTransform),
        (20, 20, 0, HadamardFamily::FastHadamardTransform),
        (40, 40, 0, HadamardFamily::FastHadamardTransform),
        (160, 40, 2, HadamardFamily::FastHadamardTransform),
        (28 << 10, 28, 10, HadamardFamily::FastHadamardTransform),
        (36, 36, 0, HadamardFamily::Sloane),
        (44 << 1, 44, 1, HadamardFamily::Sloane),
        (11_008, 172, 6, HadamardFamily::Sloane),
    ] {
        let plan = HadamardPlan::new(n).unwrap();
        assert_eq!((plan.order(), plan.log2(), plan.family()), (k, log2, family), "{n}");
    }
    // A factor given overrides the rule: fast-hadamard-transform's hadamard_transform_20N.
    let plan = HadamardPlan::with_factor(160, Some(20), fht).unwrap();
    assert_eq!((plan.order(), plan.log2()), (20, 3));
    assert_ne!(hadamard_matrix_with(160, Some(20), fht).unwrap(), hadamard_matrix(160).unwrap());
    assert_eq!(hadamard_matrix_with(160, Some(40), sloane).unwrap(), hadamard_matrix(160).unwrap());
    // The families differ at orders 12, 20 and 28.
    for m in [12, 20, 28] {
        assert_ne!(
            hadamard_matrix_with(m, None, sloane).unwrap(),
            hadamard_matrix_with(m, None, fht).unwrap()
        );
    }
    // Refused: a factor that does not fit, an order the family lacks, lengths of no factor.
    for (n, factor, family) in [
        (160, Some(36), None),
        (96, Some(36), None),
        (12, Some(1), None),
        (12, Some(0), None),
        (24, Some(24), None),
        (36, None, fht),
        (36, Some(36), fht),
        (11_008, None, fht),
    ] {
        let refused = HadamardPlan::with_factor(n, factor, family);
        assert!(
            matches!(refused, Err(Error::NotHadamardFactor { len, .. }) if len == n),
            "{n} {factor:?} {family:?}"
        );
        assert!(hadamard_matrix_with(n, factor, family).is_err());
    }
    assert_eq!("sloane".parse::<HadamardFamily>().unwrap(), HadamardFamily::Sloane);
    assert_eq!(
        "fast-hadamard-transform".parse::<HadamardFamily>().unwrap(),
        HadamardFamily::FastHadamardTransform
    );
    assert!("Sloane".parse::<HadamardFamily>().is_err());
}

#[test]
fn lengths_without_a_matrix_are_refused() {
    for n in [0, 3, 6, 10, 9 << 1, 11 << 1, 21 << 2, 48 + 1, 7 << 1, 17 << 2] {
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
