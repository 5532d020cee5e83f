"""The door matrix: every public function of nimcount against every class of hostile input.

The doors are read from ``nimcount.__all__``: a public function without a row here fails
``test_every_public_function_has_a_row``, and a row must name every class of :data:`CLASSES`,
with cases or with the reason the class does not apply. Each case states the documented
outcome: an answer (checked against a reference) or an exception type and a substring of its
message; "no crash" alone is never the outcome. The memory cases run in a child interpreter
under ``RLIMIT_AS``, so an abort shows as a signal and fails the test.
"""

import dataclasses
import math
import re
import resource
import subprocess
import sys
import textwrap
import time

import numpy as np
import pytest

import nimcount

ml_dtypes = pytest.importorskip("ml_dtypes")
BF16 = np.dtype(ml_dtypes.bfloat16)

# Every class of hostile input; a row names each one.
CLASSES = (
    "empty",
    "one element",
    "wrong length",
    "0-d",
    "64-d",
    "dtypes",
    "non-contiguous",
    "same buffer",
    "nan and inf",
    "huge ints",
    "negative",
    "bool",
    "lists",
    "memory",
)

# Public names that are not doors: result types and exceptions, and the version string.
NOT_DOORS = {
    "Counts": "the result of count",
    "MisereQuotient": "the result of misere_quotient",
    "Move": "a field of Play",
    "Period": "the result of period",
    "Play": "the result of play",
    "QuotientNotFound": "an exception",
    "TooCostly": "an exception",
    "__version__": "a string",
}


@dataclasses.dataclass
class Raises:
    """The call raises ``exc`` (exactly this type or a subclass) with ``text`` in its message."""

    exc: type
    text: str = ""


@dataclasses.dataclass
class Gives:
    """The call answers ``expected`` (arrays compared exactly, NaN equal to NaN, and by dtype
    when ``dtype`` is given), or an answer ``check`` accepts."""

    expected: object = None
    dtype: object = None
    check: object = None


@dataclasses.dataclass
class Case:
    label: str
    call: object
    outcome: object


@dataclasses.dataclass
class Limited:
    """A call in a child under an address-space limit of ``limit`` bytes: ``outcomes`` names
    what may end it: ``"answered"`` or an exception type, with a substring of its message."""

    call: str
    limit: int
    outcomes: tuple


GIB = 1 << 30
INT_DTYPES = [np.int8, np.int16, np.int32, np.int64, np.uint8, np.uint16, np.uint32, np.uint64]
FLOAT_DTYPES = [np.float16, BF16, np.float32, np.float64]
OTHER_DTYPES = [np.complex64, object, "U3"]


def warned(call):
    """``call()``, which must warn (``RuntimeWarning``) that some results are inf or NaN."""
    with pytest.warns(RuntimeWarning, match="are inf or NaN"):
        return call()


def sylvester(n):
    i = np.arange(n)
    return np.where(np.vectorize(lambda x: bin(x).count("1") % 2)(i[:, None] & i[None, :]), -1, 1)


def wht(x):
    """The unnormalised transform, as a float64 product (IEEE: NaN and inf as the butterflies)."""
    x = np.asarray(x, np.float64)
    with np.errstate(invalid="ignore"):
        return sylvester(x.shape[-1]).astype(np.float64) @ x if x.ndim == 1 else x @ sylvester(x.shape[-1]).T


def by_definition(a, b, op):
    """``c[op(i, j)] += a[i] * b[j]`` in Python ints (or floats)."""
    a, b = list(np.asarray(a).tolist()), list(np.asarray(b).tolist())
    c = [0] * len(a)
    for i, x in enumerate(a):
        for j, y in enumerate(b):
            k = op(i, j)
            if k is not None:
                c[k] += x * y
    return c


OPS = {
    "xor_convolve": lambda i, j: i ^ j,
    "and_convolve": lambda i, j: i & j,
    "or_convolve": lambda i, j: i | j,
    "subset_convolve": lambda i, j: (i | j) if i & j == 0 else None,
}


def overlapping(dtype):
    """A writeable view whose rows share memory."""
    return np.lib.stride_tricks.as_strided(np.zeros(8, dtype), shape=(4, 4), strides=(np.dtype(dtype).itemsize,) * 2)


def advice_works(call, a, reference, **kwargs):
    """``call(a)`` is refused with advice of the form ``np.ascontiguousarray(...)``; the advice,
    evaluated, gives an array whose transform (with the advised axis) equals ``reference``."""
    with pytest.raises(ValueError) as e:
        call(a, **kwargs)
    message = str(e.value)
    found = re.search(r"(np\.ascontiguousarray\(.*?\)\)?)( with axis=(-?\d+))?, and use", message)
    assert found, message
    fixed = eval(found.group(1), {"np": np, "a": a})  # noqa: S307 - the advice itself
    if found.group(3) is not None:
        kwargs["axis"] = int(found.group(3))
    out = call(fixed, **kwargs)
    np.testing.assert_allclose(np.asarray(out, np.float64), reference, rtol=1e-2)
    return True


# ---------------------------------------------------------------------------------------------
# The rows.


def fwht_row():
    f = nimcount.fwht
    ones = lambda dtype, n=4: np.ones(n, dtype)  # noqa: E731
    dtypes = [Case("bool", lambda: f(np.ones(4, np.bool_)), Raises(ValueError, "bool arrays are not transformed"))]
    for dtype in INT_DTYPES + FLOAT_DTYPES:
        name = np.dtype(dtype).name
        ring = {"modulus": 7} if name.startswith("uint") else {}
        dtypes.append(Case(name, lambda d=dtype, r=ring: f(ones(d), **r), Gives(np.array([4, 0, 0, 0]), dtype=dtype)))
    for dtype in OTHER_DTYPES:
        name = np.dtype(dtype).name
        dtypes.append(Case(name, lambda d=dtype: f(np.zeros(4, d)), Raises(ValueError, "float16 and bfloat16")))
    x = np.arange(8.0)
    return {
        "empty": [
            Case("(0,)", lambda: f(np.zeros(0)), Raises(ValueError, "empty along axis 0")),
            Case("(0, 4) float64", lambda: f(np.zeros((0, 4))), Gives(np.zeros((0, 4)), dtype=np.float64)),
            Case("(0, 4) float16", lambda: f(np.zeros((0, 4), np.float16)), Gives(np.zeros((0, 4)), dtype=np.float16)),
            Case("(0, 4) bfloat16", lambda: f(np.zeros((0, 4), BF16)), Gives(np.zeros((0, 4)), dtype=BF16)),
            Case("(4, 0) float16", lambda: f(np.zeros((4, 0), np.float16)), Raises(ValueError, "empty along axis 1")),
        ],
        "one element": [
            Case("float64", lambda: f(np.array([5.0])), Gives([5.0])),
            Case("int64 -2**63", lambda: f(np.array([-(2**63)])), Gives([-(2**63)], dtype=np.int64)),
            Case("uint32 mod 7 inverse", lambda: f(np.array([3], np.uint32), modulus=7, inverse=True), Gives([3])),
            Case("uint32 not below 7", lambda: f(np.array([9], np.uint32), modulus=7), Raises(ValueError, "below the modulus")),
            Case("float16 scale", lambda: f(np.array([2.0], np.float16), scale=0.5), Gives([1.0], dtype=np.float16)),
        ],
        "wrong length": [
            Case("int64 6", lambda: f(np.ones(6, np.int64)), Raises(ValueError, "not a power of two; pad with zeros to 8")),
            Case("float64 6", lambda: f(np.ones(6)), Raises(ValueError, "12·2^k")),
            Case("float64 12", lambda: f(np.arange(12.0)), Gives(nimcount.hadamard_matrix(12) @ np.arange(12.0))),
        ],
        "0-d": [
            Case(np.dtype(d).name, lambda d=d: f(np.zeros((), d)), Raises(ValueError, "0-d array has no axis"))
            for d in (np.float64, np.int64, np.float16)
        ],
        "64-d": [
            Case(np.dtype(d).name, lambda d=d: f(np.empty((1,) * 64, d)), Raises(ValueError, "64 dimensions; nimcount takes at most 32"))
            for d in (np.float64, np.int8, np.float16, BF16)
        ],
        "dtypes": dtypes,
        "non-contiguous": [
            Case("every other float64", lambda: advice_works(f, x[::2], wht(x[::2])), Gives(True)),
            Case("float16 (112, 3) axis 0", lambda: advice_works(
                f, np.ones((112, 3), np.float16), np.tile(f(np.ones(112, np.float32)), (3, 1)), axis=0), Gives(True)),
            Case("float64 (12, 3) axis 0", lambda: advice_works(
                f, np.ones((12, 3)), np.tile(f(np.ones(12)), (3, 1)), axis=0), Gives(True)),
            Case("transposed, contiguous along the axis", lambda: f(np.arange(24.0).reshape(3, 8).T.copy(order="F"), axis=0),
                 Gives(wht(np.arange(24.0).reshape(3, 8)).T)),
        ],
        "same buffer": [
            Case(np.dtype(d).name + " rows overlapping", lambda d=d: f(overlapping(d)), Raises(ValueError, "overlap in memory"))
            for d in (np.float64, np.int64, np.int8, np.uint32, np.float16)
        ],
        "nan and inf": [
            Case("nan", lambda: f(np.array([np.nan, 1, 2, 3])), Gives(wht([np.nan, 1, 2, 3]))),
            Case("inf", lambda: f(np.array([np.inf, -np.inf, 1, 0])), Gives(wht([np.inf, -np.inf, 1, 0]))),
            Case("float32 inf", lambda: f(np.array([np.inf, 0], np.float32)), Gives([np.inf, np.inf], dtype=np.float32)),
            Case("scale nan", lambda: f(np.ones(4), scale=math.nan), Raises(ValueError, "not a finite number")),
            Case("modulus nan", lambda: f(np.ones(4, np.uint64), modulus=math.nan), Raises(TypeError, "modulus must be an int")),
        ],
        "huge ints": [
            Case("modulus 10**100", lambda: f(np.ones(4, np.uint64), modulus=10**100 + 1), Raises(ValueError, "too large")),
            Case("modulus 2**100000", lambda: f(np.ones(4, np.uint32), modulus=2**100000 + 1), Raises(ValueError, "2^100000+1 is too large")),
            Case("threads 10**100", lambda: f(np.ones(4), threads=10**100), Raises(ValueError, "is too many")),
            Case("axis 10**30", lambda: f(np.ones(4), axis=10**30), Raises(ValueError, "out of bounds")),
            Case("axis -2**100000", lambda: f(np.ones(4, np.float16), axis=-(2**100000)), Raises(ValueError, "out of bounds")),
        ],
        "negative": [
            Case("modulus -7", lambda: f(np.ones(4, np.uint64), modulus=-7), Raises(ValueError, "at least 0")),
            Case("threads -1", lambda: f(np.ones(4), threads=-1), Raises(ValueError, "threads=-1")),
            Case("axis -2 of 1-d", lambda: f(np.ones(4), axis=-2), Raises(ValueError, "out of bounds")),
            Case("scale -1", lambda: f(np.ones(4), scale=-1.0), Gives([-4.0, 0, 0, 0])),
        ],
        "bool": [
            Case("modulus True", lambda: f(np.ones(4, np.uint64), modulus=True), Raises(TypeError, "bool")),
            Case("threads True", lambda: f(np.ones(4), threads=True), Raises(TypeError, "bool")),
            Case("axis True", lambda: f(np.ones((2, 4)), axis=True), Raises(TypeError, "bool")),
            Case("scale True", lambda: f(np.ones(4), scale=True), Raises(TypeError, "bool")),
            Case("a True", lambda: f(True), Raises(TypeError, "expected a NumPy array")),
        ],
        "lists": [Case("a list", lambda: f([1.0, 2.0]), Raises(TypeError, "np.asarray makes one; fwht works in place"))],
        "memory": [
            Limited("nimcount.fwht(np.ones(1 << 28, np.float16))", 3 * GIB // 2, (("MemoryError", "float32 working rows"),)),
            Limited("nimcount.fwht(np.ones(1 << 28, ml_dtypes.bfloat16))", 3 * GIB // 2, (("MemoryError", "float32 working rows"),)),
            Limited("nimcount.fwht(np.zeros(1 << 28, np.int64), inverse=True)", 3 * GIB, (("answered", ""), ("MemoryError", ""))),
        ],
    }


def hadamard_matrix_row():
    f = nimcount.hadamard_matrix
    h4 = sylvester(4)
    dtypes = [Case(np.dtype(d).name, lambda d=d: f(4, dtype=d), Gives(h4, dtype=d))
              for d in [np.int8, np.int16, np.int32, np.int64] + FLOAT_DTYPES]
    dtypes += [Case(np.dtype(d).name, lambda d=d: f(4, dtype=d), Raises(ValueError, "signed integer"))
               for d in [np.bool_, np.uint8, np.uint16, np.uint32, np.uint64] + OTHER_DTYPES]
    dtypes.append(Case("not a dtype", lambda: f(4, dtype="bogus"), Raises(TypeError, "not understood")))
    dtypes.append(Case("n a NumPy int", lambda: f(np.int64(2)), Gives([[1, 1], [1, -1]])))
    return {
        "empty": [Case("order 0", lambda: f(0), Raises(ValueError, "is not 2^k nor K·2^k"))],
        "one element": [Case("order 1", lambda: f(1), Gives([[1.0]], dtype=np.float64))],
        "wrong length": [
            Case("order 6", lambda: f(6), Raises(ValueError, "is not 2^k")),
            Case("order 24", lambda: f(24), Gives(check=lambda h: np.array_equal(h @ h.T, 24 * np.eye(24)))),
        ],
        "0-d": [Case("n a 0-d array", lambda: f(np.array(2)), Gives([[1, 1], [1, -1]]))],
        "64-d": "takes an order, not an array",
        "dtypes": dtypes,
        "non-contiguous": "takes an order, not an array",
        "same buffer": "takes an order, not an array",
        "nan and inf": [
            Case("nan", lambda: f(math.nan), Raises(TypeError, "n must be an int")),
            Case("inf", lambda: f(math.inf), Raises(TypeError, "n must be an int")),
        ],
        "huge ints": [
            Case("2**40", lambda: f(2**40), Raises(MemoryError, "needs more than")),
            Case("10**100", lambda: f(10**100), Raises(MemoryError, "a Hadamard matrix of order")),
            Case("2**100000", lambda: f(2**100000), Raises(MemoryError, "2^100000")),
        ],
        "negative": [Case("-4", lambda: f(-4), Raises(ValueError, "order -4 is not"))],
        "bool": [Case("True", lambda: f(True), Raises(TypeError, "bool"))],
        "lists": [Case("n a list", lambda: f([4]), Raises(TypeError, "n must be an int"))],
        "memory": [
            Limited("nimcount.hadamard_matrix(2**15)", 3 * GIB, (("MemoryError", "order 32768"),)),
            Limited("nimcount.hadamard_matrix(2**14)", 3 * GIB // 2, (("MemoryError", "order 16384"),)),
            Limited("nimcount.hadamard_matrix(2**14, np.int8)", 3 * GIB // 2, (("answered", ""),)),
        ],
    }


def dao_reference(x, k):
    """fast-hadamard-transform's padding (to a multiple of 8, or 4k; then to k·2^j) and product."""
    x = np.asarray(x, np.float64)
    dim = x.shape[-1]
    unit = 8 if k == 1 else 4 * k
    n = k * (1 << (-(-dim // unit) * unit // k - 1).bit_length())
    z = np.zeros(x.shape[:-1] + (n,))
    z[..., :dim] = x
    family = None if k == 1 else "fast-hadamard-transform"
    with np.errstate(invalid="ignore"):
        return (z @ nimcount.hadamard_matrix(n, factor=k, family=family).T)[..., :dim]


def dropin_row(name):
    """A drop-in of fast-hadamard-transform (``k`` from its name) or QuIP#/QuaRot (matmul_hadU):
    out of place, so views, overlapping rows and read-only arrays are answered from a copy."""
    f = getattr(nimcount, name)
    k = 0 if name == "matmul_hadU" else int(name[len("hadamard_transform_"):-1] or 1) if name != "hadamard_transform" else 1
    if k:
        call, ref = f, lambda x: dao_reference(x, k)
    else:
        call = f
        ref = lambda x: np.asarray(x, np.float64) @ nimcount.hadamard_matrix(  # noqa: E731
            np.shape(x)[-1], family="sloane").T / math.sqrt(np.shape(x)[-1])
    x8 = np.arange(8.0) - 3

    def near(expected):
        """Equal to ``expected`` but for the last rounding (NaN where it has NaN)."""
        return Gives(check=lambda y: np.allclose(np.asarray(y, np.float64), expected, rtol=1e-12, atol=0, equal_nan=True))

    dtypes = [Case(np.dtype(d).name, lambda d=d: call(x8.astype(d)), Gives(check=lambda y, d=d: y.dtype == np.dtype(d)
              and np.allclose(np.asarray(y, np.float64), ref(x8), atol=0.1)))
              for d in FLOAT_DTYPES]
    dtypes += [Case(np.dtype(d).name, lambda d=d: call(np.zeros(8, d)), Raises(ValueError, "unsupported dtype"))
               for d in INT_DTYPES + [np.bool_] + OTHER_DTYPES]
    wrong = ([Case("6", lambda: call(np.ones(6)), near(ref(np.ones(6)))),
              Case("13", lambda: call(np.arange(13.0)), near(ref(np.arange(13.0))))] if k else
             [Case("6", lambda: call(np.ones(6)), Raises(ValueError, "is not")),
              Case("516 = 172·3", lambda: call(np.ones(516)), Raises(ValueError, "is not")),
              Case("44·2", lambda: call(np.arange(88.0)), Gives(check=lambda y: np.allclose(y, ref(np.arange(88.0)), rtol=1e-12)))])
    scale = {"scale": 0.5} if k else {}
    x = np.arange(16.0)
    return {
        "empty": [
            Case("(0,)", lambda: call(np.zeros(0)), Raises(ValueError, "empty")),
            Case("(0, 8)", lambda: call(np.zeros((0, 8))), Gives(np.zeros((0, 8)), dtype=np.float64)),
        ],
        "one element": [Case("[5]", lambda: call(np.array([5.0])), Gives([5.0]))],
        "wrong length": wrong,
        "0-d": [Case("0-d", lambda: call(np.array(2.0)), Raises(ValueError, "0-d"))],
        "64-d": [Case("64-d", lambda: call(np.ones((1,) * 64)), Raises(ValueError, "at most 32"))],
        "dtypes": dtypes,
        "non-contiguous": [
            Case("every other", lambda: call(x[::2], **scale), near(ref(x[::2]) * (0.5 if k else 1))),
            Case("transposed", lambda: call(np.arange(32.0).reshape(8, 4).T), near(ref(np.arange(32.0).reshape(8, 4).T))),
        ],
        "same buffer": [
            Case("rows overlapping (read, not written)", lambda: call(overlapping(np.float64)), near(ref(np.zeros((4, 4))))),
            Case("read-only", lambda: call((lambda a: (a.setflags(write=False), a)[1])(np.ones(8))), near(ref(np.ones(8)))),
        ],
        "nan and inf": [
            Case("nan", lambda: call(np.array([np.nan, 1, 2, 3, 0, 0, 0, 0])), near(ref([np.nan, 1, 2, 3, 0, 0, 0, 0]))),
            Case("inf", lambda: call(np.array([np.inf, 0, 0, 0, 0, 0, 0, 0])), near(ref([np.inf, 0, 0, 0, 0, 0, 0, 0]))),
        ] + ([Case("scale nan", lambda: call(np.ones(8), math.nan), Raises(ValueError, "not a finite number"))] if k else []),
        "huge ints": ([Case("scale 10**400", lambda: call(np.ones(8), 10**400), Raises(TypeError, "scale must be a real number"))]
                      if k else "takes no integer"),
        "negative": [Case("negative values", lambda: call(-np.ones(8)), near(-ref(np.ones(8))))]
        + ([Case("scale -1", lambda: call(np.ones(8), -1.0), near(-ref(np.ones(8))))] if k else []),
        "bool": [Case("x True", lambda: call(True), Raises(TypeError, "expected a NumPy array"))]
        + ([Case("scale True", lambda: call(np.ones(8), True), Raises(TypeError, "bool"))] if k else
           [Case("transpose 1", lambda: call(np.ones(8), transpose=1), Raises(TypeError, "transpose must be a bool"))]),
        "lists": [Case("a list", lambda: call([1.0, 2.0]), Raises(TypeError, "expected a NumPy array"))],
        "memory": [Limited(f"nimcount.{name}(np.ones(1 << 28, np.float16))", 3 * GIB // 2, (("MemoryError", ""),))],
    }


def convolution_row(name):
    f = getattr(nimcount, name)
    op = OPS[name]
    a4, b4 = np.array([1, 2, 3, 4]), np.array([5, 6, 7, 8])
    want = by_definition(a4, b4, op)
    ones_want = by_definition(np.ones(4, int), np.ones(4, int), op)
    xor = name == "xor_convolve"
    dtypes = [Case("bool", lambda: f(np.ones(4, np.bool_), np.ones(4, np.bool_)), Raises(ValueError, "bool arrays"))]
    for dtype in INT_DTYPES:
        d = np.dtype(dtype)
        wide = {"i": np.int64, "u": np.uint32 if d.itemsize < 4 else dtype}[d.kind]
        ring = {"modulus": 1_000_003} if d.kind == "u" else {}
        dtypes.append(Case(d.name, lambda d=d, r=ring: f(a4.astype(d), b4.astype(d), **r), Gives(want, dtype=wide)))
    for dtype in (np.uint32, np.uint64):
        outcome = Raises(ValueError, "need modulus=") if xor else Gives(np.array(ones_want), dtype=dtype)
        dtypes.append(Case(np.dtype(dtype).name + " without modulus",
                           lambda d=dtype: f(np.ones(4, d), np.ones(4, d)), outcome))
    for dtype in (np.float32, np.float64):
        dtypes.append(Case(np.dtype(dtype).name, lambda d=dtype: f(a4.astype(d), b4.astype(d)), Gives(want, dtype=dtype)))
    for dtype in (np.float16, BF16):
        dtypes.append(Case(dtype.name if hasattr(dtype, "name") else str(dtype), lambda d=dtype: f(np.ones(4, d), np.ones(4, d)),
                           Raises(ValueError, "a.astype(np.float32)")))
    for dtype in OTHER_DTYPES:
        dtypes.append(Case(np.dtype(dtype).name, lambda d=dtype: f(np.zeros(4, d), np.zeros(4, d)),
                           Raises(ValueError, "fwht also float16 and bfloat16")))
    dtypes.append(Case("float32 and float64", lambda: f(np.ones(4, np.float32), np.ones(4)), Raises(ValueError, "same dtype")))
    x = np.arange(16.0)
    return {
        "empty": [
            Case("[]", lambda: f([], []), Raises(ValueError, "empty along axis 0")),
            Case("(0, 4)", lambda: f(np.zeros((0, 4)), np.zeros((0, 4))), Gives(np.zeros((0, 4)), dtype=np.float64)),
        ],
        "one element": [
            Case("[3] [5]", lambda: f([3], [5]), Gives([15], dtype=np.int64)),
            Case("int64 -2**63 times 1", lambda: f(np.array([-(2**63)]), np.array([1])), Gives([-(2**63)], dtype=np.int64)),
            Case("int64 -2**63 times 2", lambda: f(np.array([-(2**63)]), np.array([2])), Raises(ValueError, "overflow")),
            Case("uint64 mod 7", lambda: f(np.array([3], np.uint64), np.array([5], np.uint64), modulus=7), Gives([1])),
        ],
        "wrong length": [
            Case("3", lambda: f([1, 2, 3], [1, 2, 3]), Raises(ValueError, "not a power of two")),
            Case("2 and 4", lambda: f([1, 2], [1, 2, 3, 4]), Raises(ValueError, "same shape")),
        ],
        "0-d": [Case("0-d", lambda: f(np.array(1.0), np.array(1.0)), Raises(ValueError, "0-d array has no axis"))],
        "64-d": [Case("64-d", lambda: f(np.empty((1,) * 64), np.empty((1,) * 64)), Raises(ValueError, "64 dimensions"))],
        "dtypes": dtypes,
        "non-contiguous": [
            Case("every other", lambda: f(x[::2], x[::-2]), Gives(by_definition(x[::2], x[::-2], op), dtype=np.float64)),
            Case("axis 0 of a transposed view", lambda: f(np.arange(8.0).reshape(2, 4).T, np.ones((4, 2)), axis=0),
                 Gives(np.array([by_definition(r, np.ones(4), op) for r in np.arange(8.0).reshape(2, 4)]).T)),
        ],
        "same buffer": [
            Case("f(a, a)", lambda: (lambda a: (f(a, a), a))(a4.copy()),
                 Gives(check=lambda r: r[0].tolist() == by_definition(a4, a4, op) and r[1].tolist() == a4.tolist())),
        ],
        "nan and inf": [
            Case("nan", lambda: warned(lambda: f(np.array([np.nan, 1, 1, 1]), np.ones(4))), Gives(check=lambda r: np.isnan(r).any())),
            Case("modulus inf", lambda: f([1, 1], [1, 1], modulus=math.inf), Raises(TypeError, "modulus must be an int")),
        ],
        "huge ints": [
            Case("modulus 10**100", lambda: f(np.ones(4, np.uint64), np.ones(4, np.uint64), modulus=10**100 + 1),
                 Raises(ValueError, "too large")),
            Case("threads 10**100", lambda: f(np.ones(4), np.ones(4), threads=10**100), Raises(ValueError, "is too many")),
            Case("axis 10**30", lambda: f(np.ones(4), np.ones(4), axis=10**30), Raises(ValueError, "out of bounds")),
            Case("list element 10**100", lambda: f([10**100, 1], [1, 1], modulus=7), Raises(ValueError, "outside 0 .. 2**64 - 1")),
            Case("list element 2**63", lambda: f([2**63, 1], [1, 1], modulus=(1 << 63) - 1), Raises(ValueError, "below the modulus")),
        ],
        "negative": [
            Case("modulus -7", lambda: f([1, 1], [1, 1], modulus=-7), Raises(ValueError, "at least 0")),
            Case("threads -1", lambda: f(np.ones(4), np.ones(4), threads=-1), Raises(ValueError, "threads=-1")),
            Case("list element -1 with modulus", lambda: f([-1, 1], [1, 1], modulus=7), Raises(ValueError, "reduce it first")),
            Case("int64 -1", lambda: f([-1, 2], [3, -4]), Gives(by_definition([-1, 2], [3, -4], op), dtype=np.int64)),
        ],
        "bool": [
            Case("modulus True", lambda: f([1, 1], [1, 1], modulus=True), Raises(TypeError, "bool")),
            Case("threads True", lambda: f(np.ones(4), np.ones(4), threads=True), Raises(TypeError, "bool")),
            Case("axis True", lambda: f(np.ones((2, 4)), np.ones((2, 4)), axis=True), Raises(TypeError, "bool")),
            Case("a True", lambda: f(True, True), Raises(TypeError, "not bool")),
        ],
        "lists": [
            Case("modulus", lambda: f([1, 1, 1, 1], [1, 1, 1, 1], modulus=10**9 + 7), Gives(ones_want, dtype=np.uint64)),
            Case("threads=1", lambda: f([1, 2, 3, 4], [5, 6, 7, 8], threads=1), Gives(want, dtype=np.int64)),
            Case("threads=3", lambda: f(np.ones((64, 8)), np.ones((64, 8)), threads=3),
                 Gives(np.tile(by_definition(np.ones(8), np.ones(8), op), (64, 1)))),
        ],
        "memory": {
            "xor_convolve": [Limited("nimcount.xor_convolve(np.zeros(1 << 27), np.zeros(1 << 27))", 2 * GIB,
                                     (("MemoryError", ""),))],
            # The library's copies of both operands once made these abort.
            "and_convolve": [
                Limited("nimcount.and_convolve(np.zeros(1 << 26, np.uint32), np.zeros(1 << 26, np.uint32))", 3 * GIB // 2,
                        (("answered", "uint32 (67108864,)"), ("MemoryError", ""))),
                Limited("nimcount.and_convolve(np.zeros(1 << 26, np.uint64), np.zeros(1 << 26, np.uint64))", 3 * GIB // 2,
                        (("MemoryError", ""),)),
            ],
            "or_convolve": [
                Limited("nimcount.or_convolve(np.zeros(1 << 25), np.zeros(1 << 25))", 3 * GIB // 2,
                        (("answered", "float64 (33554432,)"), ("MemoryError", ""))),
            ],
            "subset_convolve": [
                Limited("nimcount.subset_convolve(np.zeros(1 << 24, np.uint32), np.zeros(1 << 24, np.uint32), modulus=7)",
                        3 * GIB // 2, (("MemoryError", "ranked transforms"),)),
            ],
        }[name],
    }


def zeta_row():
    f = nimcount.zeta
    want = [1, 3, 4, 10]
    dtypes = [Case("bool", lambda: f(np.ones(4, np.bool_)), Raises(ValueError, "bool arrays"))]
    for dtype in INT_DTYPES + [np.float32, np.float64]:
        dtypes.append(Case(np.dtype(dtype).name, lambda d=dtype: f(np.array([1, 2, 3, 4], d)), Gives(want, dtype=dtype)))
    for dtype in (np.float16, BF16):
        dtypes.append(Case(np.dtype(dtype).name, lambda d=dtype: f(np.ones(4, d)), Raises(ValueError, "a.astype(np.float32)")))
    for dtype in OTHER_DTYPES:
        dtypes.append(Case(np.dtype(dtype).name, lambda d=dtype: f(np.zeros(4, d)), Raises(ValueError, "float16 and bfloat16")))
    return {
        "empty": [
            Case("(0,)", lambda: f(np.zeros(0)), Raises(ValueError, "empty along axis 0")),
            Case("(0, 4)", lambda: f(np.zeros((0, 4))), Gives(np.zeros((0, 4)))),
        ],
        "one element": [Case("int64 -2**63", lambda: f(np.array([-(2**63)])), Gives([-(2**63)]))],
        "wrong length": [Case("6", lambda: f(np.ones(6)), Raises(ValueError, "not a power of two"))],
        "0-d": [Case("0-d", lambda: f(np.zeros(())), Raises(ValueError, "0-d array has no axis"))],
        "64-d": [Case("64-d", lambda: f(np.empty((1,) * 64)), Raises(ValueError, "64 dimensions"))],
        "dtypes": dtypes,
        "non-contiguous": [
            Case("every other", lambda: (lambda x: (f(x[::2]), x))(np.arange(8.0)),
                 Gives(check=lambda r: r[1].tolist() == [0, 1, 2, 3, 4, 5, 12, 7])),
        ],
        "same buffer": [Case("rows overlapping", lambda: f(overlapping(np.float64)), Raises(ValueError, "overlap in memory"))],
        "nan and inf": [Case("nan", lambda: f(np.array([np.nan, 1.0])), Gives([np.nan, np.nan]))],
        "huge ints": [
            Case("modulus 10**100", lambda: f(np.ones(4, np.uint64), modulus=10**100 + 1), Raises(ValueError, "too large")),
            Case("axis 10**30", lambda: f(np.ones(4), axis=10**30), Raises(ValueError, "out of bounds")),
            Case("threads 10**100", lambda: f(np.ones(4), threads=10**100), Raises(ValueError, "is too many")),
        ],
        "negative": [
            Case("modulus -7", lambda: f(np.ones(4, np.uint64), modulus=-7), Raises(ValueError, "at least 0")),
            Case("threads -1", lambda: f(np.ones(4), threads=-1), Raises(ValueError, "threads=-1")),
        ],
        "bool": [
            Case("axis True", lambda: f(np.ones((2, 4)), axis=True), Raises(TypeError, "bool")),
            Case("threads True", lambda: f(np.ones(4), threads=True), Raises(TypeError, "bool")),
            Case("modulus True", lambda: f(np.ones(4, np.uint64), modulus=True), Raises(TypeError, "bool")),
        ],
        "lists": [
            Case("a list", lambda: f([1, 2]), Raises(TypeError, "zeta works in place")),
            Case("threads=1", lambda: f(np.array([1, 2, 3, 4]), threads=1), Gives(want)),
        ],
        "memory": [Limited("nimcount.zeta(np.zeros(1 << 28))", 3 * GIB, (("MemoryError", ""), ("answered", "")))],
    }


def xor_power_row():
    f = nimcount.xor_power
    M = 10**9 + 7
    dtypes = [Case("bool", lambda: f(np.ones(4, np.bool_), 2), Raises(ValueError, "bool arrays"))]
    for dtype in INT_DTYPES + [np.float32, np.float64]:
        d = np.dtype(dtype)
        ring = {"modulus": M} if d.kind == "u" else {}
        dtypes.append(Case(d.name, lambda d=d, r=ring: f(np.ones(4, d), 3, **r), Gives([16, 16, 16, 16])))
    for dtype in (np.float16, BF16):
        dtypes.append(Case(np.dtype(dtype).name, lambda d=dtype: f(np.ones(4, d), 2), Raises(ValueError, "a.astype(np.float32)")))
    for dtype in OTHER_DTYPES:
        dtypes.append(Case(np.dtype(dtype).name, lambda d=dtype: f(np.zeros(4, d), 2), Raises(ValueError, "unsupported dtype")))
    return {
        "empty": [Case("[]", lambda: f([], 2), Raises(ValueError, "empty along axis 0"))],
        "one element": [Case("[3] ** 4", lambda: f([3], 4), Gives([81])), Case("k 0", lambda: f([3, 5], 0), Gives([1, 0]))],
        "wrong length": [Case("3", lambda: f([1, 2, 3], 2), Raises(ValueError, "not a power of two"))],
        "0-d": [Case("0-d", lambda: f(np.array(2.0), 2), Raises(ValueError, "0-d array has no axis"))],
        "64-d": [Case("64-d", lambda: f(np.empty((1,) * 64), 2), Raises(ValueError, "64 dimensions"))],
        "dtypes": dtypes,
        "non-contiguous": [Case("every other", lambda: f(np.arange(8)[::2], 2), Gives(by_definition([0, 2, 4, 6], [0, 2, 4, 6], OPS["xor_convolve"])))],
        "same buffer": "one array: a new array is returned",
        "nan and inf": [
            Case("nan", lambda: warned(lambda: f(np.array([np.nan, 1.0]), 2)), Gives([np.nan, np.nan])),
            Case("k nan", lambda: f([1.0, 1.0], math.nan), Raises(TypeError, "k must be an int")),
        ],
        "huge ints": [
            Case("k 10**100 mod", lambda: int(f(np.ones(4, np.uint64), 10**100, modulus=M)[0]), Gives(990979451)),
            Case("k 2**100000 mod", lambda: f([1, 1, 1, 1], 2**100000, modulus=M),
                 Gives([pow(4, 2**100000 - 1, M)] * 4, dtype=np.uint64)),
            Case("k 2**100000 int64", lambda: f([1, 1], 2**100000), Raises(ValueError, "overflow")),
            Case("k 2**100000 float64", lambda: warned(lambda: f([1.0, 1.0], 2**100000)), Gives([np.inf, np.inf])),
        ],
        "negative": [
            Case("k -1", lambda: f([1.0, 1.0], -1), Raises(ValueError, "k must be at least 0")),
            Case("list -1 with modulus", lambda: f([-1, 1], 2, modulus=7), Raises(ValueError, "reduce it first")),
        ],
        "bool": [
            Case("k True", lambda: f([1.0, 1.0], True), Raises(TypeError, "bool")),
            Case("axis True", lambda: f(np.ones((2, 2)), 2, axis=True), Raises(TypeError, "bool")),
            Case("threads True", lambda: f(np.ones(2), 2, threads=True), Raises(TypeError, "bool")),
        ],
        "lists": [
            Case("modulus", lambda: f([1, 1, 1, 1], 3, modulus=M), Gives([16, 16, 16, 16], dtype=np.uint64)),
            Case("threads=1", lambda: f(np.ones((8, 4)), 3, threads=1), Gives(np.full((8, 4), 16.0))),
        ],
        "memory": [Limited("nimcount.xor_power(np.zeros(1 << 28), 2)", 3 * GIB, (("MemoryError", ""), ("answered", "")))],
    }


def count_row():
    f = nimcount.count
    M = 10**9 + 7
    hist = {0: 1, 1: 2, 2: 3}
    dict_answer = f(histogram=hist, heaps=2).losing
    dtypes = []
    for dtype in INT_DTYPES:
        dtypes.append(Case(np.dtype(dtype).name, lambda d=dtype: f(histogram=np.array([1, 2, 3], d), heaps=2).losing,
                           Gives(dict_answer)))
    for dtype in [np.bool_] + FLOAT_DTYPES + OTHER_DTYPES:
        dtypes.append(Case(np.dtype(dtype).name, lambda d=dtype: f(histogram=np.ones(3, d), heaps=2),
                           Raises(ValueError, "integer dtype")))
    dtypes.append(Case("NumPy ints as arguments", lambda: f("nim", (np.uint8(1), np.int64(3)), np.int32(3)).losing, Gives(6)))
    return {
        "empty": [
            Case("range(5, 5)", lambda: f("nim", range(5, 5), 3), Raises(ValueError, "is empty")),
            Case("histogram {}", lambda: f(histogram={}, heaps=2), Raises(ValueError, "empty")),
            Case("parts []", lambda: f(parts=[]), Raises(ValueError, "at least one component")),
            Case("heaps 0", lambda: f("nim", (1, 5), 0).losing, Gives(1)),
        ],
        "one element": [
            Case("one size one heap", lambda: f("nim", (3, 3), 1).losing, Gives(0)),
            Case("histogram of one value", lambda: f(histogram={0: 1}, heaps=5).losing, Gives(1)),
        ],
        "wrong length": [
            Case("sizes of three", lambda: f("nim", (1, 2, 3), 3), Raises(ValueError, "a pair (lo, hi)")),
            Case("lo above hi", lambda: f("nim", (5, 1), 3), Raises(ValueError, "5 is above 1")),
        ],
        "0-d": [Case("0-d histogram", lambda: f(histogram=np.array(5), heaps=2), Raises(ValueError, "not 0-d"))],
        "64-d": [Case("64-d histogram", lambda: f(histogram=np.ones((1,) * 64, np.int64), heaps=2), Raises(ValueError, "not 64-d"))],
        "dtypes": dtypes,
        "non-contiguous": [
            Case("strided histogram", lambda: f(histogram=np.arange(8, dtype=np.int64)[::2], heaps=2).losing,
                 Gives(f(histogram={0: 0, 1: 2, 2: 4, 3: 6}, heaps=2).losing)),
        ],
        "same buffer": "one array, read only",
        "nan and inf": [
            Case("size nan", lambda: f("nim", (1, math.nan), 3), Raises(TypeError, "must be an int")),
            Case("modulus inf", lambda: f("nim", (1, 5), 3, modulus=math.inf), Raises(TypeError, "must be an int")),
            Case("max_work nan", lambda: f("nim", (1, 5), 3, max_work=math.nan), Raises(TypeError, "must be an int")),
        ],
        "huge ints": [
            Case("sizes of 100000 bits", lambda: f("nim", (0, 2**100000 - 1), 2, modulus=M).losing, Gives(pow(2, 100000, M))),
            Case("heaps 10**100", lambda: f("nim", (0, 1), 10**100, modulus=M).losing, Gives(pow(2, 10**100 - 1, M))),
            Case("max_states 10**100", lambda: f("kayles", (0, 5), 2, misere=True, max_states=10**100), Raises(ValueError, "below 2^64")),
            Case("exact misère answer too large", lambda: f("kayles", (0, 10**12), 10**9, misere=True, unordered=True),
                 Raises(nimcount.TooCostly, "give a modulus")),
        ],
        "negative": [
            Case("heaps -1", lambda: f("nim", (1, 5), -1), Raises(ValueError, "at least 0")),
            Case("size -1", lambda: f("nim", (-1, 5), 3), Raises(ValueError, "at least 0")),
            Case("modulus -7", lambda: f("nim", (1, 5), 3, modulus=-7), Raises(ValueError, "at least 0")),
            Case("max_states -1", lambda: f("kayles", (0, 5), 2, misere=True, max_states=-1), Raises(ValueError, "at least 0")),
            Case("max_order 0", lambda: f("kayles", (0, 5), 2, misere=True, max_order=0), Raises(ValueError, "out of range")),
        ],
        "bool": [
            Case("heaps True", lambda: f("nim", (1, 5), True), Raises(TypeError, "bool")),
            Case("modulus True", lambda: f("nim", (1, 5), 3, modulus=True), Raises(TypeError, "bool")),
            Case("size True", lambda: f("nim", (True, 5), 3), Raises(TypeError, "bool")),
            Case("max_states True", lambda: f("kayles", (0, 5), 2, misere=True, max_states=True), Raises(TypeError, "bool")),
        ],
        "lists": [Case("sizes a list", lambda: f("nim", [1, 3], 3).losing, Gives(6))],
        "memory": [
            Limited("nimcount.count(histogram=np.ones(1 << 26, np.uint64), heaps=3, modulus=7)", 3 * GIB // 2,
                    (("answered", ""), ("MemoryError", ""))),
        ],
    }


def grundy_row():
    f = nimcount.grundy
    return {
        "empty": [Case("first 0", lambda: f("nim", 0), Gives(np.zeros(0), dtype=np.uint64)),
                  Case("game ''", lambda: f("", 3), Raises(ValueError, "empty specification"))],
        "one element": [Case("first 1", lambda: f("octal:0.137", 1), Gives([0], dtype=np.uint64))],
        "wrong length": [Case("a spec cut short", lambda: f("subtract:", 3), Raises(ValueError, "subtract"))],
        "0-d": [Case("first a 0-d array", lambda: f("nim", np.array(3)), Gives([0, 1, 2]))],
        "64-d": "takes a game and a count, not an array",
        "dtypes": [Case("first a NumPy uint8", lambda: f("nim", np.uint8(3)), Gives([0, 1, 2])),
                   Case("first a float", lambda: f("nim", 3.0), Raises(TypeError, "first must be an int"))],
        "non-contiguous": "takes a game and a count, not an array",
        "same buffer": "takes a game and a count, not an array",
        "nan and inf": [Case("max_seconds nan", lambda: f("nim", 3, max_seconds=math.nan), Raises(ValueError, "positive number")),
                        Case("max_seconds inf", lambda: f("nim", 3, max_seconds=math.inf), Gives([0, 1, 2]))],
        "huge ints": [
            Case("first 10**100", lambda: f("nim", 10**100), Raises(ValueError, "below 2^64")),
            Case("first 2**63", lambda: f("octal:0.6", 2**63), Raises(nimcount.TooCostly, "beyond the limit")),
        ],
        "negative": [Case("first -1", lambda: f("nim", -1), Raises(ValueError, "at least 0")),
                     Case("max_seconds -1", lambda: f("nim", 3, max_seconds=-1), Raises(ValueError, "positive"))],
        "bool": [Case("first True", lambda: f("nim", True), Raises(TypeError, "bool")),
                 Case("max_seconds True", lambda: f("nim", 3, max_seconds=True), Raises(TypeError, "bool"))],
        "lists": [Case("first a list", lambda: f("nim", [3]), Raises(TypeError, "first must be an int"))],
        "memory": [Limited("nimcount.grundy('octal:0.6', 2**40, max_seconds=1e12)", 3 * GIB // 2,
                           (("TooCostly", "beyond the limit"),))],
    }


def period_row():
    f = nimcount.period
    return {
        "empty": [Case("game ''", lambda: f(""), Raises(ValueError, "empty specification")),
                  Case("max_heap 0", lambda: f("octal:0.6", max_heap=0).period, Gives(None))],
        "one element": [Case("max_heap 1", lambda: f("nim", max_heap=1).saltus, Gives(1))],
        "wrong length": [Case("a spec cut short", lambda: f("octal:"), Raises(ValueError, "octal"))],
        "0-d": "takes a game, not an array",
        "64-d": "takes a game, not an array",
        "dtypes": [Case("max_heap a NumPy int", lambda: f("octal:0.77", max_heap=np.int64(200)).period, Gives(12))],
        "non-contiguous": "takes a game, not an array",
        "same buffer": "takes a game, not an array",
        "nan and inf": [Case("max_heap nan", lambda: f("nim", max_heap=math.nan), Raises(TypeError, "must be an int"))],
        "huge ints": [Case("max_heap 10**100", lambda: f("nim", max_heap=10**100), Raises(ValueError, "below 2^64")),
                      Case("max_heap 2**40", lambda: f("octal:0.6", max_heap=2**40), Raises(nimcount.TooCostly, "heap sizes"))],
        "negative": [Case("max_heap -1", lambda: f("nim", max_heap=-1), Raises(ValueError, "at least 0"))],
        "bool": [Case("max_heap True", lambda: f("nim", max_heap=True), Raises(TypeError, "bool"))],
        "lists": [Case("game a list", lambda: f(["nim"]), Raises(TypeError, ""))],
        "memory": [Limited("nimcount.period('octal:0.6', max_heap=2**31)", 3 * GIB // 2,
                           (("MemoryError", ""), ("TooCostly", "")))],
    }


def play_row():
    f = nimcount.play
    return {
        "empty": [Case("no heaps", lambda: f("nim", []).verdict, Gives("lost")),
                  Case("no heaps, misère", lambda: f("nim", [], misere=True).verdict, Gives("won"))],
        "one element": [Case("one heap", lambda: [str(m) for m in f("nim", [5]).moves], Gives(["heap 1: 5 → 0"]))],
        "wrong length": "any number of heaps is a position",
        "0-d": [Case("heaps a 0-d array", lambda: f("nim", np.array(3)), Raises(TypeError, ""))],
        "64-d": "takes heap sizes, not an array of them",
        "dtypes": [Case(np.dtype(d).name, lambda d=d: f("nim", np.array([3, 4, 5], d)).verdict, Gives("won")) for d in INT_DTYPES]
        + [Case("float64", lambda: f("nim", np.array([3.0, 4.0])), Raises(TypeError, "a heap must be an int"))],
        "non-contiguous": [Case("strided", lambda: f("nim", np.array([3, 0, 4, 0, 7])[::2]).verdict, Gives("lost"))],
        "same buffer": "heap sizes are read, never written",
        "nan and inf": [Case("nan", lambda: f("nim", [math.nan]), Raises(TypeError, "a heap must be an int"))],
        "huge ints": [
            Case("2**100000 twice", lambda: f("nim", [2**100000, 2**100000]).verdict, Gives("lost")),
            Case("kayles 10**100 twice", lambda: f("kayles", [10**100, 10**100]).verdict, Gives("lost")),
            Case("max_heap 10**100", lambda: f("nim", [3], max_heap=10**100), Raises(ValueError, "below 2^64")),
        ],
        "negative": [Case("-1", lambda: f("nim", [-1]), Raises(ValueError, "at least 0"))],
        "bool": [Case("[True]", lambda: f("nim", [True, 2]), Raises(TypeError, "bool")),
                 Case("heaps True", lambda: f("nim", True), Raises(TypeError, "bool"))],
        "lists": [Case("a generator", lambda: f("nim", (h for h in [1, 1])).verdict, Gives("lost"))],
        "memory": [
            Limited("nimcount.play('moore:5000', [(i * 7919) % 10**6 + 1 for i in range(15000)])", 3 * GIB,
                    (("answered", ""), ("TooCostly", ""), ("MemoryError", ""))),
            Limited("nimcount.play('squares', [100000, 7], misere=True)", 2 * GIB, (("TooCostly", "misère search"),)),
            Limited("nimcount.play('kayles', [10**(10**6), 3])", 2 * GIB, (("ValueError", "bits"), ("TooCostly", ""))),
        ],
    }


def misere_quotient_row():
    f = nimcount.misere_quotient
    return {
        "empty": [Case("game ''", lambda: f(""), Raises(ValueError, "empty specification"))],
        "one element": [Case("max_heap 1", lambda: f("kayles", max_heap=1).largest_heap, Gives(1)),
                        Case("max_heap 1 of nim", lambda: f("nim", max_heap=1).order, Gives(2))],
        "wrong length": [Case("a spec cut short", lambda: f("octal:0."), Raises(ValueError, ""))],
        "0-d": "takes a game, not an array",
        "64-d": "takes a game, not an array",
        "dtypes": [Case("max_order a NumPy int", lambda: f("octal:0.75", max_order=np.int32(100)).order, Gives(8))],
        "non-contiguous": "takes a game, not an array",
        "same buffer": "takes a game, not an array",
        "nan and inf": [Case("max_seconds nan", lambda: f("kayles", max_seconds=math.nan), Raises(TypeError, "must be an int"))],
        "huge ints": [Case("max_states 10**100", lambda: f("kayles", max_states=10**100), Raises(ValueError, "below 2^64")),
                      Case("max_heap 2**64", lambda: f("kayles", max_heap=2**64), Raises(ValueError, "below 2^64"))],
        "negative": [Case("max_heap -1", lambda: f("kayles", max_heap=-1), Raises(ValueError, "at least 0")),
                     Case("max_states 0", lambda: f("kayles", max_states=0), Raises(ValueError, "out of range"))],
        "bool": [Case("max_heap True", lambda: f("kayles", max_heap=True), Raises(TypeError, "bool"))],
        "lists": [Case("game a list", lambda: f(["kayles"]), Raises(TypeError, ""))],
        "memory": [Limited("nimcount.misere_quotient('octal:0.6', max_states=10**8, max_order=16384, max_heap=100000, "
                           "max_seconds=10**6)", 3 * GIB // 2,
                           (("MemoryError", ""), ("TooCostly", ""), ("QuotientNotFound", "")))],
    }


def survey_row():
    f = nimcount.survey
    quick = {"max_seconds_per_game": 0.2}
    return {
        "empty": [Case("pattern ''", lambda: f(""), Raises(ValueError, "invalid pattern")),
                  Case("no patterns", lambda: f([]), Raises(ValueError, "no pattern"))],
        "one element": [Case("one game", lambda: [r["game"] for r in f("octal:0.7", **quick)], Gives(["octal:0.7"]))],
        "wrong length": [Case("a pattern cut short", lambda: f("octal:"), Raises(ValueError, "one digit before the point"))],
        "0-d": "takes patterns, not an array",
        "64-d": "takes patterns, not an array",
        "dtypes": [Case("seconds a NumPy float32", lambda: len(f("octal:0.?", max_seconds_per_game=np.float32(0.2))), Gives(7)),
                   Case("max_heap a NumPy int", lambda: len(f("octal:0.?", max_heap=np.int64(50), **quick)), Gives(7))],
        "non-contiguous": "takes patterns, not an array",
        "same buffer": "takes patterns, not an array",
        "nan and inf": [Case("seconds nan", lambda: f("octal:0.?", max_seconds_per_game=math.nan), Raises(ValueError, "positive number")),
                        Case("seconds inf", lambda: f("octal:0.?", max_seconds_per_game=math.inf), Raises(ValueError, "positive number"))],
        "huge ints": [Case("push 10**100", lambda: f("octal:0.?", push=10**100), Raises(ValueError, "below 2^64")),
                      Case("subtract:{1..10**100}", lambda: f("subtract:{1..%d}" % 10**100), Raises(ValueError, "invalid pattern"))],
        "negative": [Case("max_states -1", lambda: f("octal:0.?", max_states=-1), Raises(ValueError, "at least 0")),
                     Case("seconds -1", lambda: f("octal:0.?", max_seconds_per_game=-1), Raises(ValueError, "positive number"))],
        "bool": [Case("seconds True", lambda: f("octal:0.?", max_seconds_per_game=True), Raises(TypeError, "number of seconds")),
                 Case("max_heap True", lambda: f("octal:0.?", max_heap=True), Raises(TypeError, "bool"))],
        "lists": [Case("two patterns", lambda: len(f(["octal:0.7", "subtract:{1..2}"], **quick)), Gives(4)),
                  Case("a pattern an int", lambda: f(["octal:0.7", 3]), Raises(TypeError, "str"))],
        "memory": [Limited("nimcount.survey('octal:0.6', max_seconds_per_game=0.1, push=10**9)", 3 * GIB // 2,
                           (("MemoryError", ""),))],
    }


ROWS = {
    "fwht": fwht_row,
    "hadamard_matrix": hadamard_matrix_row,
    "hadamard_transform": lambda: dropin_row("hadamard_transform"),
    "hadamard_transform_12N": lambda: dropin_row("hadamard_transform_12N"),
    "hadamard_transform_20N": lambda: dropin_row("hadamard_transform_20N"),
    "hadamard_transform_28N": lambda: dropin_row("hadamard_transform_28N"),
    "hadamard_transform_40N": lambda: dropin_row("hadamard_transform_40N"),
    "matmul_hadU": lambda: dropin_row("matmul_hadU"),
    "xor_convolve": lambda: convolution_row("xor_convolve"),
    "and_convolve": lambda: convolution_row("and_convolve"),
    "or_convolve": lambda: convolution_row("or_convolve"),
    "subset_convolve": lambda: convolution_row("subset_convolve"),
    "zeta": zeta_row,
    "xor_power": xor_power_row,
    "count": count_row,
    "grundy": grundy_row,
    "period": period_row,
    "play": play_row,
    "misere_quotient": misere_quotient_row,
    "survey": survey_row,
}


def check_rows(names, namespace):
    """Every public name has a row or is listed as no door; every row is a public function and
    names every class. Raises AssertionError naming what is missing."""
    problems = []
    for name in names:
        obj = getattr(namespace, name)
        if name in NOT_DOORS:
            if callable(obj) and not isinstance(obj, type):
                problems.append(f"{name} is a function but listed as no door")
        elif name not in ROWS:
            problems.append(f"{name} has no row in the door matrix")
    for name, row in ROWS.items():
        if name not in names:
            problems.append(f"the row {name} is not a public function")
            continue
        missing = [c for c in CLASSES if c not in row()]
        if missing:
            problems.append(f"the row {name} does not name the classes {missing}")
    assert not problems, "; ".join(problems)


def test_every_public_function_has_a_row():
    check_rows(nimcount.__all__, nimcount)


def test_a_function_without_a_row_fails_the_matrix(monkeypatch):
    monkeypatch.setattr(nimcount, "dummy", lambda a: a, raising=False)
    with pytest.raises(AssertionError, match="dummy has no row"):
        check_rows([*nimcount.__all__, "dummy"], nimcount)
    # A class of input added without a case in every row fails too.
    monkeypatch.setattr(sys.modules[__name__], "CLASSES", (*CLASSES, "a new class"))
    with pytest.raises(AssertionError, match="a new class"):
        check_rows(nimcount.__all__, nimcount)


def test_the_namespace_holds_only_the_public_api():
    public = {n for n in dir(nimcount) if not n.startswith("_")}
    assert public == set(nimcount.__all__) - {"__version__"}


def in_process_cases():
    for door, make in ROWS.items():
        for klass, cases in make().items():
            if isinstance(cases, str):
                continue
            for i, case in enumerate(cases):
                if isinstance(case, Case):
                    yield pytest.param(door, klass, i, id=f"{door}-{klass}-{case.label}")


def memory_doors():
    return [door for door, make in ROWS.items() if not isinstance(make()["memory"], str)]


def find_case(door, klass, i):
    return ROWS[door]()[klass][i]


@pytest.mark.parametrize("door,klass,i", list(in_process_cases()))
def test_door(door, klass, i):
    case = find_case(door, klass, i)
    outcome = case.outcome
    if isinstance(outcome, Raises):
        with pytest.raises(outcome.exc) as e:
            case.call()
        assert outcome.text in str(e.value), str(e.value)
        assert len(str(e.value)) < 600, "a message that long hides its point"
        return
    got = case.call()
    if outcome.check is not None:
        assert outcome.check(got), repr(got)
        return
    if outcome.dtype is not None:
        assert got.dtype == np.dtype(outcome.dtype), got.dtype
    if isinstance(got, np.ndarray):
        np.testing.assert_array_equal(np.asarray(got, np.float64) if got.dtype == BF16 else got, outcome.expected)
    else:
        assert got == outcome.expected


def run_limited(calls, limit):
    """Runs each call in a child interpreter under ``RLIMIT_AS``; one line per call."""
    lines = []
    for call in calls:
        lines.append(f"""
start = time.perf_counter()
try:
    r = {call}
    print("answered", getattr(r, "dtype", ""), getattr(r, "shape", ""), round(time.perf_counter() - start, 2), flush=True)
except BaseException as e:
    print(type(e).__name__, str(e).replace(chr(10), " "), round(time.perf_counter() - start, 2), flush=True)
""")
    code = "import time, numpy as np, nimcount, ml_dtypes\n" + "".join(lines)

    def limit_memory():
        resource.setrlimit(resource.RLIMIT_AS, (limit, limit))

    child = subprocess.run([sys.executable, "-c", textwrap.dedent(code)], preexec_fn=limit_memory,
                           capture_output=True, text=True, timeout=300)
    return child.returncode, child.stdout, child.stderr


@pytest.mark.skipif(sys.platform != "linux", reason="RLIMIT_AS")
@pytest.mark.parametrize("door", memory_doors())
def test_door_under_a_memory_limit(door):
    cases = ROWS[door]()["memory"]
    for limit in sorted({c.limit for c in cases}):
        group = [c for c in cases if c.limit == limit]
        start = time.perf_counter()
        status, out, err = run_limited([c.call for c in group], limit)
        assert status == 0, f"exit {status} (a signal when negative) under {limit} bytes:\n{out}\n{err[-2000:]}"
        got = out.strip().splitlines()
        assert len(got) == len(group), out + err
        for case, line in zip(group, got):
            assert any(line.startswith(kind) and text in line for kind, text in case.outcomes), f"{case.call}: {line}"
            assert float(line.split()[-1]) < 10, f"{case.call} took long: {line}"
        assert time.perf_counter() - start < 60


# ---------------------------------------------------------------------------------------------
# Refusals that say what lifts them, and the answers the issue asked for.


def test_misere_counts_take_the_search_limits_and_name_them():
    with pytest.raises(nimcount.QuotientNotFound) as e:
        nimcount.count("kayles", (0, 20), 3, misere=True, max_states=10)
    assert e.value.keyword == "max_states" and "max_states=" in str(e.value)
    with pytest.raises(nimcount.QuotientNotFound) as e:
        nimcount.count("kayles", (0, 20), 3, misere=True, max_order=2)
    assert e.value.keyword == "max_order"
    with pytest.raises(nimcount.QuotientNotFound) as e:
        nimcount.count("squares", (0, 2000), 2, misere=True)
    assert e.value.keyword == "max_heap"
    with pytest.raises(nimcount.TooCostly) as e:
        nimcount.count("kayles", (0, 20), 3, misere=True, max_seconds=1, max_states=10**8)
    assert e.value.keyword == "max_seconds" and e.value.estimate > 1
    with pytest.raises(ValueError, match="applies with misere=True"):
        nimcount.count("nim", (0, 5), 3, max_states=10**6)
    # Within the limits, the same count as the default.
    assert nimcount.count("kayles", (0, 20), 3, misere=True, max_states=10**6).losing == \
        nimcount.count("kayles", (0, 20), 3, misere=True).losing


def test_misere_refusals_fill_the_estimate():
    with pytest.raises(nimcount.TooCostly) as e:
        nimcount.play("dawsons-kayles", [30, 40, 50], misere=True)
    assert e.value.keyword is None and e.value.estimate > 10**6
    with pytest.raises(nimcount.TooCostly) as e:
        nimcount.grundy("octal:0.6", 2**63)
    assert e.value.keyword is None and e.value.estimate == 2**63


@pytest.mark.parametrize("game", ["kayles", "octal:0.137", "subtract:1,2"])
def test_misere_probabilities_are_the_ratios_of_the_counts(game):
    p = nimcount.count(game, (0, 10), 3, misere=True, probability=True)
    c = nimcount.count(game, (0, 10), 3, misere=True)
    assert (p.losing, p.winning, p.total, p.exact) == (c.losing / c.total, c.winning / c.total, 1.0, True)
    assert p.play == "misere" and p.source == c.source
    assert c.source in ("quotient", "partial quotient")


def test_threads_give_the_same_answers():
    rng = np.random.default_rng(5)
    a, b = rng.integers(0, 1000, (32, 64), dtype=np.uint64), rng.integers(0, 1000, (32, 64), dtype=np.uint64)
    for name in ("xor_convolve", "and_convolve", "or_convolve", "subset_convolve"):
        f = getattr(nimcount, name)
        want = f(a, b, modulus=998244353)
        for threads in (1, 2, 5):
            assert np.array_equal(f(a, b, modulus=998244353, threads=threads), want), (name, threads)
    x = rng.integers(0, 1000, (32, 64), dtype=np.int64)
    for threads in (1, 3):
        assert np.array_equal(nimcount.zeta(x.copy(), threads=threads), nimcount.zeta(x.copy()))
        assert np.array_equal(nimcount.xor_power(x % 7, 2, threads=threads), nimcount.xor_power(x % 7, 2))
