//! Finite sets of positive integers, kept as sorted runs: the moves of a subtraction game, or
//! the moves an all-but game forbids.

use std::fmt;

use crate::error::{Error, Result, quote};
use crate::number::parse_u64;

/// The largest move a [`MoveSet`] of several runs may contain (2^40).
///
/// Larger moves make no sense there: a period search never looks at more than 2^32 heaps, and a
/// certificate needs more heaps than the largest move.
pub const MAX_MOVE: u64 = 1 << 40;

/// The largest move of a set that is one run `a..=b` (2^62): its values have a closed form
/// (`G(n) = ⌊(n mod (a + b)) / a⌋`) that needs no period search, and `a + b` stays a word.
pub const MAX_INTERVAL_MOVE: u64 = 1 << 62;

/// A non-empty finite set of positive integers, stored as sorted, disjoint, non-adjacent runs
/// `first..=last`.
///
/// Written as a comma-separated list of numbers and ranges: `1,3,4`, `1-1000000`,
/// `1-3,7,10-12`. Numbers may use the forms of [`crate::number::parse_u64`] that contain no
/// `-` (`10^6`, `1_000_000`).
///
/// ```
/// use nimcount::game::MoveSet;
/// let moves: MoveSet = "10-12,1-3,7,4".parse().unwrap();
/// assert_eq!(moves.runs(), &[(1, 4), (7, 7), (10, 12)]);
/// assert_eq!(moves.to_string(), "1-4,7,10-12");
/// assert_eq!((moves.len(), moves.largest()), (8, 12));
/// assert!(moves.contains(11) && !moves.contains(5));
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct MoveSet {
    runs: Vec<(u64, u64)>,
}

impl MoveSet {
    /// The set of the given runs `(first, last)` (inclusive, in any order, overlaps allowed).
    ///
    /// Fails with [`Error::InvalidGame`] when there are no runs, a run is empty (`first > last`),
    /// contains 0, or exceeds [`MAX_MOVE`] ([`MAX_INTERVAL_MOVE`] when the runs make one
    /// interval); the message is a single line.
    ///
    /// ```
    /// use nimcount::game::MoveSet;
    /// assert_eq!(MoveSet::from_runs(&[(5, 7), (1, 2)])?.to_string(), "1,2,5-7");
    /// assert!(MoveSet::from_runs(&[(3, 2)]).is_err());
    /// # Ok::<(), nimcount::Error>(())
    /// ```
    pub fn from_runs(runs: &[(u64, u64)]) -> Result<MoveSet> {
        let spec = || {
            runs.iter()
                .map(|(a, b)| if a == b { a.to_string() } else { format!("{a}-{b}") })
                .collect::<Vec<_>>()
                .join(",")
        };
        let fail = |reason: String| Err(invalid(&spec(), reason));
        if runs.is_empty() {
            return fail("the set of moves is empty".into());
        }
        let mut sorted = runs.to_vec();
        for &(first, last) in &sorted {
            if first == 0 {
                return fail("moves must be positive (0 is not a move)".into());
            }
            if first > last {
                return fail(format!("the range {first}-{last} is empty"));
            }
            if last > MAX_INTERVAL_MOVE {
                return fail(format!("the move {last} is larger than the limit 2^62"));
            }
        }
        sorted.sort_unstable();
        let mut merged: Vec<(u64, u64)> = Vec::with_capacity(sorted.len());
        for (first, last) in sorted {
            match merged.last_mut() {
                Some(run) if first <= run.1 + 1 => run.1 = run.1.max(last),
                _ => merged.push((first, last)),
            }
        }
        if merged.len() > 1
            && let Some(&(_, last)) = merged.last()
            && last > MAX_MOVE
        {
            return fail(format!(
                "the move {last} is larger than the limit 2^40 (2^62 for one interval of moves)"
            ));
        }
        Ok(MoveSet { runs: merged })
    }

    /// The set of the given moves (in any order, duplicates allowed).
    pub fn from_moves(moves: &[u64]) -> Result<MoveSet> {
        let runs: Vec<(u64, u64)> = moves.iter().map(|&m| (m, m)).collect();
        MoveSet::from_runs(&runs)
    }

    /// The sorted, disjoint, non-adjacent runs `(first, last)`.
    pub fn runs(&self) -> &[(u64, u64)] {
        &self.runs
    }

    /// The largest element.
    pub fn largest(&self) -> u64 {
        self.runs.last().map_or(0, |r| r.1)
    }

    /// The smallest element.
    pub fn smallest(&self) -> u64 {
        self.runs.first().map_or(0, |r| r.0)
    }

    /// The number of elements.
    pub fn len(&self) -> u64 {
        self.runs.iter().map(|&(a, b)| b - a + 1).sum()
    }

    /// Always false: a move set has at least one element.
    pub fn is_empty(&self) -> bool {
        self.runs.is_empty()
    }

    /// Whether `k` is an element.
    pub fn contains(&self, k: u64) -> bool {
        let i = self.runs.partition_point(|r| r.1 < k);
        i < self.runs.len() && self.runs[i].0 <= k
    }

    /// The elements in increasing order.
    pub fn iter(&self) -> impl Iterator<Item = u64> + '_ {
        self.runs.iter().flat_map(|&(a, b)| a..=b)
    }
}

/// [`Error::InvalidGame`] for the moves `spec`.
fn invalid(spec: &str, reason: String) -> Error {
    Error::InvalidGame { spec: quote(spec), reason }
}

impl std::str::FromStr for MoveSet {
    type Err = Error;

    /// Parses `1,3,4`, `1-1000000`, `1-3,7,10-12`; the error is a single line.
    fn from_str(list: &str) -> Result<MoveSet> {
        let fail = |reason: String| invalid(list, reason);
        if list.trim().is_empty() {
            return Err(fail("expected a list of moves such as 1,3,4 or 1-10".into()));
        }
        let number = |text: &str| -> Result<u64> {
            let text = text.trim();
            if text.is_empty() {
                return Err(fail(format!("missing number in '{}'", quote(list))));
            }
            parse_u64(text).map_err(|e| fail(e.to_string()))
        };
        let mut runs = Vec::new();
        for item in list.split(',') {
            let item = item.trim();
            if item.is_empty() {
                return Err(fail(format!("empty item in the list '{}'", quote(list))));
            }
            let run = match item.split_once('-') {
                Some((_, last)) if last.contains('-') => {
                    return Err(fail(format!("'{}' is not a range first-last", quote(item))));
                }
                Some((first, last)) => (number(first)?, number(last)?),
                None => {
                    let m = number(item)?;
                    (m, m)
                }
            };
            runs.push(run);
        }
        MoveSet::from_runs(&runs).map_err(|e| match e {
            Error::InvalidGame { reason, .. } => fail(reason),
            other => other,
        })
    }
}

impl fmt::Display for MoveSet {
    /// Runs of three or more elements print as `a-b`, shorter ones element by element.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut first = true;
        let mut item = |f: &mut fmt::Formatter<'_>, text: String| {
            let sep = if first { "" } else { "," };
            first = false;
            write!(f, "{sep}{text}")
        };
        for &(a, b) in &self.runs {
            if b >= a + 2 {
                item(f, format!("{a}-{b}"))?;
            } else {
                for m in a..=b {
                    item(f, m.to_string())?;
                }
            }
        }
        Ok(())
    }
}
