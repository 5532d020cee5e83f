#![doc = include_str!("../README.md")]
#![warn(missing_docs)]
// The feature `internals` reaches every module for nimcount's own tests (`tests/internals`); what
// it exposes is not API: it needs no documentation or API conventions of its own and may name
// types that stay private (`.ci/run` lints the library without it too).
#![cfg_attr(
    feature = "internals",
    allow(
        missing_docs,
        private_interfaces,
        private_bounds,
        clippy::len_without_is_empty,
        clippy::new_without_default
    )
)]
#![deny(clippy::undocumented_unsafe_blocks)]

// Modules bottom to top. Their floors (a module imports only from the floors below its own)
// are listed in `FLOORS` of `tests/internals/layers.rs`, whose test checks them and that no
// files of a directory import each other in a circle.
// Ground: one-line messages (what the user typed, shortened and escaped); errors and
// progress; what may be allocated; the expression parser; input files and threads.
pub mod message;

pub mod error;
pub mod progress;

pub mod memory;

pub mod number;

pub mod input;
pub(crate) mod parallel;

// Machine words: the choice of instruction set over the SIMD kernels (the crate
// `nimcount-kernels`, which holds their `unsafe` code);
// modular arithmetic; the element types of the transform.
pub(crate) mod simd;

pub mod arith;

pub mod ring;

// The transform and what is built on it.
pub mod fwht;

pub mod convolve;
pub mod elements;
pub mod game;

// The transform across the processes of an MPI run (blocks moved between processes; the
// distributed count is a kind of `count::Query` built on it).
#[cfg(feature = "mpi")]
pub mod distributed;

pub mod grundy;
// Misère quotients, beside the Grundy values: the monoid that decides misère play.
pub mod misere;

pub mod histogram;

pub mod count;

pub mod play;

// The one parser of specifications (heap games, Moore's Nim-K, staircases, sums), on the
// games, positions and queries it builds; the binary and the Python binding call it.
pub mod spec;

// Whole families of games, normal and misère play, surveyed game by game.
pub mod survey;

// Every module, public or not, for the tests of `tests/internals` (feature `internals`, which
// only nimcount's own tests turn on; nothing there is API).
#[cfg(feature = "internals")]
#[doc(hidden)]
pub mod internals;

pub use error::{Error, Result};
/// The `f16` and `bf16` types of [`fwht::HadamardPlan`].
pub use half;
/// The big integers of the API (heap counts, moduli, exponents, answers).
pub use num_bigint;
