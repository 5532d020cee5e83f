//! Every module of the crate, public or not, under the same path, for nimcount's own tests in
//! `tests/internals` (feature `internals`). Nothing here is API: a module's items appear as far
//! as they are `pub`, which in a private module means no more than "visible to those tests".

/// The token of the hidden methods of [`crate::ring::Ring`], for the tests that call them.
pub fn internal() -> crate::ring::Internal {
    crate::ring::Internal(())
}

pub mod arith {
    pub use crate::arith::*;
    pub mod barrett {
        pub use crate::arith::barrett::*;
    }
    pub mod montgomery {
        pub use crate::arith::montgomery::*;
    }
    pub mod pow {
        pub use crate::arith::pow::*;
    }
    pub mod shoup {
        pub use crate::arith::shoup::*;
    }
}
pub mod convolve {
    pub use crate::convolve::*;
    pub mod bitwise {
        pub use crate::convolve::bitwise::*;
    }
    pub mod subset {
        pub use crate::convolve::subset::*;
    }
}
pub mod count {
    pub use crate::count::*;
    pub mod answer {
        pub use crate::count::answer::*;
    }
    pub mod coefficients {
        pub use crate::count::coefficients::*;
    }
    #[cfg(feature = "mpi")]
    pub mod distributed {
        pub use crate::count::distributed::*;
    }
    pub mod engine {
        pub use crate::count::engine::sum::Sum;
        pub use crate::count::engine::*;
        pub mod classes {}
        pub mod probability {}
        pub mod slots {}
        pub mod sum {
            pub use crate::count::engine::sum::*;
        }
    }
    pub mod geometric {
        pub use crate::count::geometric::*;
    }
    pub mod levels {
        pub use crate::count::levels::*;
    }
    pub mod misere {
        pub use crate::count::misere::*;
    }
    pub mod modulus {
        pub use crate::count::modulus::*;
    }
    pub mod moore {
        pub use crate::count::moore::*;
    }
    pub mod query {
        pub use crate::count::query::*;
    }
    pub mod quotient {
        pub use crate::count::quotient::*;
    }
    pub mod source {}
    pub mod spectrum {
        pub use crate::count::spectrum::*;
    }
    pub mod structured {
        pub use crate::count::structured::*;
    }
    pub mod tally {
        pub use crate::count::tally::*;
    }
}
#[cfg(feature = "mpi")]
pub mod distributed {
    pub use crate::distributed::*;
    pub mod collective {
        pub use crate::distributed::collective::*;
    }
    pub mod file {
        pub use crate::distributed::file::*;
    }
    pub mod plan {
        pub use crate::distributed::plan::*;
    }
    pub mod transpose {
        pub use crate::distributed::transpose::*;
    }
    pub mod window {
        pub use crate::distributed::window::*;
    }
}
pub mod elements {
    pub use crate::elements::*;
}
pub mod error {
    pub use crate::error::*;
}
pub mod fwht {
    pub use crate::fwht::*;
    pub mod hadamard {
        pub use crate::fwht::hadamard::*;

        pub const SHORT_COLUMNS: usize = crate::fwht::hadamard::SHORT_COLUMNS;

        pub fn choose(
            len: usize,
            factor: Option<usize>,
            family: Option<HadamardFamily>,
        ) -> crate::Result<(usize, u32, HadamardFamily)> {
            crate::fwht::hadamard::choose(len, factor, family)
        }

        pub fn signs(family: HadamardFamily, m: usize) -> Vec<f32> {
            crate::fwht::hadamard::signs(family, m)
        }
    }
    pub mod reference {
        pub use crate::fwht::reference::*;

        /// `x mod m` by the strength-reduced remainder of the textbook transform.
        pub fn remainder(m: u32, x: u32) -> u32 {
            crate::fwht::reference::Remainder::new(m).of(x)
        }
    }
    pub mod zeta {
        pub use crate::fwht::zeta::*;

        /// The zeta/Möbius pass of a plan, without the checks of `Plan::zeta`.
        pub trait RunSets<R: crate::ring::Ring> {
            fn run_sets(&self, data: &mut [R::Elem], sets: crate::fwht::Sets, inverse: bool);
        }

        impl<R: crate::ring::Ring> RunSets<R> for crate::fwht::Plan<R>
        where
            R::Elem: Copy,
        {
            fn run_sets(&self, data: &mut [R::Elem], sets: crate::fwht::Sets, inverse: bool) {
                crate::fwht::Plan::run_sets(self, data, sets, inverse)
            }
        }
    }
}
pub mod game {
    pub use crate::game::*;
    pub mod custom {
        pub use crate::game::custom::*;
    }
    pub mod hex {
        pub use crate::game::hex::*;
    }
    pub mod moves {
        pub use crate::game::moves::*;
    }
    pub mod names {
        pub use crate::game::names::*;
    }
    pub mod octal {
        pub use crate::game::octal::*;
    }
    pub mod splits {
        pub use crate::game::splits::*;
    }
    pub mod structure {
        pub use crate::game::structure::*;
    }
}
pub mod grundy {
    pub use crate::grundy::*;

    pub fn certify_plain<T: crate::grundy::store::Value>(
        values: &[T],
        theorem: crate::grundy::Theorem,
    ) -> Option<crate::grundy::Certificate> {
        crate::grundy::certify_plain(values, theorem)
    }

    pub mod block {
        pub use crate::grundy::block::*;
    }
    pub mod cost {
        pub use crate::grundy::cost::*;
    }
    pub mod engine {
        pub use crate::grundy::engine::*;
    }
    pub mod hex {
        pub use crate::grundy::hex::*;
    }
    pub mod mex {
        pub use crate::grundy::mex::*;
    }
    pub mod octal {
        pub use crate::grundy::octal::*;
    }
    pub mod period {
        pub use crate::grundy::period::*;
    }
    pub mod range {
        pub use crate::grundy::range::*;
    }
    pub mod resolve {
        pub use crate::grundy::resolve::*;
    }
    pub mod saltus {
        pub use crate::grundy::saltus::*;
    }
    pub mod search {
        pub use crate::grundy::search::*;
    }
    pub mod shifts {
        pub use crate::grundy::shifts::*;
    }
    pub mod sliding {}
    pub mod store {
        pub use crate::grundy::store::*;
    }
}
pub mod histogram {
    pub use crate::histogram::structured::fraction_half;
    pub use crate::histogram::*;

    pub fn log2_len_for(max_value: Option<u64>) -> crate::Result<u32> {
        crate::histogram::log2_len_for(max_value)
    }

    pub mod file {}
    pub mod periodic {}
    pub mod residues {}
    pub mod structured {
        pub use crate::histogram::structured::*;
    }
}
pub mod input {
    pub use crate::input::*;
}
pub mod memory {
    pub use crate::memory::*;

    pub fn fits(
        what: impl FnOnce() -> String,
        bytes: u64,
        room: impl FnOnce() -> Option<u64>,
    ) -> crate::Result<()> {
        crate::memory::fits(what, bytes, room)
    }

    pub fn mem_available(meminfo: &str) -> Option<u64> {
        crate::memory::mem_available(meminfo)
    }

    pub fn address_space_limit(limits: &str) -> Option<u64> {
        crate::memory::address_space_limit(limits)
    }

    pub fn mapped_bytes(statm: &str) -> Option<u64> {
        crate::memory::mapped_bytes(statm)
    }

    pub fn cgroup_paths(memberships: &str) -> Vec<(u32, &'static str, String)> {
        crate::memory::cgroup_paths(memberships)
    }
}
pub mod message {
    pub use crate::message::*;
}
pub mod misere {
    pub use crate::misere::*;

    pub fn stuck_error(
        spec: &str,
        n: u64,
        stuck: crate::misere::build::Stuck,
        budget: &crate::misere::Budget,
    ) -> crate::Error {
        crate::misere::stuck_error(spec, n, stuck, budget)
    }

    pub mod build {
        pub use crate::misere::build::*;
    }
    pub mod cost {
        pub use crate::misere::cost::*;
    }
    pub mod moves {
        pub use crate::misere::moves::*;
    }
    pub mod present {
        pub use crate::misere::present::*;
    }
    pub mod verify {}
}
pub mod number {
    pub use crate::number::*;

    pub fn digits_cost(digits: u64) -> u64 {
        crate::number::digits_cost(digits)
    }
}
pub mod parallel {}
pub mod play {
    pub use crate::play::*;

    pub fn non_empty(heaps: impl IntoIterator<Item = num_bigint::BigUint>) -> Vec<num_bigint::BigUint> {
        crate::play::non_empty(heaps)
    }

    pub mod misere {
        pub use crate::play::misere::*;

        /// A position's normal form (heaps without options dropped, sorted).
        pub trait NormalForm {
            fn normal_form(&mut self, heaps: impl Iterator<Item = (usize, u64)>) -> Vec<(usize, u64)>;
        }

        impl NormalForm for crate::play::MisereSearch<'_> {
            fn normal_form(&mut self, heaps: impl Iterator<Item = (usize, u64)>) -> Vec<(usize, u64)> {
                crate::play::MisereSearch::normal_form(self, heaps)
            }
        }
    }
    pub mod moore {
        pub use crate::play::moore::*;

        /// Whether a specification names Moore's Nim-K.
        pub trait Names {
            fn names(spec: &str) -> bool;
        }

        impl Names for crate::play::Moore {
            fn names(spec: &str) -> bool {
                crate::play::Moore::names(spec)
            }
        }
    }
    pub mod position {
        pub use crate::play::position::*;
    }
    pub mod rules {
        pub use crate::play::rules::*;

        /// The rules' options by target value, and their check of take-away games.
        pub trait Targets {
            fn options_with_value(
                &self,
                n: &num_bigint::BigUint,
                target: &num_bigint::BigUint,
            ) -> Vec<Vec<num_bigint::BigUint>>;
            fn options_to(
                &self,
                n: &num_bigint::BigUint,
                target: &num_bigint::BigUint,
            ) -> crate::play::rules::TargetOptions<'_>;
            fn check_take_away(&self) -> crate::Result<()>;
        }

        impl Targets for crate::play::Rules<'_> {
            fn options_with_value(
                &self,
                n: &num_bigint::BigUint,
                target: &num_bigint::BigUint,
            ) -> Vec<Vec<num_bigint::BigUint>> {
                crate::play::Rules::options_with_value(self, n, target)
            }

            fn options_to(
                &self,
                n: &num_bigint::BigUint,
                target: &num_bigint::BigUint,
            ) -> crate::play::rules::TargetOptions<'_> {
                crate::play::Rules::options_to(self, n, target)
            }

            fn check_take_away(&self) -> crate::Result<()> {
                crate::play::Rules::check_take_away(self)
            }
        }
    }
    pub mod staircase {
        pub use crate::play::staircase::*;
    }
}
pub mod progress {
    pub use crate::progress::*;
}
pub mod ring {
    pub use crate::ring::residue::Big;
    pub use crate::ring::residue::Integers;
    pub use crate::ring::residue::OddWord;
    pub use crate::ring::residue::Residues;
    pub use crate::ring::residue::TwoWord;
    pub use crate::ring::residue::pow_reduced;
    pub use crate::ring::*;
    pub mod any {
        pub use crate::ring::any::*;
    }
    pub mod exact {
        pub use crate::ring::exact::*;
    }
    pub mod float {
        pub use crate::ring::float::*;
    }
    pub mod modular {
        pub use crate::ring::modular::*;
    }
    pub mod residue {
        pub use crate::ring::residue::*;
    }
    pub mod wrapping {
        pub use crate::ring::wrapping::*;
    }
}
pub mod simd {
    pub use crate::simd::*;
    pub use nimcount_kernels::{
        f32, f32_rows, f64, f64_rows, kernel, matrices, mod32, mod32_checked, mod32_rows, mod64,
        mod64_checked, mod64_rows, narrow, pointwise, portable, reach, sets, wrap32, wrap32_rows, wrap64,
        wrap64_rows,
    };
}
pub mod spec {
    pub use crate::spec::*;
}
/// The seeded generator the tests share (the kernels' own).
pub mod testing {
    pub use nimcount_kernels::testing::*;
}
