//! The pointwise functions for unordered heaps.
//!
//! With `N` heap sizes and a transformed value `Ĥ`, let `A = (N + Ĥ)/2` and `B = (N − Ĥ)/2`
//! (the weights of the sizes whose character is `+1`, resp. `−1`). The number of losing
//! multisets of `k` heaps is `F⁻¹ Σ_j c(Ĥ_j)` with
//!
//! - multisets: `c = [x^k] (1−x)^(−A) (1+x)^(−B) = Σ_i C(A+i−1, i) · (−1)^(k−i) C(B+k−i−1, k−i)`,
//! - sets: `c = [x^k] (1+x)^A (1−x)^B = Σ_i C(A, i) · (−1)^(k−i) C(B, k−i)`.
//!
//! Three evaluations, each O(k) steps per distinct `Ĥ`:
//! - **modulo any `m`** ([`Binomials`]): binomials with huge `A` need division by `i!`, which
//!   modulo a composite or even `m` is not possible directly. Every factor is split into its
//!   part made of the primes `r <= k` that divide `m` (tracked as exponents) and the rest (a unit
//!   for the denominators `t <= k`, since their primes are `<= k`): units are multiplied and
//!   divided modulo `m`, the primes `r` are multiplied back at the end as `r^e`, with `e >= 0`
//!   because binomials are integers.
//! - **exactly** ([`exact`]): the coefficients `u_n` satisfy, from `(1−x²) f' = (Ĥ + N x) f`
//!   (multisets) and `(1−x²) g' = (Ĥ − N x) g` (sets),
//!   `(n+1) u_{n+1} = Ĥ u_n + (N + n − 1) u_{n−1}`, resp. `(n+1) u_{n+1} = Ĥ u_n − (N − n + 1) u_{n−1}`,
//!   with exact divisions.
//! - **as probabilities** ([`ratio`]): `u_n` divided by the number of multisets `C(N+n−1, n)`
//!   (resp. sets `C(N, n)`) satisfies `r_{n+1} = (Ĥ r_n + n r_{n−1}) / (N + n)`, resp.
//!   `s_{n+1} = (Ĥ s_n − n s_{n−1}) / (N − n)`, all in `[−1, 1]`.

use num_bigint::{BigInt, BigUint};
use num_integer::Integer;
use num_traits::{One, ToPrimitive, Zero};

use crate::arith::factor_big;
use crate::error::{Error, Result};
use crate::memory;
use crate::ring::Residues;

/// Multisets (`--unordered`) or sets (`--distinct`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Unordered {
    Multiset,
    Set,
}

/// The coefficient `c(Ĥ)` modulo `m`, for a fixed `k` (see the module documentation).
pub struct Binomials<'r, R: Residues> {
    r: &'r R,
    k: u64,
    /// The primes `<= k` that divide `m`.
    bad: Vec<u64>,
    /// The inverse of the unit part of `t!` for `t = 0..=k`.
    inverse_factorial_units: Vec<R::Elem>,
    /// `powers[s][e] = bad[s]^e mod m` for `e <= POWER_TABLE` (beyond, by square-and-multiply).
    powers: Vec<Vec<R::Elem>>,
}

/// The most powers of each bad prime kept in a table.
const POWER_TABLE: usize = 1 << 12;

/// Memory for the tables of `k + 1` entries, refused when it cannot fit: the shared inverse
/// factorials (and, while they are built, the units), and per thread one stored sequence of
/// residues with their exponents.
fn reserve(k: u64, residue_bytes: usize, primes: usize) -> Result<()> {
    // At most the threads of the pool this runs in; outside any pool, those of the machine (asking
    // rayon would start its global pool, even for a query that must not touch it).
    let threads = match rayon::current_thread_index() {
        Some(_) => rayon::current_num_threads(),
        None => std::thread::available_parallelism().map_or(1, |n| n.get()),
    } as u128;
    let per_entry = residue_bytes as u128 * (2 + threads) + 4 * primes as u128 * threads;
    let bytes = memory::bytes_for::<u8>(|| "the binomial tables".into(), (u128::from(k) + 1) * per_entry)?;
    memory::ensure_fits(|| format!("the binomial tables for {k} heaps"), bytes)
}

impl<'r, R: Residues> Binomials<'r, R> {
    /// Prepares the tables for `k` heaps and the largest factor value `max_factor` (an upper
    /// bound on `A + k` and `B + k`).
    pub fn new(r: &'r R, k: u64, max_factor: &BigUint) -> Result<Self> {
        let bad = bad_primes(&r.modulus(), k);
        reserve(k, std::mem::size_of::<R::Elem>(), bad.len())?;
        // Unit parts of 1..=k, their running product, one inversion, then back down:
        // inv(u(t-1)!) = inv(u(t)!) · u(t).
        let mut units = Vec::with_capacity(k as usize + 1);
        units.push(r.one());
        let mut product = r.one();
        for t in 1..=k {
            let u = r.residue_u128(u128::from(strip(t, &bad)));
            product = r.mul(product, u.clone());
            units.push(u);
        }
        let mut inverse = r.inverse(&product).expect("the primes of t <= k not dividing m are units");
        let mut inverse_factorial_units = vec![r.zero(); k as usize + 1];
        for t in (0..=k as usize).rev() {
            inverse_factorial_units[t] = inverse.clone();
            inverse = r.mul(inverse, units[t].clone());
        }
        // Kummer: v_r(C(n, i)) is the number of carries adding i and n − i in base r, at most
        // the number of base-r digits of n <= max_factor; a product of two binomials at most twice.
        // Factors of millions of bits would make that table huge: larger exponents are rare
        // (each needs as many carries) and are raised when they come.
        let max_exponent = (2 * (max_factor.bits() as usize + 1)).min(POWER_TABLE);
        let powers = bad
            .iter()
            .map(|&p| {
                let base = r.residue_u128(u128::from(p));
                let mut table = vec![r.one()];
                for e in 1..=max_exponent {
                    table.push(r.mul(table[e - 1].clone(), base.clone()));
                }
                table
            })
            .collect();
        Ok(Binomials { r, k, bad, inverse_factorial_units, powers })
    }

    /// `c(Ĥ)` for `A = (N + Ĥ)/2`, `B = (N − Ĥ)/2`.
    pub fn coefficient(&self, kind: Unordered, a: &BigUint, b: &BigUint) -> R::Elem {
        let (r, k) = (self.r, self.k as usize);
        let width = self.bad.len();
        // a_i = C(A + i − 1, i) (multisets) or C(A, i) (sets) for i = 0..=k, as a unit residue and
        // the exponents of the bad primes; `a_len` entries before the sequence turns zero.
        let mut a_units = Vec::with_capacity(k + 1);
        let mut a_exponents: Vec<u32> = Vec::with_capacity((k + 1) * width);
        let mut a = self.sequence(kind, a);
        while let Some((unit, exponents)) = a.next() {
            a_units.push(unit);
            a_exponents.extend(exponents.iter().map(|&e| e as u32));
        }
        let mut sum = r.zero();
        let mut b = self.sequence(kind, b);
        let mut j = 0;
        while let Some((b_unit, b_exponents)) = b.next() {
            let i = k - j;
            if i < a_units.len() {
                // term = a_i · b_j, with sign (−1)^j from (1+x)^(−B), resp. (1−x)^B.
                let mut term = r.mul(a_units[i].clone(), b_unit);
                for s in 0..width {
                    let e = a_exponents[i * width + s] as usize + b_exponents[s] as usize;
                    if e > 0 {
                        term = r.mul(term, self.power(s, e));
                    }
                }
                sum = if j % 2 == 0 { r.add(sum, term) } else { r.sub(sum, term) };
            }
            j += 1;
        }
        sum
    }

    /// `Σ_{j <= k} c_j(Ĥ)`, the coefficient of `x^k` in the generating function times
    /// `1/(1 − x)` (see [`crate::count::geometric`]): multisets as the coefficient of `A + 1, B`,
    /// sets as that of `A, B − 1`, or for `B = 0` the partial sum of `C(A, i)`. The tables must
    /// have been built for factors up to `N + 1 + k`.
    pub(crate) fn cumulative(&self, kind: Unordered, a: &BigUint, b: &BigUint) -> R::Elem {
        match kind {
            Unordered::Multiset => self.coefficient(kind, &(a + 1u32), b),
            Unordered::Set if !b.is_zero() => self.coefficient(kind, a, &(b - 1u32)),
            Unordered::Set => {
                let (r, width) = (self.r, self.bad.len());
                let mut sum = r.zero();
                let mut terms = self.sequence(kind, a);
                while let Some((unit, exponents)) = terms.next() {
                    let mut term = unit;
                    for (s, &e) in exponents.iter().enumerate().take(width) {
                        if e > 0 {
                            term = r.mul(term, self.power(s, e as usize));
                        }
                    }
                    sum = r.add(sum, term);
                }
                sum
            }
        }
    }

    /// The binomials `C(X + i − 1, i)` (multisets) or `C(X, i)` (sets) for `i = 0..=k`, modulo
    /// `m`, up to the first that is zero (sets of more than `X` elements): the coefficients of
    /// `(1 − x)^(−X)`, resp. `(1 + x)^X`. The tables must have been built for factors up to
    /// `X + k`.
    pub(crate) fn binomials(&self, kind: Unordered, x: &BigUint) -> Vec<R::Elem> {
        let mut out = Vec::with_capacity(self.k as usize + 1);
        let mut terms = self.sequence(kind, x);
        while let Some((unit, exponents)) = terms.next() {
            let mut term = unit;
            for (s, &e) in exponents.iter().enumerate() {
                if e > 0 {
                    term = self.r.mul(term, self.power(s, e as usize));
                }
            }
            out.push(term);
        }
        out
    }

    /// `bad[s]^e mod m`.
    fn power(&self, s: usize, e: usize) -> R::Elem {
        match self.powers[s].get(e) {
            Some(p) => p.clone(),
            None => crate::ring::pow_reduced(self.r, self.powers[s][1].clone(), &BigUint::from(e)),
        }
    }

    /// The binomials `C(X + i − 1, i)` (multisets) or `C(X, i)` (sets) for `i = 0..=k`, until
    /// they turn zero, as (unit residue, exponents of the bad primes).
    fn sequence<'s>(&'s self, kind: Unordered, x: &BigUint) -> Sequence<'s, 'r, R> {
        let width = self.bad.len();
        Sequence {
            b: self,
            numerator: Walker::new(self.r, &self.bad, x, kind == Unordered::Multiset, self.k),
            i: 0,
            unit: self.r.one(),
            exponents: vec![0; width],
            factor_exponents: vec![0; width],
            denominator_residues: vec![0; width],
            done: false,
        }
    }
}

/// Iterator over the binomials of one sequence.
struct Sequence<'s, 'r, R: Residues> {
    b: &'s Binomials<'r, R>,
    numerator: Walker<'s, R>,
    i: u64,
    /// Product of the numerator units so far.
    unit: R::Elem,
    /// Net exponents (numerator minus `i!`) of the bad primes.
    exponents: Vec<i64>,
    factor_exponents: Vec<u32>,
    denominator_residues: Vec<u64>,
    done: bool,
}

impl<R: Residues> Sequence<'_, '_, R> {
    /// The next binomial, as (unit · inverse unit of i!, exponents).
    fn next(&mut self) -> Option<(R::Elem, &[i64])> {
        if self.done || self.i > self.b.k {
            return None;
        }
        if self.i > 0 {
            let Some(factor) = self.numerator.next(&mut self.factor_exponents) else {
                self.done = true; // a zero factor: every later binomial is 0
                return None;
            };
            self.unit = self.b.r.mul(self.unit.clone(), factor);
            // Denominator i: subtract v_r(i) for each bad prime r dividing it.
            for (s, &p) in self.b.bad.iter().enumerate() {
                self.exponents[s] += i64::from(self.factor_exponents[s]);
                self.denominator_residues[s] += 1;
                if self.denominator_residues[s] == p {
                    self.denominator_residues[s] = 0;
                    let mut t = self.i;
                    while t.is_multiple_of(p) {
                        t /= p;
                        self.exponents[s] -= 1;
                    }
                }
            }
        }
        let unit = self.b.r.mul(self.unit.clone(), self.b.inverse_factorial_units[self.i as usize].clone());
        self.i += 1;
        debug_assert!(self.exponents.iter().all(|&e| e >= 0), "binomials are integers");
        Some((unit, &self.exponents))
    }
}

/// The numerator factors `X, X + 1, …` (multisets) or `X, X − 1, …` (sets): for each, its unit
/// part modulo `m` and the exponents of the bad primes.
///
/// The factors are words while the walk stays below `2^127`. Larger ones (`X >= 2^126`, of
/// millions of bits for huge ranges) are never zero within `k <= 2^64` steps and are never
/// touched as big integers step by step: only their residues move. When a bad prime `p`
/// divides the factor, its unit part comes from the factor modulo `W = m · Π p^(L_p)`, with
/// `p^(L_p)` the smallest power above `k`: while `v_p(x) < L_p` for every bad `p`,
/// `x / Π p^(v_p) ≡ y / Π p^(v_p)` modulo a multiple of `m` for `y = x mod W`. Among `k + 1`
/// consecutive factors at most one is divisible by `p^(L_p)`: that one is divided exactly.
struct Walker<'s, R: Residues> {
    r: &'s R,
    bad: &'s [u64],
    x: Value,
    up: bool,
    /// `x mod m`, kept by adding or subtracting one.
    residue: R::Elem,
    /// `x mod bad[s]`.
    bad_residues: Vec<u64>,
}

/// A numerator factor: a word while it fits, else its start and the steps taken.
enum Value {
    Word(u128),
    Huge(Huge),
}

/// A factor `X ± steps` with `X >= 2^126`.
struct Huge {
    start: BigUint,
    steps: u64,
    /// `L_p` for each bad prime.
    limits: Vec<u32>,
    /// `X mod W` and `W`, as words when `W < 2^127`, else as big integers.
    reduced: Reduced,
}

enum Reduced {
    Word {
        start: u128,
        modulus: u128,
    },
    Big {
        start: BigUint,
        modulus: BigUint,
    },
    /// No bad prime: the residue modulo `m` is all there is to know.
    None,
}

impl<'s, R: Residues> Walker<'s, R> {
    fn new(r: &'s R, bad: &'s [u64], x: &BigUint, up: bool, k: u64) -> Self {
        let x_value = match x.to_u128() {
            Some(w) if w < 1 << 126 => Value::Word(w),
            _ => {
                let limits: Vec<u32> = bad
                    .iter()
                    .map(|&p| {
                        let (mut power, mut l) = (BigUint::one(), 0);
                        while power <= BigUint::from(k) {
                            power *= p;
                            l += 1;
                        }
                        l
                    })
                    .collect();
                let reduced = if bad.is_empty() {
                    Reduced::None
                } else {
                    let mut w = r.modulus();
                    for (&p, &l) in bad.iter().zip(&limits) {
                        w *= BigUint::from(p).pow(l);
                    }
                    let start = x % &w;
                    match (start.to_u128(), w.to_u128()) {
                        (Some(start), Some(modulus)) if modulus < 1 << 127 => {
                            Reduced::Word { start, modulus }
                        }
                        _ => Reduced::Big { start, modulus: w },
                    }
                };
                Value::Huge(Huge { start: x.clone(), steps: 0, limits, reduced })
            }
        };
        let bad_residues = bad.iter().map(|&p| (x % p).to_u64().expect("below p")).collect();
        Walker { r, bad, x: x_value, up, residue: r.residue_big(x), bad_residues }
    }

    /// The unit part of the current factor and its exponents (into `exponents`), then steps;
    /// `None` when the factor is zero.
    fn next(&mut self, exponents: &mut [u32]) -> Option<R::Elem> {
        if matches!(self.x, Value::Word(0)) {
            return None;
        }
        exponents.iter_mut().for_each(|e| *e = 0);
        let divisible = self.bad_residues.contains(&0);
        let unit = if !divisible {
            self.residue.clone()
        } else {
            match &self.x {
                Value::Word(w) => {
                    let y = strip_word(*w, self.bad, &self.bad_residues, None, exponents).expect("no limit");
                    self.r.residue_u128(y)
                }
                Value::Huge(huge) => huge.unit(self.r, self.bad, &self.bad_residues, self.up, exponents),
            }
        };
        // Step to the next factor.
        let one = self.r.one();
        if self.up {
            self.residue = self.r.add(self.residue.clone(), one);
            for (res, &p) in self.bad_residues.iter_mut().zip(self.bad) {
                *res = if *res + 1 == p { 0 } else { *res + 1 };
            }
        } else {
            self.residue = self.r.sub(self.residue.clone(), one);
            for (res, &p) in self.bad_residues.iter_mut().zip(self.bad) {
                *res = if *res == 0 { p - 1 } else { *res - 1 };
            }
        }
        match &mut self.x {
            Value::Word(w) if self.up => *w += 1,
            Value::Word(w) => *w -= 1,
            Value::Huge(huge) => huge.steps += 1,
        }
        Some(unit)
    }
}

impl Huge {
    /// The unit part of the factor `X ± steps` (divisible by some bad prime) and its exponents.
    fn unit<R: Residues>(
        &self,
        r: &R,
        bad: &[u64],
        residues: &[u64],
        up: bool,
        exponents: &mut [u32],
    ) -> R::Elem {
        let reduced = match &self.reduced {
            Reduced::Word { start, modulus } => {
                let i = u128::from(self.steps) % modulus;
                let y = if up { (start + i) % modulus } else { (start + modulus - i) % modulus };
                strip_word(y, bad, residues, Some(&self.limits), exponents).map(|y| r.residue_u128(y))
            }
            Reduced::Big { start, modulus } => {
                let i = BigUint::from(self.steps) % modulus;
                let y = if up { (start + i) % modulus } else { (start + modulus - i) % modulus };
                strip_big(y, bad, residues, Some(&self.limits), exponents).map(|y| r.residue_big(&y))
            }
            Reduced::None => unreachable!("no bad prime divides"),
        };
        reduced.unwrap_or_else(|| {
            // A factor divisible by some p^(L_p): at most one per prime in the walk.
            exponents.iter_mut().for_each(|e| *e = 0);
            let x = if up { &self.start + self.steps } else { &self.start - self.steps };
            let y = strip_big(x, bad, residues, None, exponents).expect("no limit");
            r.residue_big(&y)
        })
    }
}

/// `y` without its factors from the bad primes that divide it (`residues[s] == 0`), their
/// exponents added to `exponents`; `None` when some exponent reaches its limit.
fn strip_word(
    mut y: u128,
    bad: &[u64],
    residues: &[u64],
    limits: Option<&[u32]>,
    exponents: &mut [u32],
) -> Option<u128> {
    for (s, &p) in bad.iter().enumerate() {
        if residues[s] == 0 {
            let p = u128::from(p);
            while y.is_multiple_of(p) {
                y /= p;
                exponents[s] += 1;
                if limits.is_some_and(|l| exponents[s] >= l[s]) {
                    return None;
                }
            }
        }
    }
    Some(y)
}

/// [`strip_word`] for big integers.
fn strip_big(
    mut y: BigUint,
    bad: &[u64],
    residues: &[u64],
    limits: Option<&[u32]>,
    exponents: &mut [u32],
) -> Option<BigUint> {
    for (s, &p) in bad.iter().enumerate() {
        if residues[s] == 0 {
            let p = BigUint::from(p);
            loop {
                let (q, rem) = y.div_rem(&p);
                if !rem.is_zero() {
                    break;
                }
                y = q;
                exponents[s] += 1;
                if limits.is_some_and(|l| exponents[s] >= l[s]) {
                    return None;
                }
            }
        }
    }
    Some(y)
}

/// `t` without its factors from `bad`.
fn strip(mut t: u64, bad: &[u64]) -> u64 {
    for &p in bad {
        while t.is_multiple_of(p) {
            t /= p;
        }
    }
    t
}

/// The primes `<= k` that divide `m >= 1`.
pub fn bad_primes(m: &BigUint, k: u64) -> Vec<u64> {
    if let Some(factors) = factor_big(m) {
        return factors.into_iter().filter_map(|(p, _)| p.to_u64()).filter(|&p| p <= k).collect();
    }
    // A modulus that could not be factored has no prime factor below 2^16 other than those
    // `factor_big` would have found; test every prime up to k.
    primes_up_to(k).into_iter().filter(|&p| (m % p).is_zero()).collect()
}

/// The primes `<= n` (sieve of Eratosthenes).
fn primes_up_to(n: u64) -> Vec<u64> {
    let n = n as usize;
    let mut composite = vec![false; n + 1];
    let mut primes = Vec::new();
    for i in 2..=n {
        if !composite[i] {
            primes.push(i as u64);
            let mut j = i * i;
            while j <= n {
                composite[j] = true;
                j += i;
            }
        }
    }
    primes
}

/// `c(Ĥ)` exactly, by the recurrence of the module documentation (`n` = N, `h` = Ĥ).
pub fn exact(kind: Unordered, n: &BigUint, h: &BigInt, k: u64) -> BigInt {
    let n = BigInt::from(n.clone());
    let (mut previous, mut current) = (BigInt::zero(), BigInt::one()); // u_{−1}, u_0
    for step in 0..k {
        // (step + 1) u_{step+1} = Ĥ u_step ± (N ± step ∓ 1) u_{step−1}; the division is exact.
        let other = match kind {
            Unordered::Multiset => (&n + step - 1u32) * &previous,
            Unordered::Set => -((&n - step + 1u32) * &previous),
        };
        let next = (h * &current + other) / (step + 1);
        previous = std::mem::replace(&mut current, next);
    }
    current
}

/// `c(Ĥ)` divided by the number of multisets `C(N+k−1, k)` (or sets `C(N, k)`), in floating
/// point; `x = Ĥ/N`. For sets `k <= N`.
pub fn ratio(kind: Unordered, n: f64, x: f64, k: u64) -> f64 {
    let (mut previous, mut current) = (0.0f64, 1.0f64);
    for step in 0..k {
        let s = step as f64 / n;
        let next = match kind {
            Unordered::Multiset => (x * current + s * previous) / (1.0 + s),
            Unordered::Set => (x * current - s * previous) / (1.0 - s),
        };
        previous = std::mem::replace(&mut current, next);
    }
    current
}

/// The most work steps a query may take unless it says otherwise
/// ([`Query::max_work`](crate::count::Query::max_work)): about ten seconds on one core of the
/// development machine, a step being about 25 ns (one coefficient step modulo a word).
pub const MAX_STEPS: u128 = 400_000_000;

/// The steps of [`check_work`]: `(k + 1) · values · word_cost`, `None` beyond counting.
pub(crate) fn work_steps(values: usize, k: &BigUint, word_cost: u64) -> Option<u128> {
    k.to_u64().and_then(|k| {
        (u128::from(k) + 1).checked_mul(values as u128)?.checked_mul(u128::from(word_cost.max(1)))
    })
}

/// Refuses an O(k)-per-value computation whose estimated work (`values` distinct transformed
/// values × (k + 1) steps × `word_cost`) exceeds `limit` ([`MAX_STEPS`] unless the query says
/// otherwise); `k` otherwise.
pub(crate) fn check_work(
    values: usize,
    k: &BigUint,
    word_cost: u64,
    what: &'static str,
    limit: u128,
) -> Result<u64> {
    let steps = work_steps(values, k, word_cost);
    match (k.to_u64(), steps) {
        (Some(k), Some(steps)) if steps <= limit => Ok(k),
        _ => Err(Error::TooMuchWork { what, steps: crate::error::Estimate(steps), limit }),
    }
}

/// The most heap sizes `N` counted by [`few_sizes`].
const FEW_SIZES: u64 = 64;

/// The most XOR values of subsets [`few_sizes`] keeps apart (`2^r` for `r` distinct Grundy
/// values in general, fewer when they are dependent).
const FEW_XORS: usize = 1 << 12;

/// The losing and total positions of `k` unordered heaps (multisets, or sets of distinct sizes)
/// over at most [`FEW_SIZES`] heap sizes, in closed form for any `k`: exactly, or modulo `m`.
/// `None` for ordered heaps, more sizes, or sizes whose Grundy values span more than
/// [`FEW_XORS`] XOR values.
///
/// Only the parity of how often a size is taken moves the XOR. A multiset of `k` heaps is a set
/// `S` of the sizes taken an odd number of times, `|S| ≡ k (mod 2)`, plus `(k − |S|)/2` pairs
/// spread over the `N` sizes in `C(N − 1 + (k − |S|)/2, N − 1)` ways; it is losing exactly when
/// the values of `S` XOR to 0. With `Z_s` the number of sets of `s` sizes whose values XOR to 0:
///
/// - multisets: losing `= Σ_{s ≤ min(N, k), s ≡ k (2)} Z_s · C(N − 1 + (k − s)/2, N − 1)`, total
///   `C(N − 1 + k, N − 1)`;
/// - sets: losing `= Z_k` (0 when `k > N`), total `C(N, k)`.
///
/// (One size of value `g`: one multiset, losing when `k` is even or `g = 0`. Two sizes: the
/// `k + 1` multisets `(i, k − i)`.) `Z_s` comes from a table of subsets by XOR and size, one
/// Grundy value at a time; the binomials `C(j + r, r)` with `r = N − 1 < 64` modulo `m` as the
/// product of `j + 1 … j + r` modulo `m · r!`, divided by `r!`.
pub fn few_sizes(
    kind: Option<Unordered>,
    histogram: &crate::histogram::Histogram,
    k: &BigUint,
    m: Option<&BigUint>,
) -> Option<(BigUint, BigUint)> {
    let kind = kind?;
    let n = histogram.total().to_u64().filter(|&n| (1..=FEW_SIZES).contains(&n))?;
    let zero_sets = xor_zero_sets(&values_of(histogram)?, n)?;
    let reduce = |x: BigUint| match m {
        Some(m) => x % m,
        None => x,
    };
    Some(match kind {
        Unordered::Set => {
            let k = k.to_u64().filter(|&k| k <= n);
            let losing = k.map_or(0, |k| zero_sets[k as usize]);
            let total = k.map_or(BigUint::zero(), |k| binomial_word(n, k));
            (reduce(BigUint::from(losing)), reduce(total))
        }
        Unordered::Multiset => {
            let r = n - 1;
            let mut losing = BigUint::zero();
            for (s, &z) in zero_sets.iter().enumerate() {
                let s = BigUint::from(s);
                if z == 0 || s > *k || (k - &s).bit(0) {
                    continue;
                }
                losing += binomial_small(&((k - &s) >> 1u8), r, m) * z;
            }
            (reduce(losing), binomial_small(k, r, m))
        }
    })
}

/// Every Grundy value with its number of heap sizes, for a histogram of at most
/// [`FEW_SIZES`] sizes.
fn values_of(histogram: &crate::histogram::Histogram) -> Option<Vec<(BigUint, u64)>> {
    let mut values: std::collections::BTreeMap<BigUint, u64> = std::collections::BTreeMap::new();
    if let Some((shift, progressions)) = histogram.progressions() {
        for p in progressions.iter().filter(|p| !p.weight.is_zero()) {
            let weight = p.weight.to_u64()?;
            let mut q = p.lo.clone();
            while q <= p.hi {
                *values.entry((&q << shift) + p.residue).or_default() += weight;
                q += 1u8;
            }
        }
    } else {
        for term in histogram.terms() {
            let weight = term.weight().to_u64()?;
            term.for_each(|g, c| *values.entry(BigUint::from(g)).or_default() += weight * u64::from(c));
        }
    }
    Some(values.into_iter().filter(|&(_, c)| c > 0).collect())
}

/// `Z_s` for `s = 0..=n`: the sets of `s` of the `n` sizes whose values XOR to 0; `None` when
/// the subsets have more than [`FEW_XORS`] XOR values.
fn xor_zero_sets(values: &[(BigUint, u64)], n: u64) -> Option<Vec<u128>> {
    let n = n as usize;
    // by_xor[x][s]: sets of s sizes among the values so far whose values XOR to x (at most 2^64).
    let mut by_xor: std::collections::HashMap<BigUint, Vec<u128>> = std::collections::HashMap::new();
    let mut empty = vec![0u128; n + 1];
    empty[0] = 1;
    by_xor.insert(BigUint::zero(), empty);
    for (value, count) in values {
        let c = *count as usize;
        let mut next: std::collections::HashMap<BigUint, Vec<u128>> = std::collections::HashMap::new();
        for (x, sets) in &by_xor {
            for t in 0..=c {
                let ways = binomial_word(c as u64, t as u64).to_u128().expect("C(64, t) < 2^64");
                let y = if t % 2 == 1 { x ^ value } else { x.clone() };
                let to = next.entry(y).or_insert_with(|| vec![0; n + 1]);
                for s in 0..=n - t {
                    to[s + t] += sets[s] * ways;
                }
            }
        }
        if next.len() > FEW_XORS {
            return None;
        }
        by_xor = next;
    }
    by_xor.remove(&BigUint::zero())
}

/// `C(n, k)` exactly, for word arguments.
fn binomial_word(n: u64, k: u64) -> BigUint {
    if k > n {
        return BigUint::zero();
    }
    let mut c = BigUint::one();
    for i in 0..k.min(n - k) {
        c = c * (n - i) / (i + 1);
    }
    c
}

/// `C(j + r, r)` for a small `r`, exactly or modulo `m`: the product of `j + 1 … j + r` (which
/// `r!` divides) taken modulo `m · r!`, then divided by `r!` — exact, since `(X mod m·f)/f ≡
/// X/f (mod m)` when `f` divides `X`.
fn binomial_small(j: &BigUint, r: u64, m: Option<&BigUint>) -> BigUint {
    let factorial: BigUint = (1..=r).map(BigUint::from).product();
    let wide = m.map(|m| m * &factorial);
    let mut product = BigUint::one();
    for i in 1..=r {
        product *= j + i;
        if let Some(w) = &wide {
            product %= w;
        }
    }
    let c = product / factorial;
    match m {
        Some(m) => c % m,
        None => c,
    }
}
