//! `nimcount count` as scripts use it: the JSON contract, the readable summary, and one-line
//! errors with exit code 2 for every bad input.

use std::path::{Path, PathBuf};

use nimcount::game::Game;
use predicates::prelude::*;
use serde_json::Value;

use crate::support::cli::{self, nimcount};
use crate::support::count_support;

/// Runs `nimcount count ARGS --json` and parses its one JSON object.
fn json(args: &[&str]) -> Value {
    let output = nimcount().arg("count").args(args).arg("--json").output().unwrap();
    assert!(output.status.success(), "{args:?}: {}", String::from_utf8_lossy(&output.stderr));
    let text = String::from_utf8(output.stdout).unwrap();
    assert_eq!(text.trim_end().lines().count(), 1, "one line of JSON: {text}");
    serde_json::from_str(&text).unwrap()
}

/// Runs `nimcount count ARGS`, which must be refused (see `cli::refused`).
fn refused(args: &[&str], needle: &str) {
    cli::refused(&[&["count"], args].concat(), needle);
}

/// A histogram file of the Grundy values `g` over `lo..=hi`.
fn histogram_file(dir: &Path, name: &str, g: &[u32], lo: usize, hi: usize) -> PathBuf {
    let mut counts = std::collections::BTreeMap::new();
    for &v in &g[lo..=hi] {
        *counts.entry(v).or_insert(0u64) += 1;
    }
    let mut text = format!("# Grundy values of sizes {lo}..={hi}\n");
    for (v, c) in counts {
        text.push_str(&format!("{v} {c}\n"));
    }
    let path = dir.join(name);
    std::fs::write(&path, text).unwrap();
    path
}

fn write(dir: &Path, name: &str, text: &str) -> String {
    let path = dir.join(name);
    std::fs::write(&path, text).unwrap();
    path.display().to_string()
}

#[test]
fn statement_values_through_histogram_files() {
    let dir = tempfile::tempdir().unwrap();
    let divisor = count_support::take_proper_divisor(101);
    for (n, wins) in [(10, "692"), (100, "735494")] {
        let path = histogram_file(dir.path(), &format!("divisor{n}.txt"), &divisor, 1, n);
        let v = json(&["--histogram", path.to_str().unwrap(), "--heaps", "3"]);
        assert_eq!(v["winning"], wins, "{v}");
        assert_eq!(v["total"], (n * n * n).to_string());
        assert_eq!(v["modulus"], Value::Null);
    }
    let split = count_support::split_into_divisors(11);
    let path = histogram_file(dir.path(), "split.txt", &split, 2, 10);
    let v = json(&["--histogram", path.to_str().unwrap(), "--heaps", "5", "--modulus", "10^9+7"]);
    assert_eq!(v["winning"], "40085");
    assert_eq!(v["losing"], (59049 - 40085).to_string());
    assert_eq!(v["modulus"], "1000000007");
}

#[test]
fn json_carries_every_field_as_decimal_strings() {
    let dir = tempfile::tempdir().unwrap();
    let path = write(dir.path(), "h.txt", "0 10^20\n1 3\n# two values\n\n2 2^64\n");
    let v = json(&["--histogram", &path, "--heaps", "2^70", "--modulus", "2^64"]);
    for key in ["losing", "winning", "total", "modulus"] {
        let text = v[key].as_str().unwrap_or_else(|| panic!("{key} is a string: {v}"));
        assert!(text.chars().all(|c| c.is_ascii_digit()), "{key}: {text}");
    }
    assert_eq!(v["modulus"], "18446744073709551616");
    assert_eq!(v["heaps"], "1180591620717411303424");
    assert_eq!(v["kind"], "ordered");
    assert_eq!(v["transform_size"], 4);
    // k = 0: the empty position, lost.
    let v = json(&["--histogram", &path, "--heaps", "0"]);
    assert_eq!(
        (v["losing"].as_str(), v["winning"].as_str(), v["total"].as_str()),
        (Some("1"), Some("0"), Some("1"))
    );
    // Modulus 1: everything is 0.
    let v = json(&["--histogram", &path, "--heaps", "5", "--modulus", "1"]);
    assert_eq!((v["losing"].as_str(), v["total"].as_str()), (Some("0"), Some("0")));
}

#[test]
fn unordered_distinct_distribution_and_probability() {
    let dir = tempfile::tempdir().unwrap();
    // Nim heaps 1..=3 written as a histogram: values 1, 2, 3 once each.
    let path = write(dir.path(), "nim.txt", "1 1\n2 1\n3 1\n");
    let v = json(&["--histogram", &path, "--heaps", "3"]);
    assert_eq!((v["losing"].as_str(), v["total"].as_str()), (Some("6"), Some("27")));
    let v = json(&["--histogram", &path, "--heaps", "3", "--unordered"]);
    assert_eq!((v["losing"].as_str(), v["total"].as_str()), (Some("1"), Some("10")));
    let v = json(&["--histogram", &path, "--heaps", "3", "--distinct"]);
    assert_eq!((v["losing"].as_str(), v["total"].as_str()), (Some("1"), Some("1")));
    let v = json(&["--histogram", &path, "--heaps", "2", "--distribution"]);
    let d: Vec<&str> = v["distribution"].as_array().unwrap().iter().map(|x| x.as_str().unwrap()).collect();
    assert_eq!(d, ["3", "2", "2", "2"]);
    let v = json(&["--histogram", &path, "--heaps", "3", "--probability"]);
    assert!((v["losing"].as_f64().unwrap() - 6.0 / 27.0).abs() < 1e-12, "{v}");
    assert!((v["winning"].as_f64().unwrap() - 21.0 / 27.0).abs() < 1e-12, "{v}");
    assert_eq!(v["modulus"], Value::Null);
    let v = json(&["--histogram", &path, "--heaps", "10^100", "--probability"]);
    assert!((v["losing"].as_f64().unwrap() - 0.25).abs() < 1e-12, "{v}");
}

#[test]
fn readable_summary_and_stage_times() {
    let dir = tempfile::tempdir().unwrap();
    let path = write(dir.path(), "nim.txt", "1 1\n2 1\n3 1\n");
    nimcount()
        .args(["count", "--histogram", &path, "--heaps", "3", "--modulus", "1000"])
        .assert()
        .success()
        .stdout(predicate::str::contains("losing     6\n"))
        .stdout(predicate::str::contains("winning    21\n"))
        .stdout(predicate::str::contains("total      27\n"))
        .stdout(predicate::str::contains("modulus    1000\n"))
        .stdout(predicate::str::contains("transform  2^2 slots"));
    nimcount()
        .args(["count", "--histogram", &path, "--heaps", "3", "--verbose"])
        .assert()
        .success()
        .stdout(predicate::str::contains("stages"))
        .stdout(predicate::str::contains(" ms in all"));
}

#[test]
fn bad_input_is_one_line_with_exit_code_2() {
    let dir = tempfile::tempdir().unwrap();
    let good = write(dir.path(), "good.txt", "0 1\n1 2\n");
    let duplicated = write(dir.path(), "dup.txt", "0 1\n1 2\n0 5\n");
    let malformed = write(dir.path(), "bad.txt", "0 1\n1 two\n");
    let huge_value = write(dir.path(), "huge.txt", "0 1\n10^15 1\n");
    refused(&["--game", "nim", "--sizes", "5..=3", "--heaps", "2"], "empty range");
    refused(&["--game", "nim", "--sizes", "1..3", "--heaps", "2"], "LO..=HI");
    refused(&["--game", "nim", "--sizes", "-1..=3", "--heaps", "2"], "negative");
    refused(&["--histogram", &good, "--heaps", "2", "--modulus", "0"], "modulus 0");
    refused(&["--histogram", &good, "--heaps", "-3"], "negative");
    refused(&["--histogram", &good, "--heaps", "1e9"], "invalid number '1e9'");
    refused(&["--histogram", &good, "--heaps", "2", "--modulus", "-7"], "negative");
    refused(&["--game", "no-such-game", "--sizes", "1..=3", "--heaps", "2"], "no-such-game");
    refused(&["--histogram", &duplicated, "--heaps", "2"], "line 3: value 0 is already given on line 1");
    refused(&["--histogram", &malformed, "--heaps", "2"], "line 2: bad count");
    // One-value lines beyond an array are one-point ranges: counted, but no distribution.
    refused(&["--histogram", &huge_value, "--heaps", "2", "--distribution"], "2^50");
    refused(&["--histogram", "/nonexistent/h.txt", "--heaps", "2"], "/nonexistent/h.txt");
    refused(&["--histogram", &good, "--heaps", "2", "--misere"], "misère");
    refused(&["--histogram", &good, "--heaps", "2", "--unordered", "--distinct"], "cannot be used with");
    refused(
        &["--histogram", &good, "--heaps", "2", "--modulus", "7", "--probability"],
        "cannot be used with",
    );
    // Three heap sizes: a closed form for any k (refused as O(k) before); 102: O(k), refused.
    let v = json(&["--histogram", &good, "--heaps", "10^12", "--unordered", "--modulus", "7"]);
    assert_eq!((v["losing"].as_str(), v["total"].as_str()), (Some("4"), Some("3")), "{v}");
    let many = write(dir.path(), "many.txt", "0 100\n1 2\n");
    refused(&["--histogram", &many, "--heaps", "10^12", "--unordered", "--modulus", "7"], "steps");
    refused(&["--histogram", &good, "--heaps", "10^9"], "exact answer");
    refused(&["--heaps", "2"], "required");
}

#[test]
fn game_queries() {
    // Nim, sizes 1..=3, three heaps: the permutations of (1, 2, 3).
    let v = json(&["--game", "nim", "--sizes", "1..=3", "--heaps", "3"]);
    assert_eq!((v["losing"].as_str(), v["total"].as_str()), (Some("6"), Some("27")));
    assert_eq!(v["game"], "nim");
    // Misère nim, one heap of 1: lost for the player to move (they must take the last stone).
    let v = json(&["--game", "nim", "--sizes", "1..=1", "--heaps", "1", "--misere"]);
    assert_eq!(v["losing"], "1");
    // Lasker's Nim (no quotient of every heap size), through the quotient of its heaps 0..=3:
    // of the 9 ordered pairs over 1..=3, (2, 2) and (3, 3) are lost, as a plain search finds.
    let v = json(&["--game", "lasker", "--sizes", "1..=3", "--heaps", "2", "--misere"]);
    assert_eq!(v["losing"], "2");
    // subtract:1-3, counted by its misère quotient: of the 9 ordered pairs over 1..=3, (1,2),
    // (2,1), (1,3), (3,1) are won (leave the single 1), (1,1) is won (take one), (2,3), (3,2)
    // are won (make them equal), (2,2) and (3,3) are lost: 2.
    let v = json(&["--game", "subtract:1-3", "--sizes", "1..=3", "--heaps", "2", "--misere"]);
    assert_eq!(v["losing"], "2");
    refused(
        &["--game", "nim", "--sizes", "0..=3", "--heaps", "2", "--misere", "--distribution"],
        "normal play",
    );
    refused(
        &["--game", "nim", "--sizes", "0..=3", "--heaps", "5", "--distinct", "--probability"],
        "no set of 5",
    );
    // Nim over 0..=10^15 needs no array, but its distribution would have 2^50 counts; a saltus
    // of 3 (allbut:3) needs the array.
    refused(&["--game", "nim", "--sizes", "0..=10^15", "--heaps", "2", "--distribution"], "2^50 of them");
    refused(&["--game", "allbut:3", "--sizes", "0..=10^15", "--heaps", "2"], "power-of-two saltus");
    // Subtract a square: no period, a range far beyond what may be computed.
    refused(&["--game", "squares", "--sizes", "1..=10^13", "--heaps", "2", "--max-heap", "10^4"], "period");
    refused(&["--game", "squares", "--sizes", "1..=10^13", "--heaps", "2"], "never periodic");
    // Refused in a fraction of a second, with the estimate and the flag that lifts the limit.
    let started = std::time::Instant::now();
    refused(
        &["--game", "squares", "--sizes", "0..=10^9", "--heaps", "2"],
        "--max-heap 1000000001 computes them anyway",
    );
    assert!(started.elapsed().as_secs_f64() < 3.0, "{:?}", started.elapsed());
    refused(&["--game", "squares", "--sizes", "0..=10^9", "--heaps", "2", "--max-heap", "10^9"], "about");
    // Project Euler 310 needs no flag.
    let v = json(&["--game", "squares", "--sizes", "0..=100000", "--heaps", "3", "--unordered"]);
    assert_eq!(v["losing"], "2586528661783");
    // A small range needs no period: the values are computed.
    let v = json(&["--game", "squares", "--sizes", "1..=1000", "--heaps", "2"]);
    assert_eq!(v["period"], Value::Null);
    assert!(Game::parse("squares").is_ok());
    // The seed game, with the period certificate in the summary.
    let v = json(&[
        "--game",
        "subtract:1-1000000",
        "--sizes",
        "1..=12_983_567_378_251",
        "--heaps",
        "98_670_634_123",
        "--modulus",
        "10^9+7",
    ]);
    assert_eq!(v["period"]["period"], 1_000_001);
    assert!(v["period"]["theorem"].as_str().unwrap().contains("subtraction set"), "{v}");
    assert_eq!(v["transform_size"], 1 << 20);
    assert_eq!(v["modulus"], "1000000007");
}

/// `--unordered` and `--distinct` with one or two heap sizes and `k = 10^18`: closed forms (they
/// were refused as O(k)). Sizes 5 and 6 of nim have values 5 and 6: a multiset `(i, k − i)` of
/// even `k` loses exactly when `i` is even.
#[test]
fn unordered_heaps_over_few_sizes_for_any_k() {
    let count = |sizes: &str, kind: &str, modulus: Option<&str>| {
        let mut args = vec!["--game", "nim", "--sizes", sizes, "--heaps", "10^18", kind];
        if let Some(m) = modulus {
            args.extend(["--modulus", m]);
        }
        let v = json(&args);
        (v["losing"].as_str().unwrap().to_string(), v["total"].as_str().unwrap().to_string())
    };
    let owned = |a: &str, b: &str| (a.to_string(), b.to_string());
    assert_eq!(count("5..=6", "--unordered", None), owned("500000000000000001", "1000000000000000001"));
    assert_eq!(count("5..=6", "--unordered", Some("10^9+7")), owned("500000029", "50"));
    assert_eq!(count("5..=6", "--unordered", Some("1")), owned("0", "0"));
    assert_eq!(count("5..=5", "--unordered", Some("2^64")), owned("1", "1"));
    assert_eq!(count("5..=6", "--distinct", Some("10^9+7")), owned("0", "0"));
}

/// `count --part GAME LO..=HI K`: sums of different games.
mod parts {
    use serde_json::Value;

    use crate::support::cli::{self, nimcount};

    fn json(args: &[&str]) -> Value {
        let output = nimcount().arg("count").args(args).arg("--json").output().unwrap();
        assert!(output.status.success(), "{args:?}: {}", String::from_utf8_lossy(&output.stderr));
        serde_json::from_str(&String::from_utf8(output.stdout).unwrap()).unwrap()
    }

    fn counts(v: &Value) -> (String, String, String) {
        let s = |k: &str| v[k].as_str().unwrap().to_string();
        (s("losing"), s("winning"), s("total"))
    }

    #[test]
    fn one_part_counts_as_one_game() {
        for (game, sizes, k) in
            [("octal:0.77", "1..=1000", "3"), ("nim", "0..=100", "4"), ("subtract:1,2", "5..=50", "2")]
        {
            for extra in
                [&[][..], &["--modulus", "10^9+7"], &["--unordered"], &["--distinct", "--modulus", "2^64"]]
            {
                let part = json(&[&["--part", game, sizes, k][..], extra].concat());
                let one = json(&[&["--game", game, "--sizes", sizes, "--heaps", k][..], extra].concat());
                assert_eq!(counts(&part), counts(&one), "{game} {sizes} {k} {extra:?}");
            }
        }
        // Two parts of one game: the positions of one game, heaps split in two groups.
        let two = json(&["--part", "nim", "1..=3", "1", "--part", "nim", "1..=3", "1", "--distribution"]);
        let one = json(&["--game", "nim", "--sizes", "1..=3", "--heaps", "2", "--distribution"]);
        assert_eq!((counts(&two), &two["distribution"]), (counts(&one), &one["distribution"]));
        let p = json(&["--part", "nim", "1..=3", "1", "--part", "nim", "1..=3", "1", "--probability"]);
        assert!((p["losing"].as_f64().unwrap() - 3.0 / 9.0).abs() < 1e-15, "{p}");
    }

    #[test]
    fn kayles_rows_and_nim_heaps_equal_their_enumeration() {
        // Two Kayles rows of 1..=30 and one Nim heap of 0..=7, ordered: lost when the Nim heap
        // equals the XOR of the rows' values.
        let g = nimcount::grundy::values(
            &nimcount::game::Game::parse("octal:0.77").unwrap(),
            31,
            &nimcount::progress::Silent,
        )
        .unwrap();
        let mut losing = 0u64;
        for a in 1..=30 {
            for b in 1..=30 {
                losing += u64::from(g[a] ^ g[b] <= 7);
            }
        }
        let v = json(&["--part", "octal:0.77", "1..=30", "2", "--part", "nim", "0..=7", "1"]);
        assert_eq!(counts(&v), (losing.to_string(), (7200 - losing).to_string(), "7200".to_string()));
        assert_eq!(v["parts"][0]["game"], "octal:0.77");
        assert_eq!(v["parts"][1]["heaps"], "1");
        assert_eq!(v["heaps"], "3");
        let m =
            json(&["--part", "octal:0.77", "1..=30", "2", "--part", "nim", "0..=7", "1", "--modulus", "7"]);
        assert_eq!(m["losing"], (losing % 7).to_string());
    }

    #[test]
    fn parts_refuse_what_does_not_apply() {
        let refused = |args: &[&str], needle: &str| cli::refused(&[&["count"], args].concat(), needle);
        refused(
            &["--part", "nim", "1..=3", "2", "--part", "kayles", "1..=3", "1", "--misere"],
            "misère play of a sum is counted for parts of one game",
        );
        refused(&["--part", "nim", "1..=3"], "3 values required");
        refused(&["--part", "nim", "1..=3", "2", "--heaps", "2"], "cannot be used with");
        refused(&["--part", "nim", "1..=3", "2", "--game", "nim"], "cannot be used with");
        refused(&["--part", "nim", "1..=3", "2", "--staircase"], "cannot be used with");
        refused(&["--part", "nim", "5..=3", "2"], "--part nim 5..=3: empty range");
        refused(&["--part", "chess", "1..=3", "2"], "unknown game 'chess'");
        refused(&["--part", "nim", "1..=3", "2", "--spectrum", "structured"], "counted over arrays");
        refused(&["--part", "nim", "1..=3", "-2"], "");
        refused(
            &["--part", "nim", "1..=3", "2", "--distinct", "--probability", "--part", "nim", "1..=2", "3"],
            "no set of 3",
        );
    }
}

/// Take at most half over `1..=10^12` is counted without arrays: the losing ordered pairs are
/// `Σ_y h(y)²` for the step function `h(y) = #{t : y < c_t}` (minus heap 0 at `y = 0`, `c_t =
/// (10^12 + 1 + 2^t) >> (t + 1)` the heaps below `10^12 + 1` with `t` trailing ones), summed here
/// directly; three heaps agree exactly and modulo a prime; a range beyond the work limit is
/// refused in one line that names a range that fits.
#[test]
fn take_at_most_half_over_10_12() {
    let hi: u128 = 10u128.pow(12);
    let mut ends: Vec<u128> = (0..41).map(|t| (hi + 1 + (1 << t)) >> (t + 1)).filter(|&c| c > 0).collect();
    ends.sort_unstable();
    let (mut pairs, mut previous) = (0u128, 0u128);
    for (i, &c) in ends.iter().enumerate() {
        let h = (ends.len() - i) as u128;
        pairs += h * h * (c - previous);
        previous = c;
    }
    pairs -= 2 * ends.len() as u128 - 1;
    let v = json(&["--game", "fraction:1/2", "--sizes", "1..=10^12", "--heaps", "2"]);
    assert_eq!(v["losing"], pairs.to_string());
    assert_eq!(v["spectrum"], "structured");
    let exact = json(&["--game", "fraction:1/2", "--sizes", "1..=10^12", "--heaps", "3"]);
    let modular =
        json(&["--game", "fraction:1/2", "--sizes", "1..=10^12", "--heaps", "3", "--modulus", "10^9+7"]);
    let losing: num_bigint::BigUint = exact["losing"].as_str().unwrap().parse().unwrap();
    assert_eq!(modular["losing"], (losing % 1_000_000_007u32).to_string());
    refused(
        &["--game", "fraction:1/2", "--sizes", "1..=10^16", "--heaps", "3"],
        "a subset-sum problem); sizes 1..=",
    );
}

/// An option the count would not honour is refused on one line, never run without it.
#[test]
fn options_that_would_be_ignored_are_refused() {
    // The distribution is an inverse transform over the array: the structured spectrum does not
    // give it (it used to run the array spectrum silently).
    let nim = ["--game", "nim", "--sizes", "0..=7", "--heaps", "2", "--spectrum", "structured"];
    refused(&[&nim[..], &["--distribution"]].concat(), "structured spectrum");
    refused(&[&nim[..], &["--probability", "--distribution"]].concat(), "structured spectrum");
    // Without --distribution the structured spectrum counts, and --spectrum array still gives it.
    assert_eq!(json(&nim)["spectrum"], "structured");
    let array =
        ["--game", "nim", "--sizes", "0..=7", "--heaps", "2", "--spectrum", "array", "--distribution"];
    assert_eq!(json(&array)["distribution"][0], "8");
    // Moore's Nim-K is counted digit by digit: no spectrum and no --max-work of the transform.
    let moore = ["--game", "moore:2", "--sizes", "0..=3", "--heaps", "3"];
    refused(&[&moore[..], &["--spectrum", "array"]].concat(), "without a spectrum");
    refused(&[&moore[..], &["--max-work", "10^9"]].concat(), "limit of word operations of its own");
    // moore:0 is refused for what it is, whatever else is asked.
    refused(
        &["--game", "moore:0", "--sizes", "0..=3", "--heaps", "2", "--distributed"],
        "K must be at least 1",
    );
    refused(&["--part", "moore:0", "0..=3", "2"], "K must be at least 1");
    refused(&["--part", "moore:2", "0..=3", "2"], "not a part of a sum of games");
}

/// The export of `grundy --histogram` cut short — in the middle of a line (`head -c 76`) or at
/// a line end — is refused, not counted as a smaller histogram; the whole export counts.
#[test]
fn a_cut_histogram_stream_is_refused() {
    let export = nimcount()
        .args(["grundy", "--game", "kayles", "--sizes", "1..=10^5", "--histogram"])
        .output()
        .unwrap();
    assert!(export.status.success(), "{}", String::from_utf8_lossy(&export.stderr));
    let text = String::from_utf8(export.stdout).unwrap();
    let count = |stdin: &str| {
        nimcount().args(["count", "--histogram", "-", "--heaps", "3"]).write_stdin(stdin).output().unwrap()
    };
    let whole = count(&text);
    assert!(whole.status.success(), "{}", String::from_utf8_lossy(&whole.stderr));
    let lines: Vec<&str> = text.split_inclusive('\n').collect();
    for (cut, needle) in [
        (
            text[..76].to_string(),
            "standard input, line 2: the last line has no line end: the input was cut short",
        ),
        (
            lines[..4].concat(),
            "standard input, line 1: the header states heap sizes 1..=100000 (100000 of them), but the counts add up to",
        ),
    ] {
        let output = count(&cut);
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert_eq!(output.status.code(), Some(2), "{cut:?}: {stderr}");
        assert!(output.stdout.is_empty(), "{cut:?}");
        assert_eq!(stderr.lines().count(), 1, "{stderr}");
        assert!(stderr.contains(needle), "{cut:?}: {stderr}");
    }
}

/// Take at most half over sizes of 10^5 bits is refused from its range, before its histogram
/// (10^5 intervals of 10^5 bits: 46 s and 1.5 GB) is built; so is a range starting there.
#[test]
fn take_at_most_half_beyond_words_is_refused_before_any_work() {
    for sizes in ["1..=2^100000", "2^100000..=2^100001"] {
        let started = std::time::Instant::now();
        refused(
            &["--game", "fraction:1/2", "--sizes", sizes, "--heaps", "3"],
            "a subset-sum problem); sizes ",
        );
        let seconds = started.elapsed().as_secs_f64();
        assert!(seconds < 10.0, "{sizes}: refused after {seconds:.1} s");
    }
}

/// `--max-work` bounds the sum of all parts, not each part alone; `--verbose` gives each stage
/// once for all the parts (a line per stage and part was 130 bytes a part).
#[test]
fn many_parts_share_one_work_limit_and_one_short_stages_line() {
    let parts: Vec<&str> = ["--part", "nim", "1..=1000", "3"].repeat(300);
    let each = json(&["--part", "nim", "1..=1000", "3", "--modulus", "10^9+7", "--max-work", "1000"]);
    assert_eq!(each["total"], "1000000000");
    refused(
        &[&parts[..], &["--modulus", "10^9+7", "--max-work", "1000"]].concat(),
        "more than the limit of 1000",
    );
    let output = nimcount().arg("count").args(&parts).args(["--modulus", "7", "--verbose"]).output().unwrap();
    assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
    let text = String::from_utf8(output.stdout).unwrap();
    let stages = text.lines().find(|l| l.starts_with("stages")).expect("a stages line");
    assert!(stages.len() < 600, "{} bytes: {stages}", stages.len());
    assert!(stages.contains("Grundy values ") && stages.contains(" ms (300 times)"), "{stages}");
}

/// `--heaps LO..=HI`: the sum of the single counts (Kayles, nim and `subtract:1,3,4` over
/// `1..=10^12`, ordered and unordered, exact and modulo a prime), the range in the summary and
/// in JSON, a histogram file of 1 000 values below 2^16 over `1..=10^18` heaps as the library
/// counts it, and one-line refusals.
#[test]
fn heaps_ranges_sum_the_single_counts() {
    for game in ["kayles", "nim", "subtract:1,3,4"] {
        for extra in
            [&[][..], &["--unordered"], &["--modulus", "998244353"], &["--distinct", "--modulus", "12"]]
        {
            let base = [&["--game", game, "--sizes", "1..=10^12"][..], extra].concat();
            let count = |heaps: &str| {
                let v = json(&[&base[..], &["--heaps", heaps]].concat());
                let field = |f: &str| v[f].as_str().unwrap().parse::<num_bigint::BigUint>().unwrap();
                (field("losing"), field("total"), v)
            };
            let (losing, total, v) = count("2..=4");
            assert_eq!(v["heaps"], "2..=4");
            assert_eq!(
                (v["heaps_range"]["lo"].as_str(), v["heaps_range"]["hi"].as_str()),
                (Some("2"), Some("4"))
            );
            let singles = ["2", "3", "4"].map(count);
            let reduce = |x: num_bigint::BigUint| match v["modulus"].as_str() {
                Some(m) => x % m.parse::<num_bigint::BigUint>().unwrap(),
                None => x,
            };
            assert_eq!(losing, reduce(singles.iter().map(|s| &s.0).sum()), "{game} {extra:?}");
            assert_eq!(total, reduce(singles.iter().map(|s| &s.1).sum()), "{game} {extra:?}");
        }
    }
    nimcount()
        .args(["count", "--game", "nim", "--sizes", "1..=3", "--heaps", "1..=3"])
        .assert()
        .success()
        .stdout(predicate::str::contains("heaps      1..=3, ordered, normal play"))
        .stdout(predicate::str::contains("losing     9\n"))
        .stdout(predicate::str::contains("total      39\n"));

    let dir = tempfile::tempdir().unwrap();
    let mut seed = 0x5eed_u64;
    let values: Vec<u32> = (0..1000)
        .map(|_| {
            seed = seed.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            (seed >> 48) as u32
        })
        .collect();
    let path = histogram_file(dir.path(), "values.txt", &values, 0, 999);
    let v = json(&["--histogram", path.to_str().unwrap(), "--heaps", "1..=10^18", "--modulus", "998244353"]);
    let histogram = nimcount::histogram::Histogram::from_values(&values, 0, 999).unwrap();
    let library = nimcount::count::Query::from_histogram(histogram)
        .heaps_range(1u32, 10u64.pow(18))
        .modulus(998_244_353u32)
        .count()
        .unwrap();
    assert_eq!(v["losing"], library.losing.to_string());
    assert_eq!(v["total"], library.total.to_string());

    let nim = ["--game", "nim", "--sizes", "0..=7"];
    refused(&[&nim[..], &["--heaps", "5..=3"]].concat(), "--heaps 5..=3: empty range, 5 is above 3");
    refused(&[&nim[..], &["--heaps", "1..3"]].concat(), "must be K or LO..=HI");
    // Misère ranges are summed (the library's tests compare them with the counts one by one),
    // but for multisets and sets in a quotient's algebra.
    refused(
        &["--game", "kayles", "--sizes", "0..=7", "--heaps", "1..=3", "--misere", "--unordered"],
        "over a range of heap counts",
    );
    refused(&[&nim[..], &["--heaps", "1..=3", "--probability"]].concat(), "over a range of heap counts");
    refused(&["--game", "moore:2", "--sizes", "0..=7", "--heaps", "1..=3"], "over a range of heap counts");
}
