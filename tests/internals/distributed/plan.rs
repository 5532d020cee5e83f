mod tests {

    use nimcount::internals::distributed::plan::*;

    use nimcount::internals::fwht::Backend;
    use nimcount::internals::fwht::reference;

    use nimcount::internals::ring::Ring;
    use nimcount::internals::ring::{Float64, Mod32};

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
            // The SIMD column pass where the ring has one (rows of 256 elements and more), and the
            // portable tiles; plain and staggered.
            for (parallel, backend, apart) in [
                (false, Backend::Scalar, 0),
                (true, Backend::Scalar, 0),
                (false, Backend::best(), 0),
                (true, Backend::best(), 0),
                (false, Backend::best(), usize::MAX / 64),
            ] {
                let mut z = y.clone();
                let mut cut: Vec<&mut [R::Elem]> = z.chunks_exact_mut(x.len() / rows).collect();
                upper_levels(&ring, &mut cut, parallel, backend, apart);
                assert_eq!(z, expected, "{rows} rows, parallel {parallel}, {backend:?}, {apart} bytes apart");
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
