//! The `nimcount` binary from the outside, one module a command (`count`, `grundy`, `play`,
//! `plot`, `transform` and `bench`), a table of hostile inputs, the budgets of memory, and the
//! README's examples and links. One test binary: run one module with `cargo test --test cli count::`.

#[path = "../support/mod.rs"]
mod support;

mod bench;
mod budget;
mod count;
mod doors;
mod grundy;
mod hostile;
mod misere;
mod play;
mod plot;
mod readme;
mod survey;
mod transform;
