"""fwht, xor_convolve and xor_power against NumPy references that share no code with nimcount:
the Sylvester Hadamard matrix for small lengths, the recursive definition for larger ones."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import nimcount

P32 = 998_244_353
P64 = (1 << 61) - 1
RNG = np.random.default_rng(20261125)


def sylvester(n):
    """The n x n Hadamard matrix in natural order, as Python ints."""
    h = np.array([[1]], dtype=object)
    while h.shape[0] < n:
        h = np.block([[h, h], [h, -h]])
    return h


def exact_reference(x):
    """W x over the integers (Python ints, no overflow), by the matrix."""
    x = np.asarray(x).astype(object)
    return sylvester(x.shape[-1]).dot(x)


def recursive_reference(x, add, sub):
    """W x by W_2n (a, b) = (W a + W b, W a - W b), with the ring's addition and subtraction."""
    if x.shape[0] == 1:
        return x.copy()
    half = x.shape[0] // 2
    a, b = recursive_reference(x[:half], add, sub), recursive_reference(x[half:], add, sub)
    return np.concatenate([add(a, b), sub(a, b)])


def mod_ops(m, dtype):
    m = dtype(m)
    return (lambda a, b: (a + b) % m), (lambda a, b: (a + (m - b)) % m)


# ---- every ring against the Sylvester matrix -----------------------------------------------


@pytest.mark.parametrize("log2", range(0, 7))
@pytest.mark.parametrize(
    "dtype,modulus",
    [(np.uint32, P32), (np.uint32, 3), (np.uint32, (1 << 31) - 1), (np.uint32, 1), (np.uint64, P64),
     (np.uint64, (1 << 63) - 25), (np.uint32, None), (np.uint64, None)],
)
def test_integer_rings_match_the_matrix(log2, dtype, modulus):
    n = 1 << log2
    high = modulus if modulus is not None else np.iinfo(dtype).max
    x = RNG.integers(0, high, size=n, dtype=dtype, endpoint=False) if high > 1 else np.zeros(n, dtype)
    if modulus is None and n >= 2:
        x[0] = np.iinfo(dtype).max  # wraps
    wrap = modulus if modulus is not None else 1 << (8 * np.dtype(dtype).itemsize)
    want = [int(v) % wrap for v in exact_reference(x)]
    y = x.copy()
    got = nimcount.fwht(y, modulus=modulus)
    assert got is y
    assert [int(v) for v in y] == want


@pytest.mark.parametrize("log2", range(0, 7))
def test_int64_matches_the_matrix_exactly(log2):
    n = 1 << log2
    bound = (1 << 62) // n
    x = RNG.integers(-bound, bound, size=n, dtype=np.int64)
    x[0] = bound - 1
    want = [int(v) for v in exact_reference(x)]
    assert [int(v) for v in nimcount.fwht(x)] == want


@pytest.mark.parametrize("dtype,rtol", [(np.float32, 1e-5), (np.float64, 1e-12)])
@pytest.mark.parametrize("log2", range(0, 7))
def test_floats_match_the_matrix(dtype, rtol, log2):
    n = 1 << log2
    x = RNG.standard_normal(n).astype(dtype)
    want = sylvester(n).astype(np.float64) @ x.astype(np.float64)
    got = nimcount.fwht(x.copy())
    assert got.dtype == dtype
    scale = np.abs(x.astype(np.float64)).sum()
    np.testing.assert_allclose(got, want, rtol=rtol, atol=rtol * scale)


# ---- larger lengths against the recursive definition ----------------------------------------


@pytest.mark.parametrize("log2", [10, 13, 16])
def test_large_uint32_and_uint64_match_the_recursion(log2):
    n = 1 << log2
    x = RNG.integers(0, P32, size=n, dtype=np.uint32)
    want = recursive_reference(x.astype(np.int64), *mod_ops(P32, np.int64))
    assert np.array_equal(nimcount.fwht(x.copy(), modulus=P32), want.astype(np.uint32))
    y = RNG.integers(0, P64, size=n, dtype=np.uint64)
    want = recursive_reference(y, *mod_ops(P64, np.uint64))
    assert np.array_equal(nimcount.fwht(y.copy(), modulus=P64), want)
    w = RNG.integers(0, 1 << 32, size=n, dtype=np.uint32)
    want = recursive_reference(w, lambda a, b: a + b, lambda a, b: a - b)  # uint32 wraps
    assert np.array_equal(nimcount.fwht(w.copy()), want)


@pytest.mark.parametrize("log2", [10, 14, 17])
def test_large_floats_and_int64_match_the_recursion(log2):
    n = 1 << log2
    x = RNG.standard_normal(n)
    want = recursive_reference(x, np.add, np.subtract)
    got32 = nimcount.fwht(x.astype(np.float32))
    scale = np.abs(x).sum()
    np.testing.assert_allclose(got32, want, rtol=1e-5, atol=1e-5 * scale)
    np.testing.assert_allclose(nimcount.fwht(x.copy()), want, rtol=1e-12, atol=1e-12 * scale)
    i = RNG.integers(-(1 << 40), 1 << 40, size=n, dtype=np.int64)
    assert np.array_equal(nimcount.fwht(i.copy()), recursive_reference(i, np.add, np.subtract))


# ---- in place, batched, threads, inverse ---------------------------------------------------


def test_the_array_given_is_transformed_in_place():
    x = np.arange(1 << 12, dtype=np.float64)
    address = x.__array_interface__["data"][0]
    y = nimcount.fwht(x)
    assert y is x and y.__array_interface__["data"][0] == address
    assert x[0] == sum(range(1 << 12))


@pytest.mark.parametrize("dtype,modulus", [(np.float64, None), (np.uint32, P32), (np.uint64, P64), (np.int64, None)])
def test_every_row_of_a_batch(dtype, modulus):
    rows = RNG.integers(0, 1000, size=(5, 32)).astype(dtype)
    want = np.stack([nimcount.fwht(r.copy(), modulus=modulus) for r in rows])
    assert np.array_equal(nimcount.fwht(rows.copy(), modulus=modulus), want)
    # Along axis 0 of the transpose, in Fortran order (each column contiguous): the same rows.
    columns = np.array(rows.T, order="F", copy=True)
    nimcount.fwht(columns, modulus=modulus, axis=0)
    assert np.array_equal(columns.T, want)
    # 3-d, and a view of every other row (rows contiguous, not back to back).
    cube = np.stack([rows, rows])
    assert np.array_equal(nimcount.fwht(cube, modulus=modulus), np.stack([want, want]))
    big = np.zeros((10, 32), dtype)
    big[::2] = rows
    nimcount.fwht(big[::2], modulus=modulus)
    assert np.array_equal(big[::2], want) and not big[1::2].any()


def test_many_small_rows_and_one_element_rows():
    x = RNG.integers(0, P32, size=(50_000, 4), dtype=np.uint32)
    want = recursive_reference(x.T.astype(np.int64), *mod_ops(P32, np.int64)).T
    assert np.array_equal(nimcount.fwht(x, modulus=P32), want)
    one = np.array([[3.0], [4.0]])
    assert np.array_equal(nimcount.fwht(one, inverse=True), [[3.0], [4.0]])


@pytest.mark.parametrize("threads", [None, 1, 2, 3])
def test_threads_give_the_same_answer(threads):
    x = RNG.integers(0, P32, size=(4, 1 << 16), dtype=np.uint32)
    want = nimcount.fwht(x.copy(), modulus=P32, threads=1)
    assert np.array_equal(nimcount.fwht(x.copy(), modulus=P32, threads=threads), want)
    y = RNG.standard_normal(1 << 18)
    assert np.array_equal(nimcount.fwht(y.copy(), threads=threads), nimcount.fwht(y.copy(), threads=1))


@pytest.mark.parametrize("dtype,modulus", [(np.float32, None), (np.float64, None), (np.uint32, P32), (np.uint32, 3),
                                           (np.uint64, P64), (np.int64, None)])
@pytest.mark.parametrize("log2", [0, 1, 5, 12])
def test_inverse_round_trips(dtype, modulus, log2):
    n = 1 << log2
    high = modulus or 1000
    x = RNG.integers(0, high, size=(3, n)).astype(dtype)
    y = nimcount.fwht(nimcount.fwht(x.copy(), modulus=modulus), modulus=modulus, inverse=True)
    if np.issubdtype(dtype, np.floating):
        np.testing.assert_allclose(y, x, rtol=1e-5, atol=1e-3)
    else:
        assert np.array_equal(y, x)


# ---- convolutions and powers ---------------------------------------------------------------


def direct_convolution(a, b, m=None):
    c = [0] * len(a)
    for i, x in enumerate(a):
        for j, y in enumerate(b):
            c[i ^ j] += int(x) * int(y)
    return [v % m for v in c] if m else c


@pytest.mark.parametrize("dtype,modulus", [(np.uint32, P32), (np.uint64, P64), (np.int64, None), (np.float64, None)])
def test_xor_convolve_against_the_direct_sum(dtype, modulus):
    a = RNG.integers(0, modulus or 1000, size=16).astype(dtype)
    b = RNG.integers(0, modulus or 1000, size=16).astype(dtype)
    (a0, b0) = (a.copy(), b.copy())
    c = nimcount.xor_convolve(a, b, modulus=modulus)
    assert c.dtype == dtype and c is not a
    assert np.array_equal(a, a0) and np.array_equal(b, b0)  # inputs untouched
    assert [int(round(float(v))) if dtype == np.float64 else int(v) for v in c] == direct_convolution(a, b, modulus)
    rows = nimcount.xor_convolve(np.stack([a, b]), np.stack([b, b]), modulus=modulus)
    assert np.array_equal(rows[0], c)


@pytest.mark.parametrize("k", [0, 1, 2, 3, 7])
def test_xor_power_against_repeated_convolution(k):
    a = RNG.integers(0, P32, size=8, dtype=np.uint32)
    want = [1] + [0] * 7
    for _ in range(k):
        want = direct_convolution(want, a, P32)
    assert [int(v) for v in nimcount.xor_power(a, k, modulus=P32)] == want
    small = np.array([1, 2, 0, 1], dtype=np.int64)
    exact = [1, 0, 0, 0]
    for _ in range(k):
        exact = direct_convolution(exact, small)
    assert [int(v) for v in nimcount.xor_power(small, k)] == exact


@pytest.mark.parametrize("modulus,dtype", [(P32, np.uint32), (9, np.uint32), (P64, np.uint64), (3**39, np.uint64)])
def test_xor_power_of_a_huge_exponent(modulus, dtype):
    """x^k on the transform with Python's pow, then W / n modulo m (m odd): no nimcount code."""
    k = 10**40 + 12345
    a = RNG.integers(0, modulus, size=16).astype(dtype)
    spectrum = [pow(int(v) % modulus, k, modulus) for v in exact_reference(a)]
    back = exact_reference(np.array(spectrum, dtype=object))
    inverse_n = pow(16, -1, modulus)
    want = [int(v) * inverse_n % modulus for v in back]
    assert [int(v) for v in nimcount.xor_power(a, k, modulus=modulus)] == want


# ---- properties ----------------------------------------------------------------------------

odd32 = st.integers(1, (1 << 31) - 1).filter(lambda m: m % 2 == 1)
odd64 = st.integers(1, (1 << 63) - 1).filter(lambda m: m % 2 == 1)


@settings(max_examples=100, deadline=None)
@given(st.integers(0, 6), st.sampled_from([(np.uint32, odd32), (np.uint64, odd64)]), st.data())
def test_property_residues(log2, ring, data):
    n = 1 << log2
    dtype, moduli = ring
    m = data.draw(moduli)
    x = np.array(data.draw(st.lists(st.integers(0, m - 1), min_size=n, max_size=n)), dtype=dtype)
    want = [int(v) % m for v in exact_reference(x)]
    assert [int(v) for v in nimcount.fwht(x.copy(), modulus=m)] == want
    assert np.array_equal(nimcount.fwht(nimcount.fwht(x.copy(), modulus=m), modulus=m, inverse=True), x)


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 6), st.data())
def test_property_int64_exact_or_refused(log2, data):
    n = 1 << log2
    x = np.array(data.draw(st.lists(st.integers(-(1 << 63), (1 << 63) - 1), min_size=n, max_size=n)), dtype=np.int64)
    want = [int(v) for v in exact_reference(x)]
    fits = sum(abs(int(v)) for v in x) <= (1 << 63) - 1
    y = x.copy()
    try:
        nimcount.fwht(y)
    except ValueError as e:
        assert "overflow" in str(e)
        assert np.array_equal(y, x)  # refused before writing
        assert not fits or max(abs(v) for v in want) >= 1 << 62  # refused only near the bound
    else:
        assert [int(v) for v in y] == want


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 8), st.integers(1, 4), st.sampled_from([np.float32, np.float64]), st.data())
def test_property_float_rows(log2, rows, dtype, data):
    n = 1 << log2
    flat = data.draw(st.lists(st.floats(-1e6, 1e6), min_size=n * rows, max_size=n * rows))
    x = np.array(flat, dtype=dtype).reshape(rows, n)
    want = x.astype(np.float64) @ sylvester(n).astype(np.float64).T
    scale = np.abs(x.astype(np.float64)).sum() + 1
    np.testing.assert_allclose(nimcount.fwht(x.copy()), want, rtol=1e-5, atol=1e-5 * scale)


# ---- errors --------------------------------------------------------------------------------


def raises(match, call, exception=ValueError):
    with pytest.raises(exception, match=match) as info:
        call()
    assert "\n" not in str(info.value)


def test_errors_name_the_fix():
    raises("not a power of two; pad with zeros to 8", lambda: nimcount.fwht(np.zeros(6)))
    raises("empty along axis 0", lambda: nimcount.fwht(np.zeros(0)))
    frozen = np.zeros(4)
    frozen.flags.writeable = False
    raises(r"read-only .*a.copy\(\)", lambda: nimcount.fwht(frozen))
    raises(r"not contiguous along axis 0: .*np.ascontiguousarray\(a\)", lambda: nimcount.fwht(np.zeros(8)[::2]))
    raises(r"np.ascontiguousarray\(np.moveaxis\(a, 0, -1\)\)", lambda: nimcount.fwht(np.zeros((4, 4)), axis=0))
    raises(r"not contiguous", lambda: nimcount.fwht(np.zeros(4)[::-1]))
    raises(r"unsupported dtype complex128", lambda: nimcount.fwht(np.zeros(4, complex)))
    raises(r"NumPy array, not list", lambda: nimcount.fwht([1.0, 2.0]), TypeError)
    raises(r"value 7 at index 2 .* below the modulus", lambda: nimcount.fwht(np.array([1, 2, 7, 0], np.uint32), modulus=7))
    raises(r"value .* below the modulus", lambda: nimcount.fwht(np.array([[0, 0], [1, 9]], np.uint64).T, modulus=9, axis=0))
    raises(r"modulus 10 is even", lambda: nimcount.fwht(np.zeros(4, np.uint32), modulus=10))
    raises(r"modulus 0 is even", lambda: nimcount.fwht(np.zeros(4, np.uint64), modulus=0))
    raises(r"too large for uint32 .* uint64", lambda: nimcount.fwht(np.zeros(4, np.uint32), modulus=2**31 + 1))
    raises(r"too large", lambda: nimcount.fwht(np.zeros(4, np.uint64), modulus=2**63 + 1))
    raises(r"modulus= applies to uint32 and uint64", lambda: nimcount.fwht(np.zeros(4), modulus=7))
    raises(r"at least 0", lambda: nimcount.fwht(np.zeros(4, np.uint32), modulus=-7))
    raises(r"no inverse of 2.*modulus=", lambda: nimcount.fwht(np.zeros(4, np.uint32), inverse=True))
    raises(r"overflow", lambda: nimcount.fwht(np.array([2**62, 2**62], np.int64)))
    raises(r"axis 1 is out of bounds", lambda: nimcount.fwht(np.zeros(4), axis=1))
    raises(r"0-d", lambda: nimcount.fwht(np.array(1.0)))
    raises(r"threads=0", lambda: nimcount.fwht(np.zeros(4), threads=0))
    raises(r"same dtype", lambda: nimcount.xor_convolve(np.zeros(4), np.zeros(4, np.float32)))
    raises(r"same shape", lambda: nimcount.xor_convolve(np.zeros(4), np.zeros(8)))
    raises(r"no inverse of 2", lambda: nimcount.xor_convolve(np.ones(4, np.uint32), np.ones(4, np.uint32)))
    raises(r"at least 0", lambda: nimcount.xor_power(np.ones(4), -1))


def test_refused_calls_leave_the_array_unchanged():
    x = np.array([1, 0], np.int64)
    y = nimcount.fwht(x.copy())
    odd = np.array([1, 0, 0, 0], np.int64)
    raises("not divisible", lambda: nimcount.fwht(odd, inverse=True))
    assert np.array_equal(odd, [1, 0, 0, 0])
    rows = np.array([[1, 2], [2**62, 2**62]], np.int64)
    raises("overflow", lambda: nimcount.fwht(rows.T, axis=0))
    assert np.array_equal(rows, [[1, 2], [2**62, 2**62]])
    residues = np.array([[1, 2], [3, 11]], np.uint32)
    raises("below the modulus", lambda: nimcount.fwht(residues, modulus=11))
    assert np.array_equal(residues, [[1, 2], [3, 11]])
    assert np.array_equal(y, [1, 1])


@pytest.mark.parametrize(
    "dtype,modulus",
    [(np.uint32, 1), (np.uint32, 3), (np.uint32, P32), (np.uint32, (1 << 31) - 1),
     (np.uint64, 1), (np.uint64, P64), (np.uint64, (1 << 63) - 1)],
)
def test_every_residue_out_of_range_is_refused(dtype, modulus):
    bits = 8 * np.dtype(dtype).itemsize
    top = 1 << (bits - 1)
    nasty = {modulus, modulus + 1, top - 1, top, top + modulus - 1, top + modulus, (1 << bits) - 1}
    for bad in sorted(v for v in nasty if modulus <= v < 1 << bits):
        for at in (0, 37, 4095):
            x = RNG.integers(0, modulus, size=4096, dtype=dtype) if modulus > 1 else np.zeros(4096, dtype)
            x[at] = bad
            before = x.copy()
            raises(f"value {bad} at index {at} ", lambda: nimcount.fwht(x, modulus=modulus))
            assert np.array_equal(x, before)
    edge = np.full(4, modulus - 1, dtype)
    nimcount.fwht(edge, modulus=modulus)  # the largest residue is accepted


@pytest.mark.parametrize("dtype,modulus", [(np.uint32, P32), (np.uint64, P64)])
@pytest.mark.parametrize("shape", [(1 << 17,), (8, 1 << 14), (300, 64)])
def test_residues_out_of_range_in_large_and_batched_arrays_leave_them_unchanged(dtype, modulus, shape):
    # Blocks transformed before the offending one are restored: the array is left as it was.
    x = RNG.integers(0, modulus, size=shape, dtype=dtype)
    x.flat[-1] = modulus - 1
    want = nimcount.fwht(x.copy(), modulus=modulus, threads=1)
    n = x.size
    for bad in (modulus, np.iinfo(dtype).max):
        for at in (0, n // 2 + 5, n - 1):
            for threads in (1, 2):
                y = x.copy()
                y.flat[at] = bad
                before = y.copy()
                raises(f"value {bad} at index {at} ", lambda: nimcount.fwht(y, modulus=modulus, threads=threads))
                assert np.array_equal(y, before)
    assert np.array_equal(nimcount.fwht(x, modulus=modulus, threads=2), want)


def test_the_gil_is_released_during_a_transform():
    import sys
    import threading
    import time

    x = np.ones(1 << 24, dtype=np.float64)
    times = {}
    started = threading.Event()

    def work():
        times["start"] = time.perf_counter()
        started.set()
        nimcount.fwht(x, threads=1)
        times["end"] = time.perf_counter()  # before this thread could give the GIL away

    previous = sys.getswitchinterval()
    sys.setswitchinterval(5.0)  # the worker keeps the GIL unless the transform releases it
    try:
        worker = threading.Thread(target=work)
        worker.start()
        started.wait()
        times["main"] = time.perf_counter()  # needs the GIL
        worker.join()
    finally:
        sys.setswitchinterval(previous)
    assert x[0] == 1 << 24 and not x[1:].any()
    assert times["start"] < times["main"] < times["end"]


def _brute_set_convolutions(a, b, modulus=None):
    """AND, OR and subset convolutions by their definitions, in Python ints."""
    n = len(a)
    out = [[0] * n for _ in range(3)]
    for i in range(n):
        for j in range(n):
            p = int(a[i]) * int(b[j])
            out[0][i & j] += p
            out[1][i | j] += p
            if i & j == 0:
                out[2][i | j] += p
    if modulus is not None:
        out = [[x % modulus for x in row] for row in out]
    return out


@pytest.mark.parametrize("log2", [0, 1, 3, 6])
def test_set_convolutions_equal_their_definitions(log2):
    rng = np.random.default_rng(log2)
    n = 1 << log2
    functions = [nimcount.and_convolve, nimcount.or_convolve, nimcount.subset_convolve]
    a, b = rng.integers(0, P32, n, dtype=np.uint64).astype(np.uint32), rng.integers(0, P32, n).astype(np.uint32)
    for f, want in zip(functions, _brute_set_convolutions(a, b, P32)):
        got = f(a, b, modulus=P32)
        assert got.dtype == np.uint32 and got.tolist() == want
    a, b = rng.integers(-1000, 1000, n), rng.integers(-1000, 1000, n)
    for f, want in zip(functions, _brute_set_convolutions(a, b)):
        got = f(a, b)
        assert got.dtype == np.int64 and got.tolist() == want
    a, b = rng.integers(0, 2**32, n, dtype=np.uint64).astype(np.uint32), rng.integers(0, 2**32, n).astype(np.uint32)
    for f, want in zip(functions, _brute_set_convolutions(a, b, 2**32)):
        assert f(a, b).tolist() == want
    fa, fb = rng.integers(-8, 8, n).astype(np.float64), rng.integers(-8, 8, n).astype(np.float64)
    for f, want in zip(functions, _brute_set_convolutions(fa.astype(np.int64), fb.astype(np.int64))):
        assert f(fa, fb).tolist() == want
    rows = np.stack([a, b]).astype(np.uint32)
    assert nimcount.or_convolve(rows, rows)[1].tolist() == nimcount.or_convolve(b, b).tolist()


def test_set_convolutions_refuse_bad_inputs():
    for f in [nimcount.and_convolve, nimcount.or_convolve, nimcount.subset_convolve]:
        with pytest.raises(ValueError):
            f(np.ones(3), np.ones(3))
        with pytest.raises(ValueError):
            f(np.ones(4), np.ones(2))
        with pytest.raises(ValueError):
            f(np.ones(4, np.uint32), np.ones(4, np.uint32) * 9, modulus=7)
        with pytest.raises(ValueError):
            f(np.array([2**62, 2**62]), np.array([2, 2]))


def _zeta_brute(x, superset):
    n = len(x)
    if superset:
        return np.array([sum(x[t] for t in range(n) if t & s == s) for s in range(n)], dtype=x.dtype)
    return np.array([sum(x[t] for t in range(n) if t & s == t) for s in range(n)], dtype=x.dtype)


@pytest.mark.parametrize("superset", [False, True])
@pytest.mark.parametrize("dtype", [np.int64, np.int32, np.float64, np.float32])
def test_zeta_and_mobius_match_brute_force(superset, dtype):
    rng = np.random.default_rng(7)
    x = rng.integers(-5, 6, size=16).astype(dtype)
    want = _zeta_brute(x.astype(np.int64), superset)
    y = x.copy()
    assert nimcount.zeta(y, superset=superset) is y
    assert y.dtype == np.dtype(dtype)
    np.testing.assert_array_equal(y, want.astype(dtype))
    assert nimcount.zeta(y, superset=superset, inverse=True) is y
    np.testing.assert_array_equal(y, x)


@pytest.mark.parametrize("superset", [False, True])
def test_zeta_modular_wrapping_and_axis(superset):
    rng = np.random.default_rng(3)
    x = rng.integers(0, 7, size=(3, 8)).astype(np.uint32)
    want = np.stack([_zeta_brute(r.astype(np.int64), superset) % 7 for r in x])
    y = x.copy()
    nimcount.zeta(y, superset=superset, modulus=7)
    np.testing.assert_array_equal(y, want)
    nimcount.zeta(y, superset=superset, modulus=7, inverse=True)
    np.testing.assert_array_equal(y, x)
    # Without a modulus uint64 wraps, and the Moebius transform still undoes the zeta transform.
    w = x.astype(np.uint64)
    nimcount.zeta(w, superset=superset, inverse=True)
    nimcount.zeta(w, superset=superset)
    np.testing.assert_array_equal(w, x.astype(np.uint64))
    # Along axis 0: the columns.
    t = x.T.astype(np.int64).copy()
    nimcount.zeta(t, superset=superset, axis=0)
    np.testing.assert_array_equal(t % 7, want.T)


def test_zeta_refuses_hostile_input():
    x = np.arange(6, dtype=np.int64)
    with pytest.raises(ValueError, match="power of two"):
        nimcount.zeta(x)
    np.testing.assert_array_equal(x, np.arange(6))
    with pytest.raises(ValueError):
        nimcount.zeta(np.array([7, 1], dtype=np.uint32), modulus=7)
    with pytest.raises(ValueError, match="read-only"):
        r = np.arange(4, dtype=np.int64)
        r.flags.writeable = False
        nimcount.zeta(r)
    with pytest.raises(ValueError, match="bool"):
        nimcount.zeta(np.ones(4, dtype=bool))
    with pytest.raises(ValueError, match="does not fit"):
        nimcount.zeta(np.full(4, 100, dtype=np.int8))
    with pytest.raises(TypeError):
        nimcount.zeta([1, 2])


@pytest.mark.parametrize("threads", [None, 1, 2])
def test_xor_convolve_takes_threads(threads):
    rng = np.random.default_rng(5)
    a, b = rng.integers(-3, 4, size=(2, 4, 8))
    want = np.zeros((4, 8), dtype=np.int64)
    for i in range(8):
        for j in range(8):
            want[:, i ^ j] += a[:, i] * b[:, j]
    np.testing.assert_array_equal(nimcount.xor_convolve(a, b, threads=threads), want)
    with pytest.raises(ValueError, match="threads=0"):
        nimcount.xor_convolve(a, b, threads=0)


def test_float_results_that_overflow_warn_as_numpy_does():
    big = np.array([1e200, -1e200, 1e200, 1e200])
    for f in [nimcount.xor_convolve, nimcount.and_convolve, nimcount.or_convolve]:
        with pytest.warns(RuntimeWarning, match="inf or NaN \\(an overflow of float64"):
            out = f(big, big)
        assert not np.isfinite(out).all()
    with pytest.warns(RuntimeWarning, match="inf or NaN"):
        nimcount.xor_power(big, 3)
    # Finite results: no warning.
    import warnings

    with warnings.catch_warnings():
        warnings.simplefilter("error")
        nimcount.and_convolve(np.ones(4), np.ones(4))
        nimcount.xor_convolve(np.ones(4, np.uint32), np.ones(4, np.uint32), modulus=7)
