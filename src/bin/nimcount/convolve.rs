//! `nimcount convolve`: the XOR, AND, OR or subset convolution of two files, written whole or
//! not at all.

use std::path::PathBuf;

use nimcount::{Error, convolve, elements};

use crate::common::Result;
use crate::output::Output;
use crate::rings::{self, CliRing, with_ring};
use crate::transform::{self, Format};

/// Which convolution.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum Kind {
    /// c[s] = Σ_{i ^ j = s} a[i] · b[j], through the Walsh–Hadamard transform (needs 1/2: not
    /// wrap32 or wrap64).
    Xor,
    /// c[s] = Σ_{i & j = s} a[i] · b[j], through the superset-sum zeta transform.
    And,
    /// c[s] = Σ_{i | j = s} a[i] · b[j], through the subset-sum zeta transform.
    Or,
    /// c[s] = Σ_{i | j = s, i & j = 0} a[i] · b[j], through the ranked subset zeta transform.
    Subset,
}

/// Arguments of `nimcount convolve`.
#[derive(Debug, clap::Args)]
#[command(after_help = "\
A and B hold the same power-of-two number of elements, indices read as bit sets. The exact rings
refuse a convolution whose sums or products could overflow; floating-point values must be finite.
Files: - is standard input (for one of A and B) or standard output (--output, the default). A
regular output file appears only when the whole convolution succeeded.
Examples:
  nimcount convolve --kind or --ring i64 --format text a.txt b.txt
  nimcount convolve --kind subset --ring u32 --modulus 998244353 a.bin b.bin --output c.bin")]
pub struct Args {
    /// The first file (- for standard input).
    #[arg(value_name = "A")]
    a: PathBuf,
    /// The second file (- for standard input).
    #[arg(value_name = "B")]
    b: PathBuf,
    /// The convolution: xor, and, or, subset.
    #[arg(long, value_enum, default_value_t = Kind::Xor)]
    kind: Kind,
    /// The ring: u32 and u64 (with --modulus, odd), wrap32, wrap64, i64, i128, f32, f64.
    #[arg(long)]
    ring: String,
    /// The odd modulus of the u32 (below 2^31) or u64 (below 2^63) ring.
    #[arg(long, value_name = "M", allow_hyphen_values = true)]
    modulus: Option<String>,
    /// The output file (- for standard output).
    #[arg(long, value_name = "FILE", default_value = "-")]
    output: PathBuf,
    /// The format of all three files.
    #[arg(long, value_enum, default_value_t = Format::Binary)]
    format: Format,
    /// The most bytes read from a stream [default: 2^29, 512 MiB].
    #[arg(long, value_name = "BYTES", allow_hyphen_values = true)]
    max_input: Option<String>,
}

/// Runs `nimcount convolve`.
pub fn run(args: Args) -> Result<()> {
    let ring = rings::parse(&args.ring, args.modulus.as_deref())?;
    with_ring!(ring, |r| convolve_files(r, &args))
}

fn convolve_files<R: CliRing>(ring: R, args: &Args) -> Result<()> {
    if args.kind == Kind::Xor && !ring.can_halve() {
        return Err(Error::NoInverseOfTwo { ring: ring.to_string() }.into());
    }
    if args.a.as_os_str() == "-" && args.b.as_os_str() == "-" {
        return Err(crate::common::usage(
            "both operands name standard input ('-'): one of them must be a file",
        ));
    }
    let output = Output::resolve(&args.output)?;
    if args.format == transform::Format::Binary && args.kind != Kind::Subset {
        // Both operands and the transforms of both: refused before either file is read.
        let size = |p: &std::path::Path| std::fs::metadata(p).ok().filter(|m| m.is_file()).map(|m| m.len());
        if let (Some(a), Some(b)) = (size(&args.a), size(&args.b)) {
            let what = || "the two operands and their transforms".to_string();
            nimcount::memory::ensure_fits(what, a.saturating_add(b).saturating_mul(2))?;
        }
    }
    let max = args.max_input.as_deref();
    let a = transform::read_power_of_two(&ring, &args.a, args.format, max)?;
    let b = transform::read_power_of_two(&ring, &args.b, args.format, max)?;
    let c = match args.kind {
        Kind::Xor => convolve::xor_convolve(ring.clone(), &a, &b)?,
        Kind::And => convolve::and_convolve(ring.clone(), &a, &b)?,
        Kind::Or => convolve::or_convolve(ring.clone(), &a, &b)?,
        Kind::Subset => convolve::subset_convolve(ring.clone(), &a, &b)?,
    };
    rings::warn_overflow(&ring, &c);
    let format = transform::elements_format(args.format);
    output.write(|out| elements::write(&ring, out, &c, format).map_err(|e| Error::io(&args.output, e).into()))
}
