//! The tests of nimcount's internals, one module per module of `src/` (through the feature
//! `internals`, which makes every module reachable as `nimcount::internals::…`).

/// Runs `$body` with `$v` bound to a Grundy store's vector, whatever its element type (the
/// library's own macro, which is not exported).
macro_rules! with_values {
    ($store:expr, $v:ident => $body:expr) => {
        match $store {
            nimcount::internals::grundy::store::Store::U8($v) => $body,
            nimcount::internals::grundy::store::Store::U16($v) => $body,
            nimcount::internals::grundy::store::Store::U32($v) => $body,
        }
    };
}

mod arith;
mod convolve;
mod count;
#[cfg(feature = "mpi")]
mod distributed;
mod error;
mod fwht;
mod game;
mod grundy;
mod histogram;
mod input;
mod layers;
mod memory;
mod message;
mod misere;
mod number;
mod play;
mod ring;
mod spec;
mod testing;
