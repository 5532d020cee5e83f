//! Pictures from the outside: `bench --sweep --plot` and `grundy --plot` write SVG that parses,
//! with the series, points or bins, labels and title expected; bad paths are refused with one
//! line, exit code 2 and no file.

use std::path::Path;

use assert_cmd::Command;
use serde_json::Value;

use crate::support::cli::refused;

fn nimcount(args: &[&str]) -> assert_cmd::assert::Assert {
    Command::cargo_bin("nimcount").unwrap().args(args).assert()
}

/// The colours of the first series, as plotters writes them (Tableau 10).
const BLUE: &str = "#1F77B4";
const ORANGE: &str = "#FF7F0E";
const GREEN: &str = "#2CA02C";
const RED: &str = "#D62728";
/// The preperiod's shade.
const PREPERIOD: &str = "#FEE6CE";
/// The eight shades of the density view, lightest first.
const SHADES: [&str; 8] =
    ["#DEEBF7", "#C6DBEF", "#9ECAE1", "#6BAED6", "#4292C6", "#2171B5", "#08519C", "#08306B"];

/// A written picture, parsed.
struct Svg {
    text: String,
}

impl Svg {
    fn read(path: &Path) -> Svg {
        let text = std::fs::read_to_string(path).unwrap();
        roxmltree::Document::parse(&text).unwrap_or_else(|e| panic!("{} is not XML: {e}", path.display()));
        Svg { text }
    }

    fn with<T>(&self, f: impl FnOnce(&roxmltree::Document) -> T) -> T {
        f(&roxmltree::Document::parse(&self.text).unwrap())
    }

    /// Elements named `tag` whose attributes include every pair of `attrs`.
    fn count(&self, tag: &str, attrs: &[(&str, &str)]) -> usize {
        self.with(|doc| {
            doc.descendants()
                .filter(|n| n.has_tag_name(tag) && attrs.iter().all(|(k, v)| n.attribute(*k) == Some(*v)))
                .count()
        })
    }

    /// The number of points of every polyline of colour `stroke`.
    fn polylines(&self, stroke: &str) -> Vec<usize> {
        self.lines(stroke, None)
    }

    /// The number of points of every polyline of colour `stroke` and, if given, width `width`.
    fn lines(&self, stroke: &str, width: Option<&str>) -> Vec<usize> {
        self.with(|doc| {
            doc.descendants()
                .filter(|n| n.has_tag_name("polyline") && n.attribute("stroke") == Some(stroke))
                .filter(|n| width.is_none() || n.attribute("stroke-width") == width)
                .map(|n| n.attribute("points").unwrap_or("").split_whitespace().count())
                .collect()
        })
    }

    /// Every text, trimmed.
    fn texts(&self) -> Vec<String> {
        self.with(|doc| {
            doc.descendants()
                .filter(|n| n.has_tag_name("text"))
                .map(|n| n.text().unwrap_or("").trim().to_string())
                .collect()
        })
    }

    fn has_text(&self, wanted: &str) -> bool {
        self.texts().iter().any(|t| t == wanted)
    }

    fn has_text_containing(&self, wanted: &str) -> bool {
        self.texts().iter().any(|t| t.contains(wanted))
    }
}

/// The files in `dir`.
fn files(dir: &Path) -> Vec<String> {
    std::fs::read_dir(dir).unwrap().map(|e| e.unwrap().file_name().to_string_lossy().into_owned()).collect()
}

/// Data and unified caches of CPU 0 as (level, bytes), read the way the system writes them.
fn caches() -> Vec<(u32, u64)> {
    let Ok(dir) = std::fs::read_dir("/sys/devices/system/cpu/cpu0/cache") else { return Vec::new() };
    let mut caches = Vec::new();
    for entry in dir.flatten().filter(|e| e.file_name().to_string_lossy().starts_with("index")) {
        let read = |name: &str| std::fs::read_to_string(entry.path().join(name)).unwrap_or_default();
        if !matches!(read("type").trim(), "Data" | "Unified") {
            continue;
        }
        let size = read("size");
        let size = size.trim();
        let (digits, shift) = match size.char_indices().last() {
            Some((i, 'K')) => (&size[..i], 10),
            Some((i, 'M')) => (&size[..i], 20),
            Some((i, 'G')) => (&size[..i], 30),
            _ => (size, 0),
        };
        let Ok(bytes) = digits.parse::<u64>() else { continue };
        let bytes = bytes << shift;
        caches.push((read("level").trim().parse().unwrap(), bytes));
    }
    caches
}

#[test]
fn sweep_draws_a_line_per_ring_and_the_textbook_loops_dashed() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("sweep.svg");
    let output = nimcount(&[
        "bench",
        "--ring",
        "u32",
        "--ring",
        "f64",
        "--modulus",
        "998244353",
        "--sweep",
        "10..=12",
        "--runs",
        "1",
        "--threads",
        "1",
        "--json",
        "--plot",
        path.to_str().unwrap(),
    ])
    .success()
    .get_output()
    .stdout
    .clone();

    // The JSON: a list of the objects `bench --json` prints, sizes outer, rings inner.
    let list: Value = serde_json::from_slice(&output).unwrap();
    let list = list.as_array().unwrap();
    let order: Vec<(u64, &str)> =
        list.iter().map(|o| (o["log2"].as_u64().unwrap(), o["ring"].as_str().unwrap())).collect();
    assert_eq!(order, [(10, "u32"), (10, "f64"), (11, "u32"), (11, "f64"), (12, "u32"), (12, "f64")]);
    let single = nimcount(&["bench", "--ring", "f64", "--log2", "10", "--runs", "1", "--json"]).success();
    let single: Value = serde_json::from_slice(&single.get_output().stdout).unwrap();
    let keys = |o: &Value| o.as_object().unwrap().keys().cloned().collect::<Vec<_>>();
    assert!(list.iter().all(|o| keys(o) == keys(&single)), "the same object as a single size");
    assert_eq!(list[0]["modulus"], "998244353");
    assert_eq!(list[1]["modulus"], Value::Null);
    assert!(list.iter().all(|o| o["threads"] == 1 && o["runs"] == 1 && o["ratio"].as_f64().unwrap() > 0.0));

    let svg = Svg::read(&path);
    for colour in [BLUE, ORANGE] {
        // A solid line through three filled points, and the textbook loop: hollow points and
        // thinner dashes (the legend adds one solid and three dashed samples).
        assert_eq!(svg.count("circle", &[("fill", colour)]), 3, "{colour}");
        assert_eq!(svg.count("circle", &[("stroke", colour), ("fill", "none")]), 3, "{colour}");
        assert_eq!(svg.lines(colour, Some("3")), [3, 2], "{colour}: the line and its legend sample");
        let dashes = svg.lines(colour, Some("2"));
        assert!(dashes.len() > 3 + 10 && dashes.iter().all(|&p| p <= 3), "{colour} dashed: {dashes:?}");
    }
    assert_eq!(svg.count("circle", &[]), 12, "no other points");
    for label in ["u32 mod 998244353", "u32 mod 998244353, textbook loop", "f64", "f64, textbook loop"] {
        assert!(svg.has_text(label), "legend {label}");
    }
    assert!(svg.has_text("log2 of the number of elements"));
    assert!(svg.has_text("ns per element per level (log scale)"));
    for tick in ["10", "11", "12"] {
        assert!(svg.has_text(tick), "x tick {tick}");
    }
    let title = svg.texts().into_iter().find(|t| t.starts_with("Forward transform on")).expect("title");
    assert!(title.contains(", 1 thread, backend "), "{title}");
    let cpuinfo = std::fs::read_to_string("/proc/cpuinfo").unwrap_or_default();
    if let Some(model) = cpuinfo.lines().find_map(|l| l.strip_prefix("model name")) {
        let model =
            model.trim_start_matches([' ', '\t', ':']).split_whitespace().collect::<Vec<_>>().join(" ");
        assert!(title.contains(&model), "{title} names the CPU {model}");
    }

    // A mark per cache and element size that falls within 2^10 … 2^12 elements.
    let mut expected = Vec::new();
    for (level, bytes) in caches() {
        for (element, ring) in [(4u64, "u32"), (8, "f64")] {
            let log2 = (bytes as f64 / element as f64).log2();
            if (10.0..=12.0).contains(&log2) {
                expected.push(format!("L{level} of {ring}"));
            }
        }
    }
    let mut marks: Vec<String> = svg
        .texts()
        .into_iter()
        .filter(|t| t.starts_with('L') && (t.ends_with(" of u32") || t.ends_with(" of f64")))
        .map(|t| {
            let (level, _) = t.split_once(' ').unwrap();
            format!("{level} of {}", &t[t.len() - 3..])
        })
        .collect();
    marks.sort();
    expected.sort();
    assert_eq!(marks, expected);
}

#[test]
fn sweep_table_without_the_textbook_loop() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("i64.SVG");
    let output = nimcount(&[
        "bench",
        "--ring",
        "i64",
        "--sweep",
        "10..=11",
        "--runs",
        "1",
        "--no-textbook",
        "--plot",
        path.to_str().unwrap(),
    ])
    .success()
    .get_output()
    .stdout
    .clone();
    let text = String::from_utf8(output).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 4, "{text}");
    assert!(lines[0].starts_with("forward transform, backend "), "{text}");
    assert!(lines[1].starts_with("log2  ring") && !lines[1].contains("textbook"), "{text}");
    assert!(lines[2].starts_with("  10  i64 ") && lines[3].starts_with("  11  i64 "), "{text}");

    let svg = Svg::read(&path);
    assert_eq!(svg.count("circle", &[("fill", BLUE)]), 2);
    assert_eq!(svg.count("circle", &[("fill", "none")]), 0, "no textbook points");
    assert_eq!(svg.polylines(BLUE), [2, 2], "the line and its legend sample");
    assert!(svg.has_text("i64") && !svg.has_text_containing("textbook"));
}

#[test]
fn sweep_of_half_precision_at_the_lengths_m_2_k_draws_a_series_per_storage_type() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("half.svg");
    let args = ["bench", "--ring", "f16,bf16", "--sweep", "1..=3", "--len-factor", "20", "--runs", "1"];
    let output =
        nimcount(&[&args[..], &["--threads", "1", "--json", "--plot", path.to_str().unwrap()]].concat())
            .success()
            .get_output()
            .stdout
            .clone();
    let list: Value = serde_json::from_slice(&output).unwrap();
    let lengths: Vec<(u64, &str)> = list
        .as_array()
        .unwrap()
        .iter()
        .map(|o| (o["len"].as_u64().unwrap(), o["storage"].as_str().unwrap()))
        .collect();
    assert_eq!(lengths, [(40, "f16"), (40, "bf16"), (80, "f16"), (80, "bf16"), (160, "f16"), (160, "bf16")]);

    let svg = Svg::read(&path);
    for colour in [BLUE, ORANGE] {
        assert_eq!(svg.count("circle", &[("fill", colour)]), 3, "{colour}");
        assert_eq!(svg.count("circle", &[("stroke", colour), ("fill", "none")]), 3, "{colour}");
    }
    assert_eq!(svg.count("circle", &[]), 12, "no other points");
    for label in ["f16 20·2^k", "f16 20·2^k, separate passes", "bf16 20·2^k", "bf16 20·2^k, separate passes"]
    {
        assert!(svg.has_text(label), "legend {label}");
    }
    assert!(!svg.has_text_containing("textbook") && !svg.has_text_containing("f32"));
    // log2 40 ≈ 5.3 to log2 160 ≈ 7.3: the integer ticks between.
    for tick in ["6", "7"] {
        assert!(svg.has_text(tick), "x tick {tick}");
    }
    let title = svg.texts().into_iter().find(|t| t.starts_with("Hadamard transform scaled by 1/√L on"));
    assert!(title.is_some_and(|t| t.contains(", 1 thread, backend ")));
}

#[test]
fn sweep_refusals() {
    let dir = tempfile::tempdir().unwrap();
    let at = |name: &str| dir.path().join(name).to_str().unwrap().to_string();
    let sweep = |extra: &[&str]| {
        let mut args =
            vec!["bench", "--ring", "u32", "--modulus", "998244353", "--sweep", "10..=11", "--runs", "1"];
        args.extend_from_slice(extra);
        args.into_iter().map(String::from).collect::<Vec<_>>()
    };
    let run = |args: Vec<String>, message: &str| {
        refused(&args.iter().map(String::as_str).collect::<Vec<_>>(), message)
    };
    run(sweep(&["--plot", &at("missing/sweep.svg")]), "does not exist");
    run(sweep(&["--plot", &at("sweep.png")]), "PNG output needs system fonts");
    run(sweep(&["--plot", &at("sweep.jpg")]), "unknown picture format '.jpg'");
    run(sweep(&["--plot", &at("sweep")]), "needs the extension .svg");
    run(sweep(&["--plot", dir.path().to_str().unwrap()]), "needs the extension .svg");
    std::fs::create_dir(dir.path().join("dir.svg")).unwrap();
    run(sweep(&["--plot", &at("dir.svg")]), "it is a directory");
    std::fs::remove_dir(dir.path().join("dir.svg")).unwrap();
    run(sweep(&["--log2", "10"]), "cannot be used with");
    refused(&["bench", "--ring", "f32", "--log2", "10", "--plot", &at("x.svg")], "--sweep");
    refused(&["bench", "--ring", "f32", "--sweep", "12..=10"], "is empty");
    refused(&["bench", "--ring", "f32", "--sweep", "10..12"], "is not LO..=HI");
    refused(&["bench", "--ring", "f32", "--sweep", "10..=41"], "beyond any memory");
    refused(
        &["bench", "--ring", "f32,u32", "--modulus", "7", "--sweep", "10..=10", "--ring", "f32"],
        "given twice",
    );
    refused(&["bench", "--ring", "f32", "--ring", "f64", "--log2", "10"], "several rings need --sweep");
    refused(
        &["bench", "--ring", "f32", "--ring", "f64", "--modulus", "7", "--sweep", "10..=10"],
        "takes no --modulus",
    );
    refused(&["bench", "--ring", "u64", "--sweep", "10..=10"], "needs --modulus");
    // The largest size is refused before the small ones run (a sweep from 2^0 would take long).
    refused(
        &["bench", "--ring", "f32", "--ring", "i128", "--sweep", "0..=40", "--plot", &at("big.svg")],
        "memory",
    );
    assert!(files(dir.path()).is_empty(), "no file left: {:?}", files(dir.path()));
}

#[test]
fn grundy_points_with_the_preperiod_shaded_and_the_period_marked() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("kayles.svg");
    let output =
        nimcount(&["grundy", "--game", "octal:0.77", "--first", "200", "--plot", path.to_str().unwrap()])
            .success()
            .get_output()
            .stdout
            .clone();
    let text = String::from_utf8(output).unwrap();
    assert!(
        text.starts_with("game          octal:0.77\npreperiod     71"),
        "the period, not the values: {text}"
    );

    let svg = Svg::read(&path);
    assert_eq!(svg.count("circle", &[("fill", BLUE)]), 200, "one point per value");
    assert_eq!(svg.count("circle", &[]), 200);
    assert_eq!(svg.count("rect", &[("fill", PREPERIOD)]), 1);
    // Boundaries at 71 + 12k below 200: k = 0 … 10.
    assert_eq!(svg.polylines(GREEN), [2; 11]);
    assert!(svg.polylines(RED).is_empty(), "no saltus");
    assert!(svg.has_text("Grundy values of octal:0.77: G(0) … G(199)"));
    assert!(svg.has_text("n (heap size)") && svg.has_text("G(n)") && svg.has_text("preperiod"));
    assert!(svg.has_text_containing("preperiod 71 (shaded; last exception at n = 70), period 12"));
    assert!(svg.has_text_containing("proven by the theorem: octal game with splitting moves, t = 2"));
}

#[test]
fn grundy_saltus_lines() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("allbut.svg");
    nimcount(&["grundy", "--game", "allbut:1,2", "--first", "30", "--plot", path.to_str().unwrap()])
        .success();
    let svg = Svg::read(&path);
    assert_eq!(svg.count("circle", &[]), 30);
    // G(n) = floor(n / 3): period 3, saltus 1, one line per residue class.
    assert_eq!(svg.polylines(RED), [2; 3]);
    assert_eq!(svg.polylines(GREEN), [2; 10], "boundaries at 0, 3, …, 27");
    assert_eq!(svg.count("rect", &[("fill", PREPERIOD)]), 0, "purely periodic");
    assert!(svg.has_text_containing("saltus 1: G(n+3) = G(n) + 1 for n >= 0"));
    assert!(svg.has_text_containing("all-but game, largest excluded move m = 2"));

    // Without --first: the values of the period search, at least 100.
    let path = dir.path().join("nim.svg");
    nimcount(&["grundy", "--game", "nim", "--plot", path.to_str().unwrap()]).success();
    let svg = Svg::read(&path);
    assert_eq!(svg.count("circle", &[]), 100);
    assert_eq!(svg.polylines(RED), [2], "G(n) = n");
    assert!(svg.has_text_containing("nim: G(n) = n for every n"));
}

#[test]
fn grundy_density_view() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("sub.svg");
    nimcount(&["grundy", "--game", "subtract:1,2", "--first", "18000", "--plot", path.to_str().unwrap()])
        .success();
    let svg = Svg::read(&path);
    assert_eq!(svg.count("circle", &[]), 0, "no points beyond 4096 values");
    // Period 3 in columns of 36: a third of every column has each value, shade "up to 1/2",
    // one rectangle per value; the key adds one swatch per shade.
    let bins: Vec<usize> = SHADES.iter().map(|s| svg.count("rect", &[("fill", s)])).collect();
    assert_eq!(bins, [1, 1, 1, 1, 1, 1, 1 + 3, 1]);
    assert_eq!(svg.polylines(GREEN), [2, 2], "6000 periods: the first one marked");
    assert!(svg.has_text_containing("first period marked; the 6000 periods shown are too many to mark"));
    assert!(svg.has_text_containing("density view: each column 36 heap sizes, one row per value"));

    // 10^6 values stay small.
    for game in ["octal:0.16", "nim"] {
        let path = dir.path().join("big.svg");
        nimcount(&["grundy", "--game", game, "--first", "10^6", "--plot", path.to_str().unwrap()]).success();
        let svg = Svg::read(&path);
        assert!(svg.text.len() < 2_000_000, "{game}: {} bytes", svg.text.len());
        let bins: usize = SHADES.iter().map(|s| svg.count("rect", &[("fill", s)])).sum();
        assert!(bins > 8, "{game}: {bins}");
        assert!(svg.has_text(&format!("Grundy values of {game}: G(0) … G(999999)")));
    }
}

#[test]
fn grundy_without_a_period_says_so() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("open.svg");
    let output = nimcount(&[
        "grundy",
        "--game",
        "octal:0.6",
        "--max-heap",
        "3000",
        "--plot",
        path.to_str().unwrap(),
        "--json",
    ])
    .success()
    .get_output()
    .stdout
    .clone();
    let v: Value = serde_json::from_slice(&output).unwrap();
    assert_eq!(v["period"], Value::Null);
    assert!(v.get("values").is_none(), "the values are in the picture");
    let svg = Svg::read(&path);
    assert_eq!(svg.count("circle", &[]), 3000);
    assert!(svg.polylines(GREEN).is_empty() && svg.polylines(RED).is_empty());
    assert!(svg.has_text_containing(
        "no period found in G(0) … G(2999): no periodicity is proven, so none is drawn"
    ));

    nimcount(&[
        "grundy",
        "--game",
        "squares",
        "--first",
        "50",
        "--max-heap",
        "50",
        "--plot",
        path.to_str().unwrap(),
    ])
    .success();
    let svg = Svg::read(&path);
    assert_eq!(svg.count("circle", &[]), 50);
    assert!(svg.has_text_containing("never periodic: subtract-a-square"));
}

#[test]
fn grundy_refusals() {
    let dir = tempfile::tempdir().unwrap();
    let at = |name: &str| dir.path().join(name).to_str().unwrap().to_string();
    refused(&["grundy", "--game", "nim", "--plot", &at("no/such/dir/g.svg")], "does not exist");
    refused(&["grundy", "--game", "nim", "--plot", &at("g.png")], "PNG output needs system fonts");
    refused(&["grundy", "--game", "nim", "--plot", &at("g.txt")], "unknown picture format '.txt'");
    refused(&["grundy", "--game", "nim", "--first", "0", "--plot", &at("g.svg")], "nothing to draw");
    refused(&["grundy", "--game", "octal:0.8", "--plot", &at("g.svg")], "not an octal digit");
    refused(&["grundy", "--game", "nim", "--first", "2^33", "--plot", &at("g.svg")], "beyond the limit");
    assert!(files(dir.path()).is_empty(), "no file left: {:?}", files(dir.path()));
}
