//! The door matrix: every subcommand of the tool against every class of hostile input that
//! applies to it, each with the outcome the documentation promises (an answer, a warning or a
//! one-line refusal with exit code 2), never a signal.
//!
//! The doors are read from the tool itself (the command list of `nimcount --help`, clap's command
//! tree), and [`DOORS`] says which classes apply to each: a subcommand without its entry there, or
//! a class of its entry without a row in [`rows`], fails [`every_door_has_a_row_for_every_class`].
//! Commands under a memory limit run inside `ulimit -v` (and `ulimit -t`), so an abort from a
//! failed allocation shows as a signal and fails the row instead of passing slowly.

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

fn bin() -> PathBuf {
    assert_cmd::cargo::cargo_bin("nimcount")
}

/// The classes of hostile input.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Class {
    /// A malformed argument: a bad game, ring or range, a flag out of range.
    BadArgument,
    /// An empty range or an empty input.
    Empty,
    /// Integers far beyond any word: 10^100, 2^100000.
    Huge,
    /// Negative numbers.
    Negative,
    /// A file cut short, of a wrong length, or of garbage.
    CutOrGarbage,
    /// An input whose work or output needs more memory than a `ulimit -v` leaves.
    Memory,
    /// Float results that overflow to inf or NaN.
    Overflow,
    /// Standard output closed (`>&-`) or closed early by its reader (`| head -c 10`).
    ClosedOutput,
    /// SIGINT a second into a long run: the process ends within a second, exit code 130.
    Interrupt,
    /// Misère play, reached at every door that plays it.
    Misere,
}
use Class::*;

/// Every subcommand and the classes that apply to it.
const DOORS: &[(&str, &[Class])] = &[
    ("count", &[BadArgument, Empty, Huge, Negative, CutOrGarbage, Memory, ClosedOutput, Interrupt, Misere]),
    ("grundy", &[BadArgument, Huge, Negative, Memory, ClosedOutput, Interrupt]),
    ("play", &[BadArgument, Huge, Negative, ClosedOutput, Interrupt, Misere]),
    ("misere", &[BadArgument, Huge, Negative, Memory, ClosedOutput, Interrupt, Misere]),
    ("games", &[BadArgument, ClosedOutput]),
    ("survey", &[BadArgument, Empty, Huge, Negative, CutOrGarbage, Memory, ClosedOutput, Interrupt, Misere]),
    (
        "transform",
        &[BadArgument, Empty, Huge, Negative, CutOrGarbage, Memory, Overflow, ClosedOutput, Interrupt],
    ),
    (
        "convolve",
        &[BadArgument, Empty, Huge, Negative, CutOrGarbage, Memory, Overflow, ClosedOutput, Interrupt],
    ),
    ("bench", &[BadArgument, Huge, Negative, Memory, ClosedOutput, Interrupt]),
];

/// What a row must do.
#[derive(Debug)]
enum Expect {
    /// Exit code 2, one line on standard error starting with `error` and containing each
    /// needle, nothing on standard output.
    Refused(&'static [&'static str]),
    /// Exit code 0, standard output containing each needle.
    Answered(&'static [&'static str]),
    /// Exit code 0, standard error containing each needle.
    Warned(&'static [&'static str]),
    /// Ended by SIGINT sent a second in: exit code 130 within a second, "interrupted".
    Interrupted,
}
use Expect::*;

/// One row: a door, a class, a shell command line (`nimcount` is the binary; `DIR` the row's
/// folder, with the files of [`files`]), an optional `ulimit -v` in KiB, and the outcome.
struct Row {
    door: &'static str,
    class: Class,
    command: String,
    limit_kib: Option<u64>,
    expect: Expect,
}

fn row(door: &'static str, class: Class, command: &str, expect: Expect) -> Row {
    Row { door, class, command: command.to_string(), limit_kib: None, expect }
}

impl Row {
    fn limited(mut self, kib: u64) -> Self {
        self.limit_kib = Some(kib);
        self
    }
}

const T: &str = "nimcount transform --ring u32 --modulus 998244353";
const C: &str = "nimcount convolve --ring u32 --modulus 998244353";

fn rows() -> Vec<Row> {
    let t = |rest: &str| format!("{T} {rest}");
    let c = |rest: &str| format!("{C} {rest}");
    vec![
        // count
        row("count", BadArgument, "nimcount count --game octal:9.9 --sizes 0..=3 --heaps 2", Refused(&["octal"])),
        row("count", BadArgument, "nimcount count --game nim --sizes 0..=3 --heaps 2 --modulus 0", Refused(&["modulus"])),
        row("count", Empty, "nimcount count --game nim --sizes 5..=3 --heaps 2", Refused(&["5", "3"])),
        row("count", Empty, "nimcount count --game nim --sizes 0..=3 --heaps 3..=2", Refused(&["empty"])),
        row("count", Empty, "nimcount count --histogram empty.txt --heaps 2", Refused(&["empty.txt"])),
        row("count", Huge, "nimcount count --game nim --sizes 0..=3 --heaps 10^100", Refused(&["give a modulus"])),
        row("count", Huge, "nimcount count --game nim --sizes 0..=3 --heaps 10^100 --modulus 2^100000", Answered(&["losing"])),
        row("count", Negative, "nimcount count --game nim --sizes 0..=3 --heaps -1", Refused(&["negative"])),
        row("count", CutOrGarbage, "nimcount count --histogram cut.txt --heaps 2", Refused(&["cut.txt"])),
        row("count", CutOrGarbage, "nimcount count --histogram garbage.bin --heaps 2", Refused(&["garbage.bin"])),
        row("count", Memory, "nimcount count --game squares --sizes 0..=10^8 --heaps 3 --max-heap 10^8+1", Refused(&["memory"])).limited(300_000),
        row("count", ClosedOutput, "nimcount count --game nim --sizes 0..=3 --heaps 2 >&-", Refused(&["<stdout>"])),
        row("count", Interrupt, "nimcount count --game squares --sizes 0..=10^8 --heaps 3 --max-heap 10^8+1", Interrupted),
        // Issue case 5: a range of heap counts in misère play is summed.
        row("count", Misere, "nimcount count --game kayles --sizes 0..=20 --heaps 2..=3 --misere", Answered(&["losing     1224"])),
        row("count", Misere, "nimcount count --game nim --sizes 0..=9 --heaps 0..=4 --misere --distinct", Answered(&["losing"])),
        // grundy
        row("grundy", BadArgument, "nimcount grundy --game subtract:", Refused(&["subtract"])),
        row("grundy", Huge, "nimcount grundy --game kayles --first 10^100", Refused(&["10^100"])),
        row("grundy", Negative, "nimcount grundy --game kayles --first -1", Refused(&["negative"])),
        row("grundy", Memory, "nimcount grundy --game octal:0.137 --first 10^8 --max-seconds 10^6", Refused(&["available"])).limited(300_000),
        row("grundy", ClosedOutput, "nimcount grundy --game kayles --first 10 >&-", Refused(&["<stdout>"])),
        // Issue case 3: a reader that closes the pipe early.
        row("grundy", ClosedOutput, "nimcount grundy --game nim --first 10^6 | head -c 10 >/dev/null", Refused(&["broken pipe"])),
        row("grundy", Interrupt, "nimcount grundy --game octal:0.137 --first 10^6 --max-seconds 10^6", Interrupted),
        // play
        row("play", BadArgument, "nimcount play --game nonsense 3 4", Refused(&["nonsense"])),
        row("play", Huge, "nimcount play --game nim 2^100000 2^100000", Answered(&["lost"])),
        row("play", Huge, "nimcount play --game nim 2^2000000", Refused(&["bits"])),
        row("play", Negative, "nimcount play --game kayles -5", Refused(&["negative"])),
        row("play", ClosedOutput, "nimcount play 3 4 5 >&-", Refused(&["<stdout>"])),
        row("play", Interrupt, "nimcount play --game squares --max-heap 10^8+1 10^8", Interrupted),
        // Issue case 5: the quotients play tries reach further with --max-states.
        row("play", Misere, "nimcount play --game dawsons-kayles --misere --max-states 10^6 20 21", Answered(&["heaps 0..=21"])),
        // survey
        row("survey", BadArgument, "nimcount survey 'octal:0.?8'", Refused(&["pattern", "octal digit"])),
        row("survey", BadArgument, "nimcount survey 'octal:0.?' --max-seconds-per-game nan", Refused(&["--max-seconds-per-game"])),
        row("survey", Empty, "nimcount survey 'subtract:{5..3}'", Refused(&["pattern", "5..3"])),
        row("survey", Empty, "nimcount survey 'octal:0.?' --resume empty.lines", Answered(&["octal:0.7", "tame"])),
        row("survey", Huge, "nimcount survey 'octal:0.?' --push 10^100", Refused(&["--push"])),
        row("survey", Huge, "nimcount survey 'subtract:{1..10^100}'", Refused(&["pattern"])),
        row("survey", Negative, "nimcount survey 'octal:0.?' --max-heap -1", Refused(&["negative"])),
        row("survey", CutOrGarbage, "nimcount survey 'octal:0.?' --resume garbage.bin", Refused(&["garbage.bin"])),
        row("survey", CutOrGarbage, "nimcount survey 'octal:0.?' --resume cut.txt", Refused(&["cut.txt"])),
        row("survey", Memory, "nimcount survey 'octal:0.6' --push 10^9", Refused(&["memory"])).limited(300_000),
        row("survey", ClosedOutput, "nimcount survey 'octal:0.?' --max-seconds-per-game 0.1 >&-", Refused(&["<stdout>"])),
        row("survey", Interrupt, "nimcount survey octal:0.???", Interrupted),
        row("survey", Misere, "nimcount survey 'octal:0.7?' --max-seconds-per-game 3", Answered(&["octal:0.77", "| found | 40 |"])),
        // misere
        row("misere", BadArgument, "nimcount misere --game octal:", Refused(&["octal"])),
        row("misere", Huge, "nimcount misere --game kayles --max-heap 10^100", Refused(&["10^100"])),
        row("misere", Negative, "nimcount misere --game kayles --max-states -1", Refused(&["negative"])),
        row("misere", Memory, "nimcount misere --game kayles --max-states 10^7 --max-seconds 10^6", Refused(&["available"])).limited(100_000),
        row("misere", ClosedOutput, "nimcount misere --game kayles >&-", Refused(&["<stdout>"])),
        row("misere", Interrupt, "nimcount misere --game dawsons-kayles --max-heap 40 --max-states 10^7 --max-seconds 1000", Interrupted),
        // Issue case 5: the quotient of the heaps 0..=N when none of every heap size is found.
        row("misere", Misere, "nimcount misere --game dawsons-kayles --max-heap 20", Answered(&["the quotient of the heaps 0..=20", "order: 24"])),
        // games
        row("games", BadArgument, "nimcount games --nonsense", Refused(&["--nonsense"])),
        row("games", ClosedOutput, "nimcount games >&-", Refused(&["<stdout>"])),
        // transform
        row("transform", BadArgument, &t("--input x.bin --output - --kind nonsense"), Refused(&["nonsense"])),
        row("transform", Empty, &t("--input empty.bin --output -"), Refused(&["empty.bin"])),
        row("transform", Huge, "nimcount transform --ring u32 --modulus 10^100 --input x.bin --output -", Refused(&["10^100"])),
        row("transform", Negative, "nimcount transform --ring u32 --modulus -7 --input x.bin --output -", Refused(&["negative"])),
        row("transform", CutOrGarbage, &t("--input cut.bin --output -"), Refused(&["cut.bin", "whole number"])),
        row("transform", CutOrGarbage, &t("--input three.bin --output -"), Refused(&["three.bin", "power of two"])),
        row("transform", CutOrGarbage, &t("--input x.txt --output -"), Refused(&["x.txt", "--format text"])),
        // Issue case 1: a file of known length is read without doubling (aborted before), and a
        // wrong length is refused from its first block, before the rest is read.
        row("transform", Memory, &t("--input big.bin --output /dev/null"), Answered(&[])).limited(400_000),
        row("transform", Memory, &t("--kind and --input big.bin --output /dev/null"), Answered(&[])).limited(400_000),
        row("transform", Memory, &t("--input wrong.bin --output /dev/null"), Refused(&["power of two"])).limited(400_000),
        row("transform", Memory, &format!("head -c 314572800 /dev/zero | {T} --input - --output /dev/null --max-input 2^40"), Refused(&["standard input", "available"])).limited(400_000),
        row("transform", Memory, &format!("yes 1 | head -c 314572800 | {T} --format text --input - --output /dev/null --max-input 2^40"), Refused(&["standard input", "available"])).limited(400_000),
        row("transform", Overflow, "nimcount transform --ring f64 --format text --input big.txt --output -", Warned(&["overflowed", "f64"])),
        row("transform", ClosedOutput, &t("--input x.bin --output - >&-"), Refused(&["<stdout>"])),
        row("transform", Interrupt, &t("--input - --output -"), Interrupted),
        // convolve
        row("convolve", BadArgument, &c("x.bin x.bin --output - --kind nonsense"), Refused(&["nonsense"])),
        row("convolve", BadArgument, &c("x.bin y.bin --output -"), Refused(&["differ"])),
        row("convolve", Empty, &c("empty.bin x.bin --output -"), Refused(&["empty.bin"])),
        row("convolve", BadArgument, &c("- - --output -"), Refused(&["both operands"])),
        row("convolve", Huge, "nimcount convolve --ring u64 --modulus 2^100000 x.bin x.bin --output -", Refused(&["2^100000"])),
        row("convolve", Negative, "nimcount convolve --ring u64 --modulus -3 x.bin x.bin --output -", Refused(&["negative"])),
        row("convolve", CutOrGarbage, &c("cut.bin cut.bin --output -"), Refused(&["cut.bin"])),
        // Issue case 1: both operands and their transforms are checked before either is read.
        row("convolve", Memory, &c("--kind xor half.bin half.bin --output /dev/null"), Refused(&["available"])).limited(200_000),
        row("convolve", Memory, &c("--kind and half.bin half.bin --output /dev/null"), Refused(&["available"])).limited(200_000),
        row("convolve", Memory, &c("--kind or half.bin half.bin --output /dev/null"), Refused(&["available"])).limited(200_000),
        // Issue case 3: a float result that overflowed says so.
        row("convolve", Overflow, "nimcount convolve --kind and --ring f64 --format text big.txt big.txt --output -", Warned(&["4 of the 4 results overflowed"])),
        row("convolve", ClosedOutput, &c("x.bin x.bin --output - >&-"), Refused(&["<stdout>"])),
        row("convolve", Interrupt, &c("- x.bin --output -"), Interrupted),
        // bench
        row("bench", BadArgument, "nimcount bench --ring nonsense --log2 4", Refused(&["nonsense"])),
        row("bench", Huge, "nimcount bench --ring f64 --log2 10^100", Refused(&["10^100"])),
        row("bench", Negative, "nimcount bench --ring f64 --log2 -1", Refused(&["negative"])),
        // Issue case 1: every buffer of the subset convolution is counted before any allocation,
        // at one size and for the largest of a sweep.
        row("bench", Memory, "nimcount bench --kind subset --ring u64 --modulus 998244353 --log2 27 --no-textbook --runs 1", Refused(&["ranked transforms", "available"])).limited(1_500_000),
        row("bench", Memory, "nimcount bench --kind subset --ring u32 --modulus 998244353 --log2 24 --no-textbook --runs 1", Refused(&["ranked transforms", "available"])).limited(1_500_000),
        row("bench", Memory, "nimcount bench --kind subset --ring u32 --modulus 998244353 --sweep 20..=27 --no-textbook --runs 1", Refused(&["2^27", "available"])).limited(1_500_000),
        row("bench", Memory, "nimcount bench --ring u64 --modulus 998244353 --log2 28 --runs 1", Refused(&["2^28", "available"])).limited(1_500_000),
        row("bench", ClosedOutput, "nimcount bench --ring f64 --log2 4 --runs 1 >&-", Refused(&["<stdout>"])),
        row("bench", Interrupt, "nimcount bench --ring f64 --log2 20 --runs 10000", Interrupted),
    ]
}

/// The files rows name, in `dir`.
fn files(dir: &Path) {
    let words = |n: usize| vec![0u8; 4 * n];
    std::fs::write(dir.join("x.bin"), (1u32..=8).flat_map(u32::to_le_bytes).collect::<Vec<u8>>()).unwrap();
    std::fs::write(dir.join("y.bin"), words(4)).unwrap();
    std::fs::write(dir.join("three.bin"), words(3)).unwrap();
    std::fs::write(dir.join("cut.bin"), [1u8, 0, 0, 0, 2, 0]).unwrap();
    std::fs::write(dir.join("empty.bin"), b"").unwrap();
    std::fs::write(dir.join("empty.txt"), b"").unwrap();
    std::fs::write(dir.join("empty.lines"), b"").unwrap();
    std::fs::write(dir.join("cut.txt"), b"0 3\n1 ").unwrap();
    std::fs::write(dir.join("garbage.bin"), [0u8, 159, 146, 150, 255, 7]).unwrap();
    std::fs::write(dir.join("x.txt"), b"1\n2\n3\n4\n").unwrap();
    std::fs::write(dir.join("big.txt"), b"1e308\n-1e308\n1e308\n1e308\n").unwrap();
    // Sparse files: zeros that cost no disk. 256 MiB (2^26 elements), 256 MiB and 5 bytes
    // more (not a power of two: 2^26 + 1 elements and a byte), and 64 MiB.
    let sparse = |name: &str, len: u64| std::fs::File::create(dir.join(name)).unwrap().set_len(len).unwrap();
    sparse("big.bin", 256 << 20);
    sparse("wrong.bin", (256 << 20) + 4);
    sparse("half.bin", 64 << 20);
}

/// The outcome of one row: exit code (`None`: ended by a signal), standard output, standard
/// error, and how long the process took to end after SIGINT (for [`Interrupted`]).
fn run(dir: &Path, row: &Row) -> (Option<i32>, String, String, Option<Duration>) {
    if matches!(row.expect, Interrupted) {
        // The binary itself (no shell between), its standard input a pipe held open and never
        // written; SIGINT a second in.
        let args: Vec<&str> = row.command.split_whitespace().skip(1).collect();
        let mut child = Command::new(bin())
            .current_dir(dir)
            .args(&args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        let held = child.stdin.take();
        std::thread::sleep(Duration::from_secs(1));
        let sent = Instant::now();
        Command::new("kill").args(["-INT", &child.id().to_string()]).status().unwrap();
        let output = child.wait_with_output().unwrap();
        let after = sent.elapsed();
        drop(held);
        let text = |b: &[u8]| String::from_utf8_lossy(b).into_owned();
        return (output.status.code(), text(&output.stdout), text(&output.stderr), Some(after));
    }
    let nimcount = bin().display().to_string();
    let mut script = String::from("set -o pipefail; ");
    if let Some(kib) = row.limit_kib {
        script.push_str(&format!("ulimit -t 30 && ulimit -v {kib} && "));
    }
    script.push_str(&row.command.replace("nimcount", &format!("'{nimcount}'")));
    let mut command = Command::new("bash");
    command.current_dir(dir).arg("-c").arg(script);
    command.stdin(Stdio::null()).stdout(Stdio::piped()).stderr(Stdio::piped());
    let output = command.output().unwrap();
    let text = |b: &[u8]| String::from_utf8_lossy(b).into_owned();
    (output.status.code(), text(&output.stdout), text(&output.stderr), None)
}

fn check(dir: &Path, row: &Row) -> Result<(), String> {
    let (code, stdout, stderr, after) = run(dir, row);
    let what = format!("{} × {:?}: {}", row.door, row.class, row.command);
    let fail = |why: String| Err(format!("{what}: {why}; exit {code:?}; stderr {stderr:?}"));
    if stderr.contains("panicked") || stderr.contains("memory allocation") {
        return fail("a panic or an abort".into());
    }
    match &row.expect {
        Refused(needles) => {
            if code != Some(2) {
                return fail("exit code 2 expected".into());
            }
            let lines: Vec<&str> = stderr.lines().filter(|l| !l.starts_with("bash:")).collect();
            if lines.len() != 1 || !lines[0].starts_with("error") {
                return fail("one line starting with 'error' expected".into());
            }
            if !stdout.is_empty() && !row.command.contains('|') {
                return fail(format!("nothing on standard output expected: {stdout:?}"));
            }
            if let Some(n) = needles.iter().find(|n| !stderr.contains(*n)) {
                return fail(format!("{n:?} expected in the message"));
            }
        }
        Answered(needles) => {
            if code != Some(0) {
                return fail("exit code 0 expected".into());
            }
            if let Some(n) = needles.iter().find(|n| !stdout.contains(*n)) {
                return fail(format!("{n:?} expected on standard output: {stdout:?}"));
            }
        }
        Warned(needles) => {
            if code != Some(0) {
                return fail("exit code 0 expected".into());
            }
            if let Some(n) = needles.iter().find(|n| !stderr.contains(*n)) {
                return fail(format!("{n:?} expected on standard error"));
            }
        }
        Interrupted => {
            if code != Some(130) || !stderr.contains("interrupted") {
                return fail("exit code 130 and 'interrupted' expected".into());
            }
            let after = after.expect("timed");
            if after > Duration::from_secs(1) {
                return fail(format!("ended {after:?} after SIGINT, more than a second"));
            }
        }
    }
    Ok(())
}

/// The subcommands of `nimcount --help` (clap's list of commands, `help` apart).
fn subcommands() -> Vec<String> {
    let output = Command::new(bin()).arg("--help").output().unwrap();
    let text = String::from_utf8(output.stdout).unwrap();
    let list = text.split("Commands:").nth(1).expect("a list of commands");
    let list = list.split("\n\n").next().unwrap();
    list.lines()
        .filter_map(|l| l.split_whitespace().next())
        .filter(|name| *name != "help")
        .map(String::from)
        .collect()
}

/// What is missing from the matrix for these doors: a door without an entry in [`DOORS`], or a
/// class of its entry without a row.
fn missing(doors: &[String], rows: &[Row]) -> Vec<String> {
    let mut missing = Vec::new();
    for door in doors {
        let Some((_, classes)) = DOORS.iter().find(|(d, _)| d == door) else {
            missing.push(format!("{door}: no entry in DOORS"));
            continue;
        };
        for class in *classes {
            if !rows.iter().any(|r| r.door == door && r.class == *class) {
                missing.push(format!("{door} × {class:?}: no row"));
            }
        }
    }
    missing
}

#[test]
fn every_door_has_a_row_for_every_class() {
    let doors = subcommands();
    assert!(doors.len() >= 8, "{doors:?}");
    assert_eq!(missing(&doors, &rows()), Vec::<String>::new());
    // Every entry of DOORS is a door of the tool, and every row is of a class its door lists.
    for (door, classes) in DOORS {
        assert!(doors.iter().any(|d| d == door), "{door} is in DOORS but not in nimcount --help");
        for r in rows().iter().filter(|r| r.door == *door) {
            assert!(classes.contains(&r.class), "{door} × {:?} is not listed in DOORS", r.class);
        }
    }
}

/// The check fails for a new subcommand without a row, and for a class without one.
#[test]
fn a_door_without_its_rows_fails_the_matrix() {
    let mut doors = subcommands();
    doors.push("frobnicate".into());
    assert_eq!(missing(&doors, &rows()), ["frobnicate: no entry in DOORS"]);
    let without_overflow: Vec<Row> =
        rows().into_iter().filter(|r| !(r.door == "convolve" && r.class == Overflow)).collect();
    assert_eq!(missing(&subcommands(), &without_overflow), ["convolve × Overflow: no row"]);
}

#[test]
fn every_row_has_its_documented_outcome() {
    let dir = tempfile::tempdir().unwrap();
    files(dir.path());
    let rows = rows();
    // Interrupted rows wait a second each: they run side by side, the others two at a time.
    let failures: Vec<String> = std::thread::scope(|scope| {
        let (slow, quick): (Vec<&Row>, Vec<&Row>) =
            rows.iter().partition(|r| matches!(r.expect, Interrupted));
        let mut handles = Vec::new();
        for r in slow {
            let d = dir.path();
            handles.push(scope.spawn(move || check(d, r).err()));
        }
        for parity in [0, 1] {
            let d = dir.path();
            let half: Vec<&Row> = quick.iter().skip(parity).step_by(2).copied().collect();
            handles.push(scope.spawn(move || {
                let errors: Vec<String> = half.iter().filter_map(|r| check(d, r).err()).collect();
                (!errors.is_empty()).then(|| errors.join("\n"))
            }));
        }
        handles.into_iter().filter_map(|h| h.join().unwrap()).collect()
    });
    assert!(failures.is_empty(), "{} failing:\n{}", failures.len(), failures.join("\n"));
}
