//! Which method computes a game's values, run incrementally over a compact [`Store`], with an
//! estimate of what the work done so far costs.

use super::block::Block;
use super::cost::{self, Pulse};
use super::hex::HexValues;
use super::mex::MexSet;
use super::octal::SparseSpace;
use super::resolve::Resolved;
use super::sliding::{FractionWindow, Sliding};
use super::store::{Store, Value, with_values};
use crate::error::{Error, Result};
use crate::game::{Game, HeapGame};

/// How values are computed, incrementally.
pub enum Engine<'g> {
    Nim,
    Interval { first: u64, last: u64 },
    Lasker,
    FractionHalf,
    Sliding { sliding: Sliding, heaps: u64 },
    Fraction(FractionWindow),
    Sparse(SparseSpace),
    Hex(HexValues),
    Block(Block<'g>),
    Plain(Plain<'g>),
}

impl<'g> Engine<'g> {
    /// The fastest engine; `closed_forms: false` computes every value of a subtraction game by
    /// a mex.
    pub fn new(game: &Resolved<'g>, closed_forms: bool) -> Engine<'g> {
        match game {
            Resolved::Game(game) => match game {
                Game::Nim => Engine::Nim,
                Game::Subtract(moves) if closed_forms && moves.runs().len() == 1 => {
                    Engine::Interval { first: moves.smallest(), last: moves.largest() }
                }
                // Scattered moves (few of them in runs) go by blocks, runs by the sliding window.
                Game::Subtract(moves)
                    if moves.len() <= cost::BLOCK_MOVES_PER_RUN * moves.runs().len() as u64 =>
                {
                    Engine::Block(Block::subtraction(moves))
                }
                Game::Subtract(moves) => Engine::Sliding { sliding: Sliding::subtraction(moves), heaps: 0 },
                Game::AllBut(excluded) => Engine::Sliding { sliding: Sliding::all_but(excluded), heaps: 0 },
                Game::Octal(code) => Engine::Sparse(SparseSpace::new(code)),
                Game::Squares => Engine::Block(Block::squares()),
                Game::Hex(code) => Engine::Hex(HexValues::new(code)),
                Game::GrundyGame => Engine::Sparse(SparseSpace::grundy_game()),
                // The closed form is proven once (its tests compare it with a plain mex); a
                // mex over every option and split would be quadratic.
                Game::Lasker => Engine::Lasker,
                Game::Fraction { numerator: 1, denominator: 2 } if closed_forms => Engine::FractionHalf,
                Game::Fraction { numerator, denominator } => {
                    Engine::Fraction(FractionWindow::new(*numerator, *denominator))
                }
                Game::Custom(_) => unreachable!("resolved into a built-in game or a user game"),
            },
            Resolved::Subtraction(game) => Engine::Block(Block::options(*game)),
            Resolved::General(game) => Engine::Plain(Plain::new(*game)),
        }
    }

    /// `false`: every step on the calling thread (no rayon call).
    pub fn parallel(self, parallel: bool) -> Engine<'g> {
        match self {
            Engine::Block(block) => Engine::Block(block.parallel(parallel)),
            other => other,
        }
    }

    /// The SIMD backend of the engines that use one (blocks of moves gathered into masks);
    /// [`Backend::best`](crate::fwht::Backend::best) unless told.
    pub fn backend(self, backend: crate::fwht::Backend) -> Engine<'g> {
        match self {
            Engine::Block(block) => Engine::Block(block.with_backend(backend)),
            other => other,
        }
    }

    /// A store suited to the values: 32 bits for games whose values grow with the heap.
    pub fn store(&self) -> Store {
        match self {
            Engine::Nim
            | Engine::Sliding { .. }
            | Engine::Lasker
            | Engine::FractionHalf
            | Engine::Fraction(_) => Store::wide(),
            _ => Store::new(),
        }
    }

    /// Computes values until `store` holds `G(0..upto)`.
    pub fn extend(&mut self, store: &mut Store, upto: usize) -> Result<()> {
        self.extend_pulsed(store, upto, &mut || false)
    }

    /// [`extend`](Self::extend), calling `pulse` often while values cost much (see [`Pulse`]):
    /// when it answers `true` the values stop early, `store` holding fewer than `upto`.
    pub fn extend_pulsed(&mut self, store: &mut Store, upto: usize, pulse: Pulse<'_>) -> Result<()> {
        while store.len() < upto {
            let overflow = with_values!(store, values => self.extend_values(values, upto, pulse)?);
            match overflow {
                Some(g) => store.push(g),
                None => break,
            }
        }
        Ok(())
    }

    fn extend_values<T: Value>(
        &mut self,
        values: &mut Vec<T>,
        upto: usize,
        pulse: Pulse<'_>,
    ) -> Result<Option<u32>> {
        Ok(match self {
            Engine::Nim => push_while(values, upto, |n| n as u32),
            Engine::Interval { first, last } => {
                let (a, p) = (*first, *first + *last);
                push_while(values, upto, |n| ((n as u64 % p) / a) as u32)
            }
            Engine::Lasker => push_while(values, upto, |n| lasker(n as u64) as u32),
            Engine::FractionHalf => push_while(values, upto, |n| fraction_half(n as u64) as u32),
            Engine::Fraction(window) => window.extend(values, upto),
            Engine::Hex(hex) => hex.extend(values, upto, pulse)?,
            Engine::Sliding { sliding, heaps } => {
                let from = values.len();
                let overflow = sliding.extend(values, upto);
                *heaps += (values.len() - from) as u64 + u64::from(overflow.is_some());
                overflow
            }
            Engine::Sparse(sparse) => sparse.extend(values, upto, pulse),
            Engine::Block(block) => block.extend(values, upto),
            Engine::Plain(plain) => plain.extend(values, upto)?,
        })
    }

    /// The estimated time of the work done so far, in nanoseconds on the reference machine
    /// (see [`cost`]).
    pub fn work(&self, heaps: u64) -> f64 {
        match self {
            Engine::Nim | Engine::Interval { .. } | Engine::Lasker | Engine::FractionHalf => {
                cost::CLOSED_FORM_NS * heaps as f64
            }
            Engine::Fraction(_) => cost::sliding(heaps, 1),
            Engine::Hex(hex) => cost::hex(heaps, hex.work),
            Engine::Sliding { sliding, heaps } => cost::sliding(*heaps, sliding.runs()),
            Engine::Sparse(sparse) => cost::sparse(heaps, sparse.pairs, sparse.scanned, sparse.words),
            Engine::Block(block) => cost::block(heaps, block.gathered, block.resolved),
            Engine::Plain(plain) => cost::plain(heaps, plain.options),
        }
    }
}

/// Lasker's Nim: `G(0) = 0`; `G(4k+1) = 4k+1`, `G(4k+2) = 4k+2`, `G(4k+3) = 4k+4`,
/// `G(4k+4) = 4k+3` (the first two residues keep `n`, the last two swap).
pub(crate) fn lasker(n: u64) -> u64 {
    match n % 4 {
        3 => n + 1,
        0 if n > 0 => n - 1,
        _ => n,
    }
}

/// Take at most half: `G(2m) = m`, `G(2m + 1) = G(m)`. With `t` trailing one bits,
/// `n = 2^(t+1)·y + 2^t − 1` and `G(n) = y = n >> (t + 1)`.
pub(crate) fn fraction_half(n: u64) -> u64 {
    n.checked_shr(n.trailing_ones() + 1).unwrap_or(0)
}

/// Pushes `value(n)` for `n = values.len() .. upto` while it fits in `T`.
fn push_while<T: Value>(values: &mut Vec<T>, upto: usize, value: impl Fn(usize) -> u32) -> Option<u32> {
    values.reserve(upto.saturating_sub(values.len()));
    while values.len() < upto {
        let g = value(values.len());
        match T::narrow(g) {
            Some(x) => values.push(x),
            None => return Some(g),
        }
    }
    None
}

/// A plain mex over the options of a game that declares nothing.
pub(crate) struct Plain<'g> {
    game: &'g dyn HeapGame,
    seen: MexSet,
    /// Options enumerated so far.
    pub options: u64,
}

impl<'g> Plain<'g> {
    pub fn new(game: &'g dyn HeapGame) -> Plain<'g> {
        Plain { game, seen: MexSet::new(), options: 0 }
    }

    /// Computes `values[values.len()..upto]`; fails when a move does not shrink the heap.
    fn extend<T: Value>(&mut self, values: &mut Vec<T>, upto: usize) -> Result<Option<u32>> {
        while values.len() < upto {
            let n = values.len() as u64;
            let mut bad = None;
            let mut options = 0;
            let seen = &mut self.seen;
            self.game.options(n, &mut |heaps| {
                let mut x = 0;
                for &h in heaps {
                    match values.get(h as usize) {
                        Some(&g) if h < n => x ^= g.into(),
                        _ => {
                            bad = Some(h);
                            return;
                        }
                    }
                }
                seen.insert(x);
                options += 1;
            });
            self.options += options;
            if let Some(h) = bad {
                self.seen.clear();
                return Err(not_smaller(self.game, n, h));
            }
            let g = self.seen.mex();
            self.seen.clear();
            match T::narrow(g) {
                Some(x) => values.push(x),
                None => return Ok(Some(g)),
            }
        }
        Ok(None)
    }
}

/// A move from heap `n` that leaves a heap of `h >= n`.
pub(crate) fn not_smaller(game: &dyn HeapGame, n: u64, h: u64) -> Error {
    Error::InvalidGame {
        spec: game.name(),
        reason: format!("a move from a heap of {n} leaves a heap of {h}, which is not smaller"),
    }
}
