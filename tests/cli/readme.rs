//! The README's promises, checked against the binary: the answers of its marked examples, its
//! links, and one version story (the CHANGELOG's newest heading is the crate's version).
//!
//! A code fence right after the line `<!-- checked -->` is run; after `<!-- checked: LABEL … -->`
//! only the output lines that start with those labels are compared (for outputs whose other
//! lines are not the point of the example):
//! - a `console` fence: every `$ nimcount ARGS` line runs, and the lines after it, up to the next
//!   `$`, are its standard output, line by line (a last line `…` ends the comparison there; the
//!   figure of an estimate, `about 2.2 s`, is left out: it depends on the machine). An expected
//!   `error: …` line asks for a refusal: exit code 2 and one line on standard error;
//! - a `sh` fence of one command followed by a `text` fence: the command and its output;
//! - a `sh` fence of lines `nimcount ARGS   # … losing N …`: each line that names a `losing`
//!   count runs, and its `losing` line must read N (with `2^K slots` and `V values` in the
//!   comment, its `transform` line must say both).
//!
//! Arguments are split at spaces (no quotes, no shell): the examples checked are plain commands,
//! and a shell operator in one fails the test. Keep the marked examples cheap (the whole test
//! takes seconds) and to answers that do not change with wording elsewhere (counts, periods).

use std::path::Path;

use crate::support::cli::nimcount;

fn read(file: &str) -> String {
    std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join(file)).unwrap()
}

/// Which output lines a marked fence compares.
#[derive(Clone, Debug)]
enum Labels {
    All,
    Only(Vec<String>),
}

/// A code fence: its info string, its lines (the fence's indentation removed), the marker on
/// the line before it, and its first line's number (for messages).
#[derive(Debug)]
struct Fence {
    info: String,
    body: Vec<String>,
    marker: Option<Labels>,
    line: usize,
}

fn marker(line: &str) -> Option<Labels> {
    let inner = line.trim().strip_prefix("<!--")?.strip_suffix("-->")?.trim();
    if inner == "checked" {
        return Some(Labels::All);
    }
    let labels = inner.strip_prefix("checked:")?;
    Some(Labels::Only(labels.split_whitespace().map(str::to_string).collect()))
}

fn fences(text: &str) -> Vec<Fence> {
    let lines: Vec<&str> = text.lines().collect();
    let mut fences = Vec::new();
    let mut i = 0;
    while i < lines.len() {
        let trimmed = lines[i].trim_start();
        if let Some(info) = trimmed.strip_prefix("```") {
            let indent = lines[i].len() - trimmed.len();
            let marker = i.checked_sub(1).and_then(|j| marker(lines[j]));
            let line = i + 1;
            let mut body = Vec::new();
            i += 1;
            while i < lines.len() && !lines[i].trim_start().starts_with("```") {
                body.push(lines[i].get(indent..).unwrap_or(lines[i].trim_start()).to_string());
                i += 1;
            }
            fences.push(Fence { info: info.trim().to_string(), body, marker, line });
        }
        i += 1;
    }
    fences
}

/// The arguments of a `nimcount ARGS` line, its comment apart.
fn arguments<'a>(command: &'a str, at: &str) -> (Vec<&'a str>, &'a str) {
    let (command, comment) = command.split_once(" #").unwrap_or((command, ""));
    let mut words = command.split_whitespace();
    assert_eq!(words.next(), Some("nimcount"), "{at}: not a nimcount command: {command}");
    let args: Vec<&str> = words.collect();
    for shell in ["|", ">", ">>", "<", "&&", ";", "'", "\"", "$("] {
        assert!(
            !args.iter().any(|a| a.contains(shell)),
            "{at}: a shell command cannot be checked: {command}"
        );
    }
    (args, comment)
}

/// `line` without trailing spaces and with the figure of every estimate (`about 2.2 s`, `about
/// 3.1 min`) left out: estimates of time come from this machine's speed.
fn estimates_apart(line: &str) -> String {
    let mut parts = line.trim_end().split("about ");
    let mut out = parts.next().unwrap_or("").to_string();
    for part in parts {
        out.push_str("about ");
        out.push_str(part.trim_start_matches(|c: char| c.is_ascii_digit() || c == '.'));
    }
    out
}

/// The figures of the estimates of `line` (`about 2.2 s`, `about 4.1 min`) with their units.
fn estimates(line: &str) -> Vec<(f64, String)> {
    line.split("about ")
        .skip(1)
        .filter_map(|part| {
            let figure: String = part.chars().take_while(|c| c.is_ascii_digit() || *c == '.').collect();
            let unit = part[figure.len()..].split_whitespace().next().unwrap_or("").to_string();
            Some((figure.parse().ok()?, unit))
        })
        .collect()
}

/// The largest factor between an estimate of a refusal the README shows and the tool's: those
/// come from a model of a reference machine, the same on every host, but the model is
/// recalibrated now and then; a README left behind by more than this fails.
const ESTIMATE_FACTOR: f64 = 1.25;

/// `got` and `want` are the same line but for their estimates, each within [`ESTIMATE_FACTOR`]
/// of the other in the same unit.
fn same_with_estimates(at: &str, got: &str, want: &str) {
    assert_eq!(estimates_apart(got), estimates_apart(want), "{at}: the line differs from the README's");
    let (got, want) = (estimates(got), estimates(want));
    assert_eq!(got.len(), want.len(), "{at}: {got:?} against the README's {want:?}");
    for ((g, gu), (w, wu)) in got.iter().zip(&want) {
        assert!(
            gu == wu && g / w <= ESTIMATE_FACTOR && w / g <= ESTIMATE_FACTOR,
            "{at}: an estimate of about {g} {gu} where the README shows about {w} {wu}"
        );
    }
}

/// The line of `output` whose first word is `label`.
fn labelled<'a>(output: &[&'a str], label: &str) -> Option<&'a str> {
    output.iter().copied().find(|l| l.split_whitespace().next() == Some(label))
}

/// Runs one example and compares its output with the lines the README shows.
fn check(at: &str, command: &str, expected: &[String], labels: &Labels) {
    let (args, _) = arguments(command, at);
    let output = nimcount().args(&args).output().unwrap();
    let stdout = String::from_utf8_lossy(&output.stdout);
    let stderr = String::from_utf8_lossy(&output.stderr);
    if let [only] = expected
        && only.starts_with("error:")
    {
        assert_eq!(output.status.code(), Some(2), "{at}: {command}: a refusal: {stderr}");
        assert!(stderr.starts_with("error:") && stderr.trim_end().lines().count() == 1, "{at}: {stderr}");
        same_with_estimates(&format!("{at}: {command}"), stderr.trim_end(), only);
        return;
    }
    assert!(output.status.success(), "{at}: {command}: {stderr}");
    // The answers' estimates (`try --max-heap 100000 (about 2.2 s)`) are timed on this machine:
    // left out. A refusal's come from the model of the reference machine: compared above.
    let got: Vec<String> = stdout.lines().map(estimates_apart).collect();
    let want: Vec<String> = expected.iter().map(|l| estimates_apart(l)).collect();
    let (got, want): (Vec<&str>, Vec<&str>) =
        (got.iter().map(String::as_str).collect(), want.iter().map(String::as_str).collect());
    match labels {
        Labels::All => {
            let (want, elided) = match want.split_last() {
                Some((&"…", rest)) => (rest, true),
                _ => (&want[..], false),
            };
            let got = if elided && got.len() >= want.len() { &got[..want.len()] } else { &got[..] };
            assert_eq!(got, want, "{at}: {command}: the output differs from the README's");
        }
        Labels::Only(labels) => {
            for label in labels {
                let shown = labelled(&want, label)
                    .unwrap_or_else(|| panic!("{at}: the README shows no {label} line"));
                assert_eq!(labelled(&got, label), Some(shown), "{at}: {command}: {label}");
            }
        }
    }
}

/// The lines `nimcount ARGS  # … losing N …` of a `sh` fence: the count, and the transform's
/// size and distinct values where the comment names them.
fn check_comment(at: &str, command: &str) -> bool {
    let comment = command.split_once(" #").map_or("", |(_, comment)| comment);
    let words: Vec<&str> = comment.split(|c: char| c.is_whitespace() || c == ',' || c == ':').collect();
    let after = |word: &str| words.windows(2).find(|w| w[0] == word).map(|w| w[1]);
    let before = |word: &str| words.windows(2).find(|w| w[1] == word).map(|w| w[0]);
    let Some(losing) = after("losing") else { return false };
    let (args, _) = arguments(command, at);
    let output = nimcount().args(&args).output().unwrap();
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(output.status.success(), "{at}: {command}: {}", String::from_utf8_lossy(&output.stderr));
    let got: Vec<&str> = stdout.lines().collect();
    let line =
        labelled(&got, "losing").unwrap_or_else(|| panic!("{at}: {command}: no losing line: {stdout}"));
    assert_eq!(line.split_whitespace().nth(1), Some(losing), "{at}: {command}");
    let transform = labelled(&got, "transform").unwrap_or("");
    if let Some(slots) = before("slots") {
        assert!(transform.contains(&format!("{slots} slots")), "{at}: {command}: {transform}");
    }
    if let Some(values) = before("values") {
        assert!(transform.contains(&format!(" {values} distinct")), "{at}: {command}: {transform}");
    }
    true
}

#[test]
fn readme_examples_give_the_answers_they_show() {
    let fences = fences(&read("README.md"));
    let mut checked = 0;
    for (i, fence) in fences.iter().enumerate() {
        let Some(labels) = &fence.marker else { continue };
        let at = format!("README.md:{}", fence.line);
        match fence.info.as_str() {
            "console" => {
                let mut commands = fence.body.split(|l| l.starts_with("$ ")).skip(1);
                let starts: Vec<&String> = fence.body.iter().filter(|l| l.starts_with("$ ")).collect();
                assert!(
                    !starts.is_empty() && fence.body[0].starts_with("$ "),
                    "{at}: a checked console fence starts with `$ `"
                );
                for start in starts {
                    let expected = commands.next().unwrap();
                    check(&at, &start[2..], expected, labels);
                    checked += 1;
                }
            }
            "sh" if fences.get(i + 1).is_some_and(|next| next.info == "text") => {
                assert_eq!(fence.body.len(), 1, "{at}: one command before its output");
                check(&at, &fence.body[0], &fences[i + 1].body, labels);
                checked += 1;
            }
            "sh" => {
                let n = fence.body.iter().filter(|command| check_comment(&at, command)).count();
                assert!(n > 0, "{at}: no line names a losing count");
                checked += n;
            }
            other => panic!("{at}: a checked fence is console or sh, not {other:?}"),
        }
    }
    assert!(checked >= 10, "{checked} examples checked: the README's markers were lost");
}

/// The anchor GitHub gives a heading: lower case, letters, digits, `-` and `_` kept, spaces
/// turned into `-`, everything else (`:`, `–`, backquotes) dropped.
fn anchor(heading: &str) -> String {
    heading
        .to_lowercase()
        .chars()
        .filter(|&c| c.is_alphanumeric() || c == '-' || c == '_' || c == ' ')
        .map(|c| if c == ' ' { '-' } else { c })
        .collect()
}

/// The text outside code fences, and the titles of its headings.
fn prose_and_headings(text: &str) -> (Vec<String>, Vec<String>) {
    let (mut prose, mut headings, mut fenced) = (Vec::new(), Vec::new(), false);
    for line in text.lines() {
        if line.trim_start().starts_with("```") {
            fenced = !fenced;
        } else if !fenced {
            if let Some(title) = line.strip_prefix('#').map(|t| t.trim_start_matches('#'))
                && title.starts_with(' ')
            {
                headings.push(title.trim().replace('`', ""));
            }
            prose.push(line.to_string());
        }
    }
    (prose, headings)
}

/// The targets of the links `[text](target)` and images `![text](target)` of `line`.
fn link_targets(line: &str) -> Vec<&str> {
    line.match_indices("](")
        .filter_map(|(i, _)| line[i + 2..].split_once(')').map(|(target, _)| target))
        .filter(|target| !target.contains(' '))
        .collect()
}

/// Broken references in `text` (a README): links to anchors no heading has (GitHub's anchors,
/// with `-1`, `-2` for repeated headings), relative links to files that do not exist, and
/// sections named in quotes after "see" that no heading has.
fn broken_references(text: &str) -> Vec<String> {
    let (prose, headings) = prose_and_headings(text);
    let mut anchors: Vec<String> = Vec::new();
    for heading in &headings {
        let base = anchor(heading);
        let repeats = anchors.iter().filter(|a| **a == base || a.starts_with(&format!("{base}-"))).count();
        anchors.push(if repeats == 0 { base } else { format!("{base}-{repeats}") });
    }
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut broken = Vec::new();
    for line in &prose {
        for target in link_targets(line) {
            if let Some(fragment) = target.strip_prefix('#') {
                if !anchors.iter().any(|a| a == fragment) {
                    broken.push(format!("no heading for {target}"));
                }
            } else if !target.contains("://") && !target.starts_with("mailto:") {
                let path = target.split('#').next().unwrap();
                if !root.join(path).exists() {
                    broken.push(format!("no file {path}"));
                }
            }
        }
    }
    let joined = prose.join(" ");
    for (i, _) in joined.match_indices("see \"") {
        let rest = &joined[i + 5..];
        let title = rest.split('"').next().unwrap().split_whitespace().collect::<Vec<_>>().join(" ");
        if !headings.contains(&title) {
            broken.push(format!("no section \"{title}\""));
        }
    }
    broken
}

#[test]
fn readme_links_lead_somewhere() {
    assert_eq!(broken_references(&read("README.md")), Vec::<String>::new());
    // The check itself: each kind of broken reference is found.
    let sample = "# Top\n## A: b – c\n[ok](#a-b--c) [gone](#a-b-c) ![pic](docs/none.svg) [file](Cargo.toml)\n\
                  ```sh\n[not a link](#inside-a-fence)\n```\n(see \"Spectra\nwithout arrays\"), see \"Top\"\n";
    assert_eq!(
        broken_references(sample),
        ["no heading for #a-b-c", "no file docs/none.svg", "no section \"Spectra without arrays\""]
    );
    assert_eq!(anchor("The Walsh–Hadamard transform"), "the-walshhadamard-transform");
    assert_eq!(anchor("Across machines: MPI"), "across-machines-mpi");
}

/// One version: `nimcount --version`, the crate, the Python module's crate and the newest
/// heading of the CHANGELOG.
#[test]
fn the_changelog_and_the_binary_name_this_version() {
    let version = env!("CARGO_PKG_VERSION");
    let changelog = read("CHANGELOG.md");
    let newest = changelog.lines().find(|l| l.starts_with("## ")).unwrap();
    let newest = newest[3..].split_whitespace().next().unwrap();
    assert_eq!(newest, version, "the CHANGELOG's newest heading");
    let output = nimcount().arg("--version").output().unwrap();
    assert_eq!(String::from_utf8(output.stdout).unwrap().trim(), format!("nimcount {version}"));
    let python = read("python/Cargo.toml");
    let line = python.lines().find(|l| l.starts_with("version = ")).unwrap();
    assert_eq!(line, format!("version = \"{version}\""), "python/Cargo.toml");
}
