//! From a game and a range of heap sizes to the histogram of their Grundy values.

use num_bigint::BigUint;
use num_traits::ToPrimitive;

use super::answer::Source;
use super::engine::Stages;
use crate::error::Result;
use crate::game::Game;
use crate::grundy;
use crate::histogram::Histogram;
use crate::progress::Progress;

/// The closed form of take at most half.
const FRACTION_HALF: &str = "take at most half: G(2n) = n, G(2n+1) = G(n), so G(n) = n >> (t+1) for t trailing ones";

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
