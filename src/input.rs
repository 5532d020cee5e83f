//! Reading input files with a limit known before reading: the size of a regular file, or for a
//! stream (a pipe, standard input, a device such as `/dev/zero`) a number of bytes after which
//! reading stops with [`Error::InputTooLarge`] — an endless stream never exhausts memory.
//!
//! The path `-` is standard input. Text is checked as it arrives: a byte-order mark at the start
//! is skipped, a NUL byte or invalid UTF-8 is refused with its line, so a binary stream given as
//! text stops at its first bad line instead of being read to the end.
//!
//! ```
//! use nimcount::input::Input;
//! let mut input = Input::from_reader("\u{feff}3\r\n1\r\n".as_bytes(), "x.txt", 1 << 20);
//! assert_eq!(input.read_text()?, "3\r\n1\r\n");
//!
//! let endless = std::io::repeat(b'7');
//! let err = Input::from_reader(endless, "a pipe", 1000).read_text().unwrap_err();
//! assert_eq!(err.to_string(), "a pipe: a stream of more than 1000 B without an end; the limit is 1000 B");
//! # Ok::<(), nimcount::Error>(())
//! ```

use std::io::Read;
use std::path::Path;

use crate::error::{Bytes, Error, Result};

/// The name standard input has in messages.
pub const STDIN_NAME: &str = "standard input";

/// An input being read: a file of known size, or a stream read up to a limit.
pub struct Input<'a> {
    reader: Box<dyn Read + 'a>,
    name: String,
    size: Option<u64>,
    limit: u64,
    read: u64,
}

impl std::fmt::Debug for Input<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Input")
            .field("name", &self.name)
            .field("size", &self.size)
            .field("limit", &self.limit)
            .finish_non_exhaustive()
    }
}

impl Input<'static> {
    /// Opens `path` (`-`: standard input). A regular file is read up to its size (known now, from
    /// its metadata); anything else — standard input, a pipe, a character device — is a stream
    /// read up to `stream_limit` bytes. A directory is refused.
    pub fn open(path: &Path, stream_limit: u64) -> Result<Input<'static>> {
        if path.as_os_str() == "-" {
            return Ok(Input::from_reader(std::io::stdin(), STDIN_NAME, stream_limit));
        }
        let name = crate::message::path(path);
        let file = std::fs::File::open(path).map_err(|e| Error::io(&name, e))?;
        let metadata = file.metadata().map_err(|e| Error::io(&name, e))?;
        if metadata.is_dir() {
            return Err(Error::Malformed {
                path: name,
                line: 0,
                reason: "is a directory, not a file".into(),
            });
        }
        let mut input = Input::from_reader(file, &name, stream_limit);
        if metadata.is_file() {
            input.size = Some(metadata.len());
            input.limit = metadata.len();
        }
        Ok(input)
    }
}

impl<'a> Input<'a> {
    /// A stream read up to `limit` bytes, called `name` in messages.
    pub fn from_reader(reader: impl Read + 'a, name: &str, limit: u64) -> Input<'a> {
        Input { reader: Box::new(reader), name: name.to_string(), size: None, limit, read: 0 }
    }

    /// The name of the input in messages (standard input is [`STDIN_NAME`]).
    pub fn name(&self) -> &str {
        &self.name
    }

    /// The size of a regular file, known before reading; `None` for a stream.
    pub fn size(&self) -> Option<u64> {
        self.size
    }

    /// The most bytes that will be read: the file's size, or the stream's limit.
    pub fn limit(&self) -> u64 {
        self.limit
    }

    /// Refuses, before reading, an input whose contents would need `bytes` bytes of memory
    /// (estimated from the file's size) for `what` when they cannot fit.
    pub fn ensure_fits(&self, what: &str, bytes: u64) -> Result<()> {
        crate::memory::ensure_fits(|| format!("{}: {what}", self.name), bytes)
    }

    /// Fills `buf` as far as the input goes; returns the bytes read (fewer only at the end).
    /// Refuses an input that goes on past its limit.
    pub fn read_into(&mut self, buf: &mut [u8]) -> Result<usize> {
        let mut filled = 0;
        while filled < buf.len() {
            // Ask for one byte beyond the limit, to tell "exactly the limit" from "more".
            let room = (self.limit - self.read).saturating_add(1);
            let want = (buf.len() - filled).min(usize::try_from(room).unwrap_or(usize::MAX));
            match self.reader.read(&mut buf[filled..filled + want]) {
                Ok(0) => break,
                Ok(n) => {
                    filled += n;
                    self.read += n as u64;
                    if self.read > self.limit {
                        return Err(self.too_large());
                    }
                }
                Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
                Err(e) => return Err(Error::io(&self.name, e)),
            }
        }
        Ok(filled)
    }

    fn too_large(&self) -> Error {
        let what = match self.size {
            Some(size) => format!("grew past its size of {} while being read", Bytes(size)),
            None => format!("a stream of more than {} without an end", Bytes(self.limit)),
        };
        Error::InputTooLarge { path: self.name.clone(), what, limit: Bytes(self.limit) }
    }

    /// The whole input as text: UTF-8 without NUL bytes, a leading byte-order mark removed.
    /// A bad byte is refused with its line as soon as it arrives.
    pub fn read_text(&mut self) -> Result<String> {
        let mut bytes: Vec<u8> = Vec::new();
        let mut checked = 0; // bytes of `bytes` known to be valid
        let mut lines_before = 1; // the line number of bytes[checked]
        let mut chunk = vec![0u8; 1 << 16];
        loop {
            let n = self.read_into(&mut chunk)?;
            crate::memory::reserve(&mut bytes, || format!("{}: its text", self.name), n)?;
            bytes.extend_from_slice(&chunk[..n]);
            let end = n == 0;
            let (valid, bad) = match std::str::from_utf8(&bytes[checked..]) {
                Ok(s) => (s.len(), None),
                // An incomplete character at the end of a chunk is completed by the next one.
                Err(e) if e.error_len().is_none() && !end => (e.valid_up_to(), None),
                Err(e) => (e.valid_up_to(), Some("invalid UTF-8: not a text file")),
            };
            let fresh = &bytes[checked..checked + valid];
            if let Some(nul) = fresh.iter().position(|&b| b == 0) {
                let line = lines_before + fresh[..nul].iter().filter(|&&b| b == b'\n').count();
                return Err(self.bad_text(line, "a NUL byte: not a text file"));
            }
            lines_before += fresh.iter().filter(|&&b| b == b'\n').count();
            checked += valid;
            if let Some(reason) = bad {
                return Err(self.bad_text(lines_before, reason));
            }
            if end {
                break;
            }
        }
        let mut text = String::from_utf8(bytes).expect("checked");
        if text.starts_with('\u{feff}') {
            text.drain(..'\u{feff}'.len_utf8());
        }
        Ok(text)
    }

    fn bad_text(&self, line: usize, reason: &str) -> Error {
        Error::Malformed { path: self.name.clone(), line, reason: reason.into() }
    }
}
