#![doc = include_str!("../README.md")]
#![warn(missing_docs)]
#![deny(clippy::undocumented_unsafe_blocks)]

// Layers, bottom to top: each module imports only from the ones listed before it.
// The ground floor: messages, errors, progress reports.
pub mod error;
pub mod message;
pub mod progress;

mod simd;

// Resources and inputs: memory estimates, numbers, input files, the thread pool.
pub mod input;
pub mod memory;
pub mod number;
mod parallel;

pub mod arith;
pub mod ring;

pub mod fwht;

pub mod convolve;
pub mod elements;
pub mod game;

pub mod grundy;

pub mod histogram;

pub mod count;

pub mod play;

#[cfg(feature = "mpi")]
pub mod distributed;

pub use error::{Error, Result};
/// The big integers of the API (heap counts, moduli, exponents, answers).
pub use num_bigint;
