//! Games that are the same game: heap by heap the same game trees, up to a shift of heap sizes.
//!
//! A heap with no move is the game 0 (a position with it is the position without it, in normal
//! and in misère play). Codes whose digits differ only in moves that are never usable, or that
//! turn into moves to such dead heaps, give the same game; a code that cannot take from the
//! smallest heaps is another code with every heap shifted (Winning Ways' "first cousins":
//! `0.41`'s heap `n + 1` is `0.17`'s heap `n`). Each heap's game is interned as the set of its
//! options, an option being the sorted list of the interned games of the heaps it leaves, dead
//! ones left out; two games are the same when their sequences agree from their first heap with
//! a move on, for [`COMPARED_HEAPS`] heaps.

use std::collections::HashMap;

use crate::game::{Game, HeapGame};

/// Heaps compared, from each game's first heap with a move. This is a comparison, not a
/// proof for every heap: the options of a heap of a code of `d` digits follow one rule from heap
/// `d + 2` on, so codes that agree this far almost always share their rule, but two that agreed
/// on 96 heaps and differed later would be reported as one game. The tests compare the groups
/// of the three-digit octal codes with the published table of equivalent codes.
pub const COMPARED_HEAPS: usize = 96;

/// The interned games of heaps, shared by all games compared.
#[derive(Default)]
pub struct Interner {
    ids: HashMap<Vec<Vec<u32>>, u32>,
}

/// A game's heaps as interned games: `shift` dead heaps after heap 0, then the key.
pub struct Shape {
    /// Heaps `1..=shift` have no move.
    pub shift: u64,
    /// The interned games of heaps `shift + 1`, `shift + 2`, …
    pub key: Vec<u32>,
}

impl Interner {
    /// The shape of `game`'s first heaps.
    pub fn shape(&mut self, game: &Game) -> Shape {
        let heaps = 2 * COMPARED_HEAPS;
        let mut ids: Vec<u32> = Vec::with_capacity(heaps);
        for n in 0..heaps as u64 {
            let mut options: Vec<Vec<u32>> = Vec::new();
            game.options(n, &mut |left| {
                let mut option: Vec<u32> =
                    left.iter().map(|&h| ids[h as usize]).filter(|&id| id != 0).collect();
                option.sort_unstable();
                options.push(option);
            });
            options.sort_unstable();
            options.dedup();
            let next = self.ids.len() as u32 + 1;
            let id = if options.is_empty() { 0 } else { *self.ids.entry(options).or_insert(next) };
            ids.push(id);
        }
        let first = ids.iter().skip(1).position(|&id| id != 0).map_or(heaps, |i| i + 1);
        let shift = first as u64 - 1;
        let key = ids[first.min(heaps)..].iter().copied().take(COMPARED_HEAPS).collect();
        Shape { shift, key }
    }
}
