//! `nimcount bench --sweep LO..=HI`: the single-size benchmark at every size from 2^LO to 2^HI
//! for every ring, as a table, a JSON list or a picture; with `f16`, `bf16` or `--len-factor M`,
//! the Hadamard transform of the lengths `M·2^k` ([`crate::hadamard::sweep`]).

use std::io::Write;
use std::ops::RangeInclusive;

use nimcount::progress::Progress;
use nimcount::ring::AnyRing;
use nimcount::ring::Ring;

use crate::bench::{self, Args, MAX_LOG2, Measurement, Setup};
use crate::common::{self, Result, TerminalProgress, usage};
use crate::plot;
use crate::rings::with_ring;

/// Runs `nimcount bench --sweep`.
pub fn run(args: &Args) -> Result<()> {
    let sizes = parse_sizes(args.sweep.as_deref().unwrap_or_default())?;
    if let Some(path) = &args.plot {
        plot::check_path(path)?;
    }
    let (measurements, setup, order, what, outcome) = if crate::hadamard::wanted(args) {
        let (measurements, setup, order, outcome) = crate::hadamard::sweep(args, &sizes)?;
        (measurements, setup, order, "Hadamard transform scaled by 1/√L", outcome)
    } else {
        let (measurements, setup, outcome) = rings_sweep(args, &sizes)?;
        (measurements, setup, 1, "Forward transform", outcome)
    };
    if let Err(failure) = outcome {
        // The sizes timed before the failure, then the failure.
        if !measurements.is_empty() {
            let mut out = common::stdout();
            out.write_all(table(&measurements, setup, what).as_bytes()).map_err(common::stdout_error)?;
            out.flush().map_err(common::stdout_error)?;
        }
        return Err(failure);
    }

    if let Some(path) = &args.plot {
        let mut series = Vec::new();
        for m in &measurements {
            let label = m.label();
            if !series.contains(&label) {
                series.push(label);
            }
        }
        let context = plot::sweep::Context {
            sizes: sizes.clone(),
            order,
            what,
            series,
            threads: setup.threads,
            backend: setup.backend.name(),
        };
        plot::sweep::draw(path, &measurements, &context)?;
    }
    let mut out = common::stdout();
    if args.json {
        let list: Vec<serde_json::Value> = measurements.iter().map(Measurement::json).collect();
        writeln!(out, "{}", serde_json::Value::Array(list)).map_err(common::stdout_error)?;
    } else {
        out.write_all(table(&measurements, setup, what).as_bytes()).map_err(common::stdout_error)?;
    }
    out.flush().map_err(common::stdout_error)
}

/// The measurements of every ring of `--ring` at every size of `sizes`, and the failure that
/// stopped the sweep early, if one did (the sizes timed before it are kept).
fn rings_sweep(args: &Args, sizes: &RangeInclusive<u32>) -> Result<(Vec<Measurement>, Setup, Result<()>)> {
    let rings = bench::rings(args)?;
    for &ring in &rings {
        with_ring!(ring, |r| check_memory(&r, args.kind, ring, *sizes.end()))?;
    }
    let (setup, pool) = bench::setup(args)?;

    let progress = TerminalProgress::new();
    progress.start("sweep", sizes.clone().count() as u64 * rings.len() as u64);
    let mut measurements = Vec::new();
    let outcome = pool.install(|| -> Result<()> {
        for log2 in sizes.clone() {
            for &ring in &rings {
                // `2^24 wrap64` fits the bar's message field; the stages of one size are quick.
                progress.set_message(format!("2^{log2} {}", ring.name()));
                measurements.push(with_ring!(ring, |r| bench::measure(r, ring, log2, setup, &|_| {}))?);
                progress.set_position(measurements.len() as u64);
            }
        }
        Ok(())
    });
    progress.finish();
    Ok((measurements, setup, outcome))
}

/// `LO..=HI`, log2 sizes with `LO <= HI <= 40`.
fn parse_sizes(text: &str) -> Result<RangeInclusive<u32>> {
    let malformed = || {
        usage(format!("--sweep '{}' is not LO..=HI (log2 sizes, e.g. 10..=24)", nimcount::error::quote(text)))
    };
    let (lo, hi) = text.split_once("..=").ok_or_else(malformed)?;
    let bound = |t: &str| {
        nimcount::number::parse_u64(t)
            .map_err(|e| usage(format!("--sweep '{}': {e}", nimcount::error::quote(text))))
    };
    let (lo, hi) = (bound(lo)?, bound(hi)?);
    if lo > hi {
        return Err(usage(format!("--sweep {lo}..={hi} is empty (LO is above HI)")));
    }
    if hi > u64::from(MAX_LOG2) {
        return Err(usage(format!("--sweep up to 2^{hi} is beyond any memory (at most {MAX_LOG2})")));
    }
    Ok(lo as u32..=hi as u32)
}

/// Refuses, before anything runs, a largest size whose buffers cannot fit in memory.
fn check_memory<R: Ring>(_: &R, kind: bench::Kind, ring: AnyRing, log2: u32) -> Result<()> {
    bench::check_memory::<R::Elem>(kind, ring, log2)
}

/// One line per size and ring; a column `len` (`28·2^10`) for the Hadamard transform.
fn table(measurements: &[Measurement], setup: Setup, what: &str) -> String {
    let threads = setup.threads;
    let mut text = format!(
        "{}, backend {}, {threads} thread{}; median of the timed runs\n",
        what[..1].to_lowercase() + &what[1..],
        setup.backend,
        if threads == 1 { "" } else { "s" }
    );
    let textbook = measurements.iter().any(|m| m.textbook.is_some());
    let ring = |m: &Measurement| match m.ring.modulus() {
        Some(p) => format!("{} mod {p}", m.name()),
        None => m.name().to_string(),
    };
    let lengths = measurements.iter().any(|m| m.storage.is_some());
    let len = |m: &Measurement| {
        if lengths { format!("{:>9}  ", format!("{}·2^{}", m.order, m.log2)) } else { String::new() }
    };
    let width = measurements.iter().map(|m| ring(m).len()).max().unwrap_or(4).max(4);
    let len_head = if lengths { format!("{:>9}  ", "len") } else { String::new() };
    text += &format!(
        "log2  {len_head}{:<width$}  {:>10}  {:>11}  {:>8}",
        "ring", "median", "ns/el/level", "GB/s"
    );
    if textbook {
        let baseline = if lengths { "passes" } else { "textbook" };
        text += &format!("  {baseline:>10}  {:>11}  {:>8}", "ns/el/level", "speed-up");
    }
    text.push('\n');
    for m in measurements {
        text += &format!(
            "{:>4}  {}{:<width$}  {:>10}  {:>11.4}  {:>8.2}",
            m.log2,
            len(m),
            ring(m),
            bench::show(m.fast.median),
            m.ns_per_element_level(m.fast),
            m.gbps(m.fast)
        );
        if let (Some(t), Some(r)) = (m.textbook, m.ratio()) {
            text +=
                &format!("  {:>10}  {:>11.4}  {:>7.1}x", bench::show(t.median), m.ns_per_element_level(t), r);
        }
        text.push('\n');
    }
    text
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes() {
        assert_eq!(parse_sizes("10..=24").unwrap(), 10..=24);
        assert_eq!(parse_sizes(" 0 ..= 0 ").unwrap(), 0..=0);
        assert_eq!(parse_sizes("12..=40").unwrap(), 12..=40);
        for bad in ["10..24", "10", ""] {
            let err = parse_sizes(bad).unwrap_err().to_string();
            assert!(err.contains("is not LO..=HI"), "{bad}: {err}");
        }
        for bad in ["a..=b", "-1..=3", "10..=", "..=10"] {
            let err = parse_sizes(bad).unwrap_err().to_string();
            assert!(err.starts_with(&format!("--sweep '{bad}': invalid number")), "{bad}: {err}");
        }
        assert!(parse_sizes("20..=10").unwrap_err().to_string().contains("is empty"));
        assert!(parse_sizes("10..=41").unwrap_err().to_string().contains("beyond any memory"));
    }
}
