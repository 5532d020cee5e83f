//! The distributed transform: local blocks, one all-to-all, the top levels across rows.

use std::any::Any;
use std::time::{Duration, Instant};

use mpi::traits::Communicator;

use super::collective::{self, agree};
use crate::error::{Error, Result};
use crate::fwht::{self, Backend};
use crate::memory::LargeBuffer;
use crate::ring::{Exact64, Exact128, Ring};

/// Columns per task when the top levels split across threads (a multiple of 1024: whole cache
/// lines and whole vector registers).
const COLUMN_TASK: usize = 1 << 15;

/// A Walsh–Hadamard transform of `2^n` elements spread over the `P = 2^p` processes of a
/// communicator, each holding one contiguous block of `2^n / P` elements: process `r` holds the
/// elements `r · 2^n/P .. (r + 1) · 2^n/P`.
///
/// Every method that takes blocks is collective: every process of the communicator calls it, in
/// the same order, with its own block. A mistake on one process (a block of the wrong length,
/// a failed allocation, an exact transform that could overflow) is agreed on before any data
/// moves, and every process returns an error; none waits forever.
///
/// The results are bit-identical to [`fwht::Plan::forward`] on the whole vector, floats included:
/// the levels run in the same ascending order with the same additions and subtractions.
///
/// ```no_run
/// use nimcount::distributed::{Plan, mpi};
/// use nimcount::ring::Mod32;
///
/// let universe = mpi::initialize().expect("MPI starts once");
/// let world = universe.world();
/// let plan = Plan::new(&world, Mod32::new(998_244_353)?, 1 << 20)?;
/// // This process's block: the elements block_start() .. block_start() + block_len().
/// let mut block: Vec<u32> = (0..plan.block_len() as u64).map(|i| ((plan.block_start() + i) % 7) as u32).collect();
/// let mut scratch = plan.scratch()?;
/// let timings = plan.forward(&mut block, &mut scratch)?;
/// println!("local {:?}, exchange {:?}", timings.local, timings.exchange);
/// # Ok::<(), nimcount::Error>(())
/// ```
pub struct Plan<'c, R: Ring, C> {
    comm: &'c C,
    local: fwht::Plan<R>,
    log2: u32,
    processes: usize,
    rank: usize,
}

impl<R: Ring, C> std::fmt::Debug for Plan<'_, R, C> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Plan")
            .field("local", &self.local)
            .field("log2", &self.log2)
            .field("processes", &self.processes)
            .field("rank", &self.rank)
            .finish_non_exhaustive()
    }
}

/// Where the time of one distributed transform went, on the calling process.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
#[non_exhaustive]
pub struct Timings {
    /// The local transform of the block (the lower `n − p` levels), with its checks.
    pub local: Duration,
    /// The exchanges between processes (one all-to-all for the transposed layout, two for the
    /// natural one), waiting for the slowest process included.
    pub exchange: Duration,
    /// The top `p` levels, across the rows received.
    pub levels: Duration,
}

impl Timings {
    /// The three parts together.
    pub fn total(&self) -> Duration {
        self.local + self.exchange + self.levels
    }
}

impl<'c, R, C> Plan<'c, R, C>
where
    R: Ring<Elem: bytemuck::Pod>,
    C: Communicator,
{
    /// A plan for `len` elements (a power of two) over the processes of `comm` (a power of two of
    /// them, at most `len`); collective. The local transforms run on the widest backend of each
    /// process's CPU, on rayon's thread pool.
    pub fn new(comm: &'c C, ring: R, len: u64) -> Result<Self> {
        if !collective::same_everywhere(comm, len) {
            return Err(Error::ProcessesDisagree { what: "the transform length" });
        }
        let processes = comm.size() as usize;
        if !processes.is_power_of_two() {
            return Err(Error::ProcessCount { processes });
        }
        let global = usize::try_from(len).map_err(|_| Error::NotPowerOfTwo { len: usize::MAX })?;
        if !global.is_power_of_two() {
            return Err(Error::NotPowerOfTwo { len: global });
        }
        if global < processes {
            return Err(Error::TooManyProcesses { processes, len });
        }
        let block = global / processes;
        collective::check_exchange::<R::Elem>(block)?;
        Ok(Plan {
            comm,
            local: fwht::Plan::new(ring, block)?,
            log2: global.trailing_zeros(),
            processes,
            rank: comm.rank() as usize,
        })
    }

    /// The same plan on another backend; collective (an error on every process when one lacks it).
    pub fn with_backend(mut self, backend: Backend) -> Result<Self> {
        self.local = agree(self.comm, self.local.clone().with_backend(backend))?;
        Ok(self)
    }

    /// The same plan, allowed (`true`, the default) or not to use rayon's thread pool.
    pub fn with_parallel(mut self, parallel: bool) -> Self {
        self.local = self.local.with_parallel(parallel);
        self
    }

    /// The transform length `2^n`.
    pub fn len(&self) -> u64 {
        1 << self.log2
    }

    /// Always false: a plan's length is at least 1.
    pub fn is_empty(&self) -> bool {
        false
    }

    /// `log2` of the transform length.
    pub fn log2(&self) -> u32 {
        self.log2
    }

    /// The number of processes `P`.
    pub fn processes(&self) -> usize {
        self.processes
    }

    /// This process's rank.
    pub fn rank(&self) -> usize {
        self.rank
    }

    /// The length of every block, `2^n / P`.
    pub fn block_len(&self) -> usize {
        self.local.len()
    }

    /// The index of the first element of this process's block.
    pub fn block_start(&self) -> u64 {
        self.rank as u64 * self.block_len() as u64
    }

    /// The communicator.
    pub(super) fn comm(&self) -> &C {
        self.comm
    }

    /// The ring.
    pub fn ring(&self) -> &R {
        self.local.ring()
    }

    /// The plan of the local transforms.
    pub fn local_plan(&self) -> &fwht::Plan<R> {
        &self.local
    }

    /// A block-length buffer of zeros (huge pages, see [`LargeBuffer`]), for a block or for the
    /// scratch space of the transforms; collective (refused on every process when one cannot
    /// allocate it).
    pub fn scratch(&self) -> Result<LargeBuffer<R::Elem>> {
        let len = self.block_len();
        agree(
            self.comm,
            LargeBuffer::zeroed(|| format!("a block of 2^{} elements", len.trailing_zeros()), len),
        )
    }

    /// Whether blocks are too short to be cut into one piece per process: then the whole vector
    /// is gathered on every process and transformed there (at most `P^2` elements).
    fn gathers(&self) -> bool {
        self.block_len() < self.processes
    }

    /// The forward transform, in place, in natural order: afterwards `block` holds the elements
    /// `block_start() ..` of the transform of the whole vector. `scratch` is block-length space
    /// (its contents are overwritten). Collective.
    pub fn forward(&self, block: &mut [R::Elem], scratch: &mut [R::Elem]) -> Result<Timings> {
        if self.processes == 1 {
            return self.forward_alone(block, scratch);
        }
        let mut timings = self.forward_transposed(block, scratch)?;
        let start = Instant::now();
        if self.gathers() {
            block.copy_from_slice(scratch);
        } else {
            // The same exchange again sends every row back to the process it came from.
            collective::all_to_all(self.comm, scratch, block);
        }
        timings.exchange += start.elapsed();
        Ok(timings)
    }

    /// The forward transform, in natural order, by pairwise exchanges instead of the all-to-all:
    /// for each of the top levels `i = 0 … p − 1`, the whole block goes to and comes from the
    /// partner `rank ⊕ 2^i`, and the lower of the two keeps `a + b`, the upper `a − b`. The same
    /// result, bit for bit; `p` whole blocks sent per process against `(1 − 1/P)` of one for the
    /// all-to-all (kept to measure the two against each other). Collective.
    pub fn forward_pairwise(&self, block: &mut [R::Elem], scratch: &mut [R::Elem]) -> Result<Timings> {
        let len = self.block_len();
        let lengths = match (block.len(), scratch.len()) {
            (b, o) if b == len && o == len => Ok(()),
            (b, o) => Err(Error::LengthMismatch { len: if b != len { b } else { o }, plan_len: len }),
        };
        agree(self.comm, lengths)?;
        self.check_global_bound(block)?;
        let mut timings = Timings::default();
        let start = Instant::now();
        agree(self.comm, self.local.forward(block))?;
        timings.local = start.elapsed();
        let (ring, parallel) = (self.ring(), self.local.parallel());
        let mut bit = 1;
        while bit < self.processes {
            let partner = self.rank ^ bit;
            let start = Instant::now();
            collective::exchange(self.comm, partner, block, scratch);
            timings.exchange += start.elapsed();
            let start = Instant::now();
            let lower = self.rank < partner;
            crate::parallel::zip_chunks(block, &*scratch, parallel, COLUMN_TASK, |mine, theirs| {
                for (x, &y) in mine.iter_mut().zip(theirs) {
                    *x = if lower { ring.add(*x, y) } else { ring.sub(y, *x) };
                }
            });
            timings.levels += start.elapsed();
            bit <<= 1;
        }
        Ok(timings)
    }

    /// The forward transform into `out`, in the transposed layout: `out[i]` is element
    /// [`transposed_index(i)`](Self::transposed_index) of the transform of the whole vector.
    /// `block` is left holding its local transform. One exchange instead of two, for callers that
    /// only need the elements pointwise (sums of powers, as counting does). Collective.
    pub fn forward_transposed(&self, block: &mut [R::Elem], out: &mut [R::Elem]) -> Result<Timings> {
        let len = self.block_len();
        let lengths = match (block.len(), out.len()) {
            (b, o) if b == len && o == len => Ok(()),
            (b, o) => Err(Error::LengthMismatch { len: if b != len { b } else { o }, plan_len: len }),
        };
        agree(self.comm, lengths)?;
        if self.processes == 1 {
            let timings = self.forward_alone(block, out)?;
            out.copy_from_slice(block);
            return Ok(timings);
        }
        self.check_global_bound(block)?;
        let mut timings = Timings::default();
        if self.gathers() {
            let start = Instant::now();
            let mut all = vec![self.ring().zero(); len * self.processes];
            collective::all_gather(self.comm, block, &mut all);
            timings.exchange = start.elapsed();
            let start = Instant::now();
            let whole = fwht::Plan::new(self.ring().clone(), all.len())?
                .with_backend(self.local.backend())?
                .with_parallel(self.local.parallel());
            whole.forward(&mut all)?;
            out.copy_from_slice(&all[self.rank * len..][..len]);
            timings.local = start.elapsed();
            return Ok(timings);
        }
        let start = Instant::now();
        agree(self.comm, self.local.forward(block))?;
        timings.local = start.elapsed();
        let start = Instant::now();
        collective::all_to_all(self.comm, block, out);
        timings.exchange = start.elapsed();
        let start = Instant::now();
        upper_levels(self.ring(), out, self.processes, self.local.parallel());
        timings.levels = start.elapsed();
        Ok(timings)
    }

    /// One process: the local transform is the whole transform (no exchange, no copy).
    fn forward_alone(&self, block: &mut [R::Elem], scratch: &[R::Elem]) -> Result<Timings> {
        if scratch.len() != block.len() {
            return Err(Error::LengthMismatch { len: scratch.len(), plan_len: self.block_len() });
        }
        let start = Instant::now();
        self.local.forward(block)?;
        Ok(Timings { local: start.elapsed(), ..Timings::default() })
    }

    /// The normalised inverse, in place, in natural order (`inverse(forward(x)) == x`); refused
    /// for rings without `1/2`. Collective.
    pub fn inverse(&self, block: &mut [R::Elem], scratch: &mut [R::Elem]) -> Result<Timings> {
        if self.log2 > 0 && !self.ring().can_halve() {
            return Err(Error::NoInverseOfTwo { ring: self.ring().to_string() });
        }
        let mut timings = self.forward(block, scratch)?;
        let start = Instant::now();
        agree(self.comm, self.ring().divide_by_power_of_two(block, self.log2, self.local.parallel()))?;
        timings.local += start.elapsed();
        Ok(timings)
    }

    /// The index in the whole transform of element `i` of [`forward_transposed`]'s output: row
    /// `r = i / (2^n/P^2)` came from process `r`, and this process `q` holds column range `q` of
    /// every row, so `i ↦ r · 2^n/P + q · 2^n/P^2 + i mod 2^n/P^2`. When blocks are shorter than
    /// `P` the layout is the natural one.
    ///
    /// [`forward_transposed`]: Self::forward_transposed
    pub fn transposed_index(&self, i: usize) -> u64 {
        if self.gathers() {
            return self.block_start() + i as u64;
        }
        let columns = self.block_len() / self.processes;
        let (row, column) = ((i / columns) as u64, (i % columns) as u64);
        row * self.block_len() as u64 + (self.rank * columns) as u64 + column
    }

    /// `x ← x^k` for every element of this process's data (no communication), as
    /// [`fwht::Plan::pow_each`]; collective only in that a failure on one process fails all.
    pub fn pow_each(&self, data: &mut [R::Elem], k: impl Into<num_bigint::BigUint>) -> Result<()> {
        agree(self.comm, self.local.pow_each(data, k))
    }

    /// The sum of every process's `data`, in the ring's arithmetic (each process's own sum, then
    /// the sums in rank order); every process gets it. Collective.
    pub fn sum(&self, data: &[R::Elem]) -> R::Elem {
        let ring = self.ring();
        let mine = crate::parallel::reduce(
            data,
            self.local.parallel(),
            1 << 16,
            ring.zero(),
            |x| x,
            |a, b| ring.add(a, b),
        );
        collective::gather(self.comm, mine).into_iter().fold(ring.zero(), |a, b| ring.add(a, b))
    }

    /// The exact rings refuse a transform whose values could leave their range: the bound is the
    /// sum of the absolute values of all `2^n` elements, over every process (each process's own
    /// block alone would not do).
    fn check_global_bound(&self, block: &[R::Elem]) -> Result<()> {
        let ring = self.ring() as &dyn Any;
        let parallel = self.local.parallel();
        let (mine, max) = if ring.is::<Exact64>() {
            (
                abs_sum(bytemuck::cast_slice::<R::Elem, i64>(block), parallel, i64::unsigned_abs),
                i64::MAX as u128,
            )
        } else if ring.is::<Exact128>() {
            (
                abs_sum(bytemuck::cast_slice::<R::Elem, i128>(block), parallel, i128::unsigned_abs),
                i128::MAX as u128,
            )
        } else {
            return Ok(());
        };
        let total = collective::gather(self.comm, mine).into_iter().fold(0u128, u128::saturating_add);
        if total > max {
            return Err(Error::Overflow {
                what: "transform",
                ring: self.ring().to_string(),
                detail: format!("the absolute values of the {} elements sum to more than {max}", self.len()),
            });
        }
        Ok(())
    }
}

/// `Σ |x|`, saturating at `u128::MAX`.
fn abs_sum<T: Copy + Sync, U: Into<u128>>(
    data: &[T],
    parallel: bool,
    abs: impl Fn(T) -> U + Sync + Send,
) -> u128 {
    crate::parallel::reduce(data, parallel, 1 << 16, 0u128, |x| abs(x).into(), u128::saturating_add)
}

/// The top levels of the transform on the transposed layout: `data` is `rows` rows, and for
/// `h = 1, 2, …, rows/2` the rows `i` and `i + h` (bit `h` of `i` clear) become `(a + b, a − b)`
/// column by column. Ascending like the textbook loop, two levels per pass over memory.
fn upper_levels<R: Ring<Elem: Copy>>(ring: &R, data: &mut [R::Elem], rows: usize, parallel: bool) {
    let mut rows: Vec<&mut [R::Elem]> = data.chunks_exact_mut(data.len() / rows).collect();
    let p = rows.len();
    let mut h = 1;
    while h < p {
        let two = 2 * h < p;
        let span = if two { 4 * h } else { 2 * h };
        for first in (0..p).step_by(span) {
            for i in first..first + h {
                if two {
                    let [a, b, c, d] =
                        rows.get_disjoint_mut([i, i + h, i + 2 * h, i + 3 * h]).expect("distinct rows");
                    radix4(ring, [&mut **a, &mut **b, &mut **c, &mut **d], parallel);
                } else {
                    let [a, b] = rows.get_disjoint_mut([i, i + h]).expect("distinct rows");
                    radix2(ring, [&mut **a, &mut **b], parallel);
                }
            }
        }
        h = span;
    }
}

/// Bytes of each row that a pass takes at a time (see [`radix4`]).
const TILE_BYTES: usize = 16 << 10;

/// Levels `h` and `2h` on the rows `i, i + h, i + 2h, i + 3h`, for every column.
///
/// Rows here lie a whole received piece apart (256 MiB for 2^28 `u32` on two processes), and
/// streams that far apart collide in memory (as the kernel's staggered passes describe): on the
/// development machine a plain loop over both rows took 1.10 s for the 512 MiB of one process,
/// against 0.35 s tile by tile, in the same run. So the pass goes tile by tile
/// ([`TILE_BYTES`] of each row): the tiles of rows 1–3 are copied into a cache-resident staging
/// buffer, the butterflies run there and on row 0 in place, and the tiles are copied back: each
/// row is then read and written in long runs of its own. Same operations, same order.
fn radix4<R: Ring<Elem: Copy>>(ring: &R, [r0, r1, r2, r3]: [&mut [R::Elem]; 4], parallel: bool) {
    let len = r0.len();
    if parallel && len >= 2 * COLUMN_TASK {
        let mid = (len / 2) & !1023;
        let (a0, b0) = r0.split_at_mut(mid);
        let (a1, b1) = r1.split_at_mut(mid);
        let (a2, b2) = r2.split_at_mut(mid);
        let (a3, b3) = r3.split_at_mut(mid);
        crate::parallel::join(
            true,
            || radix4(ring, [a0, a1, a2, a3], true),
            || radix4(ring, [b0, b1, b2, b3], true),
        );
        return;
    }
    let tile = tile_len::<R::Elem>().min(len);
    let mut stage = vec![ring.zero(); 3 * tile];
    let mut first = 0;
    while first < len {
        let n = tile.min(len - first);
        let columns = first..first + n;
        let (s1, rest) = stage.split_at_mut(tile);
        let (s2, s3) = rest.split_at_mut(tile);
        let (s1, s2, s3) = (&mut s1[..n], &mut s2[..n], &mut s3[..n]);
        s1.copy_from_slice(&r1[columns.clone()]);
        s2.copy_from_slice(&r2[columns.clone()]);
        s3.copy_from_slice(&r3[columns.clone()]);
        let t0 = &mut r0[columns.clone()];
        for c in 0..n {
            let (x0, x1, x2, x3) = (t0[c], s1[c], s2[c], s3[c]);
            // Level h pairs rows (i, i + h) and (i + 2h, i + 3h); level 2h then (i, i + 2h) and
            // (i + h, i + 3h): each element sees the levels in ascending order.
            let (y0, y1, y2, y3) = (ring.add(x0, x1), ring.sub(x0, x1), ring.add(x2, x3), ring.sub(x2, x3));
            t0[c] = ring.add(y0, y2);
            s2[c] = ring.sub(y0, y2);
            s1[c] = ring.add(y1, y3);
            s3[c] = ring.sub(y1, y3);
        }
        r1[columns.clone()].copy_from_slice(s1);
        r2[columns.clone()].copy_from_slice(s2);
        r3[columns].copy_from_slice(s3);
        first += n;
    }
}

/// Level `h` on the rows `i, i + h`, for every column, tile by tile as [`radix4`] does.
fn radix2<R: Ring<Elem: Copy>>(ring: &R, [r0, r1]: [&mut [R::Elem]; 2], parallel: bool) {
    let len = r0.len();
    if parallel && len >= 2 * COLUMN_TASK {
        let mid = (len / 2) & !1023;
        let (a0, b0) = r0.split_at_mut(mid);
        let (a1, b1) = r1.split_at_mut(mid);
        crate::parallel::join(true, || radix2(ring, [a0, a1], true), || radix2(ring, [b0, b1], true));
        return;
    }
    let tile = tile_len::<R::Elem>().min(len);
    let mut stage = vec![ring.zero(); tile];
    for (t0, t1) in r0.chunks_mut(tile).zip(r1.chunks_mut(tile)) {
        let s1 = &mut stage[..t0.len()];
        s1.copy_from_slice(t1);
        for (a, b) in t0.iter_mut().zip(s1.iter_mut()) {
            (*a, *b) = (ring.add(*a, *b), ring.sub(*a, *b));
        }
        t1.copy_from_slice(s1);
    }
}

/// Elements of one tile of a row.
fn tile_len<E>() -> usize {
    (TILE_BYTES / std::mem::size_of::<E>().max(1)).max(1)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::fwht::reference;
    use crate::ring::{Float64, Mod32};

    /// The rows of the whole vector's textbook loop, after its lower levels, are what the top
    /// levels start from: the result is the textbook loop's, bit for bit.
    fn check<R: Ring<Elem: Copy + PartialEq + std::fmt::Debug>>(ring: R, x: &[R::Elem]) {
        for rows in [2usize, 4, 8, 16, 32] {
            if x.len() < rows {
                continue;
            }
            let mut expected = x.to_vec();
            reference::textbook(&ring, &mut expected);
            let mut y = x.to_vec();
            for row in y.chunks_exact_mut(x.len() / rows) {
                reference::textbook(&ring, row);
            }
            for parallel in [false, true] {
                let mut z = y.clone();
                upper_levels(&ring, &mut z, rows, parallel);
                assert_eq!(z, expected, "{rows} rows, parallel {parallel}");
            }
        }
    }

    #[test]
    fn upper_levels_finish_the_textbook_loop() {
        let m = 998_244_353u32;
        let mut seed = 7u64;
        let mut next = || {
            seed = seed.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            seed >> 11
        };
        for log2 in [1u32, 2, 5, 10, 17] {
            let n = 1usize << log2;
            let mut x: Vec<u32> = (0..n).map(|_| (next() % u64::from(m)) as u32).collect();
            x[0] = m - 1;
            x[n - 1] = 0;
            check(Mod32::new(m).unwrap(), &x);
            check(Mod32::new(m).unwrap(), &vec![m - 1; n]);
            let f: Vec<f64> = (0..n).map(|_| (next() as f64 / (1u64 << 53) as f64) * 2.0 - 1.0).collect();
            check(Float64, &f);
        }
    }
}
