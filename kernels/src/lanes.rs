//! Kernel bodies written once over a register type; each backend instantiates them inside its
//! own `#[target_feature]` functions so the compiler inlines and schedules the whole loop.
//!
//! The bodies must compile to the same code whatever the build profile: a dependent crate builds
//! nimcount with 16 codegen units and no LTO. Two rules keep it so, both measured:
//! - no closures around intrinsics (`std::array::from_fn`, `for_each`): a closure does not inherit
//!   the `#[target_feature]`s of the function it is written in, and when it is not inlined every
//!   vector instruction inside it becomes a call (20–30× slower);
//! - index loops over the fixed-size register arrays, not iterator adapters (`zip`, `skip`,
//!   `enumerate`): LLVM unrolls a counted loop over a constant bound in every build, the
//!   adapters only in some, and a loop left rolled keeps the registers on the stack (1.4× slower).
#![allow(clippy::needless_range_loop)]

/// One register of ring elements and the butterflies on it.
///
/// Implementations for SIMD registers can only be constructed on a CPU that has the instruction
/// set; that is what makes their intrinsics sound to call.
pub trait Lanes: Copy {
    /// The element type.
    type E: Copy;
    /// The register type.
    type V: Copy;
    /// Elements per register (a power of two).
    const WIDTH: usize;
    /// Loads `WIDTH` elements from `ptr` (no alignment needed).
    ///
    /// # Safety
    /// `ptr..ptr + WIDTH` must be readable.
    unsafe fn load(self, ptr: *const Self::E) -> Self::V;
    /// Stores `WIDTH` elements to `ptr`.
    ///
    /// # Safety
    /// `ptr..ptr + WIDTH` must be writable.
    unsafe fn store(self, ptr: *mut Self::E, v: Self::V);
    /// `(a + b, a - b)`, lane by lane.
    fn butterfly(self, a: Self::V, b: Self::V) -> (Self::V, Self::V);
    /// The `log2(WIDTH)` butterfly levels whose pairs lie inside one register, ascending.
    fn within(self, v: Self::V) -> Self::V;
    /// Whether every lane of every register of `v` is a valid input: below the modulus for
    /// residues; always (the default) for rings that take every value.
    #[inline(always)]
    fn all_valid<const R: usize>(self, v: &[Self::V; R]) -> bool {
        let _ = v;
        true
    }
}

/// Whether every element of `data` (a multiple of `16 · WIDTH` of them) is valid
/// ([`Lanes::all_valid`]), 16 registers at a time.
///
/// # Safety
/// `L`'s instruction set must be available.
#[inline(always)]
pub unsafe fn valid<L: Lanes>(l: L, data: &[L::E]) -> bool {
    let w = L::WIDTH;
    debug_assert_eq!(data.len() % (16 * w), 0);
    let mut all = true;
    for chunk in data.chunks_exact(16 * w) {
        let p = chunk.as_ptr();
        // SAFETY: the chunk holds exactly 16 registers.
        let mut v = [unsafe { l.load(p) }; 16];
        for i in 1..16 {
            // SAFETY: as above.
            v[i] = unsafe { l.load(p.add(i * w)) };
        }
        all &= l.all_valid(&v);
    }
    all
}

/// `log2(R)` butterfly levels across `R` registers, ascending distance.
#[inline(always)]
pub fn levels<L: Lanes, const R: usize>(l: L, v: &mut [L::V; R]) {
    let mut h = 1;
    while h < R {
        let mut i = 0;
        while i < R {
            for j in i..i + h {
                (v[j], v[j + h]) = l.butterfly(v[j], v[j + h]);
            }
            i += 2 * h;
        }
        h *= 2;
    }
}

/// Fully transforms every consecutive chunk of `16 · WIDTH` elements: the levels inside each
/// register, then four levels across the 16 registers.
///
/// # Safety
/// `data.len()` must be a multiple of `16 · WIDTH`; `L`'s instruction set must be available.
#[inline(always)]
pub unsafe fn leaves<L: Lanes>(l: L, data: &mut [L::E]) {
    // SAFETY: forwarded.
    unsafe { chunks::<L, 16>(l, data) }
}

/// Fully transforms every consecutive chunk of `R · WIDTH` elements (`R` a power of two up to
/// 16): the levels inside each register, then `log2(R)` levels across the `R` registers, every
/// level in ascending distance as in the whole kernel (the same sums, the same bits).
///
/// # Safety
/// `data.len()` must be a multiple of `R · WIDTH`; `L`'s instruction set must be available.
#[inline(always)]
pub unsafe fn chunks<L: Lanes, const R: usize>(l: L, data: &mut [L::E]) {
    let w = L::WIDTH;
    debug_assert_eq!(data.len() % (R * w), 0);
    for chunk in data.chunks_exact_mut(R * w) {
        let p = chunk.as_mut_ptr();
        // SAFETY: the chunk holds exactly R registers.
        let mut v = [l.within(unsafe { l.load(p) }); R];
        for i in 1..R {
            // SAFETY: as above.
            v[i] = l.within(unsafe { l.load(p.add(i * w)) });
        }
        levels::<L, R>(l, &mut v);
        // Stores by index: moving the array out (`into_iter`) made the compiler copy it through
        // the stack with `memcpy` calls, which halved the speed of the whole kernel.
        for i in 0..R {
            // SAFETY: as for the loads.
            unsafe { l.store(p.add(i * w), v[i]) };
        }
    }
}

/// [`chunks`] of `2^log2` elements, for `log2` from `log2(WIDTH)` to `log2(WIDTH) + 3`: the
/// transform of every chunk shorter than a leaf; false, with `data` untouched, for another
/// `log2` or a length that is not a whole number of chunks.
///
/// # Safety
/// `L`'s instruction set must be available.
#[inline(always)]
pub unsafe fn short_chunks<L: Lanes>(l: L, data: &mut [L::E], log2: u32) -> bool {
    let Some(len) = 1usize.checked_shl(log2) else { return false };
    if len < L::WIDTH || len >= 16 * L::WIDTH || !data.len().is_multiple_of(len) {
        return false;
    }
    let registers = len / L::WIDTH;
    // SAFETY: the length is a whole number of chunks of `registers · WIDTH`; forwarded.
    unsafe {
        match registers {
            1 => chunks::<L, 1>(l, data),
            2 => chunks::<L, 2>(l, data),
            4 => chunks::<L, 4>(l, data),
            _ => chunks::<L, 8>(l, data),
        }
    }
    true
}

/// The start of each of the `R` rows.
#[inline(always)]
fn row_pointers<E, const R: usize>(rows: &mut [&mut [E]]) -> [*mut E; R] {
    let mut ptrs = [std::ptr::null_mut(); R];
    for i in 0..R {
        ptrs[i] = rows[i].as_mut_ptr();
    }
    ptrs
}

/// One register from each row, at element offset `at`.
///
/// # Safety
/// `ptrs[i] + at .. + WIDTH` must be readable for every row; `L`'s instruction set must be
/// available.
#[inline(always)]
unsafe fn load_rows<L: Lanes, const R: usize>(l: L, ptrs: &[*mut L::E; R], at: usize) -> [L::V; R] {
    // SAFETY: forwarded from the caller.
    let mut v = [unsafe { l.load(ptrs[0].add(at)) }; R];
    for i in 1..R {
        // SAFETY: forwarded from the caller.
        v[i] = unsafe { l.load(ptrs[i].add(at)) };
    }
    v
}

/// One column pass over 2, 4, 8 or 16 rows.
///
/// # Safety
/// All rows must have the same length, a multiple of `16 · WIDTH`; `L`'s instruction set must be
/// available.
#[inline(always)]
pub unsafe fn columns<L: Lanes>(l: L, rows: &mut [&mut [L::E]]) {
    // SAFETY: forwarded from the caller.
    unsafe {
        match rows.len() {
            2 => columns_of::<L, 2>(l, rows),
            4 => columns_of::<L, 4>(l, rows),
            8 => columns_of::<L, 8>(l, rows),
            16 => columns_of::<L, 16>(l, rows),
            n => unreachable!("column pass over {n} rows"),
        }
    }
}

/// Each step handles `16 / R` adjacent registers of every row, so 16 registers are in flight
/// whatever the radix.
#[inline(always)]
unsafe fn columns_of<L: Lanes, const R: usize>(l: L, rows: &mut [&mut [L::E]]) {
    let len = rows[0].len();
    let step = 16 / R * L::WIDTH;
    debug_assert!(rows.iter().all(|r| r.len() == len) && len % step == 0);
    let ptrs = row_pointers::<L::E, R>(rows);
    for c in (0..len).step_by(step) {
        for k in 0..16 / R {
            let at = c + k * L::WIDTH;
            // SAFETY: at + WIDTH <= c + step <= len for every row.
            let mut v = unsafe { load_rows::<L, R>(l, &ptrs, at) };
            levels::<L, R>(l, &mut v);
            for i in 0..R {
                // SAFETY: as for the loads.
                unsafe { l.store(ptrs[i].add(at), v[i]) };
            }
        }
    }
}

/// How far ahead, in bytes, each row of a [`staggered`] pass is fetched per row below the last:
/// row `r` of `R` runs `(R - r) · STAGGER_BYTES` ahead of the butterflies.
const STAGGER_BYTES: usize = 256;

/// One column pass over 2, 4, 8 or 16 rows far apart in memory, with the same butterflies as
/// [`columns`] but a staggered memory order: row `r` is prefetched `(R - r) · 256` bytes ahead of
/// the butterflies, and its results reach memory `r` steps after they are computed (a step being
/// `16 / R` registers of every row), so no two rows stream the same column at the same time.
///
/// Rows a multiple of 64 MiB apart share every address bit below bit 26, and a plain pass over
/// them runs at a third of the speed of memory on the machines measured; the stagger restores
/// most of it. Only the order of memory accesses changes, never the arithmetic.
///
/// # Safety
/// As for [`columns`].
#[inline(always)]
pub unsafe fn staggered<L: Lanes>(l: L, rows: &mut [&mut [L::E]]) {
    // SAFETY: forwarded from the caller.
    unsafe {
        match rows.len() {
            2 => staggered_of::<L, 2>(l, rows),
            4 => staggered_of::<L, 4>(l, rows),
            8 => staggered_of::<L, 8>(l, rows),
            16 => staggered_of::<L, 16>(l, rows),
            n => unreachable!("column pass over {n} rows"),
        }
    }
}

/// Registers held back by [`staggered_of`]: `R` rows × `R` steps × `16 / R` registers.
const HELD: usize = 256;

#[inline(always)]
unsafe fn staggered_of<L: Lanes, const R: usize>(l: L, rows: &mut [&mut [L::E]]) {
    let len = rows[0].len();
    let per = 16 / R;
    let step = per * L::WIDTH;
    debug_assert!(rows.iter().all(|r| r.len() == len) && len % step == 0);
    let steps = len / step;
    let ptrs = row_pointers::<L::E, R>(rows);
    let size = std::mem::size_of::<L::E>().max(1);
    let (lead, line) = ((STAGGER_BYTES / size).max(1), (64 / size).max(1));
    // Row r's results of step t wait in slot (r, t mod R) until step t + r; R rows × R slots ×
    // `per` registers is 16 · R <= HELD.
    let mut held = [std::mem::MaybeUninit::<L::V>::uninit(); HELD];
    let slot = |r: usize, t: usize| (r * R + (t & (R - 1))) * per;
    // Writes row r's results of step t, held since then, to memory.
    let flush = |held: &[std::mem::MaybeUninit<L::V>; HELD], r: usize, t: usize| {
        for k in 0..per {
            // SAFETY: slot (r, t) was written at step t and is read once, at step t + r or after
            // the loop, before step t + R overwrites it; t · step + (k + 1) · WIDTH <= len.
            unsafe { l.store(ptrs[r].add(t * step + k * L::WIDTH), held[slot(r, t) + k].assume_init()) };
        }
    };
    for t in 0..steps {
        let at = t * step;
        for r in 0..R {
            let p = ptrs[r];
            let ahead = at + (R - r) * lead;
            let mut i = 0;
            while i < step && ahead + i < len {
                // SAFETY: ahead + i < len: inside row r.
                prefetch(unsafe { p.add(ahead + i) });
                i += line;
            }
        }
        for k in 0..per {
            let at = at + k * L::WIDTH;
            // SAFETY: at + WIDTH <= (t + 1) · step <= len for every row.
            let mut v = unsafe { load_rows::<L, R>(l, &ptrs, at) };
            levels::<L, R>(l, &mut v);
            // SAFETY: as for the loads.
            unsafe { l.store(ptrs[0].add(at), v[0]) };
            for r in 1..R {
                held[slot(r, t) + k].write(v[r]);
            }
        }
        for r in 1..R.min(t + 1) {
            flush(&held, r, t - r);
        }
    }
    for r in 1..R {
        for t in steps.saturating_sub(r)..steps {
            flush(&held, r, t);
        }
    }
}

/// A hint to bring the cache line holding `ptr` closer; no effect on the result.
#[inline(always)]
fn prefetch<T>(ptr: *const T) {
    #[cfg(target_arch = "x86_64")]
    // SAFETY: a prefetch never faults, whatever the address; SSE is part of x86-64.
    unsafe {
        std::arch::x86_64::_mm_prefetch::<{ std::arch::x86_64::_MM_HINT_T0 }>(ptr.cast())
    };
    #[cfg(not(target_arch = "x86_64"))]
    let _ = ptr;
}

/// Checks the shape that [`columns`] relies on (rows are at least one leaf, `16 · width`
/// elements, long); a violation is a bug in the driver.
#[inline]
pub fn assert_rows<E>(rows: &[&mut [E]], width: usize) {
    let len = rows[0].len();
    assert!(
        matches!(rows.len(), 2 | 4 | 8 | 16)
            && len.is_multiple_of(16 * width)
            && rows.iter().all(|r| r.len() == len),
        "column pass with a malformed set of rows"
    );
}

// The zeta and Möbius butterflies over subsets and supersets (see `super::sets`).

/// `(a, b) → (a, a + b)`: the subset zeta transform.
pub const SUBSET_ZETA: u8 = 0;
/// `(a, b) → (a + b, b)`: the superset zeta transform.
pub const SUPERSET_ZETA: u8 = 1;
/// `(a, b) → (a, b − a)`: the subset Möbius transform.
pub const SUBSET_MOBIUS: u8 = 2;
/// `(a, b) → (a − b, b)`: the superset Möbius transform.
pub const SUPERSET_MOBIUS: u8 = 3;

/// What a register type lends to the zeta and Möbius butterflies.
pub trait SetLanes: Lanes {
    /// `a + b`, lane by lane, in the ring.
    fn add(self, a: Self::V, b: Self::V) -> Self::V;
    /// `a − b`, lane by lane, in the ring.
    fn sub(self, a: Self::V, b: Self::V) -> Self::V;
    /// Lane `i` of the result is lane `i ^ 2^level` of `v` (`2^level < WIDTH`).
    fn partner(self, v: Self::V, level: u32) -> Self::V;
    /// Lane `i` from `upper` where bit `level` of `i` is set, from `lower` where it is clear.
    fn select(self, level: u32, lower: Self::V, upper: Self::V) -> Self::V;
}

/// A register type with the butterfly of kind `K` in place of the xor one.
#[derive(Clone, Copy, Debug)]
pub struct Kind<L, const K: u8>(pub L);

impl<L: SetLanes, const K: u8> Lanes for Kind<L, K> {
    type E = L::E;
    type V = L::V;
    const WIDTH: usize = L::WIDTH;

    #[inline(always)]
    unsafe fn load(self, ptr: *const L::E) -> L::V {
        // SAFETY: forwarded from the caller.
        unsafe { self.0.load(ptr) }
    }
    #[inline(always)]
    unsafe fn store(self, ptr: *mut L::E, v: L::V) {
        // SAFETY: forwarded from the caller.
        unsafe { self.0.store(ptr, v) }
    }
    #[inline(always)]
    fn butterfly(self, a: L::V, b: L::V) -> (L::V, L::V) {
        let l = self.0;
        match K {
            SUBSET_ZETA => (a, l.add(a, b)),
            SUPERSET_ZETA => (l.add(a, b), b),
            SUBSET_MOBIUS => (a, l.sub(b, a)),
            _ => (l.sub(a, b), b),
        }
    }
    #[inline(always)]
    fn within(self, v: L::V) -> L::V {
        let l = self.0;
        let mut v = v;
        let mut level = 0;
        while 1 << level < L::WIDTH {
            let q = l.partner(v, level);
            // The upper lane of a pair holds b, the lower a: `v + q` is a + b in both, and
            // `v − q` is b − a in the upper lanes, a − b in the lower ones.
            let t = if K & 2 == 0 { l.add(v, q) } else { l.sub(v, q) };
            v = if K & 1 == 0 { l.select(level, v, t) } else { l.select(level, t, v) };
            level += 1;
        }
        v
    }
    #[inline(always)]
    fn all_valid<const R: usize>(self, v: &[L::V; R]) -> bool {
        self.0.all_valid(v)
    }
}
