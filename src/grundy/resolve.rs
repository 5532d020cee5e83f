//! From any [`HeapGame`] to what the engines and theorems work with: a built-in [`Game`] (for
//! the built-in games themselves, and for games of the user's that declare a finite
//! subtraction set or an octal code, read from their options), or the user's game itself.
//!
//! A declaration is a promise about every heap. It is checked against the game's options on
//! the first heaps, as many as about [`CHECK_OPTIONS`] options allow, and a game that breaks it
//! there is refused; beyond them the promise is the user's.

use crate::error::{Error, Result};
use crate::game::{Game, HeapGame, MAX_MOVE, MAX_OCTAL_DIGITS, MoveSet, OctalCode, Structure};

/// About how many options the check of a declaration enumerates.
pub(crate) const CHECK_OPTIONS: u64 = 1 << 22;

/// What a game is, for the engines.
pub enum Resolved<'g> {
    /// A built-in game, or a user's game that is one (its moves read from its options).
    Game(Game),
    /// The same moves from every heap, an infinite set: values by blocks, no theorem.
    Subtraction(&'g dyn HeapGame),
    /// Nothing declared: a plain mex over the options, no theorem.
    General(&'g dyn HeapGame),
}

impl Resolved<'_> {
    /// Whether a periodicity theorem can apply: built-in games other than subtract-a-square,
    /// Grundy's game and take-a-fraction games (whose values grow without bound).
    pub fn may_be_periodic(&self) -> bool {
        matches!(self, Resolved::Game(game)
            if !matches!(game, Game::Squares | Game::GrundyGame | Game::Fraction { .. }))
    }
}

/// Resolves `game`; fails when its declared structure contradicts its options.
pub fn resolve(game: &dyn HeapGame) -> Result<Resolved<'_>> {
    if let Some(builtin) = game.builtin() {
        return Ok(Resolved::Game(builtin.clone()));
    }
    match game.structure() {
        Structure::Subtraction { largest_move: Some(s) } => subtraction(game, s).map(Resolved::Game),
        Structure::Subtraction { largest_move: None } => {
            check_subtraction(game, None)?;
            Ok(Resolved::Subtraction(game))
        }
        Structure::Octal { last_digit } => octal(game, last_digit).map(Resolved::Game),
        _ => Ok(Resolved::General(game)),
    }
}

fn broken(game: &dyn HeapGame, reason: String) -> Error {
    Error::InvalidGame { spec: game.name(), reason }
}

/// The moves `m` of heap `n`: `n − h` for each option `[h]`, `n` for the option `[]`, sorted.
fn moves_of(game: &dyn HeapGame, n: u64, largest: Option<u64>) -> Result<Vec<u64>> {
    let mut moves = Vec::new();
    let mut bad = None;
    game.options(n, &mut |heaps| match heaps {
        [] => moves.push(n),
        [h] if *h < n => moves.push(n - h),
        _ => bad = bad.take().or(Some(heaps.to_vec())),
    });
    if let Some(heaps) = bad {
        return Err(broken(
            game,
            format!(
                "it declares subtraction moves (one heap left, or none), but heap {n} has the option {heaps:?}"
            ),
        ));
    }
    moves.sort_unstable();
    moves.dedup();
    if let (Some(s), Some(&m)) = (largest, moves.last())
        && m > s
    {
        return Err(broken(
            game,
            format!("it declares moves of at most {s} stones, but heap {n} can lose {m}"),
        ));
    }
    Ok(moves)
}

/// The finite subtraction set of a game that declares one, checked.
fn subtraction(game: &dyn HeapGame, s: u64) -> Result<Game> {
    if s > MAX_MOVE {
        return Err(broken(game, format!("its largest move {s} is beyond the limit 2^40")));
    }
    let moves = check_subtraction(game, Some(s))?;
    Ok(match MoveSet::from_moves(&moves) {
        Ok(set) => Game::Subtract(set),
        // No move at all: the game 0.0 (every value 0).
        Err(_) => Game::Octal(OctalCode::from_digits(&[0]).expect("the code 0.0")),
    })
}

/// Checks that the moves of every heap of the first ones are those of the heap before, plus
/// possibly the move that takes the whole heap; returns the moves of heap `s` for a finite set.
fn check_subtraction(game: &dyn HeapGame, largest: Option<u64>) -> Result<Vec<u64>> {
    let mut previous: Vec<u64> = Vec::new();
    let (mut n, mut checked) = (0u64, 0u64);
    let end = largest.map_or(u64::MAX, |s| s.saturating_add(64));
    while n <= end && checked < CHECK_OPTIONS {
        let moves = moves_of(game, n, largest)?;
        let grows = moves.len() == previous.len() + 1
            && moves.last() == Some(&n)
            && moves[..previous.len()] == previous[..];
        if moves != previous && !grows {
            return Err(different_moves(game, n, &moves, &previous));
        }
        checked += moves.len() as u64 + 1;
        previous = moves;
        n += 1;
    }
    if let Some(s) = largest
        && n <= s
    {
        // The check stopped before heap s, whose moves are the whole set: those checked must
        // be its beginning.
        let all = moves_of(game, s, largest)?;
        if all[..all.partition_point(|&m| m < n)] != previous[..] {
            return Err(different_moves(game, s, &all, &previous));
        }
        return Ok(all);
    }
    Ok(previous)
}

fn different_moves(game: &dyn HeapGame, n: u64, moves: &[u64], expected: &[u64]) -> Error {
    let show = |list: &[u64]| {
        let head: Vec<String> = list.iter().take(8).map(u64::to_string).collect();
        format!("{{{}{}}}", head.join(", "), if list.len() > 8 { ", …" } else { "" })
    };
    broken(
        game,
        format!(
            "it declares the same moves from every heap, but heap {n} can take {} where the heaps before \
             it take {}",
            show(moves),
            show(expected)
        ),
    )
}

/// The octal code of a game that declares one, read from its options and checked.
fn octal(game: &dyn HeapGame, t: u64) -> Result<Game> {
    if t > MAX_OCTAL_DIGITS as u64 {
        return Err(broken(
            game,
            format!("it takes up to {t} stones, beyond the limit of {MAX_OCTAL_DIGITS} digits"),
        ));
    }
    let mut digits = vec![0u8; t as usize + 1];
    // From heap t + 2 on every amount j <= t can leave one heap or two non-empty ones; heaps
    // 0..=t show which amounts may take a whole heap.
    for n in 0..=t + 2 {
        let mut bad = None;
        game.options(n, &mut |heaps| {
            let (left, bit) = match heaps {
                [] => (0, 1),
                [a] => (*a, 2),
                [a, b] if *a >= 1 && *b >= 1 => (a.saturating_add(*b), 4),
                _ => (u64::MAX, 0),
            };
            match n.checked_sub(left) {
                Some(j) if j <= t && bit != 0 && !(bit == 2 && j == 0) => digits[j as usize] |= bit,
                _ => bad = bad.take().or(Some(heaps.to_vec())),
            }
        });
        if let Some(heaps) = bad {
            return Err(broken(
                game,
                format!(
                    "it declares an octal game taking at most {t} stones, but heap {n} has the option {heaps:?}"
                ),
            ));
        }
    }
    let code = OctalCode::from_digits(&digits)
        .map_err(|reason| broken(game, format!("its moves are no octal code: {reason}")))?;
    let builtin = Game::Octal(code);
    // Every heap of the first ones has exactly the options of the code. An option is kept as
    // its number of heaps and its heaps in order, without an allocation: an octal option has at
    // most two heaps, and one of more is an extra option at once.
    let (mut n, mut checked) = (0u64, 0u64);
    let (mut have, mut want) = (Vec::new(), Vec::new());
    while checked < CHECK_OPTIONS && n < 1 << 16 {
        let mut longer = None;
        have.clear();
        want.clear();
        game.options(n, &mut |heaps| match option_key(heaps) {
            Some(key) => have.push(key),
            None => {
                let mut heaps = heaps.to_vec();
                heaps.sort_unstable();
                longer = longer.take().or(Some(heaps));
            }
        });
        builtin.options(n, &mut |heaps| want.extend(option_key(heaps)));
        for list in [&mut have, &mut want] {
            list.sort_unstable();
            list.dedup();
        }
        if longer.is_some() || have != want {
            let extra = longer.or_else(|| have.iter().find(|o| !want.contains(o)).map(option_heaps));
            let missing = want.iter().find(|o| !have.contains(o)).map(option_heaps);
            return Err(broken(
                game,
                format!(
                    "it declares an octal game, but its options at heap {n} differ from those of the code {} \
                     read from heaps 0..={} (extra {extra:?}, missing {missing:?})",
                    builtin.spec().trim_start_matches("octal:"),
                    t + 2
                ),
            ));
        }
        checked += have.len() as u64 + 1;
        n += 1;
    }
    Ok(builtin)
}

/// An option of at most two heaps as its number of heaps and its heaps in increasing order
/// (unused places 0); `None` for an option of more heaps.
fn option_key(heaps: &[u64]) -> Option<(u8, u64, u64)> {
    match *heaps {
        [] => Some((0, 0, 0)),
        [a] => Some((1, a, 0)),
        [a, b] => Some((2, a.min(b), a.max(b))),
        _ => None,
    }
}

/// The heaps of an [`option_key`], in increasing order.
fn option_heaps(&(len, a, b): &(u8, u64, u64)) -> Vec<u64> {
    [a, b][..usize::from(len)].to_vec()
}
