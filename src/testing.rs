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

/// The multiset `{Ĥ_j}` of the transform of `h`'s array of slots, by the O(F log F) reference
/// transform (values below 2^127).
pub(crate) fn array_spectrum(h: &crate::histogram::Histogram) -> std::collections::HashMap<i128, u64> {
    let array = h.to_array().unwrap();
    let mut data = vec![0i128; array.transform_len()];
    for term in array.terms() {
        let w = i128::try_from(term.weight()).unwrap();
        for (slot, &c) in data.iter_mut().zip(term.counts().iter()) {
            *slot += w * i128::from(c);
        }
    }
    crate::fwht::reference::textbook(&crate::ring::Exact128, &mut data);
    let mut out = std::collections::HashMap::new();
    for x in data {
        *out.entry(x).or_default() += 1;
    }
    out
}
