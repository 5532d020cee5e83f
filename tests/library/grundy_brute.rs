//! A direct game-tree search — positions are multisets of heaps, a position is won when some
//! move leads to a lost one — agrees with the Sprague–Grundy prediction (the XOR of the
//! heaps' values is non-zero exactly for won positions), for every kind of game. The search
//! never uses Grundy values.

use nimcount::game::{Game, HeapGame};
use nimcount::grundy::{values, values_of};
use nimcount::progress::Silent;

use crate::support::game_tree::GameTree;
use crate::support::games::TakeOrThirds;

/// Single heaps up to `single`, pairs up to `pair`, triples up to `triple`.
fn check(game: &dyn HeapGame, grundy: &[u32], single: u64, pair: u64, triple: u64) {
    let mut tree = GameTree::new(game);
    let mut lost = 0;
    let mut positions: Vec<Vec<u64>> = (1..=single).map(|n| vec![n]).collect();
    for a in 1..=pair {
        positions.extend((a..=pair).map(|b| vec![a, b]));
    }
    for a in 1..=triple {
        for b in a..=triple {
            positions.extend((b..=triple).map(|c| vec![a, b, c]));
        }
    }
    for position in positions {
        let xor = position.iter().fold(0, |x, &h| x ^ grundy[h as usize]);
        let won = tree.is_won(&position);
        assert_eq!(won, xor != 0, "{}: position {position:?}", game.name());
        lost += usize::from(!won);
    }
    // The empty position is lost; a check that found no other lost position proves little.
    assert!(!tree.is_won(&[]));
    assert!(lost > 0, "{}: no lost position among those checked", game.name());
}

#[test]
fn built_in_games_agree_with_the_game_tree() {
    for spec in [
        "nim",
        "subtract:1,3,4",
        "subtract:2-4,7",
        "subtract:3,7,12,14",
        "allbut:1,2",
        "allbut:2,3",
        "allbut:1,3-4",
        "octal:0.33",
        "octal:0.51",
        "octal:0.07",
        "octal:0.137",
        "octal:0.77",
        "octal:0.6",
        "octal:0.16",
        "octal:4.07",
        "octal:4.0",
        "squares",
    ] {
        let game = Game::parse(spec).unwrap();
        let grundy = values(&game, 21, &Silent).unwrap();
        check(&game, &grundy, 20, 11, 6);
    }
}

#[test]
fn a_user_game_agrees_with_the_game_tree() {
    let grundy = values_of(&TakeOrThirds, 25, &Silent).unwrap();
    // Not simply n mod 3: the three-heap splits matter.
    assert_ne!(grundy, (0..25).map(|n| n % 3).collect::<Vec<u32>>());
    check(&TakeOrThirds, &grundy, 24, 12, 7);
}

/// A game that breaks the rules (a move that does not shrink the heap) is refused.
struct Broken;

impl HeapGame for Broken {
    fn options(&self, n: u64, option: &mut dyn FnMut(&[u64])) {
        if n == 3 {
            option(&[3]);
        }
    }

    fn name(&self) -> String {
        "broken".into()
    }
}

#[test]
fn a_game_that_does_not_shrink_is_refused() {
    let err = values_of(&Broken, 10, &Silent).unwrap_err().to_string();
    assert_eq!(
        err,
        "invalid game 'broken': a move from a heap of 3 leaves a heap of 3, which is not smaller"
    );
    assert_eq!(values_of(&Broken, 3, &Silent).unwrap(), [0, 0, 0]);
}

/// The fast methods agree with the plain mex over the game's own options, on longer runs.
#[test]
fn fast_values_equal_the_plain_mex() {
    for spec in [
        "nim",
        "subtract:1,3,4",
        "subtract:1-40",
        "subtract:5-9",
        "subtract:1-3,7,10-12",
        "subtract:100",
        "allbut:1,2",
        "allbut:5",
        "allbut:1-3,9,20-22",
        "octal:0.16",
        "octal:0.33",
        "squares",
    ] {
        let game = Game::parse(spec).unwrap();
        assert_eq!(values(&game, 3000, &Silent).unwrap(), values_of(&game, 3000, &Silent).unwrap(), "{spec}");
    }
}
