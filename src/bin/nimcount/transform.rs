//! `nimcount transform`: the transform of a file, written whole or not at all.

use std::path::PathBuf;

use nimcount::fwht::{Plan, Sets};
use nimcount::progress::Progress;
use nimcount::{Error, elements};

use crate::common::{self, Result, TerminalProgress};
use crate::output::Output;
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

/// Which transform, named after the convolution it turns into a pointwise product.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum Kind {
    /// The Walsh–Hadamard transform, which diagonalises the XOR convolution.
    Xor,
    /// The superset-sum zeta transform y[s] = Σ_{t ⊇ s} x[t], which diagonalises the AND
    /// convolution; its inverse is the superset Möbius transform.
    And,
    /// The subset-sum zeta transform y[s] = Σ_{t ⊆ s} x[t], which diagonalises the OR
    /// convolution; its inverse is the subset Möbius transform.
    Or,
}

impl Kind {
    /// The sets the zeta transform of `and` and `or` sums over; `None` for `xor`.
    pub(crate) fn sets(self) -> Option<Sets> {
        match self {
            Kind::Xor => None,
            Kind::And => Some(Sets::Superset),
            Kind::Or => Some(Sets::Subset),
        }
    }
}

/// Arguments of `nimcount transform`.
#[derive(Debug, clap::Args)]
#[command(after_help = "\
--kind names the transform after the convolution it diagonalises, indices read as bit sets:
xor (the default) is the Walsh–Hadamard transform; and is the superset-sum zeta transform
y[s] = Σ_{t ⊇ s} x[t]; or is the subset-sum zeta transform y[s] = Σ_{t ⊆ s} x[t]. With and or
or, --inverse is the Möbius transform over the same sets, which needs no 1/2 (every ring has it).
The forward xor transform is unnormalised; its --inverse divides by the length (refused for
wrap32 and wrap64, which have no 1/2: use --unnormalized there). The number of elements must be a
power of two. Floating-point values must be finite.

Files: - is standard input (--input) or standard output (--output, as is /dev/stdout: a shell's
>> keeps what the file held). A regular output file appears only when the whole transform
succeeded (an unnamed file beside it, linked into place; its permissions kept), and one the user
may not write is refused; a symbolic link is written through, a FIFO or a device in place. A
stream (standard input, a pipe, a device) is read up to --max-input bytes.
Examples:
  nimcount transform --ring u32 --modulus 998244353 --input x.bin --output y.bin
  nimcount transform --ring f64 --format text --input - --output - --inverse
  nimcount transform --kind or --ring i64 --format text --input x.txt --output -")]
pub struct Args {
    /// The ring: u32 and u64 (with --modulus, odd), wrap32, wrap64, i64, i128, f32, f64.
    #[arg(long)]
    pub(crate) ring: String,
    /// The transform: xor (Walsh–Hadamard), and (superset-sum zeta), or (subset-sum zeta).
    #[arg(long, value_enum, default_value_t = Kind::Xor)]
    pub(crate) kind: Kind,
    /// The odd modulus of the u32 (below 2^31) or u64 (below 2^63) ring.
    #[arg(long, value_name = "M", allow_hyphen_values = true)]
    pub(crate) modulus: Option<String>,
    /// The input file (- for standard input).
    #[arg(long, value_name = "FILE")]
    pub(crate) input: PathBuf,
    /// The output file (- for standard output).
    #[arg(long, value_name = "FILE")]
    pub(crate) output: PathBuf,
    /// The normalised inverse transform instead of the forward one.
    #[arg(long, conflicts_with = "unnormalized")]
    pub(crate) inverse: bool,
    /// The unnormalised inverse (the same matrix as the forward transform; xor only).
    #[arg(long)]
    unnormalized: bool,
    /// The format of both files.
    #[arg(long, value_enum, default_value_t = Format::Binary)]
    pub(crate) format: Format,
    /// The most bytes read from a stream [default: 2^29, 512 MiB].
    #[arg(long, value_name = "BYTES", allow_hyphen_values = true)]
    max_input: Option<String>,
    /// Spread the transform over the processes of `mpirun -n P`: each reads and writes its slice
    /// of the files (binary; a file system every process sees; needs the mpi feature).
    #[arg(long, conflicts_with = "max_input")]
    pub(crate) distributed: bool,
    /// With --distributed: `shared` (the default) shares memory among the processes of one
    /// node; `all-to-all` makes every process a node of its own (the between-node exchange on one
    /// machine). The output is the same.
    #[arg(long, value_enum, default_value_t = crate::bench::Exchange::Shared, requires = "distributed")]
    pub(crate) exchange: crate::bench::Exchange,
}

/// Runs `nimcount transform` in one process (`main` sends `--distributed` elsewhere).
pub fn run(args: Args) -> Result<()> {
    check_kind(&args)?;
    let ring = rings::parse(&args.ring, args.modulus.as_deref())?;
    with_ring!(ring, |r| transform_file(r, &args))
}

/// Refuses the flags that only the xor transform has.
pub(crate) fn check_kind(args: &Args) -> Result<()> {
    if args.kind == Kind::Xor {
        return Ok(());
    }
    if args.unnormalized {
        return Err(common::usage(
            "--unnormalized is for --kind xor; the Möbius transform (--inverse) needs no 1/2",
        ));
    }
    if args.distributed {
        return Err(common::usage("--distributed is for --kind xor"));
    }
    Ok(())
}

/// Reads a file of `ring` elements whose count must be a power of two; `format` is the flag.
pub(crate) fn read_power_of_two<R: CliRing>(
    ring: &R,
    path: &std::path::Path,
    format: Format,
    max_input: Option<&str>,
) -> Result<Vec<R::Elem>> {
    let mut input = common::open_input(path, max_input)?;
    let not_power_of_two = |n: usize| {
        let count = if n == 1 { "1 element".to_string() } else { format!("{n} elements") };
        (!n.is_power_of_two()).then(|| format!("{count} is not a power of two"))
    };
    elements::read_input_where(ring, &mut input, elements_format(format), not_power_of_two)
        .map_err(|e| common::input_failure(e, format == Format::Binary))
}

/// The library's format of a `--format` flag.
pub(crate) fn elements_format(format: Format) -> elements::Format {
    match format {
        Format::Binary => elements::Format::Binary,
        Format::Text => elements::Format::Text,
    }
}

fn transform_file<R: CliRing>(ring: R, args: &Args) -> Result<()> {
    let format = elements_format(args.format);
    if args.inverse && args.kind == Kind::Xor && !ring.can_halve() {
        return Err(Error::NoInverseOfTwo { ring: ring.to_string() }.into());
    }
    let backend = common::backend(None)?;
    // Every check that needs no data comes before reading it.
    let output = Output::resolve(&args.output)?;
    let mut data = read_power_of_two(&ring, &args.input, args.format, args.max_input.as_deref())?;
    let n = data.len();
    let plan = Plan::new(ring.clone(), n)?.with_backend(backend)?;
    let progress = TerminalProgress::new();
    progress.start("transform", 0);
    if let Some(sets) = args.kind.sets() {
        if args.inverse {
            plan.mobius(&mut data, sets)?;
        } else {
            plan.zeta(&mut data, sets)?;
        }
    } else if args.inverse {
        plan.inverse(&mut data)?;
    } else {
        // --unnormalized is the forward matrix again (W · W = n · I).
        plan.forward(&mut data)?;
    }
    progress.finish();
    rings::warn_overflow(&ring, &data);
    output.write(|out| {
        elements::write(&ring, out, &data, format).map_err(|e| Error::io(&args.output, e).into())
    })
}
