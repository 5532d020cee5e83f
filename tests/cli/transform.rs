//! `nimcount transform` and `nimcount bench` as a user runs them.

use std::path::Path;

use assert_cmd::Command;
use predicates::prelude::*;

use crate::support::cli::{self, nimcount};

fn write(path: &Path, bytes: &[u8]) {
    std::fs::write(path, bytes).unwrap();
}

/// Runs a transform expected to fail: one line on stderr naming `needle`, exit code 2, and no
/// output file (not even a temporary one).
fn refused(dir: &Path, args: &[&str], needle: &str) {
    let out = dir.join("refused.out");
    cli::refused(&[&["transform"], args, &["--output", out.to_str().unwrap()]].concat(), needle);
    assert!(!out.exists(), "no output file after an error");
    let leftovers: Vec<_> = std::fs::read_dir(dir)
        .unwrap()
        .filter_map(|e| e.ok())
        .filter(|e| e.file_name().to_string_lossy().ends_with(".tmp"))
        .collect();
    assert!(leftovers.is_empty(), "no temporary files left: {leftovers:?}");
}

#[test]
fn binary_files_round_trip_for_every_ring() {
    let dir = tempfile::tempdir().unwrap();
    let cases: [(&str, Option<&str>, usize); 8] = [
        ("u32", Some("998244353"), 4),
        ("u64", Some("10^18+9"), 8),
        ("wrap32", None, 4),
        ("wrap64", None, 8),
        ("i64", None, 8),
        ("i128", None, 16),
        ("f32", None, 4),
        ("f64", None, 8),
    ];
    for (ring, modulus, size) in cases {
        let n = 256;
        // Small values: valid in every ring, and the round trip fits the exact rings' bound.
        let mut bytes = Vec::new();
        for i in 0..n as u64 {
            let v = (i * 37 + 11) % 100;
            match (ring, size) {
                ("f32", _) => bytes.extend((v as f32 - 50.0).to_le_bytes()),
                ("f64", _) => bytes.extend((v as f64 / 8.0).to_le_bytes()), // dyadic: every sum is exact
                (_, 4) => bytes.extend((v as u32).to_le_bytes()),
                (_, 8) => bytes.extend(v.to_le_bytes()),
                _ => bytes.extend(u128::from(v).to_le_bytes()),
            }
        }
        let input = dir.path().join(format!("{ring}.bin"));
        let forward = dir.path().join(format!("{ring}.fwd"));
        let back = dir.path().join(format!("{ring}.back"));
        write(&input, &bytes);
        let ring_args = |cmd: &mut Command| {
            cmd.args(["transform", "--ring", ring]);
            if let Some(m) = modulus {
                cmd.args(["--modulus", m]);
            }
        };
        let mut cmd = nimcount();
        ring_args(&mut cmd);
        cmd.arg("--input").arg(&input).arg("--output").arg(&forward).assert().success();
        let transformed = std::fs::read(&forward).unwrap();
        assert_eq!(transformed.len(), bytes.len());
        assert_ne!(transformed, bytes, "{ring}: the transform changed something");
        let mut cmd = nimcount();
        ring_args(&mut cmd);
        if ring.starts_with("wrap") {
            // No 1/2 modulo 2^w: the unnormalised inverse gives n · x.
            cmd.arg("--unnormalized");
        } else {
            cmd.arg("--inverse");
        }
        cmd.arg("--input").arg(&forward).arg("--output").arg(&back).assert().success();
        let restored = std::fs::read(&back).unwrap();
        if ring.starts_with("wrap") {
            let word = |b: &[u8], i: usize| -> u64 {
                if size == 4 {
                    u64::from(u32::from_le_bytes(b[i * 4..i * 4 + 4].try_into().unwrap()))
                } else {
                    u64::from_le_bytes(b[i * 8..i * 8 + 8].try_into().unwrap())
                }
            };
            for i in 0..n {
                assert_eq!(word(&restored, i), word(&bytes, i) * n as u64, "{ring} element {i}");
            }
        } else {
            assert_eq!(restored, bytes, "{ring}: inverse(forward(x)) == x");
        }
    }
}

#[test]
fn text_files_round_trip_and_match_a_known_transform() {
    let dir = tempfile::tempdir().unwrap();
    let input = dir.path().join("x.txt");
    let forward = dir.path().join("y.txt");
    let back = dir.path().join("z.txt");
    write(&input, b"# four residues\n1\n2\n\n3\n4\n");
    let run = |from: &Path, to: &Path, extra: &[&str]| {
        nimcount()
            .args(["transform", "--ring", "u32", "--modulus", "7", "--format", "text"])
            .args(extra)
            .arg("--input")
            .arg(from)
            .arg("--output")
            .arg(to)
            .assert()
            .success();
    };
    run(&input, &forward, &[]);
    // (10, -2, -4, 0) mod 7
    assert_eq!(std::fs::read_to_string(&forward).unwrap(), "3\n5\n3\n0\n");
    run(&forward, &back, &["--inverse"]);
    assert_eq!(std::fs::read_to_string(&back).unwrap(), "1\n2\n3\n4\n");

    // Floats are written so that they read back bit for bit: a length-1 transform is the
    // identity, so the output must be the very same numbers.
    for text in ["0.1", "-1e-300", "1e300", "-0.0", "5e-324", "1.7976931348623157e308"] {
        write(&input, format!("{text}\n").as_bytes());
        nimcount()
            .args(["transform", "--ring", "f64", "--format", "text"])
            .arg("--input")
            .arg(&input)
            .arg("--output")
            .arg(&forward)
            .assert()
            .success();
        let got: f64 = std::fs::read_to_string(&forward).unwrap().trim().parse().unwrap();
        assert_eq!(got.to_bits(), text.parse::<f64>().unwrap().to_bits(), "{text}");
    }
}

#[test]
fn bad_inputs_get_one_line_exit_code_2_and_no_output_file() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let path = |name: &str| d.join(name).to_string_lossy().into_owned();
    write(&d.join("three.bin"), &[0u8; 12]);
    write(&d.join("ragged.bin"), &[0u8; 10]);
    write(&d.join("big.bin"), &[255u8; 16]);
    write(&d.join("four.bin"), &[1u8; 16]);
    write(&d.join("bad.txt"), b"1\n2\nthree\n4\n");
    write(&d.join("neg.txt"), b"1\n-2\n3\n4\n");
    write(&d.join("odd.txt"), b"1\n0\n0\n0\n");
    write(&d.join("overflow.txt"), b"9223372036854775807\n1\n");
    let three = path("three.bin");
    let ragged = path("ragged.bin");
    let big = path("big.bin");
    let four = path("four.bin");
    let bad = path("bad.txt");
    let neg = path("neg.txt");
    let odd = path("odd.txt");
    let overflow = path("overflow.txt");
    let missing = path("missing.bin");
    refused(d, &["--ring", "u32", "--modulus", "7", "--input", &three], "not a power of two");
    refused(d, &["--ring", "u32", "--modulus", "7", "--input", &ragged], "truncated");
    refused(d, &["--ring", "u32", "--modulus", "7", "--input", &big], "not in the ring");
    refused(d, &["--ring", "u32", "--modulus", "8", "--input", &four], "odd modulus");
    refused(d, &["--ring", "u32", "--modulus", "0", "--input", &four], "odd modulus");
    refused(d, &["--ring", "u32", "--input", &four], "needs --modulus");
    refused(d, &["--ring", "f32", "--modulus", "7", "--input", &four], "takes no --modulus");
    refused(d, &["--ring", "u16", "--input", &four], "unknown ring");
    refused(d, &["--ring", "wrap32", "--inverse", "--input", &four], "no inverse of 2");
    refused(d, &["--ring", "u32", "--modulus", "7", "--format", "text", "--input", &bad], "line 3");
    refused(d, &["--ring", "u32", "--modulus", "7", "--format", "text", "--input", &neg], "line 2");
    refused(d, &["--ring", "i64", "--format", "text", "--inverse", "--input", &odd], "not divisible");
    refused(d, &["--ring", "i64", "--format", "text", "--input", &overflow], "overflow");
    refused(d, &["--ring", "u32", "--modulus", "7", "--input", &missing], "missing.bin");
    refused(d, &["--ring", "u32", "--modulus", "7", "--input", &four, "--format", "xml"], "invalid value");
}

#[test]
fn an_output_file_is_replaced_only_by_a_complete_result() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("result.txt");
    write(&out, b"previous\n");
    write(&dir.path().join("bad.txt"), b"1\nx\n");
    nimcount()
        .args(["transform", "--ring", "u32", "--modulus", "7", "--format", "text", "--input"])
        .arg(dir.path().join("bad.txt"))
        .arg("--output")
        .arg(&out)
        .assert()
        .code(2);
    assert_eq!(std::fs::read_to_string(&out).unwrap(), "previous\n");
}

#[test]
fn bench_prints_one_json_object_with_the_contracted_fields() {
    let assert = nimcount()
        .args([
            "bench",
            "--ring",
            "u32",
            "--modulus",
            "998244353",
            "--log2",
            "12",
            "--threads",
            "1",
            "--runs",
            "3",
            "--json",
        ])
        .assert()
        .success();
    let stdout = String::from_utf8(assert.get_output().stdout.clone()).unwrap();
    let value: serde_json::Value = serde_json::from_str(stdout.trim()).expect("one JSON object");
    for key in [
        "ring",
        "log2",
        "threads",
        "median_ns",
        "ns_per_element_level",
        "gbps",
        "textbook_median_ns",
        "ratio",
    ] {
        assert!(value.get(key).is_some_and(|v| !v.is_null()), "missing {key}: {stdout}");
    }
    assert_eq!(value["log2"], 12);
    assert_eq!(value["threads"], 1);
    assert!(value["median_ns"].as_u64().unwrap() > 0);
    for ring in ["wrap64", "i64", "i128", "f32", "f64"] {
        nimcount()
            .args(["bench", "--ring", ring, "--log2", "6", "--runs", "2"])
            .assert()
            .success()
            .stdout(predicate::str::contains("speed-up"));
    }
}

#[test]
fn bench_refuses_sizes_that_cannot_fit_before_allocating() {
    nimcount()
        .args(["bench", "--ring", "f64", "--log2", "40"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("needs").and(predicate::str::contains("available")));
    nimcount()
        .args(["bench", "--ring", "f64", "--log2", "41"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("at most 40"));
    nimcount().args(["bench", "--ring", "f64", "--log2", "4", "--backend", "sse9"]).assert().code(2);
    nimcount().args(["bench", "--ring", "f64", "--log2", "4", "--threads", "0"]).assert().code(2);
}

#[test]
fn a_forced_backend_gives_the_same_transform() {
    let dir = tempfile::tempdir().unwrap();
    let input = dir.path().join("x.bin");
    let bytes: Vec<u8> =
        (0..4096u32).flat_map(|i| (i.wrapping_mul(2_654_435_761) % 998_244_353).to_le_bytes()).collect();
    write(&input, &bytes);
    let mut outputs = Vec::new();
    for backend in ["scalar", "avx2", "avx512"] {
        let out = dir.path().join(format!("{backend}.bin"));
        let assert = nimcount()
            .env("NIMCOUNT_BACKEND", backend)
            .args(["transform", "--ring", "u32", "--modulus", "998244353", "--input"])
            .arg(&input)
            .arg("--output")
            .arg(&out)
            .assert();
        if assert.get_output().status.success() {
            outputs.push(std::fs::read(&out).unwrap());
        } else {
            use std::io::Write;
            let _ =
                writeln!(std::io::stderr(), "SKIPPED forced backend {backend}: not available on this CPU");
        }
    }
    assert!(outputs.windows(2).all(|w| w[0] == w[1]));
    nimcount()
        .env("NIMCOUNT_BACKEND", "sse9")
        .args(["transform", "--ring", "u32", "--modulus", "998244353", "--input"])
        .arg(&input)
        .arg("--output")
        .arg(dir.path().join("never.bin"))
        .assert()
        .code(2)
        .stderr(predicate::str::contains("NIMCOUNT_BACKEND"));
}

#[cfg(unix)]
#[test]
fn input_can_be_a_pipe() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("y.bin");
    let input: Vec<u8> = [1u32, 2].iter().flat_map(|v| v.to_le_bytes()).collect();
    nimcount()
        .args(["transform", "--ring", "u32", "--modulus", "7", "--input", "/dev/stdin", "--output"])
        .arg(&out)
        .write_stdin(input)
        .assert()
        .success();
    assert_eq!(
        std::fs::read(&out).unwrap(),
        [3u32, 6].iter().flat_map(|v| v.to_le_bytes()).collect::<Vec<u8>>()
    );
    nimcount()
        .args(["transform", "--ring", "u32", "--modulus", "7", "--input", "/dev/stdin", "--output"])
        .arg(dir.path().join("never.bin"))
        .write_stdin(vec![1u8, 0, 0])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("3 bytes is not a whole number"));
    assert!(!dir.path().join("never.bin").exists());
}

/// Built without the `mpi` feature, every `--distributed` is refused in one line.
#[cfg(not(feature = "mpi"))]
#[test]
fn distributed_needs_the_mpi_feature() {
    let commands: [&[&str]; 3] = [
        &["bench", "--distributed", "--ring", "u32", "--modulus", "7", "--log2", "10"],
        &["count", "--game", "nim", "--sizes", "1..=9", "--heaps", "2", "--distributed"],
        &["transform", "--distributed", "--ring", "wrap32", "--input", "x", "--output", "y"],
    ];
    for args in commands {
        let assert = nimcount().args(args).assert().code(2).stdout("");
        let stderr = String::from_utf8(assert.get_output().stderr.clone()).unwrap();
        assert_eq!(
            stderr,
            "error: --distributed needs nimcount built with the mpi feature (cargo build --release --features mpi)\n"
        );
    }
}

#[test]
fn bench_times_the_hadamard_transforms_of_half_precision_and_lengths_m_2_k() {
    for (ring, len) in [("bf16", "28*2^4"), ("f16", "2^6"), ("f32", "12*2^3"), ("f64", "40")] {
        let assert = nimcount()
            .args(["bench", "--ring", ring, "--len", len, "--runs", "2", "--threads", "1", "--json"])
            .assert()
            .success();
        let stdout = String::from_utf8(assert.get_output().stdout.clone()).unwrap();
        let value: serde_json::Value = serde_json::from_str(stdout.trim()).expect("one JSON object");
        assert_eq!(value["ring"], ring);
        for key in ["len", "order", "median_ns", "baseline_median_ns", "ratio"] {
            assert!(value.get(key).is_some_and(|v| !v.is_null()), "missing {key}: {stdout}");
        }
    }
    nimcount()
        .args(["bench", "--ring", "bf16", "--log2", "5", "--runs", "2"])
        .assert()
        .success()
        .stdout(predicate::str::contains("= 1·2^5 bf16").and(predicate::str::contains("speed-up")));
    cli::refused(&["bench", "--ring", "f16", "--len", "30"], "K·2^k for K in 12, 20");
    cli::refused(&["bench", "--ring", "u32", "--modulus", "7", "--len", "12"], "f16, bf16, f32 and f64");
    cli::refused(&["bench", "--ring", "bf16", "--len", "2^60"], "needs");
}

/// Small values at indices 0..8, as a text file and as numbers.
fn small(seed: i64) -> Vec<i64> {
    (0..8).map(|i| (i * seed + 3) % 7 - 3).collect()
}

fn text(values: &[i64]) -> String {
    values.iter().map(|v| format!("{v}\n")).collect()
}

/// `nimcount` with `args` and the text files `files`, the standard output of a success.
fn answer(dir: &Path, args: &[&str], files: &[(&str, &[i64])]) -> String {
    for (name, values) in files {
        write(&dir.join(name), text(values).as_bytes());
    }
    let output = nimcount().current_dir(dir).args(args).output().unwrap();
    assert_eq!(output.status.code(), Some(0), "{args:?}: {}", String::from_utf8_lossy(&output.stderr));
    String::from_utf8(output.stdout).unwrap()
}

#[test]
fn zeta_and_mobius_kinds_match_brute_force_sums() {
    let dir = tempfile::tempdir().unwrap();
    let x = small(5);
    let subset: Vec<i64> = (0..8).map(|s| (0..8).filter(|t| t & s == *t).map(|t| x[t]).sum()).collect();
    let superset: Vec<i64> = (0..8).map(|s| (0..8).filter(|t| t & s == s).map(|t| x[t]).sum()).collect();
    let hadamard: Vec<i64> = (0..8_usize)
        .map(|s| (0..8_usize).map(|t| if (s & t).count_ones() % 2 == 0 { x[t] } else { -x[t] }).sum())
        .collect();
    let base = ["transform", "--ring", "i64", "--format", "text", "--output", "-", "--input"];
    for (kind, expected) in [("xor", &hadamard), ("and", &superset), ("or", &subset)] {
        let forward = answer(dir.path(), &[&base[..], &["x.txt", "--kind", kind]].concat(), &[("x.txt", &x)]);
        assert_eq!(forward, text(expected), "--kind {kind}");
        if kind != "xor" {
            // The Möbius transform undoes the zeta transform.
            let back = answer(
                dir.path(),
                &[&base[..], &["y.txt", "--kind", kind, "--inverse"]].concat(),
                &[("y.txt", expected)],
            );
            assert_eq!(back, text(&x), "--kind {kind} --inverse");
        }
    }
    // The default kind is xor.
    assert_eq!(answer(dir.path(), &[&base[..], &["x.txt"]].concat(), &[]), text(&hadamard));
    // The Möbius transform needs no 1/2: wrap32 has it, the negative values wrapping.
    let wrap = ["transform", "--ring", "wrap32", "--format", "text", "--output", "-", "--inverse"];
    let back = answer(
        dir.path(),
        &[&wrap[..], &["--kind", "or", "--input", "four.txt"]].concat(),
        &[("four.txt", &[1, 3, 4, 10])],
    );
    assert_eq!(back, "1\n2\n3\n4\n");
    let back = answer(
        dir.path(),
        &[&wrap[..], &["--kind", "and", "--input", "four.txt"]].concat(),
        &[("four.txt", &[1, 2, 3, 4])],
    );
    assert_eq!(back, "0\n4294967294\n4294967295\n4\n");
}

/// The index a pair of indices adds to, if any.
type Keep = fn(usize, usize) -> Option<usize>;

#[test]
fn convolutions_of_every_kind_match_brute_force() {
    let dir = tempfile::tempdir().unwrap();
    let (a, b) = (small(3), small(5));
    let brute = |keep: Keep| -> Vec<i64> {
        let mut c = vec![0; 8];
        for (i, x) in a.iter().enumerate() {
            for (j, y) in b.iter().enumerate() {
                if let Some(s) = keep(i, j) {
                    c[s] += x * y;
                }
            }
        }
        c
    };
    let cases: [(&str, Keep); 4] = [
        ("xor", |i, j| Some(i ^ j)),
        ("and", |i, j| Some(i & j)),
        ("or", |i, j| Some(i | j)),
        ("subset", |i, j| (i & j == 0).then_some(i | j)),
    ];
    for (kind, keep) in cases {
        let args = ["convolve", "--kind", kind, "--ring", "i64", "--format", "text", "a.txt", "b.txt"];
        let c = answer(dir.path(), &args, &[("a.txt", &a), ("b.txt", &b)]);
        assert_eq!(c, text(&brute(keep)), "--kind {kind}");
        // Modulo 7, the same numbers reduced.
        let m = ["convolve", "--kind", kind, "--ring", "u32", "--modulus", "7", "--format", "text"];
        let reduced: Vec<i64> = brute(keep).iter().map(|v| v.rem_euclid(7)).collect();
        let (ra, rb): (Vec<i64>, Vec<i64>) =
            (a.iter().map(|v| v.rem_euclid(7)).collect(), b.iter().map(|v| v.rem_euclid(7)).collect());
        let c = answer(
            dir.path(),
            &[&m[..], &["ra.txt", "rb.txt"]].concat(),
            &[("ra.txt", &ra), ("rb.txt", &rb)],
        );
        assert_eq!(c, text(&reduced), "--kind {kind} modulo 7");
    }
    // The default kind is xor, the default format binary, written to --output.
    let out = dir.path().join("c.bin");
    let bytes = |v: &[i64]| -> Vec<u8> { v.iter().flat_map(|x| x.to_le_bytes()).collect() };
    write(&dir.path().join("a.bin"), &bytes(&a));
    write(&dir.path().join("b.bin"), &bytes(&b));
    nimcount()
        .current_dir(dir.path())
        .args(["convolve", "--ring", "i64", "a.bin", "b.bin", "--output"])
        .arg(&out)
        .assert()
        .success()
        .stdout(predicate::str::is_empty());
    assert_eq!(std::fs::read(&out).unwrap(), bytes(&brute(|i, j| Some(i ^ j))));
}

#[test]
fn hostile_kinds_and_lengths_are_refused_in_one_line() {
    let dir = tempfile::tempdir().unwrap();
    let at = |name: &str| dir.path().join(name).to_str().unwrap().to_string();
    write(&dir.path().join("four.txt"), b"1\n2\n3\n4\n");
    write(&dir.path().join("three.txt"), b"1\n2\n3\n");
    write(&dir.path().join("two.txt"), b"1\n2\n");
    let (four, three, two) = (at("four.txt"), at("three.txt"), at("two.txt"));
    let text = ["--ring", "i64", "--format", "text"];
    refused(dir.path(), &[&text[..], &["--kind", "nand", "--input", &four]].concat(), "'nand'");
    refused(dir.path(), &[&text[..], &["--kind", "or", "--input", &three]].concat(), "not a power of two");
    refused(
        dir.path(),
        &[&text[..], &["--kind", "and", "--unnormalized", "--input", &four]].concat(),
        "--unnormalized",
    );
    let convolve = |args: &[&str], needle: &str| {
        let out = at("refused.out");
        cli::refused(&[&["convolve"], &text[..], args, &["--output", &out]].concat(), needle);
        assert!(!Path::new(&out).exists(), "no output file after an error");
    };
    convolve(&["--kind", "nand", &four, &four], "'nand'");
    convolve(&["--kind", "subset", &three, &four], "not a power of two");
    convolve(&["--kind", "and", &four, &three], "not a power of two");
    for kind in ["xor", "and", "or", "subset"] {
        convolve(&["--kind", kind, &two, &four], "different lengths");
    }
    let wrap = ["convolve", "--ring", "wrap32", "--format", "text", "--kind", "xor", &four, &four];
    cli::refused(&wrap, "inverse of 2");
    convolve(&[&four], "B");
}
