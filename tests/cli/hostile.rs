//! Every input a user can give, tried as a hostile user would: one table of refusals (one line on
//! standard error, exit code 2, nothing on standard output, no file left behind) and answers,
//! numbered by the case they come from, and the output files written through links, to FIFOs
//! and interrupted mid-write.
//!
//! Commands that must be refused before any computation run under a CPU-time and memory limit
//! far above what a refusal needs (`ulimit`), so a refusal that comes only after the expensive
//! work fails the test instead of passing slowly.

use std::path::{Path, PathBuf};

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
    // Root may replace a read-only file and keeps it read-only; anyone else is refused (see
    // `output_files::a_file_the_user_may_not_write_is_refused`).
    let root = std::process::Command::new("id").arg("-u").output().is_ok_and(|o| o.stdout == b"0\n");
    let modes: &[u32] = if root { &[0o600, 0o640, 0o444] } else { &[0o600, 0o640] };
    for &mode in modes {
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

/// Output files like coreutils: a signal mid-write leaves the old file or nothing (SIGKILL
/// included), a file the user may not write is refused, a link to a descriptor (`/dev/stdout`)
/// is written through the descriptor, and a closed or full standard output is an error.
mod output_files {
    use std::os::unix::process::ExitStatusExt;
    use std::path::{Path, PathBuf};
    use std::process::{Command, ExitStatus, Stdio};

    fn bin() -> PathBuf {
        assert_cmd::cargo::cargo_bin("nimcount")
    }

    /// The names in `dir`, sorted.
    fn names(dir: &Path) -> Vec<String> {
        let mut names: Vec<String> = std::fs::read_dir(dir)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        names.sort();
        names
    }

    /// `x.txt`: 2^22 wrap64 elements as text, about 80 MB of output, long enough to signal
    /// the transform while it writes.
    fn large_input(dir: &Path) {
        let mut rng = 0x1234_5678_9abc_def0u64;
        let mut text = String::new();
        for _ in 0..1u32 << 22 {
            rng = rng.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            text += &format!("{rng}\n");
        }
        std::fs::write(dir.join("x.txt"), text).unwrap();
    }

    /// Whether process `pid` has a file of `dir` open other than the input, holding bytes: the
    /// output being written (a named temporary file, or an unnamed one, which `/proc` shows as
    /// `dir/#N (deleted)`).
    fn writing_into(pid: u32, dir: &Path) -> bool {
        let Ok(fds) = std::fs::read_dir(format!("/proc/{pid}/fd")) else { return false };
        fds.filter_map(|e| e.ok()).any(|e| {
            std::fs::read_link(e.path()).is_ok_and(|link| link.starts_with(dir) && !link.ends_with("x.txt"))
                && std::fs::metadata(e.path()).is_ok_and(|m| m.len() > 0)
        })
    }

    /// The transform of `x.txt` into `out.txt` in `dir`, standard output discarded.
    fn transform_into_out(dir: &Path) -> Command {
        let mut command = Command::new(bin());
        command.current_dir(dir).args("transform --ring wrap64 --format text --input x.txt".split(' '));
        command.args(["--output", "out.txt"]).stdout(Stdio::null());
        command
    }

    /// Runs the transform of `x.txt` into `out.txt` in `dir` and sends `signal` while it writes;
    /// `None` when it finished first.
    fn signalled_mid_write(dir: &Path, signal: &str) -> Option<(ExitStatus, String)> {
        let dir = std::fs::canonicalize(dir).unwrap();
        let child = transform_into_out(&dir).stderr(Stdio::piped()).spawn().unwrap();
        let mut child = child;
        let mut seen = false;
        for _ in 0..150_000 {
            if writing_into(child.id(), &dir) {
                seen = true;
                break;
            }
            if child.try_wait().unwrap().is_some() {
                break;
            }
            std::thread::sleep(std::time::Duration::from_micros(200));
        }
        let sent = seen
            && Command::new("kill")
                .args([&format!("-{signal}"), &child.id().to_string()])
                .status()
                .unwrap()
                .success();
        let out = child.wait_with_output().unwrap();
        if !sent || out.status.success() {
            eprintln!("skipped: the transform finished before SIG{signal} could reach it");
            return None;
        }
        Some((out.status, String::from_utf8(out.stderr).unwrap()))
    }

    #[test]
    fn sigterm_and_sigint_mid_write_exit_143_and_130_and_keep_the_old_file() {
        let dir = tempfile::tempdir().unwrap();
        let d = dir.path();
        large_input(d);
        for (signal, code, word) in [("TERM", 143, "terminated"), ("INT", 130, "interrupted")] {
            std::fs::write(d.join("out.txt"), b"old\n").unwrap();
            if let Some((status, stderr)) = signalled_mid_write(d, signal) {
                assert_eq!(status.code(), Some(code), "SIG{signal}: {stderr}");
                assert_eq!(stderr, format!("error: {word}\n"), "SIG{signal}");
            }
            assert_eq!(std::fs::read(d.join("out.txt")).unwrap(), b"old\n", "SIG{signal}");
            assert_eq!(names(d), ["out.txt", "x.txt"], "SIG{signal} leaves no temporary file");
        }
    }

    /// A signal at any moment of a run, the end included: the exit status and the output file
    /// agree. Status 0 with the new file complete, or 143 with the old file kept; never 143
    /// once the new file is in place.
    #[test]
    fn a_signal_at_any_moment_leaves_a_file_that_agrees_with_the_exit_status() {
        let dir = tempfile::tempdir().unwrap();
        let d = std::fs::canonicalize(dir.path()).unwrap();
        let text: String =
            (0..1u64 << 15).map(|i| format!("{}\n", i.wrapping_mul(0x9e37_79b9_7f4a_7c15))).collect();
        std::fs::write(d.join("x.txt"), text).unwrap();
        let run = |signal_after: Option<std::time::Duration>| {
            std::fs::write(d.join("out.txt"), b"old\n").unwrap();
            let mut child = transform_into_out(&d).stderr(Stdio::null()).spawn().unwrap();
            if let Some(delay) = signal_after {
                std::thread::sleep(delay);
                let _ = Command::new("kill").args(["-TERM", &child.id().to_string()]).status();
            }
            let status = child.wait().unwrap();
            (status.code(), std::fs::read(d.join("out.txt")).unwrap())
        };
        let start = std::time::Instant::now();
        let (code, complete) = run(None);
        let took = start.elapsed();
        assert_eq!(code, Some(0));
        for i in 0..=40u32 {
            let (code, file) = run(Some(took * i / 32));
            match code {
                Some(0) => assert!(file == complete, "exit 0 with an incomplete file ({i}/32 of the run)"),
                // 143 from the handler; killed by the signal itself before the handler is set.
                Some(143) | None => {
                    assert_eq!(file, b"old\n", "exit {code:?} with the file replaced ({i}/32 of the run)")
                }
                Some(other) => panic!("exit {other} ({i}/32 of the run)"),
            }
            assert_eq!(names(&d), ["out.txt", "x.txt"], "no temporary file left ({i}/32 of the run)");
        }
    }

    #[test]
    fn sigkill_mid_write_leaves_no_file_at_all() {
        let dir = tempfile::tempdir().unwrap();
        let d = dir.path();
        large_input(d);
        if let Some((status, _)) = signalled_mid_write(d, "KILL") {
            assert_eq!(status.signal(), Some(9));
        }
        assert_eq!(names(d), ["x.txt"], "a killed transform leaves nothing, not even a hidden file");
    }

    /// The command prefix that runs a program as a user without privileges: none when the
    /// tests already run as one, else `setpriv` or `runuser` to `nobody`.
    fn unprivileged() -> Option<Vec<String>> {
        let uid = Command::new("id").arg("-u").output().ok()?;
        if uid.stdout != b"0\n" {
            return Some(Vec::new());
        }
        let candidates: [&[&str]; 2] = [
            &["setpriv", "--reuid=65534", "--regid=65534", "--clear-groups"],
            &["runuser", "-u", "nobody", "--"],
        ];
        candidates.into_iter().map(|c| c.iter().map(|s| s.to_string()).collect::<Vec<_>>()).find(|prefix| {
            Command::new(&prefix[0]).args(&prefix[1..]).arg("true").status().is_ok_and(|s| s.success())
        })
    }

    #[test]
    fn a_file_the_user_may_not_write_is_refused() {
        use std::os::unix::fs::PermissionsExt;
        let Some(prefix) = unprivileged() else {
            eprintln!("skipped: running as root with neither setpriv nor runuser to drop privileges");
            return;
        };
        let dir = tempfile::tempdir().unwrap();
        // A folder anyone may write in, and a copy of the program anyone may run.
        let work = dir.path().join("work");
        std::fs::create_dir(&work).unwrap();
        std::fs::set_permissions(&work, std::fs::Permissions::from_mode(0o777)).unwrap();
        std::fs::set_permissions(dir.path(), std::fs::Permissions::from_mode(0o755)).unwrap();
        let program = dir.path().join("nimcount");
        std::fs::copy(bin(), &program).unwrap();
        std::fs::set_permissions(&program, std::fs::Permissions::from_mode(0o755)).unwrap();
        std::fs::write(work.join("x.txt"), "1\n2\n").unwrap();
        // Not writable by the user running the transform: another user's file (the tests run as
        // root), or the user's own read-only file.
        std::fs::write(work.join("ro.txt"), "kept\n").unwrap();
        let mode = if prefix.is_empty() { 0o444 } else { 0o644 };
        std::fs::set_permissions(work.join("ro.txt"), std::fs::Permissions::from_mode(mode)).unwrap();
        let run = |output: &str| {
            let mut command =
                Command::new(if prefix.is_empty() { program.as_os_str() } else { prefix[0].as_ref() });
            command.args(prefix.iter().skip(1));
            if !prefix.is_empty() {
                command.arg(&program);
            }
            command
                .current_dir(&work)
                .args([
                    "transform",
                    "--ring",
                    "wrap64",
                    "--format",
                    "text",
                    "--input",
                    "x.txt",
                    "--output",
                    output,
                ])
                .output()
                .unwrap()
        };
        // The folder lets this user create (and rename over) files ...
        let fresh = run("new.txt");
        assert!(fresh.status.success(), "{}", String::from_utf8_lossy(&fresh.stderr));
        assert_eq!(std::fs::read_to_string(work.join("new.txt")).unwrap(), "3\n18446744073709551615\n");
        // ... but a file it may not write is not replaced.
        let refused = run("ro.txt");
        let stderr = String::from_utf8(refused.stderr).unwrap();
        assert_eq!(refused.status.code(), Some(2), "{stderr}");
        assert_eq!(stderr, "error: cannot write 'ro.txt': permission denied\n");
        assert_eq!(std::fs::read_to_string(work.join("ro.txt")).unwrap(), "kept\n");
        assert_eq!(names(&work), ["new.txt", "ro.txt", "x.txt"]);
    }

    /// Another user's file that anyone may write (mode 0666) in a sticky folder (`/tmp`): the
    /// folder lets only its owner replace it, so it is refused before any work, naming the way
    /// that writes it in place; so is a new file in a folder the user may not write in.
    #[test]
    fn a_file_in_a_folder_that_forbids_replacing_it_is_refused_before_the_work() {
        use std::os::unix::fs::PermissionsExt;
        let Some(prefix) = unprivileged().filter(|p| !p.is_empty()) else {
            eprintln!("skipped: needs to run as root with setpriv or runuser to make another user's file");
            return;
        };
        let dir = tempfile::tempdir().unwrap();
        let mode = |path: &Path, mode: u32| {
            std::fs::set_permissions(path, std::fs::Permissions::from_mode(mode)).unwrap();
        };
        mode(dir.path(), 0o755);
        let (sticky, closed) = (dir.path().join("sticky"), dir.path().join("closed"));
        std::fs::create_dir(&sticky).unwrap();
        std::fs::create_dir(&closed).unwrap();
        mode(&sticky, 0o1777);
        mode(&closed, 0o755);
        let program = dir.path().join("nimcount");
        std::fs::copy(bin(), &program).unwrap();
        mode(&program, 0o755);
        let theirs = sticky.join("out.txt");
        std::fs::write(&theirs, "kept\n").unwrap();
        mode(&theirs, 0o666);
        let run = |output: &Path| {
            Command::new(&prefix[0])
                .args(&prefix[1..])
                .arg(&program)
                .args(["grundy", "--game", "nim", "--sizes", "1..=10", "--histogram", "--output"])
                .arg(output)
                .output()
                .unwrap()
        };
        for (output, needle) in [
            (
                &theirs,
                "is sticky, and only the owner of the file (or of the folder) may replace it; to write it \
                       in place, name standard output ('-') and redirect it",
            ),
            (&closed.join("new.txt"), "does not let this user create files"),
        ] {
            let refused = run(output);
            let stderr = String::from_utf8(refused.stderr).unwrap();
            assert_eq!(refused.status.code(), Some(2), "{stderr}");
            assert_eq!(stderr.lines().count(), 1, "{stderr}");
            assert!(stderr.starts_with("error: cannot write '") && stderr.contains(needle), "{stderr}");
        }
        assert_eq!(std::fs::read_to_string(&theirs).unwrap(), "kept\n");
        assert_eq!(names(&sticky), ["out.txt"]);
        assert_eq!(names(&closed), Vec::<String>::new());
        // A file of its own there is replaced as usual.
        let own = run(&sticky.join("own.txt"));
        assert!(own.status.success(), "{}", String::from_utf8_lossy(&own.stderr));
    }

    /// Runs `sh -c SCRIPT` in `dir` with `$0` the program.
    fn shell(dir: &Path, script: &str) -> std::process::Output {
        Command::new("sh").current_dir(dir).args(["-c", script]).arg(bin()).output().unwrap()
    }

    #[test]
    fn a_descriptor_link_is_written_through_the_descriptor_and_a_shell_append_keeps_the_log() {
        let dir = tempfile::tempdir().unwrap();
        let d = dir.path();
        std::fs::write(d.join("x.txt"), "1\n2\n").unwrap();
        let transform = "\"$0\" transform --ring wrap64 --format text --input x.txt";
        for (target, redirect) in [("/dev/stdout", ""), ("/dev/fd/1", ""), ("/proc/self/fd/3", "3")] {
            std::fs::write(d.join("log.txt"), "kept\n").unwrap();
            let out = shell(d, &format!("{transform} --output {target} {redirect}>> log.txt"));
            assert!(out.status.success(), "{target}: {}", String::from_utf8_lossy(&out.stderr));
            assert_eq!(
                std::fs::read_to_string(d.join("log.txt")).unwrap(),
                "kept\n3\n18446744073709551615\n",
                "{target} appends"
            );
        }
        assert_eq!(names(d), ["log.txt", "x.txt"]);
    }

    #[test]
    fn a_closed_or_full_standard_output_is_an_error() {
        let dir = tempfile::tempdir().unwrap();
        let d = dir.path();
        std::fs::write(d.join("x.txt"), "1\n2\n").unwrap();
        let commands = [
            "\"$0\" transform --ring wrap64 --format text --input x.txt --output -",
            "\"$0\" transform --ring wrap64 --format text --input x.txt --output /dev/stdout",
            "\"$0\" count --game nim --sizes 0..=3 --heaps 2",
            "\"$0\" grundy --game subtract:1,2 --first 10",
        ];
        for command in commands {
            for (redirect, reason) in
                [(">&-", "Bad file descriptor"), ("> /dev/full", "No space left on device")]
            {
                let out = shell(d, &format!("{command} {redirect}"));
                let stderr = String::from_utf8(out.stderr).unwrap();
                assert_eq!(out.status.code(), Some(2), "{command} {redirect}: {stderr}");
                assert_eq!(stderr.lines().count(), 1, "{command} {redirect}: {stderr}");
                assert!(stderr.starts_with("error: <stdout>: ") && stderr.contains(reason), "{stderr}");
            }
        }
        assert_eq!(names(d), ["x.txt"]);
    }
}

/// Inputs that cost far more than they look, and messages that echo them: every command
/// answers or is refused with one short line, inside an address-space limit (`ulimit -v`) and a
/// CPU-time limit far below what making the input's values would take.
mod inputs_with_a_budget {
    use std::path::{Path, PathBuf};

    fn nimcount() -> PathBuf {
        assert_cmd::cargo::cargo_bin("nimcount")
    }

    /// Runs `nimcount args` in `dir` under `ulimit -v kib` and `ulimit -t 10`; returns the exit
    /// code (`None`: killed by a signal), standard output and standard error.
    fn limited(dir: &Path, kib: u64, args: &[&str]) -> (Option<i32>, String, String) {
        let script = format!("ulimit -t 10 && ulimit -v {kib} && exec \"$0\" \"$@\"");
        let output = std::process::Command::new("sh")
            .current_dir(dir)
            .arg("-c")
            .arg(script)
            .arg(nimcount())
            .args(args)
            .stdin(std::process::Stdio::null())
            .output()
            .unwrap();
        let text = |bytes: &[u8]| String::from_utf8_lossy(bytes).into_owned();
        (output.status.code(), text(&output.stdout), text(&output.stderr))
    }

    /// Refused with exit code 2 and one short line free of control characters naming `needle`.
    fn refused(dir: &Path, kib: u64, args: &[&str], needle: &str) {
        let (code, stdout, stderr) = limited(dir, kib, args);
        let what = nimcount::message::quote(&args.join(" "));
        assert_eq!(code, Some(2), "{what}: exit code; stderr {}", nimcount::message::quote(&stderr));
        assert!(stdout.is_empty(), "{what}: {stdout}");
        assert_eq!(stderr.lines().count(), 1, "{what}: {}", nimcount::message::quote(&stderr));
        assert!(stderr.len() <= 400, "{what}: {} bytes: {}", stderr.len(), nimcount::message::quote(&stderr));
        let line = stderr.trim_end_matches('\n');
        assert!(!line.chars().any(nimcount::message::is_escaped), "{what}: raw control character: {line:?}");
        assert!(line.contains(needle), "{what}: {line:?} should contain {needle:?}");
    }

    /// The `losing` line of an answer.
    fn losing(dir: &Path, kib: u64, args: &[&str]) -> String {
        let (code, stdout, stderr) = limited(dir, kib, args);
        assert_eq!(code, Some(0), "{args:?}: {stderr}");
        stdout.lines().find(|l| l.starts_with("losing")).unwrap_or_default().to_string()
    }

    const GIB: u64 = 1 << 20; // in KiB, as `ulimit -v` counts
    const ULIMIT: u64 = 4_000_000;

    /// Three hundred parts over `1..=2^20`: each part's arrays fit, all of them together (7.5
    /// GiB) do not, which is refused before any is made.
    #[test]
    fn the_parts_of_a_sum_fit_in_memory_together_or_are_refused() {
        let dir = tempfile::tempdir().unwrap();
        let parts: Vec<&str> = ["--part", "nim", "1..=2^20", "3"].repeat(300);
        let args = [&["count"][..], &parts, &["--modulus", "7"]].concat();
        refused(dir.path(), GIB, &args, "the arrays of a sum of 300 parts, 2^21 slots each");
        let one =
            ["count", "--part", "nim", "1..=2^20", "3", "--part", "nim", "1..=10", "1", "--modulus", "7"];
        assert!(losing(dir.path(), GIB, &one).starts_with("losing"));
    }

    #[test]
    fn numbers_are_refused_from_their_size_before_they_are_made() {
        let dir = tempfile::tempdir().unwrap();
        for kib in [GIB, ULIMIT] {
            for sizes in
                ["1..=2^4000000000*3*3*3", "1..=2^4294967295", "1..=3^2^29", "1..=2^268435455+2^268435455"]
            {
                refused(
                    dir.path(),
                    kib,
                    &["count", "--game", "nim", "--sizes", sizes, "--heaps", "2"],
                    "bits",
                );
            }
            let chain = ["2^200000000"; 9].join("+");
            refused(
                dir.path(),
                kib,
                &["count", "--game", "nim", "--sizes", "1..=3", "--heaps", &chain],
                "bit operations",
            );
        }
    }

    #[test]
    fn histogram_counts_that_cost_more_than_they_look() {
        let dir = tempfile::tempdir().unwrap();
        let d = dir.path();
        let lines = |n: usize, count: &str| (0..n).map(|v| format!("{v} {count}\n")).collect::<String>();
        std::fs::write(d.join("two.txt"), lines(2, "2^4294967295")).unwrap();
        std::fs::write(d.join("eight.txt"), lines(8, "2^4294967295")).unwrap();
        for kib in [GIB, ULIMIT] {
            for file in ["two.txt", "eight.txt"] {
                refused(
                    d,
                    kib,
                    &["count", "--histogram", file, "--heaps", "2", "--modulus", "7"],
                    "line 1: bad count",
                );
            }
        }
    }

    /// A table whose size the file decides is checked against the address-space limit before
    /// it is made (the memory of the machine alone would let it through, and the allocation
    /// abort the process).
    #[test]
    fn memory_checks_see_the_address_space_limit() {
        let dir = tempfile::tempdir().unwrap();
        let d = dir.path();
        std::fs::write(d.join("far.txt"), "0 1\n2^29 1\n").unwrap();
        let args =
            ["count", "--histogram", "far.txt", "--heaps", "2", "--modulus", "7", "--spectrum", "array"];
        refused(d, ULIMIT, &args, "of memory is available");
        // The structured spectrum needs no table.
        let auto = ["count", "--histogram", "far.txt", "--heaps", "2", "--modulus", "7"];
        assert_eq!(losing(d, ULIMIT, &auto), "losing     2");
    }

    /// One-value lines far apart are one-point ranges: their count depends only on how the
    /// values combine by XOR, so values relabelled by an injective linear map (bit i to bit
    /// p_i) count the same as small ones.
    #[test]
    fn one_value_lines_far_apart_count_like_small_ones() {
        let dir = tempfile::tempdir().unwrap();
        let d = dir.path();
        // 0, 1, 2, 3 with the bits 0 and 1 moved to 40 and 70: 0, 2^40, 2^70, 2^40 + 2^70.
        std::fs::write(d.join("small.txt"), "0 5\n1 3\n2 7\n3 2\n").unwrap();
        std::fs::write(d.join("far.txt"), "0 5\n2^40 3\n2^70 7\n2^40+2^70 2\n").unwrap();
        std::fs::write(d.join("one.txt"), "2^40 3\n0 5\n").unwrap();
        std::fs::write(d.join("one_small.txt"), "1 3\n0 5\n").unwrap();
        for heaps in ["1", "2", "3", "7", "10^6"] {
            for modulus in [&["--modulus", "10^9+7"][..], &[][..]] {
                let run = |file: &str| {
                    let mut args = vec!["count", "--histogram", file, "--heaps", heaps];
                    args.extend_from_slice(modulus);
                    losing(d, ULIMIT, &args)
                };
                if heaps == "10^6" && modulus.is_empty() {
                    continue; // an exact answer of millions of digits
                }
                assert_eq!(run("far.txt"), run("small.txt"), "{heaps} heaps {modulus:?}");
                assert_eq!(run("one.txt"), run("one_small.txt"), "{heaps} heaps {modulus:?}");
            }
        }
        // Brute force for two heaps: 5² + 3² + 7² + 2² ordered pairs of equal values.
        assert_eq!(losing(d, ULIMIT, &["count", "--histogram", "far.txt", "--heaps", "2"]), "losing     87");
    }

    #[test]
    fn messages_are_short_and_escape_control_characters() {
        let dir = tempfile::tempdir().unwrap();
        let d = dir.path();
        let digits = "9".repeat(200_000);
        std::fs::write(d.join("long.txt"), format!("0 {digits}x\n")).unwrap();
        std::fs::write(d.join("range.txt"), format!("{digits}..=1 5\n")).unwrap();
        std::fs::write(d.join("overlap.txt"), "0..=2^20000000 1\n5 1\n").unwrap();
        std::fs::write(d.join("escape.txt"), "0 1\u{1b}[2J\n").unwrap();
        let count = |extra: &[&'static str]| {
            let mut args = vec!["count"];
            args.extend_from_slice(extra);
            args
        };
        for (args, needle) in [
            (
                count(&["--game", "squares", "--sizes", "1..=10^200000", "--heaps", "2", "--modulus", "7"]),
                "a number of 200001 digits",
            ),
            (count(&["--histogram", "long.txt", "--heaps", "2"]), "(200001 characters)"),
            (count(&["--histogram", "range.txt", "--heaps", "2"]), "664386 bits"),
            (count(&["--histogram", "overlap.txt", "--heaps", "2"]), "overlaps 0..=2^20000000 on line 1"),
            (count(&["--histogram", "escape.txt", "--heaps", "2"]), "\\u{1b}[2J"),
            (count(&["--game", "nim\u{1b}[31mX", "--sizes", "1..=3", "--heaps", "2"]), "nim\\u{1b}[31mX"),
            (
                count(&["--histogram", "no\u{1b}]0;title\u{7}.txt", "--heaps", "2"]),
                "no\\u{1b}]0;title\\u{7}.txt",
            ),
            (count(&["--gam\u{1b}[31m", "nim"]), "unexpected argument"),
            (count(&["--game", "nim", "--sizes", "1..=3", "--heaps", "2\u{9b}1"]), "\\u{9b}"),
        ] {
            refused(d, ULIMIT, &args, needle);
        }
    }
}
