//! `nimcount grundy` from the outside: output, JSON, exit codes, one-line errors.

use assert_cmd::Command;
use predicates::prelude::*;
use serde_json::Value;

use crate::support::cli::refused;

fn grundy(args: &[&str]) -> assert_cmd::assert::Assert {
    Command::cargo_bin("nimcount").unwrap().arg("grundy").args(args).assert()
}

fn json(args: &[&str]) -> Value {
    let mut all = args.to_vec();
    all.push("--json");
    let output = grundy(&all).success().get_output().stdout.clone();
    let text = String::from_utf8(output).unwrap();
    assert_eq!(text.lines().count(), 1, "exactly one JSON object: {text}");
    serde_json::from_str(&text).unwrap()
}

/// `NIMCOUNT_BACKEND` chooses the kernels of direct values too: every backend this CPU runs
/// gives the values of the plain mex, and an unknown name is refused.
#[test]
fn a_forced_backend_gives_the_same_direct_values() {
    let want =
        nimcount::grundy::values_of(&nimcount::game::Game::Squares, 30_000, &nimcount::progress::Silent)
            .unwrap()
            .iter()
            .map(|v| v.to_string())
            .collect::<Vec<_>>()
            .join(" ");
    for backend in ["scalar", "avx2", "avx512"] {
        let output = Command::cargo_bin("nimcount")
            .unwrap()
            .env("NIMCOUNT_BACKEND", backend)
            .args(["grundy", "--game", "squares", "--first", "30000", "--threads", "1"])
            .output()
            .unwrap();
        if output.status.success() {
            assert_eq!(String::from_utf8(output.stdout).unwrap().trim(), want, "{backend}");
        } else {
            use std::io::Write;
            let _ =
                writeln!(std::io::stderr(), "SKIPPED forced backend {backend}: not available on this CPU");
        }
    }
    Command::cargo_bin("nimcount")
        .unwrap()
        .env("NIMCOUNT_BACKEND", "sse9")
        .args(["grundy", "--game", "squares", "--first", "10"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("NIMCOUNT_BACKEND"));
}

#[test]
fn first_values() {
    grundy(&["--game", "octal:0.137", "--first", "40"])
        .success()
        .stdout("0 1 1 2 0 3 1 1 0 3 3 2 2 4 0 5 2 2 3 3 0 1 1 3 0 2 1 1 0 4 5 2 7 4 0 1 1 2 0 3\n");
    grundy(&["--game", "nim", "--first", "2^3"]).success().stdout("0 1 2 3 4 5 6 7\n");
    grundy(&["--game", "nim", "--first", "0"]).success().stdout("");
    let v = json(&["--game", "subtract:1,3,4", "--first", "10"]);
    assert_eq!(v["values"], serde_json::json!([0, 1, 0, 1, 2, 3, 2, 0, 1, 0]));
    assert_eq!(v["game"], "subtract:1,3,4");
    assert!(v.get("period").is_none(), "no period search without --period");
}

#[test]
fn period_json() {
    let v = json(&["--game", "octal:0.77", "--period"]);
    assert_eq!(v["game"], "octal:0.77");
    assert_eq!(
        (v["preperiod"].as_u64(), v["period"].as_u64(), v["saltus"].as_u64()),
        (Some(71), Some(12), Some(0))
    );
    assert_eq!(v["last_exception"], 70);
    assert_eq!(v["max_value"], 8);
    assert_eq!(v["theorem_id"], "octal-splitting");
    assert!(v["theorem"].as_str().unwrap().contains("2*n0+p+t"));
    assert!(v["checked_upto"].as_u64().unwrap() >= 71 + 12);

    let v = json(&["--game", "subtract:1-1000000", "--period"]);
    assert_eq!((v["preperiod"].as_u64(), v["period"].as_u64()), (Some(0), Some(1_000_001)));
    assert_eq!(v["theorem_id"], "subtraction-interval");
    assert_eq!(v["max_value"], 1_000_000);

    let v = json(&["--game", "subtract:1-1000000", "--period", "--no-closed-form"]);
    assert_eq!((v["preperiod"].as_u64(), v["period"].as_u64()), (Some(0), Some(1_000_001)));
    assert_eq!(v["theorem_id"], "subtraction-window");

    let v = json(&["--game", "allbut:2,3"]);
    assert_eq!((v["period"].as_u64(), v["saltus"].as_u64()), (Some(4), Some(2)));
    assert_eq!(v["max_value"], Value::Null, "arithmetic periodic: unbounded");
    assert_eq!(v["theorem_id"], "all-but-window");
}

/// Hexadecimal games whose values grow by one every period: proven, in text and JSON.
#[test]
fn hexadecimal_saltus_is_reported() {
    for (game, n0, p) in
        [("hex:0.8", 1, 3), ("hex:0.C", 1, 2), ("hex:0.48", 1, 2), ("hex:8.0", 1, 2), ("hex:0.0F", 0, 2)]
    {
        let v = json(&["--game", game]);
        assert_eq!(
            (v["preperiod"].as_u64(), v["period"].as_u64(), v["saltus"].as_u64()),
            (Some(n0), Some(p), Some(1)),
            "{game}"
        );
        assert_eq!(v["theorem_id"], "hexadecimal-saltus", "{game}");
        assert_eq!(v["max_value"], Value::Null, "{game}: unbounded");
    }
    grundy(&["--game", "hex:0.8"])
        .success()
        .stdout(predicate::str::contains("period        3"))
        .stdout(predicate::str::contains("saltus        1"))
        .stdout(predicate::str::contains("three-heap move, j3 = 1"));
}

#[test]
fn no_period_is_an_answer() {
    for game in ["octal:0.6", "octal:0.14", "squares"] {
        let v = json(&["--game", game, "--period", "--max-heap", "20000"]);
        for field in ["preperiod", "period", "saltus", "theorem"] {
            assert_eq!(v[field], Value::Null, "{game} {field}");
        }
        assert_eq!(v["checked_upto"], 20000, "{game}");
        assert_eq!(v["never_periodic"], game == "squares", "{game}");
    }
    grundy(&["--game", "octal:0.6", "--max-heap", "1000"])
        .success()
        .stdout(predicate::str::contains("none found in G(0) … G(999); try --max-heap 5000 (about"));
    grundy(&["--game", "squares"]).success().stdout(predicate::str::contains("never periodic"));
}

#[test]
fn limits_suggest_what_to_try_next() {
    // No period within the limit: a larger limit, with its estimated time, in text and JSON.
    let v = json(&["--game", "octal:0.6", "--max-heap", "3000"]);
    assert_eq!(v["suggestion"]["max_heap"], 20000, "{v}");
    assert!(v["suggestion"]["estimated_seconds"].as_f64().unwrap() >= 0.0);
    assert_eq!(v["candidate"], Value::Null);
    // Closed forms answer for any move size, without a limit.
    let v = json(&["--game", "subtract:1-10^8"]);
    assert_eq!(
        (v["period"].as_u64(), v["theorem_id"].as_str()),
        (Some(100_000_001), Some("subtraction-interval"))
    );
    assert_eq!(v["max_value"], 100_000_000);
    grundy(&["--game", "subtract:3-10^12", "--max-heap", "10"]).success().stdout(
        predicate::str::contains("period        1000000000003")
            .and(predicate::str::contains("max value     333333333334")),
    );
    // The default limit of a game with no theorem: a few values to show.
    let v = json(&["--game", "squares"]);
    assert_eq!((v["checked_upto"].as_u64(), v["max_heap"].as_u64()), (Some(65_536), None));
}

#[test]
fn verbose_progress_lines_when_standard_error_is_not_a_terminal() {
    let output =
        grundy(&["--game", "octal:0.6", "--max-heap", "20000", "--verbose"]).success().get_output().clone();
    let stderr = String::from_utf8(output.stderr).unwrap();
    let last = stderr.lines().last().unwrap_or_default();
    assert!(last.starts_with("period search: "), "{stderr}");
    assert!(
        last.contains("20000 values") && last.contains("values/s, max value 284") && last.ends_with("(done)"),
        "{stderr}"
    );
    // Without --verbose nothing is written.
    grundy(&["--game", "octal:0.6", "--max-heap", "20000"]).success().stderr("");
}

#[test]
fn human_output() {
    grundy(&["--game", "octal:0.07", "--period"]).success().stdout(
        predicate::str::contains("preperiod     53 (last exception at n = 52)")
            .and(predicate::str::contains("period        34"))
            .and(predicate::str::contains("max value     9"))
            .and(predicate::str::contains("theorem       octal game with splitting moves")),
    );
    grundy(&["--game", "nim", "--first", "3", "--period"]).success().stdout(
        predicate::str::starts_with("0 1 2\ngame          nim\n")
            .and(predicate::str::contains("saltus        1")),
    );
}

#[test]
fn bad_input_gives_one_line_and_exit_code_2() {
    for (args, needle) in [
        (&["--game", "octal:0.8"][..], "8 is not an octal digit"),
        (&["--game", "octal:"], "expected an octal code"),
        (&["--game", "subtract:"], "expected a list of moves"),
        (&["--game", "subtract:5-1"], "the range 5-1 is empty"),
        (&["--game", "subtract:0"], "moves must be positive"),
        (&["--game", "allbut:"], "expected the excluded moves"),
        (&["--game", "squares:3"], "takes no parameters"),
        (&["--game", "chess"], "unknown game 'chess'"),
        (&["--game", "subtract:1,3-10^13"], "larger than the limit"),
        (&["--game", "subtract:1-2^63"], "larger than the limit"),
        (&["--game", "nim", "--max-heap", "10^15"], "beyond the limit"),
        (&["--game", "octal:0.16", "--max-heap", "2^32"], "memory"),
        (&["--game", "nim", "--first", "10^12"], "beyond the limit"),
        (&["--game", "nim", "--max-heap", "3^99"], "larger than 2^64"),
        (&["--game", "nim", "--first", "ten"], "invalid number 'ten'"),
        (&["--game", "moore:2"], "Moore's Nim has no Grundy values"),
        (&["--game", "moore:0"], "K must be at least 1"),
        // An option that would be ignored: the search computes --max-heap values, whatever the time.
        (&["--game", "octal:0.6", "--max-heap", "100", "--max-seconds", "5"], "drop one of them"),
        (&[], "required arguments"),
    ] {
        refused(&[&["grundy"], args].concat(), needle);
    }
}

/// `--first N` is estimated before it runs: beyond the time limit it is refused at once, with
/// the estimate and the `--max-seconds` that would allow it (these took hours, blind).
#[test]
fn first_values_are_estimated_before_they_run() {
    let limited = |args: &[&str]| {
        let mut command = Command::cargo_bin("nimcount").unwrap();
        command.arg("grundy").args(args).timeout(std::time::Duration::from_secs(60));
        command.assert()
    };
    for game in ["octal:0.6", "squares", "octal:0.07"] {
        let first = if game == "octal:0.07" { "10^6" } else { "10^9" };
        let output =
            limited(&["--game", game, "--first", first]).code(2).stdout("").get_output().stderr.clone();
        let text = String::from_utf8(output).unwrap();
        assert_eq!(text.lines().count(), 1, "{game}: {text}");
        for needle in ["would take about", "an estimate", "beyond the limit of 30 s", "add --max-seconds"] {
            assert!(text.contains(needle), "{game}: '{needle}' in {text}");
        }
    }
    // A higher limit lets a costlier prefix through; a lower one refuses a cheap one.
    limited(&["--game", "octal:0.6", "--first", "3", "--max-seconds", "1"]).success().stdout("0 0 1\n");
    let refused = limited(&["--game", "octal:0.6", "--first", "10^8", "--max-seconds", "1"]).code(2);
    assert!(String::from_utf8_lossy(&refused.get_output().stderr).contains("beyond the limit of 1 s"));
    let zero = limited(&["--game", "nim", "--max-seconds", "0"]).code(2);
    assert!(String::from_utf8_lossy(&zero.get_output().stderr).contains("--max-seconds must be at least 1"));
}

/// A hexadecimal game of 256 digits: its values cost more with every digit, and the estimate
/// of `--first` sees it (it extrapolated 256 and 512 values linearly: 2 s for 3000 values
/// measured at 46 s, and 1000 values, 5 s, passed a limit of 1 s).
#[test]
fn first_values_of_many_digits_are_estimated_from_their_growth() {
    let game = format!("hex:0.{}", "F".repeat(256));
    let estimate = |first: &str| {
        let output = Command::cargo_bin("nimcount")
            .unwrap()
            .args(["grundy", "--game", &game, "--first", first, "--max-seconds", "1"])
            .timeout(std::time::Duration::from_secs(60))
            .output()
            .unwrap();
        let text = String::from_utf8(output.stderr).unwrap();
        assert_eq!(output.status.code(), Some(2), "--first {first}: {text}");
        let about = text.split("would take about ").nth(1).expect("an estimate");
        let (figure, unit) = about.split_once(' ').unwrap();
        let scale = if unit.starts_with("min") { 60.0 } else { 1.0 };
        figure.parse::<f64>().unwrap() * scale
    };
    assert!(estimate("1000") > 1.0);
    let seconds = estimate("3000");
    assert!((23.0..=140.0).contains(&seconds), "{seconds} s for 46 s");
}

/// The period search under `--max-seconds`: the limit and whether a clock ended it, in JSON;
/// without `--max-heap` only.
#[test]
fn the_time_limit_of_the_period_search() {
    let v = json(&["--game", "octal:0.6", "--max-seconds", "1"]);
    assert_eq!(v["max_seconds"], 1.0, "{v}");
    assert!(v["period"].is_null() && v["checked_upto"].as_u64().unwrap() > 5000, "{v}");
    assert!(v["stopped_by_clock"].is_boolean(), "{v}");
    let v = json(&["--game", "octal:0.6", "--max-heap", "100"]);
    assert!(v["max_seconds"].is_null() && v["stopped_by_clock"] == false, "{v}");
}

/// `grundy --sizes LO..=HI --histogram`: the histogram `count --histogram` reads.
mod histogram {
    use assert_cmd::Command;

    fn run(args: &[&str], stdin: &str) -> String {
        let output = Command::cargo_bin("nimcount").unwrap().args(args).write_stdin(stdin).output().unwrap();
        assert!(output.status.success(), "{args:?}: {}", String::from_utf8_lossy(&output.stderr));
        String::from_utf8(output.stdout).unwrap()
    }

    #[test]
    fn piped_into_count_it_counts_as_the_game_does() {
        for game in ["nim", "subtract:1-3", "octal:0.77", "octal:0.07", "allbut:1,2", "squares"] {
            let histogram = run(&["grundy", "--game", game, "--sizes", "1..=10^5", "--histogram"], "");
            assert!(histogram.starts_with(&format!("# {game}, heap sizes 1..=100000")), "{histogram}");
            for extra in [&["--heaps", "3"][..], &["--heaps", "2", "--unordered", "--modulus", "2^64"]] {
                let piped = run(&[&["count", "--histogram", "-", "--json"][..], extra].concat(), &histogram);
                let direct = run(
                    &[&["count", "--game", game, "--sizes", "1..=10^5", "--json"][..], extra].concat(),
                    "",
                );
                let field = |text: &str, key: &str| {
                    let v: serde_json::Value = serde_json::from_str(text).unwrap();
                    v[key].as_str().unwrap().to_string()
                };
                for key in ["losing", "total"] {
                    assert_eq!(field(&piped, key), field(&direct, key), "{game} {extra:?} {key}");
                }
            }
        }
        // Runs of one count are value ranges: nim over 1..=10^5 is one line.
        let nim = run(&["grundy", "--game", "nim", "--sizes", "1..=10^5", "--histogram"], "");
        assert_eq!(nim.lines().nth(1), Some("1..=100000 1"));
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("h.txt");
        let out = run(
            &[
                "grundy",
                "--game",
                "subtract:1,2",
                "--sizes",
                "0..=10",
                "--histogram",
                "--output",
                path.to_str().unwrap(),
            ],
            "",
        );
        assert!(out.is_empty());
        let written = std::fs::read_to_string(&path).unwrap();
        assert_eq!(written.lines().skip(1).collect::<Vec<_>>(), ["0..=1 4", "2 3"]);
        crate::support::cli::refused(&["grundy", "--game", "nim", "--histogram"], "--sizes");
        crate::support::cli::refused(
            &["grundy", "--game", "nim", "--sizes", "1..=5", "--histogram", "--first", "3"],
            "cannot be used",
        );
        crate::support::cli::refused(
            &["grundy", "--game", "nim", "--sizes", "5..=1", "--histogram"],
            "empty range",
        );
    }
}

/// The games known by name, and the listing of `nimcount games`.
#[test]
fn named_games_and_their_listing() {
    let output = crate::support::cli::nimcount().args(["games"]).output().unwrap();
    assert!(output.status.success());
    let listing = String::from_utf8(output.stdout).unwrap();
    for name in [
        "kayles",
        "dawsons-kayles",
        "dawsons-chess",
        "officers",
        "guiles",
        "grundy-game",
        "lasker",
        "hex:CODE",
        "fraction:P/Q",
        "moore:K",
    ] {
        assert!(listing.lines().any(|l| l.starts_with(&format!("{name} "))), "{name}: {listing}");
    }
    assert!(listing.contains("kayles          octal:0.77"), "{listing}");
    // Guiles is 0.15: digit 5 = 4 + 1, take 2 leaving nothing or two heaps (never one heap).
    let guiles = listing.lines().find(|l| l.starts_with("guiles ")).unwrap();
    assert!(
        guiles.contains("octal:0.15") && guiles.contains("2 stones leaving nothing or two non-empty heaps"),
        "{guiles}"
    );
    let output = crate::support::cli::nimcount().args(["games", "--json"]).output().unwrap();
    for line in String::from_utf8(output.stdout).unwrap().lines() {
        let object: serde_json::Value = serde_json::from_str(line).unwrap();
        assert!(object["rule"].is_string() && object["proven"].is_string(), "{line}");
    }
    let output =
        crate::support::cli::nimcount().args(["grundy", "--game", "kayles", "--period"]).output().unwrap();
    let text = String::from_utf8(output.stdout).unwrap();
    assert!(text.contains("preperiod     71") && text.contains("period        12"), "{text}");
    let output = crate::support::cli::nimcount()
        .args(["grundy", "--game", "fraction:1/2", "--first", "8"])
        .output()
        .unwrap();
    assert_eq!(
        String::from_utf8(output.stdout).unwrap().split_whitespace().collect::<Vec<_>>(),
        ["0", "0", "1", "0", "2", "1", "3", "0"]
    );
}

/// A game no theorem covers computes a few values to show, and says so rather than naming a
/// time limit it never reached.
#[test]
fn a_game_without_a_theorem_shows_values_only() {
    let output = crate::support::cli::nimcount().args(["grundy", "--game", "grundy-game"]).output().unwrap();
    assert!(output.status.success());
    let text = String::from_utf8(output.stdout).unwrap();
    assert!(text.contains("G(0) … G(65535) (no theorem proves a period of this game"), "{text}");
    assert!(!text.contains("an estimate of"), "{text}");
}
