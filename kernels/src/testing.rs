//! What the unit tests share: a seeded generator, so that every random test is the same on
//! every run.

/// Marsaglia's xorshift64 (shifts 13, 7, 17): fixed seeds, no dependency. The seed must not be 0.
pub(crate) struct Rng(pub(crate) u64);

impl Rng {
    /// The next 64 random bits.
    pub(crate) fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
}
