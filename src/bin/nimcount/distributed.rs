//! `--distributed`: `bench`, `count` and `transform` over MPI, one process per block.
//!
//! Every process runs the same command line (under `mpirun`); rank 0 prints the results, every
//! process prints its own one-line error. Built without the `mpi` feature, `--distributed` is
//! refused.

#[cfg(not(feature = "mpi"))]
mod disabled {
    use crate::common::{Result, usage};

    /// The refusal of a binary built without the `mpi` feature.
    fn refuse() -> Result<()> {
        Err(usage(
            "--distributed needs nimcount built with the mpi feature (cargo build --release --features mpi)",
        ))
    }

    pub fn bench(_: &crate::bench::Args) -> Result<()> {
        refuse()
    }

    pub fn count(
        _: &nimcount::count::Query<'_>,
        _: crate::bench::Exchange,
        _: impl FnOnce(&nimcount::count::Counts, usize) -> Result<()>,
    ) -> Result<()> {
        refuse()
    }

    pub fn transform(_: &crate::transform::Args) -> Result<()> {
        refuse()
    }

    pub fn survey(_: &crate::survey::Args, _: nimcount::survey::Survey<'static>) -> Result<()> {
        refuse()
    }
}

#[cfg(not(feature = "mpi"))]
pub use disabled::{bench, count, survey, transform};

#[cfg(feature = "mpi")]
mod enabled {
    use std::io::Write;
    use std::time::{Duration, Instant};

    use nimcount::distributed::mpi::collective::SystemOperation;
    use nimcount::distributed::mpi::topology::SimpleCommunicator;
    use nimcount::distributed::mpi::traits::{Communicator, CommunicatorCollectives, Root};
    use nimcount::distributed::{self, Plan, agree, mpi};
    use nimcount::error::Bytes;
    use nimcount::{count::Counts, count::Query};

    use crate::bench::{self, Timing, show};
    use crate::common::{self, Failure, Result, usage};
    use crate::output::Output;
    use crate::rings::{self, CliRing, with_ring};

    /// Runs `work` with MPI started. An error is printed here, before MPI stops: stopping waits
    /// for every process, so every process has printed its line before any exits (`mpirun`
    /// ends the others as soon as one exits with a failure).
    fn with_mpi(work: impl FnOnce(&SimpleCommunicator) -> Result<()>) -> Result<()> {
        let (universe, _) = mpi::initialize_with_threading(mpi::Threading::Funneled)
            .ok_or_else(|| usage("MPI is already running in this process"))?;
        let result = work(&universe.world());
        let failed = result.is_err();
        if let Err(err) = result {
            // One write for the whole line, so that lines of several processes do not interleave.
            let _ = std::io::stderr().write_all(format!("error: {err}\n").as_bytes());
            common::REPORTED.store(true, std::sync::atomic::Ordering::SeqCst);
        }
        drop(universe);
        if failed { Err(Failure::Reported) } else { Ok(()) }
    }

    /// `mpirun -n P nimcount bench --distributed …`.
    pub fn bench(args: &bench::Args) -> Result<()> {
        if args.sweep.is_some() || args.plot.is_some() {
            return Err(usage("--distributed times one size: give --log2 N, not --sweep or --plot"));
        }
        let [name] = args.ring.as_slice() else {
            return Err(usage("--distributed times one ring: give --ring once"));
        };
        let ring = rings::parse(name, args.modulus.as_deref())?;
        let log2 = bench::parse_log2("--log2", args.log2.as_deref().unwrap_or("0"))?;
        let (setup, _) = bench::setup(args)?;
        // MPI is called from this thread only (the main one): the transforms' threads come from
        // the global pool, sized by --threads.
        rayon::ThreadPoolBuilder::new()
            .num_threads(setup.threads)
            .build_global()
            .map_err(|e| usage(format!("cannot start {} threads: {e}", setup.threads)))?;
        with_mpi(|world| {
            let measured = with_ring!(ring, |r| measure(world, r, &ring, log2, setup, args))?;
            if world.rank() == 0 {
                report(args, ring, log2, setup, &measured)?;
            }
            Ok(())
        })
    }

    /// What the processes measured together: every part's runs, each the slowest process's.
    struct Measured {
        processes: usize,
        per_node: usize,
        bytes: u64,
        /// Bytes one process sent per transform (the most of any process).
        sent: u64,
        total: Timing,
        local: Timing,
        node: Timing,
        exchange: Timing,
        levels: Timing,
        /// With `--compare`: one process on the whole vector, one thread and all threads.
        alone: Option<[Timing; 2]>,
    }

    fn measure<R: CliRing>(
        world: &SimpleCommunicator,
        ring: R,
        any: &nimcount::ring::AnyRing,
        log2: u32,
        setup: bench::Setup,
        args: &bench::Args,
    ) -> Result<Measured> {
        let (runs, pairwise) = (setup.runs, args.exchange == bench::Exchange::Pairwise);
        let plan = Plan::new(world, ring.clone(), 1u64 << log2)?
            .with_backend(setup.backend)?
            .with_parallel(setup.threads > 1)
            .with_sharing(args.exchange.sharing());
        let mut block = plan.block()?;
        let start = plan.block_start();
        for (i, x) in block.iter_mut().enumerate() {
            *x = ring.bench_value(bench::random_bits(start + i as u64));
        }
        let mut sent = 0;
        let mut once = |block: &mut distributed::Block<R::Elem>| -> Result<[u64; 5]> {
            world.barrier();
            let began = Instant::now();
            let t = if pairwise { plan.forward_pairwise(block)? } else { plan.forward(block)? };
            let total = began.elapsed();
            let mine = [total, t.local, t.node, t.exchange, t.levels].map(|d| d.as_nanos() as u64);
            let mut slowest = [0u64; 5];
            world.all_reduce_into(&mine, &mut slowest, SystemOperation::max());
            world.all_reduce_into(&t.bytes_sent, &mut sent, SystemOperation::max());
            if ring.can_halve() {
                plan.inverse(block)?;
            }
            Ok(slowest)
        };
        once(&mut block)?; // warm-up
        let mut all = Vec::new();
        let mut elapsed = Duration::ZERO;
        loop {
            // Every process sees the same reduced times, so every process stops together.
            let done = match runs {
                Some(r) => all.len() >= r.max(1),
                None => {
                    (all.len() >= 5 && elapsed >= Duration::from_millis(500))
                        || all.len() >= 200
                        || (!all.is_empty() && elapsed >= Duration::from_secs(5))
                }
            };
            if done {
                break;
            }
            let run = once(&mut block)?;
            elapsed += Duration::from_nanos(run[0]);
            all.push(run);
        }
        drop(block);
        let part = |i: usize| bench::summarize(all.iter().map(|run| Duration::from_nanos(run[i])).collect());
        let alone =
            if args.compare { Some(alone(world, ring, any, log2, setup, plan.processes())?) } else { None };
        Ok(Measured {
            processes: plan.processes(),
            per_node: plan.processes_per_node(),
            bytes: (1u64 << log2) * std::mem::size_of::<R::Elem>() as u64,
            sent,
            total: part(0),
            local: part(1),
            node: part(2),
            exchange: part(3),
            levels: part(4),
            alone,
        })
    }

    /// `--compare`: rank 0 times the single-process transform of the whole vector with one
    /// thread and with the threads of every process together; the other processes wait without
    /// spinning, so that the cores are rank 0's (with `mpirun --bind-to none`: Open MPI binds each
    /// of two processes to one core by default, rank 0's threads included). Collective; every
    /// process returns the times.
    fn alone<R: CliRing>(
        world: &SimpleCommunicator,
        ring: R,
        any: &nimcount::ring::AnyRing,
        log2: u32,
        setup: bench::Setup,
        processes: usize,
    ) -> Result<[Timing; 2]> {
        let mut times = [Duration::ZERO; 6];
        let mut measured: Result<()> = Ok(());
        if world.rank() == 0 {
            for (i, threads) in [1, setup.threads * processes].into_iter().enumerate() {
                let one = rayon::ThreadPoolBuilder::new()
                    .num_threads(threads)
                    .build()
                    .map_err(|e| usage(format!("cannot start {threads} threads: {e}")))
                    .and_then(|pool| {
                        let setup = bench::Setup { threads, textbook: false, ..setup };
                        pool.install(|| bench::measure(ring.clone(), *any, log2, setup, &|_| {}))
                    });
                match one {
                    Ok(m) => {
                        times[3 * i..3 * i + 3].copy_from_slice(&[m.fast.median, m.fast.min, m.fast.max])
                    }
                    Err(e) => {
                        measured = Err(e);
                        break;
                    }
                }
            }
        }
        wait_quietly(world);
        let mut failed = u8::from(measured.is_err());
        world.process_at_rank(0).broadcast_into(&mut failed);
        if failed != 0 {
            measured?;
            return Err(usage("process 0 failed to time one process alone (--compare)"));
        }
        let mut nanos = times.map(|d| d.as_nanos() as u64);
        world.process_at_rank(0).broadcast_into(&mut nanos[..]);
        let timing = |i: usize| Timing {
            runs: 0,
            median: Duration::from_nanos(nanos[3 * i]),
            min: Duration::from_nanos(nanos[3 * i + 1]),
            max: Duration::from_nanos(nanos[3 * i + 2]),
        };
        Ok([timing(0), timing(1)])
    }

    /// A barrier that sleeps while it waits instead of spinning (MPI's blocking barrier keeps a
    /// core busy, which would steal it from rank 0's measurement).
    fn wait_quietly(world: &SimpleCommunicator) {
        let mut request = world.immediate_barrier();
        loop {
            match request.test() {
                Ok(_) => return,
                Err(pending) => request = pending,
            }
            std::thread::sleep(Duration::from_millis(2));
        }
    }

    fn report(
        args: &bench::Args,
        ring: nimcount::ring::AnyRing,
        log2: u32,
        setup: bench::Setup,
        m: &Measured,
    ) -> Result<()> {
        let gbps = m.bytes as f64 / m.total.median.as_nanos().max(1) as f64;
        let exchange_gbps = m.sent as f64 / m.exchange.median.as_nanos().max(1) as f64;
        let share = |t: Timing| t.median.as_secs_f64() / m.total.median.as_secs_f64().max(1e-12);
        let speedup = |t: Timing| t.median.as_secs_f64() / m.total.median.as_secs_f64().max(1e-12);
        let mut out = common::stdout();
        let block_log2 = log2 - m.processes.trailing_zeros().min(log2);
        let exchange = match args.exchange {
            bench::Exchange::Shared => "shared",
            bench::Exchange::AllToAll => "all-to-all",
            bench::Exchange::Pairwise => "pairwise",
        };
        let threads = setup.threads;
        if args.json {
            let mut value = serde_json::json!({
                "ring": ring.name(),
                "modulus": ring.modulus().map(|m| m.to_string()),
                "backend": setup.backend.name(),
                "log2": log2,
                "elements": 1u64 << log2,
                "processes": m.processes,
                "processes_per_node": m.per_node,
                "exchange": exchange,
                "threads": threads,
                "runs": m.total.runs,
                "median_ns": m.total.median.as_nanos() as u64,
                "min_ns": m.total.min.as_nanos() as u64,
                "max_ns": m.total.max.as_nanos() as u64,
                "local_median_ns": m.local.median.as_nanos() as u64,
                "node_median_ns": m.node.median.as_nanos() as u64,
                "exchange_median_ns": m.exchange.median.as_nanos() as u64,
                "levels_median_ns": m.levels.median.as_nanos() as u64,
                "exchange_share": share(m.exchange),
                "exchange_bytes": m.sent,
                "exchange_gbps": exchange_gbps,
                "gbps": gbps,
            });
            if let Some([one, all]) = m.alone {
                value["alone_1_thread_median_ns"] = (one.median.as_nanos() as u64).into();
                value["alone_all_threads_median_ns"] = (all.median.as_nanos() as u64).into();
                value["alone_all_threads"] = (threads * m.processes).into();
                value["speedup_vs_1_thread"] = speedup(one).into();
                value["speedup_vs_all_threads"] = speedup(all).into();
            }
            writeln!(out, "{value}").map_err(common::stdout_error)?;
        } else {
            let modulus = ring.modulus().map(|m| format!(" mod {m}")).unwrap_or_default();
            let nodes = m.processes / m.per_node.max(1);
            let mut text = format!(
                "distributed forward transform of 2^{log2} {}{modulus} elements ({}) on {} process{} \
                 (2^{block_log2} each; {nodes} node{} of {} sharing memory; exchange {exchange}), backend {}, \
                 {threads} thread{} each\n",
                ring.name(),
                Bytes(m.bytes),
                m.processes,
                if m.processes == 1 { "" } else { "es" },
                if nodes == 1 { "" } else { "s" },
                m.per_node,
                setup.backend,
                if threads == 1 { "" } else { "s" },
            );
            text += &format!(
                "total       median {:>10}  (min {}, max {}, {})  {gbps:.2} GB/s\n",
                show(m.total.median),
                show(m.total.min),
                show(m.total.max),
                common::plural(m.total.runs, "run", "runs")
            );
            for (name, t) in
                [("local", m.local), ("node", m.node), ("exchange", m.exchange), ("top levels", m.levels)]
            {
                text += &format!(
                    "{name:<11} median {:>10}  {:>5.1}% of the total",
                    show(t.median),
                    100.0 * share(t)
                );
                if name == "exchange" {
                    text += &format!("  ({} sent per process, {exchange_gbps:.2} GB/s)", Bytes(m.sent));
                }
                text += "\n";
            }
            if let Some([one, all]) = m.alone {
                let all_threads = threads * m.processes;
                text += &format!(
                    "one process, 1 thread      median {:>10}  distributed is {}\n",
                    show(one.median),
                    bench::faster_or_slower(speedup(one))
                );
                text += &format!(
                    "one process, {all_threads} thread{:<6} median {:>10}  distributed is {}\n",
                    if all_threads == 1 { "" } else { "s" },
                    show(all.median),
                    bench::faster_or_slower(speedup(all))
                );
            }
            out.write_all(text.as_bytes()).map_err(common::stdout_error)?;
        }
        out.flush().map_err(common::stdout_error)
    }

    /// `mpirun -n P nimcount count … --distributed`: every process counts its blocks, rank 0
    /// prints (`print` gets the counts and the number of processes).
    pub fn count(
        query: &Query<'_>,
        exchange: bench::Exchange,
        print: impl FnOnce(&Counts, usize) -> Result<()>,
    ) -> Result<()> {
        with_mpi(|world| {
            let counts = query.count_distributed_with(world, exchange.sharing())?;
            if world.rank() == 0 {
                print(&counts, world.size() as usize)?;
            }
            Ok(())
        })
    }

    /// `mpirun -n P nimcount transform --distributed …`: every process reads its slice of the
    /// input file and writes its slice of the output file (binary files on a file system every
    /// process sees); the output appears whole or not at all.
    pub fn transform(args: &crate::transform::Args) -> Result<()> {
        if args.format != crate::transform::Format::Binary {
            return Err(usage("--distributed reads and writes binary files (--format binary)"));
        }
        if args.input.as_os_str() == "-" {
            return Err(usage("--distributed reads slices of a file every process sees, not standard input"));
        }
        let ring = rings::parse(&args.ring, args.modulus.as_deref())?;
        let backend = common::backend(None)?;
        // Before MPI starts: a refusal here ends this process, and mpirun then ends the others.
        let output = Output::resolve(&args.output)?;
        output.regular_file()?;
        with_mpi(|world| with_ring!(ring, |r| transform_slices(world, r, args, &output, backend)))
    }

    /// Reads, transforms and writes this process's block. Rank 0 creates the shared temporary
    /// file (named after its process id, which every process learns) and renames it into place
    /// once every block is on disk; it is removed on any failure and on a signal.
    fn transform_slices<R: CliRing>(
        world: &SimpleCommunicator,
        ring: R,
        args: &crate::transform::Args,
        output: &Output,
        backend: nimcount::fwht::Backend,
    ) -> Result<()> {
        let size = std::mem::size_of::<R::Elem>() as u64;
        let n = distributed::elements_in_file(world, &args.input, size)?;
        let plan = Plan::new(world, ring, n)?.with_backend(backend)?.with_sharing(args.exchange.sharing());
        let mut block = plan.block()?;
        plan.read_block(&args.input, &mut block)?;
        if args.inverse {
            plan.inverse(&mut block)?;
        } else {
            // --unnormalized is the forward matrix again (W · W = n · I).
            plan.forward(&mut block)?;
        }
        let lead = world.rank() == 0;
        let mut id = std::process::id();
        world.process_at_rank(0).broadcast_into(&mut id);
        let shared = agree(world, if lead { output.share(id, n * size).map(Some) } else { Ok(None) })?;
        plan.write_block(&output.shared_name(id)?, &mut block)?;
        Ok(agree(world, shared.map_or(Ok(()), |s| s.commit()))?)
    }

    /// Every process's result agreed on: a process that failed returns its own failure, the
    /// others [`nimcount::Error::ProcessFailed`] with its message.
    fn agree_all<T>(world: &SimpleCommunicator, local: Result<T>) -> Result<T> {
        let (value, failure) = match local {
            Ok(v) => (Some(v), None),
            Err(f) => (None, Some(f)),
        };
        let probe = match &failure {
            None => Ok(()),
            Some(f) => Err(nimcount::Error::ProcessFailed {
                rank: world.rank() as usize,
                processes: world.size() as usize,
                message: f.to_string(),
            }),
        };
        match agree(world, probe) {
            Ok(()) => Ok(value.expect("a value where nothing failed")),
            Err(e) => Err(failure.unwrap_or(Failure::Library(e))),
        }
    }

    /// `mpirun -n P nimcount survey --distributed …`: process `r` surveys the games `r`,
    /// `r + P`, …; rank 0 gathers them and prints the same output as one process would. With
    /// `--resume`, rank 0 opens (or creates) the file first, then the others, and every process
    /// appends its own games to it.
    pub fn survey(args: &crate::survey::Args, survey: nimcount::survey::Survey<'static>) -> Result<()> {
        use mpi::datatype::PartitionMut;

        use crate::survey::{Kept, open_journal, print, share};

        with_mpi(|world| {
            let (rank, processes) = (world.rank() as usize, world.size() as usize);
            let root = world.process_at_rank(0);
            let first = agree_all(world, if rank == 0 { open_journal(args, &survey) } else { Ok(None) })?;
            let journal = agree_all(world, if rank == 0 { Ok(first) } else { open_journal(args, &survey) })?;
            let progress = common::TerminalProgress::new();
            let quiet = nimcount::progress::Silent;
            let survey = survey.progress(if rank == 0 { &progress } else { &quiet });
            let mine = agree_all(world, share(&survey, journal.as_ref(), (rank, processes)))?;
            if rank == 0 {
                nimcount::progress::Progress::finish(&progress);
            }
            let bytes = serde_json::to_vec(&mine).expect("JSON");
            let len = i32::try_from(bytes.len())
                .map_err(|_| usage("a process's games are beyond 2 GiB of JSON"))?;
            if rank != 0 {
                root.gather_into(&len);
                root.gather_varcount_into(&bytes[..]);
                return agree_all(world, Ok(()));
            }
            let mut lens = vec![0i32; processes];
            root.gather_into_root(&len, &mut lens[..]);
            let displs: Vec<i32> =
                lens.iter().scan(0, |at, &n| Some(std::mem::replace(at, *at + n))).collect();
            let mut all = vec![0u8; lens.iter().map(|&n| n as usize).sum()];
            root.gather_varcount_into_root(
                &bytes[..],
                &mut PartitionMut::new(&mut all[..], &lens[..], &displs[..]),
            );
            let mut fresh = Kept::new();
            for (i, &at) in displs.iter().enumerate() {
                let part = &all[at as usize..(at + lens[i]) as usize];
                let theirs: Kept = serde_json::from_slice(part).expect("JSON of a process");
                fresh.extend(theirs);
            }
            let kept = journal.map(|(_, kept)| kept).unwrap_or_default();
            agree_all(world, print(args, &survey, fresh, kept))
        })
    }
}

#[cfg(feature = "mpi")]
pub use enabled::{bench, count, survey, transform};
