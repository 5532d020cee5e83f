//! Ctrl-C during a long computation: the progress reports of the library are the points where
//! Python's signal handlers run (`KeyboardInterrupt`), on the thread that started the call.

use std::panic::{AssertUnwindSafe, catch_unwind, resume_unwind};
use std::sync::Mutex;
use std::thread::{self, ThreadId};
use std::time::{Duration, Instant};

use nimcount::progress::Progress;
use pyo3::prelude::*;

/// How often the positions reported within a stage look for a signal.
const EVERY: Duration = Duration::from_millis(50);

/// The unwinding payload that carries an interruption out of the library.
struct Interrupted;

/// A [`Progress`] that runs Python's signal handlers at the start and end of every stage and
/// every [`EVERY`] within one, and stops the computation when a handler raises.
pub struct Signals {
    thread: ThreadId,
    last: Mutex<Instant>,
    raised: Mutex<Option<PyErr>>,
}

impl Signals {
    fn new() -> Self {
        Signals { thread: thread::current().id(), last: Mutex::new(Instant::now()), raised: Mutex::new(None) }
    }

    /// Runs the signal handlers when on the calling thread; unwinds out of the computation when
    /// one raises (without the panic hook: `resume_unwind`).
    fn check(&self) {
        if thread::current().id() != self.thread {
            return;
        }
        *self.last.lock().unwrap_or_else(|e| e.into_inner()) = Instant::now();
        if let Err(err) = Python::attach(|py| py.check_signals()) {
            *self.raised.lock().unwrap_or_else(|e| e.into_inner()) = Some(err);
            resume_unwind(Box::new(Interrupted));
        }
    }
}

impl Progress for Signals {
    fn start(&self, _what: &str, _total: u64) {
        self.check();
    }

    fn set_position(&self, _done: u64) {
        let due = self.last.lock().map(|last| last.elapsed() >= EVERY).unwrap_or(true);
        if due {
            self.check();
        }
    }

    fn finish(&self) {
        self.check();
    }
}

/// Runs `work` with the GIL released and a [`Signals`] progress; an exception raised by a signal
/// handler (Ctrl-C: `KeyboardInterrupt`) ends it and is returned.
pub fn interruptible<T: Send>(py: Python<'_>, work: impl FnOnce(&Signals) -> T + Send) -> PyResult<T> {
    let signals = Signals::new();
    let outcome = py.detach(|| catch_unwind(AssertUnwindSafe(|| work(&signals))));
    match outcome {
        Ok(value) => Ok(value),
        Err(payload) if payload.is::<Interrupted>() => Err(signals
            .raised
            .into_inner()
            .unwrap_or_else(|e| e.into_inner())
            .expect("an interruption carries the exception raised")),
        Err(payload) => resume_unwind(payload),
    }
}
