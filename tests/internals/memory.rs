mod tests {
    use nimcount::internals::memory::*;

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
    fn small_requests_pass_without_asking_and_larger_ones_are_measured() {
        let never = || -> Option<u64> { panic!("the room was asked for a small request") };
        fits(|| "small".into(), 0, never).unwrap();
        fits(|| "small".into(), UNCHECKED_BYTES, never).unwrap();
        let err = fits(|| "a buffer".into(), UNCHECKED_BYTES + 1, || Some(UNCHECKED_BYTES)).unwrap_err();
        assert!(err.to_string().starts_with("a buffer needs"), "{err}");
        fits(|| "a buffer".into(), UNCHECKED_BYTES + 1, || Some(UNCHECKED_BYTES + 1)).unwrap();
        fits(|| "a buffer".into(), u64::MAX, || None).unwrap();
    }

    #[test]
    fn limits_are_read_from_the_proc_files() {
        let meminfo = "MemTotal:       24000000 kB\nMemFree:  100 kB\nMemAvailable:   22000000 kB\n";
        assert_eq!(mem_available(meminfo), Some(22_000_000 * 1024));
        assert_eq!(mem_available("MemTotal: 5 kB\n"), None);
        let limits = "Limit                     Soft Limit           Hard Limit           Units     \n\
                      Max stack size            8388608              unlimited            bytes     \n\
                      Max address space         4096000000           unlimited            bytes     \n";
        assert_eq!(address_space_limit(limits), Some(4_096_000_000));
        let unlimited = limits.replace("4096000000  ", "unlimited   ");
        assert_eq!(address_space_limit(&unlimited), None);
        assert_eq!(mapped_bytes("765 436 408 5 0 123 0\n"), Some(765 * 4096));
        assert_eq!(mapped_bytes(""), None);
    }

    #[test]
    fn cgroups_of_both_versions_are_found() {
        let v1 = "9:name=systemd:/\n4:memory:/jobs/42\n3:cpuset:/\n0::/\n";
        assert_eq!(
            cgroup_paths(v1),
            vec![
                (1, "/sys/fs/cgroup/memory", "/jobs/42".to_string()),
                (2, "/sys/fs/cgroup", "/".to_string())
            ]
        );
        assert_eq!(
            cgroup_paths("0::/user.slice/session-3.scope\n"),
            vec![(2, "/sys/fs/cgroup", "/user.slice/session-3.scope".to_string())]
        );
        assert_eq!(cgroup_paths("4:cpu,memory:/a\n")[0].0, 1);
        assert_eq!(cgroup_paths("").len(), 2);
    }

    #[test]
    fn the_room_is_the_least_of_the_limits() {
        let Some(room) = available() else { return };
        for limit in [physical_room(), address_space_room(), cgroup_room()].into_iter().flatten() {
            assert!(room <= limit);
        }
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
