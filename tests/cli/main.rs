//! The `nimcount` binary from the outside, one module a command (`count`, `grundy`, `play`,
//! `plot`, `transform` and `bench`), a table of hostile inputs and the budgets of memory. One
//! test binary: run one module with `cargo test --test cli count::`.

#[path = "../support/mod.rs"]
mod support;

mod budget;
mod count;
mod grundy;
mod hostile;
mod play;
mod plot;
mod transform;
