//! `nimcount survey`: its three outputs, and a survey interrupted and resumed.

use std::process::Stdio;
use std::time::Duration;

use serde_json::Value;

use crate::support::cli::{nimcount, refused};

/// A fast survey of the one- and two-digit octal codes.
const ARGS: [&str; 4] = ["survey", "octal:0.??", "--max-seconds-per-game", "0.2"];

fn json_of(args: &[&str]) -> Vec<Value> {
    let output = nimcount().args(args).arg("--json").output().unwrap();
    assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
    serde_json::from_slice::<Vec<Value>>(&output.stdout).unwrap()
}

/// The objects without their times.
fn timeless(mut rows: Vec<Value>) -> Vec<Value> {
    for row in &mut rows {
        row.as_object_mut().unwrap().remove("seconds");
    }
    rows
}

#[test]
fn json_lists_one_object_per_game() {
    let rows = json_of(&ARGS);
    let kayles = rows.iter().find(|r| r["game"] == "octal:0.77").unwrap();
    assert_eq!(kayles["normal"]["status"], "periodic");
    assert_eq!(
        (kayles["normal"]["preperiod"].as_u64(), kayles["normal"]["period"].as_u64()),
        (Some(71), Some(12))
    );
    assert_eq!(kayles["normal"]["largest_value"], 8);
    assert!(kayles["normal"]["theorem"].as_str().unwrap().contains("octal"));
    assert_eq!(kayles["misere"]["status"], "found");
    assert_eq!(kayles["misere"]["order"], 40);
    assert!(kayles["seconds"].is_number());
    let officers = rows.iter().find(|r| r["game"] == "octal:0.37").unwrap();
    assert_eq!(officers["equal_to"][0], "octal:0.6");
    assert_eq!(officers["equal_shifts"][0], 1);
    assert_eq!(officers["normal"]["status"], "open");
    assert!(officers["normal"]["values"].as_u64().unwrap() > 1000);
    assert_eq!(officers["misere"]["status"], "not found");
    assert!(officers["misere"]["reached"].is_string());
    let codes: usize = rows.iter().map(|r| 1 + r["equal_to"].as_array().unwrap().len()).sum();
    assert_eq!(codes, 64);
}

#[test]
fn markdown_and_csv_show_the_same_games() {
    let markdown = nimcount().args(ARGS).output().unwrap();
    let markdown = String::from_utf8(markdown.stdout).unwrap();
    assert!(markdown.starts_with("| game | equal to | normal |"));
    assert!(markdown.contains("| octal:0.77 | - | periodic | 71 | 12 | 0 | 8 |"), "{markdown}");
    assert!(markdown.contains("| octal:0.17 | 0.41 (+1) 0.43 (+1) | periodic | 33 | 34 |"), "{markdown}");
    assert!(markdown.trim_end().lines().last().unwrap().contains("games (64 codes)"), "{markdown}");
    let csv = nimcount().args(ARGS).arg("--csv").output().unwrap();
    let csv = String::from_utf8(csv.stdout).unwrap();
    let mut lines = csv.lines();
    assert_eq!(
        lines.next().unwrap(),
        "game,equal_to,normal,preperiod,period,saltus,largest,values,misere,order,m_preperiod,m_period,seconds"
    );
    assert_eq!(lines.count(), markdown.lines().filter(|l| l.starts_with("| octal:")).count());
    refused(&["survey", "octal:0.?", "--json", "--csv"], "--csv");
}

#[test]
fn an_interrupted_survey_resumes_to_the_same_table() {
    let dir = tempfile::tempdir().unwrap();
    let journal = dir.path().join("survey.lines");
    let whole = timeless(json_of(&ARGS));
    // Interrupted by SIGINT after a second.
    let mut child = std::process::Command::new(assert_cmd::cargo::cargo_bin("nimcount"))
        .args(ARGS)
        .arg("--resume")
        .arg(&journal)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    std::thread::sleep(Duration::from_millis(1500));
    std::process::Command::new("kill").args(["-INT", &child.id().to_string()]).status().unwrap();
    child.wait().unwrap();
    let text = std::fs::read_to_string(&journal).unwrap();
    assert!(text.ends_with('\n'), "every line whole");
    let kept = text.lines().count() - 1;
    assert!(kept < whole.len(), "interrupted after {kept} of {} games", whole.len());
    // A line cut short by a harder stop is dropped and its game run again.
    std::fs::write(&journal, format!("{text}{{\"game\": \"octal:0.7")).unwrap();
    let resumed = timeless(json_of(&[&ARGS[..], &["--resume", journal.to_str().unwrap()]].concat()));
    assert_eq!(resumed, whole);
    // Finished: printed again from the file alone.
    let again = json_of(&[&ARGS[..], &["--resume", journal.to_str().unwrap()]].concat());
    assert_eq!(timeless(again), whole);
    assert_eq!(std::fs::read_to_string(&journal).unwrap().lines().count(), whole.len() + 1);
    // Another survey's file is refused, and left as it was.
    let before = std::fs::read(&journal).unwrap();
    refused(&["survey", "octal:0.?", "--resume", journal.to_str().unwrap()], "another survey");
    assert_eq!(std::fs::read(&journal).unwrap(), before);
}

#[test]
fn the_picture_marks_every_game() {
    let dir = tempfile::tempdir().unwrap();
    let svg = dir.path().join("survey.svg");
    let output = nimcount()
        .args(["survey", "octal:0.?", "--max-seconds-per-game", "0.2", "--plot"])
        .arg(&svg)
        .output()
        .unwrap();
    assert!(output.status.success());
    let text = std::fs::read_to_string(&svg).unwrap();
    let doc = roxmltree::Document::parse(&text).unwrap();
    let circles = doc.descendants().filter(|n| n.has_tag_name("circle")).count();
    // Six periodic games and the legend's mark; the open one (0.6) is a cross.
    assert_eq!(circles, 7);
    assert!(text.contains("7 games, 6 periodic, 1 open"));
    refused(&["survey", "octal:0.?", "--plot", "survey.png"], "PNG");
}
