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
}
