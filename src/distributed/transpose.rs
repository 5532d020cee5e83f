//! The all-to-all of the distributed transform done in place, chunk by chunk, with the work on
//! the neighbouring chunks running while a chunk travels.
//!
//! Each of the `P` processes holds a block of `P` equal pieces. The transpose sends piece `q` of
//! process `r` to process `q`, where it becomes piece `r`: afterwards process `q` holds, in its
//! pieces `0 … P−1`, piece `q` of every process in rank order. Piece `r` of process `r` stays.
//!
//! **In place.** The slot that piece `q` leaves from is the slot that process `q`'s reply lands
//! in, so the block receives into itself and no block-size scratch space is needed: each chunk of
//! every piece `q ≠ r` is first copied into a send buffer, then the receive from `q` is posted
//! straight into its slot in the block.
//!
//! **Chunks.** The columns of a piece (positions inside it) travel in chunks of at most `chunk`
//! columns; chunk `c` of every piece moves together, as `2(P − 1)` nonblocking messages (a send
//! and a receive per other process, tagged with `c`). While chunk `c` travels, this process runs
//! `after` on chunk `c − 1` (arrived), then `before` on chunk `c + 1` and copies it into the
//! second send buffer. Between those steps it tests the outstanding requests, because Open MPI
//! moves large messages along only inside MPI calls. Memory: the block, plus two send buffers of
//! `(P − 1) · chunk` elements.

use std::time::{Duration, Instant};

use mpi::datatype::Equivalence;
use mpi::point_to_point::{Destination, Source};
use mpi::traits::Communicator;

use super::collective::word_bytes;

/// Columns per chunk for callers without a better figure: `2^17` (512 KiB of `u32` per piece and
/// chunk; the send buffers take `2 (P − 1)` times that, so many processes may want less).
///
/// Measured with `benches/transpose.rs`, two processes on a shared 2-core machine (load 5–9):
/// against one all-to-all followed by the same top levels, alternated within each run, the
/// median of the per-run ratios for `2^17` was 0.89–1.37 at `2^28` `u32` and 0.60–1.77 at `2^26`
/// over three rounds. `2^16 … 2^19` differ by less than the rounds do; `2^14` and `2^15` lost at
/// `2^28` (1.3–1.8), `2^22` lost at every size (1.1). On one machine the exchange is memory
/// copies by the same cores, so there is little to overlap; the second block is what it saves.
pub const CHUNK: usize = 1 << 17;

/// Tags repeat every `2^15` chunks: MPI promises tags up to `32767` at least. Chunk `c + 2^15`
/// cannot meet chunk `c` anyway: every message of a chunk has arrived before the next is posted.
const TAGS: usize = 1 << 15;

/// What one transpose cost this process.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub(crate) struct Moved {
    /// Bytes sent to the other processes: `(P − 1) / P` of the block (see [`transpose`]).
    pub bytes_sent: u64,
    /// Time blocked waiting for a chunk's messages once the work beside it was done: the part of
    /// the exchange the callbacks did not hide.
    pub waiting: Duration,
    /// Time in the callbacks `before` and `after`.
    pub computing: Duration,
}

/// Transposes `block` (`P = comm.size()` equal pieces, `P | block.len()`) across `comm`, in place:
/// afterwards piece `q` holds what was piece `r` of process `q`'s block (`r` = this rank), and
/// piece `r` is unchanged. Collective: every process calls it with a block of the same length.
///
/// Columns (positions inside a piece) travel in chunks of at most `chunk` elements of every piece
/// (`chunk = 0` counts as 1; a piece shorter than `chunk` is one chunk; the last chunk is shorter
/// when `chunk` does not divide the piece). `before(rows)` runs on each chunk's column range of
/// all `P` pieces (`rows[q]` is piece `q`'s slice of those columns) before that chunk leaves;
/// `after(rows)` runs on each chunk once every row of it has arrived, while the next chunk is in
/// flight. Both run once on every column, chunks in ascending order, also for `P = 1` (nothing
/// moves then) so that callers need no special case; neither runs on an empty block.
///
/// **Bytes sent.** Every column of every piece `q ≠ r` is sent once, to process `q`, and nothing
/// else is: `(P − 1) · block.len() / P` elements, so `bytes_sent` is `(P − 1) / P` of the block's
/// bytes, the least any transpose can send (those elements must leave this process), and the
/// same as `MPI_Alltoall` sends. As many bytes arrive. Elements travel as machine words (see
/// [`word_bytes`]); a chunk's message counts at most `i32::MAX` words (`chunk` is cut to that).
pub fn transpose<C, E>(
    comm: &C,
    block: &mut [E],
    chunk: usize,
    before: impl FnMut(&mut [&mut [E]]),
    after: impl FnMut(&mut [&mut [E]]),
) -> Moved
where
    C: Communicator,
    E: bytemuck::Pod + Send + Sync,
{
    // The views as words cannot fail: the word divides the size and the alignment of E.
    match word_bytes::<E>() {
        8 => chunked::<C, E, u64>(comm, block, chunk, before, after),
        4 => chunked::<C, E, u32>(comm, block, chunk, before, after),
        2 => chunked::<C, E, u16>(comm, block, chunk, before, after),
        _ => chunked::<C, E, u8>(comm, block, chunk, before, after),
    }
}

/// [`transpose`] with elements travelling as words `W`.
fn chunked<C, E, W>(
    comm: &C,
    block: &mut [E],
    chunk: usize,
    mut before: impl FnMut(&mut [&mut [E]]),
    mut after: impl FnMut(&mut [&mut [E]]),
) -> Moved
where
    C: Communicator,
    E: bytemuck::Pod,
    W: bytemuck::Pod + Equivalence,
{
    let (processes, rank) = (comm.size() as usize, comm.rank() as usize);
    assert!(
        block.len().is_multiple_of(processes),
        "a block of {} elements in {processes} pieces",
        block.len()
    );
    let piece = block.len() / processes;
    let mut moved = Moved::default();
    if piece == 0 {
        return moved;
    }
    // One piece's chunk is one message: at most i32::MAX words.
    let words = (std::mem::size_of::<E>() / std::mem::size_of::<W>()).max(1);
    let width = chunk.clamp(1, i32::MAX as usize / words).min(piece);
    let others = processes - 1;
    let mut buffers = vec![E::zeroed(); piece.div_ceil(width).min(2) * others * width];
    let (mut sending, mut filling) = buffers.split_at_mut(others * width);

    // The unsent columns of every piece, and the chunks before, in and after flight.
    let mut tails: Vec<&mut [E]> = block.chunks_exact_mut(piece).collect();
    let mut current = Some(next_chunk(&mut tails, width));
    let mut arrived: Option<Vec<&mut [E]>> = None;
    if let Some(rows) = current.as_mut() {
        let start = Instant::now();
        before(rows);
        moved.computing += start.elapsed();
        copy_out(rows, rank, sending);
    }
    let mut c = 0;
    while let Some(mut rows) = current.take() {
        let mut upcoming = (!tails[0].is_empty()).then(|| next_chunk(&mut tails, width));
        let tag = (c % TAGS) as i32;
        mpi::request::multiple_scope(2 * others, |scope, requests| {
            let len = rows[0].len();
            let mut outgoing = sending.chunks_exact(len);
            for (q, row) in rows.iter_mut().enumerate().filter(|&(q, _)| q != rank) {
                let process = comm.process_at_rank(q as i32);
                let send = outgoing.next().expect("one segment per other process");
                moved.bytes_sent += std::mem::size_of_val(send) as u64;
                requests.add(process.immediate_receive_into_with_tag(
                    scope,
                    bytemuck::cast_slice_mut::<E, W>(row),
                    tag,
                ));
                requests.add(process.immediate_send_with_tag(scope, bytemuck::cast_slice::<E, W>(send), tag));
            }
            let mut done = Vec::with_capacity(2 * others);
            // Each test lets MPI move the messages along between the pieces of work.
            requests.test_all(&mut done);
            if let Some(rows) = arrived.as_mut() {
                let start = Instant::now();
                after(rows);
                moved.computing += start.elapsed();
                requests.test_all(&mut done);
            }
            if let Some(rows) = upcoming.as_mut() {
                let start = Instant::now();
                before(rows);
                moved.computing += start.elapsed();
                requests.test_all(&mut done);
                copy_out(rows, rank, filling);
            }
            // Waiting tests and yields the core in turn: a partner that shares this core (more
            // processes than cores, or a busy machine) moves the chunk along sooner than one
            // spinning in MPI_Waitall would let it.
            let start = Instant::now();
            while !requests.test_all(&mut done) {
                std::thread::yield_now();
            }
            moved.waiting += start.elapsed();
        });
        arrived = Some(rows);
        current = upcoming;
        std::mem::swap(&mut sending, &mut filling);
        c += 1;
    }
    if let Some(rows) = arrived.as_mut() {
        let start = Instant::now();
        after(rows);
        moved.computing += start.elapsed();
    }
    moved
}

/// The next `width` columns (fewer at the end) of every piece, cut from the front of `tails`.
fn next_chunk<'b, E>(tails: &mut [&'b mut [E]], width: usize) -> Vec<&'b mut [E]> {
    tails
        .iter_mut()
        .map(|tail| {
            let n = width.min(tail.len());
            let (head, rest) = std::mem::take(tail).split_at_mut(n);
            *tail = rest;
            head
        })
        .collect()
}

/// The rows of a chunk bound for the other processes, in rank order, into `buffer`.
fn copy_out<E: Copy>(rows: &[&mut [E]], rank: usize, buffer: &mut [E]) {
    let len = rows[0].len();
    let others = rows.iter().enumerate().filter(|&(q, _)| q != rank);
    for ((_, row), segment) in others.zip(buffer.chunks_exact_mut(len)) {
        segment.copy_from_slice(row);
    }
}
