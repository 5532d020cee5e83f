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

use std::io::{BufRead, BufReader, Read, Write};

use crate::error::{Error, Result, quote};
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
                text.parse::<$t>().map_err(|_| not_a_number(text, "a number"))
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

/// Reads every element from `reader` (called `name` in errors): a truncated binary file, a line
/// that does not parse or a value the ring does not accept is [`Error::Malformed`] naming the
/// line (text) or the element (binary).
///
/// ```
/// use nimcount::elements::{Format, read};
/// use nimcount::ring::Exact64;
/// let err = read(&Exact64, "1\n2\nthree\n".as_bytes(), "x.txt", Format::Text).unwrap_err();
/// assert_eq!(err.to_string(), "x.txt, line 3: invalid number 'three': not an integer in -2^63..2^63");
/// ```
pub fn read<R: Element>(ring: &R, reader: impl Read, name: &str, format: Format) -> Result<Vec<R::Elem>> {
    match format {
        Format::Binary => read_binary(ring, reader, name),
        Format::Text => read_text(ring, reader, name),
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

/// Reads the bytes straight into a buffer of elements (no intermediate copy).
fn read_binary<R: Element>(ring: &R, mut reader: impl Read, name: &str) -> Result<Vec<R::Elem>> {
    let malformed = |reason: String| Error::Malformed { path: name.to_string(), line: 0, reason };
    let size = std::mem::size_of::<R::Elem>();
    let mut data: Vec<R::Elem> = Vec::new();
    let mut filled = 0; // bytes
    loop {
        if filled == data.len() * size {
            data.resize((2 * data.len()).max(1 << 12), bytemuck::Zeroable::zeroed());
        }
        let bytes: &mut [u8] = bytemuck::cast_slice_mut(&mut data);
        match reader.read(&mut bytes[filled..]) {
            Ok(0) => break,
            Ok(n) => filled += n,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
            Err(e) => return Err(Error::io(name, e)),
        }
    }
    if !filled.is_multiple_of(size) {
        return Err(malformed(format!(
            "{filled} bytes is not a whole number of {size}-byte elements (truncated file?)"
        )));
    }
    data.truncate(filled / size);
    data.shrink_to_fit();
    R::swap_little_endian(&mut data);
    if let Some(index) = data.iter().position(|x| !ring.is_valid(x)) {
        return Err(malformed(format!(
            "element {index} ({}) is not in the ring {ring}",
            ring.format_element(data[index])
        )));
    }
    Ok(data)
}

fn read_text<R: Element>(ring: &R, reader: impl Read, name: &str) -> Result<Vec<R::Elem>> {
    let mut data = Vec::new();
    for (i, line) in BufReader::new(reader).lines().enumerate() {
        let line = line.map_err(|e| Error::io(name, e))?;
        let text = line.trim();
        if text.is_empty() || text.starts_with('#') {
            continue;
        }
        let x = ring.parse_element(text).map_err(|e| Error::Malformed {
            path: name.to_string(),
            line: i + 1,
            reason: e.to_string(),
        })?;
        data.push(x);
    }
    Ok(data)
}
