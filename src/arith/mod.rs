//! The one modular-arithmetic core of the crate: every ring, histogram and count uses these.
//!
//! - [`square_and_multiply`] over any multiplication and any [`Exponent`] (`u64`, `BigUint`);
//! - [`Montgomery`] over a [`Word`] ([`Montgomery32`], [`Montgomery64`]): products modulo odd
//!   words without division;
//! - [`Shoup32`], [`Shoup64`]: products by a fixed factor;
//! - [`Barrett64`]: reduction modulo any fixed word;
//! - number theory: [`is_prime`], [`factor`], [`factor_big`], [`inv_mod`], [`crt`], and
//!   [`ExponentRule`], which reduces a huge exponent without changing `a^k mod m` for any `a`.

pub(crate) mod barrett;
pub(crate) mod montgomery;
pub(crate) mod pow;
pub(crate) mod shoup;

pub use barrett::Barrett64;
pub use montgomery::{Montgomery, Montgomery32, Montgomery64, Word};
pub use pow::{Exponent, square_and_multiply};
pub use shoup::{Shoup32, Shoup64};

use num_bigint::{BigInt, BigUint};
use num_integer::Integer;
use num_traits::{One, ToPrimitive, Zero};

/// `a * b mod m` for `m >= 1`.
#[inline]
pub fn mul_mod(a: u64, b: u64, m: u64) -> u64 {
    ((a as u128 * b as u128) % m as u128) as u64
}

/// `a^e mod m` for any `m >= 1` (`0^0 = 1 mod m`).
pub fn pow_mod(a: u64, e: u64, m: u64) -> u64 {
    square_and_multiply(a % m, &e, 1 % m, |x, y| mul_mod(*x, *y, m))
}

/// The inverse of `a` modulo `m`, when `gcd(a, m) = 1` (and `m >= 1`; modulo 1 every inverse is 0).
pub fn inv_mod(a: u64, m: u64) -> Option<u64> {
    if m == 1 {
        return Some(0);
    }
    let (mut old_r, mut r) = (a as i128 % m as i128, m as i128);
    let (mut old_s, mut s) = (1i128, 0i128);
    while r != 0 {
        let q = old_r / r;
        (old_r, r) = (r, old_r - q * r);
        (old_s, s) = (s, old_s - q * s);
    }
    (old_r == 1).then(|| old_s.rem_euclid(m as i128) as u64)
}

/// Deterministic Miller–Rabin for every `u64` (the first twelve primes are a sufficient base set
/// below 3.3 · 10^24).
///
/// ```
/// use nimcount::arith::is_prime;
/// assert!(is_prime(998_244_353) && is_prime(u64::MAX - 58));
/// assert!(!is_prime(561)); // a Carmichael number
/// ```
pub fn is_prime(n: u64) -> bool {
    const BASES: [u64; 12] = [2, 3, 5, 7, 11, 13, 17, 19, 23, 29, 31, 37];
    if n < 2 {
        return false;
    }
    for p in BASES {
        if n.is_multiple_of(p) {
            return n == p;
        }
    }
    let s = (n - 1).trailing_zeros();
    let d = (n - 1) >> s;
    'witness: for a in BASES {
        let mut x = pow_mod(a, d, n);
        if x == 1 || x == n - 1 {
            continue;
        }
        for _ in 1..s {
            x = mul_mod(x, x, n);
            if x == n - 1 {
                continue 'witness;
            }
        }
        return false;
    }
    true
}

/// The prime factorisation of `n >= 1` as `(prime, exponent)` pairs in increasing order
/// (empty for 1). Trial division by small primes, then Pollard's rho (Brent's variant).
///
/// ```
/// assert_eq!(nimcount::arith::factor(1_234_567_890), [(2, 1), (3, 2), (5, 1), (3607, 1), (3803, 1)]);
/// ```
pub fn factor(mut n: u64) -> Vec<(u64, u32)> {
    assert!(n >= 1, "factor(0) is undefined");
    let mut primes = Vec::new();
    for p in [2u64, 3, 5, 7, 11, 13, 17, 19, 23, 29, 31, 37, 41, 43, 47] {
        while n.is_multiple_of(p) {
            primes.push(p);
            n /= p;
        }
    }
    let mut stack = vec![n];
    while let Some(m) = stack.pop() {
        if m == 1 {
            continue;
        }
        if is_prime(m) {
            primes.push(m);
            continue;
        }
        let d = pollard_rho(m);
        stack.push(d);
        stack.push(m / d);
    }
    primes.sort_unstable();
    let mut factors: Vec<(u64, u32)> = Vec::new();
    for p in primes {
        match factors.last_mut() {
            Some((q, e)) if *q == p => *e += 1,
            _ => factors.push((p, 1)),
        }
    }
    factors
}

/// A non-trivial divisor of the composite `n` (which has no prime factor below 53).
fn pollard_rho(n: u64) -> u64 {
    let f = |x: u64, c: u64| (mul_mod(x, x, n) + c) % n;
    for c in 1.. {
        // Brent's cycle detection, multiplying |x - y| over batches before each gcd.
        let (mut y, mut r, mut q) = (2u64, 1u64, 1u64);
        let (mut x, mut ys) = (y, y);
        let mut g = 1;
        while g == 1 {
            x = y;
            for _ in 0..r {
                y = f(y, c);
            }
            let mut k = 0;
            while k < r && g == 1 {
                ys = y;
                for _ in 0..128.min(r - k) {
                    y = f(y, c);
                    q = mul_mod(q, x.abs_diff(y), n);
                }
                g = q.gcd(&n);
                k += 128;
            }
            r *= 2;
        }
        if g == n {
            loop {
                ys = f(ys, c);
                g = x.abs_diff(ys).gcd(&n);
                if g > 1 {
                    break;
                }
            }
        }
        if g != n {
            return g;
        }
    }
    unreachable!("some increment c finds a factor")
}

/// The factorisation of `m >= 1` as `(prime, exponent)` pairs in increasing order, when it can be
/// found: trial division by the primes below 2^16, then the cofactor must be 1 or fit in a word
/// (factored by Pollard's rho). `None` for a larger cofactor: callers then keep exponents as they
/// are, which is always right.
pub fn factor_big(m: &BigUint) -> Option<Vec<(BigUint, u32)>> {
    let mut rest = m.clone();
    let mut factors: Vec<(BigUint, u32)> = Vec::new();
    let twos = rest.trailing_zeros().unwrap_or(0);
    if twos > 0 {
        factors.push((2u32.into(), u32::try_from(twos).ok()?));
        rest >>= twos;
    }
    let mut p = 3u32;
    while p < 1 << 16 && rest.bits() > 64 {
        let mut e = 0;
        while (&rest % p).is_zero() {
            rest /= p;
            e += 1;
        }
        if e > 0 {
            factors.push((p.into(), e));
        }
        p += 2;
    }
    let rest = rest.to_u64()?;
    for (q, e) in factor(rest) {
        match factors.iter_mut().find(|(p, _)| *p == BigUint::from(q)) {
            Some((_, f)) => *f += e,
            None => factors.push((q.into(), e)),
        }
    }
    factors.sort();
    Some(factors)
}

/// `x mod m1·m2` from `x mod m1` and `x mod m2`, for coprime `m1` and `m2`.
///
/// ```
/// use nimcount::arith::crt;
/// use nimcount::num_bigint::BigUint;
/// let x = crt(&2u32.into(), &3u32.into(), &3u32.into(), &5u32.into());
/// assert_eq!(x, BigUint::from(8u32));
/// ```
pub fn crt(r1: &BigUint, m1: &BigUint, r2: &BigUint, m2: &BigUint) -> BigUint {
    let (a, b) = (BigInt::from(m1.clone()), BigInt::from(m2.clone()));
    let e = a.extended_gcd(&b);
    debug_assert!(e.gcd.is_one(), "{m1} and {m2} are not coprime");
    // x = r1 + m1 · ((r2 − r1) · m1⁻¹ mod m2).
    let diff = BigInt::from(r2.clone()) - BigInt::from(r1.clone());
    let t = (diff * e.x).mod_floor(&b).to_biguint().expect("non-negative");
    r1 + m1 * t
}

/// `2^-d mod m` for an odd `m`: `((m + 1)/2)^d`, since `2 · (m + 1)/2 ≡ 1`.
///
/// ```
/// use nimcount::arith::inverse_power_of_two;
/// use num_bigint::BigUint;
/// let m = BigUint::from(1_000_000_007u32);
/// assert_eq!((inverse_power_of_two(20, &m) << 20u32) % &m, BigUint::from(1u32));
/// ```
pub fn inverse_power_of_two(d: u32, m: &BigUint) -> BigUint {
    debug_assert!(m.bit(0), "2 has no inverse modulo the even {m}");
    ((m + 1u32) >> 1u32).modpow(&BigUint::from(d), m)
}

/// Reduces huge exponents without changing any power modulo `m`.
///
/// For every `a` and every `k >= t`, `a^k ≡ a^(t + ((k - t) mod λ(m))) (mod m)`, where `λ` is
/// the Carmichael function and `t` is at least the largest exponent in the factorisation of `m`.
/// The rule holds for bases that share factors with `m` (unlike `k mod φ(m)`): modulo each prime
/// power `q^e`, a base divisible by `q` has `a^k ≡ 0` once `k >= e`, and a unit has order dividing
/// `λ(q^e)`, which divides `λ(m)`. Exponents below `t` are kept as they are.
///
/// ```
/// use nimcount::arith::{ExponentRule, pow_mod};
/// // Modulo 12 = 2^2 · 3: λ = 2, threshold 2. 2^(10^20) = 2^(2 + (10^20 - 2) mod 2) = 2^2 = 4.
/// let rule = ExponentRule::for_modulus(12);
/// let k: nimcount::num_bigint::BigUint = "100000000000000000000".parse().unwrap();
/// let e = rule.reduce_u64(&k).unwrap();
/// assert_eq!((e, pow_mod(2, e, 12)), (2, 4));
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ExponentRule {
    /// Exponents below this are never reduced (the largest prime exponent of `m`).
    pub threshold: u64,
    /// `λ(m)`, the exponent of the unit group modulo `m`.
    pub lambda: BigUint,
}

impl ExponentRule {
    /// The rule for a modulus given by its factorisation `(prime, exponent)` (empty for `m = 1`).
    pub fn from_factors(factors: &[(BigUint, u32)]) -> Self {
        let mut lambda = BigUint::one();
        let mut threshold = 0u64;
        let two = BigUint::from(2u8);
        for (p, e) in factors {
            threshold = threshold.max(u64::from(*e));
            let part = if *p == two {
                match e {
                    1 => BigUint::one(),
                    2 => two.clone(),
                    _ => BigUint::one() << (e - 2),
                }
            } else {
                num_traits::pow::Pow::pow(p, e - 1) * (p - 1u8)
            };
            lambda = lambda.lcm(&part);
        }
        ExponentRule { threshold, lambda }
    }

    /// The rule for a machine-word modulus `m >= 1`.
    pub fn for_modulus(m: u64) -> Self {
        let factors: Vec<(BigUint, u32)> = factor(m).into_iter().map(|(p, e)| (p.into(), e)).collect();
        Self::from_factors(&factors)
    }

    /// The rule for the modulus `2^bits`.
    pub fn for_power_of_two(bits: u32) -> Self {
        if bits == 0 {
            return Self::from_factors(&[]);
        }
        Self::from_factors(&[(BigUint::from(2u8), bits)])
    }

    /// The smallest exponent equivalent to `k` under this rule.
    pub fn reduce(&self, k: &BigUint) -> BigUint {
        let t = BigUint::from(self.threshold);
        if *k < t || self.lambda.is_zero() {
            return k.clone();
        }
        &t + (k - &t) % &self.lambda
    }

    /// [`reduce`](Self::reduce), when the result fits in a `u64` (it does whenever `λ(m)` and
    /// the threshold do, in particular for every machine-word modulus).
    pub fn reduce_u64(&self, k: &BigUint) -> Option<u64> {
        self.reduce(k).to_u64()
    }
}
