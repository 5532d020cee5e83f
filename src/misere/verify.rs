//! The proof of a candidate: every position of every heap size, checked through finitely many
//! states.
//!
//! A heap's *type* is its image `Φ(h)` and the set `O(h)` of the images of its options. A
//! position `x` (a multiset of heaps) has the *state* `(Φ(x), [some heap of x has an option],
//! (Φ(x − t))_t)`, one entry per type `t` with options present in `x` (`x − t`: `x` less one
//! heap of type `t`). The images of all options of `x` are `o·Φ(x − t)`, `o ∈ O(t)`, so the state
//! decides whether some option of `x` has its image in P. Adding a heap of type `s` maps the
//! state of `x` to that of `x + s` (`Φ(x + s − t) = Φ(x − t)·Φ(s)` for `t ≠ s`, and
//! `Φ(x + s − s) = Φ(x)`), so the states reachable from the empty position are found by a
//! search over states, not positions.
//!
//! The candidate is correct — `x` is lost in misère play exactly when `Φ(x) ∈ P`, for every
//! position — when every reachable state satisfies: `Φ(x) ∈ P` exactly when `x` has a move and
//! no option has its image in P. Proof by induction on the number of stones: the options of `x`
//! are smaller, so their outcomes are their images' by induction, and `x` is lost exactly when
//! it has a move and no option is lost.

use std::collections::{HashSet, VecDeque};

/// A heap type: its image and its options' images (sorted, distinct).
pub(super) type HeapType = (u32, Vec<u32>);

/// Why a candidate failed, or could not be checked.
pub(super) enum Failed {
    /// A state whose outcome the candidate gets wrong.
    Wrong,
    /// More states than the limit.
    States(u64),
}

/// Checks the candidate monoid (`table`, `lost`, `identity`) against positions of heaps of
/// `types`; the number of states checked.
pub(super) fn check(
    order: usize,
    table: &[u32],
    lost: &[bool],
    identity: u32,
    types: &[HeapType],
    max_states: u64,
) -> Result<u64, Failed> {
    let mul = |a: u32, b: u32| table[a as usize * order + b as usize];
    let mut types: Vec<HeapType> = types.to_vec();
    types.sort_unstable();
    types.dedup();
    // Types with options carry an entry of the state; the others only multiply.
    let moving: Vec<&HeapType> = types.iter().filter(|t| !t.1.is_empty()).collect();
    const ABSENT: u32 = u32::MAX;
    // state = [Φ(x), any move, Φ(x − t) per moving type]
    let mut start = vec![identity, 0];
    start.extend(moving.iter().map(|_| ABSENT));
    let mut seen: HashSet<Vec<u32>> = HashSet::new();
    let mut queue = VecDeque::new();
    seen.insert(start.clone());
    queue.push_back(start);
    while let Some(state) = queue.pop_front() {
        let has_move = state[1] == 1;
        let lost_option = moving.iter().enumerate().any(|(i, t)| {
            let rest = state[2 + i];
            rest != ABSENT && t.1.iter().any(|&o| lost[mul(rest, o) as usize])
        });
        if lost[state[0] as usize] != (has_move && !lost_option) {
            return Err(Failed::Wrong);
        }
        for t in &types {
            let mut next = state.clone();
            next[0] = mul(state[0], t.0);
            for (i, m) in moving.iter().enumerate() {
                if std::ptr::eq(*m, t) {
                    next[2 + i] = state[0];
                    next[1] = 1;
                } else if next[2 + i] != ABSENT {
                    next[2 + i] = mul(next[2 + i], t.0);
                }
            }
            if !seen.contains(&next) {
                if seen.len() as u64 >= max_states {
                    return Err(Failed::States(max_states));
                }
                seen.insert(next.clone());
                queue.push_back(next);
            }
        }
    }
    Ok(seen.len() as u64)
}
