//! Every input a user can give, tried as a hostile user would: one table of refusals (one line on
//! standard error, exit code 2, nothing on standard output, no file left behind) and answers,
//! numbered by the case they come from, and the output files written through links, to FIFOs
//! and interrupted mid-write.
//!
//! Commands that must be refused before any computation run under a CPU-time and memory limit
//! far above what a refusal needs (`ulimit`), so a refusal that comes only after the expensive
//! work fails the test instead of passing slowly.

use std::path::{Path, PathBuf};
use std::process::Stdio;

use assert_cmd::Command;

fn bin() -> PathBuf {
    assert_cmd::cargo::cargo_bin("nimcount")
}

/// What a command must do.
enum Expect {
    /// Refused: exit code 2, one line on standard error containing each needle, nothing on
    /// standard output.
    Refused(&'static [&'static str]),
    /// Answered: exit code 0, standard output containing each needle.
    Answered(&'static [&'static str]),
}
use Expect::{Answered, Refused};

struct Case {
    /// The case of the issue this checks (1: output files … 6: words).
    number: u32,
    args: Vec<String>,
    stdin: Option<Vec<u8>>,
    /// Run under `ulimit -t 60 -v 4 GiB`: the answer must come without the expensive work.
    limited: bool,
    expect: Expect,
}

fn case(number: u32, command: &str, expect: Expect) -> Case {
    Case {
        number,
        args: command.split_whitespace().map(String::from).collect(),
        stdin: None,
        limited: false,
        expect,
    }
}

impl Case {
    fn stdin(mut self, bytes: &[u8]) -> Self {
        self.stdin = Some(bytes.to_vec());
        self
    }
    fn limited(mut self) -> Self {
        self.limited = true;
        self
    }
}

fn run(dir: &Path, case: &Case) {
    let args: Vec<String> = case.args.iter().map(|a| a.replace("DIR", &dir.display().to_string())).collect();
    let mut command = if case.limited {
        // CPU seconds and virtual memory far above a refusal's needs, far below the old work's.
        let mut c = Command::new("sh");
        c.arg("-c").arg("ulimit -t 60 && ulimit -v 4194304 && exec \"$0\" \"$@\"").arg(bin()).args(&args);
        c
    } else {
        let mut c = Command::new(bin());
        c.args(&args);
        c
    };
    command.current_dir(dir);
    command.write_stdin(case.stdin.clone().unwrap_or_default());
    let output = command.output().unwrap();
    let (stdout, stderr) = (String::from_utf8_lossy(&output.stdout), String::from_utf8_lossy(&output.stderr));
    let what = format!("case {}: nimcount {}", case.number, nimcount::error::quote(&args.join(" ")));
    match case.expect {
        Refused(needles) => {
            assert_eq!(output.status.code(), Some(2), "{what}: exit code; stderr {stderr}");
            assert_eq!(stderr.lines().count(), 1, "{what}: one line on stderr: {stderr}");
            assert!(stderr.len() <= 400, "{what}: a short message: {stderr}");
            assert!(stdout.is_empty(), "{what}: nothing on stdout: {stdout}");
            assert!(!stderr.contains("panicked"), "{what}: {stderr}");
            for needle in needles {
                assert!(stderr.contains(needle), "{what}: {stderr:?} should contain {needle:?}");
            }
        }
        Answered(needles) => {
            assert_eq!(output.status.code(), Some(0), "{what}: exit code; stderr {stderr}");
            for needle in needles {
                assert!(stdout.contains(needle), "{what}: {stdout:?} should contain {needle:?}");
            }
        }
    }
    let leftovers: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .filter_map(|e| e.ok())
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|name| name.ends_with(".tmp") || name.starts_with("refused"))
        .collect();
    assert!(leftovers.is_empty(), "{what}: files left behind: {leftovers:?}");
}

/// Little-endian `u32` words.
fn words(values: &[u32]) -> Vec<u8> {
    values.iter().flat_map(|v| v.to_le_bytes()).collect()
}

#[test]
fn every_numbered_case_is_refused_or_answered_as_it_should() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    std::fs::write(d.join("x.bin"), words(&[1, 2, 3, 4, 5, 6, 7, 8])).unwrap();
    std::fs::write(d.join("x.txt"), "1\n2\n3\n4\n").unwrap();
    std::fs::write(d.join("huge.txt"), "1\n2\n1e400\n4\n").unwrap();
    std::fs::write(d.join("tiny.txt"), "0 1\n1 10^30\n").unwrap();
    std::fs::write(d.join("h.txt"), "0 3\n1 1\n").unwrap();
    std::fs::write(d.join("one.txt"), "0 5\n").unwrap();
    std::fs::write(d.join("empty.txt"), "").unwrap();
    std::fs::write(d.join("comments.txt"), "# nothing\n\n").unwrap();
    std::fs::write(d.join("bom.txt"), "\u{feff}0 3\r\n1 1\r\n").unwrap();
    std::fs::create_dir(d.join("folder")).unwrap();
    let t = "transform --ring u32 --modulus 998244353";
    let long_spec = format!("subtract:{}", "1,".repeat(50_000));
    let long_number = format!("{}x", "9".repeat(100_000));
    let cases = vec![
        // 1. Output files: reported by the path given; never a directory.
        case(1, &format!("{t} --input x.bin --output DIR/missing/refused.bin"), Refused(&["missing/refused.bin", "does not exist"])),
        case(1, &format!("{t} --input x.bin --output folder"), Refused(&["'folder'", "directory"])),
        case(1, &format!("{t} --input x.bin --output -"), Answered(&[])),
        // 2. Endless inputs stop at a limit named in the message.
        case(2, &format!("{t} --input /dev/zero --output refused.bin"), Refused(&["/dev/zero", "512.00 MiB", "--max-input"])).limited(),
        case(2, &format!("{t} --input - --output refused.bin --max-input 1000"), Refused(&["standard input", "1000 B"])).stdin(&[0; 4096]),
        case(2, "count --histogram /dev/urandom --heaps 3", Refused(&["/dev/urandom", "not a text file"])).limited(),
        case(2, "count --histogram - --heaps 3 --max-input 100", Refused(&["standard input", "100 B"])).stdin("0 1\n".repeat(100).as_bytes()),
        // 3. Cheap checks first; expensive paths estimate and refuse, naming the flag.
        case(3, "count --game nim --sizes 1..=10^9+7 --heaps 10^30 --probability --distinct", Refused(&["no set of", "1000000007 sizes"])).limited(),
        case(3, "count --game subtract:1-1000000 --sizes 1..=12983567378251 --heaps 98670634123 --modulus 10^300000", Refused(&["steps", "--max-work"])).limited(),
        case(3, "count --game subtract:1-1000000 --sizes 1..=12983567378251 --heaps 98670634123 --modulus 3^1048576", Refused(&["steps", "--max-work"])).limited(),
        case(3, "count --game subtract:1-1000000 --sizes 1..=12983567378251 --heaps 98670634123 --modulus 2^1048576+1", Refused(&["steps", "--max-work"])).limited(),
        case(3, "count --game subtract:1-1000000 --sizes 1..=12983567378251 --heaps 98670634123 --modulus 2^1048576-1", Refused(&["steps", "--max-work"])).limited(),
        case(3, "count --game subtract:1-1000000 --sizes 1..=12983567378251 --heaps 10^7", Refused(&["bits"])).limited(),
        case(3, "count --game subtract:1-1000000 --sizes 1..=12983567378251 --heaps 3*10^5", Refused(&["exactly", "--max-work"])).limited(),
        case(3, "count --game nim --sizes 1..=1000 --heaps 10^6 --unordered", Refused(&["unordered", "--max-work"])).limited(),
        case(3, "count --game nim --sizes 1..=100 --heaps 3 --modulus 10^3000 --max-work 1", Refused(&["limit of 1"])),
        // 4. Numbers: tiny probabilities survive; losing is distribution[0]; short messages.
        case(4, "count --histogram tiny.txt --heaps 1 --probability", Answered(&["P(lose)    1.00000000000000e-30", "P(win)     1.000000000000000"])),
        case(4, "count --histogram tiny.txt --heaps 3 --probability --json", Answered(&["\"losing\":3e-30"])),
        case(4, "count --histogram tiny.txt --heaps 10^20 --probability --json", Answered(&["\"winning\":9.99999999"])),
        case(4, "count --game nim --sizes 0..=5 --heaps 3 --distribution --probability --json", Answered(&["\"losing\":0.12962962962962962", "\"distribution\":[0.12962962962962962,"])),
        case(4, &format!("count --game nim --sizes 1..=5 --heaps 3 --modulus {long_number}"), Refused(&["(100001 characters)"])),
        case(4, &format!("grundy --game {long_spec}"), Refused(&["characters)"])),
        case(4, "count --game nim --sizes 10^300000..=1 --heaps 3", Refused(&["about 300001 digits", "is above 1"])),
        case(4, "count --game moore:2 --sizes 1..=2^1000 --heaps 10^15 --modulus 7", Refused(&["more than 10^38"])).limited(),
        case(4, "count --game nim --sizes 1..=10^10^10 --heaps 3", Refused(&["bits"])).limited(),
        // 5. Flags that would be ignored, and numbers in every flag.
        case(5, "count --histogram h.txt --heaps 3 --max-heap 5", Refused(&["--max-heap"])),
        case(5, "grundy --game nim --first 5 --max-heap 3", Refused(&["--max-heap", "--period"])),
        case(5, "grundy --game nim --no-closed-form", Refused(&["--no-closed-form", "nim"])),
        case(5, "bench --ring u32 --modulus 998244353 --log2 4 --runs 0", Refused(&["--runs 0"])),
        case(5, "bench --ring u32 --modulus 998244353 --log2 4 --runs 5 --json", Answered(&["\"runs\":5", "\"textbook_runs\":5"])),
        case(5, "bench --ring u32 --modulus 998244353 --log2 2^2 --runs 1 --no-textbook", Answered(&["2^4"])),
        case(5, "bench --ring u32 --modulus 998244353 --log2 -1", Refused(&["'-1'", "negative"])),
        case(5, "grundy --game nim --first -1", Refused(&["'-1'", "negative"])),
        case(5, "count --game nim --sizes 1..=5 --heaps 3 --modulus -3", Refused(&["'-3'", "negative"])),
        case(5, "transform --ring u32 --modulus -3 --input x.bin --output refused.bin", Refused(&["'-3'", "negative"])),
        case(5, "count --game nim --sizes 1..=5 --heaps 1__0", Refused(&["'1__0'"])),
        case(5, "count --histogram - --heaps 2", Answered(&["histogram  standard input (4 sizes)", "losing     10"])).stdin(b"0 3\n1 1\n"),
        case(5, "count --histogram bom.txt --heaps 2", Answered(&["losing     10"])),
        case(5, "transform --ring f64 --format text --input huge.txt --output refused.txt", Refused(&["line 3", "1e400", "finite"])),
        case(5, &format!("{t} --input x.txt --output refused.bin"), Refused(&["looks like text; use --format text"])),
        case(5, "count --histogram empty.txt --heaps 3", Refused(&["empty.txt", "empty"])),
        case(5, "count --histogram comments.txt --heaps 3", Refused(&["comments.txt", "empty"])),
        case(5, "count --game nim --sizes 1..=5 --heaps 3 --max-input 10", Refused(&["--max-input"])),
        // 6. Words.
        case(6, "count --game nim --sizes 1..=1 --heaps 1", Answered(&["(1 size)", "2 distinct transformed values"])),
        case(6, "count --histogram one.txt --heaps 2", Answered(&["(5 sizes)", "1 distinct transformed value\n"])),
        case(6, "bench --ring u32 --modulus 998244353 --log2 3 --runs 1", Answered(&["1 run)"])),
        case(6, "grundy --game octal:0.6 --max-heap 1", Answered(&["none found in G(0) … G(0); try --max-heap "])),
        case(6, "grundy --game nim", Answered(&["max value     unbounded: grows by 1 every heap size\n"])),
        case(6, "count --game subtract:1-2 --staircase --sizes 0..=3 --heaps 2", Answered(&["1 odd step counted, 1 even step free"])),
        case(6, "transform --help", Answered(&["Examples:"])),
    ];
    // Every case runs; the failures are listed together.
    let failures: Vec<String> = cases
        .iter()
        .filter_map(|c| {
            let failed = std::panic::catch_unwind(|| run(d, c)).err()?;
            let message = failed
                .downcast_ref::<String>()
                .cloned()
                .or_else(|| failed.downcast_ref::<&str>().map(|s| s.to_string()))
                .unwrap_or_default();
            Some(message.lines().next().unwrap_or_default().to_string())
        })
        .collect();
    assert!(
        failures.is_empty(),
        "{} of {} cases failed:\n{}",
        failures.len(),
        cases.len(),
        failures.join("\n")
    );
}

#[test]
fn output_through_a_symlink_changes_the_target_and_keeps_the_link() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    std::fs::write(d.join("x.bin"), words(&[1, 2])).unwrap();
    std::fs::write(d.join("target.bin"), b"old").unwrap();
    std::os::unix::fs::symlink("target.bin", d.join("link.bin")).unwrap();
    // A link to a file that does not exist yet is written through too.
    std::os::unix::fs::symlink("new.bin", d.join("dangling.bin")).unwrap();
    for link in ["link.bin", "dangling.bin"] {
        Command::new(bin())
            .current_dir(d)
            .args(["transform", "--ring", "wrap32", "--input", "x.bin", "--output", link])
            .assert()
            .success();
        assert!(std::fs::symlink_metadata(d.join(link)).unwrap().file_type().is_symlink(), "{link}");
        assert_eq!(std::fs::read(d.join(link)).unwrap(), words(&[3, u32::MAX]), "{link}");
    }
    assert_eq!(std::fs::read(d.join("target.bin")).unwrap(), words(&[3, u32::MAX]));
    assert_eq!(std::fs::read(d.join("new.bin")).unwrap(), words(&[3, u32::MAX]));
}

#[test]
fn output_keeps_the_permissions_of_the_file_it_replaces() {
    use std::os::unix::fs::PermissionsExt;
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    std::fs::write(d.join("x.bin"), words(&[5, 6])).unwrap();
    for mode in [0o600, 0o640, 0o444] {
        let out = d.join(format!("out{mode:o}.bin"));
        std::fs::write(&out, b"old").unwrap();
        std::fs::set_permissions(&out, std::fs::Permissions::from_mode(mode)).unwrap();
        Command::new(bin())
            .args(["transform", "--ring", "wrap32", "--input"])
            .arg(d.join("x.bin"))
            .arg("--output")
            .arg(&out)
            .assert()
            .success();
        assert_eq!(std::fs::metadata(&out).unwrap().permissions().mode() & 0o777, mode);
        assert_eq!(std::fs::read(&out).unwrap(), words(&[11, u32::MAX]));
    }
}

#[test]
fn output_to_a_fifo_streams_without_a_temporary_file() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    std::fs::write(d.join("x.bin"), words(&[1, 2, 3, 4])).unwrap();
    let fifo = d.join("pipe");
    let made = std::process::Command::new("mkfifo").arg(&fifo).status().unwrap();
    assert!(made.success());
    let reader = {
        let fifo = fifo.clone();
        std::thread::spawn(move || std::fs::read(fifo).unwrap())
    };
    Command::new(bin())
        .args(["transform", "--ring", "wrap32", "--input"])
        .arg(d.join("x.bin"))
        .arg("--output")
        .arg(&fifo)
        .assert()
        .success();
    // Checked before waiting for the reader, which would wait forever if the FIFO were replaced.
    let meta = std::fs::symlink_metadata(&fifo).unwrap();
    assert!(std::os::unix::fs::FileTypeExt::is_fifo(&meta.file_type()), "the FIFO stays a FIFO");
    assert_eq!(reader.join().unwrap(), words(&[10, u32::MAX - 1, u32::MAX - 3, 0]));
    let names: Vec<_> = std::fs::read_dir(d).unwrap().map(|e| e.unwrap().file_name()).collect();
    assert_eq!(names.len(), 2, "{names:?}");
}

#[test]
fn an_interrupt_mid_write_leaves_no_temporary_file() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    // 2^22 wrap64 elements as text: about 80 MB of output, long enough to interrupt.
    let mut rng = 0x1234_5678_9abc_def0u64;
    let mut text = String::new();
    for _ in 0..1u32 << 22 {
        rng = rng.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
        text += &format!("{rng}\n");
    }
    std::fs::write(d.join("x.txt"), text).unwrap();
    let temporary = || {
        std::fs::read_dir(d)
            .unwrap()
            .filter_map(|e| e.ok())
            .map(|e| e.file_name().to_string_lossy().into_owned())
            .filter(|name| name.ends_with(".tmp"))
            .collect::<Vec<_>>()
    };
    let mut child = std::process::Command::new(bin())
        .current_dir(d)
        .args(["transform", "--ring", "wrap64", "--format", "text", "--input", "x.txt"])
        .args(["--output", "out.txt"])
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    // Wait until the temporary file exists and has grown, then interrupt.
    let mut seen = false;
    for _ in 0..60_000 {
        if let Some(name) = temporary().first()
            && std::fs::metadata(d.join(name)).is_ok_and(|m| m.len() > 0)
        {
            seen = true;
            break;
        }
        if child.try_wait().unwrap().is_some() {
            break;
        }
        std::thread::sleep(std::time::Duration::from_micros(200));
    }
    let interrupted = seen
        && std::process::Command::new("kill")
            .args(["-INT", &child.id().to_string()])
            .status()
            .unwrap()
            .success();
    let status = child.wait().unwrap();
    if interrupted && status.code() != Some(0) {
        assert_eq!(status.code(), Some(130), "the interrupt handler exits with 130");
        assert!(!d.join("out.txt").exists(), "no output after an interrupt");
    } else {
        eprintln!("the transform finished before it could be interrupted; checking it left nothing behind");
    }
    assert!(temporary().is_empty(), "temporary files left: {:?}", temporary());
}
