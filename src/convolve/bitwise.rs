//! AND and OR convolutions through the zeta transforms over supersets and subsets.
//!
//! `Z(a |-conv b) = Za · Zb` pointwise for the subset zeta transform `Z`, and likewise for AND
//! with the superset one: two zeta transforms, the pointwise product and one Möbius transform.
//! No ring needs `1/2`, so the wrapping rings have both; the exact rings refuse a transform or a
//! product that could overflow, before anything is returned.

use crate::error::{Error, Result};
use crate::fwht::{Plan, Sets};
use crate::ring::{Internal, Ring};

/// `c[s] = Σ_{i & j = s} a[i] · b[j]`; `a` and `b` must have the same power-of-two length.
///
/// ```
/// use nimcount::{convolve::and_convolve, ring::Exact64};
/// // i & j over {0, 1}²: 0 three ways, 1 one way.
/// assert_eq!(and_convolve(Exact64, &[1, 1], &[1, 1])?, [3, 1]);
/// # Ok::<(), nimcount::Error>(())
/// ```
///
/// Errors: lengths that differ, are 0, or are not powers of two; elements the ring does not
/// accept; an exact ring whose sums or products could overflow.
pub fn and_convolve<R: Ring>(ring: R, a: &[R::Elem], b: &[R::Elem]) -> Result<Vec<R::Elem>>
where
    R::Elem: Copy,
{
    set_convolve(ring, a, b, Sets::Superset)
}

/// `c[s] = Σ_{i | j = s} a[i] · b[j]`; `a` and `b` must have the same power-of-two length.
///
/// ```
/// use nimcount::{convolve::or_convolve, ring::Mod32};
/// // i | j over {0, 1}²: 0 one way, 1 three ways.
/// assert_eq!(or_convolve(Mod32::new(998_244_353)?, &[1, 1], &[1, 1])?, [1, 3]);
/// # Ok::<(), nimcount::Error>(())
/// ```
///
/// Errors as [`and_convolve`]'s.
pub fn or_convolve<R: Ring>(ring: R, a: &[R::Elem], b: &[R::Elem]) -> Result<Vec<R::Elem>>
where
    R::Elem: Copy,
{
    set_convolve(ring, a, b, Sets::Subset)
}

/// The convolution whose transform is the zeta transform over `sets`.
fn set_convolve<R: Ring>(ring: R, a: &[R::Elem], b: &[R::Elem], sets: Sets) -> Result<Vec<R::Elem>>
where
    R::Elem: Copy,
{
    if a.len() != b.len() {
        return Err(Error::LengthsDiffer { left: a.len(), right: b.len() });
    }
    let plan = Plan::new(ring, crate::fwht::checked_len(a.len())?)?;
    let (mut fa, mut fb) = crate::memory::copies_of(|| "the transforms of the two operands".into(), a, b)?;
    plan.zeta(&mut fa, sets)?;
    plan.zeta(&mut fb, sets)?;
    plan.ring().mul_each_scaled(&mut fa, &fb, 0, plan.backend(), plan.parallel(), Internal(()))?;
    plan.mobius(&mut fa, sets)?;
    Ok(fa)
}
