//! Memory that the processes of one node share: an MPI-3 shared-memory window
//! (`MPI_Win_allocate_shared` on the node's communicator from `MPI_Comm_split_type`).
//!
//! The node's part of the vector is one allocation, by node rank 0, that every process of the
//! node maps; process `q`'s share is its `q`-th slice, so any process can reach any row of it. Outside the node stage a process touches its own share
//! only; inside it, each process touches a disjoint range of columns of every row, between two
//! [`Window::fence`]s. That discipline, kept by `plan.rs`, is what makes the slices below sound.
//!
//! This module and the SIMD layer are the crate's only `unsafe` code: MPI's window calls are C
//! functions with raw pointers, and no safe binding for them exists in the `mpi` crate.

use std::marker::PhantomData;
use std::os::raw::{c_int, c_void};
use std::ptr::NonNull;

use mpi::ffi;
use mpi::raw::AsRaw;
use mpi::topology::SimpleCommunicator;
use mpi::traits::{Communicator, CommunicatorCollectives};

use crate::error::{Bytes, Error, Result};

/// Bytes of a page: the alignment of the node's part.
const PAGE: usize = 4096;

/// The shares of the processes of one node, in one shared mapping of `S · share` elements.
pub struct Window<E> {
    window: ffi::MPI_Win,
    /// The first element of the node's part (the share of node rank 0).
    base: NonNull<E>,
    share: usize,
    processes: usize,
    rank: usize,
    _elements: PhantomData<E>,
}

// SAFETY: the window is plain memory plus an MPI handle that is only used from the thread that
// calls the plan's collective methods (MPI runs `Funneled`); moving it between threads moves no
// thread-bound state.
unsafe impl<E: Send> Send for Window<E> {}
// SAFETY: shared references only read this process's own share (see `Deref`).
unsafe impl<E: Sync> Sync for Window<E> {}

impl<E: bytemuck::Pod> Window<E> {
    /// Refuses, before anything is mapped, a node's part that this process could not map or
    /// the machine could not hold: every process of the node maps all `S · share` elements
    /// (address space), and they all live in this machine's memory. Not collective.
    pub(crate) fn fits(processes: usize, share: usize) -> Result<()> {
        let len = share as u128 * processes as u128;
        let what = || {
            format!(
                "the shared memory of {processes} processes of one node (2^{} elements)",
                len.trailing_zeros()
            )
        };
        let bytes = crate::memory::bytes_for::<E>(what, len)?;
        crate::memory::ensure_fits(what, bytes.saturating_add(PAGE as u64))
    }

    /// Allocates `share` zeroed elements on every process of `node` (a communicator whose
    /// processes share memory); collective on `node`. The error is this process's own: callers
    /// agree on it across every process before going on.
    pub(crate) fn allocate(node: &SimpleCommunicator, share: usize) -> Result<Self> {
        let size = std::mem::size_of::<E>();
        let (processes, rank) = (node.size() as usize, node.rank() as usize);
        // Node rank 0 allocates the whole node's part, plus a page of slack to align it (MPI's
        // own placement is only 8-byte aligned: too little for `i128`, and vectors that straddle
        // cache lines are slower); the others allocate nothing and find it.
        let bytes = share
            .checked_mul(size)
            .and_then(|b| b.checked_mul(processes))
            .and_then(|b| b.checked_add(PAGE))
            .and_then(|b| isize::try_from(b).ok())
            .ok_or_else(|| too_large::<E>(share))?;
        let mine = if rank == 0 { bytes } else { 0 };
        let mut base: *mut c_void = std::ptr::null_mut();
        // SAFETY: an FFI handle is plain data; MPI writes it before it is read.
        let mut window: ffi::MPI_Win = unsafe { std::mem::zeroed() };
        // SAFETY: `node` is a live communicator; `base` and `window` are valid places for MPI to
        // write the address of this process's part and the window's handle.
        let code = unsafe {
            ffi::MPI_Win_allocate_shared(
                mine as ffi::MPI_Aint,
                1,
                ffi::RSMPI_INFO_NULL,
                node.as_raw(),
                (&mut base as *mut *mut c_void).cast(),
                &mut window,
            )
        };
        if code != 0 {
            return Err(Error::SharedMemory {
                detail: format!("MPI_Win_allocate_shared of {} failed", Bytes(bytes as u64)),
            });
        }
        // Lock every part once, for the window's whole life: the stages then synchronise with
        // `MPI_Win_sync` and barriers only (MPI's "passive target" idiom for shared windows).
        // SAFETY: `window` was just created by MPI on this communicator.
        unsafe { ffi::MPI_Win_lock_all(ffi::MPI_MODE_NOCHECK as c_int, window) };
        let mut window =
            Window { window, base: NonNull::dangling(), share, processes, rank, _elements: PhantomData };
        let (mut len, mut unit): (ffi::MPI_Aint, c_int) = (0, 0);
        let mut first: *mut c_void = std::ptr::null_mut();
        // SAFETY: `window` is live and 0 is a rank of its communicator; MPI writes the three
        // out-parameters.
        unsafe {
            ffi::MPI_Win_shared_query(
                window.window,
                0,
                &mut len,
                &mut unit,
                (&mut first as *mut *mut c_void).cast(),
            )
        };
        let start = (first as usize).next_multiple_of(PAGE);
        match NonNull::new(start as *mut E) {
            // `start .. start + S · share · size` lies inside rank 0's `bytes`, aligned for `E`
            // (a page is a multiple of every element's alignment).
            Some(b) if len as usize == bytes as usize && start - first as usize <= PAGE => window.base = b,
            _ => {
                return Err(Error::SharedMemory { detail: "MPI did not share node rank 0's memory".into() });
            }
        }
        // Zeros: MPI does not promise them. Each process clears its own share.
        window.own_mut().fill(E::zeroed());
        Ok(window)
    }
}

fn too_large<E>(share: usize) -> Error {
    let bytes = share as u128 * std::mem::size_of::<E>() as u128;
    Error::OutOfMemory {
        what: format!("a shared block of {share} elements"),
        needed: Bytes(bytes.min(u64::MAX as u128) as u64),
        available: Bytes(crate::memory::available().unwrap_or(0)),
    }
}

impl<E> Window<E> {
    /// The number of processes `S` sharing the window.
    pub(crate) fn processes(&self) -> usize {
        self.processes
    }

    /// This process's share.
    pub(crate) fn own(&self) -> &[E] {
        // SAFETY: the share `rank` lies inside the window's mapping, is aligned (checked at
        // allocation) and lives as long as `self`; outside the node stage no other process
        // writes it.
        unsafe { std::slice::from_raw_parts(self.base.as_ptr().add(self.rank * self.share), self.share) }
    }

    /// This process's share, to write.
    pub(crate) fn own_mut(&mut self) -> &mut [E] {
        // SAFETY: as in `own`; `&mut self` excludes every other slice this process made of it.
        unsafe { std::slice::from_raw_parts_mut(self.base.as_ptr().add(self.rank * self.share), self.share) }
    }

    /// The ranges `ranges` (inside a share, disjoint, ascending) of every share of the node, to
    /// write: share 0's ranges in order, then share 1's, and so on.
    ///
    /// Sound only while every process of the node asks for ranges disjoint from the others',
    /// between two [`fence`](Self::fence)s: the node stage of `plan.rs` is the one caller, and
    /// gives process `j` the `j`-th of `S` equal column ranges of every row.
    pub(crate) fn columns_mut(&mut self, ranges: &[std::ops::Range<usize>]) -> Vec<&mut [E]> {
        assert!(
            ranges.windows(2).all(|w| w[0].end <= w[1].start)
                && ranges.iter().all(|r| r.start <= r.end && r.end <= self.share),
            "disjoint ascending ranges inside a share"
        );
        let mut slices = Vec::with_capacity(self.processes * ranges.len());
        for q in 0..self.processes {
            for range in ranges {
                // SAFETY: the range lies inside share `q` of the mapping (asserted above), and
                // no other process touches it until the next fence; the ranges are disjoint
                // (asserted), so are the slices, and `&mut self` keeps this process from making
                // others meanwhile.
                slices.push(unsafe {
                    std::slice::from_raw_parts_mut(
                        self.base.as_ptr().add(q * self.share + range.start),
                        range.len(),
                    )
                });
            }
        }
        slices
    }

    /// Makes every process's writes to the window visible to every other process of the node,
    /// and waits for all of them; collective on `node`.
    pub(crate) fn fence(&self, node: &SimpleCommunicator) {
        // SAFETY: the window is live and locked (`MPI_Win_lock_all`) for its whole life.
        unsafe { ffi::MPI_Win_sync(self.window) };
        node.barrier();
        // SAFETY: as above.
        unsafe { ffi::MPI_Win_sync(self.window) };
    }
}

impl<E> Drop for Window<E> {
    fn drop(&mut self) {
        // Collective: every process of the node drops its window in the same order (the plan's
        // blocks are made and dropped by the same collective steps on every process).
        // SAFETY: the window is live and locked; nothing borrows its memory any more.
        unsafe {
            ffi::MPI_Win_unlock_all(self.window);
            ffi::MPI_Win_free(&mut self.window);
        }
    }
}
