mod tests {
    use std::io::Write;

    use nimcount::internals::grundy::block::*;
    use nimcount::internals::grundy::mex::MexSet;

    use nimcount::internals::fwht::Backend;
    use nimcount::internals::game::MoveSet;

    /// The plain definition: a growable set per heap.
    fn plain(moves: &[usize], count: usize) -> Vec<u32> {
        let mut values: Vec<u32> = Vec::with_capacity(count);
        let mut seen = MexSet::new();
        for n in 0..count {
            for &m in moves {
                if m <= n {
                    seen.insert(values[n - m]);
                }
            }
            values.push(seen.mex());
            seen.clear();
        }
        values
    }

    fn run(block: &mut Block<'_>, count: usize, steps: &[usize]) -> Vec<u32> {
        let mut store = nimcount::internals::grundy::store::Store::new();
        for &upto in steps.iter().chain([&count]) {
            loop {
                let g = with_values!(&mut store, v => block.extend(v, upto.min(count)));
                match g {
                    Some(g) => store.push(g),
                    None => break,
                }
            }
        }
        store.to_u32(count)
    }

    #[test]
    fn squares_equal_the_plain_mex_on_every_backend() {
        let count = 40_000;
        let moves: Vec<usize> = (1..).map(|k| k * k).take_while(|&m| m < count).collect();
        let expected = plain(&moves, count);
        for backend in Backend::ALL {
            if !backend.is_available() {
                let _ = writeln!(
                    std::io::stderr(),
                    "SKIPPED squares by blocks: backend {backend:?} is not available on this CPU"
                );
                continue;
            }
            let mut block = Block::squares().with_backend(backend);
            assert_eq!(run(&mut block, count, &[1, 5, 4096, 4097, 9000]), expected, "{backend:?}");
            assert!(block.gathered > 0, "the kernel ran");
        }
    }

    #[test]
    fn subtraction_sets_equal_the_plain_mex() {
        // Scattered moves, long and short, values that need several words and a u16 store.
        let sets: [&[u64]; 5] = [
            &[1, 2, 3, 5, 8, 13, 21, 34, 55, 89, 144, 233, 377, 610, 987, 1597, 2584, 4181, 6765],
            &[4096, 4097, 9000],
            &[1],
            &[2, 3, 5, 7, 11, 13, 17, 19, 23, 29, 31, 37, 41, 43, 47, 4099, 5000],
            &[7],
        ];
        for set in sets {
            let moves = MoveSet::from_moves(set).unwrap();
            let list: Vec<usize> = moves.iter().map(|m| m as usize).collect();
            let expected = plain(&list, 30_000);
            for backend in Backend::ALL.into_iter().filter(|b| b.is_available()) {
                let mut block = Block::subtraction(&moves).with_backend(backend);
                assert_eq!(run(&mut block, 30_000, &[3, 4100]), expected, "{set:?} {backend:?}");
            }
        }
        // Every move up to 800, and 1234: values up to 800 need u16 and overflow the widest mask.
        let list: Vec<u64> = (1..=800).chain([1234]).collect();
        let moves = MoveSet::from_moves(&list).unwrap();
        let plain_values = plain(&moves.iter().map(|m| m as usize).collect::<Vec<_>>(), 12_000);
        assert!(plain_values.iter().any(|&v| v > 600), "values beyond the widest mask");
        let mut block = Block::subtraction(&moves);
        assert_eq!(run(&mut block, 12_000, &[]), plain_values);
    }
}
