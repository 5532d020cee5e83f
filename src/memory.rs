//! Memory estimates: large buffers are refused with a clear error before they are allocated.

use crate::error::{Bytes, Error, Result};

/// Bytes of memory this process can still expect to obtain, if the platform says.
///
/// On Linux this is `MemAvailable` from `/proc/meminfo`, lowered to the cgroup's remaining
/// allowance when the process runs under a memory limit. Elsewhere `None`.
pub fn available() -> Option<u64> {
    let meminfo = std::fs::read_to_string("/proc/meminfo").ok()?;
    let mut available = meminfo
        .lines()
        .find_map(|line| line.strip_prefix("MemAvailable:"))
        .and_then(|rest| rest.trim().strip_suffix("kB"))
        .and_then(|kb| kb.trim().parse::<u64>().ok())
        .map(|kb| kb.saturating_mul(1024))?;
    if let Some(room) = cgroup_room() {
        available = available.min(room);
    }
    Some(available)
}

/// Remaining allowance under a cgroup v2 memory limit, if there is one.
fn cgroup_room() -> Option<u64> {
    let read = |name: &str| std::fs::read_to_string(format!("/sys/fs/cgroup/{name}")).ok();
    let max = read("memory.max")?.trim().parse::<u64>().ok()?; // "max" (no limit) fails to parse
    let current = read("memory.current")?.trim().parse::<u64>().ok()?;
    Some(max.saturating_sub(current))
}

/// Refuses an allocation of `bytes` for `what` when it cannot fit in the memory available.
///
/// Platforms that do not report available memory pass every request: the allocation itself
/// then decides.
///
/// ```
/// use nimcount::memory::ensure_fits;
/// assert!(ensure_fits(|| "a small table".into(), 1 << 10).is_ok());
/// if nimcount::memory::available().is_some() {
///     let err = ensure_fits(|| "a table of 2^70 bytes".into(), u64::MAX).unwrap_err();
///     assert!(err.to_string().starts_with("a table of 2^70 bytes needs more than 16 EiB"));
/// }
/// ```
pub fn ensure_fits(what: impl FnOnce() -> String, bytes: u64) -> Result<()> {
    match available() {
        Some(room) if bytes > room => {
            Err(Error::OutOfMemory { what: what(), needed: Bytes(bytes), available: Bytes(room) })
        }
        _ => Ok(()),
    }
}

/// Bytes taken by `len` elements of `T`, or an error when that does not even fit in `u64`.
pub fn bytes_for<T>(what: impl FnOnce() -> String, len: u128) -> Result<u64> {
    len.checked_mul(std::mem::size_of::<T>() as u128).and_then(|b| u64::try_from(b).ok()).ok_or_else(|| {
        Error::OutOfMemory {
            what: what(),
            needed: Bytes(u64::MAX),
            available: Bytes(available().unwrap_or(0)),
        }
    })
}

/// A zero-initialised buffer of `len` elements for large transforms.
///
/// Anonymous memory aligned to 2 MiB and advised to use transparent huge pages where the system
/// offers them (on Linux with `transparent_hugepage` set to `madvise` or `always`). Huge pages
/// make the buffer physically contiguous in 2 MiB pieces, so its cache-set mapping — and with it
/// the transform's speed — no longer depends on where the kernel happened to place 4 KiB pages,
/// and touching it for the first time costs a few page faults instead of thousands.
///
/// ```
/// let mut buffer = nimcount::memory::LargeBuffer::<u32>::zeroed(|| "an example".into(), 1 << 20)?;
/// buffer[12345] = 7;
/// nimcount::fwht::forward(nimcount::ring::Wrap32, &mut buffer)?;
/// # Ok::<(), nimcount::Error>(())
/// ```
pub struct LargeBuffer<T> {
    map: memmap2::MmapMut,
    offset: usize,
    len: usize,
    _elements: std::marker::PhantomData<T>,
}

impl<T: bytemuck::Pod> LargeBuffer<T> {
    /// `len` zeros, refused with [`Error::OutOfMemory`] when they cannot fit.
    pub fn zeroed(what: impl Fn() -> String, len: usize) -> Result<Self> {
        const HUGE_PAGE: usize = 2 << 20;
        // Room for the data plus up to one huge page of alignment slack, without overflow.
        let bytes = bytes_for::<T>(&what, len as u128)?;
        let mapped =
            bytes.checked_add(HUGE_PAGE as u64).and_then(|b| usize::try_from(b).ok()).ok_or_else(|| {
                Error::OutOfMemory {
                    what: what(),
                    needed: Bytes(bytes),
                    available: Bytes(available().unwrap_or(0)),
                }
            })?;
        ensure_fits(&what, mapped as u64)?;
        let map = memmap2::MmapMut::map_anon(mapped)
            .map_err(|source| Error::Io { path: format!("<memory for {}>", what()), source })?;
        let start = map.as_ptr() as usize;
        let offset = start.next_multiple_of(HUGE_PAGE) - start;
        // Best effort: without huge pages the buffer works the same, only slower.
        #[cfg(unix)]
        let _ = map.advise(memmap2::Advice::HugePage);
        Ok(LargeBuffer { map, offset, len, _elements: std::marker::PhantomData })
    }
}

impl<T: bytemuck::Pod> std::ops::Deref for LargeBuffer<T> {
    type Target = [T];
    fn deref(&self) -> &[T] {
        let bytes = self.len * std::mem::size_of::<T>();
        bytemuck::cast_slice(&self.map[self.offset..self.offset + bytes])
    }
}

impl<T: bytemuck::Pod> std::ops::DerefMut for LargeBuffer<T> {
    fn deref_mut(&mut self) -> &mut [T] {
        let bytes = self.len * std::mem::size_of::<T>();
        bytemuck::cast_slice_mut(&mut self.map[self.offset..self.offset + bytes])
    }
}

impl<T: bytemuck::Pod + std::fmt::Debug> std::fmt::Debug for LargeBuffer<T> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("LargeBuffer").field("len", &self.len).finish_non_exhaustive()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_absurd_request_is_refused() {
        if available().is_none() {
            eprintln!("skipped: this platform does not report available memory");
            return;
        }
        let err = ensure_fits(|| "a test buffer".into(), u64::MAX).unwrap_err();
        assert!(err.to_string().starts_with("a test buffer needs"), "{err}");
        ensure_fits(|| "a small buffer".into(), 1024).unwrap();
    }

    #[test]
    fn byte_counts_that_overflow_are_refused() {
        assert!(bytes_for::<u64>(|| "x".into(), u128::MAX).is_err());
        assert_eq!(bytes_for::<u32>(|| "x".into(), 1 << 20).unwrap(), 4 << 20);
    }

    #[test]
    fn large_buffers_are_zeroed_writable_and_refused_when_absurd() {
        let mut b = LargeBuffer::<u64>::zeroed(|| "a test buffer".into(), 3 << 19).unwrap();
        assert_eq!(b.len(), 3 << 19);
        assert!(b.iter().all(|&x| x == 0));
        b[0] = 1;
        b[(3 << 19) - 1] = 2;
        assert_eq!(b.iter().sum::<u64>(), 3);
        assert_eq!(LargeBuffer::<u8>::zeroed(|| "nothing".into(), 0).unwrap().len(), 0);
        if available().is_some() {
            assert!(LargeBuffer::<u64>::zeroed(|| "too much".into(), usize::MAX / 8).is_err());
        }
    }
}
