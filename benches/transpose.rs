//! The exchange and the top levels of the distributed transform three ways, on `u32` modulo
//! 998 244 353, one thread per process; run under `mpirun -n P` (a plain program):
//!
//! ```text
//! cargo bench --features mpi --bench transpose --no-run
//! mpirun -n 2 target/release/deps/transpose-… [--log2 24,26,28] [--chunks 14,16,18] [--runs 3]
//! ```
//!
//! - `plan`: the transform's own exchange and top levels ([`Plan::forward_transposed`]'s
//!   `exchange + levels`): one all-to-all into a second block, then the top levels.
//! - `all-to-all`: the same all-to-all, then the top levels of this program (tile by tile, like
//!   the transform's), so that the next line differs in the exchange only.
//! - `chunks 2^k`: the in-place transpose in chunks of `2^k` columns, this program's top levels
//!   as its `after`, overlapping the chunk in flight (`waiting` is the exchange left unhidden).
//!
//! The variants alternate within each run, so a busy machine slows them alike; every line gives
//! the median over the runs of the slowest process, and the ratio to `all-to-all` (median of the
//! per-run ratios).

use std::time::{Duration, Instant};

use nimcount::distributed::mpi::collective::SystemOperation;
use nimcount::distributed::mpi::traits::{Communicator, CommunicatorCollectives};
use nimcount::distributed::{Plan, Sharing, mpi, testing};
use nimcount::ring::{Mod32, Ring};

const MODULUS: u32 = 998_244_353;

fn main() {
    let (universe, _) = mpi::initialize_with_threading(mpi::Threading::Funneled).expect("MPI starts");
    let world = universe.world();
    let (mut sizes, mut chunks, mut runs) = (vec![24u32, 26, 28], vec![14u32, 16, 18], 3usize);
    let mut args = std::env::args().skip(1);
    while let Some(flag) = args.next() {
        let list = |value: Option<String>| -> Vec<u32> {
            value.expect("a value").split(',').map(|x| x.parse().expect("a number")).collect()
        };
        match flag.as_str() {
            "--log2" => sizes = list(args.next()),
            "--chunks" => chunks = list(args.next()),
            "--runs" => runs = args.next().expect("a value").parse().expect("a number"),
            "--bench" => {}
            other => panic!("unknown argument {other}"),
        }
    }
    let ring = Mod32::new(MODULUS).unwrap();
    let processes = world.size() as usize;
    for &log2 in &sizes {
        let plan =
            Plan::new(&world, ring, 1 << log2).unwrap().with_parallel(false).with_sharing(Sharing::Exchange);
        let len = plan.block_len();
        let start = plan.block_start();
        let mut block: Vec<u32> =
            (0..len as u64).map(|i| ((start + i) % u64::from(MODULUS)) as u32).collect();
        let mut out = vec![0u32; len];
        let mut whole = plan.block().unwrap();
        // Per variant: the slowest process's time in each run, and (chunks) its waiting time.
        let variants = 2 + chunks.len();
        let mut times = vec![Vec::new(); variants];
        let mut waits = vec![Vec::new(); variants];
        for _ in 0..runs {
            world.barrier();
            whole.copy_from_slice(&block);
            let timings = plan.forward_transposed(&mut whole).unwrap();
            times[0].push(slowest(&world, timings.exchange + timings.levels));

            world.barrier();
            let clock = Instant::now();
            testing::all_to_all(&world, &block, &mut out);
            top_levels(&ring, &mut out.chunks_exact_mut(len / processes).collect::<Vec<_>>());
            times[1].push(slowest(&world, clock.elapsed()));

            for (v, &chunk) in chunks.iter().enumerate() {
                world.barrier();
                let clock = Instant::now();
                let (_, waiting, _) = testing::transpose(
                    &world,
                    &mut block,
                    1 << chunk,
                    |_| {},
                    |rows| top_levels(&ring, rows),
                );
                times[2 + v].push(slowest(&world, clock.elapsed()));
                waits[2 + v].push(slowest(&world, waiting));
            }
        }
        if world.rank() == 0 {
            println!(
                "2^{log2} u32 on {processes} processes (2^{} each), {runs} runs: exchange and top levels",
                len.trailing_zeros()
            );
            let names =
                ["plan (all-to-all + upper_levels)".to_string(), "all-to-all + top levels".to_string()]
                    .into_iter()
                    .chain(chunks.iter().map(|c| format!("in place, chunks of 2^{c}")));
            for (v, name) in names.enumerate() {
                let ratios: Vec<f64> = times[v].iter().zip(&times[1]).map(|(t, base)| t / base).collect();
                let mut line = format!(
                    "  {name:<34} {:>8.3} s  ratio {:.2} (runs {})",
                    median(&times[v]),
                    median(&ratios),
                    ratios.iter().map(|r| format!("{r:.2}")).collect::<Vec<_>>().join(" ")
                );
                if !waits[v].is_empty() {
                    line += &format!("  waiting {:.3} s", median(&waits[v]));
                }
                println!("{line}");
            }
        }
    }
}

/// The largest of every process's `time`, in seconds.
fn slowest<C: Communicator>(comm: &C, time: Duration) -> f64 {
    let mut max = 0.0f64;
    comm.all_reduce_into(&time.as_secs_f64(), &mut max, SystemOperation::max());
    max
}

fn median(x: &[f64]) -> f64 {
    let mut x = x.to_vec();
    x.sort_by(f64::total_cmp);
    x[x.len() / 2]
}

/// The top levels across `rows`: for `h = 1, 2, …`, rows `i` and `i + h` (bit `h` of `i` clear)
/// become `(a + b, a − b)`, tile by tile (rows far apart in memory collide in the cache otherwise).
fn top_levels(ring: &Mod32, rows: &mut [&mut [u32]]) {
    const TILE: usize = 4096;
    let mut stage = vec![0u32; TILE];
    let mut h = 1;
    while h < rows.len() {
        for i in (0..rows.len()).filter(|i| i & h == 0) {
            let [a, b] = rows.get_disjoint_mut([i, i + h]).expect("distinct rows");
            for (t0, t1) in a.chunks_mut(TILE).zip(b.chunks_mut(TILE)) {
                let s1 = &mut stage[..t0.len()];
                s1.copy_from_slice(t1);
                for (x, y) in t0.iter_mut().zip(s1.iter_mut()) {
                    (*x, *y) = (ring.add(*x, *y), ring.sub(*x, *y));
                }
                t1.copy_from_slice(s1);
            }
        }
        h *= 2;
    }
}
