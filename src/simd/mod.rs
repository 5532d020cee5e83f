//! SIMD kernels outside the transform, chosen at run time like the transform's backends
//! ([`crate::fwht::Backend`]); every `unsafe` block carries its `// SAFETY:` argument.
//!
//! - [`reach`]: the values reachable by many moves from many consecutive heaps, as bit masks
//!   (direct Grundy values of subtraction-type games).

pub(crate) mod reach;
