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
//! straight-line [`Program`] built at compile time for each matrix ([`Matrix`]): sums and
//! differences of pairs of columns, then of two pairs, then each row's sum of those, each
//! rounded once, then one product by `±scale`: the same operations in the same order on every
//! backend, about a third of the additions of the plain product for order 28. For a strip of one
//! register's width of columns, the `m` inputs are loaded into registers and the program runs
//! as straight-line code on fixed registers ([`unroll`]), with no index loaded at run time.
#![allow(clippy::needless_range_loop)]

use std::mem::MaybeUninit;

use half::{bf16, f16};

use super::Backend;

/// The largest order of the dense pass.
pub(crate) const MAX_ORDER: usize = 40;

/// The most operations of a [`Program`]: for order 40, 40 sums and differences of pairs, 80
/// combinations of two pairs, 9 additions and one store a row.
const MAX_OPS: usize = 528;
const _: () = assert!(MAX_OPS == 33 * 16, "the operations that `strip` unrolls");

/// The variables of a [`Program`]: the inputs (`0..MAX_ORDER`), four pairs, the eight
/// combinations of each group of four columns, a row's sum.
const PAIRS: usize = MAX_ORDER;
const COMBINATIONS: usize = PAIRS + 4;
const SUM: usize = COMBINATIONS + 8 * (MAX_ORDER / 4);
const VARIABLES: usize = SUM + 1;

/// The kinds of [`Program`] operations.
const NOTHING: u8 = 0;
const ADD: u8 = 1;
const SUB: u8 = 2;
const STORE: u8 = 3;
const STORE_NEGATED: u8 = 4;

/// The dense product by a square matrix of `±1` of order `m <= MAX_ORDER` as a straight-line
/// program, built at compile time ([`Program::of`]) for a [`Matrix`].
///
/// The columns go in groups of four, `x₀ … x₃`: the pairs `x₀ ± x₁` and `x₂ ± x₃` (four
/// operations), then the combinations `(x₀ ± x₁) ± (x₂ ± x₃)` that some row uses (at most
/// eight): every row's signs on a group are one of them, negated or not. Each row then sums its
/// `m / 4` signed combinations left to right (the columns of an incomplete last group are
/// single terms) and is stored times `±scale`, the sign that makes its first term positive. For
/// order 28: at most 28 + 56 + 28·6 additions and 28 products, against 28·27 additions for the
/// plain product. Every variable is written before it is read (checked as the program is built).
#[derive(Clone, Copy, Debug)]
pub(crate) struct Program {
    m: usize,
    /// The number of operations.
    ops: usize,
    /// Operation `k`: `ADD` or `SUB` (`v[to] = v[a] ± v[b]`), `STORE` or `STORE_NEGATED` (row
    /// `to` is `±scale · v[a]`).
    kind: [u8; MAX_OPS],
    a: [u8; MAX_OPS],
    b: [u8; MAX_OPS],
    to: [u8; MAX_OPS],
    /// Whether variable `i` holds a value.
    defined: [bool; VARIABLES],
}

impl Program {
    /// The program of the matrix of order `m` written row by row in `text` as `+` and `-`
    /// (whitespace between them ignored), or of its transpose. Evaluated at compile time: a text
    /// that is not `m²` signs fails the build.
    pub(crate) const fn parse(text: &str, m: usize, transposed: bool) -> Program {
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

    /// Appends one operation on defined variables.
    const fn push(&mut self, kind: u8, a: usize, b: usize, to: usize) {
        assert!(self.ops < MAX_OPS, "a program longer than MAX_OPS");
        assert!(
            self.defined[a] && (kind >= STORE || self.defined[b]),
            "a variable read before it is written"
        );
        if kind < STORE {
            self.defined[to] = true;
        }
        self.kind[self.ops] = kind;
        self.a[self.ops] = a as u8;
        self.b[self.ops] = b as u8;
        self.to[self.ops] = to as u8;
        self.ops += 1;
    }

    /// `v[to] = v[a] + v[b]`, or `v[a] − v[b]` where `minus`.
    const fn sum(&mut self, minus: bool, a: usize, b: usize, to: usize) {
        self.push(if minus { SUB } else { ADD }, a, b, to)
    }

    /// The program of the matrix whose entry `(r, c)` is `−1` where `negative[r][c]`, for
    /// `r, c < m`.
    pub(crate) const fn of(negative: [[bool; MAX_ORDER]; MAX_ORDER], m: usize) -> Program {
        let mut p = Program {
            m,
            ops: 0,
            kind: [NOTHING; MAX_OPS],
            a: [0; MAX_OPS],
            b: [0; MAX_OPS],
            to: [0; MAX_OPS],
            defined: [false; VARIABLES],
        };
        let mut c = 0;
        while c < m {
            p.defined[c] = true;
            c += 1;
        }
        // The combination of group `g` with pattern `s` is variable `COMBINATIONS + 8·g + s`.
        let groups = m / 4;
        let mut g = 0;
        while g < groups {
            let c = 4 * g;
            let mut used = [false; 8];
            let mut r = 0;
            while r < m {
                used[Self::pattern(&negative[r], c)] = true;
                r += 1;
            }
            p.sum(false, c, c + 1, PAIRS);
            p.sum(true, c, c + 1, PAIRS + 1);
            p.sum(false, c + 2, c + 3, PAIRS + 2);
            p.sum(true, c + 2, c + 3, PAIRS + 3);
            let mut s = 0;
            while s < 8 {
                if used[s] {
                    p.sum(s & 4 != 0, PAIRS + (s & 1), PAIRS + 2 + (s >> 1 & 1), COMBINATIONS + 8 * g + s);
                }
                s += 1;
            }
            g += 1;
        }
        let mut r = 0;
        while r < m {
            // The row's terms: one combination a group, then the single columns, each with its
            // sign relative to the first term's, whose sign goes to the store.
            let first = negative[r][0];
            let mut sum = if groups > 0 { COMBINATIONS + Self::pattern(&negative[r], 0) } else { 0 };
            let mut g = 1;
            while g < groups {
                let term = COMBINATIONS + 8 * g + Self::pattern(&negative[r], 4 * g);
                p.sum(negative[r][4 * g] != first, sum, term, SUM);
                sum = SUM;
                g += 1;
            }
            let mut c = 4 * groups;
            while c < m {
                if c > 0 {
                    p.sum(negative[r][c] != first, sum, c, SUM);
                    sum = SUM;
                }
                c += 1;
            }
            p.push(if first { STORE_NEGATED } else { STORE }, sum, 0, r);
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
}

/// A matrix of `±1` known at compile time: the kernels of the dense pass are compiled for it.
pub(crate) trait Matrix {
    /// Its product as a program.
    const PROGRAM: Program;
}

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

/// Arithmetic in registers of `f32` or `f64` lanes.
pub(crate) trait Arith: Copy {
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
}

/// Registers of `f32` with loads and stores from each storage type.
pub(crate) trait Wide: Arith<E = f32> {
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
pub(crate) trait Narrow: Copy + Send + Sync {
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
/// branch a store), so that each matrix's straight-line program is compiled once per instruction
/// set rather than once per storage type.
pub(crate) trait Sink<A: Arith>: Copy {
    /// # Safety
    /// Elements `i..i + WIDTH` writable (as [`Arith::store`]).
    unsafe fn put(self, a: A, i: usize, v: A::V);
}

/// A row of `f32`, `f16` or `bf16` values written from `f32` registers.
#[derive(Clone, Copy)]
pub(crate) enum Row {
    F32(*mut f32),
    F16(*mut f16),
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
pub(crate) struct Scalar;

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
pub(crate) struct Scalar64;

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
/// blocks (`m` the order of `O`), block `c` at `src + c·stride`: `out[a·len + j..] = scale ·
/// Σ_c h[a][c] · src[c·stride + j..]` by `O`'s [`Program`], `factor` holding `scale` and
/// `−scale`. Every column of the strip is read whole before any is written: `out` may be `src`
/// (with `stride == len`).
///
/// # Safety
/// `src + c·stride + j..+ WIDTH` readable and `out + c·len + j..+ WIDTH` writable for `c < m`;
/// `A`'s instruction set available.
#[inline(always)]
#[allow(unused_assignments)] // the last variables written are read by no later copy
unsafe fn strip<A: Arith, P: Sink<A>, O: Matrix>(
    a: A,
    (src, stride): (*const A::E, usize),
    out: P,
    len: usize,
    j: usize,
    factor: [A::V; 2],
) {
    // Written before read (checked as the program was built): no initialisation.
    let mut v = [const { MaybeUninit::<A::V>::uninit() }; VARIABLES];
    #[rustfmt::skip]
    unroll!(C;
        0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23 24 25 26 27 28 29 30 31 32 33 34
        35 36 37 38 39; {
        if const { C < O::PROGRAM.m } {
            // SAFETY: C < m.
            v[C] = MaybeUninit::new(unsafe { a.load(src.add(C * stride + j)) });
        }
    });
    // Operation `K = 16·HIGH + LOW` (`MAX_OPS = 33 · 16`).
    #[rustfmt::skip]
    unroll!(HIGH;
        0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23 24 25 26 27 28 29 30 31 32; {
        unroll!(LOW; 0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15; {
            const K: usize = HIGH * 16 + LOW;
            let (p, q) = (const { O::PROGRAM.a[K] as usize }, const { O::PROGRAM.b[K] as usize });
            let to = const { O::PROGRAM.to[K] as usize };
            // Each condition is a constant of its own, so that only the program's operations
            // are compiled (a comparison of constants would leave every slot's code to LLVM).
            if const { O::PROGRAM.kind[K] == ADD || O::PROGRAM.kind[K] == SUB } {
                // SAFETY: the program writes a variable before it reads it (checked as it was
                // built).
                let (x, y) = unsafe { (v[p].assume_init(), v[q].assume_init()) };
                v[to] = MaybeUninit::new(if const { O::PROGRAM.kind[K] == ADD } { a.add(x, y) } else { a.sub(x, y) });
            } else if const { O::PROGRAM.kind[K] == STORE || O::PROGRAM.kind[K] == STORE_NEGATED } {
                // SAFETY: as above.
                let x = unsafe { v[p].assume_init() };
                let y = a.mul(x, factor[const { (O::PROGRAM.kind[K] == STORE_NEGATED) as usize }]);
                // SAFETY: row `to` < m.
                unsafe { out.put(a, to * len + j, y) };
            }
        });
    });
}

/// [`strip`] with the program read as it runs, one lane at a time: the one-lane paths (the last
/// columns of a row, and the portable backend) compile one loop per storage type instead of a
/// straight-line program per matrix. The same operations in the same order: the same bits.
///
/// # Safety
/// As [`columns`], for `A::WIDTH == 1`.
#[inline(never)]
unsafe fn columns_interpreted<A: Arith, P: Sink<A>>(
    a: A,
    program: &Program,
    (src, stride): (*const A::E, usize),
    out: P,
    len: usize,
    (from, to): (usize, usize),
    factor: [A::V; 2],
) {
    debug_assert_eq!(A::WIDTH, 1);
    let mut v = [const { MaybeUninit::<A::V>::uninit() }; VARIABLES];
    for j in from..to {
        for (c, slot) in v.iter_mut().enumerate().take(program.m) {
            // SAFETY: c < m: the caller's bounds.
            *slot = MaybeUninit::new(unsafe { a.load(src.add(c * stride + j)) });
        }
        for k in 0..program.ops {
            let (p, q, to) =
                (usize::from(program.a[k]), usize::from(program.b[k]), usize::from(program.to[k]));
            match program.kind[k] {
                kind @ (ADD | SUB) => {
                    // SAFETY: the program writes a variable before it reads it (checked as it was
                    // built).
                    let (x, y) = unsafe { (v[p].assume_init(), v[q].assume_init()) };
                    v[to] = MaybeUninit::new(if kind == ADD { a.add(x, y) } else { a.sub(x, y) });
                }
                kind @ (STORE | STORE_NEGATED) => {
                    // SAFETY: as above.
                    let y = a.mul(unsafe { v[p].assume_init() }, factor[usize::from(kind == STORE_NEGATED)]);
                    // SAFETY: row `to` < m, column j < len: the caller's bounds.
                    unsafe { out.put(a, to * len + j, y) };
                }
                _ => {}
            }
        }
    }
}

/// The row after the one written, whose lines the pass asks for in L2 as it goes: its first
/// byte (null for none) and the bytes of an element.
type Next = (*const u8, usize);

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
unsafe fn columns<A: Arith, P: Sink<A>, O: Matrix>(
    a: A,
    src: (*const A::E, usize),
    (out, next): (P, Next),
    len: usize,
    (from, to): (usize, usize),
    scale: A::E,
    minus_scale: A::E,
) {
    let factor = [a.splat(scale), a.splat(minus_scale)];
    let mut j = from;
    while j < to {
        if !next.0.is_null() {
            for c in 0..O::PROGRAM.m {
                prefetch(next.0.wrapping_add((c * len + j) * next.1));
            }
        }
        // SAFETY: j + WIDTH <= to <= len.
        unsafe { strip::<A, P, O>(a, src, out, len, j, factor) };
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
pub(crate) fn widen<S: Narrow>(src: &[S], dst: &mut [f32], backend: Backend) {
    assert_eq!(src.len(), dst.len());
    let (s, d, n) = (src.as_ptr(), dst.as_mut_ptr(), src.len());
    #[cfg(target_arch = "x86_64")]
    match backend {
        Backend::Avx512 => {
            if let Some(w) = x86::Avx512::new() {
                // SAFETY: the lengths match; the token proves AVX-512F.
                return unsafe { x86::widen512(w, s, d, n) };
            }
        }
        Backend::Avx2 => {
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

/// The last pass over one row of `m` blocks by the matrix `O` of order `m` (see [`strip`]),
/// from the `f32` values `src`, block `c` at `c·stride`, to `out` (`m` blocks of `out.len() / m`
/// values, at most `stride`).
pub(crate) fn finish<S: Narrow, O: Matrix>(
    (src, stride): (&[f32], usize),
    (out, next): (&mut [S], Option<&[S]>),
    scale: f32,
    backend: Backend,
) {
    let m = O::PROGRAM.m;
    assert!(out.len().is_multiple_of(m));
    let len = out.len() / m;
    assert!(stride >= len && src.len() >= (m - 1) * stride + len);
    // SAFETY: the lengths were checked; distinct slices do not overlap.
    unsafe {
        finish_raw::<O>(
            (src.as_ptr(), stride),
            (S::row(out.as_mut_ptr()), next_of(next)),
            len,
            scale,
            backend,
        )
    }
}

/// [`finish`] in place, on `f32` values.
pub(crate) fn finish_in_place<O: Matrix>(
    data: &mut [f32],
    next: Option<&[f32]>,
    scale: f32,
    backend: Backend,
) {
    assert!(data.len().is_multiple_of(O::PROGRAM.m));
    let p = data.as_mut_ptr();
    let len = data.len() / O::PROGRAM.m;
    // SAFETY: the length was checked; the pass reads each column whole before writing it.
    unsafe { finish_raw::<O>((p, len), (Row::F32(p), next_of(next)), len, scale, backend) }
}

/// # Safety
/// As [`columns`].
unsafe fn finish_raw<O: Matrix>(
    src: (*const f32, usize),
    out: (Row, Next),
    len: usize,
    scale: f32,
    backend: Backend,
) {
    let mut done = 0;
    #[cfg(target_arch = "x86_64")]
    match backend {
        Backend::Avx512 => {
            if let Some(w) = x86::Avx512::new() {
                done = len - len % 16;
                // SAFETY: forwarded; the token proves AVX-512F.
                unsafe { x86::finish512::<O>(w, src, out, len, done, scale) };
            }
        }
        Backend::Avx2 => {
            if let Some(w) = x86::Avx2::new() {
                done = len - len % 8;
                // SAFETY: forwarded; the token proves AVX2, FMA and F16C.
                unsafe { x86::finish256::<O>(w, src, out, len, done, scale) };
            }
        }
        _ => {}
    }
    let _ = backend;
    // SAFETY: forwarded from the caller.
    unsafe {
        columns_interpreted::<Scalar, Row>(Scalar, &O::PROGRAM, src, out.0, len, (done, len), [scale, -scale])
    }
}

/// The `f64` last pass by the matrix `O`, in place: [`strip`] in `f64`, on `backend` (8 or 4
/// lanes) and the scalar path for the last columns.
pub(crate) fn finish_f64<O: Matrix>(data: &mut [f64], next: Option<&[f64]>, scale: f64, backend: Backend) {
    let m = O::PROGRAM.m;
    assert!(data.len().is_multiple_of(m));
    let (p, len) = (data.as_mut_ptr(), data.len() / m);
    let next = next_of(next);
    let mut done = 0;
    #[cfg(target_arch = "x86_64")]
    match backend {
        Backend::Avx512 => {
            if let Some(w) = x86::Avx512F64::new() {
                done = len - len % 8;
                // SAFETY: the length was checked; the pass reads each column whole before
                // writing it; the token proves AVX-512F.
                unsafe { x86::finish512_f64::<O>(w, (p, len), (p, next), len, done, scale) };
            }
        }
        Backend::Avx2 => {
            if let Some(w) = x86::Avx2F64::new() {
                done = len - len % 4;
                // SAFETY: as above; the token proves AVX2, FMA and F16C.
                unsafe { x86::finish256_f64::<O>(w, (p, len), (p, next), len, done, scale) };
            }
        }
        _ => {}
    }
    let _ = backend;
    // SAFETY: as above.
    unsafe {
        columns_interpreted::<Scalar64, *mut f64>(
            Scalar64,
            &O::PROGRAM,
            (p, len),
            p,
            len,
            (done, len),
            [scale, -scale],
        )
    }
}

#[cfg(target_arch = "x86_64")]
mod x86 {
    use std::arch::x86_64::*;

    use half::{bf16, f16};

    use super::{Arith, Matrix, Narrow, Next, Row, Wide, columns, widen_body};

    /// `f32` in 16 lanes; exists only where the CPU runs AVX-512F.
    #[derive(Clone, Copy)]
    pub(super) struct Avx512(());

    impl Avx512 {
        pub(super) fn new() -> Option<Self> {
            crate::simd::Backend::Avx512.is_available().then_some(Avx512(()))
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
            crate::simd::Backend::Avx2.is_available().then_some(Avx2(()))
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

    /// [`columns`] `0..to` of one row by `O`.
    ///
    /// # Safety
    /// As [`columns`].
    #[target_feature(enable = "avx512f")]
    pub(super) unsafe fn finish512<O: Matrix>(
        w: Avx512,
        src: (*const f32, usize),
        out: (Row, Next),
        len: usize,
        to: usize,
        scale: f32,
    ) {
        // SAFETY: forwarded from the caller.
        unsafe { columns::<Avx512, Row, O>(w, src, out, len, (0, to), scale, -scale) }
    }

    /// [`columns`] `0..to` of one row by `O`.
    ///
    /// # Safety
    /// As [`columns`].
    #[target_feature(enable = "avx2,fma,f16c")]
    pub(super) unsafe fn finish256<O: Matrix>(
        w: Avx2,
        src: (*const f32, usize),
        out: (Row, Next),
        len: usize,
        to: usize,
        scale: f32,
    ) {
        // SAFETY: forwarded from the caller.
        unsafe { columns::<Avx2, Row, O>(w, src, out, len, (0, to), scale, -scale) }
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
    }

    /// [`columns`] `0..to` of one row of `f64` by `O`.
    ///
    /// # Safety
    /// As [`columns`].
    #[target_feature(enable = "avx512f")]
    pub(super) unsafe fn finish512_f64<O: Matrix>(
        w: Avx512F64,
        src: (*const f64, usize),
        out: (*mut f64, Next),
        len: usize,
        to: usize,
        scale: f64,
    ) {
        // SAFETY: forwarded from the caller.
        unsafe { columns::<Avx512F64, *mut f64, O>(w, src, out, len, (0, to), scale, -scale) }
    }

    /// [`columns`] `0..to` of one row of `f64` by `O`.
    ///
    /// # Safety
    /// As [`columns`].
    #[target_feature(enable = "avx2,fma,f16c")]
    pub(super) unsafe fn finish256_f64<O: Matrix>(
        w: Avx2F64,
        src: (*const f64, usize),
        out: (*mut f64, Next),
        len: usize,
        to: usize,
        scale: f64,
    ) {
        // SAFETY: forwarded from the caller.
        unsafe { columns::<Avx2F64, *mut f64, O>(w, src, out, len, (0, to), scale, -scale) }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A matrix of order `M` with signs in an irregular pattern (not Hadamard), of lists of every
    /// length from 0 up, and rows of mostly `−1`.
    struct Pattern<const M: usize>;

    impl<const M: usize> Matrix for Pattern<M> {
        const PROGRAM: Program = {
            let mut negative = [[false; MAX_ORDER]; MAX_ORDER];
            let mut i = 0;
            while i < M * M {
                let (a, c) = (i / M, i % M);
                negative[a][c] = if a == 0 {
                    true
                } else if a < M / 2 {
                    c > a
                } else {
                    (i * 7 + a) % 3 == 0
                };
                i += 1;
            }
            Program::of(negative, M)
        };
    }

    /// The last pass by `O` on `backend` and on the scalar path (from blocks apart), bit for bit,
    /// for every storage type and three scales, 37 columns (strips and a tail); `f64` values
    /// near its largest, that overflow in some sums.
    fn agree<O: Matrix>(specials: &[f32], backend: Backend) {
        let m = O::PROGRAM.m;
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
            finish::<_, O>((x, len), (&mut a, None), scale, backend);
            finish::<_, O>((&padded, stride), (&mut b, None), scale, Backend::Scalar);
            assert_eq!(
                a.iter().map(|v| v.to_bits()).collect::<Vec<_>>(),
                b.iter().map(|v| v.to_bits()).collect::<Vec<_>>(),
                "f16 {backend} m {m}"
            );
            let mut a = vec![bf16::ZERO; x.len()];
            let mut b = a.clone();
            finish::<_, O>((x, len), (&mut a, None), scale, backend);
            finish::<_, O>((&padded, stride), (&mut b, None), scale, Backend::Scalar);
            assert_eq!(
                a.iter().map(|v| v.to_bits()).collect::<Vec<_>>(),
                b.iter().map(|v| v.to_bits()).collect::<Vec<_>>(),
                "bf16 {backend} m {m}"
            );
            let wide: Vec<f64> = x.iter().map(|&v| f64::from(v) * 5e269).collect();
            let (mut a, mut b) = (wide.clone(), wide);
            finish_f64::<O>(&mut a, None, f64::from(scale), backend);
            finish_f64::<O>(&mut b, None, f64::from(scale), Backend::Scalar);
            assert!(
                a.iter().zip(&b).all(|(p, q)| p.to_bits() == q.to_bits() || p.is_nan() && q.is_nan()),
                "f64 {backend} m {m}"
            );
            let (mut a, mut b) = (x.to_vec(), x.to_vec());
            finish_in_place::<O>(&mut a, Some(x), scale, backend);
            finish_in_place::<O>(&mut b, None, scale, Backend::Scalar);
            assert!(
                a.iter().zip(&b).all(|(p, q)| p.to_bits() == q.to_bits() || p.is_nan() && q.is_nan()),
                "f32 {backend} m {m}: {:?}",
                a.iter().zip(&b).enumerate().find(|(_, (p, q))| p.to_bits() != q.to_bits())
            );
        }
    }

    /// Every conversion and the last pass of orders 1, 12 and 40, on every backend this CPU runs,
    /// bit for bit against the scalar path (the conversions of the `half` crate, and the program
    /// read as it runs), with nasty values: zeros of both signs, subnormals, ties, values that
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
        while specials.len() < 40 * 37 {
            seed = seed.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            specials.push(f32::from_bits((seed >> 32) as u32 & 0xBFFF_FFFF) * 1e-30);
        }
        for backend in Backend::ALL.into_iter().filter(|b| b.is_available()) {
            agree::<Pattern<1>>(&specials, backend);
            // Orders 20 and 28 run through the Hadamard matrices' own tests.
            agree::<Pattern<12>>(&specials, backend);
            agree::<Pattern<40>>(&specials, backend);
            let halves: Vec<f16> = specials.iter().map(|&v| f16::from_f32(v)).collect();
            let (mut a, mut b) = (vec![0.0; halves.len()], vec![0.0; halves.len()]);
            widen(&halves, &mut a, backend);
            widen(&halves, &mut b, Backend::Scalar);
            assert!(a.iter().zip(&b).all(|(p, q)| p.to_bits() == q.to_bits()), "widen f16 {backend}");
            let halves: Vec<bf16> = specials.iter().map(|&v| bf16::from_f32(v)).collect();
            widen(&halves, &mut a, backend);
            widen(&halves, &mut b, Backend::Scalar);
            assert!(a.iter().zip(&b).all(|(p, q)| p.to_bits() == q.to_bits()), "widen bf16 {backend}");
        }
        // The NaN of bf16 stays a NaN.
        let mut out = [bf16::ZERO; 16];
        finish::<_, Pattern<1>>((&[f32::NAN; 16], 16), (&mut out, None), 1.0, Backend::best());
        assert!(out.iter().all(|v| v.is_nan()));
    }
}
