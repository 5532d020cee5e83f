//! The `nimcount` command-line tool.

mod bench;
mod common;
mod convolve;
mod count;
mod distributed;
mod games;
mod grundy;
mod hadamard;
mod machine;
mod misere;
mod output;
mod play;
mod plot;
mod rings;
mod survey;
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
    /// The misère quotient of a heap game: the monoid that decides its misère play.
    Misere(misere::Args),
    /// Every game of a family (octal:0.??, hex:0.?, subtract:{1..8}), normal and misère play, proven.
    Survey(survey::Args),
    /// The games known by name and the families of games, with their rules and what is proven.
    Games(games::Args),
    /// Walsh–Hadamard, or AND or OR zeta, transform of a file of ring elements.
    Transform(transform::Args),
    /// XOR, AND, OR or subset convolution of two files of ring elements.
    Convolve(convolve::Args),
    /// Time the forward transform of 2^N random elements against a textbook loop, at one size or a sweep.
    Bench(bench::Args),
}

fn main() -> ExitCode {
    output::handle_signals();
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(err) => return common::report_usage_error(err),
    };
    let result = match cli.command {
        Command::Count(args) => count::run(args),
        Command::Grundy(args) => grundy::run(args),
        Command::Play(args) => play::run(args),
        Command::Misere(args) => misere::run(args),
        Command::Games(args) => games::run(args),
        Command::Survey(args) if args.distributed => {
            survey::prepare(&args).and_then(|survey| distributed::survey(&args, survey))
        }
        Command::Survey(args) => survey::run(args),
        Command::Transform(args) if args.distributed => {
            transform::check_kind(&args).and_then(|()| distributed::transform(&args))
        }
        Command::Transform(args) => transform::run(args),
        Command::Bench(args) if args.distributed => distributed::bench(&args),
        Command::Bench(args) if args.sweep.is_some() => sweep::run(&args),
        Command::Bench(args) if hadamard::wanted(&args) => hadamard::run(&args),
        Command::Bench(args) => bench::run(args),
        Command::Convolve(args) => convolve::run(args),
    };
    common::exit_code(result)
}
