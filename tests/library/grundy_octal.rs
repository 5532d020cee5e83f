//! The sparse-space method against the plain O(n²) computation, and both against the game's
//! definition through [`HeapGame::options`].

use nimcount::game::{Game, OctalCode};
use nimcount::grundy::{octal_values_plain, values, values_of};
use nimcount::progress::Silent;
use rayon::prelude::*;

/// Every code `d0.d1d2d3` with `d0` in {0, 4} and octal `d1, d2, d3`: 1024 codes.
fn all_short_codes() -> Vec<OctalCode> {
    let mut codes = Vec::new();
    for d0 in [0u8, 4] {
        for rest in 0..512u32 {
            let digits = [d0, (rest >> 6) as u8, ((rest >> 3) & 7) as u8, (rest & 7) as u8];
            codes.push(OctalCode::from_digits(&digits).unwrap());
        }
    }
    codes
}

/// Up to 1100 values: past the mask's fifth review, at n = 1024 (the longer runs below go past
/// the eighth).
#[test]
fn sparse_space_equals_plain_on_every_short_code() {
    const COUNT: usize = 1100;
    let codes = all_short_codes();
    assert_eq!(codes.len(), 1024);
    let distinct: std::collections::HashSet<String> = codes.iter().map(|c| c.to_string()).collect();
    assert_eq!(distinct.len(), 1024, "codes print distinctly");
    let failures: Vec<String> = codes
        .par_iter()
        .filter_map(|code| {
            let fast = values(&Game::Octal(code.clone()), COUNT as u64, &Silent).unwrap();
            let plain = octal_values_plain(code, COUNT);
            (fast != plain).then(|| {
                let n = fast.iter().zip(&plain).position(|(a, b)| a != b).unwrap_or(COUNT);
                format!("{code}: first difference at n = {n}")
            })
        })
        .collect();
    assert!(failures.is_empty(), "{failures:?}");
}

/// The plain computation itself against a mex over the options the game enumerates, which
/// follow the digit rules independently.
#[test]
fn plain_equals_the_definition() {
    let codes = all_short_codes();
    codes.par_iter().for_each(|code| {
        let game = Game::Octal(code.clone());
        let plain = octal_values_plain(code, 300);
        assert_eq!(values_of(&game, 300, &Silent).unwrap(), plain, "{code}");
    });
}

/// Longer codes, codes with splits far from the point, and long runs (where the sparse space
/// changes its mask several times).
#[test]
fn sparse_space_equals_plain_on_longer_runs() {
    let codes =
        ["0.16", "0.6", "0.14", "0.106", "4.07", "0.0007", "0.00000004", "0.4", "4.0", "0.35", "0.1234567"];
    codes.par_iter().for_each(|code| {
        let code: OctalCode = code.parse().unwrap();
        // Past 8192, where the mask is reviewed for the eighth time.
        let fast = values(&Game::Octal(code.clone()), 9000, &Silent).unwrap();
        assert_eq!(fast, octal_values_plain(&code, 9000), "{code}");
    });
}

#[test]
fn edge_cases() {
    // No moves at all: every value is 0.
    let none = Game::parse("octal:0.0").unwrap();
    assert!(values(&none, 1000, &Silent).unwrap().iter().all(|&v| v == 0));
    // Counts 0 and 1.
    for spec in ["octal:0.77", "octal:4.0", "octal:0.0"] {
        let game = Game::parse(spec).unwrap();
        assert_eq!(values(&game, 0, &Silent).unwrap(), Vec::<u32>::new());
        assert_eq!(values(&game, 1, &Silent).unwrap(), vec![0]);
    }
    // 4.0: split without taking: G(n) = 1 for even n >= 2 ... computed against the definition.
    let split = Game::parse("octal:4.0").unwrap();
    assert_eq!(values(&split, 8, &Silent).unwrap(), values_of(&split, 8, &Silent).unwrap());
}
