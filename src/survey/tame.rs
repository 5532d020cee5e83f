//! Whether a misère quotient is tame: every position lost exactly as in misère Nim on its
//! heaps' Grundy values.
//!
//! Misère Nim's rule (Bouton): a position is lost for the player to move when its heaps' values
//! XOR to 0 and some value is at least 2, or when every value is 0 or 1 and they XOR to 1. A
//! game is *tame* when this rule decides all its positions (Conway; Plambeck and Siegel, "Misère
//! quotients for impartial games", 2008: exactly the games whose quotient is a tame quotient).
//!
//! The check runs over what decides a position, `(element, XOR of the values, whether some
//! value is at least 2)`: starting from the empty position, every heap's `(Φ(n), G(n), G(n) >= 2)` is added
//! until no new state appears. Heaps `n >= N` repeat those below `N` when `N` is past both
//! preperiods by the least common multiple of the periods, so the heaps `1..N` reach every
//! state of every position.

use std::collections::HashSet;

use crate::grundy::PeriodSearch;
use crate::misere::Quotient;

/// The most heaps whose triples the check reads (a larger `N` is not checked: `None`).
const MAX_HEAPS: u64 = 1 << 20;

/// `Some(true)` when the quotient's verdicts are misère Nim's rule on the values of `normal`,
/// `Some(false)` when a position tells them apart, `None` when it cannot be checked (no period
/// of the values, or the periods' common multiple beyond [`MAX_HEAPS`]).
pub fn is_tame(q: &Quotient, normal: &PeriodSearch) -> Option<bool> {
    let certificate = normal.certificate.as_ref()?;
    if certificate.saltus != 0 || q.largest_heap().is_some() {
        return None;
    }
    let lcm = num_integer::lcm(q.period(), certificate.period);
    let heaps = q.preperiod().max(certificate.preperiod).checked_add(lcm)?;
    if heaps > MAX_HEAPS {
        return None;
    }
    let mut triples: HashSet<(usize, u32)> = HashSet::new();
    for n in 1..heaps {
        let element = q.element_u64(n).ok()?;
        let value = u32::try_from(normal.value(u128::from(n))?).ok()?;
        triples.insert((element, value));
    }
    let identity = q.element_u64(0).ok()?;
    let start = (identity, 0u32, false);
    let mut seen: HashSet<(usize, u32, bool)> = HashSet::from([start]);
    let mut todo = vec![start];
    while let Some((element, xor, big)) = todo.pop() {
        let lost = if big { xor == 0 } else { xor == 1 };
        if q.in_p(element) != lost {
            return Some(false);
        }
        for &(e, v) in &triples {
            let next = (q.mul(element, e), xor ^ v, big || v >= 2);
            if seen.insert(next) {
                todo.push(next);
            }
        }
    }
    Some(true)
}
