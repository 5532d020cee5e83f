//! Direct values of subtraction-type games — every heap has the moves "take `m` stones" for
//! the same set of `m` — when the moves are many and scattered: subtract-a-square, subtraction
//! sets that are not a few runs, and games of the user's that declare such moves.
//!
//! Heaps are computed in blocks of `B` consecutive heaps `s .. s + B`. A move `m >= B` leads
//! from every heap of the block to a heap before `s`, whose value is known: the values these
//! *long* moves reach are gathered for the whole block at once, as bit masks, by the SIMD
//! kernel of [`crate::simd::reach`] (contiguous loads of the values, one-hot masks OR-ed in
//! registers), on every core when the block is worth it. Then the heaps of the block are
//! finished in order: the *short* moves `m < B` (which may land inside the block) add their
//! values one by one, and the mex is the first clear bit. Almost every long move is also long
//! for the *next* block (it reads only values before the current one): those are gathered for
//! the next block while the current block's heaps are resolved, so that on two cores the
//! sequential part overlaps the gathers instead of leaving a core idle (two threads take 0.55
//! of the time of one for squares to 10^7, at the same CPU time). A mask holds the values below
//! `64 · words`, with `words` sized from the largest value so far; a heap whose mask is full
//! has a larger mex and is recomputed with a growable set (rare: values grow slowly).
//!
//! Subtract-a-square up to `n` has about `√n` moves per heap, `(2/3) n^1.5` in all; the
//! short moves of a block of 4096 are 63 of them; a block is made shorter when the moves are
//! dense near 0 (the primes: 512 heaps, 97 short moves).

use super::mex::{MexSet, mex};
use super::store::Value;
use crate::fwht::Backend;
use crate::game::{HeapGame, MoveSet};
use crate::simd::reach::{self, MAX_WORDS};

/// Heaps per block, at most and at least: a block is as long as the moves allow with about
/// [`SHORT_MOVES`] of them resolved one by one (1024 for squares, 512 for primes). Each short
/// move costs a scalar step per heap where a long one costs a share of a vector operation: with
/// 32 short moves rather than 64 (blocks of 4096 squares), subtract-a-square to 3·10^6 on one
/// thread took 0.93 of the CPU time (AVX-512 and AVX2 alike, paired runs, Zen 4); 16 was no
/// faster.
const BLOCK: usize = 4096;
const MIN_BLOCK: usize = 512;
const SHORT_MOVES: usize = 32;
/// Heaps per parallel piece of a block's gather, at least (a multiple of every kernel's group).
const PIECE: usize = 128;
/// A block's gather runs on several threads from this many (heap, move) pairs on.
const PARALLEL_PAIRS: usize = 1 << 19;

/// Where the moves come from.
pub(crate) enum Moves<'g> {
    /// `1, 4, 9, …`: generated as heaps grow.
    Squares,
    /// A finite set, all known.
    Set,
    /// A game of the user's that declares the same moves from every heap, without a largest
    /// one: the moves up to `n` are read from the options of heap `n`.
    Options(&'g dyn HeapGame),
}

/// The block engine's state.
pub struct Block<'g> {
    source: Moves<'g>,
    /// The moves known so far, increasing.
    moves: Vec<usize>,
    /// Every move up to this size is in `moves`.
    known_upto: usize,
    backend: Backend,
    /// Whether the gathers of a block may run on rayon's pool.
    parallel: bool,
    /// The largest value so far.
    max: u32,
    /// The current block's masks, and the next block's while it is gathered ahead.
    masks: Vec<u64>,
    next: Vec<u64>,
    ahead: Option<Ahead>,
    fallback: MexSet,
    /// (heap, move) pairs gathered by the kernel, times the words of their masks, and pairs
    /// resolved one by one, so far.
    pub gathered: u64,
    pub resolved: u64,
}

impl<'g> Block<'g> {
    fn with(source: Moves<'g>, moves: Vec<usize>, known_upto: usize) -> Block<'g> {
        Block {
            source,
            moves,
            known_upto,
            backend: Backend::best(),
            parallel: true,
            max: 0,
            masks: Vec::new(),
            next: Vec::new(),
            ahead: None,
            fallback: MexSet::new(),
            gathered: 0,
            resolved: 0,
        }
    }

    /// Subtract-a-square.
    pub fn squares() -> Block<'static> {
        Block::with(Moves::Squares, Vec::new(), 0)
    }

    /// The subtraction game with these moves.
    pub fn subtraction(moves: &MoveSet) -> Block<'static> {
        let list = moves.iter().map(|m| m as usize).collect();
        Block::with(Moves::Set, list, usize::MAX)
    }

    /// A game whose options from heap `n` are the heaps `n − m` for the moves `m <= n` of a
    /// fixed, possibly infinite set.
    pub fn options(game: &'g dyn HeapGame) -> Block<'g> {
        Block::with(Moves::Options(game), Vec::new(), 0)
    }

    /// `false`: every gather on the calling thread (no rayon call).
    pub fn parallel(mut self, parallel: bool) -> Self {
        self.parallel = parallel;
        self
    }

    /// Runs the gathers on `backend` (every backend gives the same values; one this CPU lacks
    /// runs the portable loop).
    pub fn with_backend(mut self, backend: Backend) -> Self {
        self.backend = backend;
        self
    }

    /// Makes sure every move up to `n` is known.
    fn learn_moves(&mut self, n: usize) {
        if n <= self.known_upto {
            return;
        }
        match self.source {
            Moves::Set => {}
            Moves::Squares => {
                let mut k = self.moves.len() + 1;
                while k * k <= n {
                    self.moves.push(k * k);
                    k += 1;
                }
            }
            Moves::Options(game) => {
                // Heap n reaches n − m for every move m <= n (nothing left when m = n).
                let mut moves = Vec::new();
                game.options(n as u64, &mut |heaps| match heaps {
                    [] => moves.push(n),
                    [h] if (*h as usize) < n => moves.push(n - *h as usize),
                    _ => {} // checked when the game was resolved
                });
                moves.sort_unstable();
                moves.dedup();
                self.moves = moves;
            }
        }
        self.known_upto = n;
    }

    /// Computes `values[values.len()..upto]`. Returns `Some(g)` when the next value `g` does
    /// not fit in `T`: the caller stores it wider and continues.
    pub fn extend<T: Value>(&mut self, values: &mut Vec<T>, upto: usize) -> Option<u32> {
        values.reserve(upto.saturating_sub(values.len()));
        while values.len() < upto {
            if let Some(g) = self.block(values, upto) {
                return Some(g);
            }
        }
        None
    }

    /// The length of the block from `s` (at most `upto − s`) and of its parallel pieces;
    /// learns the moves the block needs.
    fn shape(&mut self, s: usize, upto: usize) -> (usize, usize) {
        self.learn_moves(s + BLOCK.min(upto - s) - 1);
        let fitting = self.moves.get(SHORT_MOVES).map_or(BLOCK, |&m| m.next_power_of_two() / 2);
        let len = fitting.clamp(MIN_BLOCK, BLOCK).min(upto - s);
        // Eight pieces a block, in multiples of the widest kernel group.
        let piece = (len / 8 / PIECE * PIECE).max(PIECE);
        (len, piece)
    }

    /// Mask words for the next heaps: values below `64 · words` fit; the mex of a heap is at
    /// most one more than the largest value before it, and a block rarely raises the largest
    /// by much.
    fn words(&self) -> usize {
        (self.max as usize + 2).div_ceil(64).clamp(1, MAX_WORDS)
    }

    /// One block from `s = values.len()`.
    ///
    /// Its long moves (`len <= m <= s`) read only values before `s`. Those at least
    /// `len + len'` long (`len'` the next block's length) read only values before `s` from
    /// every heap of the *next* block too: they are gathered for the next block while this
    /// one's heaps are resolved, on the other core. Almost every long move is such a far move
    /// (all but 27 of the 3099 long moves of squares near 10^7); the near ones are gathered
    /// when the block starts. Masks gathered ahead are used only when the next block has the
    /// shape and the mask width they were gathered for (a block that widens the masks has the
    /// next one gathered again).
    fn block<T: Value>(&mut self, values: &mut Vec<T>, upto: usize) -> Option<u32> {
        let s = values.len();
        let (len, piece) = self.shape(s, upto);
        let next = s + len;
        let (len2, piece2) = if next < upto { self.shape(next, upto) } else { (0, PIECE) };
        let words = self.words();
        let long_from = self.moves.partition_point(|&m| m < len);
        let long_to = self.moves.partition_point(|&m| m <= s).max(long_from);
        let near_to = match self.ahead.take() {
            Some(a) if a.start == s && a.len == len && a.words == words => {
                std::mem::swap(&mut self.masks, &mut self.next);
                self.moves.partition_point(|&m| m < a.far).clamp(long_from, long_to)
            }
            _ => {
                self.masks.clear();
                self.masks.resize(words * len, 0);
                long_to
            }
        };
        let near = &self.moves[long_from..near_to];
        let parallel = self.parallel && len * near.len() >= PARALLEL_PAIRS;
        self.gathered += gather(self.backend, &values[..s], s, piece, words, near, parallel, &mut self.masks);

        // The next block's far moves: len + len2 <= m <= next.
        let far = len + len2;
        let far_from = if len2 == 0 { self.moves.len() } else { self.moves.partition_point(|&m| m < far) };
        let far_to = self.moves.partition_point(|&m| m <= next).max(far_from);
        let overlap = self.parallel && len2 * (far_to - far_from) >= PARALLEL_PAIRS;

        values.resize(s + len, T::default());
        let (done, block) = values.split_at_mut(s);
        let Block { moves, masks, next: next_masks, fallback, max, backend, .. } = self;
        let heaps = Heaps { done, block, masks, piece, words };
        let far_moves = &moves[far_from..far_to];
        let moves = (&moves[..long_from], &moves[long_to..], &moves[..]);
        let ((resolved, result), gathered) = crate::parallel::join(
            overlap,
            || heaps.resolve(moves, max, fallback),
            || {
                next_masks.clear();
                next_masks.resize(words * len2, 0);
                gather(*backend, done, next, piece2, words, far_moves, overlap, next_masks)
            },
        );
        self.resolved += resolved;
        self.gathered += gathered;
        if len2 > 0 {
            self.ahead = Some(Ahead { start: next, len: len2, words, far });
        }
        match result {
            Ok(()) => None,
            Err((i, g)) => {
                values.truncate(s + i);
                Some(g)
            }
        }
    }
}

/// Masks gathered ahead for the block of `len` heaps from `start`, `words` wide: the values
/// its moves of at least `far` stones reach.
struct Ahead {
    start: usize,
    len: usize,
    words: usize,
    far: usize,
}

/// ORs into `masks` (the block's heaps from `s`, in pieces of `piece` heaps, word by word within
/// a piece) the values that `moves` reach; every move reads values before `done.len()`.
/// Returns the (heap, move) pairs gathered times the words of their masks.
#[allow(clippy::too_many_arguments)]
fn gather<T: Value>(
    backend: Backend,
    done: &[T],
    s: usize,
    piece: usize,
    words: usize,
    moves: &[usize],
    parallel: bool,
    masks: &mut [u64],
) -> u64 {
    if moves.is_empty() {
        return 0;
    }
    crate::parallel::indexed_chunks(masks, parallel, words * piece, |p, masks| {
        reach::mark(backend.isa(), done, s + p * piece, moves, words, masks);
    });
    (masks.len() * moves.len()) as u64
}

/// A block being resolved: the values before it, its own values as they are found, and the
/// masks of what its long moves reach (pieces of `piece` heaps, `words` words each).
struct Heaps<'a, T> {
    done: &'a [T],
    block: &'a mut [T],
    masks: &'a [u64],
    piece: usize,
    words: usize,
}

impl<T: Value> Heaps<'_, T> {
    /// The value of heap `n`, before the block or in it.
    #[inline]
    fn get(&self, n: usize) -> T {
        match n.checked_sub(self.done.len()) {
            Some(i) => self.block[i],
            None => self.done[n],
        }
    }

    /// Finishes the block's heaps in order: the `short` moves (shorter than the block, which
    /// may land inside it) and, in the first blocks, the moves `beyond` the heaps before the
    /// block, one by one; the mex is the first clear bit. `all` is every move known (for a
    /// heap whose mask is full). Returns the pairs resolved and, when the value `g` of the
    /// block's heap `i` does not fit in `T`, `Err((i, g))`; `max` takes the largest value.
    fn resolve(
        self,
        (short, beyond, all): (&[usize], &[usize], &[usize]),
        max: &mut u32,
        fallback: &mut MexSet,
    ) -> (u64, Result<(), (usize, u32)>) {
        let (s, len, words) = (self.done.len(), self.block.len(), self.words);
        let limit = 64 * words;
        let mut resolved = 0;
        // Short moves up to `inside` land in the block, those up to `reachable` before it.
        let (mut inside, mut reachable, mut beyond_to) = (0, 0, 0);
        for i in 0..len {
            let n = s + i;
            let (p, at) = (i / self.piece, i % self.piece);
            let piece_len = self.piece.min(len - p * self.piece);
            let base = p * self.piece * words;
            let mut w = [0u64; MAX_WORDS];
            for (j, word) in w[..words].iter_mut().enumerate() {
                *word = self.masks[base + j * piece_len + at];
            }
            while inside < short.len() && short[inside] <= i {
                inside += 1;
            }
            while reachable < short.len() && short[reachable] <= n {
                reachable += 1;
            }
            while beyond_to < beyond.len() && beyond[beyond_to] <= n {
                beyond_to += 1;
            }
            for &m in &short[..inside] {
                set(&mut w, self.block[i - m].index(), limit);
            }
            for &m in &short[inside..reachable] {
                set(&mut w, self.done[n - m].index(), limit);
            }
            for &m in &beyond[..beyond_to] {
                set(&mut w, self.get(n - m).index(), limit);
            }
            resolved += (reachable + beyond_to) as u64;
            let g = match mex(&w[..words]) {
                g if (g as usize) < limit => g,
                _ => self.full_mex(n, all, fallback),
            };
            *max = (*max).max(g);
            match T::narrow(g) {
                Some(x) => self.block[i] = x,
                None => return (resolved, Err((i, g))),
            }
        }
        (resolved, Ok(()))
    }

    /// The mex of heap `n` over every move, with a set that grows as needed.
    #[cold]
    fn full_mex(&self, n: usize, all: &[usize], fallback: &mut MexSet) -> u32 {
        for &m in all.iter().take_while(|&&m| m <= n) {
            fallback.insert(self.get(n - m).into());
        }
        let g = fallback.mex();
        fallback.clear();
        g
    }
}

/// Marks value `v` in a mask of values below `limit`.
#[inline(always)]
fn set(w: &mut [u64; MAX_WORDS], v: usize, limit: usize) {
    if v < limit {
        w[v / 64] |= 1 << (v % 64);
    }
}
