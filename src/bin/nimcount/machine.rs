//! What the system tells about this machine: the CPU model and its data caches, for the titles
//! and cache marks of the pictures. Linux only; elsewhere nothing is known and nothing is drawn.

use std::path::Path;

/// One data or unified cache level of CPU 0.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Cache {
    /// 1, 2, 3, …
    pub level: u32,
    /// Bytes.
    pub bytes: u64,
}

impl Cache {
    /// `L2 512 KiB`.
    pub fn label(&self) -> String {
        format!("L{} {}", self.level, binary_size(self.bytes))
    }
}

/// The CPU model (`model name` in `/proc/cpuinfo`), if the system says.
pub fn cpu_model() -> Option<String> {
    let info = std::fs::read_to_string("/proc/cpuinfo").ok()?;
    cpu_model_in(&info)
}

fn cpu_model_in(cpuinfo: &str) -> Option<String> {
    cpuinfo.lines().find_map(|line| {
        let (key, value) = line.split_once(':')?;
        let value = value.split_whitespace().collect::<Vec<_>>().join(" ");
        (key.trim() == "model name" && !value.is_empty()).then_some(value)
    })
}

/// The data and unified caches of CPU 0, by level, from
/// `/sys/devices/system/cpu/cpu0/cache/index*/`; empty when the system does not say.
pub fn caches() -> Vec<Cache> {
    caches_in(Path::new("/sys/devices/system/cpu/cpu0/cache"))
}

fn caches_in(dir: &Path) -> Vec<Cache> {
    let Ok(entries) = std::fs::read_dir(dir) else { return Vec::new() };
    let mut caches: Vec<Cache> = entries
        .flatten()
        .filter(|e| e.file_name().to_string_lossy().starts_with("index"))
        .filter_map(|e| {
            let read = |name: &str| std::fs::read_to_string(e.path().join(name)).ok();
            let kind = read("type")?;
            if !matches!(kind.trim(), "Data" | "Unified") {
                return None;
            }
            let level = read("level")?.trim().parse().ok()?;
            let bytes = parse_size(read("size")?.trim())?;
            Some(Cache { level, bytes })
        })
        .collect();
    caches.sort_by_key(|c| c.level);
    caches.dedup_by_key(|c| c.level);
    caches
}

/// `32K`, `512K`, `32768K`, `1M`, `64` (bytes) as the kernel writes cache sizes.
fn parse_size(text: &str) -> Option<u64> {
    let (digits, unit) = match text.char_indices().find(|(_, c)| !c.is_ascii_digit()) {
        Some((i, _)) => text.split_at(i),
        None => (text, ""),
    };
    let shift = match unit {
        "" => 0,
        "K" => 10,
        "M" => 20,
        "G" => 30,
        _ => return None,
    };
    digits.parse::<u64>().ok()?.checked_mul(1 << shift).filter(|&b| b > 0)
}

/// `32 KiB`, `32 MiB`, `1.5 MiB`.
pub fn binary_size(bytes: u64) -> String {
    let units = ["B", "KiB", "MiB", "GiB", "TiB"];
    let mut value = bytes as f64;
    let mut unit = 0;
    while value >= 1024.0 && unit + 1 < units.len() {
        value /= 1024.0;
        unit += 1;
    }
    if value.fract() == 0.0 {
        format!("{value} {}", units[unit])
    } else {
        format!("{value:.1} {}", units[unit])
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes_as_the_kernel_writes_them() {
        assert_eq!(parse_size("32K"), Some(32 << 10));
        assert_eq!(parse_size("32768K"), Some(32 << 20));
        assert_eq!(parse_size("1M"), Some(1 << 20));
        assert_eq!(parse_size("64"), Some(64));
        assert_eq!(parse_size("0K"), None);
        assert_eq!(parse_size("12X"), None);
        assert_eq!(parse_size(""), None);
        assert_eq!(binary_size(32 << 10), "32 KiB");
        assert_eq!(binary_size(32 << 20), "32 MiB");
        assert_eq!(binary_size(3 << 19), "1.5 MiB");
        assert_eq!(binary_size(100), "100 B");
    }

    #[test]
    fn caches_from_a_directory_like_sysfs() {
        let dir = tempfile::tempdir().unwrap();
        let write = |index: &str, level: &str, kind: &str, size: &str| {
            let d = dir.path().join(index);
            std::fs::create_dir(&d).unwrap();
            std::fs::write(d.join("level"), format!("{level}\n")).unwrap();
            std::fs::write(d.join("type"), format!("{kind}\n")).unwrap();
            std::fs::write(d.join("size"), format!("{size}\n")).unwrap();
        };
        write("index3", "3", "Unified", "32768K");
        write("index0", "1", "Data", "48K");
        write("index1", "1", "Instruction", "32K");
        write("index2", "2", "Unified", "1024K");
        std::fs::create_dir(dir.path().join("uevent_like")).unwrap();
        let caches = caches_in(dir.path());
        assert_eq!(
            caches,
            [
                Cache { level: 1, bytes: 48 << 10 },
                Cache { level: 2, bytes: 1 << 20 },
                Cache { level: 3, bytes: 32 << 20 }
            ]
        );
        assert_eq!(caches[1].label(), "L2 1 MiB");
        assert!(caches_in(&dir.path().join("missing")).is_empty());
    }

    #[test]
    fn model_name() {
        let info = "processor\t: 0\nvendor_id\t: AuthenticAMD\nmodel name\t: AMD EPYC  9654 96-Core\n";
        assert_eq!(cpu_model_in(info).as_deref(), Some("AMD EPYC 9654 96-Core"));
        assert_eq!(cpu_model_in("processor : 0\n"), None);
        assert_eq!(cpu_model_in("model name :   \n"), None);
    }
}
