//! The distributed transform and count against the single-process ones, on every process.
//!
//! A plain program (no test harness): run it under `mpirun -n P` for P = 1, 2, 4, … (`.ci/run`
//! does 2 and 4). Every process checks its own part; a failed check panics, which ends the
//! process with a non-zero status, and `mpirun` then stops the others.

use std::fmt::Debug;

use nimcount::count::Query;
use nimcount::distributed::mpi::traits::Communicator;
use nimcount::distributed::{Plan, Sharing, agree, mpi};
use nimcount::fwht;
use nimcount::game::Game;
use nimcount::histogram::Histogram;
use nimcount::num_bigint::BigUint;
use nimcount::ring::{Exact64, Exact128, Float32, Float64, Mod32, Mod64, Ring, Wrap32, Wrap64};
use nimcount::{Error, Result};

type World = mpi::topology::SimpleCommunicator;

/// Every grouping: all processes of the machine sharing memory, every process a node of its
/// own (the exchange between nodes), and nodes of two processes (both stages: with 4 processes,
/// 2 nodes of 2).
const SHARINGS: [Sharing; 3] = [Sharing::Node, Sharing::Exchange, Sharing::AtMost(2)];

fn main() {
    let (universe, _) = mpi::initialize_with_threading(mpi::Threading::Funneled).expect("MPI starts");
    let world = universe.world();
    let mut checks = Checks { world: &world, passed: 0 };
    let start = std::time::Instant::now();
    checks.transforms();
    let transforms = start.elapsed();
    checks.counts();
    let counts = start.elapsed() - transforms;
    checks.errors();
    let start = std::time::Instant::now();
    checks.transposes();
    let transposes = start.elapsed();
    if world.rank() == 0 {
        eprintln!("transforms {transforms:.1?}, counts {counts:.1?}, transposes {transposes:.1?}");
    }
    if world.rank() == 0 {
        println!("distributed checks on {} processes: {} passed, 0 failed", world.size(), checks.passed);
    }
}

struct Checks<'w> {
    world: &'w World,
    passed: usize,
}

/// SplitMix64: the same numbers on every process.
fn random(seed: u64, i: usize) -> u64 {
    let mut z = seed.wrapping_add((i as u64 + 1).wrapping_mul(0x9E37_79B9_7F4A_7C15));
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// Bit for bit (floats included: -0.0 is not 0.0).
fn bits<E: bytemuck::Pod>(x: &[E]) -> &[u8] {
    bytemuck::cast_slice(x)
}

impl Checks<'_> {
    fn processes(&self) -> usize {
        self.world.size() as usize
    }

    /// Every ring at sizes from the smallest the processes allow (blocks shorter than `P`: the
    /// gathered path) through 2^22: the natural and transposed layouts against the
    /// single-process transform, and the inverse back to the input.
    fn transforms(&mut self) {
        let p = self.processes().trailing_zeros();
        let mut sizes: Vec<u32> = (p..=2 * p + 1).collect();
        sizes.extend([10, 11, 13, 16, 19, 22]);
        sizes.dedup();
        // 2^24, the largest size asked of the distributed transform's tests, for two rings.
        let m32 = 998_244_353u32;
        let n24 = 1usize << 24;
        self.transform(Mod32::new(m32).unwrap(), 24, |s, i| residue(s, i, n24, u64::from(m32)) as u32);
        self.transform(Float32, 24, |s, i| float(s, i) as f32);
        for &log2 in &sizes {
            let n = 1usize << log2;
            let big32 = (1u32 << 31) - 1;
            let m64 = (1u64 << 62) - 57;
            self.transform(Mod32::new(m32).unwrap(), log2, |s, i| residue(s, i, n, u64::from(m32)) as u32);
            self.transform(Mod32::new(big32).unwrap(), log2, |s, i| {
                residue(s, i, n, u64::from(big32)) as u32
            });
            self.transform(Mod64::new(m64).unwrap(), log2, |s, i| residue(s, i, n, m64));
            self.transform(Wrap32, log2, |s, i| if i == 1 { u32::MAX } else { random(s, i) as u32 });
            self.transform(Wrap64, log2, |s, i| if i == 1 { u64::MAX } else { random(s, i) });
            // Exact rings at their bound: |x| <= MAX / n, so the absolute values sum to at most MAX.
            let b64 = i64::MAX / n as i64;
            self.transform(Exact64, log2, move |s, i| if i % 5 == 0 { b64 } else { signed(s, i, b64) });
            let b128 = i128::MAX / n as i128;
            self.transform(Exact128, log2, move |s, i| {
                if i % 3 == 0 { -b128 } else { i128::from(signed(s, i, i64::MAX)) }
            });
            self.transform(Float32, log2, |s, i| float(s, i) as f32);
            self.transform(Float64, log2, float);
            // Constant vectors.
            self.transform(Mod32::new(m32).unwrap(), log2, |_, _| m32 - 1);
            self.transform(Float64, log2, |_, _| 0.1);
        }
    }

    fn transform<R>(&mut self, ring: R, log2: u32, value: impl Fn(u64, usize) -> R::Elem)
    where
        R: Ring<Elem: bytemuck::Pod + Debug>,
    {
        let n = 1usize << log2;
        let whole: Vec<R::Elem> = (0..n).map(|i| value(0x5eed + u64::from(log2), i)).collect();
        let mut expected = whole.clone();
        fwht::Plan::new(ring.clone(), n).unwrap().forward(&mut expected).unwrap();
        let what = format!("{ring} 2^{log2} on {} processes", self.processes());
        // Threads only change anything from 2^16 elements on.
        let threads: &[bool] = if log2 >= 16 { &[false, true] } else { &[false] };
        for (&parallel, sharing) in threads.iter().flat_map(|p| SHARINGS.map(|s| (p, s))) {
            let what = format!("{what}, {sharing:?}, threads {parallel}");
            let plan = Plan::new(self.world, ring.clone(), n as u64)
                .unwrap()
                .with_parallel(parallel)
                .with_sharing(sharing);
            let (start, len) = (plan.block_start() as usize, plan.block_len());
            let input = &whole[start..start + len];
            let mut block = plan.block().unwrap();
            block.copy_from_slice(input);
            plan.forward(&mut block).unwrap();
            assert!(bits(&block) == bits(&expected[start..start + len]), "{what}: natural order");

            block.copy_from_slice(input);
            plan.forward_pairwise(&mut block).unwrap();
            assert!(bits(&block) == bits(&expected[start..start + len]), "{what}: pairwise exchanges");

            block.copy_from_slice(input);
            plan.forward_transposed(&mut block).unwrap();
            let want: Vec<R::Elem> = (0..len).map(|i| expected[plan.transposed_index(i) as usize]).collect();
            assert!(bits(&block) == bits(&want), "{what}: transposed layout");
            let mut seen: Vec<u64> = (0..len).map(|i| plan.transposed_index(i)).collect();
            seen.sort_unstable();
            seen.dedup();
            assert_eq!(seen.len(), len, "{what}: transposed indices repeat");

            if ring.can_halve() {
                // The inverse as one process computes it, or its refusal (an exact ring's bound).
                let mut back = expected.clone();
                let single = fwht::Plan::new(ring.clone(), n).unwrap().inverse(&mut back);
                block.copy_from_slice(&expected[start..start + len]);
                match (single, plan.inverse(&mut block)) {
                    (Ok(()), Ok(_)) => {
                        assert!(bits(&block) == bits(&back[start..start + len]), "{what}: inverse")
                    }
                    (Err(_), Err(Error::Overflow { .. })) => {}
                    (one, here) => panic!("{what}: inverse {one:?} on one process, {here:?} here"),
                }
            }
            self.passed += 4;
        }
    }

    /// Counts of the seed query and of octal games against the single-process engine.
    fn counts(&mut self) {
        let seed = || {
            Query::new(Game::parse("subtract:1-1000000").unwrap())
                .sizes(1u64, 12_983_567_378_251u64)
                .heaps(98_670_634_123u64)
        };
        let ten9 = BigUint::from(10u32).pow(9);
        let two64 = BigUint::from(1u8) << 64u32;
        for m in [
            ten9.clone() + 7u8,
            two64.clone(),
            ten9.clone(),                       // 2^9 · 5^9
            BigUint::from(998_244_353u64 << 5), // 2^5 times an odd word
            BigUint::from(1u8),
            BigUint::from(2u8),
            (BigUint::from(1u8) << 63u32) - 25u8, // an odd modulus above 2^31 (Mod64)
            BigUint::from(1u8) << 100u32,         // a + d = 120: 128-bit words
        ] {
            self.same_count(&format!("seed query mod {m}"), seed().modulus(m.clone()));
        }
        for k in [0u32, 1, 3] {
            self.same_count(&format!("seed query, {k} heaps, exact"), seed().heaps(k));
            self.same_count(
                &format!("seed query, {k} heaps, mod 2^64"),
                seed().heaps(k).modulus(two64.clone()),
            );
        }
        let octal = |spec: &str| Query::new(Game::parse(spec).unwrap()).sizes(1u64, 10u64.pow(12));
        for spec in ["octal:0.137", "octal:0.07"] {
            self.same_count(
                &format!("{spec} mod 10^9+7"),
                octal(spec).heaps(7u32).modulus(ten9.clone() + 7u8),
            );
            self.same_count(&format!("{spec} exact"), octal(spec).heaps(3u32));
            self.same_count(&format!("{spec} mod 2^64"), octal(spec).heaps(11u32).modulus(two64.clone()));
        }
        let nim = Query::new(Game::Nim).sizes(0u32, 1000u32).heaps(4u32);
        self.same_count("nim 0..=1000, exact", nim);
    }

    fn same_count(&mut self, what: &str, query: Query<'_>) {
        let one = query.count().unwrap();
        for sharing in SHARINGS {
            let here =
                query.count_distributed_with(self.world, sharing).unwrap_or_else(|e| panic!("{what}: {e}"));
            assert_eq!(
                (&here.losing, &here.winning, &here.total),
                (&one.losing, &one.winning, &one.total),
                "{what}, {sharing:?}"
            );
            assert_eq!(here.modulus, one.modulus, "{what}");
            assert_eq!(here.report.log2_len, one.report.log2_len, "{what}");
            self.passed += 1;
        }
    }

    /// A mistake on one process is an error on every process, never a hang.
    fn errors(&mut self) {
        let (rank, processes) = (self.world.rank() as usize, self.processes());
        let last = rank == processes - 1;

        // The last process alone fails a local step.
        let mine: Result<()> = if last { Err(Error::EmptyBuffer) } else { Ok(()) };
        match agree(self.world, mine) {
            Err(Error::EmptyBuffer) => assert!(last),
            Err(Error::ProcessFailed { rank: r, processes: p, message }) => {
                assert!(!last);
                assert_eq!((r, p), (processes - 1, processes));
                assert_eq!(message, Error::EmptyBuffer.to_string());
            }
            other => panic!("agree: {other:?}"),
        }

        // A block of the wrong length on the last process.
        let plan = Plan::new(self.world, Wrap32, 1 << 12).unwrap();
        let shorter = Plan::new(self.world, Wrap32, 1 << 11).unwrap();
        // Blocks are freed collectively: both stay owned here, so every process drops them in
        // the same order.
        let (mut right, mut wrong) = (plan.block().unwrap(), shorter.block().unwrap());
        let block = if last { &mut wrong } else { &mut right };
        match plan.forward(block) {
            Err(Error::LengthMismatch { .. }) => assert!(last),
            Err(Error::ProcessFailed { rank: r, .. }) => assert!(!last && r == processes - 1),
            other => panic!("wrong length: {other:?}"),
        }

        // Exact values whose sum passes i64::MAX only over all processes.
        let n = 1usize << 12;
        let plan = Plan::new(self.world, Exact64, n as u64).unwrap();
        let each = i64::MAX / n as i64 * processes as i64; // every block sums to about MAX
        let mut block = plan.block().unwrap();
        block.fill(each);
        let result = plan.forward(&mut block);
        if processes > 1 {
            assert!(matches!(result, Err(Error::Overflow { .. })), "global bound: {result:?}");
            assert!(block.iter().all(|&x| x == each), "refused before anything was written");
        } else {
            result.unwrap();
        }

        if processes > 1 {
            // Lengths that differ between processes.
            let err = Plan::new(self.world, Wrap32, 1 << (10 + rank)).unwrap_err();
            assert!(matches!(err, Error::ProcessesDisagree { .. }), "{err:?}");
            // More processes than elements, and a count over fewer slots than processes.
            let err = Plan::new(self.world, Wrap32, processes as u64 / 2).unwrap_err();
            assert!(matches!(err, Error::TooManyProcesses { .. }), "{err:?}");
            let h = Histogram::from_values(&[0], 0, 0).unwrap();
            let err = Query::from_histogram(h).heaps(2u32).count_distributed(self.world).unwrap_err();
            assert!(matches!(err, Error::TooManyProcesses { .. }), "{err:?}");
        }
        self.passed += 5;
    }
}

/// Random residues below `m`, with 0, 1 and `m − 1` at fixed places.
fn residue(seed: u64, i: usize, n: usize, m: u64) -> u64 {
    match i {
        0 => m - 1,
        2 => 1,
        _ if i == n - 1 => m - 1,
        _ if i % 7 == 3 => 0,
        _ => random(seed, i) % m,
    }
}

/// Random in `-bound..=bound`.
fn signed(seed: u64, i: usize, bound: i64) -> i64 {
    let span = bound as u128 * 2 + 1;
    ((random(seed, i) as u128 % span) as i128 - bound as i128) as i64
}

/// Random in `[-1, 1)`, with zeros of both signs and large and tiny magnitudes.
fn float(seed: u64, i: usize) -> f64 {
    match i % 11 {
        1 => 0.0,
        4 => -0.0,
        6 => 3.0e30,
        9 => -1.0e-30,
        _ => (random(seed, i) >> 11) as f64 / (1u64 << 52) as f64 - 1.0,
    }
}

// The in-place transpose (`nimcount::distributed::testing::transpose`) against the all-to-all.

impl Checks<'_> {
    /// Every element width the exchange knows (1, 4, 8 and 16 bytes, floats), pieces of 0, 1 and
    /// more columns, chunks that divide the piece and chunks that do not, one chunk and many.
    fn transposes(&mut self) {
        use nimcount::distributed::testing::CHUNK;
        let shapes: &[(usize, &[usize])] = &[
            (0, &[1, 4]),
            (1, &[0, 1, 4]),
            (2, &[1, 2, 3]),
            (7, &[1, 2, 7, 8]),
            (64, &[16, 10, 64, 1000]),
            (1000, &[1, 999, 128]),
            (CHUNK + 5, &[CHUNK, 4096]),
        ];
        for &(piece, chunks) in shapes {
            for &chunk in chunks {
                self.transpose(piece, chunk, |i| i as u8);
                self.transpose(piece, chunk, |i| i as u32);
                self.transpose(piece, chunk, |i| i);
                self.transpose(piece, chunk, |i| -(i as i128) << 64 | i as i128);
                self.transpose(piece, chunk, f64::from_bits);
            }
        }
    }

    /// One transpose of pieces of `piece` columns in chunks of `chunk`, every element a distinct
    /// `value(random)`: `before` flips bits that must travel, `after` flips others that must
    /// stay, and both record the columns they saw, where the rows lie and what they held.
    fn transpose<E: bytemuck::Pod + Send + Sync>(
        &mut self,
        piece: usize,
        chunk: usize,
        value: impl Fn(u64) -> E,
    ) {
        use nimcount::distributed::testing::{all_to_all, transpose};
        let (rank, processes) = (self.world.rank() as usize, self.processes());
        let what = format!(
            "transpose of {processes} pieces of {piece} {} in chunks of {chunk}, rank {rank}",
            std::any::type_name::<E>()
        );
        let len = processes * piece;
        let input: Vec<E> = (0..len).map(|i| value(random(0x7a5e, rank * len + i))).collect();
        let (early, late) = (0xa5u8, 0x3cu8);
        let mut sent = input.clone();
        flip(&mut sent, early);
        let mut expected = vec![E::zeroed(); len];
        if len > 0 {
            // (Open MPI takes two empty buffers for one and refuses them.)
            all_to_all(self.world, &sent, &mut expected);
        }
        let arrived = expected.clone();
        flip(&mut expected, late);

        let mut block = input.clone();
        let base = block.as_ptr() as usize;
        let size = std::mem::size_of::<E>();
        // A callback's check: rows[q] is piece q's slice of the same columns as row 0 and holds
        // what `reference` holds there; then its bits flip by `salt`, and its columns are noted.
        let visit = |rows: &mut [&mut [E]], reference: &[E], salt: u8, seen: &mut Vec<(usize, usize)>| {
            assert_eq!(rows.len(), processes, "{what}: one row per piece");
            let (column, width) = ((rows[0].as_ptr() as usize - base) / size, rows[0].len());
            for (q, row) in rows.iter_mut().enumerate() {
                assert_eq!((row.as_ptr() as usize - base) / size, q * piece + column, "{what}: row {q}");
                let stage = if salt == early { "before" } else { "after" };
                assert!(bits(row) == bits(&reference[q * piece + column..][..width]), "{what}: {stage}");
                flip(row, salt);
            }
            seen.push((column, width));
        };
        let (mut early_seen, mut late_seen) = (Vec::new(), Vec::new());
        let (bytes, _, _) = transpose(
            self.world,
            &mut block,
            chunk,
            |rows| visit(rows, &input, early, &mut early_seen),
            |rows| visit(rows, &arrived, late, &mut late_seen),
        );
        assert!(bits(&block) == bits(&expected), "{what}: result");
        assert_eq!(bytes, ((processes - 1) * piece * size) as u64, "{what}: bytes sent");
        // Every column once, in ascending chunks of the width asked for (the last one shorter).
        let width = chunk.clamp(1, piece.max(1));
        let chunks: Vec<(usize, usize)> =
            (0..piece).step_by(width).map(|column| (column, width.min(piece - column))).collect();
        assert_eq!(early_seen, chunks, "{what}: the chunks before");
        assert_eq!(late_seen, chunks, "{what}: the chunks after");
        self.passed += 1;
    }
}

/// Every byte of `x` xor `salt`.
fn flip<E: bytemuck::Pod>(x: &mut [E], salt: u8) {
    for byte in bytemuck::cast_slice_mut::<E, u8>(x) {
        *byte ^= salt;
    }
}
