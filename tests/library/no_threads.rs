//! `parallel(false)` means no rayon call at all: after plans and queries of every kind told not to
//! use threads, rayon's global pool has not been started, so it can still be configured. (In a
//! process of its own: any other test could start the pool.)

use nimcount::count::{Kind, Query};
use nimcount::fwht::Plan;
use nimcount::game::Game;
use nimcount::ring::{Exact64, Float64, Mod32, Mod64, Wrap64};

/// Set in the process that runs the test alone.
const ALONE: &str = "NIMCOUNT_TEST_ALONE";

/// Runs the test `name` of this binary again in a new process, as its only test, and checks
/// that it ran and passed.
fn in_a_process_of_its_own(name: &str) {
    let output = std::process::Command::new(std::env::current_exe().unwrap())
        .args([name, "--exact", "--test-threads=1"])
        .env(ALONE, "1")
        .output()
        .unwrap();
    let (stdout, stderr) = (String::from_utf8_lossy(&output.stdout), String::from_utf8_lossy(&output.stderr));
    assert!(output.status.success(), "{name}:\n{stdout}\n{stderr}");
    assert!(stdout.contains("test result: ok. 1 passed"), "{name} did not run:\n{stdout}");
}

#[test]
fn nothing_starts_the_thread_pool_when_told_not_to() {
    if std::env::var_os(ALONE).is_none() {
        return in_a_process_of_its_own("no_threads::nothing_starts_the_thread_pool_when_told_not_to");
    }
    // Transforms above the parallel threshold, inverses (division), powers, convolutions and the
    // overflow check of exact rings.
    let n = 1 << 18;
    let ring = Mod32::new(998_244_353).unwrap();
    let plan = Plan::new(ring, n).unwrap().with_parallel(false);
    let (mut a, mut b) = (vec![3u32; n], vec![5u32; n]);
    plan.forward(&mut a).unwrap();
    plan.pow_each(&mut a, 12345u32).unwrap();
    plan.inverse(&mut a).unwrap();
    plan.xor_convolve_in_place(&mut a, &mut b).unwrap();
    let mut x = vec![1i64; n];
    Plan::new(Exact64, n).unwrap().with_parallel(false).inverse(&mut x).unwrap();
    let mut f = vec![0.5f64; n];
    Plan::new(Float64, n).unwrap().with_parallel(false).inverse(&mut f).unwrap();
    let mut w = vec![7u64; n];
    Plan::new(Mod64::new(1_000_000_007).unwrap(), n)
        .unwrap()
        .with_parallel(false)
        .pow_each(&mut w, 3u8)
        .unwrap();
    Plan::new(Wrap64, n).unwrap().with_parallel(false).forward(&mut w).unwrap();
    // Queries of every kind and modulus, through every strategy.
    let seed = || Query::new(Game::parse("subtract:1-1000000").unwrap()).sizes(1u32, 12_983_567_378_251u64);
    for modulus in [Some(1_000_000_007u64), Some(1 << 40), None] {
        for kind in [Kind::Ordered, Kind::Multiset, Kind::Set] {
            let heaps = if modulus.is_some() { 98_670_634_123u64 } else { 3 };
            let heaps = if kind == Kind::Ordered { heaps } else { 5 };
            let mut q = seed().heaps(heaps).kind(kind).parallel(false);
            if let Some(m) = modulus {
                q = q.modulus(m);
            }
            q.count().unwrap();
        }
    }
    seed().heaps(3u32).modulus(998_244_353u32).parallel(false).distribution().unwrap();
    seed().heaps(3u32).kind(Kind::Multiset).parallel(false).probability(true).unwrap();
    Query::new(Game::Nim).sizes(0u32, 5u32).heaps(3u32).misere(true).parallel(false).count().unwrap();
    // Direct Grundy values by blocks (whose gathers may use threads) and a period search.
    Query::new(Game::Squares).sizes(0u32, 300_000u32).heaps(3u32).parallel(false).count().unwrap();
    Query::new(Game::parse("subtract:1,4,9,16,25,36,49").unwrap())
        .sizes(1u32, 10u64.pow(12))
        .heaps(2u32)
        .parallel(false)
        .count()
        .unwrap();
    // Moore's Nim-K counts, with every column kind and rows enough for chunks.
    for modulus in [Some(1_000_000_007u64), None] {
        let query = Query::moore(2).sizes(3u32, 1000u32).heaps(60u32).parallel(false);
        match modulus {
            Some(m) => query.modulus(m).count().unwrap(),
            None => query.count().unwrap(),
        };
    }
    assert!(
        rayon::ThreadPoolBuilder::new().num_threads(2).build_global().is_ok(),
        "something started rayon's global thread pool"
    );
}
