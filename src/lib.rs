#![doc = include_str!("../README.md")]
#![warn(missing_docs)]

pub mod error;
pub mod memory;
pub mod number;
pub mod progress;

pub use error::{Error, Result};
pub mod arith;
pub mod convolve;
pub mod count;
pub mod fwht;
pub mod game;
pub mod grundy;
pub mod histogram;
pub mod ring;
pub(crate) mod simd;
