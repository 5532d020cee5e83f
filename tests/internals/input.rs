mod tests {
    use nimcount::internals::input::*;

    use nimcount::internals::error::{Error, Result};

    fn text(bytes: &[u8], limit: u64) -> Result<String> {
        Input::from_reader(std::io::Cursor::new(bytes.to_vec()), "t", limit).read_text()
    }

    #[test]
    fn text_is_checked_as_it_arrives() {
        assert_eq!(text(b"", 10).unwrap(), "");
        assert_eq!(text("\u{feff}".as_bytes(), 10).unwrap(), "");
        assert_eq!(text("é\n".as_bytes(), 3).unwrap(), "é\n");
        // Only a BOM at the very start is removed.
        assert_eq!(text("1\n\u{feff}".as_bytes(), 10).unwrap(), "1\n\u{feff}");
        let msg = |bytes: &[u8]| text(bytes, 100).unwrap_err().to_string();
        assert_eq!(msg(b"1\n2\n\x003\n"), "t, line 3: a NUL byte: not a text file");
        assert_eq!(msg(b"1\n\xff\n"), "t, line 2: invalid UTF-8: not a text file");
        assert_eq!(msg(b"1\n\xc3"), "t, line 2: invalid UTF-8: not a text file");
        assert_eq!(text(b"12345", 5).unwrap(), "12345");
        assert!(text(b"123456", 5).unwrap_err().to_string().contains("more than 5 B"));
        // A character split between two chunks of the reader is put back together.
        let mut long = "a".repeat((1 << 16) - 1).into_bytes();
        long.extend_from_slice("é\n".as_bytes());
        assert_eq!(text(&long, 1 << 20).unwrap().len(), long.len());
    }

    #[test]
    fn endless_streams_stop_at_the_limit() {
        let mut input = Input::from_reader(std::io::repeat(0), "zeros", 1 << 20);
        let mut buf = vec![0u8; 1 << 21];
        let err = input.read_into(&mut buf).unwrap_err();
        assert!(matches!(err, Error::InputTooLarge { .. }), "{err}");
        let err = Input::from_reader(std::io::repeat(0), "zeros", 1 << 20).read_text().unwrap_err();
        assert_eq!(err.to_string(), "zeros, line 1: a NUL byte: not a text file");
    }

    #[test]
    fn files_are_read_up_to_their_size_and_directories_refused() {
        let dir = std::env::temp_dir().join(format!("nimcount-input-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("a.txt");
        std::fs::write(&path, "0 1\n").unwrap();
        let mut input = Input::open(&path, 1).unwrap();
        assert_eq!((input.size(), input.limit()), (Some(4), 4));
        assert_eq!(input.read_text().unwrap(), "0 1\n");
        let err = Input::open(&dir, 1 << 20).unwrap_err().to_string();
        assert!(err.ends_with("is a directory, not a file"), "{err}");
        let err = Input::open(&dir.join("missing"), 1).unwrap_err().to_string();
        assert!(err.contains("missing"), "{err}");
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
