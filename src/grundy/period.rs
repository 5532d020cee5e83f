//! Finding the smallest certified period in a computed prefix of values.
//!
//! For a shift `p`, let `tail(p)` be the smallest `n0` with `x[n] = x[n + p]` for every
//! `n0 <= n < N - p`. The Z-function of the reversed sequence gives `tail(p)` for every `p` at
//! once in O(N): matching from the end backwards is a common prefix of the reversed sequence
//! and its suffix starting at `p`. A shift is then proven a period by the game's theorem when
//! its window, starting at `tail(p)`, fits in the prefix. The first shift that is proven is
//! the smallest period: every eventual period is a multiple of the smallest one, whose
//! preperiod is the same and whose window is no longer.

/// `z[i]` = length of the longest common prefix of `s` and `s[i..]` (`z[0] = s.len()`).
pub(crate) fn z_function<T: Eq>(s: &[T]) -> Vec<u32> {
    let n = s.len();
    let mut z = vec![0u32; n];
    if n == 0 {
        return z;
    }
    z[0] = n as u32;
    // [left, right) is the rightmost segment found so far that matches a prefix.
    let (mut left, mut right) = (0usize, 0usize);
    for i in 1..n {
        let mut k = if i < right { (z[i - left] as usize).min(right - i) } else { 0 };
        while i + k < n && s[k] == s[i + k] {
            k += 1;
        }
        z[i] = k as u32;
        if i + k > right {
            (left, right) = (i, i + k);
        }
    }
    z
}

/// For every shift `p` in `0..x.len()`: the smallest `n0` such that `x[n] = x[n + p]` for
/// all `n0 <= n < x.len() - p` (entry 0 is 0).
pub fn tails<T: Eq + Copy>(x: &[T]) -> Vec<u32> {
    let n = x.len();
    let reversed: Vec<T> = x.iter().rev().copied().collect();
    let mut tail = z_function(&reversed);
    for (p, t) in tail.iter_mut().enumerate() {
        *t = (n - p - *t as usize) as u32;
    }
    tail
}

/// Given that `seq(x + p) = seq(x)` for every `x >= q` (proven), returns the smallest period
/// `d` (a divisor of `p`) of that tail and the smallest `n0` from which `d` holds.
///
/// `seq` must be defined on `0..q + 2p`.
pub fn minimise<T: Eq>(seq: impl Fn(u64) -> T, q: u64, p: u64) -> (u64, u64) {
    let divisors = {
        let mut small = Vec::new();
        let mut large = Vec::new();
        let mut d = 1;
        while d * d <= p {
            if p.is_multiple_of(d) {
                small.push(d);
                if d * d != p {
                    large.push(p / d);
                }
            }
            d += 1;
        }
        small.extend(large.into_iter().rev());
        small
    };
    // The smallest period of a p-periodic tail divides p, and is one when it holds over one
    // whole period.
    let period = divisors.into_iter().find(|&d| (q..q + p).all(|x| seq(x) == seq(x + d))).unwrap_or(p);
    let mut n0 = q;
    while n0 > 0 && seq(n0 - 1) == seq(n0 - 1 + period) {
        n0 -= 1;
    }
    (n0, period)
}
