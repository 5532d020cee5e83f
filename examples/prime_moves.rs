//! Counting the positions of games defined here, not in nimcount: a move removes a prime
//! number of stones from one heap.
//!
//! ```sh
//! cargo run --release --example prime_moves
//! ```
//!
//! `PrimeMoves` declares that its moves are the same from every heap (an infinite set), so its
//! values come from nimcount's fast method for subtraction-type games; no theorem proves a
//! period for an infinite set, so a count needs the values of its whole range. `SmallPrimes`
//! allows only primes below a bound: a finite subtraction set, whose period the
//! subtraction-window theorem proves, so its counts reach any range.

use std::sync::Mutex;

use nimcount::Result;
use nimcount::count::{Counts, Kind, Query};
use nimcount::game::{Game, HeapGame, Structure};
use nimcount::grundy::find_period;
use nimcount::progress::Silent;

/// The primes up to a bound, sieved again (twice as far) when a larger heap asks.
#[derive(Default)]
struct Primes(Mutex<(u64, Vec<u64>)>);

impl Primes {
    /// Calls `f(p)` for every prime `p <= n`, in increasing order.
    fn each_up_to(&self, n: u64, mut f: impl FnMut(u64)) {
        let mut sieved = self.0.lock().unwrap_or_else(|e| e.into_inner());
        if sieved.0 < n {
            let limit = n.max(1024) * 2;
            let mut composite = vec![false; limit as usize + 1];
            let mut primes = Vec::new();
            for k in 2..=limit {
                if !composite[k as usize] {
                    primes.push(k);
                    for multiple in (k * k..=limit).step_by(k as usize) {
                        composite[multiple as usize] = true;
                    }
                }
            }
            *sieved = (limit, primes);
        }
        sieved.1.iter().take_while(|&&p| p <= n).for_each(|&p| f(p));
    }
}

/// Remove a prime number of stones from one heap.
#[derive(Default)]
pub struct PrimeMoves {
    primes: Primes,
}

impl HeapGame for PrimeMoves {
    fn options(&self, n: u64, option: &mut dyn FnMut(&[u64])) {
        self.primes.each_up_to(n, |p| if p == n { option(&[]) } else { option(&[n - p]) });
    }

    fn name(&self) -> String {
        "remove a prime".into()
    }

    fn structure(&self) -> Structure {
        // The same moves from every heap, infinitely many of them.
        Structure::Subtraction { largest_move: None }
    }
}

/// Remove a prime number of stones below `bound`.
pub struct SmallPrimes {
    bound: u64,
    primes: Primes,
}

impl SmallPrimes {
    /// Primes below `bound`.
    pub fn below(bound: u64) -> Self {
        SmallPrimes { bound, primes: Primes::default() }
    }
}

impl HeapGame for SmallPrimes {
    fn options(&self, n: u64, option: &mut dyn FnMut(&[u64])) {
        self.primes
            .each_up_to(n.min(self.bound - 1), |p| if p == n { option(&[]) } else { option(&[n - p]) });
    }

    fn name(&self) -> String {
        format!("remove a prime below {}", self.bound)
    }

    fn structure(&self) -> Structure {
        // A finite set: the subtraction-window theorem applies.
        Structure::Subtraction { largest_move: Some(self.bound - 1) }
    }
}

/// Positions of `heaps` heaps, each of `lo..=hi` stones, of `game`, modulo `modulus`.
pub fn count(
    game: impl HeapGame + 'static,
    lo: u64,
    hi: u64,
    heaps: u64,
    kind: Kind,
    modulus: Option<u64>,
) -> Result<Counts> {
    let query = Query::new(Game::custom(game)).sizes(lo, hi).heaps(heaps).kind(kind);
    match modulus {
        Some(m) => query.modulus(m).count(),
        None => query.count(),
    }
}

#[allow(dead_code)] // the tests include this file for its games
fn main() -> Result<()> {
    let started = std::time::Instant::now();
    let counts = count(PrimeMoves::default(), 1, 1_000_000, 3, Kind::Ordered, Some(1_000_000_007))?;
    println!(
        "remove a prime, 3 heaps of 1..=10^6 stones, modulo 10^9+7: losing {} ({:.1} s)",
        counts.losing,
        started.elapsed().as_secs_f64()
    );

    let small = SmallPrimes::below(30);
    let search = find_period(&small, 1 << 16, &Silent)?;
    let c = search.certificate.as_ref().expect("a finite subtraction set is periodic");
    println!("remove a prime below 30: preperiod {}, period {} ({})", c.preperiod, c.period, c.theorem);
    let counts = count(small, 1, 10u64.pow(15), 3, Kind::Multiset, Some(1_000_000_007))?;
    println!("  3 heaps of 1..=10^15 stones, unordered, modulo 10^9+7: losing {}", counts.losing);
    Ok(())
}
