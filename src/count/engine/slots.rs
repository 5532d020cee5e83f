//! Ordered counts on the SIMD kernels: the histogram's residues, transformed, raised and summed.
//!
//! A periodic histogram's transform usually holds few distinct residues (52 in the `2^20` slots
//! of the game `subtract:1-1000000`): they are tallied and each is raised once; when they are
//! many, every slot is raised with the vectorised power.

use num_bigint::BigUint;

use super::{Engine, Outcome};
use crate::count::modulus::Part;
use crate::count::tally;
use crate::error::Result;
use crate::fwht::Plan;
use crate::histogram::Histogram;
use crate::memory::LargeBuffer;
use crate::parallel;
use crate::ring::Residues;
use crate::ring::{Mod32, Mod64, Wrap64};
use crate::simd::PARALLEL_MIN;

/// The rings whose every slot can be raised to the k-th power: residues of the histogram, and
/// sums of transformed values.
pub(super) trait SlotRing: Residues<Elem: bytemuck::Pod + Copy + Into<u64>> {
    /// Whether [`Plan::pow_each`] raises many slots at once with SIMD instructions.
    const VECTORISED_POWER: bool;
    /// The histogram's counts in the ring, in a huge-page buffer (see [`LargeBuffer`]): first
    /// touches of a fresh multi-megabyte vector cost more than the arithmetic of a whole query.
    fn residues(&self, histogram: &Histogram, parallel: bool) -> Result<LargeBuffer<Self::Elem>>;
    /// `Σ data[i]` in the ring, as a residue.
    fn sum(&self, data: &[Self::Elem], parallel: bool) -> BigUint;
    /// `Σ values[i] · counts[i]` in the ring, as a residue.
    fn weighted_sum(&self, values: &[Self::Elem], counts: &[u64]) -> BigUint;
    /// The element whose `u64` value is `key`.
    fn element(&self, key: u64) -> Self::Elem;
}

/// Transform-length zeros for the residues of `histogram`.
fn residue_buffer<T: bytemuck::Pod>(histogram: &Histogram) -> Result<LargeBuffer<T>> {
    LargeBuffer::zeroed(
        || format!("the residues of {} histogram slots", histogram.transform_len()),
        histogram.transform_len(),
    )
}

impl SlotRing for Mod32 {
    const VECTORISED_POWER: bool = true;
    fn residues(&self, histogram: &Histogram, parallel: bool) -> Result<LargeBuffer<u32>> {
        let mut out = residue_buffer(histogram)?;
        histogram.residues_u32_into(self.modulus(), &mut out, parallel);
        Ok(out)
    }
    /// At most 2^40 residues below 2^31: the sum stays below 2^71 < 2^128.
    fn sum(&self, data: &[u32], parallel: bool) -> BigUint {
        let sum = parallel::reduce(data, parallel, PARALLEL_MIN, 0u128, u128::from, |a, b| a + b);
        (sum % u128::from(self.modulus())).into()
    }
    /// Each product is below 2^31 · 2^40 (a count is at most F <= 2^40); at most 2^40 of them
    /// stay below 2^111.
    fn weighted_sum(&self, values: &[u32], counts: &[u64]) -> BigUint {
        let sum: u128 = values.iter().zip(counts).map(|(&v, &c)| u128::from(v) * u128::from(c)).sum();
        (sum % u128::from(self.modulus())).into()
    }
    fn element(&self, key: u64) -> u32 {
        key as u32
    }
}

impl SlotRing for Mod64 {
    const VECTORISED_POWER: bool = false;
    fn residues(&self, histogram: &Histogram, _: bool) -> Result<LargeBuffer<u64>> {
        let mut out = residue_buffer(histogram)?;
        histogram.residues_into(self.modulus(), &mut out);
        Ok(out)
    }
    /// At most 2^40 residues below 2^63: the sum stays below 2^103.
    fn sum(&self, data: &[u64], parallel: bool) -> BigUint {
        let sum = parallel::reduce(data, parallel, PARALLEL_MIN, 0u128, u128::from, |a, b| a + b);
        (sum % u128::from(self.modulus())).into()
    }
    /// Each product is reduced below 2^63 before summing: at most 2^40 of them stay below 2^103.
    fn weighted_sum(&self, values: &[u64], counts: &[u64]) -> BigUint {
        let m = u128::from(self.modulus());
        let sum: u128 = values.iter().zip(counts).map(|(&v, &c)| u128::from(v) * u128::from(c) % m).sum();
        (sum % m).into()
    }
    fn element(&self, key: u64) -> u64 {
        key
    }
}

impl SlotRing for Wrap64 {
    const VECTORISED_POWER: bool = false;
    fn residues(&self, histogram: &Histogram, _: bool) -> Result<LargeBuffer<u64>> {
        let mut out = residue_buffer(histogram)?;
        histogram.residues_wrapping_into(&mut out);
        Ok(out)
    }
    /// Modulo 2^64.
    fn sum(&self, data: &[u64], parallel: bool) -> BigUint {
        parallel::reduce(data, parallel, PARALLEL_MIN, 0u64, |x| x, u64::wrapping_add).into()
    }
    /// Modulo 2^64.
    fn weighted_sum(&self, values: &[u64], counts: &[u64]) -> BigUint {
        values.iter().zip(counts).fold(0u64, |acc, (&v, &c)| acc.wrapping_add(v.wrapping_mul(c))).into()
    }
    fn element(&self, key: u64) -> u64 {
        key
    }
}

impl Engine<'_> {
    /// Ordered counts modulo one part of the modulus, by raising the transformed residues.
    pub(super) fn slots<R: SlotRing>(
        &mut self,
        ring: R,
        part: &Part,
        with_distribution: bool,
    ) -> Result<Outcome> {
        let histogram = self.histogram;
        let options = self.options;
        let plan = Plan::new(ring.clone(), histogram.transform_len())?
            .with_backend(options.backend)?
            .with_parallel(options.parallel);
        let bytes = crate::memory::bytes_for::<R::Elem>(|| "the transform".into(), plan.len() as u128)?;
        crate::memory::ensure_fits(|| format!("the transform of 2^{} slots", plan.log2()), bytes)?;
        let mut data = self.stages.time("residues", || ring.residues(histogram, options.parallel))?;
        self.progress.start("transform", 0);
        // The residues are the ring's own: below the modulus by construction.
        self.stages.time("transform", || plan.forward_unchecked(&mut data))?;
        let k = self.k;
        // Few distinct residues (structured histograms): raise each once. Else every slot.
        // With a vectorised power, raising every slot costs about as much as raising one sixteenth
        // of them one by one: give up beyond that. A scalar power is dearer than a table lookup
        // until nearly every slot is distinct.
        let (limit, sample_share) =
            if R::VECTORISED_POWER { (data.len() / 16 + 64, Some(16)) } else { (data.len() / 2 + 64, None) };
        let tallied = (options.method == crate::count::Method::Auto && !with_distribution)
            .then(|| {
                self.stages
                    .time("distinct residues", || tally::tally(&data, limit, sample_share, options.parallel))
            })
            .flatten();
        self.progress.start("power", 0);
        let (sum, total) = match tallied {
            Some(entries) => self.stages.time("power", || -> Result<(BigUint, BigUint)> {
                self.distinct = Some(entries.len());
                let keys: Vec<R::Elem> = entries.iter().map(|&(key, _)| ring.element(key)).collect();
                let counts: Vec<u64> = entries.iter().map(|&(_, count)| count).collect();
                let mut powers = keys.clone();
                plan.pow_each(&mut powers, k.clone())?;
                let zero_slot = keys.iter().position(|&x| x == data[0]).expect("slot 0 is tallied");
                Ok((ring.weighted_sum(&powers, &counts), ring.to_biguint(&powers[zero_slot])))
            })?,
            None => {
                self.stages.time("power", || plan.pow_each(&mut data, k.clone()))?;
                let total = ring.to_biguint(&data[0]);
                (self.stages.time("sum", || ring.sum(&data, options.parallel)), total)
            }
        };
        self.progress.finish();
        let d = self.log2();
        let losing = part.losing(sum, d);
        let total = total % part.modulus();
        let distribution = if with_distribution {
            Some(self.stages.time("inverse transform", || -> Result<Vec<BigUint>> {
                Ok(match part {
                    Part::Odd(_) => {
                        plan.inverse_unchecked(&mut data)?;
                        data.iter().map(|x| ring.to_biguint(x)).collect()
                    }
                    Part::Two(_) => {
                        plan.inverse_unnormalized(&mut data)?;
                        data.iter().map(|x| part.losing(ring.to_biguint(x), d)).collect()
                    }
                })
            })?)
        } else {
            None
        };
        Ok(Outcome { losing, total, distribution })
    }
}
