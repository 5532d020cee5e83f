//! `bench --kind`: the zeta transforms (and, or) and the subset convolution are timed like the
//! xor transform, in the same output format, and the options that only the xor transform takes
//! are refused with one line.

use assert_cmd::Command;
use serde_json::Value;

use crate::support::cli::refused;

fn bench(args: &[&str]) -> Vec<u8> {
    let output = Command::cargo_bin("nimcount").unwrap().arg("bench").args(args).output().unwrap();
    assert!(output.status.success(), "{args:?}: {}", String::from_utf8_lossy(&output.stderr));
    output.stdout
}

#[test]
fn every_kind_is_timed_against_its_textbook_loop() {
    let keys = |o: &Value| o.as_object().unwrap().keys().cloned().collect::<Vec<_>>();
    let mut first: Option<Value> = None;
    for (kind, headline) in [
        ("xor", "forward transform of 2^6"),
        ("and", "superset zeta transform (and) of 2^6"),
        ("or", "subset zeta transform (or) of 2^6"),
        ("subset", "subset convolution of 2^6"),
    ] {
        for ring in [&["--ring", "u32", "--modulus", "998244353"][..], &["--ring", "i64"], &["--ring", "f64"]]
        {
            let args =
                [ring, &["--kind", kind, "--log2", "6", "--runs", "2", "--threads", "1", "--json"]].concat();
            let o: Value = serde_json::from_slice(&bench(&args)).unwrap();
            assert_eq!(o["kind"], kind, "{args:?}");
            assert_eq!(o["ring"], ring[1], "{args:?}");
            assert_eq!(
                (o["log2"].as_u64(), o["runs"].as_u64(), o["textbook_runs"].as_u64()),
                (Some(6), Some(2), Some(2))
            );
            assert!(o["ratio"].as_f64().unwrap() > 0.0, "{args:?}");
            // The same object for every kind.
            match &first {
                Some(f) => assert_eq!(keys(&o), keys(f), "{args:?}"),
                None => first = Some(o),
            }
        }
        let text =
            bench(&["--kind", kind, "--ring", "wrap32", "--log2", "6", "--runs", "1", "--threads", "1"]);
        let text = String::from_utf8(text).unwrap();
        assert!(text.starts_with(headline), "{kind}: {text}");
        assert!(text.contains("\nnimcount  median") && text.contains("\ntextbook  median"), "{kind}: {text}");
        assert!(text.contains("over the textbook loop"), "{kind}: {text}");
    }
    // Without the textbook loop, and over a sweep.
    let o: Value = serde_json::from_slice(&bench(&[
        "--kind",
        "or",
        "--ring",
        "u64",
        "--modulus",
        "1000000007",
        "--log2",
        "0",
        "--runs",
        "1",
        "--no-textbook",
        "--json",
    ]))
    .unwrap();
    assert_eq!((o["kind"].as_str(), o["ratio"].as_f64()), (Some("or"), None));
    let list: Value = serde_json::from_slice(&bench(&[
        "--kind",
        "subset",
        "--ring",
        "u32,f32",
        "--modulus",
        "7",
        "--sweep",
        "1..=2",
        "--runs",
        "1",
        "--json",
    ]))
    .unwrap();
    let kinds: Vec<&str> = list.as_array().unwrap().iter().map(|o| o["kind"].as_str().unwrap()).collect();
    assert_eq!(kinds, ["subset"; 4]);
}

#[test]
fn options_of_the_xor_transform_alone_are_refused_with_other_kinds() {
    refused(&["bench", "--kind", "and", "--ring", "f16", "--log2", "4"], "machine learning");
    refused(&["bench", "--kind", "or", "--ring", "f32", "--len", "12*2^4"], "machine learning");
    refused(&["bench", "--kind", "nand", "--ring", "f32", "--log2", "4"], "nand");
}

#[test]
fn the_subset_convolution_runs_on_the_backend_asked_for() {
    for backend in nimcount::fwht::Backend::ALL {
        let name = backend.name();
        if !backend.is_available() {
            eprintln!("SKIPPED: --kind subset --backend {name} (this CPU lacks it)");
            continue;
        }
        let args =
            ["--kind", "subset", "--ring", "u32", "--modulus", "998244353", "--log2", "9", "--backend", name];
        let o: Value = serde_json::from_slice(&bench(&[&args[..], &["--json"]].concat())).unwrap();
        assert_eq!(o["backend"], name, "{o}");
        assert_eq!(o["kind"], "subset", "{o}");
    }
}

#[test]
fn sweeps_of_half_precision_and_of_the_lengths_m_2_k() {
    let json = |args: &[&str]| -> Vec<Value> {
        let mut all = vec!["--runs", "1", "--threads", "1", "--json"];
        all.extend_from_slice(args);
        serde_json::from_slice::<Value>(&bench(&all)).unwrap().as_array().unwrap().clone()
    };
    let rows = |list: &[Value]| -> Vec<(String, u64, u64, u64)> {
        list.iter()
            .map(|o| {
                assert_eq!(o["ring"], o["storage"], "{o}");
                assert_eq!(o["len"], o["elements"], "{o}");
                assert!(o["ratio"].as_f64().unwrap() > 0.0, "{o}");
                let n = |k: &str| o[k].as_u64().unwrap();
                (o["storage"].as_str().unwrap().to_string(), n("order"), n("log2"), n("len"))
            })
            .collect()
    };
    let row = |s: &str, m, k, len| (s.to_string(), m, k, len);
    // Powers of two from 2^0, sizes outer, storage types inner.
    let list = json(&["--ring", "f16,bf16", "--sweep", "0..=2"]);
    assert_eq!(
        rows(&list),
        [row("f16", 1, 0, 1), row("bf16", 1, 0, 1), row("f16", 1, 1, 2), row("bf16", 1, 1, 2)]
            .into_iter()
            .chain([row("f16", 1, 2, 4), row("bf16", 1, 2, 4)])
            .collect::<Vec<_>>()
    );
    // 28·2^k, and f32 beside f16 (the Hadamard transform of both, not the ring's transform).
    let list = json(&["--ring", "f32", "--ring", "f16", "--sweep", "0..=1", "--len-factor", "28"]);
    assert_eq!(
        rows(&list),
        [row("f32", 28, 0, 28), row("f16", 28, 0, 28), row("f32", 28, 1, 56), row("f16", 28, 1, 56)]
    );
    // f32 alone is still the ring's transform of 2^k elements.
    let list = json(&["--ring", "f32", "--sweep", "1..=1"]);
    assert_eq!(rows(&list), [row("f32", 1, 1, 2)]);
    assert_eq!(list[0]["textbook_median_ns"].as_u64().map(|_| ()), Some(()));

    // The table names the length and the storage type on every line.
    let text = String::from_utf8(bench(&[
        "--ring",
        "bf16",
        "--sweep",
        "2..=3",
        "--len-factor",
        "12",
        "--runs",
        "1",
        "--threads",
        "1",
    ]))
    .unwrap();
    let lines: Vec<&str> = text.lines().collect();
    assert!(lines[0].starts_with("hadamard transform scaled by 1/√L, backend "), "{text}");
    let head: Vec<&str> = lines[1].split_whitespace().collect();
    assert_eq!(head[..3], ["log2", "len", "ring"], "{text}");
    assert!(lines[1].contains("passes") && lines[1].contains("speed-up"), "{text}");
    let cells: Vec<Vec<&str>> = lines[2..].iter().map(|l| l.split_whitespace().take(3).collect()).collect();
    assert_eq!(cells, [["2", "12·2^2", "bf16"], ["3", "12·2^3", "bf16"]], "{text}");
}

/// `--len-factor` with `--len` overrides the rule's factor, and `--family` picks whose matrix:
/// the first line names the length as the plan splits it and the family.
#[test]
fn one_length_takes_the_factor_and_the_family_asked_for() {
    let first = |args: &[&str]| {
        let out = String::from_utf8(bench(&[args, &["--runs", "1", "--threads", "1"][..]].concat())).unwrap();
        out.lines().next().unwrap().to_string()
    };
    let line = first(&["--ring", "f32", "--len", "160"]);
    assert!(line.contains("160 = 40·2^2") && line.contains("fast-hadamard-transform"), "{line}");
    let line = first(&["--ring", "f32", "--len", "160", "--len-factor", "20"]);
    assert!(line.contains("160 = 20·2^3") && line.contains("fast-hadamard-transform"), "{line}");
    let line = first(&["--ring", "bf16", "--len", "11008"]);
    assert!(line.contains("11008 = 172·2^6") && line.contains("sloane"), "{line}");
    let line = first(&["--ring", "f16", "--len", "24", "--family", "sloane"]);
    assert!(line.contains("24 = 12·2^1") && line.contains("H_12 of sloane"), "{line}");
    let line = first(&["--ring", "f32", "--len", "4096"]);
    assert!(line.contains("4096 = 1·2^12") && line.contains("Sylvester's matrix"), "{line}");
}

#[test]
fn hostile_sweeps_of_the_hadamard_transform_are_refused() {
    fn with<'a>(extra: &[&'a str]) -> Vec<&'a str> {
        [&["bench", "--sweep", "0..=1", "--runs", "1"][..], extra].concat()
    }
    refused(&with(&["--kind", "and", "--ring", "f16"]), "machine learning");
    refused(&with(&["--kind", "subset", "--ring", "f32", "--len-factor", "12"]), "--len-factor");
    for m in ["0", "2", "3", "24", "56", "41", "18446744073709551615"] {
        refused(&with(&["--ring", "f16", "--len-factor", m]), "is not 1, 12, 20, 28, 36, 40, 44");
    }
    refused(
        &with(&["--ring", "f16", "--len-factor", "36", "--family", "fast-hadamard-transform"]),
        "no Hadamard matrix of order 36",
    );
    refused(
        &with(&["--ring", "f16", "--family", "Sloane"]),
        "the families are fast-hadamard-transform and sloane",
    );
    refused(&["bench", "--ring", "f32", "--len", "160", "--len-factor", "36"], "length 160 is not 36·2^k");
    refused(
        &["bench", "--ring", "f32", "--len", "11008", "--family", "fast-hadamard-transform"],
        "no Hadamard matrix of order 172",
    );
    refused(&with(&["--ring", "f16", "--len-factor", "x"]), "invalid number");
    refused(&with(&["--ring", "f16", "--ring", "wrap32"]), "takes the rings f16, bf16, f32 and f64");
    refused(&with(&["--ring", "u32", "--len-factor", "28"]), "takes the rings f16");
    refused(&with(&["--ring", "bf16", "--modulus", "7"]), "--modulus goes to the u32 and u64 rings");
    refused(&with(&["--ring", "f16,bf16,f16"]), "ring f16 is given twice");
    refused(&with(&["--ring", "f16", "--len", "28"]), "cannot be used with");
    refused(&["bench", "--ring", "f32", "--len-factor", "28", "--log2", "3"], "needs --sweep");
    refused(&["bench", "--ring", "f16", "--log2", "3", "--plot", "x.svg"], "needs --sweep");
    // The longest length is refused before the short ones run.
    refused(&["bench", "--ring", "f16", "--sweep", "0..=40", "--len-factor", "40"], "memory");
}
