//! `nimcount misere` from the outside: the quotient of 0.75 as Plambeck published it, the JSON
//! contract, answers without a quotient, and one-line errors with exit code 2.

use serde_json::Value;

use crate::support::cli::{nimcount, refused};

fn text(args: &[&str]) -> String {
    let output = nimcount().args(args).output().unwrap();
    assert!(output.status.success(), "{args:?}: {}", String::from_utf8_lossy(&output.stderr));
    String::from_utf8(output.stdout).unwrap()
}

#[test]
fn the_quotient_of_0_75_is_r8() {
    // Plambeck, "Taming the wild in impartial combinatorial games" (2005): R8 =
    // <a, b, c | a^2 = 1, b^3 = b, bc = ab, c^2 = b^2>, P = {a, b^2}.
    let out = text(&["misere", "--game", "octal:0.75"]);
    for line in [
        "order: 8",
        "generators: a (heap 1), b (heap 2), c (heap 5)",
        "relations: a^2 = 1, b c = a b, c^2 = b^2, b^3 = b",
        "P-portion: a, b^2",
        "heaps: 0:1 1:a 2:b 3:a 4:b 5:c 6:b 7:c 8:b 9:a b^2",
        "preperiod: 8, period: 2",
    ] {
        assert!(out.contains(line), "{line}: {out}");
    }
    let json: Value =
        serde_json::from_str(&text(&["misere", "--game", "subtract:1,2", "--json", "--table"])).unwrap();
    assert_eq!(json["order"], 6);
    assert_eq!(json["relations"], serde_json::json!([["a^2", "1"], ["b^3", "b"]]));
    assert_eq!(json["p_portion"].as_array().unwrap().len(), 2);
    assert_eq!(json["table"].as_array().unwrap().len(), 6);
    assert_eq!((json["preperiod"].as_u64(), json["period"].as_u64()), (Some(0), Some(3)));
}

#[test]
fn no_quotient_is_an_answer_and_bad_input_is_refused() {
    let out = text(&["misere", "--game", "lasker"]);
    assert!(out.contains("no misère quotient found: misère quotients are computed for octal games"), "{out}");
    let json: Value =
        serde_json::from_str(&text(&["misere", "--game", "dawsons-kayles", "--max-order", "50", "--json"]))
            .unwrap();
    assert!(json["order"].is_null() && json["reason"].as_str().unwrap().contains("--max-order"), "{json}");
    refused(&["misere", "--game", "kayles", "--max-heap", "0"], "--max-heap 0 is out of range");
    refused(&["misere", "--game", "chess"], "unknown game 'chess'");
    refused(&["misere", "--game", "kayles", "--max-states", "x"], "--max-states");
    // A count whose quotient is not found names the limit reached and the option that lifts it.
    // (Sizes up to 30: the quotient of the heaps 0..=30 passes these limits too.)
    let dawson = ["count", "--game", "octal:0.07", "--sizes", "1..=30", "--heaps", "2", "--misere"];
    refused(&[&dawson[..], &["--max-states", "2000"]].concat(), "(--max-states searches further)");
    refused(
        &[&dawson[..], &["--max-order", "10"]].concat(),
        "above the limit of 10 (it may be infinite) (--max-order searches further)",
    );
    refused(
        &["count", "--game", "kayles", "--sizes", "1..=9", "--heaps", "2", "--max-states", "9"],
        "--misere",
    );
}

/// The `losing` line of a count.
fn losing(args: &[&str]) -> u64 {
    let out = text(args);
    let line = out.lines().find(|l| l.starts_with("losing")).unwrap_or_else(|| panic!("{out}"));
    line["losing".len()..].trim().parse().unwrap()
}

#[test]
fn misere_counts_over_huge_ranges_add_up_over_parts() {
    // Kayles: the quotient of order 40, heaps periodic from 71.
    let game = "kayles";
    let whole = losing(&[
        "count",
        "--game",
        game,
        "--sizes",
        "1..=10^12",
        "--heaps",
        "3",
        "--misere",
        "--modulus",
        "10^9+7",
    ]);
    let halves = ["1..=4*10^11", "4*10^11+1..=10^12"];
    let mut sum = 0;
    for choice in 0..8 {
        let mut args = vec!["count"];
        for i in 0..3 {
            args.extend(["--part", game, halves[(choice >> i) & 1], "1"]);
        }
        args.extend(["--misere", "--modulus", "10^9+7"]);
        sum += losing(&args);
    }
    assert_eq!(whole, sum % 1_000_000_007);
}

#[test]
fn unordered_misere_counts_and_their_limit() {
    // Pairs: the ordered ones are the sets twice plus the equal pairs, the multisets the sets
    // plus the equal pairs, so ordered = multisets + sets.
    let pairs = |kind: &[&'static str]| {
        let args = ["count", "--game", "octal:0.75", "--sizes", "1..=10^12", "--heaps", "2", "--misere"];
        let args = [&args[..], &["--modulus", "10^18"], kind];
        losing(&args.concat())
    };
    let (ordered, multisets, sets) = (pairs(&[]), pairs(&["--unordered"]), pairs(&["--distinct"]));
    assert!(sets > 0 && multisets != sets);
    assert_eq!(ordered, (multisets + sets) % 10u64.pow(18));
    // The report names the quotient, not a transform.
    let out = text(&[
        "count",
        "--game",
        "octal:0.75",
        "--sizes",
        "1..=9",
        "--heaps",
        "2",
        "--misere",
        "--distinct",
    ]);
    assert!(
        out.contains("quotient   misère quotient of order 8, heaps periodic from 8 with period 2"),
        "{out}"
    );
    assert!(!out.contains("transform"), "{out}");
    refused(
        &["count", "--game", "octal:0.75", "--sizes", "0..=9", "--heaps", "10^6", "--misere", "--unordered"],
        "--max-work raises the limit",
    );
}

/// Games without a quotient of every heap size are counted through the quotient of the heaps
/// in range (numbers from a plain misère search), the report says which, and sizes beyond the
/// budget's largest heap are refused naming the option that lifts it.
#[test]
fn counts_through_the_quotient_of_the_heaps_in_range() {
    // --max-states 20000: the search for a quotient of every heap size gives up at once.
    let dawson = ["count", "--game", "dawsons-kayles", "--sizes", "0..=12", "--heaps", "3", "--misere"];
    let out = text(&[&dawson[..], &["--max-states", "20000"]].concat());
    assert!(out.contains("quotient   misère quotient of heaps 0..=12, order 12"), "{out}");
    assert_eq!(losing(&[&dawson[..], &["--max-states", "20000"]].concat()), 608);
    let lasker = ["count", "--game", "lasker", "--sizes", "1..=9", "--heaps", "3", "--misere", "--distinct"];
    assert_eq!(losing(&lasker), 8);
    refused(
        &["count", "--game", "lasker", "--sizes", "1..=5000", "--heaps", "2", "--misere"],
        "the quotient of the heaps 0..=5000 is above the limit of heap 1000 (--max-heap joins more heaps)",
    );
    // Play judges small positions by it too.
    let out = text(&["play", "--game", "lasker", "--misere", "--all", "5", "6", "7"]);
    assert!(out.contains("the misère quotient of the game's heaps 0..=7"), "{out}");
}

/// A quotient search whose limits are estimated beyond its time is refused at once, on one line
/// naming the estimate, the limit and the options that change them; the option lifts it.
#[test]
fn searches_estimated_beyond_their_time_are_refused_at_once() {
    let started = std::time::Instant::now();
    let raised = ["--max-states", "10^8", "--max-order", "16384"];
    let lasker = ["count", "--game", "lasker", "--sizes", "0..=1000", "--heaps", "3", "--misere"];
    for args in
        [&[&lasker[..], &raised[..]].concat(), &[&["misere", "--game", "kayles"][..], &raised[..]].concat()]
    {
        refused(args, "beyond the limit of 60 s (--max-seconds raises the limit");
    }
    refused(
        &[&lasker[..], &["--max-states", "10^8", "--max-seconds", "100"]].concat(),
        "beyond the limit of 100 s",
    );
    refused(&[&lasker[..], &["--max-seconds", "0"]].concat(), "--max-seconds 0 is out of range");
    assert!(started.elapsed() < std::time::Duration::from_secs(10), "{:?}", started.elapsed());
}

/// On a terminal of 80 columns the search's progress shows its whole message (heap, order,
/// states, estimated time) on a line of its own below the bar, instead of cutting it.
#[test]
fn the_progress_message_is_whole_on_an_80_column_terminal() {
    let program = assert_cmd::cargo::cargo_bin("nimcount");
    let command = format!(
        "stty cols 80 rows 30; '{}' misere --game dawsons-kayles --max-heap 27 --max-states 10^6 >/dev/null",
        program.display()
    );
    let Ok(output) = std::process::Command::new("script").args(["-qec", &command, "/dev/null"]).output()
    else {
        eprintln!("SKIPPED: no `script` to run the tool on a terminal");
        return;
    };
    assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
    // The terminal's lines, escape sequences removed.
    let screen = String::from_utf8_lossy(&output.stdout);
    let mut plain = String::new();
    let mut chars = screen.chars();
    while let Some(c) = chars.next() {
        if c == '\u{1b}' {
            // CSI: `ESC [` parameters, then a final letter.
            for d in chars.by_ref() {
                if d.is_ascii_alphabetic() {
                    break;
                }
            }
        } else {
            plain.push(if c == '\r' { '\n' } else { c });
        }
    }
    let messages: Vec<&str> = plain.lines().filter(|l| l.contains("heap ") && l.contains("order")).collect();
    assert!(!messages.is_empty(), "no progress drawn: {plain:?}");
    for line in messages {
        // The bar's line is padded to the width and the message's follows it on the screen.
        let at = line.find("heap ").unwrap();
        let message = line[at..].trim_end();
        assert!(message.ends_with("of estimated time"), "cut: {line:?}");
        let column = line[..at].chars().count() % 80;
        assert!(column + message.chars().count() <= 80, "wider than the terminal: {line:?}");
    }
}
