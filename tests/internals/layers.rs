//! The import graph of `src/`, checked: no circle among the top-level modules, none among the
//! files (or subdirectories) of any module directory, and no module importing from its own
//! floor or one above it in [`FLOORS`] (the library) and [`BINARY_FLOORS`] (the tool).
//!
//! An import is a path through `crate::`, `super::`, `self::`, a child module named by a `use`,
//! or (in a binary) `nimcount::`, in code that is not a comment, a literal or a `#[cfg(test)]`
//! item: a test may compare any two parts of the crate. A directory's `mod.rs` (or the crate
//! root) owns its files: its own `use` of them (declarations, re-exports) is not an edge of that
//! directory's graph, while a file's use of the `mod.rs` items is allowed (it sits above none of
//! its siblings).

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

/// The library's top-level modules, bottom floor first: a module imports only from the floors
/// below its own. Every module that `lib.rs` declares (test-only ones aside) is on one floor.
const FLOORS: &[&[&str]] = &[
    // One-line messages (what the user typed, shortened and escaped); errors and progress;
    // what may be allocated; the expression parser; input files and threads.
    &["message"],
    &["error", "progress"],
    &["memory"],
    &["number"],
    &["input", "parallel"],
    // Machine words: the SIMD kernels and the choice of instruction set; modular arithmetic;
    // the element types of the transform.
    &["simd"],
    &["arith"],
    &["ring"],
    // The transform and what is built on it.
    &["fwht"],
    &["convolve", "elements", "game"],
    &["distributed"],
    &["grundy"],
    &["misere"],
    &["histogram"],
    &["count"],
    &["play"],
    // The one parser of specifications, on the games, positions and queries it builds.
    &["spec"],
    // Whole families of games, surveyed.
    &["survey"],
];

/// The floors of each binary's modules, bottom first; the modules not listed are on a floor
/// above them all (and may import each other, without a circle).
const BINARY_FLOORS: &[(&str, &[&[&str]])] = &[("nimcount", &[&["common"], &["output"]])];

/// A module: its crate (`lib`, or a binary's name) and its path from that crate's root.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
struct Module {
    krate: String,
    path: Vec<String>,
}

impl Module {
    fn name(&self) -> String {
        let path = self.path.join("::");
        match (self.krate.as_str(), path.is_empty()) {
            ("lib", _) => path,
            (bin, true) => format!("bin/{bin}"),
            (bin, false) => format!("bin/{bin}::{path}"),
        }
    }
}

/// The module a file of `src/` defines (`rel` uses `/`), by Cargo's and rustc's layout rules.
fn module_of(rel: &str) -> Module {
    let mut parts: Vec<String> = rel.trim_end_matches(".rs").split('/').map(String::from).collect();
    let krate = if parts[0] == "bin" {
        parts.remove(0);
        let name = parts.remove(0);
        if parts.first().map(String::as_str) == Some("main") && parts.len() == 1 {
            parts.clear();
        }
        name
    } else {
        if parts == ["lib"] {
            parts.clear();
        }
        "lib".to_string()
    };
    if parts.last().map(String::as_str) == Some("mod") {
        parts.pop();
    }
    Module { krate, path: parts }
}

/// `text` with comments, string and character literals blanked out.
fn code_only(text: &str) -> String {
    let c: Vec<char> = text.chars().collect();
    let mut out = String::with_capacity(text.len());
    let mut i = 0;
    let ident = |ch: char| ch.is_alphanumeric() || ch == '_';
    while i < c.len() {
        let next = c.get(i + 1).copied();
        if c[i] == '/' && next == Some('/') {
            while i < c.len() && c[i] != '\n' {
                i += 1;
            }
        } else if c[i] == '/' && next == Some('*') {
            let mut depth = 0;
            while i < c.len() {
                if c[i] == '/' && c.get(i + 1) == Some(&'*') {
                    depth += 1;
                    i += 2;
                } else if c[i] == '*' && c.get(i + 1) == Some(&'/') {
                    depth -= 1;
                    i += 2;
                    if depth == 0 {
                        break;
                    }
                } else {
                    i += 1;
                }
            }
            out.push(' ');
        } else if c[i] == 'r'
            && (i == 0 || !ident(c[i - 1]) || c[i - 1] == 'b')
            && matches!(next, Some('"' | '#'))
        {
            // A raw string `r"…"`, `r#"…"#` (also after `b`), or a raw identifier `r#name`.
            let mut j = i + 1;
            while c.get(j) == Some(&'#') {
                j += 1;
            }
            if c.get(j) != Some(&'"') {
                out.push(c[i]);
                i += 1;
                continue;
            }
            let hashes = j - i - 1;
            j += 1;
            while j < c.len() && !(c[j] == '"' && (0..hashes).all(|h| c.get(j + 1 + h) == Some(&'#'))) {
                j += 1;
            }
            i = j + 1 + hashes;
            out.push(' ');
        } else if c[i] == '"' {
            i += 1;
            while i < c.len() && c[i] != '"' {
                i += if c[i] == '\\' { 2 } else { 1 };
            }
            i += 1;
            out.push(' ');
        } else if c[i] == '\'' && next == Some('\\') {
            i += 3; // the quote, the backslash and the escaped character
            while i < c.len() && c[i] != '\'' {
                i += 1;
            }
            i += 1;
            out.push(' ');
        } else if c[i] == '\'' && c.get(i + 2) == Some(&'\'') {
            i += 3;
            out.push(' ');
        } else {
            out.push(c[i]);
            i += 1;
        }
    }
    out
}

/// Identifiers, `::` and single punctuation characters; numbers are left out.
fn tokens(code: &str) -> Vec<String> {
    let c: Vec<char> = code.chars().collect();
    let mut out = Vec::new();
    let mut i = 0;
    while i < c.len() {
        if c[i].is_alphanumeric() || c[i] == '_' {
            let start = i;
            while i < c.len() && (c[i].is_alphanumeric() || c[i] == '_') {
                i += 1;
            }
            if !c[start].is_ascii_digit() {
                out.push(c[start..i].iter().collect());
            }
        } else if c[i] == ':' && c.get(i + 1) == Some(&':') {
            out.push("::".to_string());
            i += 2;
        } else {
            if !c[i].is_whitespace() {
                out.push(c[i].to_string());
            }
            i += 1;
        }
    }
    out
}

/// The index after the item starting at `i` (through its `;` or its matching `}`).
fn skip_item(t: &[String], mut i: usize) -> usize {
    let mut depth = 0usize;
    while i < t.len() {
        match t[i].as_str() {
            "{" => depth += 1,
            "}" => {
                depth = depth.saturating_sub(1);
                if depth == 0 {
                    return i + 1;
                }
            }
            ";" if depth == 0 => return i + 1,
            _ => {}
        }
        i += 1;
    }
    i
}

/// The paths of a `use` tree starting at `i`, each prefixed by `prefix`; returns the index after
/// the tree.
fn use_tree(t: &[String], mut i: usize, mut path: Vec<String>, out: &mut Vec<Vec<String>>) -> usize {
    if t.get(i).map(String::as_str) == Some("::") {
        i += 1;
    }
    loop {
        match t.get(i).map(String::as_str) {
            Some("{") => {
                i += 1;
                while i < t.len() && t[i] != "}" {
                    i = use_tree(t, i, path.clone(), out);
                    if t.get(i).map(String::as_str) == Some(",") {
                        i += 1;
                    }
                }
                return i + 1;
            }
            Some("*") => {
                out.push(path);
                return i + 1;
            }
            Some(s) if s.chars().next().is_some_and(|ch| ch.is_alphabetic() || ch == '_') => {
                path.push(s.to_string());
                i += 1;
            }
            _ => {
                out.push(path);
                return i;
            }
        }
        match t.get(i).map(String::as_str) {
            Some("::") => i += 1,
            Some("as") => {
                out.push(path);
                return i + 2;
            }
            _ => {
                out.push(path);
                return i;
            }
        }
    }
}

/// A path as written, and the module it is written in (the file's, plus inline modules).
struct Reference {
    within: Vec<String>,
    path: Vec<String>,
    is_use: bool,
}

/// Every path of `code` that may name a module of the crate.
fn references(code: &str, binary: bool) -> Vec<Reference> {
    let t = tokens(code);
    let mut out = Vec::new();
    // Inline modules: (name, brace depth inside them).
    let mut inline: Vec<(String, usize)> = Vec::new();
    let mut depth = 0usize;
    let mut i = 0;
    let within = |inline: &[(String, usize)]| inline.iter().map(|(n, _)| n.clone()).collect::<Vec<_>>();
    while i < t.len() {
        let at = |k: usize| t.get(i + k).map(String::as_str);
        match t[i].as_str() {
            "#" if at(1) == Some("[")
                && at(2) == Some("cfg")
                && at(3) == Some("(")
                && at(4) == Some("test") =>
            {
                // Skip this attribute, any that follow, then the item.
                let mut j = i;
                while t.get(j).map(String::as_str) == Some("#") {
                    let mut k = j + 1;
                    let mut d = 0;
                    while k < t.len() {
                        match t[k].as_str() {
                            "[" => d += 1,
                            "]" => {
                                d -= 1;
                                if d == 0 {
                                    break;
                                }
                            }
                            _ => {}
                        }
                        k += 1;
                    }
                    j = k + 1;
                }
                i = skip_item(&t, j);
            }
            "mod" if at(2) == Some("{") => {
                depth += 1;
                inline.push((t[i + 1].clone(), depth));
                i += 3;
            }
            "{" => {
                depth += 1;
                i += 1;
            }
            "}" => {
                if inline.last().is_some_and(|&(_, d)| d == depth) {
                    inline.pop();
                }
                depth = depth.saturating_sub(1);
                i += 1;
            }
            "use" => {
                let mut paths = Vec::new();
                i = use_tree(&t, i + 1, Vec::new(), &mut paths);
                for path in paths {
                    out.push(Reference { within: within(&inline), path, is_use: true });
                }
            }
            s if matches!(s, "crate" | "super" | "self") || (binary && s == "nimcount") => {
                if at(1) == Some("::") {
                    let mut path = vec![s.to_string()];
                    let mut j = i + 1;
                    while t.get(j).map(String::as_str) == Some("::")
                        && t.get(j + 1).is_some_and(|n| n.chars().all(|ch| ch.is_alphanumeric() || ch == '_'))
                    {
                        path.push(t[j + 1].clone());
                        j += 2;
                    }
                    out.push(Reference { within: within(&inline), path, is_use: false });
                    i = j;
                } else {
                    i += 1;
                }
            }
            _ => i += 1,
        }
    }
    out
}

/// The graph of one directory (or of the top level): node names and edges between them.
type Graph = BTreeMap<String, BTreeSet<String>>;

/// An import circle: its modules, sorted, and the edges between them.
type Circle = (Vec<String>, Vec<(String, String)>);

/// What the check finds in a tree of sources.
#[derive(Debug, Default)]
struct Findings {
    /// Each circle: its modules, sorted, and its edges.
    circles: Vec<Circle>,
    /// Imports from the same floor or one above, and modules missing from the floors or
    /// listed there without being declared.
    layer_errors: Vec<String>,
}

/// Builds the import graphs of the sources (`(path relative to src/, text)`) and checks them.
fn check(files: &[(String, String)], floors: &[&[&str]], binary_floors: &[(&str, &[&[&str]])]) -> Findings {
    let modules: BTreeMap<Module, &str> =
        files.iter().map(|(rel, text)| (module_of(rel), text.as_str())).collect();
    let lib_root = Module { krate: "lib".into(), path: vec![] };
    // The names the crate root re-exports (`pub use error::{Error, Result}`): name → module.
    let mut root_names: BTreeMap<String, Module> = BTreeMap::new();
    let resolve = |from: &Module, r: &Reference, root_names: &BTreeMap<String, Module>| -> Option<Module> {
        let mut here = from.path.clone();
        here.extend(r.within.iter().cloned());
        let (krate, mut full) = match r.path[0].as_str() {
            "crate" => (from.krate.clone(), r.path[1..].to_vec()),
            "nimcount" if from.krate != "lib" => ("lib".to_string(), r.path[1..].to_vec()),
            "self" => (from.krate.clone(), [here.clone(), r.path[1..].to_vec()].concat()),
            "super" => {
                let mut base = here.clone();
                let mut k = 0;
                while r.path.get(k).map(String::as_str) == Some("super") {
                    base.pop();
                    k += 1;
                }
                (from.krate.clone(), [base, r.path[k..].to_vec()].concat())
            }
            first => {
                let mut child = from.path.clone();
                child.push(first.to_string());
                let child = Module { krate: from.krate.clone(), path: child };
                if !r.is_use || !r.within.is_empty() || !modules.contains_key(&child) {
                    return None;
                }
                (from.krate.clone(), [from.path.clone(), r.path.clone()].concat())
            }
        };
        full.retain(|s| s != "self");
        let module = (0..=full.len())
            .rev()
            .map(|n| Module { krate: krate.clone(), path: full[..n].to_vec() })
            .find(|m| modules.contains_key(m))?;
        if module == lib_root
            && let Some(name) = full.first()
        {
            return root_names.get(name).cloned().or(Some(module));
        }
        Some(module)
    };
    if let Some(text) = modules.get(&lib_root) {
        for r in references(&code_only(text), false).iter().filter(|r| r.is_use && r.within.is_empty()) {
            if let (Some(m), Some(last)) = (resolve(&lib_root, r, &root_names), r.path.last())
                && m != lib_root
            {
                root_names.insert(last.clone(), m);
            }
        }
    }
    // Edges between the files.
    let mut edges: BTreeSet<(Module, Module)> = BTreeSet::new();
    for (module, text) in &modules {
        for r in references(&code_only(text), module.krate != "lib") {
            if let Some(to) = resolve(module, &r, &root_names)
                && &to != module
            {
                edges.insert((module.clone(), to));
            }
        }
    }

    let mut findings = Findings::default();
    // The top level: the library's modules and each binary as one node.
    let top = |m: &Module| -> Option<String> {
        if m.krate != "lib" {
            Some(Module { krate: m.krate.clone(), path: vec![] }.name())
        } else {
            m.path.first().cloned()
        }
    };
    let mut graphs: BTreeMap<Module, Graph> = BTreeMap::new();
    let top_graph = graphs.entry(lib_root.clone()).or_default();
    for (a, b) in &edges {
        if let (Some(x), Some(y)) = (top(a), top(b))
            && x != y
        {
            top_graph.entry(x).or_default().insert(y);
        }
    }
    // Each directory: the files and subdirectories below one module, its own file left out.
    for (a, b) in &edges {
        let common = a.path.iter().zip(&b.path).take_while(|(x, y)| x == y).count();
        if a.krate != b.krate || common == 0 && a.krate == "lib" {
            continue; // top level, done above
        }
        if a.path.len() == common || b.path.len() == common {
            continue; // to or from the directory's own file
        }
        let dir = Module { krate: a.krate.clone(), path: a.path[..common].to_vec() };
        let node = |m: &Module| Module { krate: m.krate.clone(), path: m.path[..=common].to_vec() }.name();
        graphs.entry(dir).or_default().entry(node(a)).or_default().insert(node(b));
    }
    for graph in graphs.values() {
        findings.circles.extend(circles(graph));
    }

    // The library's floors; the binaries above them all.
    let floor_of: BTreeMap<&str, usize> =
        floors.iter().enumerate().flat_map(|(i, names)| names.iter().map(move |n| (*n, i))).collect();
    let declared = modules.get(&lib_root).map_or_else(BTreeSet::new, |text| declared_modules(text));
    for name in &declared {
        if !floor_of.contains_key(name.as_str()) {
            findings.layer_errors.push(format!("{name} is missing from the floors"));
        }
    }
    for name in floor_of.keys().filter(|n| !declared.contains(**n)) {
        findings.layer_errors.push(format!("{name} is on a floor but lib.rs declares no such module"));
    }
    let floor = |name: &str| {
        if name.starts_with("bin/") { Some(usize::MAX) } else { floor_of.get(name).copied() }
    };
    for (a, targets) in &graphs[&lib_root] {
        for b in targets {
            match (floor(a), floor(b)) {
                (Some(fa), Some(fb)) if fb >= fa => {
                    findings.layer_errors.push(format!("{a} imports {b}, on the same floor or above"))
                }
                (None, _) => findings.layer_errors.push(format!("{a} is missing from the floors")),
                (_, None) => findings.layer_errors.push(format!("{b} is missing from the floors")),
                _ => {}
            }
        }
    }
    // Each binary's floors, the modules not listed on one above them all.
    for (binary, floors) in binary_floors {
        let floor = |m: &Module| {
            let name = m.path.first().map_or("", String::as_str);
            floors.iter().position(|f| f.contains(&name)).unwrap_or(floors.len())
        };
        for (a, b) in edges.iter().filter(|(a, b)| a.krate == *binary && b.krate == *binary) {
            let (from_root, to_root) = (a.path.is_empty(), b.path.is_empty());
            let top = floors.len();
            if a.path.first() != b.path.first()
                && !from_root
                && !to_root
                && floor(b) >= floor(a)
                && floor(a) < top
            {
                findings.layer_errors.push(format!(
                    "{} imports {}, on the same floor or above",
                    a.name(),
                    b.name()
                ));
            }
        }
    }
    findings.layer_errors.sort();
    findings.layer_errors.dedup();
    findings
}

/// The modules `lib.rs` declares (`mod name;`, `pub mod name;`, `pub(crate) mod name;`), those
/// for tests aside (under `#[cfg(test)]` or `#[cfg(feature = "internals")]`, through the
/// attributes that follow it).
fn declared_modules(text: &str) -> BTreeSet<String> {
    let (mut names, mut test_only) = (BTreeSet::new(), false);
    // Line by line, comments aside: the attributes' literals are read.
    for line in text.lines().map(str::trim).filter(|l| !l.is_empty() && !l.starts_with("//")) {
        let unqualified = ["pub ", "pub(crate) "].iter().find_map(|p| line.strip_prefix(p)).unwrap_or(line);
        let name = unqualified.strip_prefix("mod ").and_then(|r| r.strip_suffix(';'));
        if let Some(name) = name
            && !test_only
        {
            names.insert(name.to_string());
        }
        test_only = matches!(line, "#[cfg(test)]" | "#[cfg(feature = \"internals\")]")
            || (test_only && line.starts_with("#["));
    }
    names
}

/// The strongly connected components of more than one node (Tarjan), with their edges.
fn circles(graph: &Graph) -> Vec<Circle> {
    struct State<'a> {
        graph: &'a Graph,
        index: BTreeMap<&'a str, usize>,
        low: BTreeMap<&'a str, usize>,
        stack: Vec<&'a str>,
        found: Vec<Vec<String>>,
    }
    fn visit<'a>(s: &mut State<'a>, v: &'a str) {
        let n = s.index.len();
        s.index.insert(v, n);
        s.low.insert(v, n);
        s.stack.push(v);
        for w in s.graph.get(v).into_iter().flatten() {
            if !s.index.contains_key(w.as_str()) {
                visit(s, w);
                let lw = s.low[w.as_str()];
                s.low.entry(v).and_modify(|l| *l = (*l).min(lw));
            } else if s.stack.contains(&w.as_str()) {
                let iw = s.index[w.as_str()];
                s.low.entry(v).and_modify(|l| *l = (*l).min(iw));
            }
        }
        if s.low[v] == s.index[v] {
            let mut component = Vec::new();
            while let Some(w) = s.stack.pop() {
                component.push(w.to_string());
                if w == v {
                    break;
                }
            }
            if component.len() > 1 {
                component.sort();
                s.found.push(component);
            }
        }
    }
    let mut s =
        State { graph, index: BTreeMap::new(), low: BTreeMap::new(), stack: Vec::new(), found: Vec::new() };
    for v in graph.keys() {
        if !s.index.contains_key(v.as_str()) {
            visit(&mut s, v);
        }
    }
    s.found
        .into_iter()
        .map(|c| {
            let edges = c
                .iter()
                .flat_map(|a| graph[a].iter().filter(|b| c.contains(b)).map(move |b| (a.clone(), b.clone())))
                .collect();
            (c, edges)
        })
        .collect()
}

/// Every `.rs` file under `dir`, as (path relative to `root` with `/`, text).
fn read_tree(root: &Path, dir: &Path, out: &mut Vec<(String, String)>) {
    let mut entries: Vec<_> =
        std::fs::read_dir(dir).expect("a readable source tree").map(|e| e.unwrap().path()).collect();
    entries.sort();
    for path in entries {
        if path.is_dir() {
            read_tree(root, &path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            let rel = path.strip_prefix(root).unwrap().components();
            let rel = rel.map(|c| c.as_os_str().to_string_lossy().into_owned()).collect::<Vec<_>>().join("/");
            out.push((rel, std::fs::read_to_string(&path).expect("a readable source file")));
        }
    }
}

fn describe(circle: &Circle) -> String {
    let edges: Vec<String> = circle.1.iter().map(|(a, b)| format!("{a} → {b}")).collect();
    format!("{{{}}}: {}", circle.0.join(", "), edges.join("; "))
}

#[test]
fn the_import_graph_of_src_has_no_circle_and_respects_the_layers() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    read_tree(&src, &src, &mut files);
    // What the tests of the internals reach every module through is no part of the graph.
    files.retain(|(rel, _)| rel != "internals.rs");
    assert!(files.len() > 50 && files.iter().any(|(rel, _)| rel == "lib.rs"), "the tree was read");
    let findings = check(&files, FLOORS, BINARY_FLOORS);
    let mut problems: Vec<String> =
        findings.circles.iter().map(|circle| format!("import circle {}", describe(circle))).collect();
    problems.extend(findings.layer_errors.iter().cloned());
    assert!(problems.is_empty(), "the import graph of src/:\n{}", problems.join("\n"));
}

/// The checker itself, on small made-up trees.
mod checker {
    use super::*;

    fn tree(files: &[(&str, &str)]) -> Vec<(String, String)> {
        files.iter().map(|(p, t)| (p.to_string(), t.to_string())).collect()
    }

    fn circle_names(f: &Findings) -> Vec<Vec<String>> {
        f.circles.iter().map(|(c, _)| c.clone()).collect()
    }

    #[test]
    fn a_clean_tree_passes() {
        let f = check(
            &tree(&[
                (
                    "lib.rs",
                    "mod a;\npub(crate) mod b;\npub use a::Thing;\n#[cfg(test)]\nmod checks;\n#[cfg(feature = \"internals\")]\n#[doc(hidden)]\npub mod internals;",
                ),
                ("a.rs", "pub struct Thing;"),
                ("b/mod.rs", "mod x;\nmod y;\npub use x::X;\nuse crate::Thing;"),
                ("b/x.rs", "use super::y::Y; use crate::a::Thing; pub struct X;"),
                ("b/y.rs", "pub struct Y; fn f() -> super::Z { todo!() }"),
                ("bin/tool/main.rs", "mod cli; use nimcount::b::X;"),
                ("bin/tool/cli.rs", "use crate::Args; use nimcount::{a::Thing, b};"),
                ("checks.rs", ""),
            ]),
            &[&["a"], &["b"]],
            &[("tool", &[&["cli"]])],
        );
        assert!(f.circles.is_empty() && f.layer_errors.is_empty(), "{f:?}");
    }

    #[test]
    fn a_circle_between_top_level_modules_is_found() {
        let f = check(
            &tree(&[
                ("lib.rs", "mod a;\nmod b;"),
                ("a.rs", "use crate::{b::{self, Y}, Error};"),
                ("b.rs", "fn f() { crate::a::g() }"),
            ]),
            &[&["a"], &["b"]],
            &[],
        );
        assert_eq!(circle_names(&f), [["a", "b"]]);
        assert_eq!(f.layer_errors, ["a imports b, on the same floor or above"]);
    }

    #[test]
    fn a_circle_inside_a_directory_is_found_through_super_and_subdirectories() {
        let f = check(
            &tree(&[
                ("lib.rs", "mod d;"),
                ("d/mod.rs", "mod p;\nmod q;"),
                ("d/p.rs", "mod inner { use super::super::q::deep::Z; }"),
                ("d/q/mod.rs", "pub mod deep;"),
                ("d/q/deep.rs", "pub struct Z; use crate::d::p as other;"),
            ]),
            &[&["d"]],
            &[],
        );
        assert_eq!(circle_names(&f), [["d::p", "d::q"]]);
        assert!(f.layer_errors.is_empty());
    }

    #[test]
    fn a_circle_between_files_of_a_binary_is_found() {
        let f = check(
            &tree(&[
                ("lib.rs", ""),
                ("bin/tool/main.rs", "mod one;\nmod two;"),
                ("bin/tool/one.rs", "use crate::two::f;"),
                ("bin/tool/two.rs", "pub fn f() { crate::one::g() }"),
            ]),
            &[],
            &[],
        );
        assert_eq!(circle_names(&f), [["bin/tool::one", "bin/tool::two"]]);
    }

    #[test]
    fn comments_literals_and_tests_are_not_imports() {
        let f = check(
            &tree(&[
                ("lib.rs", "mod a;\nmod b;"),
                ("a.rs", "use crate::b::X;"),
                (
                    "b.rs",
                    "// use crate::a::X;\n/* crate::a::X /* nested */ crate::a::Y */\n\
                 const S: &str = \"crate::a::X\"; const R: &str = r#\"crate::a::\"X\"#;\n\
                 const C: char = '\"'; fn f<'a>(x: &'a str) {}\n\
                 #[cfg(test)]\nmod tests { use crate::a::X; }\npub struct X;",
                ),
            ]),
            &[&["b"], &["a"]],
            &[],
        );
        assert!(f.circles.is_empty(), "{f:?}");
        // An import from the floor below is fine; one from the same floor or above is not.
        let files = tree(&[("lib.rs", "mod a;\nmod b;"), ("a.rs", "use crate::b::X;"), ("b.rs", "")]);
        let f = check(&files, &[&["b"], &["a"]], &[]);
        assert!(f.layer_errors.is_empty(), "{f:?}");
        for floors in [&[&["a"][..], &["b"]][..], &[&["a", "b"]]] {
            let f = check(&files, floors, &[]);
            assert_eq!(f.layer_errors, ["a imports b, on the same floor or above"], "{floors:?}");
        }
        let f = check(&files, &[&["b"]], &[]);
        assert_eq!(f.layer_errors, ["a is missing from the floors"]);
        let f = check(&files, &[&["b"], &["a", "c"]], &[]);
        assert_eq!(f.layer_errors, ["c is on a floor but lib.rs declares no such module"]);
    }

    #[test]
    fn a_binary_module_importing_from_its_floor_or_above_is_found() {
        let files = tree(&[
            ("lib.rs", ""),
            ("bin/tool/main.rs", "mod common;\nmod output;\nmod run;\nuse run::go;"),
            ("bin/tool/common.rs", "pub struct Failure; #[cfg(test)] mod t { use crate::run::go; }"),
            ("bin/tool/output.rs", "use crate::common::Failure;"),
            ("bin/tool/run.rs", "use crate::{common::Failure, output::Out};"),
        ]);
        let f = check(&files, &[], &[("tool", &[&["common"], &["output"]])]);
        assert!(f.layer_errors.is_empty(), "{f:?}");
        let f = check(&files, &[], &[("tool", &[&["common"], &["output", "run"]])]);
        assert_eq!(f.layer_errors, ["bin/tool::run imports bin/tool::output, on the same floor or above"]);
        for floors in [&[&["output"][..], &["common"]][..], &[&["common", "output"]]] {
            let f = check(&files, &[], &[("tool", floors)]);
            assert_eq!(
                f.layer_errors,
                ["bin/tool::output imports bin/tool::common, on the same floor or above"],
                "{floors:?}"
            );
        }
    }
}
