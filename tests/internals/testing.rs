//! What the unit tests share: a seeded generator (the kernels' own), so that every random test is
//! the same on every run.

pub(crate) use nimcount::internals::testing::Rng;
