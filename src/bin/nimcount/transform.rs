//! `nimcount transform`: the transform of a file, written whole or not at all.

use std::io::{BufRead, BufReader, Read, Write};
use std::path::{Path, PathBuf};

use nimcount::fwht::Plan;
use nimcount::{Error, Result, memory};

use crate::common::{self, TerminalProgress};
use crate::rings::{AnyRing, CliRing, with_ring};
use nimcount::progress::Progress;

/// File formats.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum Format {
    /// Little-endian elements back to back (4 bytes for u32, wrap32, f32; 8 for u64, wrap64, i64,
    /// f64; 16 for i128).
    Binary,
    /// One decimal number per line; blank lines and lines starting with '#' are skipped.
    Text,
}

/// Arguments of `nimcount transform`.
#[derive(Debug, clap::Args)]
#[command(
    after_help = "The forward transform is unnormalised; --inverse divides by the length (refused for \
wrap32/wrap64, which have no 1/2: use --unnormalized there). The number of elements must be a power of two. \
The output file appears only when the whole transform succeeded."
)]
pub struct Args {
    /// The ring: u32 and u64 (with --modulus, odd), wrap32, wrap64, i64, i128, f32, f64.
    #[arg(long)]
    ring: String,
    /// The odd modulus of the u32 (below 2^31) or u64 (below 2^63) ring.
    #[arg(long)]
    modulus: Option<String>,
    /// The input file.
    #[arg(long)]
    input: PathBuf,
    /// The output file (replaced atomically).
    #[arg(long)]
    output: PathBuf,
    /// The normalised inverse transform instead of the forward one.
    #[arg(long, conflicts_with = "unnormalized")]
    inverse: bool,
    /// The unnormalised inverse (the same matrix as the forward transform).
    #[arg(long)]
    unnormalized: bool,
    /// The format of both files.
    #[arg(long, value_enum, default_value_t = Format::Binary)]
    format: Format,
}

/// Runs `nimcount transform`.
pub fn run(args: Args) -> Result<()> {
    let ring = AnyRing::parse(&args.ring, args.modulus.as_deref())?;
    with_ring!(ring, |r| transform_file(r, &args))
}

fn transform_file<R: CliRing>(ring: R, args: &Args) -> Result<()> {
    let mut data = match args.format {
        Format::Binary => read_binary(&ring, &args.input)?,
        Format::Text => read_text(&ring, &args.input)?,
    };
    let n = data.len();
    if !n.is_power_of_two() {
        return Err(Error::Malformed {
            path: args.input.display().to_string(),
            line: 0,
            reason: format!("{n} elements is not a power of two"),
        });
    }
    let plan = Plan::new(ring, n)?;
    let progress = TerminalProgress::new();
    progress.start("transform", 0);
    if args.inverse {
        plan.inverse(&mut data)?;
    } else {
        // --unnormalized is the forward matrix again (W · W = n · I).
        plan.forward(&mut data)?;
    }
    progress.finish();
    common::write_atomically(&args.output, |out| match args.format {
        Format::Binary => {
            R::swap_to_le(&mut data);
            out.write_all(bytemuck::cast_slice(&data)).map_err(|e| Error::io(&args.output, e))
        }
        Format::Text => {
            for &x in &data {
                writeln!(out, "{}", ring.format(x)).map_err(|e| Error::io(&args.output, e))?;
            }
            Ok(())
        }
    })
}

fn open(path: &Path) -> Result<std::fs::File> {
    std::fs::File::open(path).map_err(|e| Error::io(path, e))
}

/// Reads a binary file straight into a buffer of elements (no intermediate copy); a pipe or
/// device, whose size is not known up front, is read to its end first.
fn read_binary<R: CliRing>(ring: &R, path: &Path) -> Result<Vec<R::Elem>> {
    let malformed = |reason: String| Error::Malformed { path: path.display().to_string(), line: 0, reason };
    let whole = |bytes: u64, size: u64| {
        if bytes.is_multiple_of(size) {
            Ok(())
        } else {
            Err(malformed(format!(
                "{bytes} bytes is not a whole number of {size}-byte elements (truncated file?)"
            )))
        }
    };
    let mut file = open(path)?;
    let metadata = file.metadata().map_err(|e| Error::io(path, e))?;
    let size = std::mem::size_of::<R::Elem>() as u64;
    let mut data: Vec<R::Elem> = if metadata.is_file() {
        let bytes = metadata.len();
        whole(bytes, size)?;
        memory::ensure_fits(|| format!("reading {}", path.display()), bytes)?;
        let len =
            usize::try_from(bytes / size).map_err(|_| malformed("too large for this machine".into()))?;
        let mut data = vec![bytemuck::Zeroable::zeroed(); len];
        file.read_exact(bytemuck::cast_slice_mut(&mut data)).map_err(|e| Error::io(path, e))?;
        data
    } else {
        let mut bytes = Vec::new();
        file.read_to_end(&mut bytes).map_err(|e| Error::io(path, e))?;
        whole(bytes.len() as u64, size)?;
        bytes.chunks_exact(size as usize).map(bytemuck::pod_read_unaligned).collect()
    };
    R::swap_to_le(&mut data);
    if let Some(index) = data.iter().position(|&x| !ring.is_valid(x)) {
        return Err(malformed(format!(
            "element {index} ({}) is not in the ring {ring}",
            ring.format(data[index])
        )));
    }
    Ok(data)
}

/// Reads one number per line.
fn read_text<R: CliRing>(ring: &R, path: &Path) -> Result<Vec<R::Elem>> {
    let file = open(path)?;
    let bytes = file.metadata().map_err(|e| Error::io(path, e))?.len();
    // A text element takes at least two bytes (a digit and a newline).
    memory::ensure_fits(
        || format!("reading {}", path.display()),
        bytes / 2 * std::mem::size_of::<R::Elem>() as u64,
    )?;
    let mut data = Vec::new();
    for (i, line) in BufReader::new(file).lines().enumerate() {
        let line = line.map_err(|e| Error::io(path, e))?;
        let text = line.trim();
        if text.is_empty() || text.starts_with('#') {
            continue;
        }
        let x = ring.parse(text).map_err(|reason| Error::Malformed {
            path: path.display().to_string(),
            line: i + 1,
            reason: format!("{reason} (ring {ring})"),
        })?;
        data.push(x);
    }
    Ok(data)
}
