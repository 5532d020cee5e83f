//! Every verdict and every winning move of `nimcount::play` against a game-tree search that
//! never uses Grundy values, Moore's theorem or the staircase argument: a position is won when
//! some move leads to a lost one, memoised over positions. On every position of up to 4 heaps of
//! at most 12 stones (staircases: up to 5 steps of at most 6 coins), the verdict must agree, every
//! listed move must leave a lost position, and every move that does must be listed.

use std::collections::{BTreeSet, HashMap};

use nimcount::game::{Game, HeapGame};
use nimcount::grundy::values_of;
use nimcount::play::{MiserePosition, Moore, Move, Position, Rules, Staircase, Verdict};
use nimcount::progress::Silent;
use num_bigint::BigUint;
use num_traits::ToPrimitive;

use crate::support::game_tree::GameTree;
use crate::support::games::TakeOrThirds;

const LARGEST: u64 = 12;

/// Every ordered position of up to `heaps` heaps of `0..=largest`.
fn positions(heaps: usize, largest: u64) -> Vec<Vec<u64>> {
    let mut all = vec![vec![]];
    let mut layer = vec![vec![]];
    for _ in 0..heaps {
        layer = layer
            .iter()
            .flat_map(|p: &Vec<u64>| {
                (0..=largest).map(move |h| {
                    let mut q = p.clone();
                    q.push(h);
                    q
                })
            })
            .collect();
        all.extend(layer.iter().cloned());
    }
    all
}

fn small(n: &BigUint) -> u64 {
    n.to_u64().unwrap()
}

/// A single-heap move as (heap, heaps left).
fn single(m: &Move) -> (usize, Vec<u64>) {
    assert_eq!(m.changes.len(), 1, "{m}");
    let c = &m.changes[0];
    (c.heap, c.to.iter().map(small).collect())
}

/// Checks every position of up to 4 heaps of a heap game, normal play or misère Nim.
fn check_heap_game(game: &dyn HeapGame, rules: &Rules, misere: bool) -> (usize, usize) {
    let mut tree = if misere { GameTree::misere(game) } else { GameTree::new(game) };
    let (mut lost, mut moves_checked) = (0, 0);
    for heaps in positions(4, LARGEST) {
        let position = if misere {
            Position::misere_nim(heaps.clone())
        } else {
            Position::new(rules, heaps.clone()).unwrap()
        };
        let won = tree.is_won(&heaps);
        let name = game.name();
        assert_eq!(position.verdict(), Verdict::lost_if(!won), "{name}: {heaps:?}");
        lost += usize::from(!won);
        let listed: Vec<(usize, Vec<u64>)> = position.winning_moves().map(|m| single(&m)).collect();
        let distinct: BTreeSet<_> = listed.iter().cloned().collect();
        assert_eq!(distinct.len(), listed.len(), "{name}: {heaps:?}: a move listed twice");
        let mut expected = BTreeSet::new();
        for (i, &h) in heaps.iter().enumerate() {
            for option in tree.options(h).iter() {
                let mut next: Vec<u64> = heaps.clone();
                next.remove(i);
                next.extend(option);
                if !tree.is_won(&next) {
                    expected.insert((i, option.clone()));
                }
            }
        }
        assert_eq!(distinct, expected, "{name}: {heaps:?}");
        moves_checked += listed.len();
        // A won position of a game with moves has one to show, except misère Nim's empty one.
        if won && heaps.iter().any(|&h| h > 0) {
            assert!(!listed.is_empty(), "{name}: {heaps:?}");
        }
    }
    (lost, moves_checked)
}

#[test]
fn heap_games_agree_with_the_game_tree() {
    for spec in ["nim", "subtract:1,3,4", "octal:0.07", "octal:0.137"] {
        let game = Game::parse(spec).unwrap();
        // As the command line builds them (a period for subtract:1,3,4, values for the others)…
        let rules = Rules::for_game(&game, &LARGEST.into(), Some(1 << 16), &Silent).unwrap();
        let (lost, moves) = check_heap_game(&game, &rules, false);
        assert!(lost > 100 && moves > 10_000, "{spec}: {lost} lost positions, {moves} moves");
        // … and as a game of one's own, with the plain mex values.
        let values = values_of(&game, LARGEST + 1, &Silent).unwrap();
        check_heap_game(&game, &Rules::new(&game, &values), false);
    }
}

#[test]
fn misere_nim_agrees_with_the_game_tree() {
    let (lost, moves) = check_heap_game(&Game::Nim, &Rules::nim(), true);
    assert!(lost > 100 && moves > 10_000, "{lost} lost positions, {moves} moves");
}

#[test]
fn a_game_of_ones_own_agrees_with_the_game_tree() {
    let values = values_of(&TakeOrThirds, LARGEST + 1, &Silent).unwrap();
    let (lost, _) = check_heap_game(&TakeOrThirds, &Rules::new(&TakeOrThirds, &values), false);
    assert!(lost > 100);
    // Three-heap moves print as sums.
    let rules = Rules::new(&TakeOrThirds, &values);
    let position = Position::new(&rules, [9u32, 3]).unwrap();
    let all: Vec<String> = position.winning_moves().map(|m| m.to_string()).collect();
    assert!(all.iter().any(|m| m.contains(" + ")) || position.verdict() == Verdict::Lost, "{all:?}");
}

/// Moore's Nim-K by game-tree search over sorted non-zero heaps: a move lowers 1..=K heaps.
struct MooreTree {
    k: usize,
    won: HashMap<Vec<u64>, bool>,
}

impl MooreTree {
    fn key(heaps: &[u64]) -> Vec<u64> {
        let mut key: Vec<u64> = heaps.iter().copied().filter(|&h| h > 0).collect();
        key.sort_unstable();
        key
    }

    fn is_won(&mut self, heaps: &[u64]) -> bool {
        let key = Self::key(heaps);
        if let Some(&won) = self.won.get(&key) {
            return won;
        }
        let mut won = false;
        for_each_move(&key, self.k, &mut |next| {
            if !won && !self.is_won(next) {
                won = true;
            }
            !won
        });
        self.won.insert(key, won);
        won
    }
}

/// Calls `visit` with every position one move of Moore's Nim-K away (every way to lower 1..=k
/// heaps), until it returns false.
fn for_each_move(heaps: &[u64], k: usize, visit: &mut dyn FnMut(&[u64]) -> bool) {
    fn go(
        heaps: &mut Vec<u64>,
        from: usize,
        changed: usize,
        k: usize,
        visit: &mut dyn FnMut(&[u64]) -> bool,
    ) -> bool {
        if changed > 0 && !visit(heaps) {
            return false;
        }
        if changed == k {
            return true;
        }
        for i in from..heaps.len() {
            let original = heaps[i];
            for m in 0..original {
                heaps[i] = m;
                if !go(heaps, i + 1, changed + 1, k, visit) {
                    heaps[i] = original;
                    return false;
                }
            }
            heaps[i] = original;
        }
        true
    }
    go(&mut heaps.to_vec(), 0, 0, k, visit);
}

fn check_moore(k: u64) {
    let moore = Moore::new(k).unwrap();
    let mut tree = MooreTree { k: k as usize, won: HashMap::new() };
    let (mut lost, mut checked) = (0, 0);
    // Every ordered position of up to 3 heaps, and the sorted ones of 4 (all the multisets).
    let all = positions(4, LARGEST).into_iter().filter(|p| p.len() < 4 || p.is_sorted());
    for heaps in all {
        let big: Vec<BigUint> = heaps.iter().map(|&h| h.into()).collect();
        let won = tree.is_won(&heaps);
        assert_eq!(moore.verdict(&big), Verdict::lost_if(!won), "moore:{k} {heaps:?}");
        lost += usize::from(!won);
        let to_heaps = |m: &Move| {
            assert!((1..=k as usize).contains(&m.changes.len()), "moore:{k} {heaps:?}: {m}");
            let mut next = heaps.clone();
            for c in &m.changes {
                assert_eq!(small(&c.from), heaps[c.heap]);
                next[c.heap] = c.to.first().map_or(0, small);
                assert!(next[c.heap] < heaps[c.heap], "moore:{k} {heaps:?}: {m}");
            }
            next
        };
        let listed: Vec<Vec<u64>> = moore.winning_moves(&big).map(|m| to_heaps(&m)).collect();
        let distinct: BTreeSet<Vec<u64>> = listed.iter().cloned().collect();
        assert_eq!(distinct.len(), listed.len(), "moore:{k} {heaps:?}: a move listed twice");
        let mut expected = BTreeSet::new();
        for_each_move(&heaps, k as usize, &mut |next| {
            if !tree.is_won(next) {
                expected.insert(next.to_vec());
            }
            true
        });
        assert_eq!(distinct, expected, "moore:{k} {heaps:?}");
        match moore.winning_move(&big) {
            Some(m) => assert!(expected.contains(&to_heaps(&m)), "moore:{k} {heaps:?}: {m}"),
            None => assert!(!won, "moore:{k} {heaps:?}"),
        }
        checked += listed.len();
    }
    assert!(lost > 10 && checked > 1000, "moore:{k}: {lost} lost, {checked} moves");
}

#[test]
fn moore_two_agrees_with_the_game_tree() {
    check_moore(2);
}

#[test]
fn moore_three_agrees_with_the_game_tree() {
    check_moore(3);
}

/// Staircases by game-tree search over the coins on each step: a move takes `k` coins allowed by
/// `takes` from step `i` to step `i − 1` (off the staircase from step 1).
struct StairTree {
    takes: fn(u64) -> Vec<u64>,
    won: HashMap<Vec<u64>, bool>,
}

impl StairTree {
    fn moves(&self, steps: &[u64]) -> Vec<(usize, u64, Vec<u64>)> {
        let mut all = Vec::new();
        for i in 0..steps.len() {
            for k in (self.takes)(steps[i]) {
                let mut next = steps.to_vec();
                next[i] -= k;
                if i > 0 {
                    next[i - 1] += k;
                }
                all.push((i, k, next));
            }
        }
        all
    }

    fn is_won(&mut self, steps: &[u64]) -> bool {
        if let Some(&won) = self.won.get(steps) {
            return won;
        }
        let won = self.moves(steps).into_iter().any(|(_, _, next)| !self.is_won(&next));
        self.won.insert(steps.to_vec(), won);
        won
    }
}

fn check_staircase(rules: &Rules, takes: fn(u64) -> Vec<u64>, name: &str) {
    let mut tree = StairTree { takes, won: HashMap::new() };
    let (mut lost, mut checked) = (0, 0);
    for steps in positions(5, 6).into_iter().filter(|s| !s.is_empty()) {
        let stairs = Staircase::new(rules, steps.clone()).unwrap();
        let won = tree.is_won(&steps);
        assert_eq!(stairs.verdict(), Verdict::lost_if(!won), "{name} {steps:?}");
        lost += usize::from(!won);
        let listed: Vec<(usize, u64)> = stairs
            .winning_moves()
            .map(|m| {
                // The step the coins leave, and how many; the step below gains them.
                let from = m.changes.last().unwrap();
                let k = small(&from.from) - from.to.first().map_or(0, small);
                if from.heap > 0 {
                    let below = &m.changes[0];
                    assert_eq!((below.heap, small(&below.from)), (from.heap - 1, steps[from.heap - 1]));
                    assert_eq!(below.to.iter().map(small).collect::<Vec<_>>(), [steps[from.heap - 1] + k]);
                } else {
                    assert_eq!(m.changes.len(), 1);
                }
                let text = Staircase::describe(&m);
                assert!(text.starts_with(&format!("step {}: ", from.heap + 1)), "{text}");
                (from.heap, k)
            })
            .collect();
        let distinct: BTreeSet<_> = listed.iter().copied().collect();
        assert_eq!(distinct.len(), listed.len(), "{name} {steps:?}");
        let expected: BTreeSet<(usize, u64)> = tree
            .moves(&steps)
            .into_iter()
            .filter(|(_, _, next)| !tree.is_won(next))
            .map(|(i, k, _)| (i, k))
            .collect();
        assert_eq!(distinct, expected, "{name} {steps:?}");
        checked += listed.len();
    }
    assert!(lost > 500 && checked > 10_000, "{name}: {lost} lost, {checked} moves");
}

#[test]
fn staircase_nim_agrees_with_the_game_tree() {
    check_staircase(&Rules::nim(), |c| (1..=c).collect(), "staircase nim");
}

#[test]
fn bounded_staircase_agrees_with_the_game_tree() {
    // Move one or two coins: subtract:1-2, as the command line builds it and as one's own game.
    let game = Game::parse("subtract:1-2").unwrap();
    let takes: fn(u64) -> Vec<u64> = |c| (1..=c.min(2)).collect();
    let rules = Rules::for_game(&game, &LARGEST.into(), Some(1 << 16), &Silent).unwrap();
    check_staircase(&rules, takes, "bounded staircase");
    let values = values_of(&game, LARGEST + 1, &Silent).unwrap();
    check_staircase(&Rules::new(&game, &values), takes, "bounded staircase, own values");
}

/// A heap far beyond the values computed moves like a small heap in the same place of the
/// period: subtract:1,3,4 has period 7.
#[test]
fn huge_heaps_of_periodic_games_move_like_their_small_twins() {
    let game = Game::parse("subtract:1,3,4").unwrap();
    let rules = Rules::for_game(&game, &LARGEST.into(), Some(1 << 16), &Silent).unwrap();
    let shift = BigUint::from(7u32) * BigUint::from(10u32).pow(30);
    for a in 4..=12u64 {
        for b in 0..=12u64 {
            let near = Position::new(&rules, [a, b]).unwrap();
            let far = Position::new(&rules, [&shift + a, b.into()]).unwrap();
            assert_eq!(near.verdict(), far.verdict(), "{a} {b}");
            let back = |m: Move, shifted: &BigUint| {
                let c = &m.changes[0];
                let back = |n: &BigUint| if c.heap == 0 { small(&(n - shifted)) } else { small(n) };
                (c.heap, back(&c.from), c.to.iter().map(back).filter(|&h| h > 0).collect::<Vec<_>>())
            };
            let zero = BigUint::default();
            let near_moves: Vec<_> = near.winning_moves().map(|m| back(m, &zero)).collect();
            let far_moves: Vec<_> = far.winning_moves().map(|m| back(m, &shift)).collect();
            assert!(!near_moves.is_empty() || near.verdict() == Verdict::Lost);
            assert_eq!(near_moves, far_moves, "{a} {b}");
        }
    }
}

/// Every winning move of the games whose moves split heaps beyond the values kept (games of a
/// very short period keep a handful), Kayles, Dawson's Kayles and all-but games: the moves
/// listed are those a reference finds, each once, and their count is the one stated. Normal
/// play on every position of up to 3 heaps of at most 14 stones, against Grundy values by
/// plain mex over the game's options; misère play against the game tree (one search per game,
/// its positions remembered), on every sorted position of up to 3 heaps of at most 14 stones.
#[test]
fn every_winning_move_is_listed_and_counted() {
    const LARGEST: u64 = 14;
    let specs = [
        "octal:4.0",
        "hex:0.F",
        "hex:0.B",
        "hex:4.8",
        "hex:0.A",
        "kayles",
        "dawsons-kayles",
        "allbut:1,2",
        "allbut:1",
        "allbut:2,3,5",
    ];
    let mut splits = 0;
    for spec in specs {
        let game = Game::parse(spec).unwrap();
        let rules = Rules::for_game(&game, &LARGEST.into(), None, &Silent).unwrap();
        let mut tree = GameTree::misere(&game);
        // Plain mex: G(n) is the least value no option of n has.
        let mut mex = Vec::new();
        for n in 0..=LARGEST {
            let reached: BTreeSet<u64> =
                tree.options(n).iter().map(|o| o.iter().fold(0, |x, &h| x ^ mex[h as usize])).collect();
            mex.push((0..).find(|g| !reached.contains(g)).unwrap());
        }
        for misere in [false, true] {
            for heaps in positions(3, LARGEST) {
                if misere && !heaps.is_sorted() {
                    continue;
                }
                let what = format!("{spec} {heaps:?}{}", if misere { " misère" } else { "" });
                let (verdict, listed, count) = if misere {
                    let p = MiserePosition::new(heaps.iter().map(|&h| (&rules, h)), 1_000_000).unwrap();
                    let listed: Vec<_> = p.winning_moves().iter().map(single).collect();
                    (p.verdict(), listed, p.winning_move_count().cloned())
                } else {
                    let p = Position::new(&rules, heaps.clone()).unwrap();
                    let listed: Vec<_> = p.winning_moves().map(|m| single(&m)).collect();
                    (p.verdict(), listed, p.winning_move_count())
                };
                // Lost: a move to make and none to a lost position (misère), XOR 0 (normal).
                let lost = |tree: &mut GameTree, position: &[u64]| {
                    if misere {
                        !tree.is_won(position)
                    } else {
                        position.iter().fold(0, |x, &h| x ^ mex[h as usize]) == 0
                    }
                };
                assert_eq!(verdict, Verdict::lost_if(lost(&mut tree, &heaps)), "{what}");
                let distinct: BTreeSet<_> = listed.iter().cloned().collect();
                assert_eq!(distinct.len(), listed.len(), "{what}: a move listed twice");
                let mut expected = BTreeSet::new();
                for (i, &h) in heaps.iter().enumerate() {
                    for option in tree.options(h).iter() {
                        let mut next: Vec<u64> = heaps.clone();
                        next.remove(i);
                        next.extend(option);
                        if lost(&mut tree, &next) {
                            expected.insert((i, option.clone()));
                        }
                    }
                }
                assert_eq!(distinct, expected, "{what}");
                assert_eq!(count, Some(BigUint::from(listed.len())), "{what}");
                splits += listed.iter().filter(|(_, to)| to.len() > 1).count();
                // A won position with a move to make shows one.
                if verdict == Verdict::Won && heaps.iter().any(|&h| !tree.options(h).is_empty()) {
                    assert!(!listed.is_empty(), "{what}");
                }
            }
        }
    }
    assert!(splits > 10_000, "{splits} winning splits");
}
