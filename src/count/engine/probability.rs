//! Probabilities of losing and winning when the heaps are drawn at random, in floating point.
//!
//! Ordered heaps are drawn independently with the histogram's counts as weights; multisets and
//! sets uniformly. Every pointwise value is a ratio in `[−1, 1]`, so nothing overflows however
//! large `N` and `k` are.

use num_bigint::{BigInt, BigUint, Sign};
use num_integer::Integer;
use num_traits::{Signed, ToPrimitive, Zero};

use super::{Distinct, Engine};
use crate::count::answer::Kind;
use crate::count::coefficients::{self, Unordered};
use crate::count::spectrum::Spectrum;
use crate::error::{Error, Result};
use crate::fwht::Plan;
use crate::parallel;
use crate::ring::Float64;

/// The exact counts are used when their estimated cost stays below this many steps (a few
/// milliseconds): then every probability is the exact ratio, correctly rounded.
const EXACT_STEPS: u128 = 1 << 22;

impl Engine<'_> {
    /// Probabilities of losing and of winning (and of every XOR value, when asked), with the
    /// misère `correction` of the losing count when there is one, and whether they are exact.
    /// Winning is computed on its own, not as `1 − losing`, so that a tiny probability of
    /// winning survives too.
    ///
    /// Small queries take the exact counts and divide (correctly rounded, so values down to
    /// 1e-300 and below survive). Others evaluate `(Ĥ/N)^k` in floating point: ordered heaps
    /// by an Abel summation over the distinct magnitudes of `Ĥ`, so that nearly equal terms of
    /// opposite signs cancel exactly (a probability of 1e-30 next to terms of 1 survives);
    /// unordered heaps by their recurrences (absolute error about 1e-15).
    pub(in crate::count) fn probability(
        &mut self,
        with_distribution: bool,
        correction: Option<i64>,
    ) -> Result<(f64, f64, Option<Vec<f64>>, bool)> {
        let n = self.histogram.total().clone();
        let k = self.k;
        let kind = self.unordered();
        if kind == Some(Unordered::Set) && *k > n {
            return Err(Error::NoSets { k: k.clone(), n });
        }
        let (parallel, log2, limit) = (self.parallel(), self.log2(), self.options.work_limit);
        let spectrum = self.spectrum(with_distribution)?;
        let distinct = Distinct::of(spectrum);
        if self.exact_is_cheap(distinct.len(), with_distribution) {
            let outcome = self.exact(with_distribution)?;
            let losing = match correction {
                Some(c) => crate::count::misere::correct_count(&outcome.losing, &c.into(), None),
                None => outcome.losing,
            };
            let losing_probability = big_ratio(&losing, &outcome.total);
            let winning_probability = big_ratio(&(&outcome.total - &losing), &outcome.total);
            let distribution = outcome.distribution.map(|d| {
                let mut d: Vec<f64> = d.iter().map(|c| big_ratio(c, &outcome.total)).collect();
                d[0] = losing_probability;
                d
            });
            return Ok((losing_probability, winning_probability, distribution, true));
        }
        let spectrum = self.spectrum.as_ref().expect("computed above");
        let per_value = float_values(&distinct, kind, &n, k, parallel, limit)?;
        // The share of the slots of each class, multiplicity / F (F may be 2^(10^7)).
        let shares: Vec<f64> = (0..spectrum.len()).map(|c| spectrum.share(c, log2)).collect();
        let mut losing = match kind {
            None => ordered_sum(&distinct, spectrum, &n, k, log2),
            Some(_) => {
                distinct.class_value.iter().zip(&shares).map(|(&i, &share)| per_value[i] * share).sum()
            }
        };
        // Ordered: P(win) = F⁻¹ Σ_j m_j (1 − (Ĥ_j/N)^k), every term in [0, 2] and computed
        // without cancellation. Unordered: 1 − P(lose).
        let mut winning = match kind {
            None => {
                let terms = distinct.values.iter().map(|h| one_minus_power_ratio(h, &n, k));
                let terms: Vec<f64> = terms.collect();
                distinct.class_value.iter().zip(&shares).map(|(&i, &share)| terms[i] * share).sum()
            }
            Some(_) => 1.0 - losing,
        };
        if let Some(c) = correction {
            let corrected = correct_misere(losing, c, self.kind, &n, k)?;
            winning -= corrected - losing;
            losing = corrected;
        }
        let (losing, winning) = (losing.clamp(0.0, 1.0), winning.clamp(0.0, 1.0));
        let distribution = if with_distribution {
            let slots = spectrum.slot_class().expect("kept");
            let data = slots.iter().map(|&c| per_value[distinct.class_value[c as usize]]).collect();
            Some(float_distribution(data, parallel, losing)?)
        } else {
            None
        };
        Ok((losing, winning, distribution, false))
    }

    /// The pointwise value of every class as a probability ratio, in floating point: `(Ĥ/N)^k`
    /// (ordered), or the unordered coefficient over the number of multisets or sets.
    pub(super) fn float_class_values(&mut self, keep_slots: bool) -> Result<Vec<f64>> {
        let (n, k, kind) = (self.histogram.total().clone(), self.k, self.unordered());
        let (parallel, limit) = (self.parallel(), self.options.work_limit);
        let distinct = Distinct::of(self.spectrum(keep_slots)?);
        let per_value = float_values(&distinct, kind, &n, k, parallel, limit)?;
        Ok(distinct.class_value.iter().map(|&i| per_value[i]).collect())
    }

    /// Whether the exact counts cost at most [`EXACT_STEPS`]: the powers (or coefficient
    /// recurrences) of `values` distinct values at the answer's size, and the inverse transform
    /// of the distribution.
    fn exact_is_cheap(&self, values: usize, with_distribution: bool) -> bool {
        let n = self.histogram.total();
        let Some(bits) = super::answer_bits(self.kind, n, self.k) else { return false };
        let Some(k) = self.k.to_u64() else { return false };
        if bits > 1 << 16 {
            return false;
        }
        let words = bits / 64 + 1;
        let values = values as u128;
        let mut steps = match self.kind {
            Kind::Ordered => super::exact_power_steps(values as usize, bits).max(values),
            _ => values * (u128::from(k) + 1) * words,
        };
        if with_distribution {
            let len = self.histogram.transform_len() as u128;
            steps += len * (u128::from(self.log2()) + 1) * words;
        }
        steps <= EXACT_STEPS
    }
}

/// Every distinct value's pointwise ratio in floating point: `(Ĥ/N)^k` (ordered), or the
/// unordered coefficient over the number of multisets or sets (within `limit` steps).
fn float_values(
    distinct: &Distinct,
    kind: Option<Unordered>,
    n: &BigUint,
    k: &BigUint,
    parallel: bool,
    limit: u128,
) -> Result<Vec<f64>> {
    Ok(match kind {
        None => distinct.values.iter().map(|h| power_ratio(h, n, k)).collect(),
        Some(unordered) => {
            let k = coefficients::check_work(distinct.len(), k, 1, "the unordered probability", limit)?;
            let parallel = parallel && distinct.len() as u128 * (u128::from(k) + 1) >= 1 << 16;
            parallel::map(&distinct.values, parallel, |h| {
                coefficients::ratio(unordered, big_to_f64(n), ratio(h, n), k)
            })
        }
    })
}

/// The probability of every XOR value from the pointwise ratios of the slots: the normalised
/// inverse transform, clamped to `[0, 1]`; XOR 0 takes `losing`, the more accurate class sum
/// (both say the same).
pub(super) fn float_distribution(mut data: Vec<f64>, parallel: bool, losing: f64) -> Result<Vec<f64>> {
    Plan::new(Float64, data.len())?.with_parallel(parallel).inverse(&mut data)?;
    let mut data: Vec<f64> = data.into_iter().map(|p| p.clamp(0.0, 1.0)).collect();
    data[0] = losing;
    Ok(data)
}

/// `P(lose)` for ordered heaps: `F⁻¹ Σ_j m_j (Ĥ_j/N)^k` over the distinct values with their
/// multiplicities, without cancellation between nearly equal terms.
///
/// Terms of equal magnitude `g = |Ĥ|` are first added exactly (integer coefficients
/// `c_g = Σ m_j sign_j^k`). With the magnitudes in decreasing order, `t_i = (g_i/N)^k`, the
/// partial sums `C_i = Σ_{l<=i} c_l` and `t_{m+1} = 0`, Abel summation gives
/// `Σ_i c_i t_i = Σ_i C_i (t_i − t_{i+1})`, and each difference is positive and computed to
/// full relative precision: `t_i − t_{i+1} = t_i · (−expm1(k · ln(g_{i+1}/g_i)))`, with
/// `ln(g_{i+1}/g_i) = ln_1p(−(g_i − g_{i+1})/g_i)` from the exact difference. So `1 − (1 − 2/N)^3`
/// is `6/N` for `N = 10^30`, not 0.
fn ordered_sum(distinct: &Distinct, spectrum: &Spectrum, n: &BigUint, k: &BigUint, log2: u32) -> f64 {
    let odd = k.bit(0);
    let mut by_magnitude: std::collections::BTreeMap<BigUint, BigInt> = std::collections::BTreeMap::new();
    for (c, &i) in distinct.class_value.iter().enumerate() {
        let h = &distinct.values[i];
        let m = BigInt::from(spectrum.multiplicity(c));
        let signed = if odd && h.is_negative() { -m } else { m };
        *by_magnitude.entry(h.magnitude().clone()).or_default() += signed;
    }
    // An exact partial sum of multiplicities, divided by F = 2^log2.
    let share = |x: &BigInt| {
        let r = big_ratio(x.magnitude(), &(BigUint::from(1u8) << log2));
        if x.is_negative() { -r } else { r }
    };
    if k.is_zero() {
        return share(&by_magnitude.values().sum());
    }
    let terms: Vec<(BigUint, BigInt)> =
        by_magnitude.into_iter().rev().filter(|(g, c)| !c.is_zero() && !g.is_zero()).collect();
    let k_float = big_to_f64(k);
    let mut partial = BigInt::zero();
    let mut sum = 0.0;
    for (i, (g, c)) in terms.iter().enumerate() {
        partial += c;
        if partial.is_zero() {
            continue;
        }
        let t = power_ratio(&BigInt::from(g.clone()), n, k);
        let difference = match terms.get(i + 1) {
            None => t,
            Some((next, _)) => t * -(k_float * (-big_ratio(&(g - next), g)).ln_1p()).exp_m1(),
        };
        sum += share(&partial) * difference;
    }
    sum
}

/// `a / b` as a float, for big integers of any size, correctly rounded while it is a normal
/// float (a quotient of 66 bits with a sticky bit for the remainder, rounded once to 53 bits,
/// then scaled by a power of two).
pub(super) fn big_ratio(a: &BigUint, b: &BigUint) -> f64 {
    if a.is_zero() {
        return 0.0;
    }
    let shift = i64::try_from(b.bits()).unwrap_or(i64::MAX) - i64::try_from(a.bits()).unwrap_or(0) + 65;
    let (numerator, denominator) =
        if shift >= 0 { (a << shift as u64, b.clone()) } else { (a.clone(), b << shift.unsigned_abs()) };
    let (q, r) = numerator.div_rem(&denominator);
    let q = if r.is_zero() { q } else { q | BigUint::from(1u8) };
    // q has 65 or 66 bits: to_f64 rounds it to nearest (the sticky bit breaks ties correctly).
    let mut x = big_to_f64(&q);
    // x · 2^-shift, in steps that neither overflow nor lose bits before the last one.
    let mut e = -shift;
    while e != 0 {
        let step = e.clamp(-1000, 1000);
        x *= 2f64.powi(step as i32);
        e -= step;
    }
    x
}

fn big_to_f64(x: &BigUint) -> f64 {
    x.to_f64().unwrap_or(f64::INFINITY)
}

/// `Ĥ / N` as a float.
fn ratio(h: &BigInt, n: &BigUint) -> f64 {
    let r = big_ratio(h.magnitude(), n);
    if h.sign() == Sign::Minus { -r } else { r }
}

/// `(Ĥ / N)^k` in floating point; `|Ĥ| <= N`, `N >= 1`. The logarithm of `|Ĥ|/N = 1 − δ` is
/// taken as `ln(1 − δ)` from the exact `δ = (N − |Ĥ|)/N`, so that `k` near `1/δ` loses no
/// precision.
fn power_ratio(h: &BigInt, n: &BigUint, k: &BigUint) -> f64 {
    if k.is_zero() {
        return 1.0;
    }
    if h.is_zero() {
        return 0.0;
    }
    let sign = if h.is_negative() && k.bit(0) { -1.0 } else { 1.0 };
    let gap = n - h.magnitude();
    if gap.is_zero() {
        return sign;
    }
    let log = (-big_ratio(&gap, n)).ln_1p();
    sign * (big_to_f64(k) * log).exp()
}

/// `1 − (Ĥ / N)^k` in floating point without cancellation: `−expm1(k · ln(1 − δ))` for a
/// positive power, `1 + |Ĥ/N|^k` for a negative one.
fn one_minus_power_ratio(h: &BigInt, n: &BigUint, k: &BigUint) -> f64 {
    if k.is_zero() {
        return 0.0;
    }
    if h.is_negative() && k.bit(0) {
        return 1.0 - power_ratio(h, n, k);
    }
    let gap = n - h.magnitude();
    if gap.is_zero() {
        return 0.0;
    }
    -(big_to_f64(k) * (-big_ratio(&gap, n)).ln_1p()).exp_m1()
}

/// `ln` of the number of positions: `k ln N`, `ln C(N+k−1, k)` or `ln C(N, k)`.
pub(super) fn ln_total(kind: Kind, n: &BigUint, k: &BigUint) -> Result<f64> {
    let n_float = big_to_f64(n);
    if kind == Kind::Ordered {
        return Ok(big_to_f64(k) * n_float.ln());
    }
    let k = coefficients::check_work(1, k, 1, "the number of unordered positions", crate::count::MAX_STEPS)?;
    let mut sum = 0.0;
    for i in 1..=k {
        let i = i as f64;
        sum += match kind {
            Kind::Multiset => ((n_float + i - 1.0) / i).ln(),
            _ => ((n_float - i + 1.0) / i).ln(),
        };
    }
    Ok(sum)
}

/// The misère probability of losing from the normal-play one: each corrected position weighs
/// `1 / (number of positions)`.
fn correct_misere(losing: f64, correction: i64, kind: Kind, n: &BigUint, k: &BigUint) -> Result<f64> {
    if correction == 0 {
        return Ok(losing);
    }
    Ok(losing + correction as f64 * (-ln_total(kind, n, k)?).exp())
}
