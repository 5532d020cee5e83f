//! Compact storage of Grundy values: one byte each while every value fits, then 16, then 32
//! bits. Octal games and subtract-a-square stay in bytes for hundreds of millions of heaps.

use std::fmt;

use crate::simd::reach::Element;

/// A stored value type (`u8`, `u16` or `u32`).
pub trait Value: Element + Copy + Eq + Ord + Default + Into<u32> + fmt::Debug + 'static {
    /// The value as this type, or `None` when it does not fit.
    fn narrow(v: u32) -> Option<Self>;
}

impl Value for u8 {
    #[inline(always)]
    fn narrow(v: u32) -> Option<u8> {
        u8::try_from(v).ok()
    }
}

impl Value for u16 {
    #[inline(always)]
    fn narrow(v: u32) -> Option<u16> {
        u16::try_from(v).ok()
    }
}

impl Value for u32 {
    #[inline(always)]
    fn narrow(v: u32) -> Option<u32> {
        Some(v)
    }
}

/// `G(0)`, `G(1)`, … in the narrowest type that holds them all.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Store {
    U8(Vec<u8>),
    U16(Vec<u16>),
    U32(Vec<u32>),
}

/// Runs `$body` with `$v` bound to the store's vector, whatever its element type.
macro_rules! with_values {
    ($store:expr, $v:ident => $body:expr) => {
        match $store {
            crate::grundy::store::Store::U8($v) => $body,
            crate::grundy::store::Store::U16($v) => $body,
            crate::grundy::store::Store::U32($v) => $body,
        }
    };
}
pub(crate) use with_values;

impl Default for Store {
    fn default() -> Self {
        Store::U8(Vec::new())
    }
}

impl Store {
    /// An empty store, bytes first.
    pub fn new() -> Store {
        Store::default()
    }

    /// A store of 32-bit values (for games whose values grow with the heap, such as nim).
    pub fn wide() -> Store {
        Store::U32(Vec::new())
    }

    pub fn len(&self) -> usize {
        with_values!(self, v => v.len())
    }

    /// Bytes per stored value.
    pub fn width(&self) -> u64 {
        match self {
            Store::U8(_) => 1,
            Store::U16(_) => 2,
            Store::U32(_) => 4,
        }
    }

    /// Room for `additional` more values without reallocating.
    pub fn reserve(&mut self, additional: usize) {
        with_values!(self, v => v.reserve(additional));
    }

    /// Room for exactly `additional` more values (when there is not already).
    pub fn reserve_exact(&mut self, additional: usize) {
        with_values!(self, v => v.reserve_exact(additional));
    }

    /// Appends `g`, widening the storage first when it does not fit.
    pub fn push(&mut self, g: u32) {
        let fits = match self {
            Store::U8(_) => g <= u32::from(u8::MAX),
            Store::U16(_) => g <= u32::from(u16::MAX),
            Store::U32(_) => true,
        };
        if !fits {
            self.widen(g);
        }
        match self {
            Store::U8(v) => v.push(g as u8),
            Store::U16(v) => v.push(g as u16),
            Store::U32(v) => v.push(g),
        }
    }

    /// Converts to a type that holds `g` (and keeps the spare capacity).
    fn widen(&mut self, g: u32) {
        fn copy<A: Into<u32> + Copy, B: TryFrom<u32>>(from: &[A], capacity: usize) -> Vec<B> {
            let mut to = Vec::with_capacity(capacity);
            to.extend(from.iter().map(|&x| B::try_from(x.into()).ok().expect("a wider type")));
            to
        }
        let narrow_enough = g <= u32::from(u16::MAX);
        *self = match std::mem::take(self) {
            Store::U8(v) if narrow_enough => Store::U16(copy(&v, v.capacity())),
            Store::U8(v) => Store::U32(copy(&v, v.capacity())),
            Store::U16(v) => Store::U32(copy(&v, v.capacity())),
            wide => wide,
        };
    }

    /// `G(0..end)` as 32-bit values.
    #[allow(clippy::useless_conversion)] // a no-op conversion for the 32-bit store
    pub fn to_u32(&self, end: usize) -> Vec<u32> {
        with_values!(self, v => v[..end].iter().map(|&x| u32::from(x)).collect())
    }

    /// The largest value (0 when empty).
    pub fn max(&self) -> u32 {
        with_values!(self, v => v.iter().copied().max().map_or(0, Into::into))
    }
}
