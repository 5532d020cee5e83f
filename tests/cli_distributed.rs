//! `--distributed` from the command line, under `mpirun` on this machine: the answers match the
//! single-process commands, and bad setups end every process with a one-line error and a
//! non-zero status instead of a hang.

use std::path::Path;
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

const NIMCOUNT: &str = env!("CARGO_BIN_EXE_nimcount");

/// Far more than any of these runs takes; a run still going then is a hang.
const HANG: Duration = Duration::from_secs(180);

/// `mpirun` with `ranks` (a list of (processes, prefix) groups) running `nimcount args`; each
/// group's processes run `prefix nimcount args` (a prefix such as `sh -c 'ulimit …; exec "$0" "$@"'`).
fn mpirun_groups(groups: &[(usize, &[&str])], args: &[&str]) -> Output {
    let mut command = Command::new("mpirun");
    command.args(["--oversubscribe", "--quiet"]);
    for (i, (processes, prefix)) in groups.iter().enumerate() {
        if i > 0 {
            command.arg(":");
        }
        command.args(["-n", &processes.to_string()]).args(*prefix).arg(NIMCOUNT).args(args);
    }
    // Open MPI refuses to run as root without these (CI runs as root); harmless otherwise.
    command.env("OMPI_ALLOW_RUN_AS_ROOT", "1").env("OMPI_ALLOW_RUN_AS_ROOT_CONFIRM", "1");
    command.stdin(Stdio::null()).stdout(Stdio::piped()).stderr(Stdio::piped());
    let mut child = command.spawn().expect("mpirun runs (apt-get install openmpi-bin)");
    let start = Instant::now();
    while child.try_wait().expect("wait").is_none() {
        if start.elapsed() > HANG {
            let _ = child.kill();
            panic!("mpirun {args:?} still running after {HANG:?}: a hang");
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    child.wait_with_output().expect("output")
}

fn mpirun(processes: usize, args: &[&str]) -> Output {
    mpirun_groups(&[(processes, &[])], args)
}

fn nimcount(args: &[&str]) -> Output {
    let out = Command::new(NIMCOUNT).args(args).output().expect("nimcount runs");
    assert!(out.status.success(), "{args:?}: {}", String::from_utf8_lossy(&out.stderr));
    out
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// Every one of `processes` printed one line `error: …` and nothing went to standard output;
/// `expect` is in the line of at least one process, and every line either has it or names the
/// process that failed.
fn failed_everywhere(out: &Output, processes: usize, expect: &str) {
    let stderr = text(&out.stderr);
    assert!(!out.status.success(), "exit status 0; stderr: {stderr}");
    assert!(out.stdout.is_empty(), "stdout: {}", text(&out.stdout));
    let errors: Vec<&str> = stderr.lines().filter(|l| l.starts_with("error: ")).collect();
    assert_eq!(errors.len(), processes, "one error line per process: {stderr}");
    assert!(errors.iter().any(|l| l.contains(expect)), "{expect:?} in {stderr}");
    assert!(errors.iter().all(|l| l.contains(expect) || l.contains(" failed: ")), "{stderr}");
}

#[test]
fn counts_match_the_single_process_count() {
    let query = [
        "count",
        "--game",
        "subtract:1-1000000",
        "--sizes",
        "1..=12983567378251",
        "--heaps",
        "98670634123",
        "--json",
    ];
    for modulus in ["10^9+7", "2^64"] {
        let args: Vec<&str> = query.iter().copied().chain(["--modulus", modulus]).collect();
        let one: serde_json::Value = serde_json::from_slice(&nimcount(&args).stdout).unwrap();
        for exchange in ["shared", "all-to-all"] {
            let args: Vec<&str> =
                args.iter().copied().chain(["--distributed", "--exchange", exchange]).collect();
            let out = mpirun(2, &args);
            assert!(out.status.success(), "{}", text(&out.stderr));
            let two: serde_json::Value =
                serde_json::from_slice(&out.stdout).expect("one JSON object, from rank 0");
            for field in ["losing", "winning", "total", "modulus", "transform_size"] {
                assert_eq!(two[field], one[field], "{field} modulo {modulus}, {exchange}");
            }
            assert_eq!(two["processes"], 2);
        }
    }
    // The text report says how the slots were spread.
    let out = mpirun(
        4,
        &["count", "--game", "octal:0.137", "--sizes", "1..=10^6", "--heaps", "3", "--distributed"],
    );
    let stdout = text(&out.stdout);
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert!(stdout.contains("processes  4, 2^2 slots each"), "{stdout}");
    let one =
        text(&nimcount(&["count", "--game", "octal:0.137", "--sizes", "1..=10^6", "--heaps", "3"]).stdout);
    let losing = |s: &str| s.lines().find(|l| l.starts_with("losing")).map(str::to_string);
    assert_eq!(losing(&stdout), losing(&one));
}

#[test]
fn transforms_of_a_shared_file_match_the_single_process_transform() {
    let dir = tempfile::tempdir().unwrap();
    let input = dir.path().join("x.bin");
    let x: Vec<u32> = (0..1u32 << 12).map(|i| i.wrapping_mul(2_654_435_761) % 998_244_353).collect();
    std::fs::write(&input, bytemuck::cast_slice(&x)).unwrap();
    let path = |name: &str| dir.path().join(name).display().to_string();
    let ring = ["--ring", "u32", "--modulus", "998244353"];
    let input = input.display().to_string();
    let one = path("one.bin");
    nimcount(&[&["transform", "--input", &input, "--output", &one][..], &ring].concat());
    for (processes, exchange) in [(1, "shared"), (4, "shared"), (4, "all-to-all")] {
        let out_path = path(&format!("{processes}.{exchange}.bin"));
        let args = [
            &["transform", "--distributed", "--exchange", exchange, "--input", &input, "--output", &out_path]
                [..],
            &ring,
        ]
        .concat();
        let out = mpirun(processes, &args);
        assert!(out.status.success(), "{}", text(&out.stderr));
        assert!(std::fs::read(&out_path).unwrap() == std::fs::read(&one).unwrap(), "{processes} processes");
        let back = path(&format!("{processes}.{exchange}.back.bin"));
        let args = [
            &["transform", "--distributed", "--inverse", "--input", &out_path, "--output", &back][..],
            &ring,
        ]
        .concat();
        assert!(mpirun(processes, &args).status.success());
        assert!(std::fs::read(&back).unwrap() == std::fs::read(&input).unwrap(), "inverse on {processes}");
    }
    // No temporary file is left behind.
    let left: Vec<_> = std::fs::read_dir(dir.path()).unwrap().map(|e| e.unwrap().file_name()).collect();
    assert_eq!(left.len(), 8, "{left:?}");
}

#[test]
fn bench_reports_its_parts() {
    let out =
        mpirun(2, &["bench", "--distributed", "--ring", "f32", "--log2", "14", "--runs", "3", "--json"]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).expect("one JSON object, from rank 0");
    assert_eq!(
        (v["processes"].as_u64(), v["log2"].as_u64(), v["runs"].as_u64()),
        (Some(2), Some(14), Some(3))
    );
    for field in [
        "median_ns",
        "local_median_ns",
        "node_median_ns",
        "exchange_median_ns",
        "levels_median_ns",
        "gbps",
        "exchange_share",
        "exchange_bytes",
    ] {
        assert!(v[field].as_f64().is_some_and(|x| x >= 0.0), "{field}: {v}");
    }
    assert_eq!((v["exchange"].as_str(), v["processes_per_node"].as_u64()), (Some("shared"), Some(2)));
    // The forced exchange between nodes sends half of each block there and half of it back, and
    // --compare times one process alone with 1 and 2 threads.
    let out = mpirun(
        2,
        &[
            "bench",
            "--distributed",
            "--ring",
            "u32",
            "--modulus",
            "7",
            "--log2",
            "14",
            "--runs",
            "2",
            "--exchange",
            "all-to-all",
            "--compare",
            "--json",
        ],
    );
    assert!(out.status.success(), "{}", text(&out.stderr));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).expect("one JSON object, from rank 0");
    assert_eq!(v["exchange_bytes"].as_u64(), Some(2 * (1 << 13) * 4 / 2), "{v}");
    assert_eq!(v["processes_per_node"].as_u64(), Some(1), "{v}");
    for field in ["alone_1_thread_median_ns", "alone_all_threads_median_ns", "speedup_vs_1_thread"] {
        assert!(v[field].as_f64().is_some_and(|x| x > 0.0), "{field}: {v}");
    }
    let out = mpirun(
        2,
        &["bench", "--distributed", "--ring", "u32", "--modulus", "998244353", "--log2", "12", "--runs", "2"],
    );
    let stdout = text(&out.stdout);
    assert!(
        stdout.starts_with("distributed forward transform of 2^12 u32 mod 998244353 elements"),
        "{stdout}"
    );
    assert!(stdout.contains("on 2 processes (2^11 each; 1 node of 2 sharing memory"), "{stdout}");
    assert!(stdout.contains("\nnode ") && stdout.contains("exchange"), "{stdout}");
}

#[test]
fn a_process_count_that_is_not_a_power_of_two_fails_everywhere() {
    let out = mpirun(3, &["bench", "--distributed", "--ring", "u32", "--modulus", "7", "--log2", "10"]);
    failed_everywhere(&out, 3, "3 processes: a distributed transform needs a power of two");
    let out = mpirun(3, &["count", "--game", "nim", "--sizes", "1..=100", "--heaps", "2", "--distributed"]);
    failed_everywhere(&out, 3, "3 processes");
}

#[test]
fn more_processes_than_elements_fail_everywhere() {
    let out = mpirun(4, &["bench", "--distributed", "--ring", "wrap32", "--log2", "1"]);
    failed_everywhere(&out, 4, "4 processes for 2 elements");
    // A count whose transform has 2 slots.
    let out = mpirun(4, &["count", "--game", "nim", "--sizes", "0..=1", "--heaps", "2", "--distributed"]);
    failed_everywhere(&out, 4, "4 processes for 2 elements");
}

#[test]
fn a_missing_file_fails_everywhere_and_writes_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let missing = dir.path().join("missing.bin").display().to_string();
    let output = dir.path().join("out.bin");
    let args = ["transform", "--distributed", "--ring", "wrap32", "--input", &missing, "--output"];
    let out = mpirun(2, &[&args[..], &[output.to_str().unwrap()]].concat());
    failed_everywhere(&out, 2, "missing.bin");
    assert!(!output.exists());
    assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 0);

    // A file whose length is not a power of two of elements.
    let odd = dir.path().join("odd.bin");
    std::fs::write(&odd, [0u8; 12]).unwrap();
    let args =
        ["transform", "--distributed", "--ring", "wrap32", "--input", odd.to_str().unwrap(), "--output"];
    let out = mpirun(2, &[&args[..], &[output.to_str().unwrap()]].concat());
    failed_everywhere(&out, 2, "3 elements is not a power of two");
    assert!(!output.exists());
}

/// Refusals found before MPI starts end the process at once; mpirun then ends the others (so
/// not every process need print its line), and nothing hangs.
#[test]
fn standard_streams_are_refused_for_slices() {
    let dir = tempfile::tempdir().unwrap();
    let input = dir.path().join("x.bin");
    std::fs::write(&input, [0u8; 64]).unwrap();
    let input = input.to_str().unwrap();
    for (args, expect) in [
        (["--input", "-", "--output", "y.bin"], "not standard input"),
        (["--input", input, "--output", "-"], "cannot write '-' in slices: it is not a regular file"),
    ] {
        let out = mpirun(2, &[&["transform", "--distributed", "--ring", "wrap32"][..], &args].concat());
        let stderr = text(&out.stderr);
        assert!(!out.status.success() && out.stdout.is_empty(), "{stderr}");
        assert!(
            stderr.lines().any(|l| l.starts_with("error: ") && l.contains(expect)),
            "{expect:?} in {stderr}"
        );
    }
    assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 1, "only the input");
}

#[test]
fn one_process_that_cannot_allocate_fails_everywhere() {
    // The first process may map at most 1.5 GiB of address space, then 0.75 GiB; the others
    // have no limit. 2^29 u32 over two processes.
    if !Path::new("/bin/sh").exists() {
        eprintln!("SKIPPED: no /bin/sh to set the first process's limit");
        return;
    }
    // Sharing memory, every process of the node maps the node's whole part (2 GiB).
    let limited: &[&str] = &["sh", "-c", "ulimit -v 1572864 && exec \"$0\" \"$@\""];
    let args =
        ["bench", "--distributed", "--ring", "u32", "--modulus", "998244353", "--log2", "29", "--runs", "1"];
    let out = mpirun_groups(&[(1, limited), (1, &[])], &args);
    failed_everywhere(&out, 2, "the shared memory of 2 processes of one node (2^29 elements) needs 2.00 GiB");
    // Every process a node of its own, each maps its block (1 GiB) and two chunk buffers, no
    // more: that runs within 1.5 GiB of address space, and fails within 0.75 GiB.
    let exchange: Vec<&str> = args.iter().copied().chain(["--exchange", "all-to-all"]).collect();
    let out = mpirun_groups(&[(1, limited), (1, &[])], &exchange);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let tighter: &[&str] = &["sh", "-c", "ulimit -v 786432 && exec \"$0\" \"$@\""];
    let out = mpirun_groups(&[(1, tighter), (1, &[])], &exchange);
    failed_everywhere(&out, 2, "a block of 2^28 elements needs 1.00 GiB");
}

/// The distributed transform writes through the one writer of output files: a replaced file
/// keeps its permissions, and no temporary file is left.
#[test]
fn a_distributed_transform_keeps_the_permissions_of_the_file_it_replaces() {
    use std::os::unix::fs::PermissionsExt;
    let dir = tempfile::tempdir().unwrap();
    let input = dir.path().join("x.bin");
    std::fs::write(&input, bytemuck::cast_slice(&[1u32, 2, 3, 4])).unwrap();
    let output = dir.path().join("out.bin");
    std::fs::write(&output, b"old").unwrap();
    std::fs::set_permissions(&output, std::fs::Permissions::from_mode(0o640)).unwrap();
    let args = ["transform", "--distributed", "--ring", "wrap32", "--input", input.to_str().unwrap()];
    let out = mpirun(2, &[&args[..], &["--output", output.to_str().unwrap()]].concat());
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert_eq!(std::fs::metadata(&output).unwrap().permissions().mode() & 0o777, 0o640);
    let words: Vec<u32> = std::fs::read(&output)
        .unwrap()
        .chunks(4)
        .map(|c| u32::from_le_bytes(c.try_into().unwrap()))
        .collect();
    assert_eq!(words, [10, u32::MAX - 1, u32::MAX - 3, 0]);
    assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 2, "no temporary file left");
}

/// A survey spread over two processes prints what one process prints (the times aside).
#[test]
fn a_distributed_survey_prints_the_same_table() {
    let args = ["survey", "octal:0.??", "--max-seconds-per-game", "0.2", "--json"];
    let timeless = |bytes: &[u8]| -> Vec<serde_json::Value> {
        let mut rows: Vec<serde_json::Value> = serde_json::from_slice(bytes).unwrap();
        for row in &mut rows {
            row.as_object_mut().unwrap().remove("seconds");
        }
        rows
    };
    let alone = timeless(&nimcount(&args).stdout);
    let out = mpirun(2, &[&args[..], &["--distributed"]].concat());
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert_eq!(timeless(&out.stdout), alone);
    assert_eq!(alone.len(), 42);
}
