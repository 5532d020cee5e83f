//! Elementwise work, on rayon's thread pool or on the calling thread.
//!
//! Every parallel step of the crate goes through here, with an explicit `parallel` flag: a plan
//! or query told not to use threads makes no rayon call at all. Work is split only when there is
//! enough of it (at least two chunks), so small inputs never pay for threads. Rayon runs the work
//! in the pool the caller is in: `ThreadPool::install` chooses the number of threads.
//!
//! Each function hands rayon its work as a `dyn` closure over whole chunks: rayon's splitting
//! and joining code is compiled once per element type, not once per closure and ring of every
//! caller (it was a third of the library's machine code). The cost is one indirect call per
//! chunk or per item of [`map`], none in the loops over elements.

use rayon::prelude::*;

pub(crate) use nimcount_kernels::parallel::{each_chunk, join_dyn};

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
        each_chunk(data, chunk, &f);
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
        indexed_dyn(data, chunk, &f);
    } else {
        data.chunks_mut(chunk).enumerate().for_each(|(i, c)| f(i, c));
    }
}

fn indexed_dyn<T: Send>(data: &mut [T], chunk: usize, f: &(dyn Fn(usize, &mut [T]) + Sync)) {
    data.par_chunks_mut(chunk).enumerate().for_each(|(i, c)| f(i, c));
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
        zip_dyn(out, input, chunk, &f);
    } else {
        f(out, input);
    }
}

fn zip_dyn<T: Send, U: Sync>(out: &mut [T], input: &[U], chunk: usize, f: &(dyn Fn(&mut [T], &[U]) + Sync)) {
    out.par_chunks_mut(chunk).zip(input.par_chunks(chunk)).for_each(|(o, i)| f(o, i));
}

/// [`for_each`] with a fallible `f`: the first error (in no particular order when parallel).
pub(crate) fn try_for_each<T: Send>(
    data: &mut [T],
    parallel: bool,
    chunk: usize,
    f: impl Fn(&mut T) -> Result<()> + Sync + Send,
) -> Result<()> {
    if parallel && data.len() >= 2 * chunk {
        try_chunks_dyn(data, chunk, &|c: &mut [T]| c.iter_mut().try_for_each(&f))
    } else {
        data.iter_mut().try_for_each(f)
    }
}

fn try_chunks_dyn<T: Send>(
    data: &mut [T],
    chunk: usize,
    f: &(dyn Fn(&mut [T]) -> Result<()> + Sync),
) -> Result<()> {
    data.par_chunks_mut(chunk).try_for_each(f)
}

/// `a` and `b`, on two threads of the pool when `parallel` (`a` on this one), else `a` then `b`.
pub(crate) fn join<A: Send, B: Send>(
    parallel: bool,
    a: impl FnOnce() -> A + Send,
    b: impl FnOnce() -> B + Send,
) -> (A, B) {
    if !parallel {
        return (a(), b());
    }
    let (mut a, mut b) = (Some(a), Some(b));
    let (mut ra, mut rb) = (None, None);
    join_dyn(&mut || ra = a.take().map(|a| a()), &mut || rb = b.take().map(|b| b()));
    match (ra, rb) {
        (Some(ra), Some(rb)) => (ra, rb),
        _ => unreachable!("rayon::join runs both closures or unwinds"),
    }
}

/// `f` over every item, in order, on the thread pool when `parallel`.
pub(crate) fn map<T: Sync, U: Send>(
    items: &[T],
    parallel: bool,
    f: impl Fn(&T) -> U + Sync + Send,
) -> Vec<U> {
    if parallel { map_dyn(items, &f) } else { items.iter().map(f).collect() }
}

fn map_dyn<T: Sync, U: Send>(items: &[T], f: &(dyn Fn(&T) -> U + Sync)) -> Vec<U> {
    items.par_iter().map(f).collect()
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
        let fold = |c: &[T]| c.iter().fold(zero, |a, &x| add(a, widen(x)));
        reduce_dyn(data, chunk, zero, &fold, &add)
    } else {
        data.iter().fold(zero, |a, &x| add(a, widen(x)))
    }
}

fn reduce_dyn<T: Sync, A: Copy + Send + Sync>(
    data: &[T],
    chunk: usize,
    zero: A,
    fold: &(dyn Fn(&[T]) -> A + Sync),
    add: &(dyn Fn(A, A) -> A + Sync),
) -> A {
    data.par_chunks(chunk).map(fold).reduce(|| zero, add)
}
