//! The `nimcount` command-line tool.

mod bench;
mod common;
mod count;
mod count_variants;
mod distributed;
mod grundy;
mod machine;
mod play;
mod plot;
mod rings;
mod sweep;
mod transform;

use std::process::ExitCode;

use clap::{Parser, Subcommand};

/// Counts positions of multi-heap impartial games, and transforms and benchmarks
/// the Walsh–Hadamard transform behind it.
#[derive(Debug, Parser)]
#[command(name = "nimcount", version, about, max_term_width = 100)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Debug, Subcommand)]
enum Command {
    /// Count the k-heap positions that are lost (or won) for the player to move.
    Count(count::Args),
    /// Grundy values of a heap game and its certified period.
    Grundy(grundy::Args),
    /// Who wins one position, and the winning moves.
    Play(play::Args),
    /// Walsh–Hadamard transform of a file of ring elements.
    Transform(transform::Args),
    /// Time the forward transform of 2^N random elements against a textbook loop, at one size or a sweep.
    Bench(bench::Args),
}

fn main() -> ExitCode {
    common::handle_interrupts();
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(err) => return common::report_usage_error(err),
    };
    let result = match cli.command {
        Command::Count(args) => count::run(args),
        Command::Grundy(args) => grundy::run(args),
        Command::Play(args) => play::run(args),
        Command::Transform(args) => transform::run(args),
        Command::Bench(args) => bench::run(args),
    };
    common::exit_code(result)
}
