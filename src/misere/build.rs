//! The quotient heap size by heap size: each new heap `H = n` joins the quotient `Q` of the
//! smaller heaps as the elements `(a, k)` (a position of the smaller heaps of image `a`, plus `k`
//! heaps `n`), whose outcomes are found level by level, and the pairs are then reduced to the
//! classes that some position tells apart.
//!
//! The outcome of `(a, k)` is read on a representative position of `a` (the fewest stones among
//! the positions the construction met): lost when it has a move and every move, of a smaller
//! heap (to `(b, k)`) or of one heap `n` (to `(a·o, k − 1)` for an option image `o` of `n`),
//! reaches a position that is not lost. That reading is what makes this a *candidate*: it is
//! exact when the outcome of `x + k·H` depends on `x` only through its image, which the
//! construction does not prove. The proof is the check of [`super::verify`], which tests the
//! finished candidate against every position of every heap size.

use std::collections::HashMap;

use crate::game::HeapGame;

/// A candidate quotient of the heaps `0..=n`.
pub(super) struct Stage {
    /// The order.
    pub order: usize,
    /// `table[a * order + b] = a·b`.
    pub table: Vec<u32>,
    /// The P-portion: whether each element is lost for the player to move.
    pub lost: Vec<bool>,
    /// The identity (the empty position).
    pub identity: u32,
    /// The image of each heap `0..=n`.
    pub phi: Vec<u32>,
    /// The distinct images of each heap's options.
    options: Vec<Vec<u32>>,
    /// A position of each element (heap sizes, ascending).
    reps: Vec<Vec<u64>>,
}

/// Why a stage could not be built.
pub(super) enum Stuck {
    /// The order passed the limit.
    Order(usize),
    /// The levels `k` of the new heap did not repeat within the limit.
    Levels,
    /// The outcomes of the representatives called on each other in a circle.
    Circle,
}

/// The most levels `k` (copies of the new heap) examined for a repetition.
const MAX_LEVELS: usize = 256;

impl Stage {
    /// The quotient of the empty heap alone: the trivial monoid, whose one element is not lost.
    pub fn start() -> Stage {
        Stage {
            order: 1,
            table: vec![0],
            lost: vec![false],
            identity: 0,
            phi: vec![0],
            options: vec![Vec::new()],
            reps: vec![Vec::new()],
        }
    }

    /// `a·b`.
    pub fn mul(&self, a: u32, b: u32) -> u32 {
        self.table[a as usize * self.order + b as usize]
    }

    /// The image of a position of heaps already joined.
    fn image(&self, heaps: &[u64]) -> u32 {
        heaps.iter().fold(self.identity, |x, &h| self.mul(x, self.phi[h as usize]))
    }

    /// The heaps joined so far: `0..=n`.
    pub fn heaps(&self) -> u64 {
        self.phi.len() as u64
    }

    /// Joins the next heap.
    pub fn grow(&mut self, game: &dyn HeapGame, max_order: usize) -> Result<(), Stuck> {
        let n = self.heaps();
        let mut images: Vec<u32> = Vec::new();
        game.options(n, &mut |left| images.push(self.image(left)));
        images.sort_unstable();
        images.dedup();
        if images.is_empty() {
            // A heap without options is the zero game.
            self.phi.push(self.identity);
            self.options.push(images);
            return Ok(());
        }
        let q = self.order;
        let moves = self.moves_of_representatives();
        // Level 0 is the quotient itself; level k is lost(·, k).
        let mut levels: Vec<Vec<bool>> = vec![self.lost.clone()];
        let (first, cycle) = loop {
            let below = levels.last().expect("level 0");
            let level = self.level(&moves, &images, below)?;
            if let Some(i) = levels.iter().position(|l| *l == level) {
                break (i, levels.len() - i);
            }
            if levels.len() >= MAX_LEVELS {
                return Err(Stuck::Levels);
            }
            levels.push(level);
        };
        let j = levels.len();
        let reduce = |s: usize| if s < j { s } else { first + (s - first) % cycle };
        // The pairs (a, k), k < j, as k·q + a.
        let pairs = q * j;
        let product = |x: usize, y: usize| {
            let (a, k, b, l) = (x % q, x / q, y % q, y / q);
            reduce(k + l) * q + self.mul(a as u32, b as u32) as usize
        };
        let mut generators: Vec<usize> = self.phi.iter().map(|&g| g as usize).collect();
        let heap = reduce(1) * q + self.identity as usize;
        generators.push(heap);
        generators.sort_unstable();
        generators.dedup();
        let mut class: Vec<u32> = (0..pairs).map(|x| u32::from(levels[x / q][x % q])).collect();
        let mut classes = 2;
        loop {
            let mut ids: HashMap<Vec<u32>, u32> = HashMap::new();
            let next: Vec<u32> = (0..pairs)
                .map(|x| {
                    let mut key = Vec::with_capacity(generators.len() + 1);
                    key.push(class[x]);
                    key.extend(generators.iter().map(|&g| class[product(x, g)]));
                    let fresh = ids.len() as u32;
                    *ids.entry(key).or_insert(fresh)
                })
                .collect();
            let stable = ids.len() == classes;
            classes = ids.len();
            class = next;
            if stable {
                break;
            }
        }
        if classes > max_order {
            return Err(Stuck::Order(classes));
        }
        // Each class keeps its member of fewest stones.
        let size = |x: usize| self.reps[x % q].iter().sum::<u64>() + (x / q) as u64 * n;
        let mut best: Vec<Option<usize>> = vec![None; classes];
        for (x, &c) in class.iter().enumerate() {
            let c = c as usize;
            if best[c].is_none_or(|b| size(x) < size(b)) {
                best[c] = Some(x);
            }
        }
        let best: Vec<usize> = best.into_iter().map(|b| b.expect("every class has a member")).collect();
        let mut table = vec![0u32; classes * classes];
        for (c, &x) in best.iter().enumerate() {
            for (d, &y) in best.iter().enumerate() {
                table[c * classes + d] = class[product(x, y)];
            }
        }
        let lost = best.iter().map(|&x| levels[x / q][x % q]).collect();
        let reps = best
            .iter()
            .map(|&x| {
                let mut heaps = self.reps[x % q].clone();
                heaps.extend(std::iter::repeat_n(n, x / q));
                heaps
            })
            .collect();
        let lift = |a: u32| class[a as usize];
        self.phi.iter_mut().for_each(|g| *g = lift(*g));
        self.phi.push(class[heap]);
        self.options.iter_mut().flatten().for_each(|o| *o = lift(*o));
        for list in self.options.iter_mut() {
            list.sort_unstable();
            list.dedup();
        }
        self.options.push(images.into_iter().map(lift).collect());
        self.identity = lift(self.identity);
        self.order = classes;
        self.table = table;
        self.lost = lost;
        self.reps = reps;
        Ok(())
    }

    /// The images of the options of each element's representative.
    fn moves_of_representatives(&self) -> Vec<Vec<u32>> {
        self.reps
            .iter()
            .map(|rep| {
                let mut moves = Vec::new();
                for (i, &h) in rep.iter().enumerate() {
                    if i > 0 && rep[i - 1] == h {
                        continue;
                    }
                    let rest = rep.iter().enumerate().filter(|&(j, _)| j != i).map(|(_, &g)| g);
                    let rest = rest.fold(self.identity, |x, g| self.mul(x, self.phi[g as usize]));
                    moves.extend(self.options[h as usize].iter().map(|&o| self.mul(rest, o)));
                }
                moves.sort_unstable();
                moves.dedup();
                moves
            })
            .collect()
    }

    /// `lost(·, k)` from `lost(·, k − 1)`: a position with `k >= 1` heaps `n` always has a move.
    fn level(&self, moves: &[Vec<u32>], images: &[u32], below: &[bool]) -> Result<Vec<bool>, Stuck> {
        // 0: not yet, 1: in progress, 2: won, 3: lost.
        let mut state = vec![0u8; self.order];
        for a in 0..self.order {
            if state[a] != 0 {
                continue;
            }
            // An explicit stack of (element, next move to look at).
            let mut stack = vec![(a, 0usize)];
            state[a] = 1;
            while let Some(&mut (x, ref mut next)) = stack.last_mut() {
                if *next == 0 && images.iter().any(|&o| below[self.mul(x as u32, o) as usize]) {
                    state[x] = 2;
                    stack.pop();
                    continue;
                }
                let mut descend = None;
                let mut won = false;
                while *next < moves[x].len() {
                    let b = moves[x][*next] as usize;
                    match state[b] {
                        0 => {
                            descend = Some(b);
                            break;
                        }
                        1 => return Err(Stuck::Circle),
                        3 => {
                            won = true;
                            break;
                        }
                        _ => *next += 1,
                    }
                }
                if let Some(b) = descend {
                    state[b] = 1;
                    stack.push((b, 0));
                } else {
                    state[x] = if won { 2 } else { 3 };
                    stack.pop();
                }
            }
        }
        Ok(state.into_iter().map(|s| s == 3).collect())
    }
}
