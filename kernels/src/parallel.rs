//! Work on rayon's thread pool, handed over as `dyn` closures: rayon's splitting and joining code
//! is compiled once per element type, not once per closure (see `nimcount`'s `parallel`, which
//! builds on these two).

use rayon::prelude::*;

/// `f` on every chunk of `chunk` elements (the last may be shorter), on the thread pool.
pub fn each_chunk<T: Send>(data: &mut [T], chunk: usize, f: &(dyn Fn(&mut [T]) + Sync)) {
    data.par_chunks_mut(chunk).for_each(f);
}

/// `a` and `b` on two threads of the pool (`a` on this one).
pub fn join_dyn(a: &mut (dyn FnMut() + Send), b: &mut (dyn FnMut() + Send)) {
    rayon::join(a, b);
}
