//! What the unit tests of nimcount and of its kernels share: a seeded generator, so that every
//! random test is the same on every run.

/// Marsaglia's xorshift64 (shifts 13, 7, 17): fixed seeds, no dependency. The seed must not be 0.
pub struct Rng(pub u64);

impl Rng {
    /// The next 64 random bits.
    #[allow(clippy::should_implement_trait)] // never ends: the tests take bits, not `Option`s
    pub fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
}
