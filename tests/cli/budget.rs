//! Memory is a budget: searches and outputs whose size an input decides are estimated before
//! they grow and refused on one line (exit code 2), never aborted by the allocator. Every command
//! runs under an address-space limit (`ulimit -v`, as the review ran them), a CPU-time limit and
//! a wall-clock limit of 30 s, and must end by itself with exit code 0 or 2.

use std::time::{Duration, Instant};

use assert_cmd::Command;

const GIB: u64 = 1 << 20; // in KiB, as `ulimit -v` counts

/// What a command did under the limits: exit code (`None`: killed by a signal), standard
/// output and standard error.
struct Ended {
    code: Option<i32>,
    stdout: String,
    stderr: String,
}

/// Runs `nimcount args` under `ulimit -v kib` and 30 s of CPU and wall-clock time.
fn limited(kib: u64, args: &[&str]) -> Ended {
    let script = format!("ulimit -t 30 && ulimit -v {kib} && exec \"$0\" \"$@\"");
    let start = Instant::now();
    let output = Command::new("sh")
        .arg("-c")
        .arg(script)
        .arg(assert_cmd::cargo::cargo_bin("nimcount"))
        .args(args)
        .timeout(Duration::from_secs(30))
        .output()
        .unwrap();
    let what = nimcount::message::quote(&args.join(" "));
    assert!(start.elapsed() < Duration::from_secs(30), "{what}: still running after 30 s");
    let text = |bytes: &[u8]| String::from_utf8_lossy(bytes).into_owned();
    Ended { code: output.status.code(), stdout: text(&output.stdout), stderr: text(&output.stderr) }
}

/// Refused under `ulimit -v kib`: exit code 2, one short line naming each needle, nothing on
/// standard output.
fn refused(kib: u64, args: &[&str], needles: &[&str]) -> String {
    let ended = limited(kib, args);
    let what = nimcount::message::quote(&args.join(" "));
    let stderr = nimcount::message::quote(&ended.stderr);
    assert_eq!(ended.code, Some(2), "{what}: exit code (None: a signal); stderr {stderr}");
    assert!(ended.stdout.is_empty(), "{what}: nothing on standard output");
    assert_eq!(ended.stderr.lines().count(), 1, "{what}: one line: {stderr}");
    assert!(ended.stderr.len() <= 400, "{what}: a short line: {stderr}");
    for needle in needles {
        assert!(ended.stderr.contains(needle), "{what}: {stderr} should contain {needle:?}");
    }
    ended.stderr
}

/// Answered under `ulimit -v kib`: exit code 0; returns standard output.
fn answered(kib: u64, args: &[&str]) -> String {
    let ended = limited(kib, args);
    let what = nimcount::message::quote(&args.join(" "));
    assert_eq!(ended.code, Some(0), "{what}: stderr {}", nimcount::message::quote(&ended.stderr));
    ended.stdout
}

/// `count` random heaps below `below`, from a fixed seed.
fn random_heaps(count: usize, below: u64) -> Vec<String> {
    let mut state = 0x2545_F491_4F6C_DD1Du64;
    (0..count)
        .map(|_| {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            (state % below).to_string()
        })
        .collect()
}

/// The misère search counts its moves and bytes, not only its positions: a square game with a
/// heap of 100 000 has fewer than 10^6 positions but hundreds of millions of moves; an all-but
/// game has as many moves as the square of its heap.
#[test]
fn misere_searches_are_refused_from_their_moves_and_bytes() {
    for args in [
        &["play", "--misere", "--game", "squares", "100000", "7"][..],
        &["play", "--misere", "--game", "squares", "999999"],
        &["play", "--misere", "--game", "allbut:1", "6000"],
        &["play", "--misere", "--game", "allbut:1", "30000"],
    ] {
        refused(GIB, args, &["misère search", "moves", "closed form only"]);
    }
    // Ten thousand rows of Dawson's chess (no quotient within play's budget): refused at once
    // from the bound on positions.
    let rows = random_heaps(10_000, 50);
    let mut args = vec!["play", "--misere", "--game", "octal:0.137"];
    args.extend(rows.iter().map(String::as_str));
    let start = Instant::now();
    refused(GIB, &args, &["misère search", "positions"]);
    assert!(start.elapsed() < Duration::from_secs(10), "refused in {:?}", start.elapsed());
    // A search within the budget still answers.
    let out = answered(GIB, &["play", "--misere", "--game", "allbut:1", "1000", "3"]);
    assert!(out.contains("a search of the"), "{out}");
}

/// `--all` lists moves within a budget of bytes, not only of moves: Moore's Nim-500 has
/// moves of up to 500 changes each.
#[test]
fn move_lists_are_refused_from_their_bytes() {
    let heaps = random_heaps(1500, 1_000_000);
    let mut args = vec!["play", "--game", "moore:500", "--all"];
    args.extend(heaps.iter().map(String::as_str));
    refused(4 * GIB, &args, &["winning moves take more than", "drop --all"]);
}

/// Heaps carry a budget of bits: millions of bits are refused at once, before any value,
/// column or decimal digit is made.
#[test]
fn heaps_of_millions_of_bits_are_refused_at_once() {
    for args in [
        &["play", "--game", "moore:2", "2^100000000", "3", "5"][..],
        &["play", "2^100000000", "3"],
        &["play", "2^268435455", "3"],
        &["play", "--misere", "nim:3", "octal:0.77:2^2000000"],
        &["play", "--staircase", "3", "2^1048576"],
    ] {
        refused(4 * GIB, args, &["bits", "at most 1048576 bits"]);
    }
}

/// Heaps of more than 65536 bits are written by their size unless `--full` asks for every
/// digit.
#[test]
fn huge_heaps_are_written_by_their_size() {
    let out = answered(GIB, &["play", "2^1000000", "3"]);
    assert!(out.len() < 2000, "{} bytes: {}", out.len(), nimcount::message::quote(&out));
    assert!(out.contains("heaps      2^1000000 3"), "{out}");
    assert!(out.contains("move       heap 1: 2^1000000 "), "{out}");
    let json: serde_json::Value =
        serde_json::from_str(&answered(GIB, &["play", "--json", "2^1000000", "3"])).unwrap();
    assert_eq!(json["heaps"][0], "2^1000000");
    let full = answered(GIB, &["play", "--full", "2^1000000", "3"]);
    let digits = nimcount::number::parse("2^1000000").unwrap().to_string();
    assert!(full.contains(&format!("heaps      {digits} 3")), "every digit with --full");
    // Small numbers are written in full as before.
    assert!(answered(GIB, &["play", "10^3000", "5"]).contains(&format!("1{} 5", "0".repeat(3000))));
}

/// `play` names the `--max-heap N` that computes the values anyway, as `count` does.
#[test]
fn play_names_the_max_heap_that_computes_the_values() {
    for args in [&["play", "--game", "squares", "10^8", "5"][..], &["play", "squares:10^8", "nim:3"]] {
        refused(4 * GIB, args, &["squares is never periodic", "--max-heap 100000001 computes them anyway"]);
    }
}

/// `grundy --histogram` estimates its histogram and its text before it makes them: take at
/// most half over 1..=2^100000 has 100001 runs of numbers of up to 30103 digits (gigabytes).
#[test]
fn histogram_exports_are_refused_from_their_size() {
    let half = |sizes: &str| {
        ["grundy", "--game", "fraction:1/2", "--sizes", sizes, "--histogram", "--output", "/dev/null"]
            .map(String::from)
    };
    // The review's command: its histogram fits in 1.5 GiB, its text is gigabytes.
    let args = half("1..=2^100000");
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    refused(3 * GIB / 2, &args, &["heap sizes 1..=2^100000", "MiB"]);
    // Twice as many bits: four times the histogram, refused before it is made.
    let args = half("1..=2^200000");
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    refused(3 * GIB / 2, &args, &["take at most half", "of memory is available"]);
    let args = half("1..=2^30000");
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    refused(4 * GIB, &args, &["of text, more than the 256.00 MiB that --histogram writes"]);
    // Within the budget the runs are written as before.
    let out = answered(GIB, &["grundy", "--game", "fraction:1/2", "--sizes", "1..=2^100", "--histogram"]);
    assert_eq!(out.lines().count(), 101, "a comment and 100 runs");
    assert!(out.lines().nth(1) == Some("0 100"), "{}", nimcount::message::quote(&out));
}
