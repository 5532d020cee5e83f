//! Patterns that name families of games: `octal:0.??`, `hex:0.?`, `subtract:{1..8}`.

use crate::error::{Error, Result};
use crate::game::Game;
use crate::message::quote;

/// The most games a survey may name: every four-digit octal code (`octal:0.????`, 4096), every
/// subtraction set within `1..12` (4095). At the default 10 s a game, such a survey takes hours.
pub const MAX_GAMES: usize = 1 << 12;

/// The most code digits after the point in an octal or hexadecimal pattern.
const MAX_DIGITS: usize = 8;

/// The games a pattern names, in the order of their codes, each once (codes that differ only
/// by trailing zeros, `0.70` and `0.7`, are one game).
///
/// - `octal:D.XYZ…`: each `?` is any octal digit, the others are themselves (`0.??`, `4.?7`).
/// - `hex:D.XY…`: the same with hexadecimal digits (`?` is any of `0`–`F`).
/// - `subtract:{A..B}`: every non-empty subtraction set within `A..=B`;
///   `subtract:{A..B}:K`: those of `K` moves.
///
/// ```
/// use nimcount::survey::games_of;
/// let games = games_of("octal:0.?")?;
/// assert_eq!(games.len(), 8);
/// assert_eq!(games[7].spec(), "octal:0.7");
/// assert_eq!(games_of("subtract:{1..4}:2")?.len(), 6);
/// # Ok::<(), nimcount::Error>(())
/// ```
pub fn games_of(pattern: &str) -> Result<Vec<Game>> {
    let fail = |reason: String| Error::InvalidPattern { pattern: quote(pattern), reason };
    let text = pattern.trim();
    let Some((family, rest)) = text.split_once(':') else {
        return Err(fail("expected FAMILY:CODE, e.g. octal:0.??, hex:0.?? or subtract:{1..8}".into()));
    };
    let specs = match family.trim() {
        "octal" => codes(rest.trim(), 8).map_err(fail)?.into_iter().map(|c| format!("octal:{c}")).collect(),
        "hex" => codes(rest.trim(), 16).map_err(fail)?.into_iter().map(|c| format!("hex:{c}")).collect(),
        "subtract" => subtraction_sets(rest.trim()).map_err(fail)?,
        other => {
            return Err(fail(format!("unknown family '{}' (known: octal, hex, subtract)", quote(other))));
        }
    };
    let mut games: Vec<Game> = Vec::with_capacity(specs.len());
    let mut seen = std::collections::HashSet::new();
    for spec in specs {
        let game = Game::parse(&spec).map_err(|e| fail(e.to_string()))?;
        if seen.insert(game.spec()) {
            games.push(game);
        }
    }
    Ok(games)
}

/// The codes of `D.XYZ…` in base `radix`, every `?` replaced by each digit in turn.
fn codes(pattern: &str, radix: u32) -> std::result::Result<Vec<String>, String> {
    let (whole, fraction) = pattern.split_once('.').unwrap_or((pattern, ""));
    if whole.chars().count() != 1 {
        return Err("expected one digit before the point, e.g. 0.?? or 4.?".into());
    }
    if fraction.chars().count() > MAX_DIGITS {
        return Err(format!("at most {MAX_DIGITS} digits after the point"));
    }
    let digit_name = if radix == 8 { "an octal digit" } else { "a hexadecimal digit" };
    let mut choices: Vec<Vec<char>> = Vec::new();
    for c in whole.chars().chain(fraction.chars()) {
        match c {
            '?' => choices.push((0..radix).map(|d| char::from_digit(d, radix).unwrap()).collect()),
            c if c.is_digit(radix) => choices.push(vec![c]),
            c => return Err(format!("'{}' is not {digit_name} or '?'", quote(&c.to_string()))),
        }
    }
    let count = choices.iter().try_fold(1usize, |n, c| n.checked_mul(c.len()));
    if count.is_none_or(|n| n > MAX_GAMES) {
        return Err(format!("more than {MAX_GAMES} codes"));
    }
    let mut out = vec![String::new()];
    for (i, digits) in choices.iter().enumerate() {
        out = out
            .iter()
            .flat_map(|prefix| {
                digits.iter().map(move |&d| {
                    let mut code = prefix.clone();
                    code.push(d);
                    if i == 0 {
                        code.push('.');
                    }
                    code
                })
            })
            .collect();
    }
    Ok(out.into_iter().map(|c| c.trim_end_matches('.').to_string()).collect())
}

/// The subtraction sets of `{A..B}` or `{A..B}:K`, as specifications.
fn subtraction_sets(pattern: &str) -> std::result::Result<Vec<String>, String> {
    let usage = || "expected {A..B} or {A..B}:K, e.g. subtract:{1..8} or subtract:{1..8}:3".to_string();
    let (range, size) = match pattern.rsplit_once(':') {
        Some((range, size)) => (range.trim(), Some(size.trim())),
        None => (pattern, None),
    };
    let inner = range.strip_prefix('{').and_then(|r| r.strip_suffix('}')).ok_or_else(usage)?;
    let (a, b) = inner.split_once("..").ok_or_else(usage)?;
    let number = |t: &str| crate::number::parse_u64(t.trim()).map_err(|e| e.to_string());
    let (a, b) = (number(a)?, number(b)?);
    if a == 0 || a > b {
        return Err(format!("the moves {a}..{b}: expected 1 <= A <= B"));
    }
    let width = b - a + 1;
    let size = size.map(number).transpose()?;
    if let Some(k) = size
        && (k == 0 || k > width)
    {
        return Err(format!("{k} moves: a set within {a}..{b} has 1 to {width}"));
    }
    let count: Option<u128> = match size {
        None => 1u128.checked_shl(width.min(127) as u32).map(|n| n - 1),
        Some(k) => Some(binomial(width, k)),
    };
    if width > 64 || count.is_none_or(|n| n > MAX_GAMES as u128) {
        return Err(format!("more than {MAX_GAMES} subtraction sets"));
    }
    let mut sets = Vec::new();
    for mask in 1u64..(1u64 << width) {
        if size.is_some_and(|k| u64::from(mask.count_ones()) != k) {
            continue;
        }
        let moves: Vec<String> =
            (0..width).filter(|i| mask >> i & 1 == 1).map(|i| (a + i).to_string()).collect();
        sets.push((mask.count_ones(), mask.reverse_bits(), format!("subtract:{}", moves.join(","))));
    }
    // Smaller sets first, each size in the order of its moves.
    sets.sort_unstable_by_key(|&(ones, reversed, _)| (ones, std::cmp::Reverse(reversed)));
    Ok(sets.into_iter().map(|(_, _, spec)| spec).collect())
}

/// `n choose k`, saturated.
fn binomial(n: u64, k: u64) -> u128 {
    (0..k).fold(1u128, |acc, i| acc.saturating_mul(u128::from(n - i)) / u128::from(i + 1))
}
