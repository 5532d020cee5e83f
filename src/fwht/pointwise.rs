//! Pointwise operations on transformed buffers.

use crate::ring::Mod32;

/// `x ← x^e mod m` for every element, square-and-multiply in Montgomery form over the bits of
/// the (already reduced) exponent `e`; `x^0 = 1`.
pub(crate) fn pow_mod32(ring: &Mod32, data: &mut [u32], e: u64) {
    let one = ring.enter_mont(crate::ring::Ring::one(ring));
    let bits = u64::BITS - e.leading_zeros();
    for x in data.iter_mut() {
        let base = ring.enter_mont(*x);
        let mut acc = one;
        for i in (0..bits).rev() {
            acc = ring.mont_mul(acc, acc);
            if (e >> i) & 1 == 1 {
                acc = ring.mont_mul(acc, base);
            }
        }
        *x = ring.leave_mont(acc);
    }
}
