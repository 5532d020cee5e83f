//! The losing count on every process ([`Query::count_distributed`], feature `mpi`): each builds its block of the histogram's residues,
//! transforms, raises its part of the spectrum to the k-th power and sums it; one gather of the
//! sums finishes `S = Σ_j Ĥ_j^k`, and `L = S / F` as the single-process engine reads it.

use std::borrow::Cow;
use std::ops::Range;
use std::time::Instant;

use mpi::traits::Communicator;
use num_bigint::BigUint;
use num_traits::{One, ToPrimitive, Zero};

use super::modulus::{self, Part, winning};
use super::{Counts, Kind, Query, Report, Stages};
use crate::arith::{crt, is_prime};
use crate::distributed::{Plan, Sharing, agree};
use crate::error::{Error, Estimate, Result};
use crate::fwht::Backend;
use crate::histogram::Histogram;
use crate::ring::{Mod32, Mod64, Ring, TwoWord, Wrap64};

/// `log2` of the most bits an exact distributed answer may have: it is read from primes of 62
/// bits by the Chinese remainder theorem, one distributed transform per prime (67 at most).
pub const DISTRIBUTED_EXACT_MAX_BITS_LOG2: u32 = 12;

impl Query<'_> {
    /// The losing, winning and total counts of this query, computed by every process of `comm`
    /// together; every process returns them. Collective (feature `mpi`).
    ///
    /// Ordered positions in normal play, exactly or modulo any `M` whose odd part is below `2^63`
    /// and whose power of two `2^a` has `a + d <= 128` for the `2^d` slots of the transform. Every
    /// process computes the histogram (and the Grundy values and certificate behind it) on its own:
    /// that costs what it costs one process, needs no message, and keeps the processes independent
    /// until the transform; then each fills only its own block of residues.
    ///
    /// - **odd `M′`** (`M = 2^a · M′`): residues modulo `M′`, the sum `S mod M′`, `L = F⁻¹ S`;
    /// - **`2^a`**: `S mod 2^(a+d)` with wrapping arithmetic (64-bit words, or 128-bit ones when
    ///   `a + d > 64`), shifted right by `d`; the two parts combine by the Chinese remainder theorem;
    /// - **exact**: `L < N^k + 1` is read from `L mod p` for enough primes `p` near `2^62`.
    ///
    /// ```no_run
    /// use nimcount::count::Query;
    /// use nimcount::distributed::mpi;
    /// use nimcount::game::Game;
    ///
    /// let universe = mpi::initialize().expect("MPI starts once");
    /// let query = Query::new(Game::parse("subtract:1-1000000")?)
    ///     .sizes(1u64, 12_983_567_378_251u64)
    ///     .heaps(98_670_634_123u64)
    ///     .modulus(1_000_000_007u32);
    /// let counts = query.count_distributed(&universe.world())?;
    /// assert_eq!(counts.losing, 154_334_921u32.into());
    /// # Ok::<(), nimcount::Error>(())
    /// ```
    pub fn count_distributed<C: Communicator>(&self, comm: &C) -> Result<Counts> {
        count(comm, self, Sharing::Node)
    }

    /// [`count_distributed`](Self::count_distributed) with the processes grouped as `sharing`
    /// asks ([`Sharing::Exchange`] runs every level above the blocks through the exchange
    /// between nodes, as on a cluster of one-process nodes). The same answer either way.
    pub fn count_distributed_with<C: Communicator>(&self, comm: &C, sharing: Sharing) -> Result<Counts> {
        count(comm, self, sharing)
    }
}

/// [`Query::count_distributed`].
fn count<C: Communicator>(comm: &C, query: &Query<'_>, sharing: Sharing) -> Result<Counts> {
    if query.asked_kind() != Kind::Ordered {
        return Err(Error::NotDistributed { what: "unordered heaps or distinct sizes (ordered heaps only)" });
    }
    if query.asked_misere() {
        return Err(Error::NotDistributed { what: "misère play (normal play only)" });
    }
    if query.asked_counts_only() {
        return Err(Error::NotDistributed { what: "Moore's Nim-K or staircases (games of heaps only)" });
    }
    let processes = comm.size() as usize;
    if !processes.is_power_of_two() {
        return Err(Error::ProcessCount { processes });
    }
    // Every process finds the same: a trivial query is answered at once, as on one process.
    if let Some(counts) = query.trivial_counts()? {
        return Ok(counts);
    }
    let mut stages = Stages::default();
    let start = Instant::now();
    // Each process fills its own block of residues from the histogram's terms and value
    // intervals: no process holds an array of all the slots.
    let (histogram, source) = agree(comm, query.histogram())?;
    stages.add("histogram", start.elapsed());
    let k = query.asked_heaps()?;
    let n = histogram.total().clone();
    let run = Run {
        comm,
        histogram: &histogram,
        k,
        backend: query.asked_backend(),
        parallel: query.asked_parallel(),
        sharing,
    };
    let progress = query.asked_progress();
    progress.start("distributed count", 0);
    let (losing, total) = match query.asked_modulus() {
        Some(m) => {
            let losing = run.modular(m, &mut stages)?;
            (losing, n.modpow(k, m))
        }
        None => run.exact(&n, &mut stages)?,
    };
    progress.finish();
    let winning = winning(&total, &losing, query.asked_modulus());
    let report = Report {
        source,
        sizes: n,
        log2_len: histogram.log2_len(),
        spectrum: super::SpectrumPath::Array,
        distinct_values: None,
        stages: stages.0,
    };
    Ok(Counts { losing, winning, total, modulus: query.asked_modulus().cloned(), report })
}

/// One count on the processes of `comm`.
struct Run<'a, C> {
    comm: &'a C,
    histogram: &'a Cow<'a, Histogram>,
    k: &'a BigUint,
    backend: Backend,
    parallel: bool,
    sharing: Sharing,
}

impl<C: Communicator> Run<'_, C> {
    /// `d`, with `F = 2^d` slots.
    fn log2(&self) -> u32 {
        self.histogram.log2_len()
    }

    /// `L mod m`: the odd part and the power of two, joined ([`modulus::by_parts`]).
    fn modular(&self, m: &BigUint, stages: &mut Stages) -> Result<BigUint> {
        let mut losing = modulus::by_parts(m, 1, |part| {
            Ok(vec![match part {
                Part::Odd(odd) => {
                    let word = odd
                        .to_u64()
                        .filter(|&w| w < 1 << 63)
                        .ok_or(Error::NotDistributed { what: "moduli whose odd part is 2^63 or more" })?;
                    BigUint::from(self.odd(word, stages)?)
                }
                Part::Two(a) => self.two_adic(*a, stages)?,
            }])
        })?;
        Ok(losing.remove(0))
    }

    /// `L mod m` for an odd `1 < m < 2^63`, from `S mod m`.
    fn odd(&self, m: u64, stages: &mut Stages) -> Result<u64> {
        let s = if m < 1 << 31 {
            let m32 = m as u32;
            u64::from(self.sum_of_powers(Mod32::new(m32)?, stages, |h, slots, out| {
                h.residues_of_slots_into(m, slots, out)
            })?)
        } else {
            self.sum_of_powers(Mod64::new(m)?, stages, |h, slots, out| {
                h.residues_of_slots_into(m, slots, out)
            })?
        };
        let losing = Part::Odd(m.into()).losing(s.into(), self.log2());
        Ok(losing.to_u64().expect("below m"))
    }

    /// `L mod 2^a` from `S mod 2^(a+d)`, which the sum equals `F · L` modulo.
    fn two_adic(&self, a: u64, stages: &mut Stages) -> Result<BigUint> {
        let bits = a + u64::from(self.log2());
        let s: u128 = if bits <= 64 {
            u128::from(self.sum_of_powers(Wrap64, stages, |h, slots, out| {
                h.residues_wrapping_of_slots_into(64, slots, out)
            })?)
        } else if bits <= 128 {
            self.sum_of_powers(TwoWord::new(128), stages, |h, slots, out| {
                h.residues_wrapping_of_slots_into(128, slots, out)
            })?
        } else {
            return Err(Error::NotDistributed {
                what: "moduli with a power of two beyond 2^(128 - d) for 2^d slots",
            });
        };
        Ok(Part::Two(a).losing(s.into(), self.log2()))
    }

    /// The exact `L` and `N^k`, from `L mod p` for primes `p` whose product exceeds `N^k`.
    fn exact(&self, n: &BigUint, stages: &mut Stages) -> Result<(BigUint, BigUint)> {
        // N^k < 2^(k · bits(N − 1) + 1), also for N = 0 and 1.
        let bits = if n.is_zero() { BigUint::one() } else { self.k * (n - 1u8).bits() + 1u8 };
        let limit = 1u64 << DISTRIBUTED_EXACT_MAX_BITS_LOG2;
        let bits = match bits.to_u64() {
            Some(b) if b <= limit => b,
            _ => {
                return Err(Error::AnswerTooLarge {
                    bits: Estimate(bits.to_u128()),
                    limit_log2: DISTRIBUTED_EXACT_MAX_BITS_LOG2,
                });
            }
        };
        let (mut losing, mut product) = (BigUint::zero(), BigUint::one());
        for p in primes_below_2_62() {
            if product.bits() > bits {
                break;
            }
            let residue = self.odd(p, stages)?;
            losing = crt(&losing, &product, &BigUint::from(residue), &BigUint::from(p));
            product *= p;
        }
        let total = match self.k.to_u32() {
            Some(k) => n.pow(k),
            // At most 4096 bits with k >= 2^32: N is 0 or 1.
            None => n.clone(),
        };
        Ok((losing, total))
    }

    /// `S = Σ_j Ĥ_j^k` in `ring`, with this process's block of residues filled by `fill`.
    fn sum_of_powers<R>(
        &self,
        ring: R,
        stages: &mut Stages,
        fill: impl Fn(&Histogram, Range<usize>, &mut [R::Elem]),
    ) -> Result<R::Elem>
    where
        R: Ring<Elem: bytemuck::Pod>,
    {
        let plan = Plan::new(self.comm, ring, self.histogram.transform_len() as u64)?
            .with_backend(self.backend)?
            .with_parallel(self.parallel)
            .with_sharing(self.sharing);
        let start = Instant::now();
        let mut block = plan.block()?;
        let first = plan.block_start() as usize;
        fill(self.histogram, first..first + plan.block_len(), &mut block);
        stages.add("residues", start.elapsed());
        // The powers are summed, so the transposed layout will do: no exchange back.
        let timings = plan.forward_transposed(&mut block)?;
        stages.add("local transform", timings.local);
        stages.add("node levels", timings.node);
        stages.add("exchange", timings.exchange);
        stages.add("top levels", timings.levels);
        let start = Instant::now();
        plan.pow_each(&mut block, self.k.clone())?;
        stages.add("powers", start.elapsed());
        let start = Instant::now();
        let s = plan.sum(&block);
        stages.add("sum", start.elapsed());
        Ok(s)
    }
}

/// The odd primes below `2^62`, largest first.
pub fn primes_below_2_62() -> impl Iterator<Item = u64> {
    ((1u64 << 61)..(1 << 62)).rev().filter(|&n| n % 2 == 1 && is_prime(n))
}
