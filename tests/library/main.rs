//! The library against slow obvious references: the transform, convolutions, Grundy values,
//! periods and searches, counts of every kind, `play`, the parsers. One test binary: run one
//! module with `cargo test --test library fwht::`.

#[path = "../support/mod.rs"]
mod support;

mod convolve;
mod convolve_bitwise;
mod count;
mod count_direct;
mod count_moore;
mod count_range;
mod count_seed;
mod fwht;
mod grundy_brute;
mod grundy_custom;
mod grundy_known;
mod grundy_octal;
mod grundy_period;
mod grundy_search;
mod hadamard;
mod misere_quotient;
mod no_threads;
mod parsers_prop;
mod play_brute;
mod structured;
mod survey;
