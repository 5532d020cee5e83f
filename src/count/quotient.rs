//! Misère counts of a game with a misère quotient: the histogram of a range of heap sizes over
//! the quotient's elements, raised to the k-th power in the monoid algebra, summed over the
//! P-portion.
//!
//! With `h[a] = #{n in lo..=hi : Φ(n) = a}`, the ordered k-tuples of sizes whose product is `a`
//! number `h^{*k}[a]`, the k-th power of `h` under the product `(f * g)[c] = Σ_{ab = c} f[a] g[b]`
//! of the algebra of `Q` (commutative and associative, with unit the identity's indicator): by
//! square-and-multiply, `2·log2(k)` products of `|Q|²` multiplications each. The losing count is
//! `Σ_{a ∈ P} h^{*k}[a]`, exact or modulo any `M` (every product is reduced modulo `M`).

use num_bigint::BigUint;
use num_traits::{One, ToPrimitive, Zero};

use crate::misere::Quotient;

/// `h[a]`: how many sizes of `lo..=hi` have the element `a`.
pub(super) fn histogram(q: &Quotient, lo: &BigUint, hi: &BigUint) -> Vec<BigUint> {
    let mut h = vec![BigUint::zero(); q.order()];
    if lo > hi {
        return h;
    }
    let (n0, p) = (q.preperiod(), q.period());
    // The sizes below the preperiod, one by one.
    let mut n = lo.to_u64().filter(|&n| n < n0);
    while let Some(size) = n.filter(|&s| BigUint::from(s) <= *hi && s < n0) {
        h[q.element_u64(size)] += 1u32;
        n = Some(size + 1);
    }
    // The sizes n >= max(lo, n0), by residue r = (n − n0) mod p: those up to x number
    // ⌊(x − n0 − r)/p⌋ + 1 when x >= n0 + r.
    let start = lo.max(&BigUint::from(n0)).clone();
    if start > *hi {
        return h;
    }
    let upto = |x: &BigUint, r: u64| -> BigUint {
        let first = BigUint::from(n0 + r);
        if *x < first { BigUint::zero() } else { (x - &first) / BigUint::from(p) + 1u32 }
    };
    for r in 0..p {
        let below = if start.is_zero() { BigUint::zero() } else { upto(&(&start - 1u32), r) };
        let count = upto(hi, r) - below;
        h[q.phi_index_element(n0 + r)] += count;
    }
    h
}

/// `f * g` in the algebra of `Q`, reduced modulo `m` when given.
fn product(q: &Quotient, f: &[BigUint], g: &[BigUint], m: Option<&BigUint>) -> Vec<BigUint> {
    let mut out = vec![BigUint::zero(); q.order()];
    for (a, x) in f.iter().enumerate().filter(|(_, x)| !x.is_zero()) {
        for (b, y) in g.iter().enumerate().filter(|(_, y)| !y.is_zero()) {
            out[q.mul(a, b)] += x * y;
        }
    }
    if let Some(m) = m {
        out.iter_mut().for_each(|x| *x %= m);
    }
    out
}

/// `h^{*k}`, by square-and-multiply from the most significant bit of `k`.
pub(super) fn power(q: &Quotient, h: &[BigUint], k: &BigUint, m: Option<&BigUint>) -> Vec<BigUint> {
    let mut result = vec![BigUint::zero(); q.order()];
    result[0] = BigUint::one();
    if let Some(m) = m {
        result[0] %= m;
    }
    let h: Vec<BigUint> = match m {
        Some(m) => h.iter().map(|x| x % m).collect(),
        None => h.to_vec(),
    };
    for bit in (0..k.bits()).rev() {
        result = product(q, &result, &result, m);
        if k.bit(bit) {
            result = product(q, &result, &h, m);
        }
    }
    result
}

/// The ordered k-heap positions over `lo..=hi` that are lost in misère play, and all of them
/// (`N^k`), exact or modulo `m`.
pub(super) fn ordered(
    q: &Quotient,
    lo: &BigUint,
    hi: &BigUint,
    k: &BigUint,
    m: Option<&BigUint>,
) -> (BigUint, BigUint) {
    ordered_parts(q, &[(lo, hi, k)], m)
}

/// [`ordered`] for a sum of parts `(lo, hi, k)` of one game: `k` heaps of sizes in `lo..=hi`
/// each, the parts' powers multiplied in the algebra.
pub(super) fn ordered_parts(
    q: &Quotient,
    parts: &[(&BigUint, &BigUint, &BigUint)],
    m: Option<&BigUint>,
) -> (BigUint, BigUint) {
    let mut product_of_parts = vec![BigUint::zero(); q.order()];
    product_of_parts[0] = BigUint::one();
    let mut total = BigUint::one();
    for &(lo, hi, k) in parts {
        let h = histogram(q, lo, hi);
        product_of_parts = product(q, &product_of_parts, &power(q, &h, k, m), m);
        let sizes = hi - lo + 1u32;
        total *= match m {
            Some(m) => sizes.modpow(k, m),
            None => sizes.pow(k.to_u32().expect("an exact count's k is bounded before")),
        };
    }
    let mut losing: BigUint = q.p_portion().into_iter().map(|a| product_of_parts[a].clone()).sum();
    if let Some(m) = m {
        losing %= m;
        total %= m;
    }
    (losing, total)
}

#[cfg(test)]
mod tests {
    use num_bigint::BigUint;

    use crate::count::{Kind, Query};
    use crate::game::Game;
    use crate::play::MisereSearch;

    /// Ordered misère counts against every tuple judged by a plain memoised search (the player
    /// who cannot move wins), exact and modulo 10^9+7, 2^64, 12 and 1.
    #[test]
    fn ordered_counts_equal_a_plain_search() {
        let moduli: Vec<Option<BigUint>> = vec![
            None,
            Some(1_000_000_007u32.into()),
            Some(BigUint::from(1u8) << 64u32),
            Some(12u8.into()),
            Some(1u8.into()),
        ];
        for spec in ["octal:0.75", "subtract:1,2", "subtract:1,3,4"] {
            let game = Game::parse(spec).unwrap();
            let mut search = MisereSearch::new(vec![&game], 1_000_000);
            for (lo, hi) in [(0u64, 0u64), (0, 7), (1, 1), (2, 9), (5, 6)] {
                for k in 0..=3u32 {
                    let mut lost = 0u64;
                    let mut tuple = vec![lo; k as usize];
                    loop {
                        let heaps: Vec<(usize, u64)> = tuple.iter().map(|&h| (0, h)).collect();
                        lost += u64::from(search.is_lost(&heaps).unwrap());
                        // The next tuple, the last heap fastest.
                        let Some(i) = (0..tuple.len()).rev().find(|&i| tuple[i] < hi) else { break };
                        tuple[i] += 1;
                        tuple[i + 1..].iter_mut().for_each(|h| *h = lo);
                    }
                    for m in &moduli {
                        let mut query = Query::new(game.clone()).sizes(lo, hi).heaps(k).misere(true);
                        if let Some(m) = m {
                            query = query.modulus(m.clone());
                        }
                        let counts = query.count().unwrap();
                        let expect = m.as_ref().map_or(BigUint::from(lost), |m| BigUint::from(lost) % m);
                        assert_eq!(counts.losing, expect, "{spec} {lo}..={hi} k = {k} mod {m:?}");
                    }
                }
            }
        }
    }

    #[test]
    fn huge_ranges_and_refusals() {
        // Heaps of any size: the histogram from the period; 10^18 sizes, k = 10^30.
        let game = Game::parse("octal:0.75").unwrap();
        let big = crate::number::parse("10^18").unwrap();
        let k = crate::number::parse("10^30").unwrap();
        let q =
            Query::new(game.clone()).sizes(1u32, big.clone()).heaps(k).misere(true).modulus(1_000_000_007u32);
        let counts = q.count().unwrap();
        assert!(counts.losing < BigUint::from(1_000_000_007u32));
        // Parts add up: 1..=10^18 split at 4·10^17, two heaps.
        let cut = crate::number::parse("4*10^17").unwrap();
        let whole =
            Query::new(game.clone()).sizes(1u32, big.clone()).heaps(1u32).misere(true).count().unwrap();
        let low = Query::new(game.clone()).sizes(1u32, cut.clone()).heaps(1u32).misere(true).count().unwrap();
        let high = Query::new(game.clone()).sizes(&cut + 1u32, big).heaps(1u32).misere(true).count().unwrap();
        assert_eq!(whole.losing, low.losing + high.losing);
        // Three heaps over 1..=10^18 split at 4·10^17: the eight sums of parts add up.
        let m = BigUint::from(1_000_000_007u32);
        let big = crate::number::parse("10^18").unwrap();
        let whole =
            Query::new(game.clone()).sizes(1u32, big.clone()).heaps(3u32).misere(true).modulus(m.clone());
        let halves = [(BigUint::from(1u8), cut.clone()), (&cut + 1u32, big)];
        let mut sum = BigUint::from(0u8);
        for choice in 0..8 {
            let parts: Vec<crate::count::Component> = (0..3)
                .map(|i| {
                    let (lo, hi) = &halves[(choice >> i) & 1];
                    crate::count::Component::new(game.clone(), lo.clone(), hi.clone(), 1u32)
                })
                .collect();
            sum += Query::sum(parts).misere(true).modulus(m.clone()).count().unwrap().losing;
        }
        assert_eq!(whole.count().unwrap().losing, sum % &m);
        // Unordered misère counts are not implemented: refused, not guessed.
        let e =
            Query::new(game.clone()).sizes(0u32, 9u32).heaps(2u32).kind(Kind::Multiset).misere(true).count();
        assert!(e.unwrap_err().to_string().contains("ordered only"));
        let e = Query::new(Game::Lasker).sizes(0u32, 9u32).heaps(2u32).misere(true).count();
        assert!(e.unwrap_err().to_string().contains("misère positions are counted for nim only"));
    }
}
