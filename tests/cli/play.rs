//! `nimcount play`, and `nimcount count` for Moore's Nim and staircases, from the outside: the
//! teaching examples, the JSON contract, agreement with the library, and one-line errors with
//! exit code 2 for every bad input.

use nimcount::game::Game;
use nimcount::play::{Moore, Position, Rules, Staircase};
use nimcount::progress::Silent;
use num_bigint::BigUint;
use serde_json::{Value, json};

use crate::support::cli::{nimcount, refused};

fn text(args: &[&str]) -> String {
    let output = nimcount().args(args).output().unwrap();
    assert!(output.status.success(), "{args:?}: {}", String::from_utf8_lossy(&output.stderr));
    String::from_utf8(output.stdout).unwrap()
}

fn json(args: &[&str]) -> Value {
    let out = text(&[args, &["--json"]].concat());
    assert_eq!(out.trim_end().lines().count(), 1, "one line of JSON: {out}");
    serde_json::from_str(&out).unwrap()
}

fn cat<'a>(a: &[&'a str], b: &[&'a str]) -> Vec<&'a str> {
    [a, b].concat()
}

/// The value of the line labelled `label` in the text output.
fn field(out: &str, label: &str) -> String {
    let line = out
        .lines()
        .find(|l| l.split_whitespace().next() == Some(label))
        .unwrap_or_else(|| panic!("{label}: {out}"));
    line[label.len()..].trim().to_string()
}

#[test]
fn teaching_examples() {
    let out = text(&["play", "--game", "nim", "3", "4", "5"]);
    assert_eq!(field(&out, "verdict"), "won for the player to move");
    assert_eq!(field(&out, "xor"), "2");
    assert_eq!(field(&out, "move"), "heap 1: 3 → 1");

    let out = text(&["play", "--game", "moore:2", "1", "2", "3", "3"]);
    assert_eq!(field(&out, "verdict"), "lost for the player to move");
    assert!(field(&out, "columns").starts_with("3 3 "), "{out}");

    let lost = text(&["play", "--misere", "1", "1", "1"]);
    assert_eq!(field(&lost, "verdict"), "lost for the player to move");
    let won = text(&["play", "--misere", "1", "1"]);
    assert_eq!(field(&won, "verdict"), "won for the player to move");
    assert_eq!(field(&won, "move"), "heap 1: 1 → 0");

    assert_eq!(json(&["play", "--game", "moore:2", "1", "2", "3", "3"])["verdict"], "lost");
    assert_eq!(json(&["play", "--misere", "1", "1", "1"])["verdict"], "lost");
    assert_eq!(json(&["play", "--misere", "1", "1"])["verdict"], "won");
}

#[test]
fn json_has_the_documented_shape() {
    let v = json(&["play", "--game", "nim", "3", "4", "5"]);
    assert_eq!(
        v,
        json!({
            "game": "nim", "play": "normal", "staircase": false,
            "heaps": ["3", "4", "5"], "grundy": ["3", "4", "5"], "xor": "2", "verdict": "won",
            "moves": [[{"heap": 0, "from": "3", "to": ["1"]}]],
        })
    );
    // Emptied heaps leave an empty list; splits leave two heaps; Moore moves change several.
    let v = json(&["play", "3"]);
    assert_eq!(v["moves"], json!([[{"heap": 0, "from": "3", "to": []}]]));
    let v = json(&["play", "--game", "octal:0.07", "--all", "5", "6"]);
    assert_eq!(v["moves"], json!([[{"heap": 1, "from": "6", "to": ["2", "2"]}]]));
    let v = json(&["play", "--game", "moore:2", "--all", "7", "7", "7", "7"]);
    let moves = v["moves"].as_array().unwrap();
    assert!(moves.iter().any(|m| m.as_array().unwrap().len() == 2), "{v}");
    assert!(moves.iter().all(|m| (1..=2).contains(&m.as_array().unwrap().len())), "{v}");
    assert_eq!(
        (v["grundy"].clone(), v["xor"].clone(), v["columns"].clone()),
        (Value::Null, Value::Null, json!([4, 4, 4]))
    );
    // A staircase move: the step below gains what the step above loses.
    let v = json(&["play", "--staircase", "3", "0", "5"]);
    assert_eq!(
        v["moves"],
        json!([[{"heap": 1, "from": "0", "to": ["2"]}, {"heap": 2, "from": "5", "to": ["3"]}]])
    );
    assert_eq!(v["staircase"], true);
}

/// `--all` prints what the library lists, in the same order.
#[test]
fn all_moves_as_the_library_lists_them() {
    let listed = |out: &str| -> Vec<String> {
        let mut lines = out.lines().skip_while(|l| !l.starts_with("moves"));
        lines.next();
        lines.map(|l| l.trim().to_string()).collect()
    };
    let nim = Rules::nim();
    let heaps = [7u32, 11, 13, 2, 9];
    let library: Vec<String> =
        Position::new(&nim, heaps).unwrap().winning_moves().map(|m| m.to_string()).collect();
    assert!(library.len() >= 2);
    assert_eq!(listed(&text(&["play", "--all", "7", "11", "13", "2", "9"])), library);

    let game = Game::parse("octal:0.137").unwrap();
    let rules = Rules::for_game(&game, &40u32.into(), None, &Silent).unwrap();
    let library: Vec<String> =
        Position::new(&rules, [40u32, 7, 19]).unwrap().winning_moves().map(|m| m.to_string()).collect();
    assert!(library.iter().any(|m| m.contains(" + ")), "{library:?}");
    assert_eq!(listed(&text(&["play", "--game", "octal:0.137", "--all", "40", "7", "19"])), library);

    let heaps: Vec<BigUint> = [15u32, 14, 12, 9].map(Into::into).to_vec();
    let library: Vec<String> = Moore::new(2).unwrap().winning_moves(&heaps).map(|m| m.to_string()).collect();
    assert!(library.len() > 3);
    assert_eq!(listed(&text(&["play", "--game", "moore:2", "--all", "15", "14", "12", "9"])), library);

    let game = Game::parse("subtract:1-3").unwrap();
    let rules = Rules::for_game(&game, &20u32.into(), None, &Silent).unwrap();
    let stairs = Staircase::new(&rules, [5u32, 6, 2, 9]).unwrap();
    let library: Vec<String> = stairs.winning_moves().map(|m| Staircase::describe(&m)).collect();
    assert_eq!(
        listed(&text(&["play", "--game", "subtract:1-3", "--staircase", "--all", "5", "6", "2", "9"])),
        library
    );
}

#[test]
fn heaps_of_any_size() {
    // Nim: the move is heap ⊕ xor, whatever the size.
    let v = json(&["play", "10^3000", "10^3000+5", "2^10000"]);
    let a = nimcount::number::parse("10^3000").unwrap();
    let b = &a + 5u32;
    let c = BigUint::from(1u32) << 10000;
    assert_eq!(v["xor"], (&a ^ &b ^ &c).to_string());
    assert_eq!(v["moves"][0][0]["heap"], 2);
    assert_eq!(v["moves"][0][0]["to"][0], (&a ^ &b).to_string());
    // A periodic subtraction game: 10^30 ≡ 1 (mod 7).
    let v = json(&["play", "--game", "subtract:1,3,4", "10^30", "5"]);
    assert_eq!(v["grundy"], json!(["1", "3"]));
    // Moore's Nim and staircases of Nim too.
    let v = json(&["play", "--game", "moore:2", "2^200", "2^200", "1"]);
    assert_eq!(v["verdict"], "won");
    let v = json(&["play", "--staircase", "10^40", "3", "10^40"]);
    assert_eq!(v["verdict"], "lost");
}

/// Subtract-a-square has no period: `play` computes the values up to the largest heap directly
/// (no flag), as `count` does. Checked against the plain mex.
#[test]
fn games_without_a_period_need_no_flag() {
    let n = 100_000;
    let mut values = vec![0u32; n + 1];
    let mut seen = vec![false; 1024];
    for h in 1..=n {
        let squares = (1..).map(|k: usize| k * k).take_while(|&m| m <= h);
        squares.clone().for_each(|m| seen[values[h - m] as usize] = true);
        values[h] = seen.iter().position(|&s| !s).unwrap() as u32;
        squares.for_each(|m| seen[values[h - m] as usize] = false);
    }
    let out = text(&["play", "--game", "squares", "100000", "5", "7"]);
    assert_eq!(field(&out, "grundy"), format!("{} {} {}", values[n], values[5], values[7]));
    let xor = values[n] ^ values[5] ^ values[7];
    assert_eq!(field(&out, "xor"), xor.to_string());
    // The move named must leave a position of value 0.
    let line = field(&out, "move");
    assert!(line.starts_with("heap 1: 100000 → "), "{out}");
    let moved: usize = line.rsplit(' ').next().unwrap().parse().unwrap();
    assert_eq!(values[moved] ^ values[5] ^ values[7], 0, "{out}");
}

#[test]
fn bad_input_is_one_line_and_exit_code_2() {
    refused(&["play"], "HEAP");
    refused(&["play", "--game", "nim"], "HEAP");
    refused(&["play", "3", "-3"], "negative");
    refused(&["play", "3", "x"], "invalid number 'x'");
    refused(&["play", "--game", "moore:0", "1", "2"], "K must be at least 1");
    refused(&["play", "--game", "moore", "1", "2"], "needs parameters");
    refused(&["play", "--staircase", "--misere", "1", "2"], "--staircase with --misere");
    refused(
        &["play", "--game", "octal:0.16", "--max-heap", "1000", "5000"],
        "octal:0.16 has no proven period in G(0) … G(999), and heap sizes up to 5000 need G(0) … G(5000)",
    );
    refused(&["play", "--game", "squares", "--max-heap", "2^10", "1", "10^30"], "squares is never periodic");
    refused(
        &["play", "--game", "octal:0.137", "--misere", "60", "60"],
        "misère search of this position would visit",
    );
    refused(&["play", "kayles:x"], "GAME:HEAP");
    refused(&["play", "--staircase", "nim:3", "4"], "--staircase needs one game");
    refused(&["play", "moore:2:3", "4"], "not a part of a sum of games");
    refused(&["play", "--game", "moore:2", "--misere", "3"], "misère play is known exactly for nim only");
    refused(&["play", "--game", "octal:0.07", "--staircase", "3", "4"], "must take stones");
    refused(
        &["play", "--game", "moore:2", "--staircase", "3", "4"],
        "a staircase needs a game of single heaps",
    );
    refused(&["play", "--game", "chess", "3"], "unknown game 'chess'");
    // Far too many moves to list: refused before printing any.
    refused(
        &["play", "--game", "moore:2", "--all", "2^17-1", "2^17-1", "2^17-1", "2^17-1"],
        "more than 100000 winning moves",
    );
}

/// A `--game` that no heap is of, or `--max-heap` where no game needs values, is refused.
#[test]
fn options_that_would_be_ignored_are_refused() {
    // Every heap names its own game: --game, misspelt or not, is of no heap.
    refused(&["play", "--game", "kayle", "nim:1"], "unknown game 'kayle'");
    refused(&["play", "--game", "kayles", "nim:1"], "--game kayles: no heap is of it");
    refused(&["play", "--game", "nim", "nim:1", "octal:0.77:3"], "every heap names its own game");
    refused(&["play", "--game", "moore:0", "nim:1"], "K must be at least 1");
    refused(&["play", "--game", "moore:2", "nim:1"], "no heap is of it");
    // Moore's Nim-K needs K >= 1, however it is given.
    refused(&["play", "--game", "moore:0", "1", "nim:2"], "K must be at least 1");
    refused(&["play", "moore:0:3", "1"], "K must be at least 1");
    refused(&["play", "--game", "moore:0", "--staircase", "1"], "K must be at least 1");
    // Nim heaps only: no Grundy values to compute.
    refused(&["play", "--max-heap", "10", "nim:3", "4"], "--max-heap does not apply");
    // A --game some heap is of still counts.
    let v = json(&["play", "--game", "kayles", "nim:1", "3"]);
    assert_eq!(v["games"], json!(["nim", "octal:0.77"]));
}

#[test]
fn counts_of_moore_and_staircases() {
    // Moore's Nim-1 is Nim.
    for m in [&[][..], &["--modulus", "10^9+7"], &["--modulus", "2^64"]] {
        let args = |game| cat(&["count", "--game", game, "--sizes", "3..=1000", "--heaps", "4"], m);
        let (moore, nim) = (json(&args("moore:1")), json(&args("nim")));
        for key in ["losing", "winning", "total", "modulus"] {
            assert_eq!(moore[key], nim[key], "{key} {m:?}");
        }
    }
    // Three heaps of 0..=3 in Moore's Nim-2: lost exactly when the heaps are equal.
    let v = json(&["count", "--game", "moore:2", "--sizes", "0..=3", "--heaps", "3"]);
    assert_eq!(
        (v["losing"].clone(), v["total"].clone(), v["game"].clone()),
        (json!("4"), json!("64"), json!("moore:2"))
    );
    assert_eq!(v["modulus"], Value::Null);
    let out = text(&["count", "--game", "moore:2", "--sizes", "0..=3", "--heaps", "3"]);
    assert_eq!(field(&out, "losing"), "4");
    // Staircases: the even steps are free factors.
    let v = json(&["count", "--game", "nim", "--staircase", "--sizes", "1..=10", "--heaps", "7"]);
    let odd = json(&["count", "--game", "nim", "--sizes", "1..=10", "--heaps", "4"]);
    let losing: u64 = odd["losing"].as_str().unwrap().parse().unwrap();
    assert_eq!(v["losing"], (losing * 1000).to_string());
    assert_eq!(v["total"], "10000000");
    assert_eq!((v["steps"].clone(), v["odd_steps"].clone()), (json!("7"), json!("4")));
    let v = json(&[
        "count",
        "--game",
        "subtract:1-2",
        "--staircase",
        "--sizes",
        "0..=100",
        "--heaps",
        "7",
        "--modulus",
        "1000",
    ]);
    assert_eq!(v["total"], (BigUint::from(101u32).pow(7) % 1000u32).to_string());
}

#[test]
fn bad_counts_are_refused() {
    let count = |extra| cat(&["count", "--sizes", "1..=40", "--heaps", "3"], extra);
    refused(&count(&["--game", "moore:0"]), "K must be at least 1");
    refused(&count(&["--game", "moore:2", "--unordered"]), "only ordered positions");
    refused(&count(&["--game", "moore:2", "--distinct"]), "only ordered positions");
    refused(&count(&["--game", "moore:2", "--misere"]), "misère");
    refused(&count(&["--game", "moore:2", "--probability"]), "only counts");
    refused(&count(&["--game", "moore:2", "--max-heap", "100"]), "no Grundy values");
    refused(&count(&["--game", "moore:2", "--staircase"]), "a staircase needs a game of single heaps");
    refused(&count(&["--game", "nim", "--staircase", "--misere"]), "misère play");
    refused(&count(&["--game", "nim", "--staircase", "--unordered"]), "only ordered positions");
    refused(&count(&["--game", "octal:0.07", "--staircase"]), "must take stones");
    refused(&["count", "--game", "moore:2", "--sizes", "9..=3", "--heaps", "3"], "empty range");
    refused(
        &["count", "--game", "moore:2", "--sizes", "1..=9", "--heaps", "3", "--modulus", "0"],
        "modulus 0",
    );
    refused(
        &["count", "--game", "moore:8", "--sizes", "1..=2^64", "--heaps", "10^5"],
        "steps, more than the limit",
    );
}

/// Heaps of different games (`GAME:HEAP`), and misère play of any game.
mod mixed {
    use nimcount::game::Game;
    use nimcount::play::{MiserePosition, Position, Rules};
    use nimcount::progress::Silent;
    use serde_json::Value;

    use crate::support::cli::nimcount;

    fn json(args: &[&str]) -> Value {
        let output = nimcount().arg("play").args(args).arg("--json").output().unwrap();
        assert!(output.status.success(), "{args:?}: {}", String::from_utf8_lossy(&output.stderr));
        serde_json::from_str(&String::from_utf8(output.stdout).unwrap()).unwrap()
    }

    fn rules(spec: &str, largest: u32) -> Rules<'static> {
        Rules::for_game(&Game::parse(spec).unwrap(), &largest.into(), None, &Silent).unwrap()
    }

    #[test]
    fn each_heap_is_judged_in_its_own_game() {
        let (kayles, subtract) = (rules("octal:0.77", 40), rules("subtract:1,2", 40));
        let nim = Rules::nim();
        for (a, b, c) in [(5u32, 3u32, 7u32), (4, 1, 0), (40, 9, 13), (12, 0, 2)] {
            let position = Position::mixed(&kayles, [(&kayles, a), (&nim, b), (&subtract, c)]).unwrap();
            let v = json(&[
                &format!("octal:0.77:{a}"),
                &format!("nim:{b}"),
                &format!("subtract:1,2:{c}"),
                "--all",
            ]);
            assert_eq!(v["verdict"], position.verdict().as_str(), "{a} {b} {c}");
            assert_eq!(v["games"], serde_json::json!(["octal:0.77", "nim", "subtract:1,2"]));
            let grundy: Vec<String> = position.grundy().iter().map(|g| g.to_string()).collect();
            assert_eq!(v["grundy"], serde_json::json!(grundy));
            assert_eq!(v["moves"].as_array().unwrap().len(), position.winning_moves().count());
        }
        // Heaps without a game are heaps of --game.
        let v = json(&["--game", "octal:0.77", "5", "nim:3"]);
        assert_eq!(v["games"], serde_json::json!(["octal:0.77", "nim"]));
        // One game alone reads as before.
        assert_eq!(json(&["3", "4", "5"])["game"], "nim");
    }

    #[test]
    fn misere_play_of_any_game_follows_the_library() {
        let dawson = rules("octal:0.07", 9);
        for heaps in [vec![5u32, 4, 3], vec![9], vec![2, 2], vec![1, 1, 1]] {
            let position = MiserePosition::new(heaps.iter().map(|&h| (&dawson, h)), 1_000_000).unwrap();
            let args: Vec<String> = heaps.iter().map(u32::to_string).collect();
            let args: Vec<&str> = ["--game", "octal:0.07", "--misere", "--all"]
                .into_iter()
                .chain(args.iter().map(String::as_str))
                .collect();
            let v = json(&args);
            assert_eq!(
                (v["play"].as_str(), v["verdict"].as_str()),
                (Some("misère"), Some(position.verdict().as_str())),
                "{heaps:?}"
            );
            assert_eq!(v["moves"].as_array().unwrap().len(), position.winning_moves().len(), "{heaps:?}");
        }
        // Mixed misère: a Kayles row of 5 (value 4) and a Nim heap of 3.
        let v = json(&["--misere", "octal:0.77:5", "nim:3"]);
        assert_eq!(v["verdict"], "won");
    }
}

/// Heaps of any size for games with a proven period, splitting ones included, and for closed
/// forms: the value read off the period agrees with a winning move checked by the library.
#[test]
fn heaps_of_any_size_through_periods_and_closed_forms() {
    let out = text(&["play", "--game", "kayles", "1000000000000000000", "7"]);
    assert_eq!(field(&out, "game"), "octal:0.77 (normal play)");
    // 10^18 ≡ 71 + 5 (mod 12) from 71 on: the value of heap 76; 7 has value 2.
    let kayles = Game::parse("kayles").unwrap();
    let g76 = nimcount::grundy::values(&kayles, 77, &Silent).unwrap()[76];
    assert_eq!(field(&out, "grundy"), format!("{g76} 2"));
    let out = text(&["play", "--game", "subtract:1-10^18", "5", "7"]);
    assert_eq!(field(&out, "xor"), "2");
    assert_eq!(field(&out, "move"), "heap 2: 7 → 5");
    let out = text(&["play", "--game", "lasker", "10^30+3", "10^30+4"]);
    assert_eq!(field(&out, "grundy"), format!("1{}4 1{}3", "0".repeat(29), "0".repeat(29)));
    assert_eq!(field(&out, "verdict"), "won for the player to move");
    let out = text(&["play", "--game", "fraction:1/2", "10^30", "7"]);
    assert_eq!(field(&out, "grundy"), format!("5{} 0", "0".repeat(29)));
    // Games without a period still need their values up to the heap.
    refused(&["play", "--game", "grundy-game", "--max-heap", "1000", "5000"], "5000");
}

/// `play --help` says what the heaps of any size above are: splitting games included.
#[test]
fn help_states_which_games_take_heaps_of_any_size() {
    let help = text(&["play", "--help"]);
    assert!(help.contains("splitting games included"), "{help}");
    assert!(!help.contains("without splitting moves"), "{help}");
}

/// `--all` lists every winning move, splits whose parts lie beyond the values kept included,
/// and states their exact number; beyond 100000 it lists the first ones under the true count.
#[test]
fn every_winning_move_is_listed_under_its_exact_count() {
    let out = text(&["play", "--game", "kayles", "--all", "10", "17", "170"]);
    assert_eq!(field(&out, "moves"), "29 winning moves");
    assert!(out.contains("heap 3: 170 → 83 + 85"), "{out}");
    let v = json(&["play", "--game", "kayles", "--all", "10", "17", "170"]);
    assert_eq!((v["move_count"].clone(), v["moves"].as_array().unwrap().len()), (json!("29"), 29));
    let out = text(&["play", "--game", "kayles", "--all", "10", "17", "1000000"]);
    assert_eq!(field(&out, "moves"), "333329 winning moves (the first 100000 listed)");
    assert_eq!(out.lines().count(), 6 + 100_000, "{}", &out[..400]);
    // A won all-but position shows its move; a short-period game its splits, in misère play too.
    assert_eq!(field(&text(&["play", "--game", "allbut:1,2", "5"]), "move"), "heap 1: 5 → 0");
    let out = text(&["play", "--game", "octal:4.0", "--misere", "--all", "7", "3"]);
    assert!(out.contains("heap 1: 7 → 3 + 4"), "{out}");
}
