mod tests {

    use nimcount::internals::distributed::file::*;

    use std::path::Path;

    #[test]
    fn a_file_holds_a_power_of_two_of_whole_elements() {
        let path = Path::new("x.bin");
        assert_eq!(file_elements(path, 8, 4).unwrap(), 2);
        assert_eq!(file_elements(path, 4, 4).unwrap(), 1);
        assert_eq!(file_elements(path, 1 << 40, 16).unwrap(), 1 << 36);
        let reason = |bytes, size| file_elements(path, bytes, size).unwrap_err().to_string();
        assert_eq!(reason(6, 4), "x.bin: 6 bytes is not a whole number of 4-byte elements (truncated file?)");
        assert_eq!(reason(12, 4), "x.bin: 3 elements is not a power of two");
        assert_eq!(reason(0, 8), "x.bin: 0 elements is not a power of two");
        assert!(reason(8, 0).contains("0-byte elements"));
        assert_eq!(reason(u64::MAX, 1), format!("x.bin: {} elements is not a power of two", u64::MAX));
    }
}
