//! From a game and a range of heap sizes to the histogram of their Grundy values.

use num_bigint::BigUint;
use num_traits::ToPrimitive;

use super::answer::Source;
use super::engine::Stages;
use super::spectrum;
use super::structured::steps_of;
use crate::error::{Error, Estimate, Result};
use crate::game::Game;
use crate::grundy;
use crate::histogram::Histogram;
use crate::progress::Progress;

/// The closed form of take at most half.
const FRACTION_HALF: &str =
    "take at most half: G(2n) = n, G(2n+1) = G(n), so G(n) = n >> (t+1) for t trailing ones";

/// The histogram of `game`'s Grundy values over `lo..=hi` (`lo <= hi`): through a proven
/// period, or from the values `G(0..=hi)` computed directly when that is affordable (see
/// [`grundy::range_values`] for the rule; `max_heap` values at most when given).
pub(super) fn game_histogram(
    game: &Game,
    lo: &BigUint,
    hi: &BigUint,
    max_heap: Option<u64>,
    parallel: bool,
    progress: &dyn Progress,
    stages: &mut Stages,
) -> Result<(Histogram, Source)> {
    if let Game::Subtract(moves) = game
        && let [(a, b)] = moves.runs()
    {
        // G(n) = ⌊(n mod (a + b)) / a⌋: the histogram in closed form, no value computed.
        let (a, b) = (*a, *b);
        let histogram = stages.time("histogram", || crate::histogram::subtraction_interval(a, b, lo, hi))?;
        let theorem = grundy::Theorem::SubtractionInterval { first: a, last: b };
        let certificate = grundy::Certificate { preperiod: 0, period: a + b, saltus: 0, theorem };
        return Ok((histogram, Source::Period { certificate, values_computed: 0 }));
    }
    if let Game::Fraction { numerator: 1, denominator: 2 } = game {
        // The values of each class of trailing ones form an interval: a structured histogram.
        let histogram = stages.time("histogram", || crate::histogram::fraction_half(lo, hi))?;
        return Ok((histogram, Source::ClosedForm { form: FRACTION_HALF }));
    }
    let range =
        stages.time("Grundy values", || grundy::range_values(game, hi, max_heap, parallel, progress))?;
    match range {
        grundy::RangeValues::Period(search) => {
            let certificate = search.certificate.expect("a proven period");
            let values_computed = search.checked_upto as usize;
            let histogram = stages.time("histogram", || {
                Histogram::from_period(search.values, &certificate, lo.clone(), hi.clone())
            })?;
            Ok((histogram, Source::Period { certificate, values_computed }))
        }
        grundy::RangeValues::Direct(values) => {
            let (lo, hi) = (lo.to_u64().expect("lo <= hi < 2^64"), values.len() as u64 - 1);
            let histogram = stages.time("histogram", || Histogram::from_values(&values, lo, hi))?;
            Ok((histogram, Source::Values { values_computed: values.len() }))
        }
    }
}

/// The steps of the spectrum of take at most half over `lo..=hi` without arrays (`None`: no
/// closed form applies).
fn half_steps(lo: &BigUint, hi: &BigUint) -> Option<u128> {
    let histogram = crate::histogram::fraction_half(lo, hi).ok()?;
    spectrum::estimate(&histogram).map(steps_of)
}

/// Take at most half over `lo..=hi` refused because its spectrum needs more than `limit` steps
/// (`steps`): [`Error::HalfTooWide`], with an `x` such that `lo..=x` fits and `lo..=x+1` does
/// not.
///
/// The estimate is not monotone in `hi` (sizes with few set bits are cheap: `1..=2^61` fits),
/// so the ranges probed first end at `lo` plus sizes of typical bits (the leading bits of the
/// golden ratio) of one more bit each, up to the first that does not fit; a bisection between
/// the last two probes (keeping `lo..=low` fitting, one size always does, and `lo..=high` not)
/// then finds the `x` named.
pub(super) fn half_too_wide(lo: &BigUint, hi: &BigUint, steps: Option<u128>, limit: u128) -> Error {
    let fits = |x: &BigUint| half_steps(lo, x).is_some_and(|s| s <= limit);
    let (mut low, mut high) = (lo.clone(), hi.clone());
    if lo.bits() > 64 {
        // Beyond words from the first size on: no probe (each would build a histogram of as
        // many intervals as `lo` has bits).
        high = lo.clone();
    }
    // Nothing of 2^63 sizes or more has a word-sized closed form: the probes stop there.
    for bits in 1..=64u32 {
        let probe = lo + (BigUint::from(0x9E37_79B9_7F4A_7C15u64) >> (64 - bits));
        if probe >= high {
            break;
        }
        if !fits(&probe) {
            high = probe;
            break;
        }
        low = probe;
    }
    while &low + 1u8 < high {
        let middle: BigUint = (&low + &high) >> 1u32;
        if fits(&middle) {
            low = middle;
        } else {
            high = middle;
        }
    }
    Error::HalfTooWide { lo: lo.clone(), hi: hi.clone(), steps: Estimate(steps), limit, reach: Box::new(low) }
}
