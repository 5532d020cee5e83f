//! Ring elements in files: little-endian words back to back, or one number per line.
//!
//! ```
//! use nimcount::elements::{self, Format};
//! use nimcount::ring::Mod32;
//!
//! let ring = Mod32::new(998_244_353)?;
//! let data = elements::read(&ring, "# values\n3\n1\n\n4\n1\n".as_bytes(), "x.txt", Format::Text)?;
//! assert_eq!(data, [3, 1, 4, 1]);
//! let mut bytes = Vec::new();
//! elements::write(&ring, &mut bytes, &data, Format::Binary).unwrap();
//! assert_eq!(bytes.len(), 16);
//! assert_eq!(elements::read(&ring, &bytes[..], "x.bin", Format::Binary)?, data);
//! # Ok::<(), nimcount::Error>(())
//! ```

use std::io::{Read, Write};

use crate::error::{Error, Result, quote};
use crate::input::Input;
use crate::ring::{Exact64, Exact128, Float32, Float64, Mod32, Mod64, Ring, Wrap32, Wrap64};

/// How elements are written in a file.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum Format {
    /// Little-endian elements back to back (4 bytes for `u32`, `f32`; 8 for `u64`, `i64`, `f64`;
    /// 16 for `i128`).
    Binary,
    /// One decimal number per line; blank lines and lines starting with `#` are skipped.
    Text,
}

/// What reading and writing files needs of a ring's elements.
pub trait Element: Ring<Elem: bytemuck::Pod> {
    /// Parses one element written in decimal (floats: any Rust float syntax), checking that the
    /// ring accepts it.
    fn parse_element(&self, text: &str) -> Result<Self::Elem>;
    /// Formats one element so that [`parse_element`](Element::parse_element) reads it back
    /// exactly.
    fn format_element(&self, x: Self::Elem) -> String;
    /// Whether a file may hold `x`: an element of the ring, and for floating-point rings a
    /// finite number (a file with `inf` or `NaN` is refused, though the rings compute with them).
    fn accepts(&self, x: &Self::Elem) -> bool {
        self.is_valid(x)
    }
    /// Converts between little-endian file order and native order (a no-op on little-endian
    /// hosts; the conversion is its own inverse).
    fn swap_little_endian(data: &mut [Self::Elem]);
}

fn not_a_number(text: &str, what: &str) -> Error {
    Error::InvalidNumber { input: quote(text), reason: format!("not {what}") }
}

macro_rules! integer_element {
    ($ring:ty, $t:ty, $what:expr) => {
        impl Element for $ring {
            fn parse_element(&self, text: &str) -> Result<$t> {
                let x: $t = text.parse().map_err(|_| not_a_number(text, $what))?;
                if self.is_valid(&x) {
                    Ok(x)
                } else {
                    Err(Error::InvalidNumber {
                        input: quote(text),
                        reason: format!("not an element of {self}"),
                    })
                }
            }
            fn format_element(&self, x: $t) -> String {
                x.to_string()
            }
            fn swap_little_endian(data: &mut [$t]) {
                if cfg!(target_endian = "big") {
                    data.iter_mut().for_each(|x| *x = <$t>::from_le(*x));
                }
            }
        }
    };
}

integer_element!(Mod32, u32, "an integer in 0..2^32");
integer_element!(Mod64, u64, "an integer in 0..2^64");
integer_element!(Wrap32, u32, "an integer in 0..2^32");
integer_element!(Wrap64, u64, "an integer in 0..2^64");
integer_element!(Exact64, i64, "an integer in -2^63..2^63");
integer_element!(Exact128, i128, "an integer in -2^127..2^127");

macro_rules! float_element {
    ($ring:ty, $t:ty, $bits:ty) => {
        impl Element for $ring {
            fn parse_element(&self, text: &str) -> Result<$t> {
                let x = text.parse::<$t>().map_err(|_| not_a_number(text, "a number"))?;
                if x.is_finite() { Ok(x) } else { Err(not_a_number(text, "a finite number")) }
            }
            fn accepts(&self, x: &$t) -> bool {
                x.is_finite()
            }
            /// `{:?}` is the shortest text that reads back to the same bits.
            fn format_element(&self, x: $t) -> String {
                format!("{x:?}")
            }
            fn swap_little_endian(data: &mut [$t]) {
                if cfg!(target_endian = "big") {
                    data.iter_mut().for_each(|x| *x = <$t>::from_bits(<$bits>::from_le(x.to_bits())));
                }
            }
        }
    };
}

float_element!(Float32, f32, u32);
float_element!(Float64, f64, u64);

/// Reads every element from `reader` (called `name` in errors), up to the memory available: a
/// truncated binary file, a line that does not parse or a value the ring does not accept is
/// [`Error::Malformed`] naming the line (text) or the element (binary); see [`read_input`].
///
/// ```
/// use nimcount::elements::{Format, read};
/// use nimcount::ring::Exact64;
/// let err = read(&Exact64, "1\n2\nthree\n".as_bytes(), "x.txt", Format::Text).unwrap_err();
/// assert_eq!(err.to_string(), "x.txt, line 3: invalid number 'three': not an integer in -2^63..2^63");
/// ```
pub fn read<R: Element>(ring: &R, reader: impl Read, name: &str, format: Format) -> Result<Vec<R::Elem>> {
    let limit = crate::memory::available().unwrap_or(u64::MAX);
    read_input(ring, &mut Input::from_reader(reader, name, limit), format)
}

/// Reads every element of `input` (a file of known size, or a stream up to its limit: see
/// [`Input`]).
///
/// - A file whose elements cannot fit in memory is refused before reading; a stream that goes
///   on past its limit is refused when it reaches it.
/// - Binary: the length must be a whole number of elements; bytes that are all text (digits
///   and line breaks) are refused as [`Error::LooksLikeText`].
/// - Text: one number per line, blank lines and `#` comments skipped; a byte-order mark, CRLF
///   line ends and surrounding spaces are accepted.
/// - Every value must be an element of the ring; floating-point values must be finite (`1e400`,
///   `inf` and `NaN` are refused, in text and in binary).
///
/// ```
/// use nimcount::elements::{Format, read_input};
/// use nimcount::input::Input;
/// use nimcount::ring::{Float64, Mod32};
///
/// let ring = Mod32::new(7)?;
/// let mut text = Input::from_reader("\u{feff}# x\r\n3\r\n6\r\n".as_bytes(), "x.txt", 1 << 20);
/// assert_eq!(read_input(&ring, &mut text, Format::Text)?, [3, 6]);
/// let mut seven = Input::from_reader("1\n7\n".as_bytes(), "x.txt", 1 << 20);
/// let err = read_input(&ring, &mut seven, Format::Text).unwrap_err();
/// assert_eq!(err.to_string(), "x.txt, line 2: invalid number '7': not an element of u32 mod 7");
/// let mut huge = Input::from_reader("1e400\n".as_bytes(), "y.txt", 1 << 20);
/// let err = read_input(&Float64, &mut huge, Format::Text).unwrap_err();
/// assert_eq!(err.to_string(), "y.txt, line 1: invalid number '1e400': not a finite number");
/// let mut text_as_binary = Input::from_reader("12\n34\n".as_bytes(), "z.bin", 1 << 20);
/// let err = read_input(&ring, &mut text_as_binary, Format::Binary).unwrap_err();
/// assert!(err.to_string().starts_with("z.bin: looks like text"));
/// # Ok::<(), nimcount::Error>(())
/// ```
pub fn read_input<R: Element>(ring: &R, input: &mut Input<'_>, format: Format) -> Result<Vec<R::Elem>> {
    read_input_where(ring, input, format, |_| None)
}

/// [`read_input`], refusing a number of elements `n` for which `refuse(n)` gives a reason (for
/// example "is not a power of two"): after reading, and for a binary file, whose size says how
/// many elements it holds, before reading more than its first block (a file of a wrong length,
/// or of a length that is not a whole number of elements, is refused at once, and one that
/// looks like text is still called so).
///
/// A binary file is read straight into a buffer of its size; a stream into one that doubles, each
/// step checked against the memory available and allocated fallibly, so an input too large
/// for memory is refused ([`Error::OutOfMemory`]) rather than aborting the process.
pub fn read_input_where<R: Element>(
    ring: &R,
    input: &mut Input<'_>,
    format: Format,
    refuse: impl Fn(usize) -> Option<String>,
) -> Result<Vec<R::Elem>> {
    let size = std::mem::size_of::<R::Elem>() as u64;
    let name = input.name().to_string();
    let malformed = |reason: String| Error::Malformed { path: name.clone(), line: 0, reason };
    match format {
        Format::Binary => {
            if let Some(bytes) = input.size() {
                input.ensure_fits("its elements", bytes)?;
            }
            let data = read_binary(ring, input, &refuse)?;
            match refuse(data.len()) {
                Some(reason) => Err(malformed(reason)),
                None => Ok(data),
            }
        }
        Format::Text => {
            // A number takes at least two bytes with its line break: the text and at most half
            // as many elements as bytes.
            if let Some(bytes) = input.size() {
                input.ensure_fits("its text and elements", bytes.saturating_add((bytes / 2 + 1) * size))?;
            }
            let data = read_text(ring, input)?;
            match refuse(data.len()) {
                Some(reason) => Err(malformed(reason)),
                None => Ok(data),
            }
        }
    }
}

/// Writes `data` to `writer` in `format`.
pub fn write<R: Element>(
    ring: &R,
    writer: impl Write,
    data: &[R::Elem],
    format: Format,
) -> std::io::Result<()> {
    let mut out = std::io::BufWriter::new(writer);
    match format {
        Format::Binary if cfg!(target_endian = "little") => out.write_all(bytemuck::cast_slice(data))?,
        Format::Binary => {
            for chunk in data.chunks(1 << 16) {
                let mut le = chunk.to_vec();
                R::swap_little_endian(&mut le);
                out.write_all(bytemuck::cast_slice(&le))?;
            }
        }
        Format::Text => {
            for &x in data {
                writeln!(out, "{}", ring.format_element(x))?;
            }
        }
    }
    out.flush()
}

/// Reads the bytes straight into a buffer of elements (no intermediate copy): a file of known
/// size into a buffer of that size (one element more, so that the end is seen), its first block
/// first (text, a length that is not a whole number of elements and a count that `refuse`
/// refuses are found there); a stream into a buffer that doubles up to the input's limit, each
/// step within the memory available.
fn read_binary<R: Element>(
    ring: &R,
    input: &mut Input<'_>,
    refuse: &dyn Fn(usize) -> Option<String>,
) -> Result<Vec<R::Elem>> {
    let name = input.name().to_string();
    let malformed = |reason: String| Error::Malformed { path: name.clone(), line: 0, reason };
    let size = std::mem::size_of::<R::Elem>();
    let whole = |bytes: usize| {
        format!("{bytes} bytes is not a whole number of {size}-byte elements (truncated file?)")
    };
    let most = usize::try_from(input.limit().saturating_add(1)).unwrap_or(usize::MAX); // bytes ever needed
    let what = || format!("{name}: its elements");
    let first_block = (1usize << 12).div_ceil(size);
    let mut data: Vec<R::Elem> = match input.size() {
        Some(bytes) => {
            let elements = usize::try_from(bytes).unwrap_or(usize::MAX) / size + 1;
            crate::memory::vec_with_capacity(what, elements)?
        }
        None => Vec::new(),
    };
    let mut filled = 0; // bytes
    let mut head_checked = input.size().is_none();
    loop {
        if filled == data.len() * size {
            let grown = match input.size() {
                // The first block, then the rest of the file at once.
                Some(_) if data.is_empty() => first_block.min(data.capacity()),
                Some(_) => data.capacity(),
                None => (2 * data.len()).max(first_block).min(most / size + 1),
            };
            let extra = grown - data.len();
            crate::memory::reserve(&mut data, what, extra)?;
            data.resize(grown, bytemuck::Zeroable::zeroed());
        }
        let bytes: &mut [u8] = bytemuck::cast_slice_mut(&mut data);
        let n = input.read_into(&mut bytes[filled..])?;
        filled += n;
        if !head_checked && let Some(total) = input.size() {
            // The first block of a file: what its size already decides.
            head_checked = true;
            let total = usize::try_from(total).unwrap_or(usize::MAX);
            if looks_like_text(&bytes[..filled]) {
                return Err(Error::LooksLikeText { path: name, size });
            }
            if !total.is_multiple_of(size) {
                return Err(malformed(whole(total)));
            }
            if let Some(reason) = refuse(total / size) {
                return Err(malformed(reason));
            }
        }
        if filled < bytes.len() {
            break;
        }
    }
    let bytes: &[u8] = bytemuck::cast_slice(&data);
    if looks_like_text(&bytes[..filled]) {
        return Err(Error::LooksLikeText { path: name, size });
    }
    if !filled.is_multiple_of(size) {
        return Err(malformed(whole(filled)));
    }
    data.truncate(filled / size);
    // A stream's doubling may leave up to twice its bytes; a file's buffer has one element more.
    if data.capacity() - data.len() > data.len() / 8 {
        data.shrink_to_fit();
    }
    R::swap_little_endian(&mut data);
    if let Some(index) = data.iter().position(|x| !ring.accepts(x)) {
        let value = ring.format_element(data[index]);
        let reason = if ring.is_valid(&data[index]) {
            format!("element {index} ({value}) is not a finite number")
        } else {
            format!("element {index} ({value}) is not in the ring {ring}")
        };
        return Err(malformed(reason));
    }
    Ok(data)
}

/// Bytes that are all text of numbers: digits, signs, points, exponents, `#` comments, spaces
/// and line breaks, with at least one line break and one digit. Little-endian elements almost
/// never look like that (every byte of every element would have to be one of those characters).
fn looks_like_text(bytes: &[u8]) -> bool {
    let head = &bytes[..bytes.len().min(1 << 12)];
    let head = head.strip_prefix("\u{feff}".as_bytes()).unwrap_or(head);
    head.contains(&b'\n')
        && head.iter().any(u8::is_ascii_digit)
        && head.iter().all(|&b| {
            b.is_ascii_alphanumeric()
                || matches!(b, b'\n' | b'\r' | b'\t' | b' ' | b'#' | b'+' | b'-' | b'.' | b'_')
        })
}

fn read_text<R: Element>(ring: &R, input: &mut Input<'_>) -> Result<Vec<R::Elem>> {
    let text = input.read_text()?;
    let mut data = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let text = line.trim();
        if text.is_empty() || text.starts_with('#') {
            continue;
        }
        let x = ring.parse_element(text).map_err(|e| Error::Malformed {
            path: input.name().to_string(),
            line: i + 1,
            reason: e.to_string(),
        })?;
        crate::memory::reserve(&mut data, || format!("{}: its elements", input.name()), 1)?;
        data.push(x);
    }
    Ok(data)
}
