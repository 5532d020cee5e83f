//! Counting positions: how many k-heap positions are lost for the player to move.
//!
//! A position of `k` heaps is lost (normal play) exactly when the XOR of the heaps' Grundy values
//! is 0. With the histogram `h` of Grundy values over the heap sizes and its transform `Ĥ` of
//! length `F = 2^d` (see [`crate::histogram`]):
//!
//! - **ordered** k-tuples: `L = F⁻¹ Σ_j Ĥ_j^k`, out of `N^k`;
//! - **multisets** (unordered heaps): `L = F⁻¹ Σ_j [x^k] (1−x)^(−A_j) (1+x)^(−B_j)`, out of
//!   `C(N+k−1, k)`;
//! - **sets** (distinct sizes): `L = F⁻¹ Σ_j [x^k] (1+x)^(A_j) (1−x)^(B_j)`, out of `C(N, k)`;
//!
//! where `A_j = (N + Ĥ_j)/2`, `B_j = (N − Ĥ_j)/2` and `N` is the number of heap sizes. The full
//! distribution of the XOR applies the inverse transform to the same pointwise values.
//!
//! # Moduli
//! The sum `S = Σ_j c_j` equals `F · L` exactly. For a modulus `M = 2^a · M′` (`M′` odd):
//! - modulo `M′`, `L ≡ F⁻¹ · S` (2 is invertible);
//! - modulo `2^a`, `S` is computed modulo `2^(a+d)` with wrapping arithmetic, and
//!   `L mod 2^a = (S mod 2^(a+d)) / 2^d` because `S mod 2^(a+d) = 2^d · (L mod 2^a)`;
//! - the two residues combine by the Chinese remainder theorem. `M = 1` gives 0.
//!
//! Exponents are reduced with [`crate::arith::ExponentRule`] for the working modulus (safe for
//! bases sharing factors with it); a modulus too large to factor keeps the exponent as it is.
//! Without a modulus the counts are exact big integers.
//!
//! # Files
//! [`query`](Query) builds a query, validates it and routes it by kind; `source` turns a game
//! and a range into a histogram; `modulus` is the one path from a modulus to counts (the split,
//! the CRT join, `winning`); `engine` computes one query's counts, with its strategies as its
//! submodules: `slots` (transformed residues on the SIMD kernels), `classes` (one value per class
//! of equal transformed values) and `probability`; `misere`, `coefficients` (the unordered
//! recurrences), `spectrum` (the exact transform), `structured` (the spectrum of a structured
//! histogram without arrays), `levels` (the same for intervals with many ends, as signed subset
//! sums), `tally` (distinct residues), `moore` (Moore's Nim-K, digit by
//! digit) and `distributed` (feature `mpi`) do one thing each. The residue rings are in
//! [`crate::ring`].
//!
//! # Speed
//! Ordered counts modulo an odd word (and the part `2^(a+d) <= 2^64` of an even one) transform
//! the histogram's residues with the SIMD kernels. A periodic histogram's transform usually
//! holds few distinct residues (52 in the `2^20` slots for the game `subtract:1-1000000`): they are
//! tallied and each is raised once; when they are many, every slot is raised with the
//! vectorised power. Every other case transforms the histogram's terms exactly (packed side by
//! side into `i64` columns) and evaluates each distinct transformed value once ([`Method`]).
//! Only the losing count's sum is formed unless the distribution is asked for, which alone
//! needs the inverse transform.
//!
//! # Without arrays
//! A structured histogram (nim over `lo..=hi`, one-interval subtraction games, games whose
//! values grow by a power-of-two saltus, files of value ranges) has a transform with few
//! distinct values, found in closed form without one slot per value ([`SpectrumPath`]): values
//! of millions of bits are counted in milliseconds, exactly or modulo anything, ordered,
//! unordered or distinct, misère Nim and probabilities alike. The engine takes that path
//! whenever it is cheaper than the array.
//!
//! ```
//! use nimcount::count::Query;
//! use nimcount::histogram::Histogram;
//!
//! // Nim with heaps of 1..=3 stones (Grundy value = size), three heaps:
//! // 6 of the 27 ordered triples have XOR 0 (the permutations of 1, 2, 3).
//! let h = Histogram::from_values(&[0, 1, 2, 3], 1, 3)?;
//! let counts = Query::from_histogram(h).heaps(3u32).count()?;
//! assert_eq!(counts.losing.to_string(), "6");
//! assert_eq!(counts.winning.to_string(), "21");
//! assert_eq!(counts.total.to_string(), "27");
//! assert_eq!(counts.modulus, None);
//! # Ok::<(), nimcount::Error>(())
//! ```

pub(crate) mod answer;
pub(crate) mod coefficients;
#[cfg(feature = "mpi")]
pub(crate) mod distributed;
pub(crate) mod engine;
pub(crate) mod geometric;
pub(crate) mod levels;
pub(crate) mod misere;
pub(crate) mod modulus;
pub(crate) mod moore;
pub(crate) mod query;
pub(crate) mod quotient;
pub(crate) mod source;
pub(crate) mod spectrum;
pub(crate) mod structured;
pub(crate) mod tally;

pub use answer::{Counts, Distribution, Kind, Method, Probability, Report, Source, SpectrumPath};
pub use coefficients::MAX_STEPS;
#[cfg(feature = "mpi")]
pub use distributed::DISTRIBUTED_EXACT_MAX_BITS_LOG2;
pub use engine::EXACT_MAX_BITS;
#[cfg(feature = "mpi")]
use engine::Stages;
pub use moore::MOORE_MAX_WORK;
pub use query::{Component, Query};
