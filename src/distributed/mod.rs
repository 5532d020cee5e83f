//! The transform across processes, over MPI (the `mpi` feature); the losing count across
//! processes is [`Query::count_distributed`](crate::count::Query::count_distributed), built on it.
//!
//! `P = 2^p` processes each hold one contiguous block of `2^n / P` elements of a vector of
//! `2^n`. The transform is separable: `W_{2^n} = (W_P ⊗ I)(I ⊗ W_{2^n/P})`.
//!
//! The processes of one node (`MPI_Comm_split_type(MPI_COMM_TYPE_SHARED)`, `S` of them) share
//! their blocks in one MPI-3 shared-memory window (`window.rs`); the `N = P / S` nodes exchange.
//!
//! 1. **Local levels.** Each process transforms the rows of its block with the SIMD kernel
//!    ([`fwht::Plan`](crate::fwht::Plan)).
//! 2. **Node levels.** Process `j` of a node takes the `j`-th `1/S` of the columns of every row
//!    of the node's blocks and runs the levels across them (the block's top levels with the
//!    node's `log2 S`, three at a time on the SIMD kernel's column pass), in place in the shared
//!    window, between two barriers. No element is copied.
//! 3. **Between nodes.** The processes with the same rank inside their nodes transpose their
//!    blocks in place, chunk by chunk (`transpose.rs`): piece `q` goes to node `q`, which then
//!    holds `N` rows (one from every node) of the same column range, the transposed layout; the
//!    top `log2 N` levels run on each chunk while the next one travels.
//!
//! Counting only needs the transformed values pointwise (it sums their `k`-th powers), so
//! [`Plan::forward_transposed`] stops there; [`Plan::forward`] sends every row back with the same
//! transpose, for the natural order. Every ring works, and the levels run in the same ascending
//! order with the same operations as the single-process transform, so the results are
//! bit-identical to it, floats included. When blocks are shorter than `P` (fewer than `P^2`
//! elements in all) every process gathers the whole vector and transforms it itself.
//! [`Sharing`] chooses the grouping: [`Sharing::Exchange`] makes every process a node of its own
//! (the exchange between nodes on one machine).
//!
//! **Why one transpose and not pairwise exchanges.** The alternative exchanges whole blocks with
//! the partner `r ⊕ 2^i` for each of the `p` top levels: `p` messages of the whole block per
//! process, against `P − 1` pieces adding up to `(1 − 1/P)` of a block for the all-to-all. With
//! 2 processes the two move the same bytes; from 4 on the exchanges move `p / (1 − 1/P)` times
//! as much (2.7× at 4, 6× at 64), and the network, not the arithmetic, is what a distributed
//! transform waits for. The all-to-all leaves the data transposed, which counting wants anyway,
//! and a second all-to-all restores the natural order for the callers that need it. Measured
//! here with 2 and 4 processes on one machine, the exchange share is in the README.
//!
//! **Errors never hang.** Each fallible local step (lengths, allocation, an exact ring's bound,
//! reading a file) is followed by one reduction that tells every process whether any failed;
//! then every process returns an error ([`Error::ProcessFailed`](crate::Error::ProcessFailed) on
//! those that did not fail themselves) instead of entering an exchange its partner will never
//! join.
//!
//! **An in-place, overlapped transpose.** `transpose.rs` does the same exchange as the
//! all-to-all without the second block-size buffer: chunk by chunk, each chunk's receives landing
//! in the slots its sends left from, with callbacks on the chunks either side of the one in
//! flight (the top levels, for the transform) so that computing hides part of the exchange.
//!
//! **Files in slices.** [`elements_in_file`], [`Plan::read_block`] and [`Plan::write_block`] read
//! and write each process's block of a binary file at its offset (see `file.rs`).
//!
//! The library reads no environment variable and starts nothing: the caller initialises MPI
//! (the [`mpi`] crate is re-exported) and passes a communicator.

pub(crate) mod collective;
pub(crate) mod file;
pub(crate) mod plan;
pub(crate) mod transpose;
pub(crate) mod window;

pub use file::{elements_in_file, file_elements};
pub use plan::{Block, Plan, Sharing, Timings};

/// The MPI bindings the distributed API takes its communicators from.
pub use mpi;

/// Every process learns whether any process's `local` result failed; then every process
/// returns an error when one did (its own, or [`Error::ProcessFailed`](crate::Error::ProcessFailed)).
/// One reduction, and one broadcast of the first failure's message. Collective: use it after
/// each fallible local step of your own distributed code, before the next exchange.
///
/// ```no_run
/// use nimcount::distributed::{agree, mpi};
/// let universe = mpi::initialize().unwrap();
/// let world = universe.world();
/// let read = std::fs::read("slice.bin").map_err(|e| nimcount::Error::io("slice.bin", e));
/// let bytes = agree(&world, read)?; // every process stops here if any failed
/// # Ok::<(), nimcount::Error>(())
/// ```
pub fn agree<C: mpi::traits::Communicator, T>(comm: &C, local: crate::Result<T>) -> crate::Result<T> {
    collective::agree(comm, local)
}

/// Internals that only the tests run under `mpirun` (`tests/distributed.rs`) and measurements
/// reach: not part of the API, and free to change.
#[doc(hidden)]
pub mod testing {
    use std::time::Duration;

    use mpi::traits::Communicator;

    /// The columns per chunk that the distributed transform uses by default.
    pub const CHUNK: usize = super::transpose::CHUNK;

    /// The in-place transpose of `block` (see `transpose.rs`): the bytes this process sent, the
    /// time it waited for messages, and the time in the callbacks.
    pub fn transpose<C, E>(
        comm: &C,
        block: &mut [E],
        chunk: usize,
        before: impl FnMut(&mut [&mut [E]]),
        after: impl FnMut(&mut [&mut [E]]),
    ) -> (u64, Duration, Duration)
    where
        C: Communicator,
        E: bytemuck::Pod + Send + Sync,
    {
        let moved = super::transpose::transpose(comm, block, chunk, before, after);
        (moved.bytes_sent, moved.waiting, moved.computing)
    }

    /// The all-to-all that the transform uses: piece `q` of `send` becomes piece `r` of `recv` on
    /// process `q`, for the sending process `r`.
    pub fn all_to_all<C: Communicator, E: bytemuck::Pod>(comm: &C, send: &[E], recv: &mut [E]) {
        super::collective::all_to_all(comm, send, recv)
    }
}
