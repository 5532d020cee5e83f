//! Counts through the classes of equal transformed values: the histogram is transformed exactly
//! once ([`Spectrum`]), and every pointwise function is evaluated once per class, modulo any
//! modulus (an odd word, a power of two, or a big integer).

use num_bigint::BigUint;
use num_traits::ToPrimitive;

use super::{Classes, Distinct, Engine, Outcome, Stages, halves};
use crate::arith::inverse_power_of_two;
use crate::count::coefficients::{self, Binomials};
use crate::count::geometric;
use crate::count::modulus::Part;
use crate::error::Result;
use crate::fwht::Plan;
use crate::fwht::reference::textbook_with;
use crate::parallel;
use crate::ring::{Mod64, Wrap64};
use crate::ring::{Residues, pow_reduced};

impl Engine<'_> {
    /// Counts modulo `r`'s modulus (the odd part `M′`, or `2^(a+d)` for the part `2^a`).
    pub(super) fn classes<R: Residues>(
        &mut self,
        r: &R,
        part: &Part,
        with_distribution: bool,
    ) -> Result<Outcome> {
        let values = self.class_values(r, with_distribution)?;
        let spectrum = self.spectrum.as_ref().expect("computed by class_values");
        let d = self.histogram.log2_len();
        outcome(r, part, &values, spectrum, d, with_distribution, &mut self.stages)
    }

    /// The pointwise value of every class modulo `r`'s modulus (`Ĥ^k`, or the unordered
    /// coefficient); the spectrum keeps its slots' classes when `keep_slots`.
    pub(super) fn class_values<R: Residues>(&mut self, r: &R, keep_slots: bool) -> Result<Vec<R::Elem>> {
        let k = self.k;
        let (to, top) = (self.to, self.top());
        let kind = self.unordered();
        let n = self.histogram.total().clone();
        let (parallel, progress, limit) = (self.parallel(), self.progress, self.options.work_limit);
        let spent = self.spent;
        let spectrum = self.spectrum(keep_slots)?;
        let mut stages = Stages::default();
        let total;
        let values = match kind {
            None if to.is_some() => {
                let hi = to.expect("a range");
                let (exponent, len) = (r.reduce_exponent(k), hi - k + 1u32);
                let steps = (spectrum.len() as u128 * geometric::geometric_multiplications(&exponent, &len))
                    .saturating_mul(r.mul_steps());
                total = super::spend(
                    "summing the powers of the transformed values over the range of heaps",
                    spent,
                    Some(steps),
                    limit,
                )?;
                stages.time("geometric series", || {
                    let bases = spectrum.residues(r);
                    parallel::map(&bases, parallel && bases.len() >= 64, |base| {
                        geometric::geometric(r, base.clone(), &exponent, &len)
                    })
                })
            }
            None => {
                let exponent = r.reduce_exponent(k);
                // Square-and-multiply: at most two multiplications per bit of the exponent.
                let steps =
                    (spectrum.len() as u128 * 2 * u128::from(exponent.bits())).saturating_mul(r.mul_steps());
                total = super::spend(
                    "raising the transformed values to the power k modulo this modulus",
                    spent,
                    Some(steps),
                    limit,
                )?;
                stages.time("power", || {
                    let bases = spectrum.residues(r);
                    parallel::map(&bases, parallel && bases.len() >= 64, |base| {
                        pow_reduced(r, base.clone(), &exponent)
                    })
                })
            }
            Some(unordered) => {
                let distinct = Distinct::of(spectrum);
                let cost = u64::try_from(r.mul_steps()).unwrap_or(u64::MAX);
                // A range evaluates the cumulative coefficients at `hi` and at `lo − 1`.
                let runs = if to.is_some() { 2 } else { 1 };
                total = super::spend(
                    "the unordered count",
                    spent,
                    coefficients::work_steps(distinct.len(), &top, cost).map(|s| s.saturating_mul(runs)),
                    limit,
                )?;
                let top = top.to_u64().expect("counted steps");
                let k = k.to_u64().expect("at most the top");
                let binomials = Binomials::new(r, top, &(&n + top + 1u32))?;
                // The cumulative sum below the range: at `lo − 1`, none when the range starts at 0.
                let below = match (to, k.checked_sub(1)) {
                    (Some(_), Some(below)) => Some(Binomials::new(r, below, &(&n + below + 1u32))?),
                    _ => None,
                };
                let done = std::sync::atomic::AtomicU64::new(0);
                progress.start("coefficients", distinct.len() as u64);
                stages.time("coefficients", || {
                    let parallel = parallel && distinct.len() as u128 * (u128::from(top) + 1) >= 1 << 16;
                    let per_value: Vec<R::Elem> = parallel::map(&distinct.values, parallel, |h| {
                        let (a, b) = halves(&n, h);
                        let c = match (to, &below) {
                            (None, _) => binomials.coefficient(unordered, &a, &b),
                            (Some(_), None) => binomials.cumulative(unordered, &a, &b),
                            (Some(_), Some(below)) => r.sub(
                                binomials.cumulative(unordered, &a, &b),
                                below.cumulative(unordered, &a, &b),
                            ),
                        };
                        progress.set_position(done.fetch_add(1, std::sync::atomic::Ordering::Relaxed) + 1);
                        c
                    });
                    distinct.class_value.iter().map(|&i| per_value[i].clone()).collect()
                })
            }
        };
        self.stages.0.extend(stages.0);
        self.spent = total;
        Ok(values)
    }
}

/// Counts modulo `r`'s modulus (the odd part `M′`, or `2^(a+d)` for the part `2^a`) from the
/// pointwise value of every class: `S = Σ_c m_c · value_c` gives the losing count
/// ([`Part::losing`]), slot 0 the total, the inverse transform the distribution.
pub(super) fn outcome<R: Residues, C: Classes>(
    r: &R,
    part: &Part,
    values: &[R::Elem],
    classes: &C,
    d: u32,
    with_distribution: bool,
    stages: &mut Stages,
) -> Result<Outcome> {
    let mut sum = r.zero();
    for (c, value) in values.iter().enumerate() {
        sum = r.add(sum, r.mul(value.clone(), classes.multiplicity_residue(r, c)));
    }
    let losing = part.losing(r.to_biguint(&sum), d);
    let total = r.to_biguint(&values[classes.zero_class()]) % part.modulus();
    let distribution = if with_distribution {
        let slots = classes.slot_class().expect("kept for the distribution");
        let inverse = || match part {
            Part::Odd(m) => inverse_odd(r, m, values, slots, d),
            Part::Two(a) => inverse_two(r, a + u64::from(d), values, slots, d),
        };
        Some(stages.time("inverse transform", inverse)?)
    } else {
        None
    };
    Ok(Outcome { losing, total, distribution })
}

/// The normalised inverse transform of the per-slot values modulo an odd `m`.
fn inverse_odd<R: Residues>(
    r: &R,
    m: &BigUint,
    values: &[R::Elem],
    slots: &[u32],
    d: u32,
) -> Result<Vec<BigUint>> {
    if let Some(m) = m.to_u64().filter(|&m| m < 1 << 63) {
        let plain: Vec<u64> = values.iter().map(|v| r.to_biguint(v).to_u64().expect("below m")).collect();
        let mut data: Vec<u64> = slots.iter().map(|&c| plain[c as usize]).collect();
        Plan::new(Mod64::new(m)?, data.len())?.inverse_unchecked(&mut data)?;
        return Ok(data.into_iter().map(BigUint::from).collect());
    }
    reserve_big(slots.len(), m.bits())?;
    let plain: Vec<BigUint> = values.iter().map(|v| r.to_biguint(v)).collect();
    let mut data: Vec<BigUint> = slots.iter().map(|&c| plain[c as usize].clone()).collect();
    textbook_with(&mut data, |a, b| ((a + b) % m, (a + m - b) % m));
    let scale = inverse_power_of_two(d, m);
    Ok(data.into_iter().map(|x| (x * &scale) % m).collect())
}

/// The unnormalised inverse transform of the per-slot values modulo `2^bits`, divided by `2^d`.
fn inverse_two<R: Residues>(
    r: &R,
    bits: u64,
    values: &[R::Elem],
    slots: &[u32],
    d: u32,
) -> Result<Vec<BigUint>> {
    if bits <= 64 {
        let plain: Vec<u64> = values.iter().map(|v| r.to_biguint(v).to_u64().expect("below 2^64")).collect();
        let mut data: Vec<u64> = slots.iter().map(|&c| plain[c as usize]).collect();
        Plan::new(Wrap64, data.len())?.inverse_unnormalized(&mut data)?;
        let part = Part::Two(bits - u64::from(d));
        return Ok(data.into_iter().map(|x| part.losing(x.into(), d)).collect());
    }
    reserve_big(slots.len(), bits)?;
    let m = BigUint::from(1u8) << bits;
    let plain: Vec<BigUint> = values.iter().map(|v| r.to_biguint(v)).collect();
    let mut data: Vec<BigUint> = slots.iter().map(|&c| plain[c as usize].clone()).collect();
    textbook_with(&mut data, |a, b| ((a + b) % &m, (a + &m - b) % &m));
    Ok(data.into_iter().map(|x| x >> d).collect())
}

/// Refuses `len` big residues of `bits` bits (with room for a sum while transforming) when they
/// cannot fit.
fn reserve_big(len: usize, bits: u64) -> Result<()> {
    let words = (u128::from(bits) / 64 + 4) * 2 * len as u128;
    let bytes = crate::memory::bytes_for::<u64>(|| "the distribution".into(), words)?;
    crate::memory::ensure_fits(|| format!("the distribution of {len} big residues"), bytes)
}
