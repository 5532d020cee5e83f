//! The collective steps every distributed computation shares: agreeing on errors, gathering one
//! value from every process, and the all-to-all exchange of blocks.
//!
//! Every process calls each of these in the same order; none of them can leave one process
//! waiting for another that has given up, because a failure is agreed on before anyone moves on.

use mpi::collective::SystemOperation;
use mpi::traits::{Communicator, CommunicatorCollectives, Root};

use crate::error::{Bytes, Error, Result};

/// Bytes of an error message that travel to the other processes (longer ones are cut).
const MESSAGE_BYTES: usize = 480;

/// Every process learns whether any process's `local` result failed.
///
/// All succeeded: `local`. Otherwise every process returns an error: a failed process its own,
/// the others [`Error::ProcessFailed`] with the message of the first (lowest-ranked) process
/// that failed. One reduction and, on failure, one broadcast.
pub fn agree<C: Communicator, T>(comm: &C, local: Result<T>) -> Result<T> {
    let rank = comm.rank();
    let mine = if local.is_err() { rank } else { i32::MAX };
    let mut first = i32::MAX;
    comm.all_reduce_into(&mine, &mut first, SystemOperation::min());
    if first == i32::MAX {
        return local;
    }
    let mut message = [0u8; MESSAGE_BYTES];
    if let (true, Err(err)) = (first == rank, &local) {
        let text = err.to_string();
        let mut end = text.len().min(MESSAGE_BYTES);
        while !text.is_char_boundary(end) {
            end -= 1;
        }
        message[..end].copy_from_slice(&text.as_bytes()[..end]);
    }
    comm.process_at_rank(first).broadcast_into(&mut message[..]);
    match local {
        Err(err) => Err(err),
        Ok(_) => {
            let end = message.iter().position(|&b| b == 0).unwrap_or(MESSAGE_BYTES);
            Err(Error::ProcessFailed {
                rank: first as usize,
                processes: comm.size() as usize,
                message: String::from_utf8_lossy(&message[..end]).into_owned(),
            })
        }
    }
}

/// Every process's `x`, in rank order.
pub(crate) fn gather<C: Communicator, E: bytemuck::Pod>(comm: &C, x: E) -> Vec<E> {
    let size = std::mem::size_of::<E>();
    let mut all = vec![0u8; size * comm.size() as usize];
    comm.all_gather_into(bytemuck::bytes_of(&x), &mut all[..]);
    all.chunks_exact(size).map(bytemuck::pod_read_unaligned).collect()
}

/// Whether every process holds the same `value`.
pub(crate) fn same_everywhere<C: Communicator>(comm: &C, value: u64) -> bool {
    let (mut low, mut high) = (0u64, 0u64);
    comm.all_reduce_into(&value, &mut low, SystemOperation::min());
    comm.all_reduce_into(&value, &mut high, SystemOperation::max());
    low == high
}

/// The largest machine word (8, 4, 2 or 1 bytes) that slices of `E` can be viewed as: it divides
/// both the size and the alignment of `E`.
pub(crate) fn word_bytes<E>() -> usize {
    let (size, align) = (std::mem::size_of::<E>(), std::mem::align_of::<E>());
    [8, 4, 2, 1].into_iter().find(|w| size % w == 0 && align % w == 0).unwrap_or(1)
}

/// Refuses a block of `len` elements of `E` whose exchange would need more words than one MPI
/// call can count (`i32::MAX`).
pub(crate) fn check_exchange<E>(len: usize) -> Result<()> {
    let word = word_bytes::<E>();
    let bytes = len as u128 * std::mem::size_of::<E>() as u128;
    let limit = i32::MAX as u128 * word as u128;
    if bytes > limit {
        return Err(Error::BlockTooLarge {
            bytes: Bytes(bytes.min(u64::MAX as u128) as u64),
            limit: Bytes(limit as u64),
        });
    }
    Ok(())
}

/// The all-to-all exchange: `send` and `recv` are `P` pieces of equal length each; piece `q` of
/// `send` becomes piece `r` of `recv` on process `q`, for the sending process `r`. The pieces
/// travel as machine words (see [`word_bytes`]), in one `MPI_Alltoall`.
pub(crate) fn all_to_all<C: Communicator, E: bytemuck::Pod>(comm: &C, send: &[E], recv: &mut [E]) {
    debug_assert_eq!(send.len(), recv.len());
    let (send, recv): (&[u8], &mut [u8]) = (bytemuck::cast_slice(send), bytemuck::cast_slice_mut(recv));
    // The views cannot fail: the word divides the size and the alignment of E.
    match word_bytes::<E>() {
        8 => comm.all_to_all_into(
            bytemuck::cast_slice::<u8, u64>(send),
            bytemuck::cast_slice_mut::<u8, u64>(recv),
        ),
        4 => comm.all_to_all_into(
            bytemuck::cast_slice::<u8, u32>(send),
            bytemuck::cast_slice_mut::<u8, u32>(recv),
        ),
        2 => comm.all_to_all_into(
            bytemuck::cast_slice::<u8, u16>(send),
            bytemuck::cast_slice_mut::<u8, u16>(recv),
        ),
        _ => comm.all_to_all_into(send, recv),
    }
}

/// Sends `send` to process `partner` and receives its block into `recv` (equal lengths), in one
/// `MPI_Sendrecv`.
pub(crate) fn exchange<C: Communicator, E: bytemuck::Pod>(
    comm: &C,
    partner: usize,
    send: &[E],
    recv: &mut [E],
) {
    let process = comm.process_at_rank(partner as i32);
    let (send, recv): (&[u8], &mut [u8]) = (bytemuck::cast_slice(send), bytemuck::cast_slice_mut(recv));
    let _ = match word_bytes::<E>() {
        8 => mpi::point_to_point::send_receive_into(
            bytemuck::cast_slice::<u8, u64>(send),
            &process,
            bytemuck::cast_slice_mut::<u8, u64>(recv),
            &process,
        ),
        4 => mpi::point_to_point::send_receive_into(
            bytemuck::cast_slice::<u8, u32>(send),
            &process,
            bytemuck::cast_slice_mut::<u8, u32>(recv),
            &process,
        ),
        _ => mpi::point_to_point::send_receive_into(send, &process, recv, &process),
    };
}

/// Every process's block, in rank order (for transforms too small to split by columns).
pub(crate) fn all_gather<C: Communicator, E: bytemuck::Pod>(comm: &C, block: &[E], all: &mut [E]) {
    let (send, recv): (&[u8], &mut [u8]) = (bytemuck::cast_slice(block), bytemuck::cast_slice_mut(all));
    comm.all_gather_into(send, recv);
}
