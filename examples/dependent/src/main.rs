//! Times a one-thread forward transform of 2^20 residues modulo 998 244 353 through nimcount,
//! and the textbook loop as a user would write it, in the same run. Exits with code 1 when the
//! transform is less than `--min-ratio` (default 3) times faster than the loop: a healthy build
//! is 10–30 times faster, a build whose SIMD helpers were not inlined is slower than the loop.

use std::time::{Duration, Instant};

use nimcount::fwht::Plan;
use nimcount::ring::Mod32;

const P: u32 = 998_244_353;
const LOG2: u32 = 20;

/// The textbook iterative transform with `%` reductions.
fn textbook(x: &mut [u32]) {
    let mut h = 1;
    while h < x.len() {
        for block in x.chunks_exact_mut(2 * h) {
            let (lo, hi) = block.split_at_mut(h);
            for (a, b) in lo.iter_mut().zip(hi.iter_mut()) {
                let (u, v) = (*a, *b);
                *a = (u + v) % P;
                *b = (u + P - v) % P;
            }
        }
        h *= 2;
    }
}

/// The median of `runs` timings of `f` on `data`, each followed by an untimed `restore`.
fn median(
    runs: usize,
    data: &mut [u32],
    mut f: impl FnMut(&mut [u32]),
    restore: impl Fn(&mut [u32]),
) -> Duration {
    f(data); // warm-up
    restore(data);
    let mut times: Vec<Duration> = (0..runs)
        .map(|_| {
            let start = Instant::now();
            f(data);
            let elapsed = start.elapsed();
            restore(data);
            elapsed
        })
        .collect();
    times.sort();
    times[runs / 2]
}

fn main() -> Result<(), nimcount::Error> {
    let min_ratio: f64 = match std::env::args().skip_while(|a| a != "--min-ratio").nth(1) {
        Some(r) => r.parse().expect("--min-ratio takes a number"),
        None => 3.0,
    };
    let mut state = 0x2545_f491_4f6c_dd1du64;
    let input: Vec<u32> = (0..1u32 << LOG2)
        .map(|_| {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            (state % u64::from(P)) as u32
        })
        .collect();

    let plan = Plan::new(Mod32::new(P)?, input.len())?.with_parallel(false);
    let mut expected = input.clone();
    textbook(&mut expected);
    let mut got = input.clone();
    plan.forward(&mut got)?;
    assert_eq!(got, expected, "the transform disagrees with the textbook loop");

    // Between runs the data goes back with the (untimed) inverse transform, as `nimcount bench` does.
    let restore = |d: &mut [u32]| plan.inverse(d).expect("length checked");
    let mut data = nimcount::memory::LargeBuffer::<u32>::zeroed(|| "the data".into(), input.len())?;
    data.copy_from_slice(&input);
    let fast = median(101, &mut data, |d| plan.forward(d).expect("length checked"), restore);
    let mut vec_data = input.clone();
    let in_vec = median(101, &mut vec_data, |d| plan.forward(d).expect("length checked"), restore);
    let slow = median(7, &mut data, textbook, restore);
    let ratio = slow.as_secs_f64() / fast.as_secs_f64();
    println!(
        "forward transform of 2^{LOG2} u32 mod {P}, one thread, backend {}: nimcount {:.3} ms (in a Vec {:.3} ms), textbook loop {:.3} ms, {ratio:.1}x",
        plan.backend(),
        fast.as_secs_f64() * 1e3,
        in_vec.as_secs_f64() * 1e3,
        slow.as_secs_f64() * 1e3,
    );
    if ratio < min_ratio {
        eprintln!(
            "error: the transform is only {ratio:.1}x faster than the textbook loop (at least {min_ratio}x expected)"
        );
        std::process::exit(1);
    }
    Ok(())
}
