//! Memory estimates: large buffers are refused with a clear error before they are allocated.
//!
//! What a process may still allocate is the least of what the system and its limits leave:
//! the physical memory available (`MemAvailable`), the room under the address-space limit
//! (`RLIMIT_AS`, set by `ulimit -v`: the limit less the address space already mapped), and the
//! room under a memory cgroup (v2 `memory.max`, v1 `memory.limit_in_bytes`, less the memory the
//! cgroup already uses). Inside `ulimit -v` or a container the checks refuse what the
//! allocation would otherwise abort on.

use crate::error::{Bytes, Error, Result};

/// Bytes of memory this process can still expect to obtain, if the platform says: the least of
/// [`physical_room`], [`address_space_room`] and [`cgroup_room`]. Elsewhere than on Linux `None`.
pub fn available() -> Option<u64> {
    [physical_room(), address_space_room(), cgroup_room()].into_iter().flatten().min()
}

/// `MemAvailable` from `/proc/meminfo`, in bytes.
pub fn physical_room() -> Option<u64> {
    mem_available(&std::fs::read_to_string("/proc/meminfo").ok()?)
}

/// `MemAvailable` of the text of `/proc/meminfo`, in bytes.
pub(crate) fn mem_available(meminfo: &str) -> Option<u64> {
    meminfo
        .lines()
        .find_map(|line| line.strip_prefix("MemAvailable:"))
        .and_then(|rest| rest.trim().strip_suffix("kB"))
        .and_then(|kb| kb.trim().parse::<u64>().ok())
        .map(|kb| kb.saturating_mul(1024))
}

/// The room under the address-space limit (`RLIMIT_AS`, `ulimit -v`), if there is one: the
/// soft limit from `/proc/self/limits` less the address space mapped now (`/proc/self/statm`).
pub fn address_space_room() -> Option<u64> {
    let limit = address_space_limit(&std::fs::read_to_string("/proc/self/limits").ok()?)?;
    let mapped = mapped_bytes(&std::fs::read_to_string("/proc/self/statm").ok()?)?;
    Some(limit.saturating_sub(mapped))
}

/// The soft `Max address space` of the text of `/proc/self/limits`, `None` when unlimited.
pub(crate) fn address_space_limit(limits: &str) -> Option<u64> {
    let rest = limits.lines().find_map(|line| line.strip_prefix("Max address space"))?;
    rest.split_whitespace().next()?.parse::<u64>().ok() // "unlimited" fails to parse
}

/// The bytes mapped by the process from the text of `/proc/self/statm` (its first field counts
/// pages; pages are taken to be 4 KiB, the smallest Linux uses, so a larger page size only makes
/// the room look larger than it is — never smaller).
pub(crate) fn mapped_bytes(statm: &str) -> Option<u64> {
    let pages = statm.split_whitespace().next()?.parse::<u64>().ok()?;
    Some(pages.saturating_mul(4096))
}

/// Limits at or above 2^62 bytes mean no limit (cgroup v1 writes "unlimited" as about 2^63).
const NO_LIMIT: u64 = 1 << 62;

/// The remaining allowance under a memory cgroup, if there is one: cgroup v2 `memory.max` less
/// `memory.current`, or v1 `memory.limit_in_bytes` less `memory.usage_in_bytes`, for the
/// process's own cgroup (from `/proc/self/cgroup`) and each cgroup above it, the least of them;
/// the root of `/sys/fs/cgroup` when the process's own path is not visible (inside a cgroup
/// namespace the root is the process's own cgroup).
pub fn cgroup_room() -> Option<u64> {
    let memberships = std::fs::read_to_string("/proc/self/cgroup").unwrap_or_default();
    let mut rooms = Vec::new();
    for (version, base, path) in cgroup_paths(&memberships) {
        let (max, current) = match version {
            2 => ("memory.max", "memory.current"),
            _ => ("memory.limit_in_bytes", "memory.usage_in_bytes"),
        };
        let read = |dir: &str, name: &str| {
            std::fs::read_to_string(format!("{base}{dir}/{name}")).ok()?.trim().parse::<u64>().ok()
        };
        // The cgroup and each one above it, up to the root of the mount.
        let mut dir = path.trim_end_matches('/').to_string();
        loop {
            if let (Some(max), Some(current)) = (read(&dir, max), read(&dir, current))
                && max < NO_LIMIT
            {
                rooms.push(max.saturating_sub(current));
            }
            match dir.rfind('/') {
                Some(cut) => dir.truncate(cut),
                None => break,
            }
        }
    }
    rooms.into_iter().min()
}

/// The memory cgroups of the text of `/proc/self/cgroup` as `(version, mount, path)`: the
/// unified hierarchy (`0::/path`) under `/sys/fs/cgroup` and a v1 `memory` controller under
/// `/sys/fs/cgroup/memory`; both at the root path when the file says nothing.
pub(crate) fn cgroup_paths(memberships: &str) -> Vec<(u32, &'static str, String)> {
    let mut paths = Vec::new();
    for line in memberships.lines() {
        let mut fields = line.splitn(3, ':');
        let (Some(id), Some(controllers), Some(path)) = (fields.next(), fields.next(), fields.next()) else {
            continue;
        };
        if id == "0" && controllers.is_empty() {
            paths.push((2, "/sys/fs/cgroup", path.to_string()));
        } else if controllers.split(',').any(|c| c == "memory") {
            paths.push((1, "/sys/fs/cgroup/memory", path.to_string()));
        }
    }
    if paths.is_empty() {
        paths = vec![(2, "/sys/fs/cgroup", String::new()), (1, "/sys/fs/cgroup/memory", String::new())];
    }
    paths
}

/// Requests of at most this many bytes pass [`ensure_fits`] without asking the system: reading
/// its limits (a dozen small files) costs about what touching a mebibyte does, and a process
/// that has less than that left cannot go on anyway. The buffers of this module are still
/// allocated fallibly, so a small request that fails is an error, not an abort.
pub const UNCHECKED_BYTES: u64 = 1 << 20;

/// Refuses an allocation of `bytes` for `what` when it cannot fit in the memory available.
///
/// Requests of at most [`UNCHECKED_BYTES`] pass without a look at the system. Platforms that do
/// not report available memory pass every request: the allocation itself then decides.
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
    fits(what, bytes, available)
}

/// [`ensure_fits`] against the room `room` reports, asked only for requests above
/// [`UNCHECKED_BYTES`].
pub(crate) fn fits(
    what: impl FnOnce() -> String,
    bytes: u64,
    room: impl FnOnce() -> Option<u64>,
) -> Result<()> {
    if bytes <= UNCHECKED_BYTES {
        return Ok(());
    }
    match room() {
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

/// An empty vector with room for `len` elements, refused with [`Error::OutOfMemory`] instead of
/// aborting: checked against [`available`] first, then allocated fallibly (an address-space
/// limit the check could not see still gives the error, never an abort).
pub fn vec_with_capacity<T>(what: impl Fn() -> String, len: usize) -> Result<Vec<T>> {
    let bytes = bytes_for::<T>(&what, len as u128)?;
    ensure_fits(&what, bytes)?;
    let mut v = Vec::new();
    v.try_reserve_exact(len).map_err(|_| Error::OutOfMemory {
        what: what(),
        needed: Bytes(bytes),
        available: Bytes(available().unwrap_or(0)),
    })?;
    Ok(v)
}

/// Makes room in `v` for `additional` more elements, doubling its capacity (at least), each
/// step checked and allocated as [`vec_with_capacity`] does: the growth of a buffer whose final
/// size is not known in advance (a stream), refused instead of aborting.
pub fn reserve<T>(v: &mut Vec<T>, what: impl Fn() -> String, additional: usize) -> Result<()> {
    if v.capacity() - v.len() >= additional {
        return Ok(());
    }
    let wanted = v.len().checked_add(additional).map(|n| n.max(2 * v.capacity()).max(64));
    let wanted = wanted.unwrap_or(usize::MAX);
    let bytes = bytes_for::<T>(&what, wanted as u128)?;
    ensure_fits(&what, bytes)?;
    v.try_reserve_exact(wanted - v.len()).map_err(|_| Error::OutOfMemory {
        what: what(),
        needed: Bytes(bytes),
        available: Bytes(available().unwrap_or(0)),
    })
}

/// A copy of `src`, refused as [`vec_with_capacity`] refuses its room.
pub fn copy_of<T: Clone>(what: impl Fn() -> String, src: &[T]) -> Result<Vec<T>> {
    let mut v = vec_with_capacity(what, src.len())?;
    v.extend_from_slice(src);
    Ok(v)
}

/// Copies of `a` and `b`, refused before either is made when both cannot fit (the working
/// copies of a convolution's operands).
pub fn copies_of<T: Clone>(what: impl Fn() -> String, a: &[T], b: &[T]) -> Result<(Vec<T>, Vec<T>)> {
    let both = bytes_for::<T>(&what, a.len() as u128 + b.len() as u128)?;
    ensure_fits(&what, both)?;
    Ok((copy_of(&what, a)?, copy_of(&what, b)?))
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
