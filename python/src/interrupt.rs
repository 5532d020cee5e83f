//! Ctrl-C during a long computation. The computation runs on a thread of its own; the calling
//! thread waits with the GIL released and runs Python's signal handlers every [`EVERY`]. When a
//! handler raises (Ctrl-C: `KeyboardInterrupt`), the computation stops at its next progress
//! report — between stages, or at a position within one — and the exception is raised.

use std::panic::{AssertUnwindSafe, catch_unwind, resume_unwind};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc;
use std::thread;
use std::time::Duration;

use nimcount::progress::Progress;
use pyo3::prelude::*;

/// How often the waiting thread runs the signal handlers.
const EVERY: Duration = Duration::from_millis(50);

/// The stack of the computation's thread (the calling thread's is usually 8 MiB).
const STACK: usize = 64 << 20;

/// The unwinding payload that carries a cancellation out of the library.
struct Cancelled;

/// A [`Progress`] that stops the computation, from whichever thread reports, once cancelled.
#[derive(Default)]
pub struct Signals {
    cancelled: Arc<AtomicBool>,
}

impl Signals {
    /// Unwinds out of the computation when cancelled (`resume_unwind`: no panic message).
    pub fn check(&self) {
        if self.cancelled.load(Ordering::Relaxed) {
            resume_unwind(Box::new(Cancelled));
        }
    }
}

impl Progress for Signals {
    fn start(&self, _what: &str, _total: u64) {
        self.check();
    }

    fn set_position(&self, _done: u64) {
        self.check();
    }

    fn set_total(&self, _total: u64) {
        self.check();
    }

    fn finish(&self) {
        self.check();
    }

    fn cancellation(&self) -> Option<Arc<AtomicBool>> {
        Some(self.cancelled.clone())
    }
}

/// Runs `work` on a thread of its own with the GIL released, running Python's signal handlers
/// meanwhile; an exception they raise (Ctrl-C: `KeyboardInterrupt`) cancels `work` and is
/// returned once it has stopped.
pub fn interruptible<T: Send>(py: Python<'_>, work: impl FnOnce(&Signals) -> T + Send) -> PyResult<T> {
    let signals = Signals::default();
    let mut raised = None;
    let outcome = thread::scope(|scope| {
        let (done, mut finished) = mpsc::channel();
        let signals = &signals;
        let worker = thread::Builder::new()
            .name("nimcount".into())
            .stack_size(STACK)
            .spawn_scoped(scope, move || {
                let outcome = catch_unwind(AssertUnwindSafe(|| work(signals)));
                let _ = done.send(());
                outcome
            })
            .map_err(|e| pyo3::exceptions::PyRuntimeError::new_err(format!("cannot start a thread: {e}")))?;
        loop {
            // The receiver moves to the thread without the GIL and back (it is `Send`, not `Sync`).
            let (receiver, received) = py.detach(move || {
                let received = finished.recv_timeout(EVERY);
                (finished, received)
            });
            finished = receiver;
            if !matches!(received, Err(mpsc::RecvTimeoutError::Timeout)) {
                break;
            }
            if raised.is_none()
                && let Err(err) = py.check_signals()
            {
                raised = Some(err);
                signals.cancelled.store(true, Ordering::Relaxed);
            }
        }
        py.detach(|| worker.join())
            .map_err(|_| pyo3::exceptions::PyRuntimeError::new_err("the computation's thread failed"))
    })?;
    if let Some(err) = raised {
        return Err(err);
    }
    match outcome {
        Ok(value) => Ok(value),
        Err(payload) => resume_unwind(payload),
    }
}
