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
    Error::HalfTooWide { lo: lo.clone(), hi: hi.clone(), steps: Estimate(steps), limit, reach: low }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::count::{Kind, Query};
    use crate::progress::Silent;

    /// Ordered tuples of `k` heaps in `lo..=hi` whose values XOR to 0, one by one.
    fn brute_force(values: &[u32], lo: usize, hi: usize, k: u32) -> u64 {
        let mut xors = vec![0u64; 1 << 12];
        xors[0] = 1;
        for _ in 0..k {
            let mut next = vec![0u64; 1 << 12];
            for (x, &c) in xors.iter().enumerate().filter(|&(_, &c)| c > 0) {
                for &v in &values[lo..=hi] {
                    next[x ^ v as usize] += c;
                }
            }
            xors = next;
        }
        xors[0]
    }

    /// Lasker's Nim (a period with saltus 4) and take at most half (a closed form, one interval of
    /// values per class of trailing ones) are counted through the structured histogram: equal to
    /// enumeration on small ranges, and to the histogram of direct values on a larger one.
    #[test]
    fn closed_forms_count_as_enumeration_does() {
        for spec in ["lasker", "fraction:1/2"] {
            let game = Game::parse(spec).unwrap();
            let values = grundy::values(&game, 300, &Silent).unwrap();
            for (lo, hi) in [(0usize, 0usize), (0, 1), (1, 30), (5, 64), (3, 257), (100, 299)] {
                for k in 1..=3u32 {
                    let counts =
                        Query::new(game.clone()).sizes(lo as u64, hi as u64).heaps(k).count().unwrap();
                    assert_eq!(
                        counts.losing,
                        brute_force(&values, lo, hi, k).into(),
                        "{spec} {lo}..={hi}, {k} heaps"
                    );
                    let modular = Query::new(game.clone())
                        .sizes(lo as u64, hi as u64)
                        .heaps(k)
                        .modulus(1000u32)
                        .count()
                        .unwrap();
                    assert_eq!(modular.losing, (brute_force(&values, lo, hi, k) % 1000).into());
                }
            }
            let query = Query::new(game.clone()).sizes(1u32, 1u32 << 20).heaps(3u32);
            let (histogram, source) = query.histogram().unwrap();
            assert!(histogram.is_structured(), "{spec}");
            assert!(matches!(source, Source::Period { .. } | Source::ClosedForm { .. }), "{spec}");
            let direct = grundy::values(&game, (1 << 20) + 1, &Silent).unwrap();
            let array = Histogram::from_values(&direct, 1, 1 << 20).unwrap();
            for kind in [Kind::Ordered, Kind::Multiset, Kind::Set] {
                let structured =
                    Query::new(game.clone()).sizes(1u32, 1u32 << 20).heaps(3u32).kind(kind).count().unwrap();
                let plain = Query::from_histogram(array.clone()).heaps(3u32).kind(kind).count().unwrap();
                assert_eq!(structured.losing, plain.losing, "{spec} {kind:?}");
            }
        }
        // Huge ranges: Lasker's values are four progressions; take at most half has one interval
        // per bit of the largest heap, counted while the structured spectrum stays small.
        let huge = Query::new(Game::Lasker)
            .sizes(1u32, BigUint::from(10u32).pow(30))
            .heaps(3u32)
            .modulus(1_000_000_007u32);
        assert!(huge.count().is_ok());
        let half = Game::parse("fraction:1/2").unwrap();
        let wide =
            Query::new(half).sizes(1u32, 1u64 << 24).heaps(5u32).modulus(1_000_000_007u32).count().unwrap();
        assert!(matches!(wide.report.source, Source::ClosedForm { .. }));
    }
}
