//! Counting the lost positions of Moore's Nim-K over a range of heap sizes, digit by digit.
//!
//! A k-tuple of heaps in `lo..=hi` is lost when every binary column holds a multiple of
//! `q = K + 1` ones. The columns are visited from the top. Above the first column where `lo` and
//! `hi` differ, every heap repeats their common prefix. In that column each heap takes the bit of
//! `hi` (1: it still equals `hi`'s prefix and must stay at or below it) or of `lo` (0: it must
//! stay at or above `lo`). Below, a heap is *tight high* (equal to `hi`'s prefix), *tight low*
//! (equal to `lo`'s prefix) or *free* (strictly between, any bits from here on). The state is
//! the pair `(a, b)` of tight-high and tight-low heaps; `f = k − a − b` are free. In a column
//! with bits `h` of `hi` and `l` of `lo`:
//!
//! - tight-high heaps keep a 1 (staying tight) or, where `h = 1`, drop to 0 and become free:
//!   `a → a'` in `C(a, a')` ways, contributing `h · a'` ones;
//! - tight-low heaps likewise: where `l = 0`, a heap that takes a 1 becomes free: `b → b'` in
//!   `C(b, b')` ways, contributing `b − b'` ones (`b` ones where `l = 1`);
//! - the free heaps put any bits: the ways to add `j ≡ r (mod q)` ones are
//!   `W(f, r) = Σ_{j ≡ r} C(f, j)`.
//!
//! The column is right when the total is a multiple of `q`. A column where both `h = 1` and
//! `l = 0` sums over `a` first for every residue, then over `b`; every column costs
//! `O(k³)` operations (`O(q·k³)` for those), exactly, modulo any number, or with big integers.
//! The answer is the sum of the states after bit 0. Ordered tuples; `K ≥ k` leaves only the
//! all-zero tuple.

use num_bigint::BigUint;
use num_traits::{One, ToPrimitive, Zero};

use super::EXACT_MAX_BITS;
use super::modulus::{self, Part};
use crate::error::{Error, Result};
use crate::progress::Progress;
use crate::ring::{Big, Integers, OddWord, Residues, Ring, TwoWord};

/// The most work a count of Moore's Nim-K may take, in word operations: 10 to 20 seconds on the
/// 2-core machine this was measured on.
pub const MOORE_MAX_WORK: u64 = 4_000_000_000;

/// The losing count and the total of the ordered `heaps`-tuples of sizes in `lo..=hi` (`lo <= hi`)
/// in Moore's Nim-`moore` (`moore >= 1`), modulo `modulus` (`>= 1`) or exactly. With `parallel`,
/// the rows of each column are computed on rayon's thread pool; without, no rayon call is made.
///
/// Refused before any work when the estimated work exceeds [`MOORE_MAX_WORK`] word operations
/// (about `k³/6 · (q + 1)` per column of the range, `q = K + 1`, times the size of the
/// numbers: exact counts of many heaps are the expensive ones), when an exact answer would
/// exceed 2^26 bits, or when `heaps` does not fit in 64 bits.
pub fn count(
    moore: u64,
    (lo, hi): (&BigUint, &BigUint),
    heaps: &BigUint,
    modulus: Option<&BigUint>,
    parallel: bool,
    progress: &dyn Progress,
) -> Result<(BigUint, BigUint)> {
    let sizes = hi - lo + 1u32;
    let Some(k) = heaps.to_u64() else {
        return Err(Error::TooMuchWork {
            what: "counting Moore's Nim",
            steps: crate::error::Estimate(None),
            limit: u128::from(MOORE_MAX_WORK),
        });
    };
    let total = match modulus {
        Some(m) => sizes.modpow(heaps, m),
        None => {
            if k.checked_mul(sizes.bits()).is_none_or(|b| b > EXACT_MAX_BITS + 1) {
                return Err(Error::AnswerTooLarge {
                    bits: crate::error::Estimate(k.checked_mul(sizes.bits()).map(u128::from)),
                    limit_log2: EXACT_MAX_BITS.trailing_zeros(),
                });
            }
            num_traits::pow(sizes.clone(), k as usize)
        }
    };
    let reduce = |x: BigUint| match modulus {
        Some(m) => x % m,
        None => x,
    };
    if modulus.is_some_and(One::is_one) {
        return Ok((BigUint::zero(), BigUint::zero()));
    }
    if moore >= k {
        // Each column holds at most k < K + 1 ones: only the all-zero tuple is lost.
        let lost = k == 0 || lo.is_zero();
        return Ok((reduce(BigUint::from(u8::from(lost))), total));
    }
    let q = moore as usize + 1;
    let k = k as usize;
    let work = estimate(lo, hi, k, q, modulus);
    if work > u128::from(MOORE_MAX_WORK) {
        return Err(Error::TooMuchWork {
            what: if modulus.is_some() {
                "counting Moore's Nim modulo this number"
            } else {
                "counting Moore's Nim exactly"
            },
            steps: crate::error::Estimate(Some(work)),
            limit: u128::from(MOORE_MAX_WORK),
        });
    }
    // The tables: binomials, two states, and the q-fold weighted states of a column.
    let elements = (3 + 2 * q as u128) * (k as u128 + 1).pow(2);
    let element_bytes = if modulus.is_some_and(|m| m.bits() <= 65) { 8 } else { 32 };
    let bytes = u64::try_from(elements * element_bytes).unwrap_or(u64::MAX);
    crate::memory::ensure_fits(|| format!("the tables for counting moore:{moore} with {k} heaps"), bytes)?;
    // Each part of the modulus in its ring: an odd word, a power of two up to 2^128, or big.
    let lost = |part: &Part| -> BigUint {
        match part {
            Part::Odd(m) => match m.to_u64().filter(|&w| w < 1 << 63) {
                Some(w) => {
                    let r = OddWord::new(w);
                    r.to_biguint(&count_lost(&r, lo, hi, k, q, parallel, progress))
                }
                None => count_lost(&Big::new(m.clone()), lo, hi, k, q, parallel, progress),
            },
            Part::Two(a) if *a <= 128 => {
                let r = TwoWord::new(*a as u32);
                r.to_biguint(&count_lost(&r, lo, hi, k, q, parallel, progress))
            }
            Part::Two(a) => count_lost(&Big::new(BigUint::one() << *a), lo, hi, k, q, parallel, progress),
        }
    };
    let losing = match modulus {
        Some(m) => modulus::by_parts(m, 1, |part| Ok(vec![lost(part)]))?.remove(0),
        None => {
            let exact = count_lost(&Integers, lo, hi, k, q, parallel, progress);
            exact.to_biguint().expect("a count is non-negative")
        }
    };
    Ok((losing, total))
}

/// Word operations the count takes: per column below the first difference of `lo` and `hi`,
/// the multiply-adds of its transition, times the words of the numbers multiplied.
fn estimate(lo: &BigUint, hi: &BigUint, k: usize, q: usize, modulus: Option<&BigUint>) -> u128 {
    let s = k as u128 + 1;
    let q = q as u128;
    // Saturating: an estimate beyond u128 reads "more than 10^38", never a wrapped figure.
    let (square, cube) = (s.saturating_mul(s) / 2, s.saturating_mul(s).saturating_mul(s) / 6);
    // The binomials and the weights of the free heaps.
    let mut ops = s.saturating_mul(s).saturating_add(q.saturating_mul(s));
    let d = (hi ^ lo).bits();
    for c in 0..d.saturating_sub(1) {
        ops = ops.saturating_add(match (hi.bit(c), lo.bit(c)) {
            (false, true) => square,
            (true, false) => q.saturating_mul(square).saturating_add((q + 2).saturating_mul(cube)),
            _ => q.saturating_mul(square).saturating_add(cube),
        });
    }
    let words = |bits: u64| u128::from(bits / 64 + 1);
    let cost = match modulus {
        Some(m) if m.bits() <= 32 || m.bits() == 65 && m.count_ones() == 1 => 1,
        Some(m) if m.bits() <= 64 => 2,
        // Big residues allocate at every step: about 100 times a word operation for 2 words.
        Some(m) => 25 * words(m.bits()) * words(m.bits()),
        // Values grow to k · log2(N) bits, coefficients to k bits.
        None => {
            2 * words((k as u64).saturating_mul((hi - lo + 1u32).bits()) / 2).saturating_mul(words(k as u64))
        }
    };
    ops.saturating_mul(cost)
}

/// The state of the count between two columns, and the tables its transitions use.
struct Columns<'a, R: Ring> {
    ar: &'a R,
    k: usize,
    q: usize,
    /// Whether the rows of a column are computed on the thread pool.
    parallel: bool,
    /// `binomial[s * (k + 1) + t] = C(t, s)`: row `s` runs over `t`.
    binomial: Vec<R::Elem>,
    /// `w[f * q + r] = Σ_{j ≡ r (mod q)} C(f, j)`.
    w: Vec<R::Elem>,
    /// `v[a * (k + 1) + b]`: tuples so far with `a` heaps tight high and `b` tight low.
    v: Vec<R::Elem>,
}

/// The ordered `k`-tuples in `lo..=hi` with every column a multiple of `q` (`1 <= q <= k`).
fn count_lost<R: Ring>(
    ar: &R,
    lo: &BigUint,
    hi: &BigUint,
    k: usize,
    q: usize,
    parallel: bool,
    progress: &dyn Progress,
) -> R::Elem {
    let s = k + 1;
    // Above the first difference (or everywhere when lo = hi) every heap repeats the prefix.
    let d = (hi ^ lo).bits();
    for c in d..hi.bits() {
        if hi.bit(c) && !k.is_multiple_of(q) {
            return ar.zero();
        }
    }
    if d == 0 {
        return ar.one();
    }
    let mut binomial = vec![ar.zero(); s * s];
    for t in 0..s {
        binomial[t] = ar.one();
        for r in 1..=t {
            binomial[r * s + t] =
                ar.add(binomial[(r - 1) * s + t - 1].clone(), binomial[r * s + t - 1].clone());
        }
    }
    let mut w = vec![ar.zero(); s * q];
    w[0] = ar.one();
    for f in 1..s {
        for r in 0..q {
            w[f * q + r] = ar.add(w[(f - 1) * q + r].clone(), w[(f - 1) * q + (r + q - 1) % q].clone());
        }
    }
    // Column d - 1 from the top: a heaps take hi's 1, the others lo's 0.
    let mut v = vec![ar.zero(); s * s];
    for a in (0..=k).step_by(q) {
        v[a * s + (k - a)] = binomial[a * s + k].clone();
    }
    let mut state = Columns { ar, k, q, parallel, binomial, w, v };
    let top = d - 1;
    progress.start("columns", top);
    for c in (0..top).rev() {
        state.column(hi.bit(c), lo.bit(c));
        progress.set_position(top - c);
    }
    progress.finish();
    state.v.iter().fold(ar.zero(), |sum, x| ar.add(sum, x.clone()))
}

impl<R: Ring> Columns<'_, R> {
    /// `W(f, r)` with `f = k − a − b`, for a residue given as any integer.
    fn w(&self, a: usize, b: usize, residue: isize) -> &R::Elem {
        let r = residue.rem_euclid(self.q as isize) as usize;
        &self.w[(self.k - a - b) * self.q + r]
    }

    /// `C(t, s)` for `t` in `from..=to`, contiguous.
    fn binomials(&self, s: usize, from: usize, to: usize) -> &[R::Elem] {
        let n = self.k + 1;
        &self.binomial[s * n + from..=s * n + to]
    }

    /// One column with bit `h` of `hi` and `l` of `lo`.
    fn column(&mut self, h: bool, l: bool) {
        let (k, q, n) = (self.k, self.q, self.k + 1);
        let ar = self.ar;
        let zero = ar.zero();
        let v = std::mem::take(&mut self.v);
        let this = &*self;
        let mut next = vec![zero.clone(); n * n];
        match (h, l) {
            (false, true) => {
                // Nobody leaves; the b tight-low heaps put 1s.
                for a in 0..=k {
                    for b in 0..=k - a {
                        next[a * n + b] = ar.mul(v[a * n + b].clone(), this.w(a, b, -(b as isize)).clone());
                    }
                }
            }
            (true, true) => {
                // g[σ][b][a] = v[a][b] · W(f, −(σ + b)) for a' ≡ σ: a' stay high, b stay low.
                let g = this.weighted(&v, true, |_, b, sigma| -((sigma + b) as isize));
                crate::parallel::indexed_chunks(&mut next, this.parallel, n, |a2, row| {
                    let sigma = a2 % q;
                    for b in 0..=k - a2 {
                        let gs = &g[(sigma * n + b) * n..][a2..=k - b];
                        row[b] = ar.dot(this.binomials(a2, a2, k - b), gs);
                    }
                });
            }
            (false, false) => {
                // g[σ][a][b] = v[a][b] · W(f, σ − b) for b' ≡ σ: b − b' low heaps leave with 1s.
                let g = this.weighted(&v, false, |_, b, sigma| sigma as isize - b as isize);
                crate::parallel::indexed_chunks(&mut next, this.parallel, n, |a, row| {
                    for b2 in 0..=k - a {
                        let gs = &g[((b2 % q) * n + a) * n..][b2..=k - a];
                        row[b2] = ar.dot(this.binomials(b2, b2, k - a), gs);
                    }
                });
            }
            (true, false) => {
                // First the high heaps for every residue ρ of the ones still to come:
                // u[a'][ρ][b] = Σ_a C(a, a') v[a][b] W(f, ρ); then the low heaps with
                // ρ = −(a' + b − b').
                let g = this.weighted(&v, true, |_, _, rho| rho as isize);
                let mut u = vec![zero.clone(); n * q * n];
                crate::parallel::indexed_chunks(&mut u, this.parallel, q * n, |a2, block| {
                    for rho in 0..q {
                        for b in 0..=k - a2 {
                            let gs = &g[(rho * n + b) * n..][a2..=k - b];
                            block[rho * n + b] = ar.dot(this.binomials(a2, a2, k - b), gs);
                        }
                    }
                });
                crate::parallel::indexed_chunks(&mut next, this.parallel, n, |a2, row| {
                    let block = &u[a2 * q * n..(a2 + 1) * q * n];
                    let mut gathered = Vec::with_capacity(n);
                    for (b2, cell) in row.iter_mut().enumerate().take(k - a2 + 1) {
                        gathered.clear();
                        // ρ = −(a' + b − b') mod q, one less for each b.
                        let mut rho = (q - a2 % q) % q;
                        for b in b2..=k - a2 {
                            gathered.push(block[rho * n + b].clone());
                            rho = if rho == 0 { q - 1 } else { rho - 1 };
                        }
                        *cell = ar.dot(this.binomials(b2, b2, k - a2), &gathered);
                    }
                });
            }
        }
        self.v = next;
    }

    /// For every residue class `σ < q`: `v[a][b] · W(f, residue(a, b, σ))`, laid out as
    /// `[σ][b][a]` (`by_b`, for sums over `a`) or `[σ][a][b]`.
    fn weighted(
        &self,
        v: &[R::Elem],
        by_b: bool,
        residue: impl Fn(usize, usize, usize) -> isize + Sync,
    ) -> Vec<R::Elem> {
        let (k, q, n) = (self.k, self.q, self.k + 1);
        let mut g = vec![self.ar.zero(); q * n * n];
        crate::parallel::indexed_chunks(&mut g, self.parallel, n * n, |sigma, plane| {
            for a in 0..=k {
                for b in 0..=k - a {
                    let x = &v[a * n + b];
                    let at = if by_b { b * n + a } else { a * n + b };
                    plane[at] = self.ar.mul(x.clone(), self.w(a, b, residue(a, b, sigma)).clone());
                }
            }
        });
        g
    }
}
