//! Binary files in slices: every process reads its block of an input file and writes its block
//! of an output file, at the block's byte offset, on a file system every process sees.
//!
//! A binary file holds little-endian elements back to back (the format of
//! [`elements::Format::Binary`](crate::elements::Format::Binary)); a transform's file holds a
//! power of two of them. Process `r` of a [`Plan`] owns the bytes
//! `block_start() · size .. (block_start() + block_len()) · size`, with `size` the bytes of one
//! element. Every function here is collective and agrees on failures, so a file one process
//! cannot read stops every process.

use std::fs::File;
use std::os::unix::fs::FileExt;
use std::path::Path;

use mpi::traits::Communicator;

use super::Plan;
use super::collective::agree;
use crate::elements::Element;
use crate::error::{Error, Result};

/// The number of elements of a binary file of `bytes` bytes, `size` bytes each, when it is a
/// whole number and a power of two; else the reason, naming `path`.
pub fn file_elements(path: &Path, bytes: u64, size: u64) -> Result<u64> {
    let malformed = |reason: String| Error::Malformed { path: path.display().to_string(), line: 0, reason };
    if size == 0 || !bytes.is_multiple_of(size) {
        return Err(malformed(format!(
            "{bytes} bytes is not a whole number of {size}-byte elements (truncated file?)"
        )));
    }
    let n = bytes / size;
    if !n.is_power_of_two() {
        let count = if n == 1 { "1 element".to_string() } else { format!("{n} elements") };
        return Err(malformed(format!("{count} is not a power of two")));
    }
    Ok(n)
}

/// The number of elements of the binary file `path`, `size` bytes each, as every process sees
/// it (see [`file_elements`]); collective.
pub fn elements_in_file<C: Communicator>(comm: &C, path: &Path, size: u64) -> Result<u64> {
    let bytes = std::fs::metadata(path).map(|m| m.len()).map_err(|e| Error::io(path, e));
    let bytes = agree(comm, bytes)?;
    agree(comm, file_elements(path, bytes, size))
}

impl<R, C> Plan<'_, R, C>
where
    R: Element<Elem: bytemuck::Pod>,
    C: Communicator,
{
    /// The byte offset of this process's block in a binary file.
    fn block_offset(&self) -> u64 {
        self.block_start() * std::mem::size_of::<R::Elem>() as u64
    }

    /// Reads this process's block of the binary file `path` (of [`len`](Plan::len) elements)
    /// into `block`, checking that the ring accepts every element (floats: finite); collective.
    pub fn read_block(&self, path: &Path, block: &mut [R::Elem]) -> Result<()> {
        agree(self.comm(), self.read_block_here(path, block))
    }

    fn read_block_here(&self, path: &Path, block: &mut [R::Elem]) -> Result<()> {
        if block.len() != self.block_len() {
            return Err(Error::LengthMismatch { len: block.len(), plan_len: self.block_len() });
        }
        let file = File::open(path).map_err(|e| Error::io(path, e))?;
        file.read_exact_at(bytemuck::cast_slice_mut(block), self.block_offset())
            .map_err(|e| Error::io(path, e))?;
        R::swap_little_endian(block);
        let ring = self.ring();
        if let Some(i) = block.iter().position(|x| !ring.accepts(x)) {
            return Err(Error::Malformed {
                path: path.display().to_string(),
                line: 0,
                reason: format!(
                    "element {} ({}) is not in the ring {ring}",
                    self.block_start() + i as u64,
                    ring.format_element(block[i])
                ),
            });
        }
        Ok(())
    }

    /// Writes `block` at this process's offset of the file `path`, which must exist (created at
    /// its full length by one process), and syncs it; collective. `block` is unchanged.
    pub fn write_block(&self, path: &Path, block: &mut [R::Elem]) -> Result<()> {
        agree(self.comm(), self.write_block_here(path, block))
    }

    fn write_block_here(&self, path: &Path, block: &mut [R::Elem]) -> Result<()> {
        if block.len() != self.block_len() {
            return Err(Error::LengthMismatch { len: block.len(), plan_len: self.block_len() });
        }
        R::swap_little_endian(block);
        let written = File::options()
            .write(true)
            .open(path)
            .and_then(|f| {
                f.write_all_at(bytemuck::cast_slice(block), self.block_offset()).and_then(|()| f.sync_data())
            })
            .map_err(|e| Error::io(path, e));
        R::swap_little_endian(block);
        written
    }
}
