//! From a game and a range of heap sizes to the histogram of their Grundy values.

use num_bigint::BigUint;
use num_traits::ToPrimitive;

use super::answer::Source;
use super::engine::Stages;
use crate::error::{Error, Result};
use crate::game::Game;
use crate::grundy;
use crate::histogram::Histogram;
use crate::progress::Progress;

/// The histogram of `game`'s Grundy values over `lo..=hi` (`lo <= hi`): through a proven period
/// when the search (at most `max_heap` values, by default scaled to the game) finds one, else
/// from values computed directly when the range lies within the limit.
pub(super) fn game_histogram(
    game: &Game,
    lo: &BigUint,
    hi: &BigUint,
    max_heap: Option<u64>,
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
    let max_heap = max_heap.unwrap_or_else(|| grundy::default_max_heap(game)).max(1);
    let needed = hi.to_u64().and_then(|h| h.checked_add(1)).filter(|&n| n <= max_heap);
    let search =
        stages.time("period search", || grundy::find_period(game, needed.unwrap_or(max_heap), progress))?;
    if let Some(certificate) = search.certificate {
        let values_computed = search.values.len();
        let histogram = stages.time("histogram", || {
            Histogram::from_period(search.values, &certificate, lo.clone(), hi.clone())
        })?;
        return Ok((histogram, Source::Period { certificate, values_computed }));
    }
    let Some(needed) = needed else {
        return Err(Error::NoPeriod {
            game: game.spec(),
            searched: search.checked_upto.saturating_sub(1),
            reach: hi.clone(),
        });
    };
    let values = if search.values.len() as u64 >= needed {
        search.values
    } else {
        stages.time("Grundy values", || grundy::values(game, needed, progress))?
    };
    let (lo, hi) = (lo.to_u64().expect("lo <= hi"), needed - 1);
    let histogram = stages.time("histogram", || Histogram::from_values(&values, lo, hi))?;
    Ok((histogram, Source::Values { values_computed: values.len() }))
}
