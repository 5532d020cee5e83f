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

use super::coefficients;
use super::modulus::{self, Part};
use crate::error::{Error, Estimate, Result};
use crate::misere::Quotient;
use crate::progress::Progress;
use crate::ring::{Big, OddWord, Residues, TwoWord};

/// `h[a]`: how many sizes of `lo..=hi` have the element `a`.
pub fn histogram(q: &Quotient, lo: &BigUint, hi: &BigUint) -> Vec<BigUint> {
    let mut h = vec![BigUint::zero(); q.order()];
    if lo > hi {
        return h;
    }
    let (n0, p) = (q.preperiod(), q.period());
    // The sizes below the preperiod, one by one.
    let mut n = lo.to_u64().filter(|&n| n < n0);
    while let Some(size) = n.filter(|&s| BigUint::from(s) <= *hi && s < n0) {
        h[q.image(size)] += 1u32;
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
        h[q.image(n0 + r)] += count;
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

/// The ordered positions of `k` heaps over `lo..=hi` that are lost in misère play, and all of them
/// (`N^k`), exact or modulo `m`, summed over every number of heaps `k_lo..=k_hi` (`k_lo <= k_hi`;
/// one count when they are equal): the geometric
/// series `Σ h^k = h^k_lo · S(k_hi − k_lo + 1)` in the algebra of `Q`, with
/// `S(n) = 1 + h + … + h^(n−1)` by doubling as the transform's range does
/// ([`super::geometric`]: no division, so any modulus), and likewise `Σ N^k` for the total.
pub(super) fn ordered_range(
    q: &Quotient,
    lo: &BigUint,
    hi: &BigUint,
    k_lo: &BigUint,
    k_hi: &BigUint,
    m: Option<&BigUint>,
) -> (BigUint, BigUint) {
    let h = histogram(q, lo, hi);
    let len = k_hi - k_lo + 1u32;
    let reduce = |x: BigUint| match m {
        Some(m) => x % m,
        None => x,
    };
    let mut identity = vec![BigUint::zero(); q.order()];
    identity[0] = reduce(BigUint::one());
    let add = |f: &Vec<BigUint>, g: &Vec<BigUint>| -> Vec<BigUint> {
        f.iter().zip(g).map(|(x, y)| reduce(x + y)).collect()
    };
    let mul = |f: &Vec<BigUint>, g: &Vec<BigUint>| product(q, f, g, m);
    let series = doubling(&identity, &h, &len, add, mul);
    let sum = product(q, &power(q, &h, k_lo, m), &series, m);
    let losing = reduce(q.p_portion().into_iter().map(|a| sum[a].clone()).sum());
    let n = reduce(hi - lo + 1u32);
    let scalar_add = |x: &BigUint, y: &BigUint| reduce(x + y);
    let scalar_mul = |x: &BigUint, y: &BigUint| reduce(x * y);
    let start = match m {
        Some(m) => n.modpow(k_lo, m),
        None => n.pow(k_lo.to_u32().expect("an exact count's k is bounded before")),
    };
    let total = reduce(start * doubling(&reduce(BigUint::one()), &n, &len, scalar_add, scalar_mul));
    (losing, total)
}

/// `S(n) = 1 + v + … + v^(n−1)` by doubling from the top bit of `n`, in any ring given by its
/// `one`, `add` and `mul`: `S(2t) = S(t)·(1 + v^t)`, `S(t + 1) = S(t) + v^t`.
fn doubling<O: Clone>(
    one: &O,
    v: &O,
    n: &BigUint,
    add: impl Fn(&O, &O) -> O,
    mul: impl Fn(&O, &O) -> O,
) -> O {
    // (sum, power) = (S(t), v^t) for the bits t of n read so far; `None` is S(0) = 0.
    let (mut sum, mut power): (Option<O>, O) = (None, one.clone());
    for bit in (0..n.bits()).rev() {
        sum = sum.map(|s| mul(&s, &add(one, &power)));
        power = mul(&power, &power);
        if n.bit(bit) {
            sum = Some(match sum {
                Some(s) => add(&s, &power),
                None => power.clone(),
            });
            power = mul(&power, v);
        }
    }
    sum.expect("n >= 1")
}

/// [`ordered_range`] of one number of heaps, for a sum of parts `(lo, hi, k)` of one game: `k` heaps of sizes in `lo..=hi`
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

/// One part of an unordered count: `k` heaps of sizes in `lo..=hi`, as multisets or sets.
pub(super) struct UnorderedPart<'a> {
    pub lo: &'a BigUint,
    pub hi: &'a BigUint,
    pub k: &'a BigUint,
}

/// The misère counts of multisets (or sets) of heap sizes, within each part, of a sum of parts
/// of one game, exact or modulo `m` (see [`unordered_parts`]).
pub(super) struct Unordered<'a> {
    q: &'a Quotient,
    kind: coefficients::Unordered,
    /// Per part: its `k`, its number of sizes `N` and its histogram over `Q`.
    parts: Vec<(u64, BigUint, Vec<BigUint>)>,
}

impl<'a> Unordered<'a> {
    /// The parts' histograms; `None` when the count is 0 for want of sizes (sets of more
    /// sizes than a part has), and an error for a `k` beyond a word (beyond every estimate).
    pub(super) fn new(
        q: &'a Quotient,
        kind: coefficients::Unordered,
        parts: &[UnorderedPart<'_>],
        limit: u128,
    ) -> Result<Option<Self>> {
        let mut out = Vec::with_capacity(parts.len());
        for part in parts {
            let n = part.hi - part.lo + 1u32;
            if kind == coefficients::Unordered::Set && *part.k > n {
                return Ok(None);
            }
            let Some(k) = part.k.to_u64() else {
                return Err(Error::TooMuchWork { what: WHAT, steps: Estimate(None), limit });
            };
            out.push((k, n, histogram(q, part.lo, part.hi)));
        }
        Ok(Some(Unordered { q, kind, parts: out }))
    }

    /// Multiply-adds of the truncated series, an upper bound: for each factor `(1 ∓ t·e_a)^(∓h_a)`
    /// of a part, `|Q|` per pair of a degree of the product so far and a degree of the factor's
    /// series (only the degree `k` of the last factor's product is needed); `|Q|²` to join parts.
    pub(super) fn steps(&self) -> Option<u128> {
        let order = self.q.order() as u128;
        let mut steps = order * order * self.parts.len() as u128;
        for (k, _, h) in &self.parts {
            let k = u128::from(*k);
            let factors: Vec<u128> = h
                .iter()
                .filter(|x| !x.is_zero())
                .map(|x| match self.kind {
                    coefficients::Unordered::Multiset => k,
                    coefficients::Unordered::Set => x.to_u128().map_or(k, |x| x.min(k)),
                })
                .collect();
            let mut degree = 0u128;
            for (i, &len) in factors.iter().enumerate() {
                let pairs =
                    if i + 1 == factors.len() { len + 1 } else { (degree + 1).checked_mul(len + 1)? };
                // The binomials of the factor, a few steps each.
                steps = steps.checked_add(pairs.checked_mul(order)?)?.checked_add(4 * (k + 1))?;
                degree = (degree + len).min(k);
            }
        }
        Some(steps)
    }

    /// The bits of the largest total, `Π C(N + k − 1, k)` (multisets) or `Π C(N, k)` (sets):
    /// below `2^bits`.
    pub(super) fn total_bits(&self) -> Option<u64> {
        self.parts.iter().try_fold(0u64, |bits, (k, n, _)| {
            let top = match self.kind {
                coefficients::Unordered::Multiset => n + k,
                coefficients::Unordered::Set => n.clone(),
            };
            bits.checked_add(k.checked_mul(top.bits())?)
        })
    }

    /// The bytes of the largest tables of the series modulo `m` (`(k + 1)·|Q|` residues twice,
    /// a word each, or a big integer's digits and header), `None` beyond counting.
    pub(super) fn bytes(&self, m: &BigUint) -> Option<u64> {
        let k = self.parts.iter().map(|(k, _, _)| *k).max().unwrap_or(0);
        let elements = 2 * (u128::from(k) + 1) * self.q.order() as u128;
        let each = if m.bits() <= 129 { 16 } else { u128::from(m.bits() / 8) + 32 };
        u64::try_from(elements.checked_mul(each)?).ok()
    }

    /// The losing count and the total modulo `m >= 1`: each part of `m` in its ring (the
    /// binomials of [`coefficients::Binomials`] hold modulo any number).
    pub(super) fn modulo(&self, m: &BigUint, progress: &dyn Progress) -> Result<(BigUint, BigUint)> {
        let joined = modulus::by_parts(m, 2, |part| {
            Ok(match part {
                Part::Odd(m) => match m.to_u64().filter(|&w| w < 1 << 63) {
                    Some(w) => self.in_ring(&OddWord::new(w), progress)?,
                    None => self.in_ring(&Big::new(m.clone()), progress)?,
                },
                Part::Two(a) if *a <= 128 => self.in_ring(&TwoWord::new(*a as u32), progress)?,
                Part::Two(a) => self.in_ring(&Big::new(BigUint::one() << *a), progress)?,
            })
        })?;
        Ok((joined[0].clone(), joined[1].clone()))
    }

    /// The counts exactly: modulo `2^bits` above the total (every count lies in `0..=total`).
    pub(super) fn exact(&self, progress: &dyn Progress) -> Result<(BigUint, BigUint)> {
        let bits = self.total_bits().expect("an exact count's size is bounded before") + 1;
        self.modulo(&(BigUint::one() << bits), progress)
    }

    /// The cost of a multiplication modulo `m` (each part of it, in its ring).
    pub(super) fn mul_steps(m: &BigUint) -> u128 {
        Part::of(m)
            .iter()
            .map(|part| {
                let bits = match part {
                    Part::Odd(m) if m.bits() <= 63 => return 1,
                    Part::Two(a) if *a <= 128 => return 1,
                    Part::Odd(m) => m.bits(),
                    Part::Two(a) => *a + 1,
                };
                let words = u128::from(bits / 64 + 1);
                words * words / 64 + 1
            })
            .sum()
    }

    /// `[losing, total]` in the ring `r`.
    fn in_ring<R: Residues>(&self, r: &R, progress: &dyn Progress) -> Result<Vec<BigUint>> {
        let q = self.q;
        let mut joined = vec![r.zero(); q.order()];
        joined[0] = r.one();
        let factors = self.parts.iter().map(|(_, _, h)| h.iter().filter(|x| !x.is_zero()).count() as u64);
        progress.start("misère series", factors.sum());
        let mut done = 0;
        for (k, n, h) in &self.parts {
            let series = self.series(r, *k, n, h, &mut || {
                done += 1;
                progress.set_position(done);
            })?;
            joined = algebra_product(r, q, &joined, &series);
        }
        progress.finish();
        let losing = q.p_portion().into_iter().fold(r.zero(), |s, a| r.add(s, joined[a].clone()));
        let total = joined.iter().fold(r.zero(), |s, x| r.add(s, x.clone()));
        Ok(vec![r.to_biguint(&losing), r.to_biguint(&total)])
    }

    /// `[t^k] Π_a (1 − t·e_a)^(−h_a)` (multisets) or `Π_a (1 + t·e_a)^(h_a)` (sets) in the
    /// algebra of `Q` over `r`: the number of multisets (sets) of `k` sizes with each product.
    fn series<R: Residues>(
        &self,
        r: &R,
        k: u64,
        n: &BigUint,
        h: &[BigUint],
        step: &mut dyn FnMut(),
    ) -> Result<Vec<R::Elem>> {
        let q = self.q;
        let order = q.order();
        let binomials = coefficients::Binomials::new(r, k, &(n + k + 1u32))?;
        let k = k as usize;
        // product[i][c]: the multisets (sets) of i sizes among the elements so far with product c.
        let mut product: Vec<Vec<R::Elem>> = vec![vec![r.zero(); order]];
        product[0][0] = r.one();
        let factors: Vec<usize> = (0..order).filter(|&a| !h[a].is_zero()).collect();
        for (index, &a) in factors.iter().enumerate() {
            let coefficients = binomials.binomials(self.kind, &h[a]);
            let mut power = 0; // e_a^j
            let powers: Vec<usize> = (0..coefficients.len())
                .map(|_| {
                    let p = power;
                    power = q.mul(power, a);
                    p
                })
                .collect();
            let last = index + 1 == factors.len();
            let degree = (product.len() - 1 + coefficients.len() - 1).min(k);
            let mut next = vec![vec![r.zero(); order]; if last { 1 } else { degree + 1 }];
            for (i, row) in product.iter().enumerate() {
                for (j, (coefficient, &e)) in coefficients.iter().zip(&powers).enumerate() {
                    if i + j > k {
                        break;
                    }
                    if last && i + j != k {
                        continue;
                    }
                    let target = &mut next[if last { 0 } else { i + j }];
                    for (c, x) in row.iter().enumerate() {
                        let cell = &mut target[q.mul(c, e)];
                        *cell = r.add(cell.clone(), r.mul(x.clone(), coefficient.clone()));
                    }
                }
            }
            product = next;
            step();
            if last {
                return Ok(product.swap_remove(0));
            }
        }
        // No factor at all cannot happen (every part has a size); keep the answer total anyway.
        let mut out = vec![r.zero(); order];
        if k == 0 {
            out[0] = r.one();
        }
        Ok(out)
    }
}

/// Multiply-adds of the series per work step of about 25 ns (see [`crate::count::MAX_STEPS`]):
/// measured, 700 Kayles heaps over `1..=10^12` modulo `10^9+7` (an estimate of `2.6·10^8`
/// multiply-adds, a word each) take 0.57 s of CPU on one core of a 2-core Intel Xeon
/// (`cargo test`'s profile), about 2.2 ns each.
pub(super) const MULTIPLY_ADDS_PER_STEP: u128 = 10;

/// What an unordered misère count is called in its refusals.
pub(super) const WHAT: &str = "counting unordered misère positions through the quotient";

/// `f * g` in the algebra of `Q` over the ring `r`.
fn algebra_product<R: Residues>(r: &R, q: &Quotient, f: &[R::Elem], g: &[R::Elem]) -> Vec<R::Elem> {
    let mut out = vec![r.zero(); q.order()];
    for (a, x) in f.iter().enumerate() {
        for (b, y) in g.iter().enumerate() {
            let cell = &mut out[q.mul(a, b)];
            *cell = r.add(cell.clone(), r.mul(x.clone(), y.clone()));
        }
    }
    out
}
