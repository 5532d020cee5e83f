mod tests {
    use nimcount::internals::arith::{crt, is_prime};
    use nimcount::internals::count::distributed::mpi::traits::Communicator;
    use nimcount::internals::count::distributed::*;
    use nimcount::internals::count::modulus::{self, Part, winning};
    use nimcount::internals::count::{Counts, Kind, Query, Report, Stages};
    use nimcount::internals::distributed::{Plan, Sharing, agree};
    use nimcount::internals::error::{Error, Estimate, Result};
    use nimcount::internals::fwht::Backend;
    use nimcount::internals::histogram::Histogram;
    use nimcount::internals::ring::{Mod32, Mod64, Ring, TwoWord, Wrap64};
    use num_bigint::BigUint;
    use num_traits::{One, ToPrimitive, Zero};
    use std::borrow::Cow;
    use std::ops::Range;
    use std::time::Instant;

    #[test]
    fn the_primes_are_primes_below_2_62_largest_first() {
        let p: Vec<u64> = primes_below_2_62().take(3).collect();
        assert!(p.windows(2).all(|w| w[0] > w[1]));
        assert!(p.iter().all(|&q| q < 1 << 62 && q > 1 << 61 && is_prime(q)));
        assert_eq!(p[0], (1 << 62) - 57);
    }
}
