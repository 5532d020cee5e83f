//! The exact transform of a histogram, grouped into classes of equal transformed values: from the
//! array of slots ([`ArraySpectrum`]), or from a structured histogram's closed form, by its
//! patterns of characters ([`StructuredSpectrum`]) or, for intervals of word-sized values with
//! many endpoints, level by level as signed subset sums ([`LevelSpectrum`]). The engine sees
//! them all as a [`Spectrum`].
//!
//! A histogram is `h = Σ_t weight_t · counts_t`. Each `counts_t` is transformed exactly on
//! machine words (`i64`: a transformed value is a signed sum of the counts, so its absolute
//! value is at most their sum, checked to fit), and the slots `j` are grouped by the tuple
//! `(ĉ_1[j], ĉ_2[j], …)`. Slots with equal tuples have equal `Ĥ_j = Σ_t weight_t · ĉ_t[j]`, so
//! every pointwise function of `Ĥ_j` is evaluated once per class.

use num_bigint::{BigInt, BigUint, Sign};
use num_traits::{ToPrimitive, Zero};

use super::answer::Options;
use super::levels::{self, LevelSpectrum};
use super::structured::{self, StructuredSpectrum};
use crate::error::{Error, Result};
use crate::fwht::Plan;
use crate::histogram::Histogram;
use crate::memory;
use crate::ring::Exact64;
use crate::ring::Residues;

/// The classes of equal transformed values, from the array or without it.
#[derive(Debug, Clone)]
pub(crate) enum Spectrum {
    Array(ArraySpectrum),
    Structured(StructuredSpectrum),
    Levels(LevelSpectrum),
}

/// An upper bound on the word operations of [`Spectrum::closed_form`], `None` when neither
/// closed form applies.
pub(crate) fn estimate(histogram: &Histogram) -> Option<u128> {
    match (structured::estimate(histogram), levels::estimate(histogram)) {
        (Some(a), Some(b)) => Some(a.min(b)),
        (a, b) => a.or(b),
    }
}

impl Spectrum {
    /// The spectrum of a structured histogram without arrays, by whichever closed form is
    /// estimated cheaper; [`Error::TooMuchWork`] beyond `limit` steps.
    pub(crate) fn closed_form(histogram: &Histogram, limit: u128) -> Result<Spectrum> {
        match (structured::estimate(histogram), levels::estimate(histogram)) {
            (patterns, Some(levels)) if patterns.is_none_or(|p| levels < p) => {
                LevelSpectrum::new(histogram, limit).map(Spectrum::Levels)
            }
            _ => StructuredSpectrum::new(histogram, limit).map(Spectrum::Structured),
        }
    }

    /// The number of classes.
    pub(crate) fn len(&self) -> usize {
        match self {
            Spectrum::Array(s) => s.len(),
            Spectrum::Structured(s) => s.len(),
            Spectrum::Levels(s) => s.len(),
        }
    }

    /// The exact transformed value `Ĥ` of class `c`.
    pub(crate) fn value(&self, c: usize) -> BigInt {
        match self {
            Spectrum::Array(s) => s.value(c),
            Spectrum::Structured(s) => s.values[c].clone(),
            Spectrum::Levels(s) => s.value(c),
        }
    }

    /// The class of slot 0, whose value is the number of heap sizes `N`.
    pub(crate) fn zero_class(&self) -> usize {
        match self {
            Spectrum::Array(s) => s.zero_class,
            Spectrum::Structured(s) => s.zero_class,
            Spectrum::Levels(s) => s.zero_class,
        }
    }

    /// How many slots class `c` has.
    pub(crate) fn multiplicity(&self, c: usize) -> BigUint {
        match self {
            Spectrum::Array(s) => s.multiplicity[c].into(),
            Spectrum::Structured(s) => s.multiplicity[c].clone(),
            Spectrum::Levels(s) => s.multiplicity(c),
        }
    }

    /// How many slots class `c` has, modulo `r`'s modulus.
    pub(crate) fn multiplicity_residue<R: Residues>(&self, r: &R, c: usize) -> R::Elem {
        match self {
            Spectrum::Array(s) => r.residue_u128(u128::from(s.multiplicity[c])),
            Spectrum::Structured(s) => r.residue_big(&s.multiplicity[c]),
            Spectrum::Levels(s) => r.residue_u128(u128::from(s.multiplicity[c])),
        }
    }

    /// The share `multiplicity / 2^log2` of the slots that class `c` has.
    pub(crate) fn share(&self, c: usize, log2: u32) -> f64 {
        let m = self.multiplicity(c);
        // m <= 2^log2: scale both down to at most 64 significant bits before dividing.
        let shift = m.bits().saturating_sub(64);
        let mantissa = (m >> shift).to_f64().expect("below 2^64");
        mantissa * (f64::from(shift as u32) - f64::from(log2)).exp2()
    }

    /// The class of every slot, when it was kept (arrays only).
    pub(crate) fn slot_class(&self) -> Option<&[u32]> {
        match self {
            Spectrum::Array(s) => s.slot_class.as_deref(),
            Spectrum::Structured(_) | Spectrum::Levels(_) => None,
        }
    }

    /// Every class's value modulo `r`'s modulus.
    pub(crate) fn residues<R: Residues>(&self, r: &R) -> Vec<R::Elem> {
        match self {
            Spectrum::Array(s) => {
                let weights: Vec<R::Elem> = s.weights.iter().map(|w| r.residue_big(w)).collect();
                (0..s.len())
                    .map(|c| {
                        s.class(c)
                            .iter()
                            .zip(&weights)
                            .fold(r.zero(), |acc, (&x, w)| r.add(acc, r.mul(w.clone(), r.residue_i64(x))))
                    })
                    .collect()
            }
            Spectrum::Structured(s) => s
                .values
                .iter()
                .map(|v| {
                    let x = r.residue_big(v.magnitude());
                    if v.sign() == Sign::Minus { r.neg(x) } else { x }
                })
                .collect(),
            Spectrum::Levels(s) => s.values.iter().map(|&v| r.residue_i64(v)).collect(),
        }
    }
}

/// The classes of equal transformed values of the array of slots.
#[derive(Debug, Clone)]
pub struct ArraySpectrum {
    /// The weight of each component.
    pub weights: Vec<BigUint>,
    /// Components per class.
    pub width: usize,
    /// `components[c · width + t]`: the transformed component `t` of class `c`.
    pub components: Vec<i64>,
    /// How many slots each class has.
    pub multiplicity: Vec<u64>,
    /// The class of slot 0, whose value is the number of heap sizes `N`.
    pub zero_class: usize,
    /// The class of every slot, when asked for.
    pub slot_class: Option<Vec<u32>>,
}

impl ArraySpectrum {
    /// Transforms the histogram's terms exactly and groups the slots.
    pub fn new(histogram: &Histogram, keep_slots: bool, options: Options) -> Result<Self> {
        let len = histogram.transform_len();
        // Each term becomes a signed field of a packed i64 column: the transform of a term is a
        // signed sum of its counts, so |value| <= Σ counts < 2^(width − 1) with width = bits(Σ) + 1;
        // fields side by side in at most 63 bits keep every transformed column exact, and a
        // column decodes field by field from the lowest (sign-extend, subtract, shift).
        let mut fields: Vec<Field> = Vec::new();
        let mut weights = Vec::new();
        let mut used = 63u32; // bits used in the current column (63: start a new one)
        let mut columns = 0usize;
        for term in histogram.terms() {
            let sum = term.sum();
            let width = u128::BITS - sum.leading_zeros() + 1;
            if width > 63 {
                return Err(Error::TermTooLarge { sum, log2: histogram.log2_len() });
            }
            if used + width > 63 {
                columns += 1;
                used = 0;
            }
            fields.push(Field { column: columns - 1, shift: used, width });
            weights.push(term.weight().clone());
            used += width;
        }
        if fields.is_empty() {
            // The empty histogram: one field of zeros.
            fields.push(Field { column: 0, shift: 0, width: 2 });
            weights.push(BigUint::zero());
            columns = 1;
        }
        let bytes = memory::bytes_for::<i64>(|| "the exact transform".into(), columns as u128 * len as u128)?;
        memory::ensure_fits(|| format!("the exact transform of 2^{} slots", histogram.log2_len()), bytes)?;
        let mut packed = vec![vec![0i64; len]; columns];
        for (term, field) in histogram.terms().iter().zip(&fields) {
            let column = &mut packed[field.column];
            term.for_each(|g, c| column[g] += i64::from(c) << field.shift);
        }
        let plan = Plan::new(Exact64, len)?.with_backend(options.backend)?.with_parallel(options.parallel);
        for column in &mut packed {
            plan.forward(column)?;
        }
        let (keys, multiplicity, slot_class, zero_class) = if columns == 1 && !keep_slots {
            // One column and no slot classes asked for: a plain tally of the values.
            let column: &[u64] = bytemuck::cast_slice(&packed[0]);
            let entries = super::tally::tally(column, column.len() + 1, None, options.parallel)
                .expect("the limit is never reached");
            let zero = entries.iter().position(|&(key, _)| key == column[0]).expect("slot 0 is tallied");
            let (keys, counts) = entries.into_iter().map(|(key, count)| (key as i64, count)).unzip();
            (keys, counts, None, zero)
        } else {
            let (keys, multiplicity, slot_class) = group(&packed, keep_slots);
            (keys, multiplicity, slot_class, 0)
        };
        // Decode every class's fields from its packed columns.
        let width = fields.len();
        let classes = multiplicity.len();
        let mut components = vec![0i64; classes * width];
        for c in 0..classes {
            let mut rest: Vec<i64> = keys[c * columns..(c + 1) * columns].to_vec();
            for (t, field) in fields.iter().enumerate() {
                let x = rest[field.column];
                let shift = 64 - field.width;
                let value = (x << shift) >> shift; // the low `width` bits, sign-extended
                components[c * width + t] = value;
                rest[field.column] = (x - value) >> field.width;
            }
        }
        Ok(ArraySpectrum { weights, width, components, multiplicity, zero_class, slot_class })
    }

    /// The number of classes.
    pub fn len(&self) -> usize {
        self.multiplicity.len()
    }

    /// The transformed components of class `c`.
    pub(crate) fn class(&self, c: usize) -> &[i64] {
        &self.components[c * self.width..(c + 1) * self.width]
    }

    /// The exact transformed value `Ĥ` of class `c`.
    pub fn value(&self, c: usize) -> BigInt {
        self.weights.iter().zip(self.class(c)).map(|(w, &x)| BigInt::from(w.clone()) * x).sum()
    }
}

/// A term's place in the packed columns.
#[derive(Debug, Clone, Copy)]
struct Field {
    column: usize,
    shift: u32,
    width: u32,
}

/// Groups the slots by their tuple of column values with an open-addressing hash table: the
/// distinct tuples (class-major), their multiplicities, and optionally every slot's class.
fn group(columns: &[Vec<i64>], keep_slots: bool) -> (Vec<i64>, Vec<u64>, Option<Vec<u32>>) {
    let width = columns.len();
    let len = columns[0].len();
    let mut keys: Vec<i64> = Vec::new();
    let mut multiplicity: Vec<u64> = Vec::new();
    let mut slot_class = keep_slots.then(|| Vec::with_capacity(len));
    // table[i] = class + 1, or 0 when empty; the load stays at most one half.
    let mut log2_cap = 8u32;
    let mut table = vec![0u32; 1 << log2_cap];
    let hash = |tuple: &mut dyn Iterator<Item = i64>| -> u64 {
        let h = tuple.fold(0u64, |h, x| (h ^ x as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15));
        h ^ (h >> 29)
    };
    for j in 0..len {
        let h = if width == 1 {
            hash(&mut std::iter::once(columns[0][j]))
        } else {
            hash(&mut columns.iter().map(|c| c[j]))
        };
        let mask = (1usize << log2_cap) - 1;
        let mut index = (h >> (64 - log2_cap)) as usize;
        let class = loop {
            let entry = table[index];
            if entry == 0 {
                let c = multiplicity.len();
                keys.extend(columns.iter().map(|column| column[j]));
                multiplicity.push(1);
                table[index] = c as u32 + 1;
                break c;
            }
            let c = entry as usize - 1;
            if columns.iter().zip(&keys[c * width..]).all(|(column, &x)| column[j] == x) {
                multiplicity[c] += 1;
                break c;
            }
            index = (index + 1) & mask;
        };
        if let Some(slots) = &mut slot_class {
            slots.push(class as u32);
        }
        if 2 * multiplicity.len() > 1 << log2_cap {
            log2_cap += 1;
            table = vec![0u32; 1 << log2_cap];
            let mask = (1usize << log2_cap) - 1;
            for c in 0..multiplicity.len() {
                let mut index =
                    (hash(&mut keys[c * width..(c + 1) * width].iter().copied()) >> (64 - log2_cap)) as usize;
                while table[index] != 0 {
                    index = (index + 1) & mask;
                }
                table[index] = c as u32 + 1;
            }
        }
    }
    (keys, multiplicity, slot_class)
}
