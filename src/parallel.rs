//! Elementwise work, on rayon's thread pool or on the calling thread.
//!
//! Every parallel step of the crate goes through here, with an explicit `parallel` flag: a plan
//! or query told not to use threads makes no rayon call at all. Work is split only when there is
//! enough of it (at least two chunks), so small inputs never pay for threads. Rayon runs the work
//! in the pool the caller is in: `ThreadPool::install` chooses the number of threads.

use rayon::prelude::*;

use crate::error::Result;

/// `f` on every element, in chunks of `chunk` elements on the thread pool when `parallel`.
pub(crate) fn for_each<T: Send>(
    data: &mut [T],
    parallel: bool,
    chunk: usize,
    f: impl Fn(&mut T) + Sync + Send,
) {
    chunks(data, parallel, chunk, |c| c.iter_mut().for_each(&f));
}

/// `f` on every chunk of at most `chunk` elements (the last may be shorter), on the thread pool
/// when `parallel`; serially, `f` sees the whole slice at once.
pub(crate) fn chunks<T: Send>(
    data: &mut [T],
    parallel: bool,
    chunk: usize,
    f: impl Fn(&mut [T]) + Sync + Send,
) {
    if parallel && data.len() >= 2 * chunk {
        data.par_chunks_mut(chunk).for_each(f);
    } else {
        f(data);
    }
}

/// `f(i, chunk)` on every chunk `i` of exactly `chunk` elements (the last may be shorter), on the
/// thread pool when `parallel` and there are at least two chunks, else in order on this thread.
pub(crate) fn indexed_chunks<T: Send>(
    data: &mut [T],
    parallel: bool,
    chunk: usize,
    f: impl Fn(usize, &mut [T]) + Sync + Send,
) {
    if parallel && data.len() >= 2 * chunk {
        data.par_chunks_mut(chunk).enumerate().for_each(|(i, c)| f(i, c));
    } else {
        data.chunks_mut(chunk).enumerate().for_each(|(i, c)| f(i, c));
    }
}

/// `f` on matching chunks of `out` and `input` (of equal lengths), on the thread pool when
/// `parallel` and there are at least two chunks.
pub(crate) fn zip_chunks<T: Send, U: Sync>(
    out: &mut [T],
    input: &[U],
    parallel: bool,
    chunk: usize,
    f: impl Fn(&mut [T], &[U]) + Sync + Send,
) {
    debug_assert_eq!(out.len(), input.len());
    if parallel && out.len() >= 2 * chunk {
        out.par_chunks_mut(chunk).zip(input.par_chunks(chunk)).for_each(|(o, i)| f(o, i));
    } else {
        f(out, input);
    }
}

/// [`for_each`] with a fallible `f`: the first error (in no particular order when parallel).
pub(crate) fn try_for_each<T: Send>(
    data: &mut [T],
    parallel: bool,
    chunk: usize,
    f: impl Fn(&mut T) -> Result<()> + Sync + Send,
) -> Result<()> {
    if parallel && data.len() >= 2 * chunk {
        data.par_chunks_mut(chunk).try_for_each(|c| c.iter_mut().try_for_each(&f))
    } else {
        data.iter_mut().try_for_each(f)
    }
}

/// `a` and `b`, on two threads of the pool when `parallel` (`a` on this one), else `a` then `b`.
pub(crate) fn join<A: Send, B: Send>(
    parallel: bool,
    a: impl FnOnce() -> A + Send,
    b: impl FnOnce() -> B + Send,
) -> (A, B) {
    if parallel { rayon::join(a, b) } else { (a(), b()) }
}

/// `f` over every item, in order, on the thread pool when `parallel`.
pub(crate) fn map<T: Sync, U: Send>(
    items: &[T],
    parallel: bool,
    f: impl Fn(&T) -> U + Sync + Send,
) -> Vec<U> {
    if parallel { items.par_iter().map(f).collect() } else { items.iter().map(f).collect() }
}

/// `add` over `widen` of every element (`add` associative and commutative, `zero` its identity),
/// on the thread pool when `parallel` and there are at least `2 · chunk` elements.
pub(crate) fn reduce<T: Copy + Sync, A: Copy + Send + Sync>(
    data: &[T],
    parallel: bool,
    chunk: usize,
    zero: A,
    widen: impl Fn(T) -> A + Sync + Send,
    add: impl Fn(A, A) -> A + Sync + Send,
) -> A {
    if parallel && data.len() >= 2 * chunk {
        data.par_chunks(chunk).map(|c| c.iter().fold(zero, |a, &x| add(a, widen(x)))).reduce(|| zero, &add)
    } else {
        data.iter().fold(zero, |a, &x| add(a, widen(x)))
    }
}
