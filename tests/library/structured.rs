//! Counts without arrays: the structured spectrum against the array path, against independent
//! computations (a digit DP over the bits of the heap sizes), and the published values of
//! Project Euler 409.

use nimcount::count::{Kind, Query, SpectrumPath};
use nimcount::game::Game;
use nimcount::histogram::Histogram;
use nimcount::num_bigint::BigUint;
use serde_json::Value;

use crate::support::cli::{self, nimcount};

/// Runs `nimcount count ARGS --json` and parses its one JSON object.
fn json(args: &[&str]) -> Value {
    let output = nimcount().arg("count").args(args).arg("--json").output().unwrap();
    assert!(output.status.success(), "{args:?}: {}", String::from_utf8_lossy(&output.stderr));
    serde_json::from_slice(&output.stdout).unwrap()
}

fn field(v: &Value, name: &str) -> BigUint {
    v[name].as_str().unwrap_or_else(|| panic!("{name} in {v}")).parse().unwrap()
}

/// Runs `nimcount count ARGS`, which must be refused (see `cli::refused`).
fn refused(args: &[&str], needle: &str) {
    cli::refused(&[&["count"], args].concat(), needle);
}

fn factorial(n: u64) -> BigUint {
    (1..=n).map(BigUint::from).product()
}

#[test]
fn project_euler_409_statement_values() {
    // W(n): winning ordered positions of n distinct heaps of sizes 1..=2^n − 1, = sets × n!.
    for (n, want) in [(1u64, 1u64), (2, 6), (3, 168), (5, 19_764_360)] {
        let sizes = format!("1..=2^{n}-1");
        let v = json(&["--game", "nim", "--sizes", &sizes, "--heaps", &n.to_string(), "--distinct"]);
        assert_eq!(v["spectrum"], "structured");
        assert_eq!(field(&v, "winning") * factorial(n), BigUint::from(want), "W({n})");
    }
    let p = 1_000_000_007u64;
    let v = json(&[
        "--game",
        "nim",
        "--sizes",
        "1..=2^100-1",
        "--heaps",
        "100",
        "--distinct",
        "--modulus",
        "10^9+7",
    ]);
    assert_eq!(v["spectrum"], "structured");
    assert_eq!(field(&v, "winning") * factorial(100) % p, BigUint::from(384_777_056u64), "W(100)");
}

/// Ordered `k`-tuples of heap sizes in `1..=n` whose XOR is 0, by a digit DP over the bits from
/// the top: the state is which heaps are still equal to `n`'s prefix (tight).
fn xor_zero_tuples(n: u64, k: usize) -> u128 {
    // ways[mask]: tuples of prefixes with XOR 0 so far, `mask` = heaps still tight.
    let mut ways = vec![0u128; 1 << k];
    ways[(1 << k) - 1] = 1;
    for bit in (0..64).rev() {
        let nb = (n >> bit) & 1;
        let mut next = vec![0u128; 1 << k];
        for (mask, &w) in ways.iter().enumerate() {
            if w == 0 {
                continue;
            }
            for choice in 0..1usize << k {
                // choice: the heaps with this bit set; a tight heap may set it only where n does.
                if choice.count_ones() % 2 == 1 {
                    continue;
                }
                let mut new_mask = 0;
                let mut ok = true;
                for h in 0..k {
                    let b = (choice >> h) & 1;
                    if mask >> h & 1 == 1 {
                        if b as u64 > nb {
                            ok = false;
                            break;
                        }
                        if b as u64 == nb {
                            new_mask |= 1 << h;
                        }
                    }
                }
                if ok {
                    next[new_mask] += w;
                }
            }
        }
        ways = next;
    }
    // Sizes 0..=n: remove the tuples with a 0 by inclusion–exclusion over the zero heaps: a
    // tuple of the other j heaps from 1..=n with XOR 0 (j = 0: the empty tuple).
    let all: u128 = ways.iter().sum();
    all - zero_containing(n, k)
}

/// Tuples in `0..=n` of length `k` with XOR 0 and at least one 0.
fn zero_containing(n: u64, k: usize) -> u128 {
    // Σ_{z>=1} C(k, z) · (tuples of k − z heaps from 1..=n with XOR 0).
    let mut sum = 0u128;
    for z in 1..=k {
        let rest = k - z;
        let c = binomial(k as u128, z as u128);
        let inner = if rest == 0 { 1 } else { xor_zero_tuples(n, rest) };
        sum += c * inner;
    }
    sum
}

fn binomial(n: u128, r: u128) -> u128 {
    (0..r).fold(1, |c, i| c * (n - i) / (i + 1))
}

#[test]
fn nim_up_to_10_18_against_a_digit_dp() {
    let n = 10u64.pow(18);
    let nim = |k: u32| Query::new(Game::Nim).sizes(1u32, n).heaps(k);
    // Four heaps: about n^3 positions, in u128 for n = 10^12.
    for (n, k) in [(n, 1u32), (n, 2), (n, 3), (10u64.pow(12), 4)] {
        let nim = |k: u32| Query::new(Game::Nim).sizes(1u32, n).heaps(k);
        let want = xor_zero_tuples(n, k as usize);
        let counts = nim(k).count().unwrap();
        assert_eq!(counts.report.spectrum, SpectrumPath::Structured);
        assert_eq!(counts.losing, BigUint::from(want), "k = {k}");
        let modular = nim(k).modulus(1_000_000_007u32).count().unwrap();
        assert_eq!(modular.losing, BigUint::from(want % 1_000_000_007), "k = {k} mod 10^9+7");
        let two = nim(k).modulus(BigUint::from(1u8) << 64).count().unwrap();
        assert_eq!(two.losing, BigUint::from(want % (1u128 << 64)), "k = {k} mod 2^64");
    }
    // Three heaps with XOR 0 from 1..=n are pairwise distinct (a = b forces c = 0): sets and
    // multisets are the ordered count / 3!.
    let t3 = xor_zero_tuples(n, 3);
    for kind in [Kind::Set, Kind::Multiset] {
        let counts = nim(3).kind(kind).count().unwrap();
        assert_eq!(counts.losing, BigUint::from(t3 / 6), "{kind}");
    }
    // Misère Nim with one heap: the losing positions are the heaps of size 1.
    assert_eq!(nim(1).misere(true).count().unwrap().losing, 1u32.into());
}

#[test]
fn nim_with_10_12_heaps_agrees_across_structures() {
    // 1..=10^18 as one interval (game), as a file line, and split into two file lines: different
    // endpoints, different GF(2) systems, one answer.
    let n = BigUint::from(10u32).pow(18);
    let half = BigUint::from(5u32) * BigUint::from(10u32).pow(17);
    let split = Histogram::parse(&format!("1..={half} 1\n{}..={n} 1\n", &half + 1u8), "split").unwrap();
    let one = Histogram::parse(&format!("1..={n} 1\n"), "one").unwrap();
    let heaps = BigUint::from(10u32).pow(12);
    for modulus in [BigUint::from(1_000_000_007u32), BigUint::from(1u8) << 64, BigUint::from(720u32)] {
        let game = Query::new(Game::Nim).sizes(1u32, n.clone());
        let queries = [game, Query::from_histogram(one.clone()), Query::from_histogram(split.clone())];
        let answers: Vec<BigUint> = queries
            .into_iter()
            .map(|q| {
                let q = q.heaps(heaps.clone()).modulus(modulus.clone()).kind(Kind::Ordered);
                let c = q.count().unwrap();
                assert_eq!(c.report.spectrum, SpectrumPath::Structured);
                c.losing
            })
            .collect();
        assert!(answers.iter().all(|a| *a == answers[0]), "mod {modulus}: {answers:?}");
    }
    // Unordered and distinct heaps: O(k) per distinct value, so a smaller k.
    for kind in [Kind::Multiset, Kind::Set] {
        for (k, modulus) in [(5u32, None), (6, None), (100_000, Some(1_000_000_007u32))] {
            let run = |q: Query<'static>| {
                let q = q.heaps(k).kind(kind);
                let q = if let Some(m) = modulus { q.modulus(m) } else { q };
                q.count().unwrap().losing
            };
            let a = run(Query::new(Game::Nim).sizes(1u32, n.clone()));
            let b = run(Query::from_histogram(split.clone()));
            assert_eq!(a, b, "{kind} k = {k}");
        }
    }
}

/// The structured and array paths agree on `query` (ordered, unordered, distinct; exact and
/// modulo odd, even and 2^64; misère when `misere`).
fn paths_agree(make: &dyn Fn() -> Query<'static>, misere: bool, label: &str) {
    // A range inside a preperiod has counts per value: nothing to compare.
    if !make().heaps(1u32).histogram().unwrap().0.is_structured() {
        return;
    }
    let kinds = [(Kind::Ordered, 7u32), (Kind::Multiset, 4), (Kind::Set, 3)];
    let moduli = [
        None,
        Some(BigUint::from(1_000_000_007u32)),
        Some(BigUint::from(96u32)),
        Some(BigUint::from(1u8) << 64),
    ];
    for (kind, k) in kinds {
        for modulus in &moduli {
            for misere in [false, misere] {
                let run = |path| {
                    let mut q = make().heaps(k).kind(kind).misere(misere).spectrum(path);
                    if let Some(m) = modulus {
                        q = q.modulus(m.clone());
                    }
                    q.count().unwrap_or_else(|e| panic!("{label} {kind} k={k} {modulus:?} {path:?}: {e}"))
                };
                let (s, a) = (run(SpectrumPath::Structured), run(SpectrumPath::Array));
                assert_eq!(s.report.spectrum, SpectrumPath::Structured);
                assert_eq!(a.report.spectrum, SpectrumPath::Array);
                assert_eq!(
                    (&s.losing, &s.total),
                    (&a.losing, &a.total),
                    "{label} {kind} k={k} {modulus:?} misère {misere}"
                );
            }
        }
    }
}

#[test]
fn structured_and_array_paths_agree() {
    let ranges =
        [(0u64, 0u64), (0, 1), (1, 1), (0, 1023), (1, 1024), (5, 777), (1000, 70_000), (3, (1 << 16) - 1)];
    for (lo, hi) in ranges {
        paths_agree(&|| Query::new(Game::Nim).sizes(lo, hi), true, &format!("nim {lo}..={hi}"));
        for spec in
            ["subtract:1-1", "subtract:2-5", "subtract:3-1000", "subtract:7-7", "allbut:2", "allbut:1,2"]
        {
            let game: Game = spec.parse().unwrap();
            paths_agree(&|| Query::new(game.clone()).sizes(lo, hi), false, &format!("{spec} {lo}..={hi}"));
        }
    }
    // Moves far beyond 2^40 over a range whose values fit an array.
    let game: Game = "subtract:1000-1000000000000".parse().unwrap();
    paths_agree(&|| Query::new(game.clone()).sizes(999_000u64, 1_001_234u64), false, "big moves");
}

/// Hexadecimal games with a saltus: counts of small ranges equal an enumeration of the heap
/// tuples over values from a plain mex, and the structured spectrum equals the array path.
#[test]
fn hexadecimal_saltus_counts_equal_enumeration() {
    for spec in ["hex:0.8", "hex:0.0F", "hex:8.0"] {
        let game: Game = spec.parse().unwrap();
        let g = nimcount::grundy::values_of(&game, 41, &nimcount::progress::Silent).unwrap();
        for (lo, hi) in [(0u64, 0u64), (0, 1), (1, 1), (0, 40), (1, 39), (7, 33)] {
            let sizes: Vec<u32> = (lo..=hi).map(|n| g[n as usize]).collect();
            // Ordered tuples of k heaps whose values XOR to 0, by enumeration.
            let mut by_k = vec![1u64];
            let mut layer = vec![1u64];
            for _ in 0..3 {
                let mut counts = vec![0u64; 64];
                for (x, &c) in layer.iter().enumerate() {
                    for &v in &sizes {
                        counts[x ^ v as usize] += c;
                    }
                }
                by_k.push(counts[0]);
                layer = counts;
            }
            for (k, &expected) in by_k.iter().enumerate() {
                let count = Query::new(game.clone()).sizes(lo, hi).heaps(k as u32).count().unwrap();
                assert_eq!(count.losing, BigUint::from(expected), "{spec} {lo}..={hi} k={k}");
            }
            paths_agree(&|| Query::new(game.clone()).sizes(lo, hi), false, &format!("{spec} {lo}..={hi}"));
        }
    }
    // Far ranges: hex:0.8 has G(n) = floor((n - 1)/3) from 1 on; two heaps lose when equal.
    let v = json(&["--game", "hex:0.8", "--sizes", "1..=10^12", "--heaps", "2"]);
    assert_eq!((v["spectrum"].as_str(), v["losing"].as_str()), (Some("structured"), Some("2999999999998")));
    let v = json(&["--game", "hex:0.C", "--sizes", "1..=10^30", "--heaps", "3", "--modulus", "10^9+7"]);
    assert_eq!(v["spectrum"], "structured");
    let sum = (field(&v, "losing") + field(&v, "winning")) % 1_000_000_007u32;
    assert_eq!(sum, field(&v, "total"));
}

#[test]
fn far_ranges_are_counted() {
    let seed = ["--game", "subtract:1-1000000", "--sizes", "1..=12983567378251", "--heaps", "98670634123"];
    let v = json(&[&seed[..], &["--modulus", "10^9+7"]].concat());
    assert_eq!((v["spectrum"].as_str(), v["losing"].as_str()), (Some("structured"), Some("154334921")));
    let array = json(&[&seed[..], &["--modulus", "10^9+7", "--spectrum", "array"]].concat());
    assert_eq!((array["spectrum"].as_str(), array["losing"].as_str()), (Some("array"), Some("154334921")));
    for (game, sizes) in
        [("subtract:1-1000000000000", "1..=10^18"), ("allbut:2", "1..=10^13"), ("allbut:1,2", "1..=10^13")]
    {
        for kind in [&["--heaps", "10^12"][..], &["--heaps", "1000", "--unordered"][..]] {
            let v = json(&[&["--game", game, "--sizes", sizes, "--modulus", "10^9+7"], kind].concat());
            assert_eq!(v["spectrum"], "structured", "{game}");
            let sum = (field(&v, "losing") + field(&v, "winning")) % 1_000_000_007u32;
            assert_eq!(sum, field(&v, "total"), "{game} {kind:?}");
        }
    }
}

#[test]
fn bad_structured_input_is_refused() {
    refused(&["--game", "nim", "--sizes", "1..=2^100", "--heaps", "2", "--distribution"], "2^101 of them");
    let dir = tempfile::tempdir().unwrap();
    let write = |name: &str, text: &str| {
        let path = dir.path().join(name);
        std::fs::write(&path, text).unwrap();
        path.display().to_string()
    };
    let cases = [
        ("backwards.txt", "0 1\n9..=3 2\n", "line 2: empty range of values 9..=3"),
        ("overlap.txt", "1..=10 1\n# comment\n5..=20 1\n", "line 3: values 5..=20 overlap 1..=10 on line 1"),
        ("repeated.txt", "1..=10 1\n1..=10 1\n", "line 2: values 1..=10 are already given on line 1"),
        ("inside.txt", "1..=10 1\n7 1\n", "line 2: value 7 overlaps 1..=10 on line 1"),
        ("bad-bound.txt", "1..=x 1\n", "line 1: bad range of values"),
    ];
    for (name, text, needle) in cases {
        refused(&["--histogram", &write(name, text), "--heaps", "2"], needle);
    }
}

/// `--max-work` bounds the structured spectrum too: under a limit of one step the query is
/// refused at that stage (not later, at the power), and the default limit lets it through.
#[test]
fn max_work_bounds_the_structured_spectrum() {
    let query = || Query::new(Game::Nim).sizes(1u32, BigUint::from(10u32).pow(30)).heaps(3u32).modulus(7u32);
    match query().max_work(1).count() {
        Err(nimcount::Error::TooMuchWork { what, limit, .. }) => {
            assert_eq!((what, limit), ("the structured spectrum", 1));
        }
        other => panic!("expected a refusal of the structured spectrum, got {other:?}"),
    }
    assert_eq!(query().count().unwrap().report.spectrum, SpectrumPath::Structured);
}

/// The runs of a histogram of power-of-two progressions (games whose values grow by a
/// power-of-two saltus) are found without an array: the same as the array's over small ranges,
/// and a few runs for Lasker's Nim over `1..=10^30` (2^100 slots as an array), which
/// `grundy --histogram` writes and `count --histogram` reads back to the same count.
#[test]
fn runs_of_saltus_progressions_need_no_array() {
    for game in ["lasker", "allbut:1,2", "allbut:3"] {
        let game = Game::parse(game).unwrap();
        for (lo, hi) in [(0u32, 0u32), (1, 1), (0, 9), (1, 100), (3, 77), (5, 1000), (64, 128)] {
            let query = Query::new(game.clone()).sizes(lo, hi);
            let h = query.histogram().unwrap().0.into_owned();
            assert_eq!(h.runs().unwrap(), h.to_array().unwrap().runs().unwrap(), "{game:?} {lo}..={hi}");
        }
    }
    let args = ["grundy", "--game", "lasker", "--sizes", "1..=10^30", "--histogram"];
    let output = nimcount().args(args).output().unwrap();
    let text = String::from_utf8(output.stdout).unwrap();
    assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
    assert!(text.lines().count() < 20, "{text}");
    let piped = nimcount()
        .args(["count", "--histogram", "-", "--heaps", "3", "--json"])
        .write_stdin(text)
        .output()
        .unwrap();
    assert!(piped.status.success(), "{}", String::from_utf8_lossy(&piped.stderr));
    let piped: Value = serde_json::from_slice(&piped.stdout).unwrap();
    let direct = json(&["--game", "lasker", "--sizes", "1..=10^30", "--heaps", "3"]);
    assert_eq!(piped["losing"], direct["losing"]);
}
