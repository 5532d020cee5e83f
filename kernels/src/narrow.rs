//! Storage narrower than the arithmetic (`f16` and `bf16` held in memory, `f32` in registers),
//! and the last pass of the Hadamard transforms of lengths `m·2^k`: the dense order-`m` matrix
//! across the `m` blocks of a row, the scale, and the one rounding to the storage type, in one
//! pass over the row.
//!
//! Conversions: `f16` by `vcvtph2ps`/`vcvtps2ph` (AVX-512F, or AVX2 with F16C), rounding to
//! nearest even; `bf16` by shifts (a `bf16` is the top half of an `f32`), rounding to nearest
//! even on the way back (`x + 0x7FFF + lsb`, then the top half), NaN kept a quiet NaN. The
//! scalar path converts with the `half` crate, which rounds the same way: every backend gives
//! the same bits (NaN payloads aside).
//!
//! The dense pass computes `y_a = scale · Σ_c h[a][c] · x_c` with `h[a][c] = ±1` by a
//! [`Program`] built at compile time for each matrix: sums and differences of pairs of columns,
//! then of two pairs, then each row's sum of those, each rounded once, then one product by
//! `±scale`: the same operations in the same order on every backend, about a third of the
//! additions of the plain product for order 28. One loop ([`strip`]) reads every program, a
//! register's width of columns at a time: the kernels are compiled once per instruction set and
//! storage type, not once per matrix.
#![allow(clippy::needless_range_loop)]

use std::mem::MaybeUninit;
use std::sync::OnceLock;

use half::{bf16, f16};

use super::Isa;
use crate::matrices::Family;

/// The largest order of the dense pass.
pub const MAX_ORDER: usize = crate::matrices::MAX_ORDER;

/// The most groups of four columns.
const MAX_GROUPS: usize = MAX_ORDER / 4;

/// The most terms of a program: `m` rows of `m / 4` groups.
const MAX_TERMS: usize = MAX_ORDER * MAX_GROUPS;

/// The dense product by a square matrix of `±1` of order `m` (1, or a multiple of 4 up to
/// `MAX_ORDER`), as the table that [`strip`] reads ([`Program::of`]; at compile time for an
/// [`Unrolled`] matrix, on first use for the others).
///
/// The columns go in groups of four, `x₀ … x₃`: the pairs `x₀ ± x₁` and `x₂ ± x₃`, then the
/// eight combinations `(x₀ ± x₁) ± (x₂ ± x₃)` and their negations: every row's signs on a group
/// are one of those sixteen. Each row then sums its `m / 4` combinations left to right, the first
/// one positive, and is stored times `±scale` (the sign of its first column). For order 28: 28
/// pair sums, 56 combinations, 28·6 additions and 28 products a column, against 28·27
/// additions for the plain product; the same operations in the same order on every backend.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Program {
    m: usize,
    /// Row `r`'s combination of group `g`, at `r·m/4 + g`: `16·(g mod BLOCK_GROUPS) + s`, its
    /// entry in the table of `g`'s block ([`strip`]), `s < 8` the combination of pattern `s`
    /// ([`Program::pattern`]), `s >= 8` the negation of pattern `s − 8`.
    terms: [u8; MAX_TERMS],
    /// The entries of group `g` that some row reads: bit `s` for entry `16·g + s`.
    used: [u16; MAX_GROUPS],
    /// Whether row `r` is stored times `−scale`.
    negated: [bool; MAX_ORDER],
}

impl Program {
    /// The program of the matrix of order `m` written row by row in `text` as `+` and `-`
    /// (whitespace between them ignored), or of its transpose. Evaluated at compile time: a text
    /// that is not `m²` signs fails the build.
    pub const fn parse(text: &str, m: usize, transposed: bool) -> Program {
        assert!(m >= 1 && m <= MAX_ORDER, "an order from 1 to MAX_ORDER");
        let bytes = text.as_bytes();
        let mut negative = [[false; MAX_ORDER]; MAX_ORDER];
        let (mut i, mut count) = (0, 0);
        while i < bytes.len() {
            let b = bytes[i];
            i += 1;
            if b == b'+' || b == b'-' {
                assert!(count < m * m, "more than m² signs");
                let (row, column) = (count / m, count % m);
                let (row, column) = if transposed { (column, row) } else { (row, column) };
                negative[row][column] = b == b'-';
                count += 1;
            } else {
                assert!(b.is_ascii_whitespace(), "a sign is + or -");
            }
        }
        assert!(count == m * m, "fewer than m² signs");
        Program::of(negative, m)
    }

    /// The program of the matrix whose entry `(r, c)` is `−1` where `negative[r][c]`, for
    /// `r, c < m`.
    pub const fn of(negative: [[bool; MAX_ORDER]; MAX_ORDER], m: usize) -> Program {
        assert!(m == 1 || (m.is_multiple_of(4) && m <= MAX_ORDER), "an order of 1 or a multiple of 4");
        let mut p = Program { m, terms: [0; MAX_TERMS], used: [0; MAX_GROUPS], negated: [false; MAX_ORDER] };
        let mut r = 0;
        while r < m {
            // Each group's term relative to the row's first column, whose sign goes to the store.
            let first = negative[r][0];
            p.negated[r] = first;
            let mut g = 0;
            while g < m / 4 {
                let minus = negative[r][4 * g] != first;
                let entry = Self::pattern(&negative[r], 4 * g) + 8 * minus as usize;
                p.terms[r * (m / 4) + g] = (16 * (g % BLOCK_GROUPS) + entry) as u8;
                p.used[g] |= 1 << entry;
                g += 1;
            }
            r += 1;
        }
        p
    }

    /// The combination of row `signs` on the group of columns `c..c + 4`, relative to the sign
    /// of column `c`: bit 0 for `x₀ − x₁`, bit 1 for `x₂ − x₃`, bit 2 for the difference of
    /// the two pairs (see [`Program::of`]).
    const fn pattern(signs: &[bool; MAX_ORDER], c: usize) -> usize {
        let (r1, r2, r3) = (signs[c + 1] != signs[c], signs[c + 2] != signs[c], signs[c + 3] != signs[c]);
        r1 as usize | ((r3 != r2) as usize) << 1 | (r2 as usize) << 2
    }

    /// Row `r`'s terms, one for each group.
    #[inline(always)]
    fn terms(&self, r: usize) -> &[u8] {
        let groups = self.m / 4;
        &self.terms[r * groups..(r + 1) * groups]
    }
}

/// Arithmetic in registers of `f32` or `f64` lanes.
pub trait Arith: Copy {
    /// `f32` or `f64`.
    type E: Copy;
    /// The register type.
    type V: Copy;
    /// Lanes per register.
    const WIDTH: usize;
    /// `WIDTH` values from `p`.
    ///
    /// # Safety
    /// `p..p + WIDTH` readable.
    unsafe fn load(self, p: *const Self::E) -> Self::V;
    /// # Safety
    /// `p..p + WIDTH` writable.
    unsafe fn store(self, p: *mut Self::E, v: Self::V);
    /// `x` in every lane.
    fn splat(self, x: Self::E) -> Self::V;
    /// `a + b`, lane by lane.
    fn add(self, a: Self::V, b: Self::V) -> Self::V;
    /// `a − b`, lane by lane.
    fn sub(self, a: Self::V, b: Self::V) -> Self::V;
    /// `a · b`, lane by lane.
    fn mul(self, a: Self::V, b: Self::V) -> Self::V;
    /// `−a`, lane by lane: the sign bit flipped (so that `x + (−y)` is `x − y`, bit for bit).
    fn neg(self, a: Self::V) -> Self::V;
}

/// Registers of `f32` with loads and stores from each storage type.
pub trait Wide: Arith<E = f32> {
    /// # Safety
    /// `p..p + WIDTH` readable.
    unsafe fn load_f16(self, p: *const f16) -> Self::V;
    /// Rounded to nearest even.
    ///
    /// # Safety
    /// `p..p + WIDTH` writable.
    unsafe fn store_f16(self, p: *mut f16, v: Self::V);
    /// # Safety
    /// `p..p + WIDTH` readable.
    unsafe fn load_bf16(self, p: *const bf16) -> Self::V;
    /// Rounded to nearest even, NaN to a quiet NaN.
    ///
    /// # Safety
    /// `p..p + WIDTH` writable.
    unsafe fn store_bf16(self, p: *mut bf16, v: Self::V);
}

/// A storage type of `f32` arithmetic.
pub trait Narrow: Copy + Send + Sync {
    /// The value as an `f32` (exact).
    fn widen(self) -> f32;
    /// # Safety
    /// As [`Arith::load`].
    unsafe fn load<W: Wide>(w: W, p: *const Self) -> W::V;
    /// The row at `p`, as a [`Sink`].
    fn row(p: *mut Self) -> Row;
}

/// Where the registers of `A` are written (rounded to the storage type), element `i` of a row.
///
/// For `f32` registers the storage type is a value chosen at run time ([`Row`]: one predictable
/// branch a store), so that [`strip`] is compiled once per instruction set rather than once per
/// storage type.
pub trait Sink<A: Arith>: Copy {
    /// # Safety
    /// Elements `i..i + WIDTH` writable (as [`Arith::store`]).
    unsafe fn put(self, a: A, i: usize, v: A::V);
}

/// A row of `f32`, `f16` or `bf16` values written from `f32` registers.
#[derive(Clone, Copy)]
pub enum Row {
    /// `f32` values.
    F32(*mut f32),
    /// `f16` values, rounded to nearest even.
    F16(*mut f16),
    /// `bf16` values, rounded to nearest even.
    Bf16(*mut bf16),
}

impl<W: Wide> Sink<W> for Row {
    #[inline(always)]
    unsafe fn put(self, w: W, i: usize, v: W::V) {
        // SAFETY: forwarded from the caller.
        unsafe {
            match self {
                Row::F32(p) => w.store(p.add(i), v),
                Row::F16(p) => w.store_f16(p.add(i), v),
                Row::Bf16(p) => w.store_bf16(p.add(i), v),
            }
        }
    }
}

impl<A: Arith<E = f64>> Sink<A> for *mut f64 {
    #[inline(always)]
    unsafe fn put(self, a: A, i: usize, v: A::V) {
        // SAFETY: forwarded from the caller.
        unsafe { a.store(self.add(i), v) }
    }
}

impl Narrow for f32 {
    #[inline(always)]
    fn row(p: *mut f32) -> Row {
        Row::F32(p)
    }
    #[inline(always)]
    fn widen(self) -> f32 {
        self
    }
    #[inline(always)]
    unsafe fn load<W: Wide>(w: W, p: *const f32) -> W::V {
        // SAFETY: forwarded from the caller.
        unsafe { w.load(p) }
    }
}

impl Narrow for f16 {
    #[inline(always)]
    fn row(p: *mut f16) -> Row {
        Row::F16(p)
    }
    #[inline(always)]
    fn widen(self) -> f32 {
        self.to_f32()
    }
    #[inline(always)]
    unsafe fn load<W: Wide>(w: W, p: *const f16) -> W::V {
        // SAFETY: forwarded from the caller.
        unsafe { w.load_f16(p) }
    }
}

impl Narrow for bf16 {
    #[inline(always)]
    fn row(p: *mut bf16) -> Row {
        Row::Bf16(p)
    }
    #[inline(always)]
    fn widen(self) -> f32 {
        self.to_f32()
    }
    #[inline(always)]
    unsafe fn load<W: Wide>(w: W, p: *const bf16) -> W::V {
        // SAFETY: forwarded from the caller.
        unsafe { w.load_bf16(p) }
    }
}

/// One lane of `f32`: the scalar path, always available.
#[derive(Clone, Copy)]
pub struct Scalar;

impl Arith for Scalar {
    type E = f32;
    type V = f32;
    const WIDTH: usize = 1;
    #[inline(always)]
    unsafe fn load(self, p: *const f32) -> f32 {
        // SAFETY: forwarded from the caller.
        unsafe { p.read_unaligned() }
    }
    #[inline(always)]
    unsafe fn store(self, p: *mut f32, v: f32) {
        // SAFETY: forwarded from the caller.
        unsafe { p.write_unaligned(v) }
    }
    #[inline(always)]
    fn splat(self, x: f32) -> f32 {
        x
    }
    #[inline(always)]
    fn add(self, a: f32, b: f32) -> f32 {
        a + b
    }
    #[inline(always)]
    fn sub(self, a: f32, b: f32) -> f32 {
        a - b
    }
    #[inline(always)]
    fn mul(self, a: f32, b: f32) -> f32 {
        a * b
    }
    #[inline(always)]
    fn neg(self, a: f32) -> f32 {
        -a
    }
}

impl Wide for Scalar {
    #[inline(always)]
    unsafe fn load_f16(self, p: *const f16) -> f32 {
        // SAFETY: forwarded from the caller.
        unsafe { p.read_unaligned() }.to_f32()
    }
    #[inline(always)]
    unsafe fn store_f16(self, p: *mut f16, v: f32) {
        // SAFETY: forwarded from the caller.
        unsafe { p.write_unaligned(f16::from_f32(v)) }
    }
    #[inline(always)]
    unsafe fn load_bf16(self, p: *const bf16) -> f32 {
        // SAFETY: forwarded from the caller.
        unsafe { p.read_unaligned() }.to_f32()
    }
    #[inline(always)]
    unsafe fn store_bf16(self, p: *mut bf16, v: f32) {
        // SAFETY: forwarded from the caller.
        unsafe { p.write_unaligned(bf16::from_f32(v)) }
    }
}

/// One lane of `f64`: the scalar path of `f64` storage, always available.
#[derive(Clone, Copy)]
pub struct Scalar64;

impl Arith for Scalar64 {
    type E = f64;
    type V = f64;
    const WIDTH: usize = 1;
    #[inline(always)]
    unsafe fn load(self, p: *const f64) -> f64 {
        // SAFETY: forwarded from the caller.
        unsafe { p.read_unaligned() }
    }
    #[inline(always)]
    unsafe fn store(self, p: *mut f64, v: f64) {
        // SAFETY: forwarded from the caller.
        unsafe { p.write_unaligned(v) }
    }
    #[inline(always)]
    fn splat(self, x: f64) -> f64 {
        x
    }
    #[inline(always)]
    fn add(self, a: f64, b: f64) -> f64 {
        a + b
    }
    #[inline(always)]
    fn sub(self, a: f64, b: f64) -> f64 {
        a - b
    }
    #[inline(always)]
    fn mul(self, a: f64, b: f64) -> f64 {
        a * b
    }
    #[inline(always)]
    fn neg(self, a: f64) -> f64 {
        -a
    }
}

/// `dst[i] = src[i]` widened to `f32`, for `i < len`.
///
/// # Safety
/// `src..src + len` readable, `dst..dst + len` writable; `W`'s instruction set available.
#[inline(always)]
unsafe fn widen_body<W: Wide, S: Narrow>(w: W, src: *const S, dst: *mut f32, len: usize) {
    let mut i = 0;
    while i + W::WIDTH <= len {
        // SAFETY: i + WIDTH <= len.
        unsafe { w.store(dst.add(i), S::load(w, src.add(i))) };
        i += W::WIDTH;
    }
    while i < len {
        // SAFETY: i < len.
        unsafe { dst.add(i).write(src.add(i).read().widen()) };
        i += 1;
    }
}

/// The dense pass over one strip of `A::WIDTH` columns from column `j` of one row of `m`
/// blocks (`m` the order of `program`), block `c` at `src + c·stride`: `out[a·len + j..] = scale
/// · Σ_c h[a][c] · src[c·stride + j..]` by the [`Program`], `factor` holding `scale` and
/// `−scale`. Every column of the strip is read whole before any is written: `out` may be `src`
/// (with `stride == len`).
///
/// One loop for every matrix: the sixteen combinations of each group go to a table on the stack,
/// then each row adds up its entries of the table in a register. Matrices of more than
/// [`BLOCK_GROUPS`] groups go [`BLOCK_GROUPS`] groups at a time, so that the table stays in L1:
/// each row's sum is kept on the stack between blocks and goes on left to right, the same
/// additions in the same order as in one block.
///
/// # Safety
/// `src + c·stride + j..+ WIDTH` readable and `out + c·len + j..+ WIDTH` writable for `c < m`;
/// `A`'s instruction set available.
#[inline(always)]
unsafe fn strip<A: Arith, P: Sink<A>>(
    a: A,
    program: &Program,
    (src, stride): (*const A::E, usize),
    out: P,
    len: usize,
    j: usize,
    factor: [A::V; 2],
) {
    let m = program.m;
    if m == 1 {
        // SAFETY: column j of the one block: the caller's bounds.
        let x = unsafe { a.load(src.add(j)) };
        // SAFETY: as above.
        return unsafe { out.put(a, j, a.mul(x, factor[usize::from(program.negated[0])])) };
    }
    let groups = m / 4;
    // Indexed by a `u8`: no bounds check. The entries of the block's groups that rows read
    // (`used`) are written before any row reads them.
    let mut table = [const { MaybeUninit::<A::V>::uninit() }; 256];
    // SAFETY: every term of the block is a used entry of the block (written before it is read).
    let entry = |table: &[MaybeUninit<A::V>; 256], t: u8| unsafe { table[usize::from(t)].assume_init() };
    if groups <= BLOCK_GROUPS {
        // SAFETY: the caller's bounds.
        unsafe { block(a, program, (src, stride), j, 0..groups, &mut table) };
        for r in 0..m {
            let terms = program.terms(r);
            let sum = terms[1..].iter().fold(entry(&table, terms[0]), |sum, &t| a.add(sum, entry(&table, t)));
            // SAFETY: row r < m, columns j..j + WIDTH <= len: the caller's bounds.
            unsafe { out.put(a, r * len + j, a.mul(sum, factor[usize::from(program.negated[r])])) };
        }
        return;
    }
    // Each row's sum so far, between blocks.
    let mut sums = [const { MaybeUninit::<A::V>::uninit() }; MAX_ORDER];
    for first in (0..groups).step_by(BLOCK_GROUPS) {
        let last = groups.min(first + BLOCK_GROUPS);
        // SAFETY: the caller's bounds.
        unsafe { block(a, program, (src, stride), j, first..last, &mut table) };
        // Eight rows at a time (then four), their sums interleaved: chains of additions in flight
        // where one row alone would wait on each addition (each row's sum still goes left to
        // right).
        let (block_rows, rest) = (m - m % 8, m % 8);
        for r in (0..block_rows).step_by(8) {
            // SAFETY: forwarded.
            unsafe {
                rows::<A, P, 8>(a, program, &table, &mut sums, (first, last, groups), r, out, len, j, factor)
            };
        }
        if rest == 4 {
            // SAFETY: forwarded.
            unsafe {
                rows::<A, P, 4>(
                    a,
                    program,
                    &table,
                    &mut sums,
                    (first, last, groups),
                    block_rows,
                    out,
                    len,
                    j,
                    factor,
                )
            };
        }
    }
}

/// Rows `r..r + R` of one block of [`strip`]: each row's sum of its terms of the groups
/// `first..last`, from its sum so far (none for the first block), kept for the next block or,
/// after the last, stored times `±scale`.
///
/// # Safety
/// As [`strip`]; the block's entries of `table` written, and `sums[r..r + R]` where `first > 0`.
#[allow(clippy::too_many_arguments)]
#[inline(always)]
unsafe fn rows<A: Arith, P: Sink<A>, const R: usize>(
    a: A,
    program: &Program,
    table: &[MaybeUninit<A::V>; 256],
    sums: &mut [MaybeUninit<A::V>; MAX_ORDER],
    (first, last, groups): (usize, usize, usize),
    r: usize,
    out: P,
    len: usize,
    j: usize,
    factor: [A::V; 2],
) {
    // SAFETY: every term of the block is a used entry of the block (written before).
    let entry = |t: u8| unsafe { table[usize::from(t)].assume_init() };
    let terms: [&[u8]; R] = std::array::from_fn(|i| &program.terms(r + i)[first..last]);
    let mut sum: [A::V; R] = std::array::from_fn(|i| {
        let e = entry(terms[i][0]);
        // SAFETY: written by the block before.
        if first == 0 { e } else { a.add(unsafe { sums[r + i].assume_init() }, e) }
    });
    for g in 1..last - first {
        for i in 0..R {
            sum[i] = a.add(sum[i], entry(terms[i][g]));
        }
    }
    for (i, sum) in sum.into_iter().enumerate() {
        if last < groups {
            sums[r + i] = MaybeUninit::new(sum);
        } else {
            let negated = usize::from(program.negated[r + i]);
            // SAFETY: row r + i < m, columns j..j + WIDTH <= len: the caller's bounds.
            unsafe { out.put(a, (r + i) * len + j, a.mul(sum, factor[negated])) };
        }
    }
}

/// The table of [`strip`] for the groups `groups` of one block: entry `16·(g − first) + s` the
/// combination `s` of group `g` where a row reads it.
///
/// # Safety
/// As [`strip`].
#[inline(always)]
unsafe fn block<A: Arith>(
    a: A,
    program: &Program,
    (src, stride): (*const A::E, usize),
    j: usize,
    groups: std::ops::Range<usize>,
    table: &mut [MaybeUninit<A::V>; 256],
) {
    let first = groups.start;
    for g in groups {
        // SAFETY: columns 4g..4g + 4 < m: the caller's bounds.
        let x = |c: usize| unsafe { a.load(src.add((4 * g + c) * stride + j)) };
        let (x0, x1, x2, x3) = (x(0), x(1), x(2), x(3));
        let pairs = [a.add(x0, x1), a.sub(x0, x1), a.add(x2, x3), a.sub(x2, x3)];
        let used = program.used[g];
        let at = 16 * (g - first);
        for s in 0..8 {
            if used >> s & 0x101 == 0 {
                continue;
            }
            let (p, q) = (pairs[s & 1], pairs[2 + (s >> 1 & 1)]);
            let v = if s & 4 == 0 { a.add(p, q) } else { a.sub(p, q) };
            table[at + s] = MaybeUninit::new(v);
            table[at + 8 + s] = MaybeUninit::new(a.neg(v));
        }
    }
}

/// The groups of four columns of one block of [`strip`]: the `16 · BLOCK_GROUPS` registers of
/// its table (10 KiB of AVX-512) and the sums of the rows (11 KiB) stay in L1. Orders up to 40
/// are one block.
const BLOCK_GROUPS: usize = 10;

/// How the dense pass of a matrix runs: read from its [`Program`] by [`strip`] (`&Program`,
/// compiled once for every matrix), or as straight-line code compiled for the matrix
/// ([`Unrolled`], for small orders whose values stay in registers).
pub(crate) trait Dense: Copy {
    /// The matrix's program.
    fn program(&self) -> &Program;

    /// The pass over one strip (see [`strip`]).
    ///
    /// # Safety
    /// As [`strip`].
    unsafe fn strip<A: Arith, P: Sink<A>>(
        self,
        a: A,
        src: (*const A::E, usize),
        out: P,
        len: usize,
        j: usize,
        factor: [A::V; 2],
    );
}

impl Dense for &Program {
    fn program(&self) -> &Program {
        self
    }

    #[inline(always)]
    unsafe fn strip<A: Arith, P: Sink<A>>(
        self,
        a: A,
        src: (*const A::E, usize),
        out: P,
        len: usize,
        j: usize,
        factor: [A::V; 2],
    ) {
        // SAFETY: forwarded from the caller.
        unsafe { strip(a, self, src, out, len, j, factor) }
    }
}

/// A matrix whose program is known at compile time.
pub(crate) trait Matrix {
    /// Its program.
    const PROGRAM: Program;
}

/// The pass of a matrix of order 4, 8 or 12 as straight-line code: the program's indices are
/// constants, so the table of [`strip`] becomes registers. For an order of 12 the interpreted
/// pass costs about five times the instructions; from order 20 on, whose values do not fit in
/// the registers, it is as fast as this and compiles once.
pub(crate) struct Unrolled<O>(std::marker::PhantomData<O>);

impl<O> Clone for Unrolled<O> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<O> Copy for Unrolled<O> {}

impl<O: Matrix> Unrolled<O> {
    /// The unrolled pass of `O`.
    pub const fn new() -> Self {
        let m = O::PROGRAM.m;
        assert!(m.is_multiple_of(4) && m <= UNROLLED_ORDER, "an unrolled order of 4, 8 or 12");
        Unrolled(std::marker::PhantomData)
    }
}

impl<O: Matrix> Default for Unrolled<O> {
    fn default() -> Self {
        Self::new()
    }
}

/// The largest order of an [`Unrolled`] matrix.
const UNROLLED_ORDER: usize = 12;

/// `$body` once for each literal `$k` of the list, with `const $i: usize = $k`: a loop
/// unrolled by construction, whose index is a constant in every copy.
macro_rules! unroll {
    ($i:ident; $($k:literal)*; $body:block) => {
        $({
            const $i: usize = $k;
            $body
        })*
    };
}

impl<O: Matrix> Dense for Unrolled<O> {
    fn program(&self) -> &Program {
        const { &O::PROGRAM }
    }

    #[inline(always)]
    unsafe fn strip<A: Arith, P: Sink<A>>(
        self,
        a: A,
        (src, stride): (*const A::E, usize),
        out: P,
        len: usize,
        j: usize,
        factor: [A::V; 2],
    ) {
        // The table of [`strip`], of the first three groups; every index below is a constant.
        let mut table = [const { MaybeUninit::<A::V>::uninit() }; 48];
        #[rustfmt::skip]
        unroll!(G; 0 1 2; {
            if const { G < O::PROGRAM.m / 4 } {
                // SAFETY: columns 4G..4G + 4 < m: the caller's bounds.
                let x = |c: usize| unsafe { a.load(src.add((4 * G + c) * stride + j)) };
                let (x0, x1, x2, x3) = (x(0), x(1), x(2), x(3));
                let pairs = [a.add(x0, x1), a.sub(x0, x1), a.add(x2, x3), a.sub(x2, x3)];
                unroll!(S; 0 1 2 3 4 5 6 7; {
                    if const { O::PROGRAM.used[G] >> S & 0x101 != 0 } {
                        let (p, q) = (pairs[S & 1], pairs[2 + (S >> 1 & 1)]);
                        let v = if S & 4 == 0 { a.add(p, q) } else { a.sub(p, q) };
                        table[16 * G + S] = MaybeUninit::new(v);
                        table[16 * G + 8 + S] = MaybeUninit::new(a.neg(v));
                    }
                });
            }
        });
        #[rustfmt::skip]
        unroll!(R; 0 1 2 3 4 5 6 7 8 9 10 11; {
            if const { R < O::PROGRAM.m } {
                // SAFETY: every term is a used entry (written above).
                let entry = |t: u8| unsafe { table[usize::from(t)].assume_init() };
                let mut sum = entry(const { O::PROGRAM.terms[R * (O::PROGRAM.m / 4)] });
                unroll!(G; 1 2; {
                    if const { G < O::PROGRAM.m / 4 } {
                        sum = a.add(sum, entry(const { O::PROGRAM.terms[R * (O::PROGRAM.m / 4) + G] }));
                    }
                });
                let negated = const { O::PROGRAM.negated[R] as usize };
                // SAFETY: row R < m, columns j..j + WIDTH <= len: the caller's bounds.
                unsafe { out.put(a, R * len + j, a.mul(sum, factor[negated])) };
            }
        });
    }
}

/// The row after the one written, whose lines the pass asks for in L2 as it goes: its first
/// byte (null for none) and the bytes of an element.
type Next = (*const u8, usize);

/// No row to ask for.
const NO_NEXT: Next = (std::ptr::null(), 0);

/// The [`Next`] of `next`.
fn next_of<S>(next: Option<&[S]>) -> Next {
    (next.map_or(std::ptr::null(), |n| n.as_ptr().cast()), size_of::<S>())
}

/// [`strip`] for the columns `from..to` (`to − from` a multiple of `A::WIDTH`) of one row.
///
/// # Safety
/// As [`strip`] for every strip: `to <= len <= stride`, `src..src + (m − 1)·stride + len`
/// readable, `out..out + m·len` writable, the same memory (`stride == len`) or disjoint. `next`
/// (the row after `out`, whose lines are asked for in L2 strip by strip as the pass goes) may be
/// null.
#[inline(always)]
unsafe fn columns<A: Arith, P: Sink<A>, D: Dense>(
    a: A,
    dense: D,
    src: (*const A::E, usize),
    (out, next): (P, Next),
    len: usize,
    (from, to): (usize, usize),
    (scale, minus_scale): (A::E, A::E),
) {
    let factor = [a.splat(scale), a.splat(minus_scale)];
    let mut j = from;
    while j < to {
        if !next.0.is_null() {
            for c in 0..dense.program().m {
                prefetch(next.0.wrapping_add((c * len + j) * next.1));
            }
        }
        // SAFETY: j + WIDTH <= to <= len.
        unsafe { dense.strip(a, src, out, len, j, factor) };
        j += A::WIDTH;
    }
}

/// Asks for the cache line of `p` in L2 (a hint: no fault, whatever the address).
#[inline(always)]
fn prefetch<T>(p: *const T) {
    #[cfg(target_arch = "x86_64")]
    // SAFETY: a prefetch never faults and changes no memory.
    unsafe {
        std::arch::x86_64::_mm_prefetch::<{ std::arch::x86_64::_MM_HINT_T1 }>(p.cast())
    };
    #[cfg(not(target_arch = "x86_64"))]
    let _ = p;
}

/// `dst[i] = src[i]` as `f32` (`dst.len() == src.len()`), on `backend` where it has the
/// conversions, else on the scalar path.
pub fn widen<S: Narrow>(src: &[S], dst: &mut [f32], backend: Isa) {
    assert_eq!(src.len(), dst.len());
    let (s, d, n) = (src.as_ptr(), dst.as_mut_ptr(), src.len());
    #[cfg(target_arch = "x86_64")]
    match backend {
        Isa::Avx512 => {
            if let Some(w) = x86::Avx512::new() {
                // SAFETY: the lengths match; the token proves AVX-512F.
                return unsafe { x86::widen512(w, s, d, n) };
            }
        }
        Isa::Avx2 => {
            if let Some(w) = x86::Avx2::new() {
                // SAFETY: the lengths match; the token proves AVX2, FMA and F16C.
                return unsafe { x86::widen256(w, s, d, n) };
            }
        }
        _ => {}
    }
    let _ = backend;
    // SAFETY: the lengths match.
    unsafe { widen_body(Scalar, s, d, n) }
}

/// Whether the matrix of order `m` written in `text` (as [`Program::parse`] reads it)
/// is symmetric.
const fn is_symmetric(text: &str, m: usize) -> bool {
    let bytes = text.as_bytes();
    let mut signs = [[0u8; MAX_ORDER]; MAX_ORDER];
    let (mut i, mut count) = (0, 0);
    while i < bytes.len() {
        if bytes[i] == b'+' || bytes[i] == b'-' {
            signs[count / m][count % m] = bytes[i];
            count += 1;
        }
        i += 1;
    }
    let mut r = 0;
    while r < m {
        let mut c = 0;
        while c < r {
            if signs[r][c] != signs[c][r] {
                return false;
            }
            c += 1;
        }
        r += 1;
    }
    true
}

// `had_12_paley` is symmetric: the inverse shares the forward pass's program (see `program_of`).
const _: () = assert!(is_symmetric(crate::matrices::HAD_12, 12), "had_12_paley is symmetric");

/// Sloane's `had.12` is not: its inverse has a program of its own.
const _: () = assert!(!is_symmetric(crate::matrices::SLOANE_12, 12), "had.12 is not symmetric");

/// `H_12` of fast-hadamard-transform, whose dense pass is compiled as straight-line code
/// ([`Unrolled`]).
struct Order12;

impl Matrix for Order12 {
    const PROGRAM: Program = Program::parse(crate::matrices::HAD_12, 12, false);
}

/// Sloane's `H_12` (QuIP#, QuaRot: the matrix of lengths `12·2^k` such as 3072), and its
/// transpose, as straight-line code too: through the program they take about twice as long.
struct Sloane12<const T: bool>;

impl<const T: bool> Matrix for Sloane12<T> {
    const PROGRAM: Program = Program::parse(crate::matrices::SLOANE_12, 12, T);
}

/// `$body` with `$dense` the dense pass of `order`: compiled four times, for the three matrices
/// of order 12 and for the programs of the others.
macro_rules! with_dense {
    ($order:expr, $dense:ident => $body:expr) => {
        match $order {
            // fast-hadamard-transform's `H_12` is its own transpose (checked at compile time
            // above).
            Order { family: Family::FastHadamardTransform, m: 12, .. } => {
                let $dense = Unrolled::<Order12>::new();
                $body
            }
            Order { family: Family::Sloane, m: 12, transposed: false } => {
                let $dense = Unrolled::<Sloane12<false>>::new();
                $body
            }
            Order { family: Family::Sloane, m: 12, transposed: true } => {
                let $dense = Unrolled::<Sloane12<true>>::new();
                $body
            }
            order => {
                let $dense = program_of(order);
                $body
            }
        }
    };
}

/// The programs of every matrix of every family and of their transposes, made on first use.
static PROGRAMS: [OnceLock<Box<Program>>; 2 * SLOTS] = [const { OnceLock::new() }; 2 * SLOTS];

/// Orders of both families, 1 included once each.
const SLOTS: usize = 2 + Family::FastHadamardTransform.orders().len() + Family::Sloane.orders().len();

/// The program of `order`.
///
/// # Panics
/// When the family has no matrix of that order.
fn program_of(order: Order) -> &'static Program {
    let Order { family, m, transposed } = order;
    let (text, index) = match (crate::matrices::text(family, m), family.orders().iter().position(|&o| o == m))
    {
        (Some(text), Some(i)) => (text, i + 1),
        (Some(text), None) => (text, 0),
        (None, _) => panic!("no Hadamard matrix of order {m} in {family:?}"),
    };
    let base = match family {
        Family::FastHadamardTransform => 0,
        Family::Sloane => 1 + Family::FastHadamardTransform.orders().len(),
    };
    PROGRAMS[2 * (base + index) + usize::from(transposed)]
        .get_or_init(|| Box::new(Program::parse(text, m, transposed)))
}

/// A matrix of the dense pass: `H_m` of a family of [`crate::matrices`] (or 1), or its
/// transpose.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Order {
    /// The family of the matrix.
    pub family: Family,
    /// The order.
    pub m: usize,
    /// Whether the pass multiplies by the transpose.
    pub transposed: bool,
}

/// The last pass over one row of `m` blocks by the matrix `order` (see [`strip`]), from the `f32`
/// values `src`, block `c` at `c·stride`, to `out` (`m` blocks of `out.len() / m` values, at most
/// `stride`).
///
/// # Panics
/// When the lengths do not fit `order`, or `order` is not one of [`crate::matrices`].
pub fn finish<S: Narrow>(
    order: Order,
    src: (&[f32], usize),
    out: (&mut [S], Option<&[S]>),
    scale: f32,
    isa: Isa,
) {
    with_dense!(order, dense => finish_with(dense, src, out, scale, isa))
}

/// [`finish`] in place, on `f32` values.
pub fn finish_in_place(order: Order, data: &mut [f32], next: Option<&[f32]>, scale: f32, isa: Isa) {
    with_dense!(order, dense => finish_in_place_with(dense, data, next, scale, isa))
}

/// The `f64` last pass by the matrix `order`, in place.
pub fn finish_f64(order: Order, data: &mut [f64], next: Option<&[f64]>, scale: f64, isa: Isa) {
    with_dense!(order, dense => finish_f64_with(dense, data, next, scale, isa))
}

/// The last pass over one row of `m` blocks by the matrix of `dense`, of order `m` (see [`Dense`]),
/// from the `f32` values `src`, block `c` at `c·stride`, to `out` (`m` blocks of `out.len() / m`
/// values, at most `stride`).
fn finish_with<S: Narrow, D: Dense>(
    dense: D,
    (src, stride): (&[f32], usize),
    (out, next): (&mut [S], Option<&[S]>),
    scale: f32,
    backend: Isa,
) {
    let m = dense.program().m;
    assert!(out.len().is_multiple_of(m));
    let len = out.len() / m;
    assert!(stride >= len && src.len() >= (m - 1) * stride + len);
    // SAFETY: the lengths were checked; distinct slices do not overlap.
    unsafe {
        finish_raw(
            dense,
            (src.as_ptr(), stride),
            (S::row(out.as_mut_ptr()), next_of(next)),
            len,
            scale,
            backend,
        )
    }
}

/// [`finish`] in place, on `f32` values.
fn finish_in_place_with<D: Dense>(
    dense: D,
    data: &mut [f32],
    next: Option<&[f32]>,
    scale: f32,
    backend: Isa,
) {
    let m = dense.program().m;
    assert!(data.len().is_multiple_of(m));
    let p = data.as_mut_ptr();
    let len = data.len() / m;
    // SAFETY: the length was checked; the pass reads each column whole before writing it.
    unsafe { finish_raw(dense, (p, len), (Row::F32(p), next_of(next)), len, scale, backend) }
}

/// # Safety
/// As [`columns`].
unsafe fn finish_raw<D: Dense>(
    dense: D,
    src: (*const f32, usize),
    out: (Row, Next),
    len: usize,
    scale: f32,
    backend: Isa,
) {
    let mut done = 0;
    #[cfg(target_arch = "x86_64")]
    match backend {
        Isa::Avx512 => {
            if let Some(w) = x86::Avx512::new() {
                done = len - len % 16;
                // SAFETY: forwarded; the token proves AVX-512F.
                unsafe { x86::finish512(w, dense, src, out, len, done, scale) };
            }
        }
        Isa::Avx2 => {
            if let Some(w) = x86::Avx2::new() {
                done = len - len % 8;
                // SAFETY: forwarded; the token proves AVX2, FMA and F16C.
                unsafe { x86::finish256(w, dense, src, out, len, done, scale) };
            }
        }
        _ => {}
    }
    let _ = backend;
    // SAFETY: forwarded from the caller.
    unsafe { columns(Scalar, dense.program(), src, (out.0, NO_NEXT), len, (done, len), (scale, -scale)) }
}

/// The `f64` last pass by the matrix of `dense`, in place: its strips in `f64`, on `backend` (8 or 4
/// lanes) and the scalar path for the last columns.
fn finish_f64_with<D: Dense>(dense: D, data: &mut [f64], next: Option<&[f64]>, scale: f64, backend: Isa) {
    let m = dense.program().m;
    assert!(data.len().is_multiple_of(m));
    let (p, len) = (data.as_mut_ptr(), data.len() / m);
    let next = next_of(next);
    let mut done = 0;
    #[cfg(target_arch = "x86_64")]
    match backend {
        Isa::Avx512 => {
            if let Some(w) = x86::Avx512F64::new() {
                done = len - len % 8;
                // SAFETY: the length was checked; the pass reads each column whole before
                // writing it; the token proves AVX-512F.
                unsafe { x86::finish512_f64(w, dense, (p, len), (p, next), len, done, scale) };
            }
        }
        Isa::Avx2 => {
            if let Some(w) = x86::Avx2F64::new() {
                done = len - len % 4;
                // SAFETY: as above; the token proves AVX2, FMA and F16C.
                unsafe { x86::finish256_f64(w, dense, (p, len), (p, next), len, done, scale) };
            }
        }
        _ => {}
    }
    let _ = backend;
    // SAFETY: as above.
    unsafe { columns(Scalar64, dense.program(), (p, len), (p, NO_NEXT), len, (done, len), (scale, -scale)) }
}

#[cfg(target_arch = "x86_64")]
mod x86 {
    use std::arch::x86_64::*;

    use half::{bf16, f16};

    use super::{Arith, Dense, Narrow, Next, Row, Wide, columns, widen_body};

    /// `f32` in 16 lanes; exists only where the CPU runs AVX-512F.
    #[derive(Clone, Copy)]
    pub(super) struct Avx512(());

    impl Avx512 {
        pub(super) fn new() -> Option<Self> {
            crate::Isa::Avx512.is_available().then_some(Avx512(()))
        }
    }

    /// `bf16` bits of 16 `f32` lanes, rounded to nearest even (`x + 0x7FFF + lsb`, then the top
    /// half; an overflow carries into the exponent, to infinity where it should), NaN kept a
    /// quiet NaN.
    #[inline(always)]
    fn bf16_bits512(v: __m512) -> __m256i {
        // SAFETY: only called from functions compiled for AVX-512F.
        unsafe {
            let bits = _mm512_castps_si512(v);
            let lsb = _mm512_and_si512(_mm512_srli_epi32::<16>(bits), _mm512_set1_epi32(1));
            let rounded = _mm512_add_epi32(_mm512_add_epi32(bits, _mm512_set1_epi32(0x7FFF)), lsb);
            let nan = _mm512_cmp_ps_mask::<_CMP_UNORD_Q>(v, v);
            let quiet = _mm512_or_si512(bits, _mm512_set1_epi32(0x0040_0000));
            let top = _mm512_srli_epi32::<16>(_mm512_mask_mov_epi32(rounded, nan, quiet));
            _mm512_cvtepi32_epi16(top)
        }
    }

    impl Arith for Avx512 {
        type E = f32;
        type V = __m512;
        const WIDTH: usize = 16;
        #[inline(always)]
        unsafe fn load(self, p: *const f32) -> __m512 {
            // SAFETY: forwarded; AVX-512F (token).
            unsafe { _mm512_loadu_ps(p) }
        }
        #[inline(always)]
        unsafe fn store(self, p: *mut f32, v: __m512) {
            // SAFETY: forwarded; AVX-512F (token).
            unsafe { _mm512_storeu_ps(p, v) }
        }
        #[inline(always)]
        fn splat(self, x: f32) -> __m512 {
            // SAFETY: AVX-512F (token).
            unsafe { _mm512_set1_ps(x) }
        }
        #[inline(always)]
        fn add(self, a: __m512, b: __m512) -> __m512 {
            // SAFETY: AVX-512F (token).
            unsafe { _mm512_add_ps(a, b) }
        }
        #[inline(always)]
        fn sub(self, a: __m512, b: __m512) -> __m512 {
            // SAFETY: AVX-512F (token).
            unsafe { _mm512_sub_ps(a, b) }
        }
        #[inline(always)]
        fn mul(self, a: __m512, b: __m512) -> __m512 {
            // SAFETY: AVX-512F (token).
            unsafe { _mm512_mul_ps(a, b) }
        }
        #[inline(always)]
        fn neg(self, a: __m512) -> __m512 {
            // SAFETY: AVX-512F (token).
            unsafe {
                _mm512_castsi512_ps(_mm512_xor_si512(_mm512_castps_si512(a), _mm512_set1_epi32(i32::MIN)))
            }
        }
    }

    impl Wide for Avx512 {
        #[inline(always)]
        unsafe fn load_f16(self, p: *const f16) -> __m512 {
            // SAFETY: forwarded; AVX-512F (token).
            unsafe { _mm512_cvtph_ps(_mm256_loadu_si256(p.cast())) }
        }
        #[inline(always)]
        unsafe fn store_f16(self, p: *mut f16, v: __m512) {
            // SAFETY: forwarded; AVX-512F (token).
            unsafe {
                _mm256_storeu_si256(
                    p.cast(),
                    _mm512_cvtps_ph::<{ _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC }>(v),
                )
            }
        }
        #[inline(always)]
        unsafe fn load_bf16(self, p: *const bf16) -> __m512 {
            // SAFETY: forwarded; AVX-512F (token). A bf16 is the top half of an f32.
            unsafe {
                _mm512_castsi512_ps(_mm512_slli_epi32::<16>(_mm512_cvtepu16_epi32(_mm256_loadu_si256(
                    p.cast(),
                ))))
            }
        }
        #[inline(always)]
        unsafe fn store_bf16(self, p: *mut bf16, v: __m512) {
            // SAFETY: forwarded; AVX-512F (token).
            unsafe { _mm256_storeu_si256(p.cast(), bf16_bits512(v)) }
        }
    }

    /// `f32` in 8 lanes; exists only where the CPU runs AVX2, FMA and F16C.
    #[derive(Clone, Copy)]
    pub(super) struct Avx2(());

    impl Avx2 {
        pub(super) fn new() -> Option<Self> {
            crate::Isa::Avx2.is_available().then_some(Avx2(()))
        }
    }

    /// As [`bf16_bits512`], for 8 lanes.
    #[inline(always)]
    fn bf16_bits256(v: __m256) -> __m128i {
        // SAFETY: only called from functions compiled for AVX2.
        unsafe {
            let bits = _mm256_castps_si256(v);
            let lsb = _mm256_and_si256(_mm256_srli_epi32::<16>(bits), _mm256_set1_epi32(1));
            let rounded = _mm256_add_epi32(_mm256_add_epi32(bits, _mm256_set1_epi32(0x7FFF)), lsb);
            let nan = _mm256_castps_si256(_mm256_cmp_ps::<_CMP_UNORD_Q>(v, v));
            let quiet = _mm256_or_si256(bits, _mm256_set1_epi32(0x0040_0000));
            let top = _mm256_srli_epi32::<16>(_mm256_blendv_epi8(rounded, quiet, nan));
            // Each 128-bit half packs to 4 + 4 words (the upper 4 repeat); gather the two lows.
            let packed = _mm256_packus_epi32(top, top);
            _mm256_castsi256_si128(_mm256_permute4x64_epi64::<0b1000>(packed))
        }
    }

    impl Arith for Avx2 {
        type E = f32;
        type V = __m256;
        const WIDTH: usize = 8;
        #[inline(always)]
        unsafe fn load(self, p: *const f32) -> __m256 {
            // SAFETY: forwarded; AVX (token).
            unsafe { _mm256_loadu_ps(p) }
        }
        #[inline(always)]
        unsafe fn store(self, p: *mut f32, v: __m256) {
            // SAFETY: forwarded; AVX (token).
            unsafe { _mm256_storeu_ps(p, v) }
        }
        #[inline(always)]
        fn splat(self, x: f32) -> __m256 {
            // SAFETY: AVX (token).
            unsafe { _mm256_set1_ps(x) }
        }
        #[inline(always)]
        fn add(self, a: __m256, b: __m256) -> __m256 {
            // SAFETY: AVX (token).
            unsafe { _mm256_add_ps(a, b) }
        }
        #[inline(always)]
        fn sub(self, a: __m256, b: __m256) -> __m256 {
            // SAFETY: AVX (token).
            unsafe { _mm256_sub_ps(a, b) }
        }
        #[inline(always)]
        fn mul(self, a: __m256, b: __m256) -> __m256 {
            // SAFETY: AVX (token).
            unsafe { _mm256_mul_ps(a, b) }
        }
        #[inline(always)]
        fn neg(self, a: __m256) -> __m256 {
            // SAFETY: AVX (token).
            unsafe { _mm256_xor_ps(a, _mm256_set1_ps(-0.0)) }
        }
    }

    impl Wide for Avx2 {
        #[inline(always)]
        unsafe fn load_f16(self, p: *const f16) -> __m256 {
            // SAFETY: forwarded; F16C (token).
            unsafe { _mm256_cvtph_ps(_mm_loadu_si128(p.cast())) }
        }
        #[inline(always)]
        unsafe fn store_f16(self, p: *mut f16, v: __m256) {
            // SAFETY: forwarded; F16C (token).
            unsafe { _mm_storeu_si128(p.cast(), _mm256_cvtps_ph::<_MM_FROUND_TO_NEAREST_INT>(v)) }
        }
        #[inline(always)]
        unsafe fn load_bf16(self, p: *const bf16) -> __m256 {
            // SAFETY: forwarded; AVX2 (token).
            unsafe {
                _mm256_castsi256_ps(_mm256_slli_epi32::<16>(_mm256_cvtepu16_epi32(_mm_loadu_si128(p.cast()))))
            }
        }
        #[inline(always)]
        unsafe fn store_bf16(self, p: *mut bf16, v: __m256) {
            // SAFETY: forwarded; AVX2 (token).
            unsafe { _mm_storeu_si128(p.cast(), bf16_bits256(v)) }
        }
    }

    /// # Safety
    /// As [`widen_body`].
    #[target_feature(enable = "avx512f")]
    pub(super) unsafe fn widen512<S: Narrow>(w: Avx512, src: *const S, dst: *mut f32, len: usize) {
        // SAFETY: forwarded from the caller.
        unsafe { widen_body(w, src, dst, len) }
    }

    /// # Safety
    /// As [`widen_body`].
    #[target_feature(enable = "avx2,fma,f16c")]
    pub(super) unsafe fn widen256<S: Narrow>(w: Avx2, src: *const S, dst: *mut f32, len: usize) {
        // SAFETY: forwarded from the caller.
        unsafe { widen_body(w, src, dst, len) }
    }

    /// [`columns`] `0..to` of one row by `dense`.
    ///
    /// # Safety
    /// As [`columns`].
    #[target_feature(enable = "avx512f")]
    pub(super) unsafe fn finish512<D: Dense>(
        w: Avx512,
        dense: D,
        src: (*const f32, usize),
        out: (Row, Next),
        len: usize,
        to: usize,
        scale: f32,
    ) {
        // SAFETY: forwarded from the caller.
        unsafe { columns(w, dense, src, out, len, (0, to), (scale, -scale)) }
    }

    /// [`columns`] `0..to` of one row by `dense`.
    ///
    /// # Safety
    /// As [`columns`].
    #[target_feature(enable = "avx2,fma,f16c")]
    pub(super) unsafe fn finish256<D: Dense>(
        w: Avx2,
        dense: D,
        src: (*const f32, usize),
        out: (Row, Next),
        len: usize,
        to: usize,
        scale: f32,
    ) {
        // SAFETY: forwarded from the caller.
        unsafe { columns(w, dense, src, out, len, (0, to), (scale, -scale)) }
    }

    /// `f64` in 8 lanes; exists only where the CPU runs AVX-512F.
    #[derive(Clone, Copy)]
    pub(super) struct Avx512F64(());

    impl Avx512F64 {
        pub(super) fn new() -> Option<Self> {
            Avx512::new().map(|_| Avx512F64(()))
        }
    }

    impl Arith for Avx512F64 {
        type E = f64;
        type V = __m512d;
        const WIDTH: usize = 8;
        #[inline(always)]
        unsafe fn load(self, p: *const f64) -> __m512d {
            // SAFETY: forwarded; AVX-512F (token).
            unsafe { _mm512_loadu_pd(p) }
        }
        #[inline(always)]
        unsafe fn store(self, p: *mut f64, v: __m512d) {
            // SAFETY: forwarded; AVX-512F (token).
            unsafe { _mm512_storeu_pd(p, v) }
        }
        #[inline(always)]
        fn splat(self, x: f64) -> __m512d {
            // SAFETY: AVX-512F (token).
            unsafe { _mm512_set1_pd(x) }
        }
        #[inline(always)]
        fn add(self, a: __m512d, b: __m512d) -> __m512d {
            // SAFETY: AVX-512F (token).
            unsafe { _mm512_add_pd(a, b) }
        }
        #[inline(always)]
        fn sub(self, a: __m512d, b: __m512d) -> __m512d {
            // SAFETY: AVX-512F (token).
            unsafe { _mm512_sub_pd(a, b) }
        }
        #[inline(always)]
        fn mul(self, a: __m512d, b: __m512d) -> __m512d {
            // SAFETY: AVX-512F (token).
            unsafe { _mm512_mul_pd(a, b) }
        }
        #[inline(always)]
        fn neg(self, a: __m512d) -> __m512d {
            // SAFETY: AVX-512F (token).
            unsafe {
                _mm512_castsi512_pd(_mm512_xor_si512(_mm512_castpd_si512(a), _mm512_set1_epi64(i64::MIN)))
            }
        }
    }

    /// `f64` in 4 lanes; exists only where the CPU runs AVX2 (and FMA and F16C, as [`Avx2`]).
    #[derive(Clone, Copy)]
    pub(super) struct Avx2F64(());

    impl Avx2F64 {
        pub(super) fn new() -> Option<Self> {
            Avx2::new().map(|_| Avx2F64(()))
        }
    }

    impl Arith for Avx2F64 {
        type E = f64;
        type V = __m256d;
        const WIDTH: usize = 4;
        #[inline(always)]
        unsafe fn load(self, p: *const f64) -> __m256d {
            // SAFETY: forwarded; AVX (token).
            unsafe { _mm256_loadu_pd(p) }
        }
        #[inline(always)]
        unsafe fn store(self, p: *mut f64, v: __m256d) {
            // SAFETY: forwarded; AVX (token).
            unsafe { _mm256_storeu_pd(p, v) }
        }
        #[inline(always)]
        fn splat(self, x: f64) -> __m256d {
            // SAFETY: AVX (token).
            unsafe { _mm256_set1_pd(x) }
        }
        #[inline(always)]
        fn add(self, a: __m256d, b: __m256d) -> __m256d {
            // SAFETY: AVX (token).
            unsafe { _mm256_add_pd(a, b) }
        }
        #[inline(always)]
        fn sub(self, a: __m256d, b: __m256d) -> __m256d {
            // SAFETY: AVX (token).
            unsafe { _mm256_sub_pd(a, b) }
        }
        #[inline(always)]
        fn mul(self, a: __m256d, b: __m256d) -> __m256d {
            // SAFETY: AVX (token).
            unsafe { _mm256_mul_pd(a, b) }
        }
        #[inline(always)]
        fn neg(self, a: __m256d) -> __m256d {
            // SAFETY: AVX (token).
            unsafe { _mm256_xor_pd(a, _mm256_set1_pd(-0.0)) }
        }
    }

    /// [`columns`] `0..to` of one row of `f64` by `dense`.
    ///
    /// # Safety
    /// As [`columns`].
    #[target_feature(enable = "avx512f")]
    pub(super) unsafe fn finish512_f64<D: Dense>(
        w: Avx512F64,
        dense: D,
        src: (*const f64, usize),
        out: (*mut f64, Next),
        len: usize,
        to: usize,
        scale: f64,
    ) {
        // SAFETY: forwarded from the caller.
        unsafe { columns(w, dense, src, out, len, (0, to), (scale, -scale)) }
    }

    /// [`columns`] `0..to` of one row of `f64` by `dense`.
    ///
    /// # Safety
    /// As [`columns`].
    #[target_feature(enable = "avx2,fma,f16c")]
    pub(super) unsafe fn finish256_f64<D: Dense>(
        w: Avx2F64,
        dense: D,
        src: (*const f64, usize),
        out: (*mut f64, Next),
        len: usize,
        to: usize,
        scale: f64,
    ) {
        // SAFETY: forwarded from the caller.
        unsafe { columns(w, dense, src, out, len, (0, to), (scale, -scale)) }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The signs of a matrix of order `m` in an irregular pattern (not Hadamard), with rows of
    /// mostly `−1`.
    const fn pattern(m: usize) -> [[bool; MAX_ORDER]; MAX_ORDER] {
        let mut negative = [[false; MAX_ORDER]; MAX_ORDER];
        let mut i = 0;
        while i < m * m {
            let (a, c) = (i / m, i % m);
            negative[a][c] = if a == 0 {
                true
            } else if a < m / 2 {
                c > a
            } else {
                (i * 7 + a) % 3 == 0
            };
            i += 1;
        }
        negative
    }

    /// The irregular matrix of order 12, for the unrolled pass.
    struct Pattern12;

    impl Matrix for Pattern12 {
        const PROGRAM: Program = Program::of(pattern(12), 12);
    }

    /// The program's product equals the plain sum `scale · Σ_c ±x_c` where `f32` is exact (small
    /// integers, a power-of-two scale), on every backend, for every storage type the sums fit.
    #[test]
    fn programs_equal_the_plain_product_where_arithmetic_is_exact() {
        for m in [1, 4, 12, 20, 40, 172] {
            let negative = pattern(m);
            let program = Program::of(negative, m);
            let len = 37;
            let x: Vec<f32> = (0..m * len).map(|i| ((i * 7919) % 61) as f32 - 30.0).collect();
            let plain: Vec<f32> = (0..m * len)
                .map(|i| {
                    let (a, j) = (i / len, i % len);
                    let sum: f32 =
                        (0..m).map(|c| if negative[a][c] { -x[c * len + j] } else { x[c * len + j] }).sum();
                    sum * 0.5
                })
                .collect();
            for backend in Isa::ALL.into_iter().filter(|b| b.is_available()) {
                let mut y = x.clone();
                finish_in_place_with(&program, &mut y, None, 0.5, backend);
                assert_eq!(y, plain, "f32 {backend} m {m}");
                let mut y: Vec<f64> = x.iter().map(|&v| f64::from(v)).collect();
                finish_f64_with(&program, &mut y, None, 0.5, backend);
                assert!(y.iter().zip(&plain).all(|(&p, &q)| p == f64::from(q)), "f64 {backend} m {m}");
                let mut y = vec![bf16::ZERO; x.len()];
                finish_with(&program, (&x, len), (&mut y, None), 0.5, backend);
                let rounded: Vec<bf16> = plain.iter().map(|&v| bf16::from_f32(v)).collect();
                assert_eq!(y, rounded, "bf16 {backend} m {m}");
                if m == 12 {
                    let mut y = x.clone();
                    finish_in_place_with(Unrolled::<Pattern12>::new(), &mut y, None, 0.5, backend);
                    assert_eq!(y, plain, "f32 unrolled {backend} m {m}");
                }
            }
        }
    }

    /// The last pass by `program` on `backend` and on the scalar path (from blocks apart), bit for bit,
    /// for every storage type and three scales, 37 columns (strips and a tail); `f64` values
    /// near its largest, that overflow in some sums.
    fn agree(program: impl Dense, specials: &[f32], backend: Isa) {
        let m = program.program().m;
        let len = 37;
        let x = &specials[..m * len];
        // The same blocks 5 values apart.
        let stride = len + 5;
        let mut padded = vec![f32::NAN; (m - 1) * stride + len];
        for (c, block) in x.chunks_exact(len).enumerate() {
            padded[c * stride..c * stride + len].copy_from_slice(block);
        }
        for scale in [1.0f32, 0.125, -3.0] {
            let mut a = vec![f16::ZERO; x.len()];
            let mut b = a.clone();
            finish_with(program, (x, len), (&mut a, None), scale, backend);
            finish_with(program.program(), (&padded, stride), (&mut b, None), scale, Isa::Scalar);
            assert_eq!(
                a.iter().map(|v| v.to_bits()).collect::<Vec<_>>(),
                b.iter().map(|v| v.to_bits()).collect::<Vec<_>>(),
                "f16 {backend} m {m}"
            );
            let mut a = vec![bf16::ZERO; x.len()];
            let mut b = a.clone();
            finish_with(program, (x, len), (&mut a, None), scale, backend);
            finish_with(program.program(), (&padded, stride), (&mut b, None), scale, Isa::Scalar);
            assert_eq!(
                a.iter().map(|v| v.to_bits()).collect::<Vec<_>>(),
                b.iter().map(|v| v.to_bits()).collect::<Vec<_>>(),
                "bf16 {backend} m {m}"
            );
            let wide: Vec<f64> = x.iter().map(|&v| f64::from(v) * 5e269).collect();
            let (mut a, mut b) = (wide.clone(), wide);
            finish_f64_with(program, &mut a, None, f64::from(scale), backend);
            finish_f64_with(program.program(), &mut b, None, f64::from(scale), Isa::Scalar);
            assert!(
                a.iter().zip(&b).all(|(p, q)| p.to_bits() == q.to_bits() || p.is_nan() && q.is_nan()),
                "f64 {backend} m {m}"
            );
            let (mut a, mut b) = (x.to_vec(), x.to_vec());
            finish_in_place_with(program, &mut a, Some(x), scale, backend);
            finish_in_place_with(program.program(), &mut b, None, scale, Isa::Scalar);
            assert!(
                a.iter().zip(&b).all(|(p, q)| p.to_bits() == q.to_bits() || p.is_nan() && q.is_nan()),
                "f32 {backend} m {m}: {:?}",
                a.iter().zip(&b).enumerate().find(|(_, (p, q))| p.to_bits() != q.to_bits())
            );
        }
    }

    /// Every conversion and the last pass of orders 1, 12 (read from its program and unrolled),
    /// 40 and the largest, on every backend this CPU runs, bit for bit against the scalar path (the
    /// conversions of the `half` crate, and the program read as it runs), with nasty values: zeros of both signs, subnormals, ties, values that
    /// round to infinity, NaN.
    #[test]
    fn backends_agree_bit_for_bit_with_the_scalar_path() {
        let mut specials = vec![
            0.0f32,
            -0.0,
            1.0,
            -1.0,
            65504.0,
            65520.0,
            1e-7,
            -6e-8,
            f32::MAX,
            f32::MIN_POSITIVE,
            f32::INFINITY,
            f32::NEG_INFINITY,
            f32::from_bits(0x3F80_8000), // a bf16 tie, rounds to even (down)
            f32::from_bits(0x3F81_8000), // a bf16 tie, rounds to even (up)
            f32::from_bits(0x7F7F_FFFF),
        ];
        let mut seed = 0x5eed_u64;
        while specials.len() < MAX_ORDER * 37 {
            seed = seed.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            specials.push(f32::from_bits((seed >> 32) as u32 & 0xBFFF_FFFF) * 1e-30);
        }
        for backend in Isa::ALL.into_iter().filter(|b| b.is_available()) {
            agree(&Program::of(pattern(1), 1), &specials, backend);
            // Orders 20 and 28 run through the Hadamard matrices' own tests.
            agree(&Program::of(pattern(12), 12), &specials, backend);
            agree(Unrolled::<Pattern12>::new(), &specials, backend);
            agree(&Program::of(pattern(40), 40), &specials, backend);
            agree(&Program::of(pattern(MAX_ORDER), MAX_ORDER), &specials, backend);
            let halves: Vec<f16> = specials.iter().map(|&v| f16::from_f32(v)).collect();
            let (mut a, mut b) = (vec![0.0; halves.len()], vec![0.0; halves.len()]);
            widen(&halves, &mut a, backend);
            widen(&halves, &mut b, Isa::Scalar);
            assert!(a.iter().zip(&b).all(|(p, q)| p.to_bits() == q.to_bits()), "widen f16 {backend}");
            let halves: Vec<bf16> = specials.iter().map(|&v| bf16::from_f32(v)).collect();
            widen(&halves, &mut a, backend);
            widen(&halves, &mut b, Isa::Scalar);
            assert!(a.iter().zip(&b).all(|(p, q)| p.to_bits() == q.to_bits()), "widen bf16 {backend}");
        }
        // The NaN of bf16 stays a NaN.
        let mut out = [bf16::ZERO; 16];
        finish_with(&Program::of(pattern(1), 1), (&[f32::NAN; 16], 16), (&mut out, None), 1.0, Isa::best());
        assert!(out.iter().all(|v| v.is_nan()));
    }
}
