//! What the construction of a misère quotient costs: a model in estimated nanoseconds, kept
//! by a [`Meter`] as the construction runs, and the estimate of a whole search from its
//! [`Budget`] before it starts.
//!
//! **Bytes.** The largest things a search holds are the states of one check ([`super::verify`]:
//! at most `max_states` of them, each an element and a bit set of `order` bits, boxed in a hash
//! table: `8·(1 + ⌈order/64⌉) + 48` bytes) and the tables of `order²` 4-byte products (the
//! stage's, its copy for the conservative extension, the trial's, the reduced one and the base
//! of a refinement: [`TABLES`] of them), besides the trial monoids of up to `16·max_order`
//! elements (a mark, a number in a hash table, about [`TRIAL_ELEMENT_BYTES`] each) and the
//! quotients of the heaps `0..=n` kept by [`super::Search::cached`] ([`super::PARTIAL_KEPT_BYTES`]).
//! With the order at its limit this is an upper bound of every search within the budget:
//! [`estimate`] gives it, and the memory check ([`crate::memory::ensure_fits`]) refuses a
//! budget beyond the room of the process before any work.
//!
//! **Time, stage by stage.** Each step of every inner loop is charged to the meter as it is
//! taken, at the cost measured for it:
//! - a state of a check: [`STATE_NS`], plus [`WORD_NS`] per 64-bit word of its bit set, plus
//!   [`PRODUCT_NS`] per option's element multiplied (the elements of its bit set, and the
//!   options of the heap added): `O(order)` per state, so a check of `s` states costs up to
//!   `s·order` products;
//! - a step of a marking walk: [`WALK_NS`] plus [`WALK_OPTION_NS`] per option carried;
//! - each heap's types (the image of every option of every heap joined): [`PART_NS`] per heap
//!   of an option, every time they are recomputed (once per candidate and refinement);
//! - a reduction: [`HASH_NS`] per element and generator of the trial, once to number the
//!   trial and once per round of the partition refinement, plus [`HASH_NS`] per entry of the
//!   reduced table (`order²`);
//! - a refinement's submonoid: [`PRODUCT_NS`] per element and generator, and per entry of its
//!   `k²` base table.
//!
//! The work the budget counts (`states`: the states of the checks and the steps of the walks,
//! at most `WORK · max_states`) is a part of this; the rest (tables, reductions, the types of
//! heaps) is what made a search with raised limits run for many minutes unseen. The meter
//! stops a search when its estimated time passes [`Budget::max_seconds`]: the same step on
//! every machine, whatever its load.
//!
//! **The whole search, before it starts** ([`estimate`]): a search that does not find its
//! quotient spends its whole budget of `WORK · max_states` counted states (Lasker's Nim does,
//! at heap 70 with the default budget), each costing at least [`COUNTED_NS`] (the cost of a
//! state at the small orders of the calibration), plus one reduction at the largest order
//! (`max_order²` entries). A budget whose estimate is beyond `max_seconds` is refused at once;
//! the meter bounds the rest (a search at larger orders costs more per state than the estimate
//! says, and stops at the limit).
//!
//! **Calibration** (release build, whole constructions run by `count --misere --verbose`, on a
//! 2-core Intel Xeon: virtual, `lscpu`: "Intel(R) Xeon(R) Processor", shared with other builds):
//! the model's estimate against the CPU time they took:
//!
//! | construction                                   | order | model  | CPU    |
//! |------------------------------------------------|-------|--------|--------|
//! | Kayles, proven at heap 167                     | 40    | 0.4 s  | 0.30 s |
//! | Guiles (`0.15`), proven at heap 153            | 42    | 0.1 s  | 0.08 s |
//! | Lasker's Nim, heaps `0..=50`                   | 66    | 1.3 s  | 0.70 s |
//! | Lasker's Nim, default budget (stops, heap 70)  | 130   | 7.2 s  | 4.5 s  |
//! | Dawson's Kayles, `max_states: 10^6` (stops, 32)| 552   | 8.3 s  | 8.5 s  |
//! | Dawson's Kayles, heaps `0..=30`, `10^6`        | 360   | 6.7 s  | 3.9 s  |
//! | Lasker's Nim, `2·10^6`, stopped at 40 s        | 130   | 40 s   | 23 s   |
//!
//! The model is above the real time but for one case within 2% of it, never more than twice
//! it. [`COUNTED_NS`] is about the least cost of a counted state seen (Kayles: 0.3 s for
//! 1.2·10^5 states; Lasker's Nim: 4.5 µs each at order 130), so the estimate of a search that
//! spends its budget is, in these runs, below its real time: the meter, not the estimate,
//! bounds it.

use std::cell::Cell;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

use super::Budget;
use crate::grundy::Estimate;

/// A state of a check: hashing, looking up and storing it.
pub(super) const STATE_NS: u64 = 120;
/// Per 64-bit word of a state's bit set (cleared, hashed, compared, copied).
pub(super) const WORD_NS: u64 = 4;
/// Per product looked up in a table and set in a bit set (a random access).
pub(super) const PRODUCT_NS: u64 = 4;
/// A step of a marking walk, and per option's element it carries (multiplied, copied, sorted,
/// deduplicated).
pub(super) const WALK_NS: u64 = 60;
pub(super) const WALK_OPTION_NS: u64 = 10;
/// Per heap of an option whose image is folded from the heaps' images.
pub(super) const PART_NS: u64 = 3;
/// Per lookup in a hash table keyed by an element or a small vector of classes.
pub(super) const HASH_NS: u64 = 50;
/// The least cost of a counted state (of a check or a walk), at the small orders of the
/// calibration: the estimate of a search that spends its budget.
pub(super) const COUNTED_NS: f64 = 2000.0;

/// The states all the checks of a construction may meet, in units of one check's limit.
pub(super) const WORK: u64 = 5;

/// Tables of `order²` products held at once (see the module's documentation).
pub const TABLES: u64 = 5;
/// Bytes per element of a trial monoid (its mark, its number in a hash table, its class).
pub const TRIAL_ELEMENT_BYTES: u64 = 64;
/// Bytes per state of a check besides its words: the box, the hash table's entry and slack.
pub const STATE_BYTES: u64 = 48;

/// The estimated time and bytes of a search that spends the whole budget (see the module's
/// documentation): seconds of the model on the calibration's machine, and an upper bound of
/// the bytes.
///
/// ```
/// use nimcount::misere::{Budget, estimate};
///
/// let small = estimate(&Budget::default());
/// assert!(small.seconds < 60.0 && small.bytes < 1 << 30);
/// let raised = estimate(&Budget { max_states: 100_000_000, max_order: 16_384, ..Budget::default() });
/// assert!(raised.seconds > 100.0 && raised.bytes > 100 << 30);
/// ```
pub fn estimate(budget: &Budget) -> Estimate {
    let order = budget.max_order as u64;
    let words = order.div_ceil(64);
    let states = budget.max_states.saturating_mul(WORK);
    let table = order.saturating_mul(order);
    let bytes = budget
        .max_states
        .saturating_mul(8 * (1 + words) + STATE_BYTES)
        .saturating_add(table.saturating_mul(4 * TABLES))
        .saturating_add(order.saturating_mul(16 * TRIAL_ELEMENT_BYTES))
        .saturating_add(super::PARTIAL_KEPT_BYTES as u64);
    let seconds = (states as f64 * COUNTED_NS + table as f64 * HASH_NS as f64) / 1e9;
    Estimate { seconds, bytes }
}

/// Estimated nanoseconds spent by a construction, against the limit of its budget: charged
/// step by step ([`Meter::charge`]), so that a construction stops at the same step on every
/// machine.
#[derive(Debug, Clone)]
pub struct Meter {
    spent: Cell<u64>,
    limit: Cell<u64>,
    /// Set by the caller to stop the construction at its next step ([`Meter::watch`]).
    cancel: Option<Arc<AtomicBool>>,
}

impl Meter {
    pub fn new() -> Meter {
        Meter { spent: Cell::new(0), limit: Cell::new(u64::MAX), cancel: None }
    }

    /// Passes its limit at the next charge once `progress` asks the computation to stop
    /// ([`crate::progress::Progress::cancellation`]).
    pub fn watch(&mut self, progress: &dyn crate::progress::Progress) {
        self.cancel = progress.cancellation();
    }

    /// Whether the caller asked the computation to stop.
    fn cancelled(&self) -> bool {
        self.cancel.as_ref().is_some_and(|c| c.load(Ordering::Relaxed))
    }

    /// Limits the meter to `seconds` of estimated time in all (spent so far included).
    pub fn limit_to(&self, seconds: u64) {
        self.limit_ns(seconds.saturating_mul(1_000_000_000));
    }

    /// Limits the meter to `ns` estimated nanoseconds in all.
    pub fn limit_ns(&self, ns: u64) {
        self.limit.set(ns);
    }

    /// The limit, in whole seconds.
    pub fn limit_seconds(&self) -> u64 {
        self.limit.get() / 1_000_000_000
    }

    /// Adds `ns`; whether the meter is now past its limit.
    pub fn charge(&self, ns: u64) -> bool {
        let spent = self.spent.get().saturating_add(ns);
        self.spent.set(spent);
        spent > self.limit.get() || self.cancelled()
    }

    /// Whether the meter is past its limit.
    pub fn over(&self) -> bool {
        self.spent.get() > self.limit.get() || self.cancelled()
    }

    /// Estimated nanoseconds so far.
    pub fn spent(&self) -> u64 {
        self.spent.get()
    }
}

/// A state of a check whose bit sets have `words` words, with `members` options' elements
/// carried and `options` of the heap added.
pub(super) fn check_step(words: usize, members: u64, options: usize) -> u64 {
    STATE_NS + WORD_NS * words as u64 + PRODUCT_NS * (members + options as u64)
}

/// A step of a marking walk carrying `options` elements.
pub(super) fn walk_step(options: usize) -> u64 {
    WALK_NS + WALK_OPTION_NS * options as u64
}

/// The images of options made of `parts` heaps in all.
pub(super) fn parts(parts: u64) -> u64 {
    PART_NS.saturating_mul(parts)
}

/// `lookups` in hash tables.
pub(super) fn hashed(lookups: u64) -> u64 {
    HASH_NS.saturating_mul(lookups)
}

/// `products` read from tables.
pub(super) fn products(products: u64) -> u64 {
    PRODUCT_NS.saturating_mul(products)
}
