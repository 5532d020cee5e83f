//! Sums of different games: each component (`k_p` heaps of one game, ordered, multisets or
//! sets) evaluates its pointwise values on the classes of its own spectrum, and the values are
//! multiplied slot by slot.
//!
//! The components share one transform length `F = 2^d`. A component's pointwise values are the
//! transform of the distribution of its XOR (the number of its positions with each XOR value),
//! so their slot-wise product is the transform of the XOR convolution of the components'
//! distributions: the distribution of the XOR over all heaps. Hence, as for one game,
//! `L = F⁻¹ Σ_j Π_p c_p[j]`, the total is the product at slot 0, and the distribution is one
//! inverse transform. The slots are grouped by their tuple of component classes (the joint
//! classes), and each joint class is evaluated once.

use std::collections::HashMap;

use num_bigint::{BigInt, BigUint};
use num_traits::{One, Zero};

use super::classes::outcome;
use super::probability::{big_ratio, float_distribution};
use super::{
    ClassCount, Classes, EXACT_MAX_BITS, Engine, Outcome, Stages, answer_bits, classes_by_ring,
    exact_outcome, join_parts, reserve_exact_distribution,
};
use crate::count::answer::{Report, Source, SpectrumPath};
use crate::count::modulus::Part;
use crate::error::{Error, Estimate, Result};
use crate::ring::Residues;

/// Bytes each slot of each part of a sum keeps until the end: its histogram's count (a word)
/// and its spectrum's class (32 bits).
const PART_SLOT_BYTES: u64 = 12;
/// Bytes per slot of the sum as a whole: one part's transform at a time (a word) and the joint
/// class of every slot (32 bits).
const SUM_SLOT_BYTES: u64 = 12;

/// Refuses a sum of `parts` parts over `2^log2` slots each whose arrays could not fit together
/// in memory, before any is made (each one alone may fit: three hundred parts over `1..=2^20`
/// need 7.5 GiB).
pub(in crate::count) fn check_sum_memory(parts: usize, log2: u32) -> Result<()> {
    let slots = 1u64.checked_shl(log2).unwrap_or(u64::MAX);
    let bytes =
        slots.saturating_mul((parts as u64).saturating_mul(PART_SLOT_BYTES).saturating_add(SUM_SLOT_BYTES));
    crate::memory::ensure_fits(
        || {
            format!(
                "the arrays of a sum of {parts} parts, 2^{log2} slots each (each part is counted over an array)"
            )
        },
        bytes,
    )
}

/// The components of a sum of games, over histograms of one transform length.
pub struct Sum<'a> {
    components: Vec<Engine<'a>>,
    joint: Option<Joint>,
    stages: Stages,
}

/// The classes of the slots by their tuple of component classes.
struct Joint {
    /// `tuples[c · width + p]`: the class of component `p` in joint class `c`.
    tuples: Vec<u32>,
    width: usize,
    multiplicity: Vec<u64>,
    slot_class: Vec<u32>,
}

impl Classes for Joint {
    fn multiplicity(&self, c: usize) -> BigUint {
        self.multiplicity[c].into()
    }
    fn multiplicity_residue<R: Residues>(&self, r: &R, c: usize) -> R::Elem {
        r.residue_u128(u128::from(self.multiplicity[c]))
    }
    fn zero_class(&self) -> usize {
        self.slot_class[0] as usize
    }
    fn slot_class(&self) -> Option<&[u32]> {
        Some(&self.slot_class)
    }
}

impl Joint {
    fn len(&self) -> usize {
        self.multiplicity.len()
    }

    /// The product over the components of their values at joint class `c`.
    fn product<T>(&self, c: usize, values: &[Vec<T>], one: T, mul: impl Fn(T, &T) -> T) -> T {
        let tuple = &self.tuples[c * self.width..(c + 1) * self.width];
        tuple.iter().zip(values).fold(one, |acc, (&class, v)| mul(acc, &v[class as usize]))
    }
}

impl<'a> Sum<'a> {
    /// The sum of `components`, whose histograms are arrays of one transform length.
    pub fn new(components: Vec<Engine<'a>>, stages: Stages) -> Self {
        debug_assert!(!components.is_empty());
        debug_assert!(components.iter().all(|e| !e.histogram.is_structured()));
        debug_assert!(components.iter().all(|e| e.log2() == components[0].log2()));
        Sum { components, joint: None, stages }
    }

    fn log2(&self) -> u32 {
        self.components[0].log2()
    }

    /// Some component has sets of more sizes than it has: no position at all.
    fn no_sets(&self) -> bool {
        self.components.iter().any(Engine::no_sets)
    }

    /// Every component's spectrum with its slots' classes, and the joint classes.
    fn joint(&mut self) -> Result<&Joint> {
        if self.joint.is_none() {
            let start = std::time::Instant::now();
            let mut slots: Vec<&[u32]> = Vec::with_capacity(self.components.len());
            for engine in &mut self.components {
                engine.spectrum(true)?;
            }
            for engine in &self.components {
                slots.push(engine.spectrum.as_ref().and_then(|s| s.slot_class()).expect("kept"));
            }
            let (width, len) = (slots.len(), slots[0].len());
            let mut index: HashMap<Vec<u32>, u32> = HashMap::new();
            let mut joint =
                Joint { tuples: Vec::new(), width, multiplicity: Vec::new(), slot_class: Vec::new() };
            joint.slot_class.reserve(len);
            let mut tuple = vec![0u32; width];
            for j in 0..len {
                for (t, s) in tuple.iter_mut().zip(&slots) {
                    *t = s[j];
                }
                let c = match index.get(tuple.as_slice()) {
                    Some(&c) => c,
                    None => {
                        let c = joint.multiplicity.len() as u32;
                        index.insert(tuple.clone(), c);
                        joint.tuples.extend_from_slice(&tuple);
                        joint.multiplicity.push(0);
                        c
                    }
                };
                joint.multiplicity[c as usize] += 1;
                joint.slot_class.push(c);
            }
            self.stages.0.push(("joint classes".into(), start.elapsed()));
            self.joint = Some(joint);
        }
        Ok(self.joint.as_ref().expect("just built"))
    }

    /// The counts modulo `m >= 1`, joined over the parts of `m`.
    pub fn modular(&mut self, m: &BigUint, with_distribution: bool) -> Result<Outcome> {
        let len = 1usize << self.log2();
        let slots = if with_distribution { len } else { 0 };
        let d = u64::from(self.log2());
        join_parts(m, slots, |part| match self.no_sets() {
            true => Ok(zero(len, with_distribution)),
            false => classes_by_ring(self, part, d, with_distribution),
        })
    }

    /// Exact counts: the exact values of every component, multiplied per joint class.
    pub fn exact(&mut self, with_distribution: bool) -> Result<Outcome> {
        let len = 1usize << self.log2();
        if self.no_sets() {
            return Ok(zero(len, with_distribution));
        }
        let bits: Vec<u128> = self.component_bits()?;
        let total_bits: u128 = bits.iter().sum();
        if with_distribution {
            reserve_exact_distribution(total_bits, len)?;
        }
        let mut values = Vec::with_capacity(self.components.len());
        let mut spent = 0;
        for (engine, &bits) in self.components.iter_mut().zip(&bits) {
            // The work limit is the sum's: each part counts on from the parts before it.
            engine.spent = spent;
            values.push(engine.exact_class_values(true, bits)?);
            spent = engine.spent;
        }
        let d = self.log2();
        self.joint()?;
        let joint = self.joint.as_ref().expect("built");
        let products: Vec<BigInt> =
            (0..joint.len()).map(|c| joint.product(c, &values, BigInt::one(), |a, b| a * b)).collect();
        exact_outcome(&products, joint, d, with_distribution, &mut self.stages)
    }

    /// The bits of each component's total count, refused when the product's would pass
    /// [`EXACT_MAX_BITS`].
    fn component_bits(&self) -> Result<Vec<u128>> {
        let bits: Option<Vec<u128>> =
            self.components.iter().map(|e| answer_bits(e.kind, e.histogram.total(), e.k)).collect();
        let total = bits.as_ref().and_then(|b| b.iter().try_fold(0u128, |s, &x| s.checked_add(x)));
        match (bits, total) {
            (Some(bits), Some(total)) if total <= u128::from(EXACT_MAX_BITS) => Ok(bits),
            (_, total) => Err(Error::AnswerTooLarge {
                bits: Estimate(total),
                limit_log2: EXACT_MAX_BITS.trailing_zeros(),
            }),
        }
    }

    /// The probabilities of losing and winning (and of every XOR value when asked) when each
    /// component's heaps are drawn as for one game, the components independently; whether they
    /// are exact ratios.
    pub fn probability(&mut self, with_distribution: bool) -> Result<(f64, f64, Option<Vec<f64>>, bool)> {
        for e in &self.components {
            if e.no_sets() {
                return Err(Error::NoSets { k: e.k.clone(), n: e.histogram.total().clone() });
            }
        }
        // Exact when the product of the totals is small enough to count cheaply.
        if self.component_bits().is_ok_and(|b| b.iter().sum::<u128>() <= 1 << 12) {
            let outcome = self.exact(with_distribution)?;
            let of_total = |x: &BigUint| big_ratio(x, &outcome.total);
            let distribution = outcome.distribution.as_ref().map(|d| d.iter().map(of_total).collect());
            let winning = of_total(&(&outcome.total - &outcome.losing));
            return Ok((of_total(&outcome.losing), winning, distribution, true));
        }
        let mut values = Vec::with_capacity(self.components.len());
        for engine in &mut self.components {
            values.push(engine.float_class_values(true)?);
        }
        let (d, parallel) = (self.log2(), self.components[0].parallel());
        let joint = self.joint()?;
        let products: Vec<f64> =
            (0..joint.len()).map(|c| joint.product(c, &values, 1.0, |a, b| a * b)).collect();
        // The share of the slots of each class, multiplicity / F.
        let scale = (-f64::from(d)).exp2();
        let losing: f64 = products.iter().zip(&joint.multiplicity).map(|(p, &m)| p * m as f64 * scale).sum();
        let losing = losing.clamp(0.0, 1.0);
        let distribution = if with_distribution {
            let data = joint.slot_class.iter().map(|&c| products[c as usize]).collect();
            Some(float_distribution(data, parallel, losing)?)
        } else {
            None
        };
        Ok((losing, 1.0 - losing, distribution, false))
    }

    /// What was used: the components' sources, all their sizes, the joint classes, the stages.
    pub fn report(self, sources: Vec<Source>) -> Report {
        let sizes = self.components.iter().map(|e| e.histogram.total()).sum();
        let log2_len = self.log2();
        let mut stages = self.stages.0;
        for engine in self.components {
            stages.extend(engine.stages.0);
        }
        Report {
            source: Source::Sum { components: sources },
            sizes,
            log2_len,
            spectrum: SpectrumPath::Array,
            distinct_values: self.joint.as_ref().map(Joint::len),
            stages,
        }
    }
}

impl ClassCount for Sum<'_> {
    fn count_in<R: Residues>(&mut self, r: &R, part: &Part, with_distribution: bool) -> Result<Outcome> {
        let mut values = Vec::with_capacity(self.components.len());
        let mut spent = 0;
        for engine in &mut self.components {
            // The work limit is the sum's: each part counts on from the parts before it.
            engine.spent = spent;
            values.push(engine.class_values(r, true)?);
            spent = engine.spent;
        }
        let d = self.log2();
        self.joint()?;
        let joint = self.joint.as_ref().expect("built");
        let products: Vec<R::Elem> = (0..joint.len())
            .map(|c| joint.product(c, &values, r.one(), |a, b| r.mul(a, b.clone())))
            .collect();
        outcome(r, part, &products, joint, d, with_distribution, &mut self.stages)
    }
}

/// Every count zero, with `len` entries of the distribution when asked.
fn zero(len: usize, with_distribution: bool) -> Outcome {
    Outcome {
        losing: BigUint::zero(),
        total: BigUint::zero(),
        distribution: with_distribution.then(|| vec![BigUint::zero(); len]),
    }
}
