//! Progress reports from long computations.
//!
//! The library never draws anything itself: long-running functions take a `&dyn Progress`
//! and report to it. [`Silent`] ignores every report; the command-line tool passes a terminal
//! progress bar that stays hidden when its output is not a terminal.

/// Receives progress reports. Every method has a no-op default.
///
/// ```
/// use std::sync::atomic::{AtomicU64, Ordering};
/// use nimcount::progress::Progress;
///
/// /// Remembers how far the last stage got.
/// #[derive(Default)]
/// struct Furthest(AtomicU64);
/// impl Progress for Furthest {
///     fn set_position(&self, done: u64) {
///         self.0.fetch_max(done, Ordering::Relaxed);
///     }
/// }
/// let furthest = Furthest::default();
/// let game = nimcount::game::Game::parse("squares")?;
/// nimcount::grundy::values(&game, 200_000, &furthest)?;
/// assert!(furthest.0.load(Ordering::Relaxed) > 0);
/// # Ok::<(), nimcount::Error>(())
/// ```
pub trait Progress: Sync {
    /// A stage called `what` begins, with `total` units of work (0 when unknown).
    fn start(&self, what: &str, total: u64) {
        let _ = (what, total);
    }
    /// `done` units of the current stage are finished (an absolute position, not an increment).
    fn set_position(&self, done: u64) {
        let _ = done;
    }
    /// The current stage has `total` units of work after all (estimates improve as work goes).
    fn set_total(&self, total: u64) {
        let _ = total;
    }
    /// A line of figures about the current stage (rates, largest value, candidate period).
    fn message(&self, text: &str) {
        let _ = text;
    }
    /// The current stage is over.
    fn finish(&self) {}
    /// A flag that the caller sets to ask the computation to stop early: searches whose steps
    /// report rarely (a misère quotient's construction) read it between steps and end by the
    /// error of a spent limit, reporting [`Progress::finish`] first. `None` (the default): never.
    fn cancellation(&self) -> Option<std::sync::Arc<std::sync::atomic::AtomicBool>> {
        None
    }
}

/// A [`Progress`] that ignores every report.
#[derive(Debug, Clone, Copy, Default)]
pub struct Silent;

impl Progress for Silent {}
