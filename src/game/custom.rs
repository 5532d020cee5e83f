//! A game of the user's, held where a [`Game`](super::Game) is expected.

use std::fmt;
use std::hash::{Hash, Hasher};
use std::sync::Arc;

use super::HeapGame;

/// A shared [`HeapGame`] of the user's: the payload of [`Game::Custom`](super::Game::Custom).
///
/// Two `CustomGame`s are equal when they share the same game (the same allocation), not when
/// their games happen to have the same moves.
#[derive(Clone)]
pub struct CustomGame(Arc<dyn HeapGame>);

impl CustomGame {
    /// Wraps `game`.
    pub fn new(game: impl HeapGame + 'static) -> CustomGame {
        CustomGame(Arc::new(game))
    }

    /// The game.
    pub fn game(&self) -> &dyn HeapGame {
        &*self.0
    }
}

impl PartialEq for CustomGame {
    fn eq(&self, other: &Self) -> bool {
        std::ptr::addr_eq(Arc::as_ptr(&self.0), Arc::as_ptr(&other.0))
    }
}

impl Eq for CustomGame {}

impl Hash for CustomGame {
    fn hash<H: Hasher>(&self, state: &mut H) {
        (Arc::as_ptr(&self.0) as *const () as usize).hash(state);
    }
}

impl fmt::Debug for CustomGame {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_tuple("CustomGame").field(&self.0.name()).finish()
    }
}
