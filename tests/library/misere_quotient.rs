//! Misère quotients against a plain memoised misère search.

use nimcount::game::Game;
use nimcount::misere::{Budget, quotient};
use nimcount::num_bigint::BigUint;
use nimcount::play::MisereSearch;

/// Every position of up to `heaps` heaps of at most `largest` stones: the quotient's outcome
/// against a plain memoised search (the player who cannot move wins).
fn agrees_with_search(spec: &str, heaps: usize, largest: u64) {
    let game = Game::parse(spec).unwrap();
    let q = quotient(&game, &Budget::default()).unwrap();
    let mut search = MisereSearch::new(vec![&game], 10_000_000);
    let mut position: Vec<u64> = Vec::new();
    fn each(position: &mut Vec<u64>, heaps: usize, from: u64, largest: u64, f: &mut dyn FnMut(&[u64])) {
        f(position);
        if position.len() == heaps {
            return;
        }
        for h in from..=largest {
            position.push(h);
            each(position, heaps, h, largest, f);
            position.pop();
        }
    }
    let mut checked = 0;
    each(&mut position, heaps, 0, largest, &mut |p| {
        let tagged: Vec<(usize, u64)> = p.iter().map(|&h| (0, h)).collect();
        let big: Vec<BigUint> = p.iter().map(|&h| h.into()).collect();
        assert_eq!(q.is_lost(&big), search.is_lost(&tagged).unwrap(), "{spec} {p:?}");
        checked += 1;
    });
    assert!(checked > 100);
}

#[test]
fn outcomes_equal_a_plain_search() {
    agrees_with_search("subtract:1,2", 4, 9);
    agrees_with_search("subtract:1,3,4", 3, 12);
    agrees_with_search("octal:0.75", 3, 10);
    agrees_with_search("octal:0.75", 4, 6);
    agrees_with_search("octal:0.52", 3, 10);
    agrees_with_search("octal:4.0", 4, 8);
}
