mod tests {
    use nimcount::internals::arith::is_prime;

    use nimcount::internals::count::distributed::*;

    #[test]
    fn the_primes_are_primes_below_2_62_largest_first() {
        let p: Vec<u64> = primes_below_2_62().take(3).collect();
        assert!(p.windows(2).all(|w| w[0] > w[1]));
        assert!(p.iter().all(|&q| q < 1 << 62 && q > 1 << 61 && is_prime(q)));
        assert_eq!(p[0], (1 << 62) - 57);
    }
}
