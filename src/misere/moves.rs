//! The options of one heap of any size, judged by the quotient: the moves that leave the
//! position's product in P.
//!
//! Removals are finitely many per rule (an octal game takes at most `t` stones; a subtraction
//! game takes a number of its set). A split of `m` stones into `a + b` (`1 <= a <= b`) is
//! enumerated by classes ([`split_classes`]): each `a < n0` alone, and the `a >= n0` by their
//! residue modulo the period `p`, where `Φ(a)` and `Φ(m − a)` are both fixed (`b >= a >= n0`).
//! So a heap of `10^18` stones has at most `n0 + p` classes of splits, each an arithmetic
//! progression of `a` with its count.

use num_bigint::BigUint;
use num_traits::{One, ToPrimitive, Zero};

use super::Quotient;
use crate::error::{Error, Result};
use crate::game::Game;

/// The splits `a + b = m`, `1 <= a <= b`, whose `a` runs over `first, first + step, …` (`count`
/// of them), all with the product `element = Φ(a)·Φ(b)`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SplitClass {
    /// The smallest `a`.
    pub first: BigUint,
    /// The step between successive `a` (the period; any value when `count` is 1).
    pub step: u64,
    /// How many splits.
    pub count: BigUint,
    /// `Φ(a)·Φ(m − a)` for each of them.
    pub element: usize,
}

/// Every split of `m` stones into two non-empty heaps, by classes of equal product (see the
/// module's documentation). Shared shape with normal play: replace `Φ` and the product by the
/// Grundy value and XOR. A heap above those of a partial quotient is refused
/// ([`Quotient::element`]).
pub fn split_classes(q: &Quotient, m: &BigUint) -> Result<Vec<SplitClass>> {
    let (n0, p) = (q.preperiod(), q.period());
    let half: BigUint = m >> 1u32;
    let mut classes = Vec::new();
    // The a below the preperiod, one by one.
    for a in 1..n0 {
        if BigUint::from(a) > half {
            break;
        }
        let b = m - BigUint::from(a);
        let element = q.mul(q.element_u64(a)?, q.element(&b)?);
        classes.push(SplitClass { first: a.into(), step: p, count: BigUint::one(), element });
    }
    // The a >= max(n0, 1) by residue: a = n0 + r + p·i.
    for r in 0..p {
        let mut first = n0 + r;
        if first == 0 {
            first += p;
        }
        let first = BigUint::from(first);
        if first > half {
            continue;
        }
        let count = (&half - &first) / BigUint::from(p) + 1u32;
        let b = m - &first;
        let element = q.mul(q.element(&first)?, q.element(&b)?);
        classes.push(SplitClass { first, step: p, count, element });
    }
    Ok(classes)
}

/// The options of a heap of `n` whose product with `rest` lies in P: at most `most` of them
/// listed (each the heaps it leaves), and how many there are in all. Octal and subtraction
/// games only ([`Error::QuotientNotFound`] for others); a heap above those of a partial
/// quotient is refused ([`Quotient::element`]).
pub fn winning_options(
    q: &Quotient,
    n: &BigUint,
    rest: usize,
    most: usize,
) -> Result<(Vec<Vec<BigUint>>, BigUint)> {
    let wins = |element: usize| q.in_p(q.mul(rest, element));
    let mut listed: Vec<Vec<BigUint>> = Vec::new();
    let mut count = BigUint::zero();
    let single = |left: BigUint, listed: &mut Vec<Vec<BigUint>>, count: &mut BigUint| -> Result<()> {
        let element = if left.is_zero() { 0 } else { q.element(&left)? };
        if wins(element) {
            *count += 1u32;
            if listed.len() < most {
                listed.push(if left.is_zero() { Vec::new() } else { vec![left] });
            }
        }
        Ok(())
    };
    let splits = |m: &BigUint, listed: &mut Vec<Vec<BigUint>>, count: &mut BigUint| -> Result<()> {
        for class in split_classes(q, m)?.into_iter().filter(|c| wins(c.element)) {
            *count += &class.count;
            let mut a = class.first.clone();
            let room = most.saturating_sub(listed.len());
            let take = class.count.to_usize().map_or(room, |c| c.min(room));
            for _ in 0..take {
                listed.push(vec![a.clone(), m - &a]);
                a += class.step;
            }
        }
        Ok(())
    };
    match &q.rules {
        Game::Octal(code) => {
            for j in 0..=code.last_digit() {
                let j_big = BigUint::from(j);
                if j_big > *n {
                    break;
                }
                let d = code.digit(j);
                let left = n - &j_big;
                if left.is_zero() && d & 1 != 0 {
                    single(left.clone(), &mut listed, &mut count)?;
                }
                if !left.is_zero() && j > 0 && d & 2 != 0 {
                    single(left.clone(), &mut listed, &mut count)?;
                }
                if d & 4 != 0 && left >= BigUint::from(2u8) {
                    splits(&left, &mut listed, &mut count)?;
                }
            }
        }
        Game::Subtract(moves) => {
            for k in moves.iter() {
                let k = BigUint::from(k);
                if k > *n {
                    break;
                }
                single(n - k, &mut listed, &mut count)?;
            }
        }
        _ => {
            return Err(Error::QuotientNotFound {
                game: q.game().to_string(),
                reason: "the options of a heap are judged by a quotient for octal and subtraction games"
                    .into(),
                limit: None,
            });
        }
    }
    // Options are listed in the order of the rules; sort each heap's list as the search does.
    listed.sort();
    Ok((listed, count))
}
