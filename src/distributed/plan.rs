//! The distributed transform: local blocks, the node levels in shared memory, one exchange
//! between nodes, the top levels across rows.

use std::any::Any;
use std::ops::{Deref, DerefMut};
use std::time::{Duration, Instant};

use mpi::topology::{Color, SimpleCommunicator};
use mpi::traits::{Communicator, CommunicatorCollectives};

use super::collective::{self, agree};
use super::transpose::{CHUNK, transpose};
use super::window::Window;
use crate::error::{Error, Result};
use crate::fwht::{self, Backend};
use crate::memory::LargeBuffer;
use crate::ring::{Exact64, Exact128, Internal, Ring};
use crate::simd::kernel::STAGGER_MIN_ROW_BYTES;

/// Columns per task when the top levels split across threads (a multiple of 1024: whole cache
/// lines and whole vector registers).
const COLUMN_TASK: usize = 1 << 15;

/// Which processes share memory.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
#[non_exhaustive]
pub enum Sharing {
    /// The processes of one node (those `MPI_Comm_split_type(MPI_COMM_TYPE_SHARED)` groups)
    /// hold their blocks in one shared-memory window and run the node's levels on it in place;
    /// data crosses a process boundary only between nodes. The default. Used when every node
    /// has the same power-of-two number of processes with consecutive ranks (how `mpirun`
    /// places them by default); otherwise every process is a node of its own.
    #[default]
    Node,
    /// Every process is a node of its own: every level above the block goes through the
    /// exchange between nodes, as on a cluster of one-process nodes (to test and measure that
    /// path on one machine).
    Exchange,
    /// At most this many processes (a power of two) share memory: the processes of each node
    /// form groups of that size, each a node of its own. Several nodes of several processes
    /// each on one machine (to test and measure the two stages together).
    AtMost(usize),
}

/// How the processes are grouped: `S` processes per node share memory (`node`), and the
/// `N = P / S` processes with the same rank inside their nodes exchange (`cross`). World rank
/// `r` is process `r mod S` of node `r / S`.
struct Nodes {
    node: SimpleCommunicator,
    cross: SimpleCommunicator,
    /// `S`, a power of two.
    size: usize,
    /// `N`, a power of two.
    count: usize,
}

impl Nodes {
    /// Groups the processes of `comm` as `sharing` asks; collective. Every process reaches the
    /// same grouping (it is decided from every process's node size and rank, gathered).
    fn new<C: Communicator>(comm: &C, sharing: Sharing) -> Nodes {
        let (rank, processes) = (comm.rank(), comm.size() as usize);
        let shared = comm.split_shared(rank);
        let mine = [shared.size() as u64, shared.rank() as u64];
        let all = collective::gather(comm, mine);
        let size = all[0][0] as usize;
        let regular = size.is_power_of_two()
            && processes.is_multiple_of(size)
            && all.iter().enumerate().all(|(r, &[s, q])| s as usize == size && q as usize == r % size);
        let most = match sharing {
            Sharing::Node => size,
            Sharing::Exchange => 1,
            Sharing::AtMost(most) => most.max(1),
        };
        let size = if regular && most.is_power_of_two() { size.min(most) } else { 1 };
        let node = if size > 1 {
            // Consecutive ranks of the machine, `size` at a time.
            shared.split_by_color(Color::with_value(shared.rank() / size as i32)).expect("a color is given")
        } else {
            comm.split_by_color(Color::with_value(rank)).expect("a color is given")
        };
        let cross = comm
            .split_by_color_with_key(Color::with_value(rank % size as i32), rank)
            .expect("a color is given");
        Nodes { node, cross, size, count: processes / size }
    }
}

impl Nodes {
    /// `e`: how many of the block's top levels the node stage takes over from the local stage,
    /// so that its passes over memory do three levels each, as the single-process kernel's do
    /// (`log2 S + e` a multiple of 3: with two processes the local stage transforms the block's
    /// four quarters and the node stage runs one radix-8 pass over the node's eight quarters,
    /// the same passes as one process with two threads). None when nothing is shared, or when
    /// the rows would be shorter than [`NODE_ROW_MIN`].
    fn extra(&self, block: usize) -> u32 {
        if self.size == 1 {
            return 0;
        }
        let extra = (3 - self.size.trailing_zeros() % 3) % 3;
        if block >> extra >= NODE_ROW_MIN * self.size { extra } else { 0 }
    }
}

/// The shortest rows the node stage takes extra levels for (shorter blocks are cheap anyway).
const NODE_ROW_MIN: usize = 1 << 12;

/// This process's block of a distributed vector: the elements
/// [`block_start()`](Plan::block_start)`..` of the whole, in natural order until a transform
/// leaves them transposed. Made by [`Plan::block`]; where processes share a node it lives in
/// the node's shared-memory window, and the plan's node levels reach into the blocks of the
/// other processes of the node. Freeing a shared block is collective: every process drops its
/// blocks in the same order (as it made them, with the same code on every process).
pub struct Block<E> {
    memory: Memory<E>,
}

enum Memory<E> {
    Own(LargeBuffer<E>),
    Shared(Window<E>),
}

impl<E: bytemuck::Pod> Deref for Block<E> {
    type Target = [E];
    fn deref(&self) -> &[E] {
        match &self.memory {
            Memory::Own(buffer) => buffer,
            Memory::Shared(window) => window.own(),
        }
    }
}

impl<E: bytemuck::Pod> DerefMut for Block<E> {
    fn deref_mut(&mut self) -> &mut [E] {
        match &mut self.memory {
            Memory::Own(buffer) => buffer,
            Memory::Shared(window) => window.own_mut(),
        }
    }
}

impl<E> std::fmt::Debug for Block<E> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let shared = matches!(self.memory, Memory::Shared(_));
        f.debug_struct("Block").field("shared", &shared).finish_non_exhaustive()
    }
}

/// A Walsh–Hadamard transform of `2^n` elements spread over the `P = 2^p` processes of a
/// communicator, each holding one contiguous block of `2^n / P` elements: process `r` holds the
/// elements `r · 2^n/P .. (r + 1) · 2^n/P`.
///
/// The levels run in three stages, lowest first:
/// 1. **local**: each process transforms its own block (the lower `n − p` levels);
/// 2. **node**: the `S` processes of a node share their blocks in one shared-memory window
///    ([`Sharing::Node`]); for the next `log2 S` levels each takes `1/S` of the columns of all
///    `S` blocks, in place, between two barriers. No element is copied;
/// 3. **between nodes**: the `N` processes with the same rank inside their nodes transpose
///    their blocks (one exchange, in chunks, the top levels of one chunk overlapping the
///    transfer of the next), then run the top `log2 N` levels across the rows received.
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
/// let mut block = plan.block()?;
/// for (i, x) in block.iter_mut().enumerate() {
///     *x = ((plan.block_start() + i as u64) % 7) as u32;
/// }
/// let timings = plan.forward(&mut block)?;
/// println!("local {:?}, node {:?}, exchange {:?}", timings.local, timings.node, timings.exchange);
/// # Ok::<(), nimcount::Error>(())
/// ```
pub struct Plan<'c, R: Ring, C> {
    comm: &'c C,
    local: fwht::Plan<R>,
    /// The local stage where processes share a node: the block's `2^e` rows, each transformed
    /// whole; the node stage then runs the top `e` levels of the block together with the node's
    /// `log2 S` (see [`Nodes::extra`]). Equal to `local` when nothing is shared.
    rows: fwht::Plan<R>,
    log2: u32,
    processes: usize,
    rank: usize,
    nodes: Nodes,
}

impl<R: Ring, C> std::fmt::Debug for Plan<'_, R, C> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Plan")
            .field("local", &self.local)
            .field("log2", &self.log2)
            .field("processes", &self.processes)
            .field("rank", &self.rank)
            .field("processes_per_node", &self.nodes.size)
            .finish_non_exhaustive()
    }
}

/// Where the time of one distributed transform went, on the calling process.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
#[non_exhaustive]
pub struct Timings {
    /// The local transform of the block (the lower `n − p` levels), with its checks.
    pub local: Duration,
    /// The node levels, in the node's shared memory, with the barriers that bracket them.
    pub node: Duration,
    /// The exchanges between nodes (the transpose, and for the natural order its way back):
    /// the time spent waiting for data, waiting for the slowest process included.
    pub exchange: Duration,
    /// The top levels across nodes, on the rows received.
    pub levels: Duration,
    /// Bytes this process sent to other processes.
    pub bytes_sent: u64,
}

impl Timings {
    /// The four parts together.
    pub fn total(&self) -> Duration {
        self.local + self.node + self.exchange + self.levels
    }
}

impl<'c, R, C> Plan<'c, R, C>
where
    R: Ring<Elem: bytemuck::Pod>,
    C: Communicator,
{
    /// A plan for `len` elements (a power of two) over the processes of `comm` (a power of two of
    /// them, at most `len`), sharing memory inside each node ([`Sharing::Node`]); collective. The
    /// local transforms run on the widest backend of each process's CPU, on rayon's thread pool.
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
        let local = fwht::Plan::new(ring, block)?;
        Ok(Plan {
            comm,
            rows: local.clone(),
            local,
            log2: global.trailing_zeros(),
            processes,
            rank: comm.rank() as usize,
            nodes: Nodes::new(comm, Sharing::Node),
        }
        .with_rows())
    }

    /// Sets the plan of the local stage's rows for the current grouping (see [`Nodes::extra`]).
    fn with_rows(mut self) -> Self {
        let extra = self.nodes.extra(self.block_len());
        self.rows = fwht::Plan::new(self.ring().clone(), self.block_len() >> extra)
            .expect("a power of two, at least 1")
            .with_backend(self.local.backend())
            .expect("the backend the local plan has")
            .with_parallel(self.local.parallel());
        self
    }

    /// The same plan with the processes grouped as `sharing` asks; collective. Blocks made by
    /// the plan before do not fit it.
    pub fn with_sharing(mut self, sharing: Sharing) -> Self {
        self.nodes = Nodes::new(self.comm, sharing);
        self.with_rows()
    }

    /// The same plan on another backend; collective (an error on every process when one lacks it).
    pub fn with_backend(mut self, backend: Backend) -> Result<Self> {
        self.local = agree(self.comm, self.local.clone().with_backend(backend))?;
        Ok(self.with_rows())
    }

    /// The same plan, allowed (`true`, the default) or not to use rayon's thread pool.
    pub fn with_parallel(mut self, parallel: bool) -> Self {
        self.local = self.local.with_parallel(parallel);
        self.with_rows()
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

    /// The number of processes `S` that share each node's memory (1 with [`Sharing::Exchange`]).
    pub fn processes_per_node(&self) -> usize {
        self.nodes.size
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

    /// This process's block, zeros: in the node's shared-memory window where processes share a
    /// node, else in private memory (huge pages, see [`LargeBuffer`]). Collective (refused on
    /// every process when one cannot allocate it, before anything is allocated where the memory
    /// is known to be short).
    pub fn block(&self) -> Result<Block<R::Elem>> {
        let len = self.block_len();
        let what = || format!("a block of 2^{} elements", len.trailing_zeros());
        let fits = if self.nodes.size > 1 {
            Window::<R::Elem>::fits(self.nodes.size, len)
        } else {
            crate::memory::bytes_for::<R::Elem>(what, len as u128)
                .and_then(|bytes| crate::memory::ensure_fits(what, bytes))
        };
        agree(self.comm, fits)?;
        let memory = if self.nodes.size > 1 {
            Window::allocate(&self.nodes.node, len).map(Memory::Shared)
        } else {
            LargeBuffer::zeroed(what, len).map(Memory::Own)
        };
        Ok(Block { memory: agree(self.comm, memory)? })
    }

    /// Whether blocks are too short to be cut into one piece per process: then the whole vector
    /// is gathered on every process and transformed there (at most `P^2` elements).
    fn gathers(&self) -> bool {
        self.block_len() < self.processes
    }

    /// Refuses, on every process, a block of another length, or one outside the shared window
    /// the node levels need.
    fn check_block(&self, block: &Block<R::Elem>) -> Result<()> {
        let len = self.block_len();
        let mine = if block.len() != len {
            Err(Error::LengthMismatch { len: block.len(), plan_len: len })
        } else {
            match &block.memory {
                Memory::Shared(w) if self.nodes.size > 1 && w.processes() != self.nodes.size => {
                    Err(Error::SharedMemory {
                        detail: "the block was made for another grouping of processes".into(),
                    })
                }
                Memory::Own(_) if self.nodes.size > 1 && !self.gathers() => Err(Error::SharedMemory {
                    detail: "the block is not in the node's shared window: make it with Plan::block".into(),
                }),
                _ => Ok(()),
            }
        };
        agree(self.comm, mine)?;
        self.check_global_bound(block)
    }

    /// The forward transform, in place, in natural order: afterwards `block` holds the elements
    /// `block_start() ..` of the transform of the whole vector. Collective. Elements the ring
    /// does not accept are refused on every process, as [`fwht::Plan::forward`] refuses them,
    /// in the local stage: the block that holds one is left as it was, the others may hold the
    /// transform of their own elements.
    pub fn forward(&self, block: &mut Block<R::Elem>) -> Result<Timings> {
        self.forward_in(block, true)
    }

    /// The forward transform, in place, in the transposed layout: afterwards `block[i]` is
    /// element [`transposed_index(i)`](Self::transposed_index) of the transform of the whole
    /// vector. Half the exchange of [`forward`](Self::forward), for callers that only need the
    /// elements pointwise (sums of powers, as counting does). Collective.
    pub fn forward_transposed(&self, block: &mut Block<R::Elem>) -> Result<Timings> {
        self.forward_in(block, false)
    }

    fn forward_in(&self, block: &mut Block<R::Elem>, natural: bool) -> Result<Timings> {
        self.check_block(block)?;
        let mut timings = Timings::default();
        if self.gathers() {
            return self.forward_gathered(block);
        }
        let start = Instant::now();
        agree(self.comm, self.rows.forward(block))?;
        timings.local = start.elapsed();
        let start = Instant::now();
        self.node_levels(block);
        timings.node = start.elapsed();
        if self.nodes.count > 1 {
            self.levels_between_nodes(block, natural, &mut timings);
        }
        Ok(timings)
    }

    /// Blocks shorter than `P`: every process gathers the whole vector, transforms it and keeps
    /// its own block (natural order).
    fn forward_gathered(&self, block: &mut [R::Elem]) -> Result<Timings> {
        let mut timings = Timings::default();
        let len = block.len();
        let start = Instant::now();
        let mut all = vec![self.ring().zero(); len * self.processes];
        collective::all_gather(self.comm, block, &mut all);
        timings.exchange = start.elapsed();
        timings.bytes_sent = ((self.processes - 1) * std::mem::size_of_val(block)) as u64;
        let start = Instant::now();
        let whole = fwht::Plan::new(self.ring().clone(), all.len())?
            .with_backend(self.local.backend())?
            .with_parallel(self.local.parallel());
        agree(self.comm, whole.forward(&mut all))?;
        block.copy_from_slice(&all[self.rank * len..][..len]);
        timings.local = start.elapsed();
        Ok(timings)
    }

    /// The node levels: the node's `S` blocks are `S · 2^e` rows of `b / 2^e` elements (`b` the
    /// block length, `e` from [`Nodes::extra`]), each transformed whole by the local stage;
    /// process `j` of the node takes columns `j · c .. (j + 1) · c` of every row (`c` the row
    /// length over `S`) and runs the `log2 S + e` levels across the rows, in place in the shared
    /// window, three at a time. Nothing is copied; two barriers bracket the stage.
    fn node_levels(&self, block: &mut Block<R::Elem>) {
        let s = self.nodes.size;
        let Memory::Shared(window) = &mut block.memory else { return };
        if s == 1 {
            return;
        }
        let row = self.rows.len();
        let width = row / s;
        let first = self.nodes.node.rank() as usize * width;
        let columns: Vec<_> =
            (0..self.block_len() / row).map(|r| r * row + first..r * row + first + width).collect();
        window.fence(&self.nodes.node);
        let mut rows = window.columns_mut(&columns);
        let apart = row * std::mem::size_of::<R::Elem>();
        upper_levels(self.ring(), &mut rows, self.local.parallel(), self.local.backend(), apart);
        drop(rows);
        window.fence(&self.nodes.node);
    }

    /// The levels between nodes, over `cross` (the `N` processes with this process's rank
    /// inside their nodes, whose blocks pair element for element): one transpose into `N` rows
    /// of `b/N` columns, the top `log2 N` levels across them, and for the natural order the same
    /// transpose back.
    fn levels_between_nodes(&self, block: &mut [R::Elem], natural: bool, timings: &mut Timings) {
        let (ring, parallel) = (self.ring(), self.local.parallel());
        let cross = &self.nodes.cross;
        let start = Instant::now();
        // The top levels of each chunk run while the next chunk travels.
        let (backend, apart) = (self.local.backend(), std::mem::size_of_val(block) / self.nodes.count);
        let there =
            transpose(cross, block, CHUNK, |_| {}, |rows| upper_levels(ring, rows, parallel, backend, apart));
        let mut elapsed = start.elapsed();
        timings.levels += there.computing;
        timings.bytes_sent += there.bytes_sent;
        if natural {
            // The same exchange again sends every row back to the process it came from.
            let start = Instant::now();
            let back = transpose(cross, block, CHUNK, |_| {}, |_| {});
            elapsed += start.elapsed();
            timings.bytes_sent += back.bytes_sent;
        }
        timings.exchange += elapsed.saturating_sub(there.computing);
    }

    /// The forward transform, in natural order, by pairwise exchanges between nodes instead of
    /// the transpose: for each of the top levels `i = 0 … log2 N − 1`, the whole block goes to
    /// and comes from the partner node `⊕ 2^i`, and the lower of the two keeps `a + b`, the upper
    /// `a − b`. The same result, bit for bit; `log2 N` whole blocks sent per process against
    /// `(1 − 1/N)` of one each way for the transpose (kept to measure the two against each
    /// other). Collective.
    pub fn forward_pairwise(&self, block: &mut Block<R::Elem>) -> Result<Timings> {
        self.check_block(block)?;
        if self.gathers() {
            return self.forward_gathered(block);
        }
        let mut timings = Timings::default();
        let start = Instant::now();
        agree(self.comm, self.rows.forward(block))?;
        timings.local = start.elapsed();
        let start = Instant::now();
        self.node_levels(block);
        timings.node = start.elapsed();
        let scratch = LargeBuffer::zeroed(|| "the partner's block".into(), self.block_len());
        let mut scratch = agree(self.comm, scratch)?;
        let (ring, parallel) = (self.ring(), self.local.parallel());
        let (cross, me) = (&self.nodes.cross, self.nodes.cross.rank() as usize);
        let mut bit = 1;
        while bit < self.nodes.count {
            let partner = me ^ bit;
            let start = Instant::now();
            collective::exchange(cross, partner, block, &mut scratch);
            timings.exchange += start.elapsed();
            timings.bytes_sent += std::mem::size_of_val::<[R::Elem]>(block) as u64;
            let start = Instant::now();
            let lower = me < partner;
            crate::parallel::zip_chunks(block, &scratch, parallel, COLUMN_TASK, |mine, theirs| {
                for (x, &y) in mine.iter_mut().zip(theirs) {
                    *x = if lower { ring.add(*x, y) } else { ring.sub(y, *x) };
                }
            });
            timings.levels += start.elapsed();
            bit <<= 1;
        }
        Ok(timings)
    }

    /// The normalised inverse, in place, in natural order (`inverse(forward(x)) == x`); refused
    /// for rings without `1/2`. Collective.
    pub fn inverse(&self, block: &mut Block<R::Elem>) -> Result<Timings> {
        if self.log2 > 0 && !self.ring().can_halve() {
            return Err(Error::NoInverseOfTwo { ring: self.ring().to_string() });
        }
        let mut timings = self.forward(block)?;
        let start = Instant::now();
        agree(self.comm, self.ring().divide_by_power_of_two(block, self.log2, self.local.parallel()))?;
        timings.local += start.elapsed();
        Ok(timings)
    }

    /// The index in the whole transform of element `i` of the block after
    /// [`forward_transposed`]. This process is process `j` of node `a`; its block, after the
    /// exchange, holds `N` rows of `c = b/N` columns (`b` the block length): row `m` came from
    /// process `j` of node `m`, and this process holds column range `a` of it. So
    /// `i ↦ m · S·b + j · b + a · c + i mod c` with `m = i / c`. With one node (or blocks shorter
    /// than `P`) the layout is the natural one.
    ///
    /// [`forward_transposed`]: Self::forward_transposed
    pub fn transposed_index(&self, i: usize) -> u64 {
        if self.gathers() || self.nodes.count == 1 {
            return self.block_start() + i as u64;
        }
        let (b, s, n) = (self.block_len() as u64, self.nodes.size as u64, self.nodes.count as u64);
        let (j, a) = (self.rank as u64 % s, self.rank as u64 / s);
        let c = b / n;
        let (row, column) = (i as u64 / c, i as u64 % c);
        row * s * b + j * b + a * c + column
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

    /// Waits at a barrier of every process.
    pub fn barrier(&self) {
        self.comm.barrier();
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

/// The top levels of the transform on the transposed layout: `rows` of equal length, and for
/// `h = 1, 2, …, rows/2` the rows `i` and `i + h` (bit `h` of `i` clear) become `(a + b, a − b)`
/// column by column. Ascending like the textbook loop, up to three levels per pass over memory:
/// the SIMD kernel's column pass where the ring has one, else [`radix`]. `apart`: the bytes
/// between consecutive rows in memory (passes over rows far apart are staggered).
pub fn upper_levels<R: Ring<Elem: Copy>>(
    ring: &R,
    rows: &mut [&mut [R::Elem]],
    parallel: bool,
    backend: Backend,
    apart: usize,
) {
    let p = rows.len();
    let mut h = 1;
    while h < p {
        let levels = if 8 * h <= p {
            3
        } else if 4 * h <= p {
            2
        } else {
            1
        };
        let span = h << levels;
        let staggered = h.saturating_mul(apart) >= STAGGER_MIN_ROW_BYTES;
        for first in (0..p).step_by(span) {
            for i in first..first + h {
                match levels {
                    3 => pass::<R, 8>(ring, rows, i, h, staggered, backend, parallel),
                    2 => pass::<R, 4>(ring, rows, i, h, staggered, backend, parallel),
                    _ => pass::<R, 2>(ring, rows, i, h, staggered, backend, parallel),
                }
            }
        }
        h = span;
    }
}

/// One pass of [`upper_levels`] over the `N` rows `i + j·h`.
fn pass<R: Ring<Elem: Copy>, const N: usize>(
    ring: &R,
    rows: &mut [&mut [R::Elem]],
    i: usize,
    h: usize,
    staggered: bool,
    backend: Backend,
    parallel: bool,
) {
    let picked =
        rows.get_disjoint_mut(std::array::from_fn::<usize, N, _>(|j| i + j * h)).expect("distinct rows");
    let mut picked = picked.map(|r| &mut **r);
    if !ring.transform_rows(&mut picked, staggered, backend, parallel, Internal(())) {
        radix(ring, picked, parallel);
    }
}

/// Bytes of each row that a pass takes at a time (see [`radix`]).
const TILE_BYTES: usize = 16 << 10;

/// Levels `h`, `2h`, …, `(N/2)·h` on `N` rows (2, 4 or 8: the rows `i + j·h` of
/// [`upper_levels`]), for every column, in portable code.
///
/// Rows here lie a whole received piece apart (256 MiB for 2^28 `u32` on two processes), and
/// streams that far apart collide in memory (as the kernel's staggered passes describe): on the
/// development machine a plain loop over two rows took 1.10 s for the 512 MiB of one process,
/// against 0.35 s tile by tile, in the same run. So the pass goes tile by tile
/// ([`TILE_BYTES`] of each row): the tiles are copied into a cache-resident staging buffer, the
/// butterflies run there level by level, two tiles at a time (loops the compiler vectorises),
/// and the tiles are copied back: each row is then read and written in long runs of its own.
/// Same operations, same order.
fn radix<R: Ring<Elem: Copy>, const N: usize>(ring: &R, mut rows: [&mut [R::Elem]; N], parallel: bool) {
    let len = rows[0].len();
    if parallel && len >= 2 * COLUMN_TASK {
        let mid = (len / 2) & !1023;
        let mut left: [&mut [R::Elem]; N] = std::array::from_fn(|_| Default::default());
        let mut right: [&mut [R::Elem]; N] = std::array::from_fn(|_| Default::default());
        for (j, row) in rows.into_iter().enumerate() {
            (left[j], right[j]) = row.split_at_mut(mid);
        }
        crate::parallel::join(true, || radix(ring, left, true), || radix(ring, right, true));
        return;
    }
    let tile = tile_len::<R::Elem>().min(len);
    let mut stage = vec![ring.zero(); N * tile];
    let mut first = 0;
    while first < len {
        let n = tile.min(len - first);
        let columns = first..first + n;
        let mut staged: Vec<&mut [R::Elem]> = stage.chunks_exact_mut(tile).map(|s| &mut s[..n]).collect();
        for (s, row) in staged.iter_mut().zip(&rows) {
            s.copy_from_slice(&row[columns.clone()]);
        }
        // Levels h, 2h, … in ascending order: tiles (j, j + 1), then (j, j + 2), …, the lower
        // keeping a + b, the upper a − b.
        let mut step = 1;
        while step < N {
            for j in (0..N).filter(|j| j & step == 0) {
                let (low, high) = staged.split_at_mut(j + step);
                for (x, y) in low[j].iter_mut().zip(high[0].iter_mut()) {
                    let (a, b) = (*x, *y);
                    *x = ring.add(a, b);
                    *y = ring.sub(a, b);
                }
            }
            step *= 2;
        }
        for (s, row) in staged.iter().zip(rows.iter_mut()) {
            row[columns.clone()].copy_from_slice(s);
        }
        first += n;
    }
}

/// Elements of one tile of a row.
fn tile_len<E>() -> usize {
    (TILE_BYTES / std::mem::size_of::<E>().max(1)).max(1)
}
