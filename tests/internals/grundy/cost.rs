mod tests {
    use nimcount::internals::grundy::cost::*;

    use std::time::Duration;

    /// The estimate stops a search at its budget; the clocks only past their margins.
    #[test]
    fn budgets_stop_at_the_estimate_or_past_the_clock_margins() {
        let budget = Budget::seconds(30.0);
        let s = Duration::from_secs_f64;
        let cpu = |x: f64| Some(s(x));
        assert_eq!(budget.stop_at(29.9e9, s(29.0), cpu(29.0)), None);
        assert_eq!(budget.stop_at(30e9, s(1.0), cpu(1.0)), Some(Stop::Estimate));
        // A model four times too optimistic: the CPU time stops it at 1.2 · 30 + 1 = 37 s.
        assert_eq!(budget.stop_at(9e9, s(36.9), cpu(36.9)), None);
        assert_eq!(budget.stop_at(9e9, s(37.0), cpu(37.0)), Some(Stop::Clock));
        // A machine giving the search a fifth of a core: real time stops it at 2 · 30 + 10 s.
        assert_eq!(budget.stop_at(12e9, s(69.0), cpu(14.0)), None);
        assert_eq!(budget.stop_at(12e9, s(70.0), cpu(14.0)), Some(Stop::Clock));
        // Where CPU time cannot be read, real time alone.
        assert_eq!(budget.stop_at(9e9, s(40.0), None), None);
        // Short budgets keep their slack: noise of the clocks does not decide them.
        let short = Budget::seconds(0.3);
        assert_eq!(short.stop_at(0.1e9, s(5.0), cpu(1.3)), None);
        assert_eq!(short.stop_at(0.1e9, s(5.0), cpu(1.4)), Some(Stop::Clock));
    }

    #[test]
    fn the_thread_cpu_time_is_read_and_grows() {
        let Some(before) = thread_cpu_time() else { return };
        let mut x = 0u64;
        let started = std::time::Instant::now();
        while started.elapsed() < Duration::from_millis(100) {
            x = std::hint::black_box(x.wrapping_mul(6364136223846793005).wrapping_add(1));
        }
        assert!(thread_cpu_time().unwrap() > before, "{x}");
    }

    /// A splitting game whose values are too spread for a sparse space (0.06) goes through every
    /// split of every heap: the model counts them (it counted the heaps only, and a default
    /// search ran four times past its budget, stopped by the clock).
    #[test]
    fn the_model_counts_every_split_without_a_sparse_space() {
        use nimcount::internals::game::Game;
        use nimcount::internals::grundy::engine::Engine;
        use nimcount::internals::grundy::resolve::resolve;
        let game = Game::parse("octal:0.06").unwrap();
        let resolved = resolve(&game).unwrap();
        let mut engine = Engine::new(&resolved, true);
        let mut store = engine.store();
        let n = 20_000u64;
        engine.extend(&mut store, n as usize).unwrap();
        // Heap h splits after taking 2 into (h − 2)/2 pairs at most: n²/4 of them in all.
        let splits = (n * n / 4) as f64;
        let work = engine.work(n);
        assert!(work >= 0.5 * splits * SPARSE_SCAN_NS, "{work} ns for {splits} splits");
        assert!(work <= 2.0 * splits * SPARSE_SCAN_NS + n as f64 * SPARSE_HEAP_NS * 2.0, "{work}");
    }

    /// The model against the measured time of each engine, within the factor of 1.5 the module
    /// promises; prints both (run with
    /// `cargo test --release --test internals calibrate -- --ignored --nocapture` on the reference machine,
    /// alone: a busy machine measures its load).
    #[test]
    #[ignore]
    fn calibrate() {
        use nimcount::internals::game::Game;
        use nimcount::internals::grundy::engine::Engine;
        use nimcount::internals::grundy::resolve::resolve;
        let mut off = Vec::new();
        for (spec, count) in [
            ("squares", 1_000_000u64),
            ("squares", 4_000_000),
            ("octal:0.1777", 4_000_000),
            ("octal:0.16", 1_000_000),
            ("octal:0.6", 100_000),
            ("octal:0.06", 200_000),
            ("octal:0.007", 300_000),
            ("subtract:1-998,1000", 2_000_000),
            ("subtract:1,3,4", 20_000_000),
            ("subtract:2,3,5,7,11,13,17,19,23,29,31,37,41,43,47,53,59,61,67,71,73,79,83,89,97", 20_000_000),
            ("allbut:1,4,5", 10_000_000),
            ("nim", 100_000_000),
        ] {
            let game = Game::parse(spec).unwrap();
            let resolved = resolve(&game).unwrap();
            let mut engine = Engine::new(&resolved, false);
            let mut store = engine.store();
            let started = std::time::Instant::now();
            engine.extend(&mut store, count as usize).unwrap();
            let real = started.elapsed().as_secs_f64();
            let model = engine.work(count) / 1e9;
            println!(
                "{spec:>20} {count:>10}: real {real:7.3} s, model {model:7.3} s, model/real {:.2}",
                model / real
            );
            if !(1.0 / 1.5..=1.5).contains(&(model / real)) {
                off.push(format!("{spec} ({count}): model/real {:.2}", model / real));
            }
        }
        assert!(off.is_empty(), "the model is off by more than a factor of 1.5: {off:?}");
    }
}
