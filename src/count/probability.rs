//! Probabilities of losing and winning when the heaps are drawn at random, in floating point.
//!
//! Ordered heaps are drawn independently with the histogram's counts as weights; multisets and
//! sets uniformly. Every pointwise value is a ratio in `[−1, 1]`, so nothing overflows however
//! large `N` and `k` are.

use num_bigint::{BigInt, BigUint, Sign};
use num_traits::{Signed, ToPrimitive, Zero};

use super::answer::Kind;
use super::coefficients::{self, Unordered};
use super::engine::{Distinct, Engine};
use crate::error::{Error, Result};
use crate::fwht::Plan;
use crate::parallel;
use crate::ring::Float64;

impl Engine<'_> {
    /// Probability of losing (and of every XOR value, when asked).
    pub(super) fn probability(&mut self, with_distribution: bool) -> Result<(f64, Option<Vec<f64>>)> {
        let n = self.histogram.total().clone();
        let k = self.k;
        let kind = self.unordered();
        if kind == Some(Unordered::Set) && *k > n {
            return Err(Error::NoSets { k: k.clone(), n });
        }
        let (parallel, log2) = (self.parallel(), self.log2());
        let spectrum = self.spectrum(with_distribution)?;
        let distinct = Distinct::of(spectrum);
        let n_float = big_to_f64(&n);
        let per_value: Vec<f64> = match kind {
            None => distinct.values.iter().map(|h| power_ratio(h, &n, k)).collect(),
            Some(unordered) => {
                let k = coefficients::check_work(distinct.len(), k, 1, "the unordered probability")?;
                let parallel = parallel && distinct.len() as u128 * (u128::from(k) + 1) >= 1 << 16;
                parallel::map(&distinct.values, parallel, |h| {
                    coefficients::ratio(unordered, n_float, ratio(h, &n), k)
                })
            }
        };
        let losing: f64 =
            distinct.class_value.iter().enumerate().map(|(c, &i)| per_value[i] * spectrum.share(c, log2)).sum();
        let distribution = if with_distribution {
            let slots = spectrum.slot_class().expect("kept");
            let mut data: Vec<f64> =
                slots.iter().map(|&c| per_value[distinct.class_value[c as usize]]).collect();
            Plan::new(Float64, data.len())?.with_parallel(parallel).inverse(&mut data)?;
            Some(data.into_iter().map(|p| p.clamp(0.0, 1.0)).collect())
        } else {
            None
        };
        Ok((losing, distribution))
    }
}

/// `a / b` as a float, for big integers of any size.
fn big_ratio(a: &BigUint, b: &BigUint) -> f64 {
    let shift = a.bits().max(b.bits()).saturating_sub(1000);
    big_to_f64(&(a >> shift)) / big_to_f64(&(b >> shift))
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

/// `ln` of the number of positions: `k ln N`, `ln C(N+k−1, k)` or `ln C(N, k)`.
pub(super) fn ln_total(kind: Kind, n: &BigUint, k: &BigUint) -> Result<f64> {
    let n_float = big_to_f64(n);
    if kind == Kind::Ordered {
        return Ok(big_to_f64(k) * n_float.ln());
    }
    let k = coefficients::check_work(1, k, 1, "the number of unordered positions")?;
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
