//! Histogram files: one `value count` pair a line.

use std::path::Path;

use super::Histogram;
use crate::error::{Error, Result};
use crate::input::Input;

/// Memory per byte of a histogram file once parsed, at most: a line `0 1` (4 bytes) becomes a
/// value, a big-integer count and a table entry, about 64 bytes.
const BYTES_PER_TEXT_BYTE: u64 = 16;

impl Histogram {
    /// Reads a histogram file: one `value count` pair a line, `#` starts a comment, blank lines
    /// are ignored. Values are Grundy values (non-negative integers); counts may have any size
    /// and use the notations of [`crate::number::parse`] (`10^12`, `2^64`, `1_000`).
    ///
    /// A line that does not parse, or a value given twice, is an [`Error::Malformed`] naming the
    /// line; so is a file without any `value count` line (an empty histogram has no heap sizes
    /// to count, which is almost always a mistake). A byte-order mark and CRLF line ends are
    /// accepted; `-` is standard input.
    ///
    /// ```
    /// let path = std::env::temp_dir().join(format!("nimcount-doc-{}.txt", std::process::id()));
    /// std::fs::write(&path, "0 5\n1 2^70\n")?;
    /// let h = nimcount::histogram::Histogram::read(&path)?;
    /// assert_eq!(h.count(1), nimcount::number::parse("2^70")?);
    /// std::fs::remove_file(&path)?;
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn read(path: impl AsRef<Path>) -> Result<Self> {
        let limit = crate::memory::available().unwrap_or(u64::MAX) / BYTES_PER_TEXT_BYTE;
        Histogram::read_input(&mut Input::open(path.as_ref(), limit)?)
    }

    /// Reads a histogram file from `input` (a file of known size, refused before reading when
    /// its parsed lines could not fit in memory, or a stream read up to its limit; see
    /// [`Input`]). A binary stream stops at its first line that is not text.
    ///
    /// ```
    /// use nimcount::histogram::Histogram;
    /// use nimcount::input::Input;
    /// let mut input = Input::from_reader("\u{feff}0 5\r\n1 2^70\r\n".as_bytes(), "pipe", 1 << 20);
    /// assert_eq!(Histogram::read_input(&mut input)?.total(), &nimcount::number::parse("2^70+5")?);
    /// # Ok::<(), nimcount::Error>(())
    /// ```
    pub fn read_input(input: &mut Input<'_>) -> Result<Self> {
        if let Some(size) = input.size() {
            input.ensure_fits("its parsed lines", size.saturating_mul(BYTES_PER_TEXT_BYTE))?;
        }
        let text = input.read_text()?;
        Histogram::parse(&text, input.name())
    }

    /// Parses the text of a histogram file (see [`read`](Self::read)); `path` names it in
    /// errors.
    ///
    /// ```
    /// use nimcount::histogram::Histogram;
    /// let h = Histogram::parse("# value count\n0 10^20\n3 7 # three\n\n", "example.txt")?;
    /// assert_eq!(h.count(3).to_string(), "7");
    /// let err = Histogram::parse("0 1\n0 2\n", "dup.txt").unwrap_err();
    /// assert_eq!(err.to_string(), "dup.txt, line 2: value 0 is already given on line 1");
    /// # Ok::<(), nimcount::Error>(())
    /// ```
    pub fn parse(text: &str, path: &str) -> Result<Self> {
        let text = text.strip_prefix('\u{feff}').unwrap_or(text);
        let malformed =
            |line: usize, reason: String| Error::Malformed { path: path.to_string(), line, reason };
        let mut first_line = std::collections::HashMap::new();
        let mut pairs = Vec::new();
        for (index, raw) in text.lines().enumerate() {
            let line = index + 1;
            let content = raw.split('#').next().unwrap_or("").trim();
            if content.is_empty() {
                continue;
            }
            let fields: Vec<&str> = content.split_whitespace().collect();
            if fields.len() != 2 {
                return Err(malformed(
                    line,
                    format!(
                        "expected 'value count', found {} field(s): '{}'",
                        fields.len(),
                        crate::error::quote(content)
                    ),
                ));
            }
            let value = crate::number::parse_u64(fields[0])
                .map_err(|e| malformed(line, format!("bad Grundy value: {e}")))?;
            let count =
                crate::number::parse(fields[1]).map_err(|e| malformed(line, format!("bad count: {e}")))?;
            if let Some(previous) = first_line.insert(value, line) {
                return Err(malformed(line, format!("value {value} is already given on line {previous}")));
            }
            pairs.push((value, count));
        }
        if pairs.is_empty() {
            return Err(malformed(0, "no 'value count' line: the histogram is empty".into()));
        }
        Histogram::from_counts(pairs)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use num_traits::Zero;

    #[test]
    fn malformed_files_name_the_line() {
        for (text, line, reason) in [
            ("0 1\nx 2\n", 2, "bad Grundy value"),
            ("0 1 2\n", 1, "expected 'value count'"),
            ("# c\n\n5\n", 3, "expected 'value count'"),
            ("1 -3\n", 1, "bad count"),
            ("1 2\n1 3\n", 2, "already given on line 1"),
        ] {
            match Histogram::parse(text, "h.txt").unwrap_err() {
                Error::Malformed { path, line: l, reason: r } => {
                    assert_eq!((path.as_str(), l), ("h.txt", line), "{text:?}");
                    assert!(r.contains(reason), "{text:?}: {r}");
                }
                other => panic!("{text:?}: {other}"),
            }
        }
        for empty in ["", "\u{feff}", "# nothing\n\n"] {
            let err = Histogram::parse(empty, "h.txt").unwrap_err().to_string();
            assert_eq!(err, "h.txt: no 'value count' line: the histogram is empty");
        }
        let h = Histogram::parse("\u{feff}0 0\r\n", "zero").unwrap();
        assert_eq!((h.transform_len(), h.total().is_zero()), (1, true));
    }
}
