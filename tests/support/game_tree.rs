//! Win or loss of a position by exhaustive game-tree search: positions are multisets of heaps
//! (sorted, no empty heaps), a position is won when some move leads to a lost one. Never uses
//! Grundy values: the independent reference of the tests that check them.

use std::collections::HashMap;

use nimcount::game::HeapGame;

/// Win/loss by exhaustive search with memoisation.
pub struct GameTree<'a> {
    game: &'a dyn HeapGame,
    /// Sorted heap sizes (no empty heaps) → won for the player to move.
    won: HashMap<Vec<u64>, bool>,
}

impl<'a> GameTree<'a> {
    pub fn new(game: &'a dyn HeapGame) -> Self {
        GameTree { game, won: HashMap::new() }
    }

    pub fn is_won(&mut self, position: &[u64]) -> bool {
        if let Some(&won) = self.won.get(position) {
            return won;
        }
        let mut heaps = position.to_vec();
        heaps.dedup();
        let mut won = false;
        'moves: for heap in heaps {
            let mut options: Vec<Vec<u64>> = Vec::new();
            self.game.options(heap, &mut |left| options.push(left.to_vec()));
            for left in options {
                let mut next = position.to_vec();
                let i = next.iter().position(|&h| h == heap).unwrap();
                next.remove(i);
                next.extend(left.into_iter().filter(|&h| h > 0));
                next.sort_unstable();
                if !self.is_won(&next) {
                    won = true;
                    break 'moves;
                }
            }
        }
        self.won.insert(position.to_vec(), won);
        won
    }
}
