#![doc = include_str!("../README.md")]
#![warn(missing_docs)]
#![deny(clippy::undocumented_unsafe_blocks)]

// Modules bottom to top. Their floors (a module imports only from the floors below its own)
// are listed in `layers::FLOORS`, whose test checks them and that no files of a directory
// import each other in a circle.
// Ground: one-line messages (what the user typed, shortened and escaped); errors and
// progress; what may be allocated; the expression parser; input files and threads. The
// generator the unit tests share.
pub mod message;
#[cfg(test)]
mod testing;

pub mod error;
pub mod progress;

pub mod memory;

pub mod number;

pub mod input;
mod parallel;

// Machine words: the choice of instruction set over the SIMD kernels (the crate
// `nimcount-kernels`, which holds their `unsafe` code);
// modular arithmetic; the element types of the transform.
mod simd;

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

#[cfg(test)]
mod layers;

pub use error::{Error, Result};
/// The `f16` and `bf16` types of [`fwht::HadamardPlan`].
pub use half;
/// The big integers of the API (heap counts, moduli, exponents, answers).
pub use num_bigint;
