//! The computation of one query: the moduli it splits into, and the exact counts.
//!
//! The evaluation strategies are its submodules, the only code that sees its state: [`slots`]
//! (transformed residues on the SIMD kernels), [`classes`] (exact transform, one value per
//! class) and [`probability`]; [`sum`] multiplies the class values of several components (a
//! sum of different games) slot by slot.

pub(crate) mod classes;
pub(crate) mod probability;
pub(crate) mod slots;
pub(crate) mod sum;

pub(super) use sum::{Sum, check_sum_memory};

use std::borrow::Cow;
use std::time::{Duration, Instant};

use num_bigint::{BigInt, BigUint};
use num_integer::Integer;
use num_traits::{One, ToPrimitive, Zero};

use super::answer::{Kind, Method, Options, Report, Source, SpectrumPath};
use super::coefficients::{self, Unordered, few_sizes};
use super::geometric;
use super::modulus::{self, Part};
use super::spectrum::{self, ArraySpectrum, Spectrum};
use super::structured;
use crate::error::{Error, Estimate, Result};
use crate::histogram::{Histogram, MAX_LOG2_LEN};
use crate::parallel;
use crate::progress::Progress;
use crate::ring::Residues;
use crate::ring::{Big, Mod32, Mod64, OddWord, TwoWord, Wrap64};

/// Exact answers are refused beyond this many bits (about 20 million decimal digits).
pub const EXACT_MAX_BITS: u64 = 1 << 26;

/// Word operations per slot that an array spectrum costs at least (residues, transform, tally):
/// the structured spectrum is taken when its estimate is below this many per slot.
const ARRAY_WORK_PER_SLOT: u128 = 8;

/// The histogram the engine evaluates: a structured histogram stays structured when its
/// spectrum is chosen (asked for, or by [`SpectrumPath::Auto`] when cheaper than the array or when
/// the array cannot fit), and becomes an array otherwise; the distribution always needs the
/// array.
pub(super) fn prepare<'h>(
    histogram: Cow<'h, Histogram>,
    path: SpectrumPath,
    with_distribution: bool,
) -> Result<Cow<'h, Histogram>> {
    if !histogram.is_structured() {
        return match path {
            SpectrumPath::Structured => Err(Error::NotStructured),
            _ => Ok(histogram),
        };
    }
    let log2 = histogram.log2_len();
    let array_fits = log2 <= MAX_LOG2_LEN;
    if with_distribution {
        if !array_fits {
            return Err(Error::DistributionTooLarge { log2 });
        }
        return histogram.to_array().map(Cow::Owned);
    }
    let structured = match path {
        SpectrumPath::Array => false,
        SpectrumPath::Structured => true,
        _ => match spectrum::estimate(&histogram) {
            Some(work) => !array_fits || work <= ARRAY_WORK_PER_SLOT << log2,
            None => !array_fits,
        },
    };
    if structured {
        if spectrum::estimate(&histogram).is_none() {
            return Err(structured::too_much(u128::MAX));
        }
        Ok(histogram)
    } else {
        histogram.to_array().map(Cow::Owned)
    }
}

/// Stage timings, in order.
#[derive(Default)]
pub struct Stages(pub Vec<(String, Duration)>);

impl Stages {
    /// Adds `time` to the stage `name`, a new one at the end if none has that name yet (for
    /// stages that run once per prime or per round).
    #[cfg_attr(not(feature = "mpi"), allow(dead_code))]
    pub fn add(&mut self, name: &str, time: Duration) {
        match self.0.iter_mut().find(|(n, _)| n == name) {
            Some((_, t)) => *t += time,
            None => self.0.push((name.to_string(), time)),
        }
    }

    pub fn time<T>(&mut self, name: &str, f: impl FnOnce() -> T) -> T {
        let start = Instant::now();
        let value = f();
        self.0.push((name.to_string(), start.elapsed()));
        value
    }
}

/// Losing count, total and (when asked) the distribution, modulo the query's modulus or exact.
pub struct Outcome {
    pub losing: BigUint,
    pub total: BigUint,
    pub distribution: Option<Vec<BigUint>>,
}

impl Outcome {
    /// Every count zero (the distribution has one per slot of `histogram`).
    fn zero(histogram: &Histogram, with_distribution: bool) -> Self {
        Outcome {
            losing: BigUint::zero(),
            total: BigUint::zero(),
            distribution: with_distribution.then(|| vec![BigUint::zero(); histogram.transform_len()]),
        }
    }
}

/// The state of one query's computation.
pub struct Engine<'a> {
    histogram: &'a Histogram,
    /// The number of heaps, or the smallest of a range.
    k: &'a BigUint,
    /// The largest number of heaps of a range ([`up_to`](Engine::up_to)); `None` for `k` alone.
    to: Option<&'a BigUint>,
    kind: Kind,
    options: Options,
    progress: &'a dyn Progress,
    /// The spectrum, once computed: structured for a structured histogram, else the array's.
    spectrum: Option<Spectrum>,
    /// The number of distinct transformed residues, when they were tallied.
    distinct: Option<usize>,
    stages: Stages,
    /// Steps of the query's work limit spent so far: by this engine, and before it by the
    /// earlier parts of a sum of games (the limit is the whole query's, see [`spend`]).
    pub(super) spent: u128,
}

impl<'a> Engine<'a> {
    pub fn new(
        histogram: &'a Histogram,
        k: &'a BigUint,
        kind: Kind,
        options: Options,
        progress: &'a dyn Progress,
        stages: Stages,
    ) -> Self {
        Engine {
            histogram,
            k,
            to: None,
            kind,
            options,
            progress,
            spectrum: None,
            distinct: None,
            stages,
            spent: 0,
        }
    }

    /// The same engine, counting every number of heaps from its `k` to `hi` (`k <= hi`): the
    /// pointwise values are summed over the range (see [`crate::count::geometric`]).
    pub fn up_to(mut self, hi: &'a BigUint) -> Self {
        self.to = Some(hi);
        self
    }

    /// The largest number of heaps counted, for sets at most the number of sizes (more are none).
    fn top(&self) -> BigUint {
        let top = self.to.unwrap_or(self.k).clone();
        match self.kind {
            Kind::Set => top.min(self.histogram.total().clone()),
            _ => top,
        }
    }

    /// What was used, once the computation is over.
    pub fn report(self, source: Source) -> Report {
        Report {
            source,
            sizes: self.histogram.total().clone(),
            log2_len: self.histogram.log2_len(),
            spectrum: self.path(),
            distinct_values: self.distinct.or(self.spectrum.as_ref().map(Spectrum::len)),
            stages: self.stages.0,
        }
    }

    /// The spectrum this engine evaluates.
    pub fn path(&self) -> SpectrumPath {
        if self.histogram.is_structured() { SpectrumPath::Structured } else { SpectrumPath::Array }
    }

    pub fn log2(&self) -> u32 {
        self.histogram.log2_len()
    }

    pub fn parallel(&self) -> bool {
        self.options.parallel
    }

    pub fn unordered(&self) -> Option<Unordered> {
        match self.kind {
            Kind::Ordered => None,
            Kind::Multiset => Some(Unordered::Multiset),
            Kind::Set => Some(Unordered::Set),
        }
    }

    /// Sets of more distinct sizes than there are: no positions at all.
    fn no_sets(&self) -> bool {
        self.kind == Kind::Set && self.k > self.histogram.total()
    }

    /// The exact spectrum, computed once: in closed form for a structured histogram, else from
    /// the array (keeping every slot's class when `keep_slots`).
    pub fn spectrum(&mut self, keep_slots: bool) -> Result<&Spectrum> {
        let kept = |s: &Spectrum| !keep_slots || s.slot_class().is_some();
        if self.spectrum.as_ref().is_some_and(kept) {
            return Ok(self.spectrum.as_ref().expect("just checked"));
        }
        let (histogram, options) = (self.histogram, self.options);
        let spectrum = if histogram.is_structured() {
            debug_assert!(!keep_slots, "slots need the array");
            self.stages.time("structured spectrum", || Spectrum::closed_form(histogram, options.work_limit))
        } else {
            self.progress.start("transform", 0);
            let spectrum = self.stages.time("exact transform and classes", || {
                ArraySpectrum::new(histogram, keep_slots, options).map(Spectrum::Array)
            });
            self.progress.finish();
            spectrum
        };
        Ok(self.spectrum.insert(spectrum?))
    }

    /// With no heap sizes at all, the only position is the empty one (`k = 0`), lost.
    fn no_sizes(&self, with_distribution: bool) -> Option<Outcome> {
        if !self.histogram.total().is_zero() {
            return None;
        }
        let count = BigUint::from(u8::from(self.k.is_zero()));
        // Over a range, the empty position counts once when the range holds 0 heaps.
        let distribution = with_distribution.then(|| {
            let mut d = vec![BigUint::zero(); self.histogram.transform_len()];
            d[0] = count.clone();
            d
        });
        Some(Outcome { losing: count.clone(), total: count, distribution })
    }

    /// The counts modulo `m >= 1`: modulo its odd part and its power of two, joined by the
    /// Chinese remainder theorem ([`modulus::by_parts`]).
    pub fn modular(&mut self, m: &BigUint, with_distribution: bool) -> Result<Outcome> {
        let slots = if with_distribution { self.histogram.transform_len() } else { 0 };
        if let Some(outcome) = self.no_sizes(with_distribution).filter(|_| !m.is_one()) {
            return Ok(Outcome {
                losing: outcome.losing % m,
                total: outcome.total % m,
                distribution: outcome.distribution.map(|d| d.into_iter().map(|x| x % m).collect()),
            });
        }
        if !with_distribution
            && self.to.is_none()
            && let Some((losing, total)) = few_sizes(self.unordered(), self.histogram, self.k, Some(m))
        {
            return Ok(Outcome { losing, total, distribution: None });
        }
        join_parts(m, slots, |part| match self.no_sets() {
            true => Ok(Outcome::zero(self.histogram, with_distribution)),
            false => self.part(part, with_distribution),
        })
    }

    /// The counts modulo one part of the modulus, by the cheapest strategy that applies.
    fn part(&mut self, part: &Part, with_distribution: bool) -> Result<Outcome> {
        let d = u64::from(self.log2());
        let slots = self.kind == Kind::Ordered
            && self.to.is_none()
            && self.options.method != Method::Classes
            && !self.histogram.is_structured();
        match part {
            Part::Odd(m) => match m.to_u64() {
                Some(m) if slots && m < 1 << 31 => self.slots(Mod32::new(m as u32)?, part, with_distribution),
                Some(m) if slots && m < 1 << 63 => self.slots(Mod64::new(m)?, part, with_distribution),
                _ => classes_by_ring(self, part, d, with_distribution),
            },
            Part::Two(a) if slots && a + d <= 64 => self.slots(Wrap64, part, with_distribution),
            Part::Two(_) => classes_by_ring(self, part, d, with_distribution),
        }
    }

    /// Exact counts: exact pointwise values, summed, divided by `F`.
    pub fn exact(&mut self, with_distribution: bool) -> Result<Outcome> {
        let n = self.histogram.total().clone();
        let k = self.k;
        if self.no_sets() {
            return Ok(Outcome::zero(self.histogram, with_distribution));
        }
        if let Some(outcome) = self.no_sizes(with_distribution) {
            return Ok(outcome);
        }
        let bits = match self.to {
            None => answer_bits(self.kind, &n, k),
            Some(hi) => range_answer_bits(self.kind, &n, k, hi),
        };
        if bits.is_none_or(|b| b > u128::from(EXACT_MAX_BITS)) {
            return Err(Error::AnswerTooLarge {
                bits: Estimate(bits),
                limit_log2: EXACT_MAX_BITS.trailing_zeros(),
            });
        }
        let bits = bits.expect("checked");
        if !with_distribution
            && self.to.is_none()
            && let Some((losing, total)) = few_sizes(self.unordered(), self.histogram, k, None)
        {
            return Ok(Outcome { losing, total, distribution: None });
        }
        if with_distribution {
            reserve_exact_distribution(bits, self.histogram.transform_len())?;
        }
        let values = self.exact_class_values(with_distribution, bits)?;
        let spectrum = self.spectrum.as_ref().expect("computed with the values");
        exact_outcome(&values, spectrum, self.log2(), with_distribution, &mut self.stages)
    }

    /// The exact pointwise value of every class (`Ĥ^k`, or the unordered coefficient), each
    /// distinct transformed value evaluated once; `bits` bounds the answer's size.
    fn exact_class_values(&mut self, keep_slots: bool, bits: u128) -> Result<Vec<BigInt>> {
        let n = self.histogram.total().clone();
        let k = self.k;
        let (to, top) = (self.to, self.top());
        let parallel = self.parallel();
        let unordered = self.unordered();
        let progress = self.progress;
        let (limit, spent) = (self.options.work_limit, self.spent);
        let spectrum = self.spectrum(keep_slots)?;
        let distinct = Distinct::of(spectrum);
        let mut stages = Stages::default();
        let total;
        let per_value: Vec<BigInt> = match unordered {
            None => {
                // A range raises every value twice (`v^(hi+1)` and `v^lo`).
                let powers = if to.is_some() { 2 } else { 1 };
                total = spend(
                    "raising the transformed values to the power k exactly",
                    spent,
                    Some(exact_power_steps(distinct.len(), bits).saturating_mul(powers)),
                    limit,
                )?;
                let small_k = k.to_u64();
                stages.time("power", || {
                    parallel::map(&distinct.values, parallel && distinct.len() >= 64, |h| match to {
                        None => exact_power(h, small_k, k),
                        Some(hi) => geometric::geometric_exact(h, k, hi),
                    })
                })
            }
            Some(unordered) => {
                let words = (bits / 64 + 1) as u64;
                // A range evaluates the cumulative coefficients at `hi` and at `lo − 1`.
                let runs = if to.is_some() { 2 } else { 1 };
                let steps =
                    coefficients::work_steps(distinct.len(), &top, words).map(|s| s.saturating_mul(runs));
                total = spend("the exact unordered count", spent, steps, limit)?;
                let top = top.to_u64().expect("counted steps");
                let k = k.to_u64().expect("at most the top");
                let done = std::sync::atomic::AtomicU64::new(0);
                progress.start("coefficients", distinct.len() as u64);
                stages.time("coefficients", || {
                    let parallel = parallel && distinct.len() as u128 * (u128::from(top) + 1) >= 1 << 12;
                    parallel::map(&distinct.values, parallel, |h| {
                        let c = match to {
                            None => coefficients::exact(unordered, &n, h, k),
                            Some(_) => {
                                let multiset = unordered == Unordered::Multiset;
                                let (n, h) = geometric::cumulative_exact_arguments(multiset, &n, h);
                                let below = match k.checked_sub(1) {
                                    Some(below) if below <= top => {
                                        coefficients::exact(unordered, &n, &h, below)
                                    }
                                    _ => BigInt::zero(),
                                };
                                coefficients::exact(unordered, &n, &h, top) - below
                            }
                        };
                        progress.set_position(done.fetch_add(1, std::sync::atomic::Ordering::Relaxed) + 1);
                        c
                    })
                })
            }
        };
        self.stages.0.extend(stages.0);
        self.spent = total;
        Ok(distinct.class_value.iter().map(|&i| per_value[i].clone()).collect())
    }
}

/// Classes of slots with one pointwise value each: the classes of one spectrum, or the joint
/// classes of the components of a sum.
pub(super) trait Classes {
    /// How many slots class `c` has.
    fn multiplicity(&self, c: usize) -> BigUint;
    /// How many slots class `c` has, modulo `r`'s modulus.
    fn multiplicity_residue<R: Residues>(&self, r: &R, c: usize) -> R::Elem;
    /// The class of slot 0.
    fn zero_class(&self) -> usize;
    /// The class of every slot, when kept.
    fn slot_class(&self) -> Option<&[u32]>;
}

impl Classes for Spectrum {
    fn multiplicity(&self, c: usize) -> BigUint {
        Spectrum::multiplicity(self, c)
    }
    fn multiplicity_residue<R: Residues>(&self, r: &R, c: usize) -> R::Elem {
        Spectrum::multiplicity_residue(self, r, c)
    }
    fn zero_class(&self) -> usize {
        Spectrum::zero_class(self)
    }
    fn slot_class(&self) -> Option<&[u32]> {
        Spectrum::slot_class(self)
    }
}

/// Counts modulo one part of a modulus through the classes, in a ring of one's choice
/// ([`classes_by_ring`] chooses).
pub(super) trait ClassCount {
    fn count_in<R: Residues>(&mut self, r: &R, part: &Part, with_distribution: bool) -> Result<Outcome>;
}

impl ClassCount for Engine<'_> {
    fn count_in<R: Residues>(&mut self, r: &R, part: &Part, with_distribution: bool) -> Result<Outcome> {
        self.classes(r, part, with_distribution)
    }
}

/// Counts modulo `part` through classes, in the ring that suits it: an odd word or a big odd
/// modulus, `2^(a+d)` in two words or as a big integer (`d`: log2 of the transform length).
pub(super) fn classes_by_ring(
    counter: &mut impl ClassCount,
    part: &Part,
    d: u64,
    with_distribution: bool,
) -> Result<Outcome> {
    match part {
        Part::Odd(m) => match m.to_u64() {
            Some(m) if m < 1 << 63 => counter.count_in(&OddWord::new(m), part, with_distribution),
            _ => counter.count_in(&Big::new(m.clone()), part, with_distribution),
        },
        Part::Two(a) => match a + d {
            bits if bits <= 128 => counter.count_in(&TwoWord::new(bits as u32), part, with_distribution),
            bits => counter.count_in(&Big::new(BigUint::one() << bits), part, with_distribution),
        },
    }
}

/// The counts modulo `m >= 1` from the counts modulo each of its parts ([`modulus::by_parts`]);
/// `slots` distribution entries when the distribution is asked for (0 otherwise).
pub(super) fn join_parts(
    m: &BigUint,
    slots: usize,
    mut part: impl FnMut(&Part) -> Result<Outcome>,
) -> Result<Outcome> {
    let with_distribution = slots > 0;
    let mut joined = modulus::by_parts(m, 2 + slots, |p| {
        let outcome = part(p)?;
        let mut residues = vec![outcome.losing, outcome.total];
        residues.extend(outcome.distribution.unwrap_or_default());
        Ok(residues)
    })?;
    let distribution = with_distribution.then(|| joined.split_off(2));
    let total = joined.pop().expect("two counts");
    let losing = joined.pop().expect("two counts");
    Ok(Outcome { losing, total, distribution })
}

/// Refuses an exact distribution of `len` counts of up to `bits` bits that cannot fit (twice
/// that while transforming).
fn reserve_exact_distribution(bits: u128, len: usize) -> Result<()> {
    let words = (bits / 64 + 2) * 2 * len as u128;
    let bytes = crate::memory::bytes_for::<u64>(|| "the exact distribution".into(), words)?;
    crate::memory::ensure_fits(|| "the exact distribution".into(), bytes)
}

/// Exact counts from the exact value of every class: `Σ_j c_j = F · L`, the total at slot 0,
/// the distribution by the inverse transform of the slots' values.
fn exact_outcome<C: Classes>(
    values: &[BigInt],
    classes: &C,
    d: u32,
    with_distribution: bool,
    stages: &mut Stages,
) -> Result<Outcome> {
    let mut sum = BigInt::zero();
    for (c, value) in values.iter().enumerate() {
        sum += value * BigInt::from(classes.multiplicity(c));
    }
    let (losing, rest) = sum.div_rem(&(BigInt::one() << d));
    debug_assert!(rest.is_zero(), "Σ_j c_j is F times the losing count");
    let total = values[classes.zero_class()].clone();
    let distribution = if with_distribution {
        let slots = classes.slot_class().expect("kept");
        let mut data: Vec<BigInt> = slots.iter().map(|&c| values[c as usize].clone()).collect();
        stages.time("inverse transform", || {
            crate::fwht::reference::textbook_with(&mut data, |a, b| (a + b, a - b));
        });
        Some(data.into_iter().map(|x| (x >> d).to_biguint().expect("a count is non-negative")).collect())
    } else {
        None
    };
    let to_count = |x: BigInt| x.to_biguint().expect("a count is non-negative");
    Ok(Outcome { losing: to_count(losing), total: to_count(total), distribution })
}

/// The distinct exact values `Ĥ` of the classes.
struct Distinct {
    values: Vec<BigInt>,
    /// For each class, the index of its value.
    class_value: Vec<usize>,
}

impl Distinct {
    pub fn of(spectrum: &Spectrum) -> Distinct {
        if let Spectrum::Levels(s) = spectrum {
            // Distinct by construction: no table of big integers.
            return Distinct {
                values: (0..s.len()).map(|c| s.value(c)).collect(),
                class_value: (0..s.len()).collect(),
            };
        }
        let mut index = std::collections::HashMap::new();
        let mut values = Vec::new();
        let class_value = (0..spectrum.len())
            .map(|c| {
                let v = spectrum.value(c);
                *index.entry(v.clone()).or_insert_with(|| {
                    values.push(v);
                    values.len() - 1
                })
            })
            .collect();
        Distinct { values, class_value }
    }

    pub fn len(&self) -> usize {
        self.values.len()
    }
}

/// `A = (N + Ĥ)/2` and `B = (N − Ĥ)/2` (exact: `Ĥ ≡ N mod 2` and `|Ĥ| <= N`).
fn halves(n: &BigUint, h: &BigInt) -> (BigUint, BigUint) {
    let n = BigInt::from(n.clone());
    let a = ((&n + h) >> 1u32).to_biguint().expect("|Ĥ| <= N");
    let b = ((&n - h) >> 1u32).to_biguint().expect("|Ĥ| <= N");
    (a, b)
}

/// `Ĥ^k` exactly; `k` is `None` when it does not fit a word (then `|Ĥ| <= 1`, or the answer
/// size check would have refused).
fn exact_power(h: &BigInt, k: Option<u64>, k_big: &BigUint) -> BigInt {
    if k_big.is_zero() {
        return BigInt::one();
    }
    if h.is_zero() || h.is_one() {
        return h.clone();
    }
    if *h == -BigInt::one() {
        return if k_big.bit(0) { h.clone() } else { BigInt::one() };
    }
    num_traits::pow::Pow::pow(h, k.expect("the exact-size check bounds k"))
}

/// Steps to raise `values` big integers to powers of `bits` bits: multiplications of `n` words
/// cost about `n^1.5` word operations in num-bigint (Karatsuba, Toom-3), 4 to a step (measured:
/// 52 powers of 4.4 million bits in 6.5 s).
fn exact_power_steps(values: usize, bits: u128) -> u128 {
    let words = (bits / 64 + 1) as f64;
    (values as f64 * words.powf(1.5) / 4.0).min(1e38) as u128
}

/// Refuses a computation estimated at more than `limit` steps.
/// Counts `steps` (`None`: beyond counting) for `what` against `limit` after `spent` steps (of
/// the earlier stages and of the earlier parts of a sum of games: the limit is the whole
/// query's, however many parts it has); the total spent, or [`Error::TooMuchWork`] naming it.
fn spend(what: &'static str, spent: u128, steps: Option<u128>, limit: u128) -> Result<u128> {
    match steps.and_then(|s| s.checked_add(spent)) {
        Some(total) if total <= limit => Ok(total),
        total => Err(Error::TooMuchWork { what, steps: Estimate(total), limit }),
    }
}

/// An upper bound on the number of bits of the total count summed over every number of heaps
/// from `lo` to `hi` (`None`: beyond 128 bits of bits): the largest term's bound (the counts grow
/// with `k`, sets up to `N/2`) and the number of terms.
fn range_answer_bits(kind: Kind, n: &BigUint, lo: &BigUint, hi: &BigUint) -> Option<u128> {
    let top = match kind {
        Kind::Set => hi.clone().min(n >> 1u32).max(lo.clone().min(n.clone())),
        _ => hi.clone(),
    };
    let terms = u128::from((hi - lo + 1u32).bits());
    answer_bits(kind, n, &top)?.checked_add(terms)
}

/// An upper bound on the number of bits of the total count (`None`: beyond 128 bits of bits).
fn answer_bits(kind: Kind, n: &BigUint, k: &BigUint) -> Option<u128> {
    if n.is_zero() || k.is_zero() || (kind == Kind::Ordered && n.is_one()) {
        return Some(1);
    }
    let n_bits = u128::from(n.bits());
    let k = k.to_u128()?;
    match kind {
        Kind::Ordered => k.checked_mul(n_bits),
        // C(N+k−1, k) = C(N+k−1, N−1) <= (N+k)^min(k, N−1).
        Kind::Multiset => {
            let top = (n + BigUint::from(k)).bits() as u128;
            Some(k.min(n.to_u128().unwrap_or(u128::MAX) - 1).checked_mul(top)?.max(1))
        }
        Kind::Set => {
            Some(k.min(n.to_u128().unwrap_or(u128::MAX).saturating_sub(k)).checked_mul(n_bits)?.max(1))
        }
    }
}
