"""nimcount: Walsh-Hadamard transforms and counts of impartial-game positions, for NumPy.

The transform works in place on NumPy arrays over floats (float32, float64), exact integers
(int64, refused before it could overflow), residues modulo an odd modulus (uint32, uint64 with
``modulus=``) and wrapping integers (uint32, uint64 without a modulus), one row or every row of
an N-d array. The counting engine answers how many positions of ``k`` heaps of a game are lost
for the player to move, for heap sizes and ``k`` of any size, exactly or modulo any number.

The GIL is released during every transform and count, and Ctrl-C stops them: a long call runs
on a thread of its own while the calling thread handles signals.

Integer dtypes narrower than the rings are widened: int8, int16 and int32 are transformed
exactly as int64, uint8 and uint16 as uint32 (wrapping, or modulo ``modulus``); ``fwht`` writes
the results back into the array (refusing those that do not fit its dtype), ``xor_convolve``
and ``xor_power`` return the wider dtype. Bool arrays are refused (``a.astype(np.int64)``).

Every argument that decides a computation's size is estimated first: a computation beyond a
limit raises :class:`TooCostly`, whose ``keyword`` names the argument that lifts the limit.

>>> import numpy as np, nimcount
>>> nimcount.fwht(np.array([1.0, 2.0, 3.0, 4.0]))
array([10., -2., -4.,  0.])
>>> nimcount.count("subtract:1,3,4", (1, 10**15), 3, modulus=2**64).losing
4496743394194761996
"""

import collections.abc as _collections_abc
import dataclasses as _dataclasses
import numbers as _numbers
import operator as _operator
import typing as _typing
import warnings as _warnings

import numpy as _np

from . import _native
from ._native import QuotientNotFound, TooCostly

__version__: str = _native.__version__

__all__ = [
    "Counts",
    "MisereQuotient",
    "Move",
    "Period",
    "Play",
    "QuotientNotFound",
    "TooCostly",
    "__version__",
    "and_convolve",
    "count",
    "fwht",
    "grundy",
    "hadamard_matrix",
    "hadamard_transform",
    "hadamard_transform_12N",
    "hadamard_transform_20N",
    "hadamard_transform_28N",
    "hadamard_transform_40N",
    "matmul_hadU",
    "misere_quotient",
    "period",
    "or_convolve",
    "play",
    "subset_convolve",
    "survey",
    "xor_convolve",
    "xor_power",
    "zeta",
]


# The narrow integer dtypes and the dtype each is transformed as.
_WIDER = {
    _np.dtype(_np.int8): _np.dtype(_np.int64),
    _np.dtype(_np.int16): _np.dtype(_np.int64),
    _np.dtype(_np.int32): _np.dtype(_np.int64),
    _np.dtype(_np.uint8): _np.dtype(_np.uint32),
    _np.dtype(_np.uint16): _np.dtype(_np.uint32),
}


def _narrow(dtype):
    """Whether ``dtype`` is bool or an integer dtype narrower than its ring (a few attribute
    reads: the common dtypes go straight to the native call)."""
    kind = dtype.kind
    return kind == "b" or (kind == "i" and dtype.itemsize < 8) or (kind == "u" and dtype.itemsize < 4)


def _is_bool(x):
    return isinstance(x, (bool, _np.bool_))


def _ring_dtype(a):
    """The dtype ``a`` is transformed as (refusing bool arrays)."""
    if a.dtype == _np.bool_:
        raise ValueError("bool arrays are not transformed: convert with a.astype(np.int64)")
    return _WIDER.get(a.dtype) or a.dtype


def _as_array(a, name, modulus=None):
    """``a`` as an array: lists and other array-likes are converted (a new array); with a
    ``modulus``, lists of ints become uint64 residues (each must be below the modulus)."""
    if isinstance(a, _np.ndarray):
        return a
    if _is_bool(a) or isinstance(a, (str, bytes, dict, _collections_abc.Set)):
        raise TypeError(f"{name} must be a NumPy array or a list of numbers, not {type(a).__name__}")
    if modulus is None:
        return _np.asarray(a)
    try:
        array = _np.asarray(a)
    except OverflowError:
        array = _np.asarray(a, dtype=object)
    if array.dtype.kind in "fO":
        # Ints beyond int64 make NumPy pick float64 or object: read them as Python ints.
        exact = _np.asarray(a, dtype=object)
        if exact.size and all(isinstance(x, (int, _np.integer)) and not _is_bool(x) for x in exact.flat):
            array = exact
    if array.dtype.kind == "O" and array.size and all(isinstance(x, (int, _np.integer)) for x in array.flat):
        if any(x < 0 or x >= 1 << 64 for x in array.flat):
            raise ValueError(
                f"{name} holds an int outside 0 .. 2**64 - 1: with modulus= a list holds residues "
                "(reduce it first: [x % modulus for x in a])"
            )
        array = array.astype(_np.uint64)
    if array.dtype.kind == "i":
        if array.size and array.min() < 0:
            raise ValueError(
                f"{name} holds {int(array.min())}: with modulus= a list holds residues from 0 to modulus - 1 "
                "(reduce it first: [x % modulus for x in a])"
            )
        array = array.astype(_np.uint64)
    elif array.dtype.kind == "u":
        array = array.astype(_np.uint64)
    return array


def _axis(axis, a):
    """``axis`` as an int: a bool or a non-integer is refused, and an axis beyond any array
    is out of bounds (NumPy arrays have at most 64 dimensions)."""
    if _is_bool(axis):
        raise TypeError(f"axis must be an int, not a bool ({axis})")
    try:
        axis = _operator.index(axis)
    except TypeError:
        raise TypeError(f"axis must be an int, not {type(axis).__name__}") from None
    if not -(1 << 62) <= axis < 1 << 62:
        ndim = getattr(a, "ndim", None)
        of = "" if ndim is None else f" for an array of dimension {ndim}"
        raise ValueError(f"axis {_short(axis)} is out of bounds{of}")
    return axis


def _overlaps_itself(a):
    """Whether the elements of ``a`` may share memory (a view made by ``as_strided``): the axes,
    by growing stride, must each step past everything below them. Contiguous arrays pass at once."""
    if a.flags.c_contiguous or a.flags.f_contiguous or a.size <= 1:
        return False
    extent = a.itemsize
    for stride, length in sorted((abs(s), n) for s, n in zip(a.strides, a.shape) if n > 1):
        if stride < extent:
            return True
        extent += stride * (length - 1)
    return False


_OVERLAP = (
    "the rows of the array overlap in memory (a broadcast or strided view): {name} works in place; "
    "transform a copy, a.copy()"
)


def _factor(factor):
    """``factor=`` as a positive int or None: a bool or a non-integer is refused."""
    if factor is None:
        return None
    if _is_bool(factor):
        raise TypeError(f"factor must be an int, not a bool ({factor})")
    try:
        factor = _operator.index(factor)
    except TypeError:
        raise TypeError(f"factor must be an int, not {type(factor).__name__}") from None
    if factor < 1:
        raise ValueError(f"factor={_short(factor)}: a factor is the order K of H_K ⊗ H_(n/K), at least 1")
    if factor >= 1 << 63:
        raise ValueError(f"factor={_short(factor)} is the order of no Hadamard matrix")
    return factor


def _family(family):
    """``family=`` as a str or None."""
    if family is not None and not isinstance(family, str):
        raise TypeError(f"family must be a str ('fast-hadamard-transform' or 'sloane'), not {type(family).__name__}")
    return family


def _hadamard_path(a, scale, axis, chosen=False):
    """Whether ``fwht`` takes ``a`` to the Hadamard transforms of float storage: any DLPack
    producer that is not a NumPy array, float16 and bfloat16 arrays, and float arrays with a
    ``scale``, a ``factor`` or ``family`` (``chosen``) or a length that is not a power of two."""
    if not isinstance(a, _np.ndarray):
        return hasattr(a, "__dlpack__") or scale is not None or chosen  # the native call names a wrong type
    dtype = a.dtype
    if dtype.kind == "f" and dtype.itemsize == 2 or dtype.name == "bfloat16":
        return True
    if dtype.kind != "f":
        return False
    if scale is not None or chosen:
        return True
    try:
        n = a.shape[axis]
    except (IndexError, TypeError):
        return False  # the native call names the axis
    return n > 0 and n & (n - 1) != 0


def fwht(a, *, modulus=None, inverse=False, axis=-1, threads=None, scale=None, factor=None, family=None):
    """Walsh-Hadamard transform of ``a``, in place.

    ``forward(x)[j] = sum_i (-1)**popcount(i & j) * x[i]`` (natural order, unnormalised);
    ``inverse=True`` divides by the length, so ``fwht(fwht(x), inverse=True)`` is ``x``.

    Float arrays (float16, bfloat16, float32, float64) also take lengths ``n = K * 2**k`` for
    ``K`` in 12, 20, 28, 36, 40, 44, 52, 60, 108, 140, 156, 172 and a ``scale``: the result is
    ``scale * (x @ H.T)`` row by row with ``H = hadamard_matrix(n, factor=factor,
    family=family)``, the Kronecker product ``H_K ⊗ H_(2**k)`` of a Hadamard matrix of order
    ``K`` with Sylvester's matrix of order ``2**k``. Without ``factor``, ``K`` is QuaRot's rule
    (``get_hadK``: the odd part of ``n`` decides, and 40 before 20); without ``family``, ``H_K``
    is fast-hadamard-transform's for 12, 20, 28 and 40 and Sloane's (QuIP#, QuaRot) for the
    others. float16 and bfloat16 are computed in float32 and rounded once, at the end; the scale
    is applied in the same pass. ``inverse=True`` is then ``scale * (x @ H) / n``, which undoes
    ``scale=1`` (or ``1/scale`` after ``scale``).
    Any object with ``__dlpack__`` and ``__dlpack_device__`` on the CPU (a PyTorch tensor,
    bfloat16 included; a JAX array) is transformed in place the same way, without a copy, and
    returned.

    Parameters
    ----------
    a : numpy.ndarray or an object with ``__dlpack__``
        float32, float64, uint32, uint64 or int64, writeable, with a power-of-two length along
        ``axis`` and its rows contiguous along it. Every row along ``axis`` is transformed
        (a 2-d array: each row, in parallel). int8, int16 and int32 are transformed as int64,
        uint8 and uint16 as uint32, on a copy written back (results that do not fit the dtype
        are refused, the array left unchanged). Bool arrays are refused.
    modulus : int, optional
        uint32 and uint64 only: residues modulo this odd number (below 2**31 for uint32, below
        2**63 for uint64); every element must be below it. Without it, uint32 and uint64
        arithmetic wraps modulo 2**32 and 2**64 (no inverse: 2 has no inverse there).
    inverse : bool, default False
        The normalised inverse. For int64, an array that is not a transform of integers is
        refused and left unchanged.
    axis : int, default -1
        The axis along which to transform.
    threads : int, optional
        ``None``: every core (rayon's pool); ``1``: the calling thread only; ``n`` (at most
        256): a pool of ``n`` threads, kept for later calls until one asks for another number
        when ``n`` is at most the core count, else started for this call alone.
    scale : float, optional
        Float dtypes only: multiply the result by this finite number (``1 / sqrt(n)`` makes
        the transform orthonormal), in the transform's last pass.
    factor : int, optional
        Float dtypes only: the order ``K`` of ``H_K ⊗ H_(n/K)`` (``n/K`` a power of two), in
        place of the rule's: ``factor=20`` at ``n = 160`` is fast-hadamard-transform's
        ``hadamard_transform_20N``, where the rule takes ``H_40 ⊗ H_4``.
    family : str, optional
        Float dtypes only: whose matrix ``H_K`` is: ``"fast-hadamard-transform"`` (Tri Dao's
        package: orders 12, 20, 28, 40) or ``"sloane"`` (QuIP#, QuaRot and SpinQuant, from
        Sloane's library: orders 12, 20, 28, 36, 40, 44, 52, 60, 108, 140, 156, 172). The two
        differ at orders 12, 20 and 28.

    Returns
    -------
    numpy.ndarray or the object given
        ``a`` itself, transformed.

    Raises
    ------
    ValueError
        A length that is not a power of two (nor ``K * 2**k`` for a float dtype), a factor that
        does not divide it with a power-of-two quotient or that the family has no matrix of,
        an unknown family, a read-only
        array or DLPack export, memory not on the CPU, rows not contiguous along ``axis`` or
        overlapping, an unsupported dtype, an element not below the modulus, an even or too
        large modulus, ``scale`` with an integer dtype or not finite, an int64 transform that
        could overflow, an array in use by another call (its memory overlaps). The array is
        then unchanged.
    TypeError
        Not an array nor a DLPack producer; a bool or a non-integer where an int is needed.
    MemoryError
        No room for the copy of an int64 inverse or of a narrow dtype.
    KeyboardInterrupt
        Ctrl-C: the array is then partly transformed.

    Examples
    --------
    >>> import numpy as np, nimcount
    >>> x = np.array([1, 2, 3, 4], dtype=np.uint32)
    >>> nimcount.fwht(x, modulus=998244353)
    array([       10, 998244351, 998244349,         0], dtype=uint32)
    >>> nimcount.fwht(x, modulus=998244353, inverse=True) is x
    True
    >>> x
    array([1, 2, 3, 4], dtype=uint32)
    >>> nimcount.fwht(np.ones((2, 4), dtype=np.int64))
    array([[4, 0, 0, 0],
           [4, 0, 0, 0]])
    """
    axis = _axis(axis, a)
    if isinstance(a, _np.ndarray) and _overlaps_itself(a):
        raise ValueError(_OVERLAP.format(name="fwht"))
    factor, family = _factor(factor), _family(family)
    chosen = factor is not None or family is not None
    if _hadamard_path(a, scale, axis, chosen):
        if modulus is not None:
            raise ValueError("modulus= applies to uint32 and uint64 arrays, not to float storage or DLPack objects")
        return _native.hadamard(a, scale, inverse, axis, threads, factor, family)
    if scale is not None or chosen:
        kind = a.dtype if isinstance(a, _np.ndarray) else type(a).__name__
        what = "scale=" if scale is not None else "factor= and family="
        raise ValueError(f"{what} applies to float arrays, not to {kind}")
    if not isinstance(a, _np.ndarray) or not _narrow(a.dtype):
        return _native.fwht(a, modulus, inverse, axis, threads)  # names a wrong type or dtype
    wide = _ring_dtype(a)
    if a.dtype.kind == "u" and modulus is not None and not _is_bool(modulus):
        try:
            too_large = modulus > 1 << (8 * a.dtype.itemsize)
        except TypeError:
            too_large = False  # the native call names the type
        if too_large:
            raise ValueError(
                f"modulus is too large for {a.dtype} residues written back (at most 2**{8 * a.dtype.itemsize}): "
                "use a uint32 or uint64 array"
            )
    if not a.flags.writeable:
        raise ValueError("the array is read-only (a.flags.writeable is False): fwht works in place; transform a copy, a.copy()")
    with _native.Held(a):
        w = a.astype(wide)
        _native.fwht(w, modulus, inverse, axis, threads)
        if a.dtype.kind == "i" and w.size:
            info = _np.iinfo(a.dtype)
            if w.min() < info.min or w.max() > info.max:
                raise ValueError(
                    f"the transform does not fit in {a.dtype} (it reaches {int(w.min())} .. {int(w.max())}); "
                    "transform a.astype(np.int64) (the array is unchanged)"
                )
        _np.copyto(a, w, casting="unsafe")  # uint: the residues modulo 2**bits
    return a


def hadamard_matrix(n, dtype=_np.float64, *, factor=None, family=None):
    """The ``n`` by ``n`` Hadamard matrix that ``fwht`` multiplies float rows of length ``n`` by.

    Sylvester's matrix for powers of two (``H[i, j] = (-1)**popcount(i & j)``); for ``n = K *
    2**k`` the Kronecker product ``H_K ⊗ H_(2**k)`` of a matrix of order ``K`` with Sylvester's
    of order ``2**k``, ``K`` and the family of ``H_K`` chosen as in :func:`fwht` (a length ``5 *
    2**j``, ``j >= 3``, is ``40 * 2**(j-3)`` unless ``factor=20``). The order-``K`` matrices are
    fast-hadamard-transform's ``had_12_paley``, ``had_20_will``, ``had_28_will`` and
    ``had_40_tpal``, and those QuIP#, QuaRot and SpinQuant ship from Sloane's library (``had.12``,
    ``had.36.pal2``, ``had.52.will``, ``had.60.pal``, ``had.108.pal``, ``had.140.pal``,
    ``had.156.will``, ``had.172.will``, with orders 20, 28, 40 and 44 of theirs).
    ``H @ H.T == n * I``.

    Parameters
    ----------
    n : int
        The order.
    dtype : numpy dtype, default float64
        The dtype of the result: a float dtype (float16, float32, float64, ml_dtypes' bfloat16)
        or a signed integer one (int8 to int64).
    factor : int, optional
        The order ``K`` of the first factor, as in :func:`fwht`.
    family : str, optional
        ``"fast-hadamard-transform"`` or ``"sloane"``, as in :func:`fwht`.

    Returns
    -------
    numpy.ndarray
        A new ``(n, n)`` array of ``-1`` and ``1``.

    Raises
    ------
    ValueError
        An order without a matrix (negative ones included), a factor or family that cannot make
        it; a dtype that does not hold -1 (bool, unsigned) or is not a number.
    MemoryError
        A matrix whose ``n * n`` entries (of ``dtype``, with the int8 matrix it is made from)
        do not fit in the memory available, checked before it is made: ``2**40``, ``10**100``.
    TypeError
        ``n`` not an int (a bool included), or ``dtype`` not a dtype.

    Examples
    --------
    >>> import nimcount
    >>> nimcount.hadamard_matrix(2)
    array([[ 1.,  1.],
           [ 1., -1.]])
    """
    dtype = _np.dtype(dtype)
    if dtype.kind not in "fi" and dtype.name != "bfloat16":
        raise ValueError(
            f"dtype {dtype}: a Hadamard matrix holds -1 and 1, so it takes a float dtype (float64, float32, "
            "float16, bfloat16) or a signed integer one (int8 ... int64)"
        )
    flat = _native.hadamard_matrix(n, dtype.itemsize, _factor(factor), _family(family))
    return flat.reshape(int(n), int(n)).astype(dtype, copy=False)


def _padded(x, n, name):
    """A fresh array of ``x``'s kind and dtype with the last axis ``n`` long: ``x`` in front,
    zeros after. NumPy arrays give NumPy arrays; a tensor with ``new_zeros`` (PyTorch) gives a
    tensor on its device; another DLPack producer gives a NumPy array."""
    if isinstance(x, _np.ndarray):
        source = x
    elif hasattr(x, "new_zeros") and hasattr(x, "__dlpack__"):
        if x.ndim == 0:
            raise ValueError(f"{name}: a 0-d tensor has no last axis to transform")
        y = x.new_zeros(*x.shape[:-1], n)
        y[..., : x.shape[-1]] = x
        return y
    elif hasattr(x, "__dlpack__"):
        source = _np.from_dlpack(x)
    else:
        raise TypeError(f"{name}: expected a NumPy array or an object with __dlpack__, not {type(x).__name__}")
    if source.ndim == 0:
        raise ValueError(f"{name}: a 0-d array has no last axis to transform (np.atleast_1d makes a 1-d one)")
    if source.dtype.kind != "f" and source.dtype.name != "bfloat16":
        raise ValueError(f"{name}: unsupported dtype {source.dtype}: it takes float16, bfloat16, float32 or float64")
    y = _np.zeros(source.shape[:-1] + (n,), source.dtype)
    y[..., : source.shape[-1]] = source
    return y


def _last_length(x, name):
    """The length of ``x`` along its last axis, at least 1: a 0-d array or an object that is not
    an array is refused by :func:`_padded`, an empty axis here."""
    shape = getattr(x, "shape", None)
    if not shape:
        _padded(x, 0, name)  # raises: the wrong type or the 0-d array
        raise TypeError(f"{name}: expected an array with at least one axis, not {type(x).__name__}")
    n = int(shape[-1])
    if n == 0:
        raise ValueError(f"{name}: the last axis is empty: a transform needs at least one element")
    return n


def _dao(x, scale, k, name):
    """fast-hadamard-transform's ``hadamard_transform`` (``k = 1``) and ``hadamard_transform_kN``:
    the row padded with zeros as its CUDA kernels pad it (to a multiple of 8, or of ``4 * k``,
    then to ``k`` times a power of two), transformed, cut back to its length, on a copy."""
    dim = _last_length(x, name)
    unit = 8 if k == 1 else 4 * k
    rounded = -(-dim // unit) * unit
    n = k * (1 << (rounded // k - 1).bit_length())
    y = _padded(x, n, name)
    family = None if k == 1 else "fast-hadamard-transform"
    _native.hadamard(y, scale, False, -1, None, k, family)
    return y if n == dim else y[..., :dim]


_DAO_DOC = """fast-hadamard-transform's ``hadamard_transform{suffix}(x, scale)``, on the CPU.

    ``scale * (x @ H.T)`` along the last axis with ``H = hadamard_matrix(n, factor={k}{family})``
    {what}, returned as a new array (``x`` is left alone), as Tri Dao's CUDA package computes it:
    its matrices (family ``"fast-hadamard-transform"``), in float32 for float16, bfloat16 and
    float32 with one rounding at the end (float64 in float64). A length that is not {length} is
    padded with zeros as the package's kernels pad it (to a multiple of {unit}, then to
    {length}) and the result cut back to the length. Unlike the package, any length and any
    number of rows are taken.

    Parameters
    ----------
    x : numpy.ndarray or an object with ``__dlpack__``
        float16, bfloat16, float32 or float64. A PyTorch CPU tensor gives a tensor (made with
        ``x.new_zeros``); another DLPack producer gives a NumPy array.
    scale : float, default 1.0
        Multiplies the result.

    Returns
    -------
    numpy.ndarray or tensor
        A new array of ``x``'s shape and dtype.

    Raises
    ------
    ValueError
        An empty last axis, a 0-d array, an unsupported dtype, a scale that is not finite.
    TypeError
        Not an array nor a DLPack producer; a scale that is not a number.
    MemoryError
        No room for the result.
    """


def hadamard_transform(x, scale=1.0):
    return _dao(x, scale, 1, "hadamard_transform")


def hadamard_transform_12N(x, scale=1.0):  # noqa: N802 - the package's name
    return _dao(x, scale, 12, "hadamard_transform_12N")


def hadamard_transform_20N(x, scale=1.0):  # noqa: N802
    return _dao(x, scale, 20, "hadamard_transform_20N")


def hadamard_transform_28N(x, scale=1.0):  # noqa: N802
    return _dao(x, scale, 28, "hadamard_transform_28N")


def hadamard_transform_40N(x, scale=1.0):  # noqa: N802
    return _dao(x, scale, 40, "hadamard_transform_40N")


hadamard_transform.__doc__ = _DAO_DOC.format(
    suffix="", k=1, family="", what="(Sylvester's matrix of the padded length)", length="a power of two", unit=8
)
for _k, _f in ((12, hadamard_transform_12N), (20, hadamard_transform_20N), (28, hadamard_transform_28N), (40, hadamard_transform_40N)):
    _f.__doc__ = _DAO_DOC.format(
        suffix=f"_{_k}N",
        k=_k,
        family=', family="fast-hadamard-transform"',
        what=f"(``H_{_k} ⊗ H_(2**k)`` of the padded length; ``H_{_k} ⊗ H_8`` at 160 for 20N, never the rule's ``H_40``)",
        length=f"{_k} times a power of two",
        unit=4 * _k,
    )
del _k, _f


def matmul_hadU(x, *, transpose=False):  # noqa: N802 - the packages' name
    """QuIP#'s and QuaRot's ``matmul_hadU(X, transpose=False)``, on the CPU.

    ``x @ H.T / sqrt(n)`` along the last axis (``x @ H / sqrt(n)`` with ``transpose=True``,
    their ``matmul_hadUt``), ``H = H_K ⊗ H_(n/K)`` with their matrices (family ``"sloane"``:
    Sloane's library as QuIP#, QuaRot and SpinQuant ship it) and their choice of ``K`` per
    length (``get_hadK``: the first of 172, 156, 140, 108, 60, 52, 36, 28, 44, 40, 20, 12 that
    divides ``n``, ``n / K`` a power of two; ``K = 1`` for powers of two), returned as a new
    array. QuIP#'s own ``get_hadK`` has no 40 or 44: for ``n = 40 * 2**k`` it takes ``H_20``,
    which is ``fwht(x, factor=20, family="sloane", scale=1/sqrt(n))`` here. float16, bfloat16
    and float32 are computed in float32 and rounded once (the packages add in ``x``'s dtype),
    float64 in float64.

    Parameters
    ----------
    x : numpy.ndarray or an object with ``__dlpack__``
        float16, bfloat16, float32 or float64, the length ``n`` along the last axis ``K * 2**k``.
        A PyTorch CPU tensor gives a tensor; another DLPack producer gives a NumPy array.
    transpose : bool, default False
        Multiply by ``H.T`` instead (the inverse: ``matmul_hadU(matmul_hadU(x), transpose=True)``
        is ``x``).

    Returns
    -------
    numpy.ndarray or tensor
        A new array of ``x``'s shape and dtype.

    Raises
    ------
    ValueError
        A length of no ``K`` (the packages' assertion), an empty last axis, a 0-d array, an
        unsupported dtype.
    TypeError
        Not an array nor a DLPack producer; ``transpose`` not a bool.
    MemoryError
        No room for the result.

    Examples
    --------
    >>> import numpy as np, nimcount
    >>> y = nimcount.matmul_hadU(np.eye(1, 12))
    >>> bool(np.allclose(y * np.sqrt(12), nimcount.hadamard_matrix(12, family="sloane")[:, 0]))
    True
    """
    if not isinstance(transpose, bool):
        raise TypeError(f"transpose must be a bool, not {type(transpose).__name__}")
    n = _last_length(x, "matmul_hadU")
    y = _padded(x, n, "matmul_hadU")
    root = float(n) ** 0.5
    if transpose:
        _native.hadamard(y, root, True, -1, None, None, "sloane")
    else:
        _native.hadamard(y, 1.0 / root, False, -1, None, None, "sloane")
    return y


def _rows_last(a, axis, dtype):
    """A fresh C-contiguous copy of ``a`` as ``dtype`` with ``axis`` moved last."""
    if a.ndim == 0:
        raise ValueError("a 0-d array has no axis to transform (np.atleast_1d makes a 1-d one)")
    if a.ndim > 32:
        raise ValueError(f"the array has {a.ndim} dimensions; nimcount takes at most 32 (reshape it first)")
    if not -a.ndim <= axis < a.ndim:
        raise ValueError(f"axis {axis} is out of bounds for an array of dimension {a.ndim}")
    return _np.array(_np.moveaxis(a, axis, -1), dtype=dtype, order="C", copy=True)


def _operands(a, b, modulus, axis):
    """Fresh C-contiguous copies of the operands of a convolution, of one (widened) dtype and
    shape, with ``axis`` moved last; and the axis as an int."""
    a, b = _as_array(a, "a", modulus), _as_array(b, "b", modulus)
    axis = _axis(axis, a)
    wide = _ring_dtype(a)
    if _ring_dtype(b) != wide:
        raise ValueError(
            f"a and b must have the same dtype: a is {a.dtype}, b is {b.dtype} (convert with b.astype(a.dtype))"
        )
    if a.shape != b.shape:
        raise ValueError(f"a and b must have the same shape: {list(a.shape)} and {list(b.shape)}")
    return _rows_last(a, axis, wide), _rows_last(b, axis, wide), axis


def xor_convolve(a, b, *, modulus=None, axis=-1, threads=None):
    """XOR convolution: ``c[x] = sum over i ^ j == x of a[i] * b[j]``, as a new array.

    Parameters
    ----------
    a, b : numpy.ndarray or list
        The same shape and dtype (float32, float64, uint32 or uint64 with ``modulus``, int64;
        narrower integers are widened as in :func:`fwht`), a power-of-two length along
        ``axis``; N-d arrays are convolved row by row. Lists are converted with ``np.asarray``;
        with ``modulus`` a list of ints is taken as uint64 residues (from 0 to ``modulus - 1``).
    modulus : int, optional
        For uint32 and uint64: an odd modulus (see :func:`fwht`). Required for them.
    axis : int, default -1
        The axis along which to convolve.
    threads : int, optional
        As :func:`fwht`: ``None`` every core, ``1`` the calling thread only, ``n`` a pool.

    Returns
    -------
    numpy.ndarray
        A new array of the same shape and of the (widened) dtype.

    Raises
    ------
    ValueError
        As :func:`fwht`, and arrays of different shapes or dtypes.
    MemoryError
        No room for the new array and the transform of ``b`` (NumPy allocates both).
    KeyboardInterrupt
        Ctrl-C, between groups of rows.

    Examples
    --------
    >>> import numpy as np, nimcount
    >>> nimcount.xor_convolve(np.array([1, 1]), np.array([1, 1]))
    array([2, 2])
    >>> nimcount.xor_convolve(np.ones(4, np.uint32), np.ones(4, np.uint32), modulus=7)
    array([4, 4, 4, 4], dtype=uint32)
    """
    out, scratch, axis = _operands(a, b, modulus, axis)
    _native.xor_convolve(out, scratch, modulus, threads)
    return _np.moveaxis(_overflow_warned(out), -1, axis)


def zeta(a, *, superset=False, inverse=False, modulus=None, axis=-1, threads=None):
    """Zeta transform over subsets (or supersets) of ``a``, in place; ``inverse=True`` gives
    the Moebius transform.

    Indices are bit sets: ``zeta(x)[s] = sum over t subset of s of x[t]`` (the transform of the
    OR convolution), with ``superset=True`` ``sum over t superset of s of x[t]`` (the transform of
    the AND convolution). The Moebius transform undoes it and needs no ``1/2``, so uint32 and
    uint64 without a modulus (arithmetic modulo 2**32 and 2**64) have both.

    Parameters
    ----------
    a : numpy.ndarray
        As :func:`fwht`: float32, float64, uint32, uint64 or int64 (narrower integers are
        transformed as in :func:`fwht`, results that do not fit refused), writeable, with a
        power-of-two length along ``axis``; every row along ``axis`` is transformed.
    superset : bool, default False
        Sum over supersets instead of subsets.
    inverse : bool, default False
        The Moebius transform, the inverse of the zeta transform over the same sets.
    modulus : int, optional
        uint32 and uint64 only: residues modulo this odd number (see :func:`fwht`).
    axis : int, default -1
        The axis along which to transform.
    threads : int, optional
        As :func:`fwht`: ``None`` every core, ``1`` the calling thread only, ``n`` a pool.

    Returns
    -------
    numpy.ndarray
        ``a`` itself, transformed.

    Raises
    ------
    ValueError
        As :func:`fwht` (the array is then unchanged).
    TypeError
        Not a NumPy array (``zeta`` works in place: lists are refused).
    MemoryError
        No room for the working copy of ``a`` (NumPy allocates it).

    Examples
    --------
    >>> import numpy as np, nimcount
    >>> x = np.array([1, 2, 3, 4])
    >>> nimcount.zeta(x)
    array([ 1,  3,  4, 10])
    >>> nimcount.zeta(x, inverse=True)
    array([1, 2, 3, 4])
    >>> nimcount.zeta(x, superset=True)
    array([10,  6,  7,  4])
    """
    if not isinstance(a, _np.ndarray):
        raise TypeError(f"a must be a NumPy array, not {type(a).__name__} (zeta works in place: np.asarray makes one)")
    axis = _axis(axis, a)
    wide = _ring_dtype(a)
    if not a.flags.writeable:
        raise ValueError("the array is read-only (a.flags.writeable is False): zeta works in place; transform a copy, a.copy()")
    if _overlaps_itself(a):
        raise ValueError(_OVERLAP.format(name="zeta"))
    with _native.Held(a):
        w = _rows_last(a, axis, wide)
        _native.zeta(w, bool(superset), bool(inverse), modulus, threads)
        w = _np.moveaxis(w, -1, axis)
        if a.dtype != wide and a.dtype.kind == "i" and w.size:
            info = _np.iinfo(a.dtype)
            if w.min() < info.min or w.max() > info.max:
                raise ValueError(
                    f"the transform does not fit in {a.dtype} (it reaches {int(w.min())} .. {int(w.max())}); "
                    "transform a.astype(np.int64) (the array is unchanged)"
                )
        _np.copyto(a, w, casting="unsafe")
    return a


def _overflow_warned(out):
    """``out``, after a ``RuntimeWarning`` (as NumPy's) when a float result is inf or NaN: an
    overflow of sums or products of finite inputs, or inf or NaN among the inputs."""
    if out.dtype.kind == "f" and out.size and not _np.isfinite(out).all():
        bad = int(out.size - _np.count_nonzero(_np.isfinite(out)))
        _warnings.warn(
            f"{bad} of the {out.size} results are inf or NaN (an overflow of {out.dtype}, or inf or "
            "NaN among the inputs)",
            RuntimeWarning,
            stacklevel=3,
        )
    return out


def _set_convolve(a, b, kind, modulus, axis, threads):
    """The AND, OR or subset convolution of ``a`` and ``b`` row by row, as a new array."""
    out, other, axis = _operands(a, b, modulus, axis)
    _native.set_convolve(out, other, kind, modulus, threads)
    return _np.moveaxis(_overflow_warned(out), -1, axis)


def and_convolve(a, b, *, modulus=None, axis=-1, threads=None):
    """AND convolution: ``c[s] = sum over i & j == s of a[i] * b[j]``, as a new array.

    Through the zeta transform over supersets, its pointwise product and the Möbius transform,
    in place on the new array (nothing else is allocated). The same dtypes, lists, ``axis`` and
    ``threads`` as :func:`xor_convolve` (float32, float64, int64 exact with its overflow rule,
    uint32 and uint64 with an odd ``modulus``; a list with ``modulus`` as uint64), except that no
    ``1/2`` is needed: uint32 and uint64 without ``modulus`` compute modulo 2^32 and 2^64.

    Raises
    ------
    ValueError
        As :func:`xor_convolve`.
    MemoryError
        No room for the new array and the copy of ``b`` (NumPy allocates both).
    KeyboardInterrupt
        Ctrl-C, between groups of rows.

    Examples
    --------
    >>> import numpy as np, nimcount
    >>> nimcount.and_convolve(np.array([1, 1]), np.array([1, 1]))
    array([3, 1])
    """
    return _set_convolve(a, b, "and", modulus, axis, threads)


def or_convolve(a, b, *, modulus=None, axis=-1, threads=None):
    """OR convolution: ``c[s] = sum over i | j == s of a[i] * b[j]``, as a new array.

    Through the zeta transform over subsets; dtypes and rules as :func:`and_convolve`.

    Examples
    --------
    >>> import numpy as np, nimcount
    >>> nimcount.or_convolve(np.array([1, 1]), np.array([1, 1]))
    array([1, 3])
    """
    return _set_convolve(a, b, "or", modulus, axis, threads)


def subset_convolve(a, b, *, modulus=None, axis=-1, threads=None):
    """Subset convolution: ``c[s] = sum over t subset of s of a[t] * b[s - t]``, as a new array.

    By ranked zeta transforms (O(n² 2^n) for 2^n elements); dtypes, lists, ``axis`` and
    ``threads`` as :func:`and_convolve`. int64 is exact when ``sum(|a|) * sum(|b|)`` fits
    (refused otherwise; rows of one element are single products). The ranked transforms
    (``2 (k + 1)`` copies of a row of ``2**k``) are checked against the memory first:
    ``MemoryError`` when they do not fit.

    Examples
    --------
    >>> import numpy as np, nimcount
    >>> nimcount.subset_convolve(np.array([1, 2, 3, 4]), np.array([5, 6, 7, 8]))
    array([ 5, 16, 22, 60])
    """
    return _set_convolve(a, b, "subset", modulus, axis, threads)


def xor_power(a, k, *, modulus=None, axis=-1, threads=None):
    """The ``k``-th XOR power ``a *x a *x ... *x a`` (``k`` factors), as a new array.

    ``k`` may be a Python int of any size: modular rings reduce it with a rule that holds for
    every element (bases sharing factors with the modulus included). ``k = 0`` gives
    ``[1, 0, 0, ...]``.

    Parameters
    ----------
    a : numpy.ndarray or list
        float32, float64, uint32 or uint64 with ``modulus``, or int64 (an overflow is refused;
        narrower integers are widened as in :func:`fwht`); a power-of-two length along
        ``axis``, N-d arrays row by row. Lists are converted with ``np.asarray``; with
        ``modulus`` a list of ints is taken as uint64 residues (from 0 to ``modulus - 1``).
    k : int
        The exponent, at least 0.
    modulus : int, optional
        For uint32 and uint64: an odd modulus (see :func:`fwht`). Required for them.
    axis : int, default -1
        The axis along which to take powers.
    threads : int, optional
        As :func:`fwht`: ``None`` every core, ``1`` the calling thread only, ``n`` a pool.

    Returns
    -------
    numpy.ndarray
        A new array of the same shape and of the (widened) dtype.

    Raises
    ------
    ValueError
        As :func:`fwht`; an int64 power that could overflow.
    MemoryError
        No room for the new array (NumPy allocates it).
    KeyboardInterrupt
        Ctrl-C, between chunks of the pointwise power: within a second.

    Examples
    --------
    >>> import numpy as np, nimcount
    >>> # Three heaps of 0..3 stones: 16 of the 64 triples have XOR 0.
    >>> nimcount.xor_power(np.ones(4, np.uint32), 3, modulus=10**9 + 7)
    array([16, 16, 16, 16], dtype=uint32)
    >>> int(nimcount.xor_power(np.ones(4, np.uint64), 10**100, modulus=10**9 + 7)[0])
    990979451
    """
    a = _as_array(a, "a", modulus)
    axis = _axis(axis, a)
    wide = _ring_dtype(a)
    if _is_bool(k):
        raise TypeError("k must be an int, not a bool")
    out = _rows_last(a, axis, wide)
    _native.xor_power(out, k, modulus, threads)
    return _np.moveaxis(_overflow_warned(out), -1, axis)


def _theorem(certificate):
    return None if certificate is None else certificate["theorem"]


@_dataclasses.dataclass(frozen=True)
class Period:
    """A proven period of a game's Grundy values: ``G(n + period) = G(n) + saltus`` for every
    ``n >= preperiod``, with the smallest ``preperiod`` and ``period``.

    ``preperiod``, ``period``, ``saltus`` and ``theorem`` are ``None`` when no period was proven
    within the limit; then ``suggested_max_heap`` (with its estimated seconds) is a larger limit
    to try, and ``never_periodic`` says whether a theorem rules any period out.
    """

    game: str
    preperiod: _typing.Optional[int]
    period: _typing.Optional[int]
    saltus: _typing.Optional[int]
    theorem: _typing.Optional[str]
    theorem_id: _typing.Optional[str]
    checked_upto: _typing.Optional[int] = None
    max_value: _typing.Optional[int] = None
    never_periodic: bool = False
    suggested_max_heap: _typing.Optional[int] = None
    suggested_seconds: _typing.Optional[float] = None

    def as_dict(self) -> dict:
        """The fields as a dict."""
        return _dataclasses.asdict(self)


def _period_of(game, certificate, **rest):
    c = certificate or {}
    return Period(
        game=game,
        preperiod=c.get("preperiod"),
        period=c.get("period"),
        saltus=c.get("saltus"),
        theorem=c.get("theorem"),
        theorem_id=c.get("theorem_id"),
        **rest,
    )


@_dataclasses.dataclass(frozen=True)
class Counts:
    """The answer of :func:`count`.

    ``losing``, ``winning`` and ``total`` are Python ints (modulo ``modulus`` when there is
    one), or floats with ``probability=True`` (``total`` is then 1.0 and ``exact`` says whether
    they are the exact ratios, correctly rounded). ``heaps`` is the number of heaps as given (an
    int, or the range whose counts are summed), ``sizes`` the number of heap sizes,
    ``source`` where the Grundy values came from (``"period"``, ``"values"``, ``"histogram"``,
    ``"closed form"``, ``"digits"`` for Moore's Nim, ``"sum"`` for ``parts``, ``"quotient"`` and
    ``"partial quotient"`` for misère play counted in a misère quotient (of every heap size, or
    of the heaps ``0..=hi``), ``"trivial"`` when no Grundy value was needed), and ``period``
    the proven period used, with its ``theorem``.
    """

    losing: _typing.Union[int, float]
    winning: _typing.Union[int, float]
    total: _typing.Union[int, float]
    modulus: _typing.Optional[int]
    heaps: _typing.Union[int, range]
    sizes: int
    kind: str
    play: str
    source: str
    period: _typing.Optional[Period]
    theorem: _typing.Optional[str]
    values_computed: _typing.Optional[int]
    exact: _typing.Optional[bool] = None

    def as_dict(self) -> dict:
        """The fields as a dict (the period as a dict too)."""
        return _dataclasses.asdict(self)


def _short(x):
    """``x`` as it may appear in a one-line message (an int of thousands of digits by its size:
    Python refuses to write those)."""
    if isinstance(x, int) and not _is_bool(x) and x.bit_length() > 256:
        return f"{'-' if x < 0 else ''}an int of {x.bit_length()} bits"
    text = repr(x)
    return text if len(text) <= 80 else f"{text[:40]}… ({len(text)} characters)"


def _sizes(sizes):
    """``(lo, hi)`` inclusive from a range of step 1 or a pair (a tuple, a list or a 1-d array
    of two ints). A range's bounds are read without ``len`` (which overflows past 2**63)."""
    if isinstance(sizes, range):
        if sizes.step != 1:
            raise ValueError(f"sizes={_short(sizes)}: a range of step 1 is needed (every heap size from lo to hi)")
        if sizes.stop <= sizes.start:
            raise ValueError(f"sizes={_short(sizes)} is empty")
        return sizes.start, sizes.stop - 1
    pair = isinstance(sizes, (tuple, list)) or (isinstance(sizes, _np.ndarray) and sizes.ndim == 1)
    if not pair or len(sizes) != 2:
        raise ValueError(
            f"sizes must be a range or a pair (lo, hi) of heap sizes, inclusive; not {_short(sizes)}"
        )
    lo, hi = sizes
    for bound in (lo, hi):
        if _is_bool(bound):
            raise TypeError(f"heap sizes must be ints, not bools ({_short(sizes)})")
    return lo, hi


def _histogram(histogram):
    """A histogram array of another integer dtype as uint64 (negative counts refused)."""
    if isinstance(histogram, _np.ndarray) and histogram.dtype not in (_np.uint64, _np.int64):
        if histogram.dtype == _np.bool_ or histogram.dtype.kind not in "iu":
            raise ValueError(
                f"a histogram array must have an integer dtype (counts indexed by value), not {histogram.dtype}"
            )
        if histogram.ndim == 1 and histogram.size and histogram.dtype.kind == "i" and histogram.min() < 0:
            v = int(_np.argmax(histogram < 0))
            raise ValueError(f"histogram count {int(histogram[v])} for value {v} is negative")
        if histogram.ndim == 1:
            return histogram.astype(_np.uint64)
    return histogram


def count(
    game=None,
    sizes=None,
    heaps=None,
    *,
    histogram=None,
    modulus=None,
    unordered=False,
    distinct=False,
    misere=False,
    probability=False,
    max_work=None,
    max_heap=None,
    parts=None,
    max_states=None,
    max_order=None,
    max_seconds=None,
):
    """Counts the positions of ``heaps`` heaps that are lost for the player to move.

    A position is lost (normal play) when the XOR of the heaps' Grundy values is 0. Heap sizes,
    the number of heaps and the modulus may be Python ints of any size.

    Parameters
    ----------
    game : str
        A game as on the command line: ``"nim"``, ``"subtract:1,3,4"``,
        ``"subtract:1-1000000"``, ``"allbut:1,2"``, ``"octal:0.07"``, ``"squares"``,
        ``"moore:3"`` (Moore's Nim-3, ordered counts in normal play).
    sizes : range or (int, int)
        Every heap size from ``lo`` to ``hi`` inclusive: ``(1, 10**12)`` or
        ``range(1, 10**12 + 1)``.
    heaps : int or range
        The number of heaps (0 counts the empty position, which is lost), or a range of step 1:
        the counts summed over every number of heaps in it, of any size
        (``range(1, 10**18 + 1)``), in one pass. Not with ``misere`` or ``probability``.
    histogram : dict or numpy.ndarray, optional
        Instead of a game: the number of heap sizes with each Grundy value, ``{value: count}``
        (values and counts of any size: values beyond an array, such as ``2**63``, are kept
        as one-point ranges) or a 1-d array of integer counts indexed by value. An empty one is
        refused.
    modulus : int, optional
        Counts modulo this number (any number >= 1); exact without it.
    unordered : bool, default False
        Multisets of heap sizes (heaps are indistinguishable).
    distinct : bool, default False
        Sets of distinct heap sizes.
    misere : bool, default False
        Misère play: whoever takes the last stone loses. Counted for nim, for octal and
        finite subtraction games through their misère quotient (see ``misere_quotient``), and
        for any game through the quotient of its heaps ``0..=hi`` when ``hi`` is at most
        ``max_heap`` (1000 by default; ``QuotientNotFound`` beyond, or when that quotient
        passes a limit, with ``keyword`` the argument that searches further): ordered,
        ``unordered`` and ``distinct``, sums of parts too; ``unordered`` and ``distinct``
        within ``max_work`` (about ``|Q|·k²`` multiply-adds per element of ``Q`` the range
        reaches, ten to a step modulo a word).
    probability : bool, default False
        The probabilities that the player to move loses and wins, sizes drawn with the
        histogram's weights (floats). Misère play of a game other than nim: every size equally
        likely, the ratios of the exact counts (refused with ``TooCostly`` when those counts
        would be too large to hold).
    max_work : int, optional
        The most steps (about 25 ns each) a count may take; by default about ten seconds.
    max_heap : int, optional
        The most Grundy values computed, ``G(0) ... G(max_heap - 1)``; with ``misere``, also the
        largest heap joined to the misère quotient (at most 100000; default 1000).
    parts : list of (str, sizes, int), optional
        Instead of a game: a sum of different games, ``[(game, sizes, heaps), ...]``; each part
        has ``heaps`` heaps of ``game`` with sizes in ``sizes`` (``unordered``/``distinct``
        apply within each part), lost when the XOR over all the heaps is 0. Normal play.
    max_states : int, optional
        With ``misere``: the search for the misère quotient stops when a proof passes this many
        states (default 200000, at most 10**8; the construction stops at five times that), as
        ``nimcount count --misere --max-states`` and :func:`misere_quotient`.
    max_order : int, optional
        With ``misere``: the search stops when a quotient along the way passes this order
        (default 2000, at most 16384).
    max_seconds : int, optional
        With ``misere``: the most estimated seconds of the search (default 60, at most 10**6):
        limits estimated beyond it are refused at once (``TooCostly``), a search that passes it
        stops.

    Returns
    -------
    Counts
        ``losing``, ``winning``, ``total``, the ``period`` used and its ``theorem``, ``as_dict()``.

    Raises
    ------
    TooCostly
        A count estimated above the work limit (``keyword`` is ``"max_work"``), Grundy values
        too costly to compute without a proven period (``"max_heap"``), an exact answer too
        large (``"modulus"``), a misère quotient's search estimated beyond its time
        (``"max_seconds"``), or a limit no keyword lifts (``None``); ``estimate`` holds the
        estimate. A subclass of ``ValueError``.
    QuotientNotFound
        ``misere=True`` for a game whose misère quotient was not found: ``keyword`` names the
        argument that searches further (``max_heap``, ``max_order``, ``max_states``,
        ``max_seconds``), or is ``None``. A subclass of ``ValueError``.
    ValueError
        Every other mistake in the arguments.
    TypeError
        A bool or a non-integer where an int is needed (``heaps=True`` is refused).
    MemoryError
        A histogram or table that does not fit in memory.
    KeyboardInterrupt
        Ctrl-C, between the stages of a long count.

    Examples
    --------
    >>> import nimcount
    >>> c = nimcount.count("subtract:1-1000000", (1, 12983567378251), 98670634123, modulus=10**9 + 7)
    >>> c.losing, c.period.period
    (154334921, 1000001)
    >>> nimcount.count("nim", range(1, 4), 3).as_dict()["losing"]
    6
    >>> nimcount.count("nim", range(1, 4), range(1, 4)).losing  # 0 + 3 + 6
    9
    >>> nimcount.count(histogram={0: 3, 1: 1}, heaps=2, probability=True).losing
    0.625
    >>> nimcount.count(parts=[("nim", (0, 3), 1), ("subtract:1,2", (0, 5), 1)]).losing
    6
    """
    if parts is not None:
        if game is not None or sizes is not None or heaps is not None or histogram is not None:
            raise ValueError("parts= gives the games, sizes and heaps: drop game, sizes, heaps and histogram=")
        native_parts = [(spec, *_sizes(part_sizes), k) for spec, part_sizes, k in parts]
        answer = _native.count(
            None, None, None, None, None, modulus, unordered, distinct, misere, probability, max_work, max_heap,
            native_parts, None, max_states, max_order, max_seconds,
        )
        answer.pop("certificate")
        answer["period"] = None
        answer["theorem"] = None
        return Counts(**answer)
    if heaps is None:
        raise ValueError("heaps= is required: the number of heaps")
    heaps_range, heaps_to = None, None
    if isinstance(heaps, range):
        if heaps.step != 1:
            raise ValueError(f"heaps={_short(heaps)}: a range of step 1 is needed (every number of heaps)")
        if heaps.stop <= heaps.start:
            raise ValueError(f"heaps={_short(heaps)} is empty")
        heaps_range, heaps, heaps_to = heaps, heaps.start, heaps.stop - 1
    if histogram is not None and sizes is not None:
        raise ValueError("sizes apply to a game, not to a histogram")
    if game is not None and not isinstance(game, str):
        raise TypeError(f"game must be a spec string such as 'subtract:1,3,4', not {type(game).__name__}")
    lo = hi = None
    if sizes is not None:
        lo, hi = _sizes(sizes)
    answer = _native.count(
        game, lo, hi, heaps, _histogram(histogram), modulus, unordered, distinct, misere, probability, max_work, max_heap,
        None, heaps_to, max_states, max_order, max_seconds,
    )
    if answer.pop("ratios", False):
        # Misère probabilities of a game other than nim: the ratios of its exact counts, each
        # correctly rounded by Python's int division.
        total = answer["total"]
        answer.update(losing=answer["losing"] / total, winning=answer["winning"] / total, total=1.0, exact=True)
    if heaps_range is not None:
        answer["heaps"] = heaps_range
    certificate = answer.pop("certificate")
    game_name = game.strip() if game is not None else "histogram"
    answer["period"] = None if certificate is None else _period_of(game_name, certificate)
    answer["theorem"] = _theorem(certificate)
    return Counts(**answer)


def grundy(game, first, *, max_seconds=None):
    """The Grundy values ``G(0) ... G(first - 1)`` of a heap game.

    Parameters
    ----------
    game : str
        A game spec (see :func:`count`).
    first : int
        How many values.
    max_seconds : float, optional
        The most estimated seconds (on one core of the reference machine) the values may take;
        30 by default. Beyond it, ``TooCostly`` (``keyword`` ``"max_seconds"``, ``estimate``
        the seconds) is raised before anything is computed.

    Returns
    -------
    numpy.ndarray
        uint64 values.

    Raises
    ------
    TooCostly
        Values estimated beyond ``max_seconds``, or more than may be computed at all.
    ValueError
        An unknown game, a game without single-heap values (Moore's Nim).
    KeyboardInterrupt
        Ctrl-C, within a second.

    Examples
    --------
    >>> import nimcount
    >>> nimcount.grundy("octal:0.137", 10)  # Dawson's chess
    array([0, 1, 1, 2, 0, 3, 1, 1, 0, 3], dtype=uint64)
    """
    return _native.grundy(game, first, max_seconds)


def period(game, *, max_heap=None):
    """The certified period of a game's Grundy values.

    A period is reported only when a theorem proves it from the values computed; otherwise
    the fields are ``None`` and ``suggested_max_heap`` names a larger limit to try.

    Parameters
    ----------
    game : str
        A game spec (see :func:`count`).
    max_heap : int, optional
        The most values computed; by default about 30 s of estimated work.

    Returns
    -------
    Period
        ``preperiod``, ``period``, ``saltus``, ``theorem``.

    Examples
    --------
    >>> import nimcount
    >>> p = nimcount.period("octal:0.77")  # Kayles
    >>> p.preperiod, p.period, p.saltus, p.theorem_id
    (71, 12, 0, 'octal-splitting')
    """
    answer = _native.period(game, max_heap)
    return _period_of(answer.pop("game"), answer.pop("certificate"), **answer)


class Move(_typing.NamedTuple):
    """A winning move: its ``description`` (heaps counted from 1) and its ``changes``, each
    ``(heap, before, after)`` with ``heap`` counted from 0 and ``after`` the tuple of the
    non-empty heaps left in its place."""

    description: str
    changes: _typing.Tuple[_typing.Tuple[int, int, _typing.Tuple[int, ...]], ...]

    def __str__(self) -> str:
        return self.description


@_dataclasses.dataclass(frozen=True)
class Play:
    """The answer of :func:`play`: ``verdict`` (``"won"`` or ``"lost"`` for the player to
    move), the Grundy value of each heap (``None`` for Moore's Nim) and every winning move."""

    verdict: str
    grundy: _typing.Optional[_typing.List[int]]
    moves: _typing.List[Move]

    @property
    def won(self) -> bool:
        """Whether the player to move wins."""
        return self.verdict == "won"

    def as_dict(self) -> dict:
        """The fields as a dict."""
        return _dataclasses.asdict(self)


def play(game, heaps, *, misere=False, max_heap=None, all=True, max_states=None):
    """The verdict of a position and its winning moves.

    Parameters
    ----------
    game : str
        A game spec (see :func:`count`), including ``"moore:K"``.
    heaps : iterable of int
        The heap sizes, of any size.
    misere : bool, default False
        Misère play, any game: nim by its rule, heaps of values 0 and 1 by their closed form,
        the game's misère quotient when it is found, the quotient of its heaps up to the
        largest (at most 64) when it is small, other positions by a search of every position
        reachable (refused beyond 10^6).
    max_heap : int, optional
        The most Grundy values computed for a game without a proven period.
    all : bool, default True
        Every winning move (at most 10000: more raises ``TooCostly`` with ``keyword``
        ``"all"``); ``False``: the verdict and one winning move, when there is one.
    max_states : int, optional
        With ``misere=True``: the misère quotients tried before the search are built within
        checks of this many states (default 50000) and orders up to 2000, as ``nimcount play
        --misere --max-states`` (``10**6`` reaches Dawson's Kayles' heaps ``0..=31``).

    Returns
    -------
    Play
        ``verdict``, ``grundy``, ``moves``.

    Examples
    --------
    >>> import nimcount
    >>> p = nimcount.play("nim", [3, 4, 5])
    >>> p.verdict, str(p.moves[0])
    ('won', 'heap 1: 3 → 1')
    >>> nimcount.play("nim", [1, 1, 1], misere=True).verdict
    'lost'
    """
    if isinstance(heaps, (str, bytes, dict, _collections_abc.Set)) or _is_bool(heaps):
        raise TypeError(f"heaps must be an iterable of heap sizes in order, not {type(heaps).__name__}")
    answer = _native.play(game, heaps, misere, max_heap, all, max_states)
    moves = [
        Move(description, tuple((h, before, tuple(after)) for h, before, after in changes))
        for description, changes in answer["moves"]
    ]
    return Play(verdict=answer["verdict"], grundy=answer["grundy"], moves=moves)


@_dataclasses.dataclass(frozen=True)
class MisereQuotient:
    """A game's misère quotient, proven for every heap size: the fields ``nimcount misere
    --json`` prints.

    Elements are numbered ``0 .. order - 1``, ``0`` being the identity (the empty position);
    ``elements`` names each by its normal form in the ``generators`` (a name and the first heap
    whose element it is), subject to ``relations`` (pairs of equal words). ``p_portion`` holds
    the elements of positions lost for the player to move (whoever cannot move wins);
    ``heaps[n]`` is the element of a heap of ``n`` for ``n < preperiod + period``, and the
    element of a larger heap is that of the heap ``period`` smaller (:meth:`element`).
    ``theorem`` states why that holds for every heap size, ``states_checked`` how many states
    its proof checked. ``table[a][b]`` is the product of elements ``a`` and ``b`` (only with
    ``table=True``; else ``None``). A position is lost exactly when the product of its heaps'
    elements lies in ``p_portion``.

    The quotient of the heaps ``0..=n`` only (``misere_quotient(game, max_heap=n)`` when no
    quotient of every heap size is found) has ``largest_heap`` ``n``, ``period`` 0, and
    ``reason``, why no quotient of every heap size was found; it judges every position of those
    heaps and refuses a larger heap.
    """

    game: str
    order: int
    generators: _typing.Tuple[_typing.Tuple[str, int], ...]
    relations: _typing.Tuple[_typing.Tuple[str, str], ...]
    elements: _typing.Tuple[str, ...]
    p_portion: _typing.Tuple[int, ...]
    heaps: _typing.Tuple[int, ...]
    preperiod: int
    period: int
    theorem: str
    theorem_id: str
    states_checked: int
    table: _typing.Optional[_typing.Tuple[_typing.Tuple[int, ...], ...]] = None
    largest_heap: _typing.Optional[int] = None
    reason: _typing.Optional[str] = None

    def element(self, n: int) -> int:
        """The element of a heap of ``n >= 0`` stones (any size; at most ``largest_heap`` for
        the quotient of the heaps ``0..=largest_heap``, else ``ValueError``)."""
        if _is_bool(n) or not isinstance(n, (int, _np.integer)):
            raise TypeError(f"a heap size must be an int, not {type(n).__name__}")
        n = int(n)
        if n < 0:
            raise ValueError(f"a heap size must be at least 0, not {n}")
        if self.largest_heap is not None and n > self.largest_heap:
            raise ValueError(
                f"a heap of {n} is above the heaps 0..={self.largest_heap} of this quotient; "
                "no heap above them is known"
            )
        if n >= self.preperiod:
            n = self.preperiod + (n - self.preperiod) % self.period
        return self.heaps[n]

    def as_dict(self) -> dict:
        """The fields as a dict."""
        return _dataclasses.asdict(self)


def misere_quotient(game, *, max_heap=None, max_order=None, max_states=None, table=False, max_seconds=None):
    """The misère quotient of an octal or finite subtraction game, proven for every heap size.

    The quotient is computed heap by heap (Plambeck and Siegel's construction) until the map
    from heap sizes to elements shows a period that the game's theorem proves; ``nimcount
    misere`` prints the same.

    Parameters
    ----------
    game : str
        A game spec: ``"kayles"``, ``"octal:0.75"``, ``"subtract:1,2"``, …
    max_heap : int, optional
        Join heaps up to this size (default 1000, at most 100000). Given, and no quotient of
        every heap size found, the quotient of the heaps ``0..=max_heap`` is returned instead
        (``largest_heap`` set, ``reason`` saying why), as ``nimcount misere --max-heap``.
    max_order : int, optional
        Stop when a quotient along the way passes this order (default 2000, at most 16384).
    max_states : int, optional
        Stop when a proof passes this many states (default 200000, at most 10^8); the whole
        construction stops at five times that.
    max_seconds : int, optional
        Stop when the search passes this many seconds of estimated time (default 60, at most
        10^6; the model of ``nimcount misere --max-seconds``, the same heap on every machine).
    table : bool, default False
        Include the multiplication table (``order²`` ints).

    Returns
    -------
    MisereQuotient

    Raises
    ------
    QuotientNotFound
        When no quotient is found: ``reason`` says why, ``keyword`` names the argument that
        searches further (``None`` for games outside the two classes, such as nim or lasker,
        or when no larger limit would help). ``nimcount misere`` answers the same with exit
        code 0 ("no misère quotient found").
    TooCostly
        When the limits are estimated beyond ``max_seconds`` before any work (``estimate``:
        seconds; ``keyword``: ``"max_seconds"``).
    ValueError
        For an unknown game or a limit out of range.

    Examples
    --------
    >>> import nimcount
    >>> q = nimcount.misere_quotient("octal:0.75")
    >>> q.order, q.preperiod, q.period, [q.elements[a] for a in q.p_portion]
    (8, 8, 2, ['a', 'b^2'])
    >>> q.elements[q.element(10**18)]
    'b'
    """
    d = _native.misere_quotient(game, max_heap, max_order, max_states, bool(table), max_seconds)
    rows = d["table"]
    return MisereQuotient(
        game=d["game"],
        order=d["order"],
        generators=tuple(tuple(g) for g in d["generators"]),
        relations=tuple(tuple(r) for r in d["relations"]),
        elements=tuple(d["elements"]),
        p_portion=tuple(d["p_portion"]),
        heaps=tuple(d["heaps"]),
        preperiod=d["preperiod"],
        period=d["period"],
        theorem=d["theorem"],
        theorem_id=d["theorem_id"],
        states_checked=d["states_checked"],
        table=None if rows is None else tuple(tuple(r) for r in rows),
        largest_heap=d["largest_heap"],
        reason=d["reason"],
    )


def survey(patterns, *, max_seconds_per_game=10.0, max_heap=None, max_states=None, push=None):
    """Every game of some families, normal and misère play, each line proven or marked open.

    The same survey as ``nimcount survey``: codes that are the same game (heap by heap the
    same game trees, up to a shift of heap sizes) are reported once, with the others in
    ``equal_to``; each game gets its period search and its misère quotient search, in parallel
    on every core.

    Parameters
    ----------
    patterns : str or list of str
        ``"octal:0.??"`` (each ``?`` any octal digit; ``"octal:0.???"``, ``"octal:4.??"``,
        ``"octal:0.?7?"``), ``"hex:0.??"``, ``"subtract:{1..8}"`` (every subtraction set
        within 1..8) or ``"subtract:{1..8}:3"`` (those of three moves).
    max_seconds_per_game : float, default 10
        Estimated seconds of each game's period search, and of its misère search.
    max_heap : int, optional
        Join heaps up to this size to each misère quotient (default 1000).
    max_states : int, optional
        Stop a misère proof past this many states (default 200000; lowered until the search's
        estimate fits ``max_seconds_per_game``).
    push : int, optional
        Continue the period search of every open game to this many values; ``normal["pushed"]``
        says how far it got.

    Returns
    -------
    list of dict
        One dict per game, with the keys of ``nimcount survey --json``: ``game``, ``equal_to``
        (codes), ``equal_shifts`` (heap ``n + shift`` of that code is heap ``n`` of ``game``),
        ``equal_preperiods`` (each code's own preperiod, when ``game`` is periodic),
        ``normal`` (``status`` ``"periodic"``, ``"arithmetic"`` or ``"open"``; ``preperiod``,
        ``period``, ``saltus``, ``largest_value``, ``values`` computed, ``theorem``,
        ``candidate``, ``pushed``), ``misere`` (``status`` ``"found"``, ``"tame"`` or
        ``"not found"``; ``order``, ``preperiod``, ``period``, ``theorem``, ``reached``: why
        none was found) and ``seconds``.

    Raises
    ------
    ValueError
        A pattern that names no family, more than 4096 games, a limit out of range.
    TooCostly
        A misère budget estimated beyond the time per game.
    MemoryError
        ``push`` beyond the memory available.
    KeyboardInterrupt
        Ctrl-C, within a second.

    Examples
    --------
    >>> import nimcount
    >>> rows = nimcount.survey("octal:0.7?", max_seconds_per_game=3)
    >>> kayles = next(r for r in rows if r["game"] == "octal:0.77")
    >>> kayles["normal"]["preperiod"], kayles["normal"]["period"], kayles["misere"]["order"]
    (71, 12, 40)
    """
    if isinstance(patterns, str):
        patterns = [patterns]
    elif isinstance(patterns, (list, tuple)):
        patterns = list(patterns)
    else:
        raise TypeError(f"patterns must be a str or a list of str, not {type(patterns).__name__}")
    if not all(isinstance(p, str) for p in patterns):
        raise TypeError("patterns must be a str or a list of str")
    if isinstance(max_seconds_per_game, bool) or not isinstance(max_seconds_per_game, _numbers.Real):
        raise TypeError("max_seconds_per_game must be a number of seconds")
    return _native.survey(patterns, float(max_seconds_per_game), max_heap, max_states, push)
