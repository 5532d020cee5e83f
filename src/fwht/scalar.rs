//! The portable backend: the shared kernel over single ring elements.

use super::kernel::{self, Butterflies};
use super::lanes::{self, Lanes};
use crate::ring::Ring;

/// A ring seen as a one-lane register.
#[derive(Clone, Copy, Debug)]
pub(crate) struct RingLanes<R>(pub R);

impl<R: Ring> Lanes for RingLanes<R> {
    type E = R::Elem;
    type V = R::Elem;
    const WIDTH: usize = 1;

    #[inline(always)]
    unsafe fn load(self, ptr: *const R::Elem) -> R::Elem {
        // SAFETY: the caller guarantees the element is readable.
        unsafe { ptr.read() }
    }
    #[inline(always)]
    unsafe fn store(self, ptr: *mut R::Elem, v: R::Elem) {
        // SAFETY: the caller guarantees the element is writable.
        unsafe { ptr.write(v) }
    }
    #[inline(always)]
    fn butterfly(self, a: R::Elem, b: R::Elem) -> (R::Elem, R::Elem) {
        (self.0.add(a, b), self.0.sub(a, b))
    }
    #[inline(always)]
    fn within(self, v: R::Elem) -> R::Elem {
        v
    }
}

impl<R: Ring> Butterflies for RingLanes<R> {
    type Elem = R::Elem;
    const LEAF_LOG2: u32 = 4;

    fn leaves(self, data: &mut [R::Elem]) {
        assert_eq!(data.len() % 16, 0);
        // SAFETY: the length was checked; scalar code needs no instruction set.
        unsafe { lanes::leaves(self, data) }
    }

    fn columns(self, rows: &mut [&mut [R::Elem]]) {
        lanes::assert_rows(rows, 1);
        // SAFETY: the shape was checked; scalar code needs no instruction set.
        unsafe { lanes::columns(self, rows) }
    }

    fn staggered(self, rows: &mut [&mut [R::Elem]]) {
        lanes::assert_rows(rows, 1);
        // SAFETY: the shape was checked; scalar code needs no instruction set.
        unsafe { lanes::staggered(self, rows) }
    }
}

/// The portable transform of `data` (`2^log2` elements).
pub(crate) fn transform<R: Ring>(ring: R, data: &mut [R::Elem], log2: u32, parallel: bool) {
    if log2 < RingLanes::<R>::LEAF_LOG2 {
        super::reference::textbook(&ring, data);
    } else {
        kernel::transform(RingLanes(ring), data, log2, parallel);
    }
}
