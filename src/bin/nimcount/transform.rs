//! `nimcount transform`: the transform of a file, written whole or not at all.

use std::path::PathBuf;

use nimcount::fwht::Plan;
use nimcount::progress::Progress;
use nimcount::{Error, elements};

use crate::common::{self, Result, TerminalProgress};
use crate::rings::{self, CliRing, with_ring};

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
    pub(crate) ring: String,
    /// The odd modulus of the u32 (below 2^31) or u64 (below 2^63) ring.
    #[arg(long)]
    pub(crate) modulus: Option<String>,
    /// The input file.
    #[arg(long)]
    pub(crate) input: PathBuf,
    /// The output file (replaced atomically).
    #[arg(long)]
    pub(crate) output: PathBuf,
    /// The normalised inverse transform instead of the forward one.
    #[arg(long, conflicts_with = "unnormalized")]
    pub(crate) inverse: bool,
    /// The unnormalised inverse (the same matrix as the forward transform).
    #[arg(long)]
    unnormalized: bool,
    /// The format of both files.
    #[arg(long, value_enum, default_value_t = Format::Binary)]
    pub(crate) format: Format,
    /// Spread the transform over the processes of `mpirun -n P`: each reads and writes its slice
    /// of the files (binary; a file system every process sees; needs the mpi feature).
    #[arg(long)]
    distributed: bool,
}

/// Runs `nimcount transform`.
pub fn run(args: Args) -> Result<()> {
    if args.distributed {
        return crate::distributed::transform(&args);
    }
    let ring = rings::parse(&args.ring, args.modulus.as_deref())?;
    with_ring!(ring, |r| transform_file(r, &args))
}

fn transform_file<R: CliRing>(ring: R, args: &Args) -> Result<()> {
    let format = match args.format {
        Format::Binary => elements::Format::Binary,
        Format::Text => elements::Format::Text,
    };
    let file = std::fs::File::open(&args.input).map_err(|e| Error::io(&args.input, e))?;
    let mut data = elements::read(&ring, file, &args.input.display().to_string(), format)?;
    let n = data.len();
    if !n.is_power_of_two() {
        return Err(Error::Malformed {
            path: args.input.display().to_string(),
            line: 0,
            reason: format!("{n} elements is not a power of two"),
        }
        .into());
    }
    let plan = Plan::new(ring.clone(), n)?.with_backend(common::backend(None)?)?;
    let progress = TerminalProgress::new();
    progress.start("transform", 0);
    if args.inverse {
        plan.inverse(&mut data)?;
    } else {
        // --unnormalized is the forward matrix again (W · W = n · I).
        plan.forward(&mut data)?;
    }
    progress.finish();
    common::write_atomically(&args.output, |out| {
        elements::write(&ring, out, &data, format).map_err(|e| Error::io(&args.output, e).into())
    })
}
