//! Every row of `data/known_periods.tsv` (facts from the literature) reproduced: the first 40
//! values, the preperiod, period and saltus, and the largest value where the table gives one;
//! the open games report no period within 20 000 heaps.

use nimcount::game::Game;
use nimcount::grundy::{self, Certificate, find_period, find_period_general, values};
use nimcount::progress::Silent;

struct Row {
    game: Game,
    /// `None` for games without a known period.
    period: Option<(u64, u64, u64)>,
    max_value: MaxValue,
    first_40: Vec<u32>,
}

enum MaxValue {
    Unknown,
    Exactly(u32),
    Unbounded,
    /// The largest of `G(0..heaps)`.
    Below {
        value: u32,
        heaps: u64,
    },
}

fn table() -> Vec<Row> {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/data/known_periods.tsv");
    let text = std::fs::read_to_string(path).expect("data/known_periods.tsv");
    let mut lines = text.lines();
    let header: Vec<&str> = lines.next().expect("header").split('\t').collect();
    assert_eq!(header, ["game", "preperiod", "period", "saltus", "max_value", "first_40_values", "source"]);
    let rows: Vec<Row> = lines
        .filter(|line| !line.trim().is_empty())
        .map(|line| {
            let f: Vec<&str> = line.split('\t').collect();
            assert_eq!(f.len(), 7, "{line}");
            assert!(!f[6].trim().is_empty(), "every row names its source: {line}");
            let number = |s: &str| s.parse::<u64>().unwrap_or_else(|_| panic!("bad number '{s}' in {line}"));
            let period =
                if f[1].is_empty() { None } else { Some((number(f[1]), number(f[2]), number(f[3]))) };
            let max_value = match f[4] {
                "" => MaxValue::Unknown,
                "unbounded" => MaxValue::Unbounded,
                text => match text.split_once(" below ") {
                    Some((value, heaps)) => {
                        MaxValue::Below { value: number(value) as u32, heaps: number(heaps) }
                    }
                    None => MaxValue::Exactly(number(text) as u32),
                },
            };
            let first_40: Vec<u32> = f[5].split(',').map(|v| number(v) as u32).collect();
            assert_eq!(first_40.len(), 40, "{line}");
            Row { game: Game::parse(f[0]).unwrap(), period, max_value, first_40 }
        })
        .collect();
    assert!(rows.len() >= 24, "the table lost rows");
    rows
}

fn triple(c: &Certificate) -> (u64, u64, u64) {
    (c.preperiod, c.period, c.saltus)
}

#[test]
fn first_40_values_match_the_literature() {
    for row in table() {
        assert_eq!(values(&row.game, 40, &Silent).unwrap(), row.first_40, "{}", row.game);
    }
}

#[test]
fn periods_match_the_literature() {
    for row in table() {
        let Some(expected) = row.period else { continue };
        let search = find_period(&row.game, grundy::default_max_heap(&row.game), &Silent).unwrap();
        let certificate = search.certificate.as_ref().unwrap_or_else(|| panic!("{}: no period", row.game));
        assert_eq!(triple(certificate), expected, "{}", row.game);
        assert!(search.values.len() as u64 >= certificate.preperiod + certificate.period);
        // Through the certificate when fewer values were computed (closed forms give one period).
        let first_40: Vec<u32> = (0..40).map(|n| search.value(n).unwrap() as u32).collect();
        assert_eq!(first_40, row.first_40, "{}", row.game);
        match row.max_value {
            MaxValue::Exactly(max) => assert_eq!(search.max_value, max, "{}", row.game),
            MaxValue::Unbounded => assert!(certificate.saltus > 0, "{}", row.game),
            MaxValue::Unknown => {}
            MaxValue::Below { .. } => panic!("{}: a bounded maximum for a periodic game", row.game),
        }
    }
}

/// The same periods from the general path: values by mex, proofs by window theorems only.
#[test]
fn the_general_path_agrees_on_every_row() {
    for row in table() {
        let Some(expected) = row.period else { continue };
        let search = find_period_general(&row.game, grundy::default_max_heap(&row.game), &Silent).unwrap();
        let certificate = search.certificate.unwrap_or_else(|| panic!("{}: no period", row.game));
        assert_eq!(triple(&certificate), expected, "{}", row.game);
        assert!(certificate.theorem.window(certificate.preperiod, certificate.period).is_some());
    }
}

#[test]
fn open_games_have_no_period_within_20000_heaps() {
    let mut open = 0;
    for row in table() {
        if row.period.is_some() {
            continue;
        }
        open += 1;
        let search = find_period(&row.game, 20_000, &Silent).unwrap();
        assert_eq!(search.certificate, None, "{}", row.game);
        assert_eq!(search.checked_upto, 20_000, "{}", row.game);
        assert_eq!(search.values[..40], row.first_40[..], "{}", row.game);
        let MaxValue::Below { value, heaps } = row.max_value else { panic!("{}: max_value", row.game) };
        let computed = values(&row.game, heaps, &Silent).unwrap();
        assert_eq!(computed.iter().copied().max(), Some(value), "{}: largest of G(0..{heaps})", row.game);
        assert_eq!(search.never_periodic, row.game == Game::Squares);
    }
    assert_eq!(open, 3);
}
