//! Win or loss of a position by exhaustive game-tree search: positions are multisets of heaps
//! (given in any order; empty heaps are ignored), a position is won when some move leads to a
//! lost one; in misère play a position with no move at all is won (the opponent took the
//! last). Never uses Grundy values: the independent reference of the tests that check them.

use std::collections::{BTreeSet, HashMap};
use std::rc::Rc;

use nimcount::game::HeapGame;

/// Win/loss by exhaustive search with memoisation.
pub struct GameTree<'a> {
    game: &'a dyn HeapGame,
    misere: bool,
    /// Heap size → its distinct options, each the sorted non-empty heaps the move leaves.
    options: HashMap<u64, Rc<[Vec<u64>]>>,
    /// Sorted heap sizes (no empty heaps) → won for the player to move.
    won: HashMap<Vec<u64>, bool>,
}

impl<'a> GameTree<'a> {
    /// Normal play: the player who cannot move loses.
    pub fn new(game: &'a dyn HeapGame) -> Self {
        GameTree { game, misere: false, options: HashMap::new(), won: HashMap::new() }
    }

    /// Misère play: the player who cannot move wins.
    pub fn misere(game: &'a dyn HeapGame) -> Self {
        GameTree { misere: true, ..GameTree::new(game) }
    }

    /// The distinct options of one heap of `n`, each the sorted non-empty heaps it leaves.
    pub fn options(&mut self, n: u64) -> Rc<[Vec<u64>]> {
        let game = self.game;
        self.options
            .entry(n)
            .or_insert_with(|| {
                let mut all = BTreeSet::new();
                game.options(n, &mut |left| {
                    let mut heaps: Vec<u64> = left.iter().copied().filter(|&h| h > 0).collect();
                    heaps.sort_unstable();
                    all.insert(heaps);
                });
                all.into_iter().collect()
            })
            .clone()
    }

    pub fn is_won(&mut self, position: &[u64]) -> bool {
        let mut key: Vec<u64> = position.iter().copied().filter(|&h| h > 0).collect();
        key.sort_unstable();
        if let Some(&won) = self.won.get(&key) {
            return won;
        }
        let mut heaps = key.clone();
        heaps.dedup();
        let mut won = false;
        let mut can_move = false;
        'moves: for heap in heaps {
            for left in self.options(heap).iter() {
                can_move = true;
                let mut next = key.clone();
                let i = next.iter().position(|&h| h == heap).unwrap();
                next.remove(i);
                next.extend(left);
                if !self.is_won(&next) {
                    won = true;
                    break 'moves;
                }
            }
        }
        let won = won || (self.misere && !can_move);
        self.won.insert(key, won);
        won
    }
}
