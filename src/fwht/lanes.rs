//! Kernel bodies written once over a register type; each backend instantiates them inside its
//! own `#[target_feature]` functions so the compiler inlines and schedules the whole loop.

/// One register of ring elements and the butterflies on it.
///
/// Implementations for SIMD registers can only be constructed on a CPU that has the instruction
/// set; that is what makes their intrinsics sound to call.
pub(crate) trait Lanes: Copy {
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
}

/// `log2(R)` butterfly levels across `R` registers, ascending distance.
#[inline(always)]
pub(crate) fn levels<L: Lanes, const R: usize>(l: L, v: &mut [L::V; R]) {
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
pub(crate) unsafe fn leaves<L: Lanes>(l: L, data: &mut [L::E]) {
    let w = L::WIDTH;
    debug_assert_eq!(data.len() % (16 * w), 0);
    for chunk in data.chunks_exact_mut(16 * w) {
        let p = chunk.as_mut_ptr();
        // SAFETY: the chunk holds exactly 16 registers.
        let mut v: [L::V; 16] = std::array::from_fn(|i| l.within(unsafe { l.load(p.add(i * w)) }));
        levels::<L, 16>(l, &mut v);
        // Stores by index: moving the array out (`into_iter`) made the compiler copy it through
        // the stack with `memcpy` calls, which halved the speed of the whole kernel.
        for (i, x) in v.iter().enumerate() {
            // SAFETY: as for the loads.
            unsafe { l.store(p.add(i * w), *x) };
        }
    }
}

/// One column pass over 2, 4, 8 or 16 rows.
///
/// # Safety
/// All rows must have the same length, a multiple of `16 · WIDTH`; `L`'s instruction set must be
/// available.
#[inline(always)]
pub(crate) unsafe fn columns<L: Lanes>(l: L, rows: &mut [&mut [L::E]]) {
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
    let ptrs: [*mut L::E; R] = std::array::from_fn(|i| rows[i].as_mut_ptr());
    for c in (0..len).step_by(step) {
        for k in 0..16 / R {
            let at = c + k * L::WIDTH;
            // SAFETY: at + WIDTH <= c + step <= len for every row.
            let mut v: [L::V; R] = std::array::from_fn(|i| unsafe { l.load(ptrs[i].add(at)) });
            levels::<L, R>(l, &mut v);
            for (i, x) in v.iter().enumerate() {
                // SAFETY: as for the loads.
                unsafe { l.store(ptrs[i].add(at), *x) };
            }
        }
    }
}

/// Checks the shape that [`columns`] relies on (rows are at least one leaf, `16 · width`
/// elements, long); a violation is a bug in the driver.
#[inline]
pub(crate) fn assert_rows<E>(rows: &[&mut [E]], width: usize) {
    let len = rows[0].len();
    assert!(
        matches!(rows.len(), 2 | 4 | 8 | 16)
            && len.is_multiple_of(16 * width)
            && rows.iter().all(|r| r.len() == len),
        "column pass with a malformed set of rows"
    );
}
