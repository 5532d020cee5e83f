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
    let best = nimcount::fwht::Backend::best();
    if best != nimcount::fwht::Backend::Scalar {
        refused(
            &["bench", "--kind", "subset", "--ring", "f32", "--log2", "4", "--backend", "scalar"],
            "widest backend",
        );
    } else {
        eprintln!("SKIPPED: --kind subset with a narrower backend (this CPU has no SIMD backend)");
    }
}
