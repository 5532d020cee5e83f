//! The check of a candidate: every position of the given heaps, through finitely many states,
//! and the least position the candidate gets wrong.
//!
//! Let `Φ` map each heap to an element of a finite commutative monoid `M` with a subset `P`, and
//! let `O(h)` be the set of the images of the options of a heap `h`. A position `x` (a multiset
//! of heaps) has the *state* `(Φ(x), T(x))`, where `T(x)` is the set of the images of the options
//! of `x`. Adding a heap `h` maps the state of `x` to that of `x + h`:
//! `Φ(x + h) = Φ(x)·Φ(h)` and `T(x + h) = T(x)·Φ(h) ∪ Φ(x)·O(h)` (an option of `x + h` is an
//! option of `x` beside `h`, or `x` beside an option of `h`). So the states reachable from the
//! empty position `(1, ∅)` are found by a search over states, not positions, and they depend on
//! the heaps only through their *types* `(Φ(h), O(h))`.
//!
//! **Theorem.** If every reachable state satisfies `Φ(x) ∈ P ⇔ (T(x) ≠ ∅ and T(x) ∩ P = ∅)`,
//! then every position `x` is lost in misère play exactly when `Φ(x) ∈ P`. *Proof*, by induction
//! on the number of stones: the options of `x` are smaller, so each is lost exactly when its
//! image lies in P; `x` is lost exactly when it has a move and no option is lost, which is the
//! right-hand side.
//!
//! The search runs over words in the *lexicographic order* that compares the largest heap's
//! multiplicity first: a word `w` comes before `w'` when, at the largest heap where their
//! multiplicities differ, `w` has fewer. An option of a position is smaller in this order (it
//! removes one heap `h` and adds heaps below `h`), so at the least position whose state breaks
//! the rule, every option is judged right, and the rule's right-hand side is its true outcome.
//! The search descends heap by heap, largest first, each heap's multiplicity increasing, and
//! skips a state already met with as many heaps left to add (what follows it was met already,
//! at smaller words): the first state found to break the rule is at the least such position.
//! Heaps of equal type are interchangeable, so only the least heap of each type is needed.

use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};

use super::cost::{self, Meter};

/// A heap as the check sees it: its size, image and options' images (sorted, distinct).
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct HeapType {
    /// The heap's size (for the word of a failure).
    pub heap: u64,
    /// `Φ(h)`.
    pub image: u32,
    /// `O(h)`.
    pub options: Vec<u32>,
}

/// Why a candidate failed, or could not be checked.
#[derive(Debug)]
pub(super) enum Failed {
    /// The least position (heap sizes, ascending) whose outcome the candidate gets wrong.
    Wrong(Vec<u64>),
    /// More states than the limit (or more than [`STEPS_PER_STATE`] steps per state of it).
    States(u64),
    /// The meter of estimated time passed its limit ([`super::cost`]).
    Time,
}

/// A monoid given by its table, with its P-portion and identity.
pub(super) struct Table<'a> {
    pub order: usize,
    pub table: &'a [u32],
    pub lost: &'a [bool],
    pub identity: u32,
}

impl Table<'_> {
    fn mul(&self, a: u32, b: u32) -> u32 {
        self.table[a as usize * self.order + b as usize]
    }
}

/// The least heap of each type among `heaps` (ascending by heap), heaps without options left
/// out (they are the identity and add nothing).
pub(super) fn least_of_each_type(heaps: Vec<HeapType>) -> Vec<HeapType> {
    let mut seen: HashMap<(u32, Vec<u32>), ()> = HashMap::new();
    let mut kept: Vec<HeapType> = Vec::new();
    let mut heaps = heaps;
    heaps.sort_by_key(|t| t.heap);
    for t in heaps {
        if t.options.is_empty() {
            continue;
        }
        if seen.insert((t.image, t.options.clone()), ()).is_none() {
            kept.push(t);
        }
    }
    kept
}

/// Checks the candidate against every position of `heaps` (ascending, each of its own type,
/// see [`least_of_each_type`]); with `only_with_last`, only the positions that hold the last
/// heap (the others are known right). The number of states met.
pub(super) fn check(
    m: &Table<'_>,
    heaps: &[HeapType],
    only_with_last: bool,
    max_states: u64,
    meter: &Meter,
) -> Result<u64, Failed> {
    check_counting(m, heaps, only_with_last, max_states, &mut 0, meter)
}

/// [`check`], adding the states met to `spent` whatever the answer, and its estimated time to
/// `meter` ([`Failed::Time`] once the meter passes its limit).
pub(super) fn check_counting(
    m: &Table<'_>,
    heaps: &[HeapType],
    only_with_last: bool,
    max_states: u64,
    spent: &mut u64,
    meter: &Meter,
) -> Result<u64, Failed> {
    let words = m.order.div_ceil(64);
    let mut search = Search {
        m,
        heaps,
        words,
        seen: HashMap::default(),
        word: Vec::new(),
        max_states,
        steps: 0,
        meter,
        buffers: vec![Default::default(); heaps.len() + 1],
    };
    // A state: its element, then the bits of its options' elements.
    let mut start = vec![0u64; 1 + words];
    start[0] = u64::from(m.identity);
    let result = search.walk(heaps.len(), &start, only_with_last);
    *spent += search.seen.len() as u64 + search.steps / STEPS_PER_STATE;
    result.map(|()| search.seen.len() as u64)
}

struct Search<'a, 'b> {
    m: &'a Table<'b>,
    heaps: &'a [HeapType],
    words: usize,
    /// Each state met, with the most heaps left to add when it was.
    seen: HashMap<Box<[u64]>, usize, BuildHasherDefault<Mix>>,
    /// The position being looked at.
    word: Vec<u64>,
    max_states: u64,
    /// States made, new or met again (a state met again with more heaps left is followed
    /// again): at most [`STEPS_PER_STATE`] times `max_states`.
    steps: u64,
    meter: &'a Meter,
    buffers: Vec<(Vec<u64>, Vec<u64>)>,
}

/// The steps a check may take per state of its limit: a state met again with more heaps left
/// is followed again, so the steps, not the states, bound a check's time.
const STEPS_PER_STATE: u64 = 16;

impl Search<'_, '_> {
    /// Every position `word + (heaps[..left] with any multiplicities)`, in lexicographic order.
    fn walk(&mut self, left: usize, state: &[u64], skip_first: bool) -> Result<(), Failed> {
        let m = self.m;
        if left == 0 {
            let options = &state[1..];
            let has_move = options.iter().any(|&w| w != 0);
            let lost_option = bits(options).any(|o| m.lost[o]);
            if m.lost[state[0] as usize] != (has_move && !lost_option) {
                let mut word = self.word.clone();
                word.sort_unstable();
                return Err(Failed::Wrong(word));
            }
            return Ok(());
        }
        let pushed = self.word.len();
        // One pair of buffers per level (a walk calls only the level below).
        let (mut state_buf, mut next) = std::mem::take(&mut self.buffers[left]);
        state_buf.clear();
        state_buf.extend_from_slice(state);
        next.resize(1 + self.words, 0);
        let mut state = state_buf;
        let mut first = true;
        let h = &self.heaps[left - 1];
        let result = loop {
            if !(first && skip_first)
                && let Err(e) = self.walk(left - 1, &state, false)
            {
                break Err(e);
            }
            first = false;
            let elem = state[0] as u32;
            next.iter_mut().for_each(|w| *w = 0);
            next[0] = u64::from(m.mul(elem, h.image));
            // The row of the heap's image, read in order (the table is commutative; its column
            // is a stride of `order` words a step, a cache miss each for orders in the hundreds).
            let row = &m.table[h.image as usize * m.order..][..m.order];
            let mut members = 0u64;
            for o in bits(&state[1..]) {
                set(&mut next[1..], row[o] as usize);
                members += 1;
            }
            for &o in &h.options {
                set(&mut next[1..], m.mul(elem, o) as usize);
            }
            // The states met, each with the most heaps left to add after it: one met with as
            // many left was (or is being) followed already.
            self.steps += 1;
            if self.steps > self.max_states.saturating_mul(STEPS_PER_STATE) {
                break Err(Failed::States(self.max_states));
            }
            if self.meter.charge(cost::check_step(self.words, members, h.options.len())) {
                break Err(Failed::Time);
            }
            let full = self.seen.len() as u64 >= self.max_states;
            match self.seen.get_mut(next.as_slice()) {
                Some(l) if *l >= left => break Ok(()),
                Some(l) => *l = left,
                None if full => break Err(Failed::States(self.max_states)),
                None => {
                    self.seen.insert(next.clone().into_boxed_slice(), left);
                }
            }
            std::mem::swap(&mut state, &mut next);
            self.word.push(h.heap);
        };
        self.word.truncate(pushed);
        self.buffers[left] = (state, next);
        result
    }
}

/// A fast hash of the states (words of bits; no adversary chooses them).
#[derive(Default)]
struct Mix(u64);

impl Hasher for Mix {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        for chunk in bytes.chunks(8) {
            let mut word = [0u8; 8];
            word[..chunk.len()].copy_from_slice(chunk);
            self.write_u64(u64::from_le_bytes(word));
        }
    }
    fn write_u64(&mut self, x: u64) {
        self.0 = (self.0.rotate_left(5) ^ x).wrapping_mul(0x51_7c_c1_b7_27_22_0a_95);
    }
    fn write_usize(&mut self, x: usize) {
        self.write_u64(x as u64);
    }
}

fn set(bits: &mut [u64], i: usize) {
    bits[i / 64] |= 1 << (i % 64);
}

/// The members of a bit set.
pub(super) fn bits(bits: &[u64]) -> impl Iterator<Item = usize> + '_ {
    bits.iter().enumerate().flat_map(|(w, &b)| {
        let mut b = b;
        std::iter::from_fn(move || {
            if b == 0 {
                return None;
            }
            let i = b.trailing_zeros() as usize;
            b &= b - 1;
            Some(w * 64 + i)
        })
    })
}
