//! The subset convolution at 2^20 modulo 998 244 353 against the textbook ranked zeta transform
//! (one array of `u32` residues per rank, `%` after every sum and product), and the AND, OR and
//! XOR convolutions beside it, all on one thread, the subset convolution on BACKEND (scalar, avx2
//! or avx512; the widest this CPU runs by default). `benches/subset_textbook.cpp` is the same
//! textbook in C++ on the same inputs and prints the same checksum. Release only:
//!
//! ```sh
//! cargo run --release --example subset_convolve [LOG2 [BACKEND]]
//! ```

use std::time::Instant;

use nimcount::convolve::{and_convolve, or_convolve, subset_convolve_with_backend, xor_convolve};
use nimcount::fwht::Backend;
use nimcount::ring::Mod32;

const P: u64 = 998_244_353;

/// The textbook: `n + 1` rank arrays, zeta per rank, rank products, Möbius per rank.
fn textbook(a: &[u32], b: &[u32]) -> Vec<u32> {
    let len = a.len();
    let n = len.trailing_zeros() as usize;
    let ranked = |x: &[u32]| {
        let mut f = vec![vec![0u32; len]; n + 1];
        for (s, &v) in x.iter().enumerate() {
            f[s.count_ones() as usize][s] = v;
        }
        for row in &mut f {
            for h in 0..n {
                for s in 0..len {
                    if s >> h & 1 == 1 {
                        row[s] = ((u64::from(row[s]) + u64::from(row[s ^ (1 << h)])) % P) as u32;
                    }
                }
            }
        }
        f
    };
    let (fa, fb) = (ranked(a), ranked(b));
    let mut h = vec![vec![0u32; len]; n + 1];
    for r in 0..=n {
        for i in 0..=r {
            for s in 0..len {
                h[r][s] = ((u64::from(h[r][s]) + u64::from(fa[i][s]) * u64::from(fb[r - i][s])) % P) as u32;
            }
        }
    }
    for row in &mut h {
        for bit in 0..n {
            for s in 0..len {
                if s >> bit & 1 == 1 {
                    row[s] = ((u64::from(row[s]) + P - u64::from(row[s ^ (1 << bit)])) % P) as u32;
                }
            }
        }
    }
    (0..len).map(|s| h[s.count_ones() as usize][s]).collect()
}

fn main() -> Result<(), nimcount::Error> {
    let log2: u32 = std::env::args().nth(1).map_or(20, |s| s.parse().expect("LOG2"));
    let backend: Backend = std::env::args().nth(2).map_or(Ok(Backend::best()), |s| s.parse())?;
    let len = 1usize << log2;
    let mut seed = 0x5eedu64;
    let mut next = || {
        seed = seed.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
        ((seed >> 33) % P) as u32
    };
    let a: Vec<u32> = (0..len).map(|_| next()).collect();
    let b: Vec<u32> = (0..len).map(|_| next()).collect();
    let ring = Mod32::new(P as u32)?;
    let pool = rayon::ThreadPoolBuilder::new().num_threads(1).build().expect("a pool of one thread");
    let time = |what: &str, f: &(dyn Fn() -> Vec<u32> + Sync)| {
        let best = (0..3)
            .map(|_| {
                let start = Instant::now();
                std::hint::black_box(pool.install(f));
                start.elapsed().as_secs_f64()
            })
            .fold(f64::INFINITY, f64::min);
        println!("{what:<22} 2^{log2}: {:.4} s (best of 3, one thread)", best);
        best
    };
    let ours = pool.install(|| subset_convolve_with_backend(ring, &a, &b, backend))?;
    let start = Instant::now();
    let reference = textbook(&a, &b);
    let textbook_time = start.elapsed().as_secs_f64();
    assert_eq!(ours, reference, "subset_convolve differs from the textbook ranked zeta transform");
    let checksum = ours.iter().fold(0u64, |sum, &x| (sum * 31 + u64::from(x)) % P);
    println!("subset_convolve equals the textbook ranked zeta transform at 2^{log2} (checksum {checksum})");
    println!("{:<22} 2^{log2}: {textbook_time:.4} s (Rust, one run)", "textbook");
    let subset = time(&format!("subset_convolve {backend}"), &|| {
        subset_convolve_with_backend(ring, &a, &b, backend).unwrap()
    });
    let xor = time("xor_convolve", &|| xor_convolve(ring, &a, &b).unwrap());
    let and = time("and_convolve", &|| and_convolve(ring, &a, &b).unwrap());
    let or = time("or_convolve", &|| or_convolve(ring, &a, &b).unwrap());
    println!("textbook / subset_convolve: {:.1}x", textbook_time / subset);
    println!("and / xor: {:.2}x, or / xor: {:.2}x", and / xor, or / xor);
    Ok(())
}
