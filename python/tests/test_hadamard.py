"""fwht on float storage (float16, bfloat16, float32, float64) with a scale and lengths m * 2**k,
against the dense product with hadamard_matrix in float64; hadamard_matrix against its
definition; the DLPack consumer against producers built here with ctypes (no PyTorch)."""

import ctypes
import math

import numpy as np
import pytest

import nimcount

try:
    import ml_dtypes

    BF16 = np.dtype(ml_dtypes.bfloat16)
except ImportError:  # bfloat16 arrays need ml_dtypes; the DLPack tests below do not
    BF16 = None

RNG = np.random.default_rng(20261126)
LENGTHS = [1 << k for k in range(13)] + [m << k for m in (12, 20, 28, 40) for k in (0, 3, 6)]
# The tolerances, relative to the largest magnitude of the exact result.
TOLERANCE = {"float16": 2e-2, "bfloat16": 6e-2, "float32": 1e-5, "float64": 1e-12}
DTYPES = [np.dtype(np.float16), BF16, np.dtype(np.float32), np.dtype(np.float64)]


def dtypes():
    return [pytest.param(d, id=str(d)) if d is not None else pytest.param(None, marks=pytest.mark.skip("no ml_dtypes")) for d in DTYPES]


@pytest.fixture(scope="module")
def matrices():
    return {n: nimcount.hadamard_matrix(n) for n in LENGTHS}


@pytest.mark.parametrize("dtype", dtypes())
def test_fwht_equals_the_dense_product_in_float64(dtype, matrices):
    tol = TOLERANCE[dtype.name]
    for n in LENGTHS:
        h = matrices[n]
        for shape in [(n,), (3, n)]:
            x = RNG.standard_normal(shape).astype(dtype)
            exact = x.astype(np.float64)
            product = exact @ h.T
            for scale in [None, 1 / math.sqrt(n), -0.75]:
                s = 1.0 if scale is None else scale
                expected = product * s
                top = max(np.abs(expected).max(), 1e-300)
                y = x.copy()
                assert nimcount.fwht(y, scale=scale) is y
                assert y.dtype == dtype
                err = np.abs(y.astype(np.float64) - expected).max() / top
                assert err <= tol, (dtype, n, shape, scale, err)
                assert nimcount.fwht(y, inverse=True, scale=None if scale is None else 1 / scale) is y
                back = np.abs(y.astype(np.float64) - exact).max() / max(np.abs(exact).max(), 1e-300)
                assert back <= 4 * tol * max(1.0, math.sqrt(n)), (dtype, n, shape, scale, back)


@pytest.mark.parametrize("n", [1, 2, 4, 8, 12, 20, 28, 40, 24, 96, 160, 224, 320, 256])
def test_hadamard_matrices_are_hadamard(n):
    h = nimcount.hadamard_matrix(n)
    assert h.shape == (n, n) and h.dtype == np.float64
    assert set(np.unique(h)) <= {-1.0, 1.0}
    assert np.array_equal(h @ h.T, n * np.eye(n))
    if n & (n - 1) == 0:
        i = np.arange(n)
        popcount = np.vectorize(lambda v: bin(v).count("1"))
        assert np.array_equal(h, (-1.0) ** popcount(i[:, None] & i[None, :]))
    assert nimcount.hadamard_matrix(n, dtype=np.int8).dtype == np.int8


def test_hadamard_matrix_of_order_12_is_fast_hadamard_transforms_had_12_paley():
    rows = ["+-++++++++++", "--+-+-+-+-+-", "+++-++----++", "+---+--+-++-"]
    h = nimcount.hadamard_matrix(12, dtype=np.int8)
    for row, text in zip(h, rows):
        assert "".join("+" if v > 0 else "-" for v in row) == text
    # 12 * 2**k is the Kronecker product, the order-12 matrix outside.
    sylvester = nimcount.hadamard_matrix(4)
    assert np.array_equal(nimcount.hadamard_matrix(48), np.kron(nimcount.hadamard_matrix(12), sylvester))


def test_hadamard_matrix_refuses_orders_without_a_matrix():
    for n in [0, 3, 6, 10, 18, 22, 84, -4]:
        with pytest.raises(ValueError, match="K·2\\^k for K in 12, 20, 28, 36"):
            nimcount.hadamard_matrix(n)
    with pytest.raises(TypeError):
        nimcount.hadamard_matrix(True)
    with pytest.raises(TypeError):
        nimcount.hadamard_matrix(4.0)


def test_errors_of_float_storage():
    x = np.ones(30, dtype=np.float32)
    with pytest.raises(ValueError, match="pad with zeros to 32"):
        nimcount.fwht(x)
    with pytest.raises(ValueError, match="not a power of two"):
        nimcount.fwht(np.ones(12, dtype=np.uint32))  # integer rings: powers of two only
    with pytest.raises(ValueError, match="scale= applies to float arrays"):
        nimcount.fwht(np.ones(4, dtype=np.int64), scale=0.5)
    with pytest.raises(ValueError, match="finite"):
        nimcount.fwht(np.ones(4, dtype=np.float16), scale=float("inf"))
    with pytest.raises(TypeError, match="bool"):
        nimcount.fwht(np.ones(4, dtype=np.float16), scale=True)
    with pytest.raises(ValueError, match="modulus= applies"):
        nimcount.fwht(np.ones(4, dtype=np.float16), modulus=7)
    ro = np.ones(12, dtype=np.float16)
    ro.flags.writeable = False
    with pytest.raises(ValueError, match="read-only"):
        nimcount.fwht(ro)
    with pytest.raises(ValueError, match="not contiguous"):
        nimcount.fwht(np.ones((12, 4), dtype=np.float16)[:, ::2])
    with pytest.raises(ValueError, match="overlap"):
        nimcount.fwht(_overlapping())


def _overlapping():
    base = np.zeros(20, dtype=np.float32)
    return np.lib.stride_tricks.as_strided(base, shape=(3, 12), strides=(4, 4))


def test_float16_other_axes_and_views_and_threads():
    x = RNG.standard_normal((12, 5, 3)).astype(np.float16)
    h = nimcount.hadamard_matrix(12)
    expected = np.einsum("ij,jkl->ikl", h, x.astype(np.float64)) * 0.5
    y = np.asfortranarray(x)
    nimcount.fwht(y, axis=0, scale=0.5)
    assert np.abs(y - expected).max() <= 2e-2 * np.abs(expected).max()
    # A view of every other row: rows that are not back to back.
    z = RNG.standard_normal((6, 28)).astype(np.float32)
    w = z.copy()
    nimcount.fwht(w[::2], scale=2.0, threads=1)
    assert np.allclose(w[::2], (z[::2].astype(np.float64) @ nimcount.hadamard_matrix(28).T) * 2, rtol=1e-5, atol=1e-4)
    assert np.array_equal(w[1::2], z[1::2])
    # Every thread count gives the same bits.
    big = RNG.standard_normal((64, 28 << 6)).astype(np.float16)
    a, b = big.copy(), big.copy()
    nimcount.fwht(a, threads=1, scale=0.125)
    nimcount.fwht(b, threads=3, scale=0.125)
    assert np.array_equal(a.view(np.uint16), b.view(np.uint16))


@pytest.mark.skipif(BF16 is None, reason="no ml_dtypes")
def test_bfloat16_numpy_arrays_round_once():
    # 1 + 3 * 2**-8 is a tie between two bfloat16 values and rounds to even, 1 + 2**-6; rounding
    # after every level would give 1 + 2**-7 (1 + 2**-8 rounds to 1 first).
    x = np.array([1, 2**-8, 2**-8, 2**-8], dtype=BF16)
    nimcount.fwht(x)
    assert float(x[0]) == 1 + 2**-6
    y = np.array([1, 2**-8, 2**-8, 2**-8], dtype=np.float16)
    nimcount.fwht(y, scale=2.0)
    assert float(y[0]) == 2 * (1 + 3 * 2**-8)


# The DLPack structures of dlpack.h, for producers written here.
class DLDevice(ctypes.Structure):
    _fields_ = [("device_type", ctypes.c_int32), ("device_id", ctypes.c_int32)]


class DLDataType(ctypes.Structure):
    _fields_ = [("code", ctypes.c_uint8), ("bits", ctypes.c_uint8), ("lanes", ctypes.c_uint16)]


class DLTensor(ctypes.Structure):
    _fields_ = [
        ("data", ctypes.c_void_p),
        ("device", DLDevice),
        ("ndim", ctypes.c_int32),
        ("dtype", DLDataType),
        ("shape", ctypes.POINTER(ctypes.c_int64)),
        ("strides", ctypes.POINTER(ctypes.c_int64)),
        ("byte_offset", ctypes.c_uint64),
    ]


DELETER = ctypes.CFUNCTYPE(None, ctypes.c_void_p)


class DLManagedTensor(ctypes.Structure):
    _fields_ = [("dl_tensor", DLTensor), ("manager_ctx", ctypes.c_void_p), ("deleter", DELETER)]


class DLManagedTensorVersioned(ctypes.Structure):
    _fields_ = [
        ("major", ctypes.c_uint32),
        ("minor", ctypes.c_uint32),
        ("manager_ctx", ctypes.c_void_p),
        ("deleter", DELETER),
        ("flags", ctypes.c_uint64),
        ("dl_tensor", DLTensor),
    ]


_capsule_new = ctypes.pythonapi.PyCapsule_New
_capsule_new.restype = ctypes.py_object
_capsule_new.argtypes = [ctypes.c_void_p, ctypes.c_char_p, ctypes.c_void_p]


class Producer:
    """A DLPack producer of the uint16 array ``bits`` as bfloat16 (code 4) or float16 (code 2),
    exposing only ``__dlpack__`` and ``__dlpack_device__``; counts its deleter's calls."""

    def __init__(self, bits, code=4, versioned=False, read_only=False, device=1, strides=True, offset=0):
        self.bits = bits
        self.device = device
        self.versioned = versioned
        self.deleted = 0
        ndim = bits.ndim
        self._shape = (ctypes.c_int64 * ndim)(*bits.shape)
        self._strides = (ctypes.c_int64 * ndim)(*(s // 2 for s in bits.strides))
        self._deleter = DELETER(self._delete)
        tensor = DLTensor(
            bits.ctypes.data - offset,
            DLDevice(device, 0),
            ndim,
            DLDataType(code, 16, 1),
            self._shape,
            self._strides if strides else None,
            offset,
        )
        if versioned:
            self.managed = DLManagedTensorVersioned(1, 0, None, self._deleter, 1 if read_only else 0, tensor)
        else:
            self.managed = DLManagedTensor(tensor, None, self._deleter)

    def _delete(self, _pointer):
        self.deleted += 1

    def __dlpack_device__(self):
        return (self.device, 0)

    def __dlpack__(self, *, stream=None, max_version=None):
        if self.versioned and (max_version is None or max_version[0] < 1):
            raise BufferError("this producer exports versioned capsules only")
        name = b"dltensor_versioned" if self.versioned else b"dltensor"
        return _capsule_new(ctypes.addressof(self.managed), name, None)


class OldProducer(Producer):
    """A producer from before DLPack 1.0: ``__dlpack__`` takes no ``max_version``."""

    def __dlpack__(self, stream=None):
        return _capsule_new(ctypes.addressof(self.managed), b"dltensor", None)


def bf16_to_f64(bits):
    return (bits.astype(np.uint32) << 16).view(np.float32).astype(np.float64)


@pytest.mark.parametrize("kind", ["unversioned", "versioned", "old", "no strides", "byte offset"])
def test_a_bfloat16_dlpack_capsule_is_transformed_in_place(kind):
    rows = RNG.standard_normal((4, 28 * 8)).astype(np.float32)
    bits = (rows.view(np.uint32) >> 16).astype(np.uint16)  # truncated to bfloat16
    x = bf16_to_f64(bits)
    if kind == "old":
        producer = OldProducer(bits)
    else:
        producer = Producer(
            bits, versioned=kind == "versioned", strides=kind != "no strides", offset=64 if kind == "byte offset" else 0
        )
    scale = 1 / math.sqrt(28 * 8)
    assert nimcount.fwht(producer, scale=scale) is producer
    assert producer.deleted == 1, "the consumer calls the deleter once"
    expected = (x @ nimcount.hadamard_matrix(28 * 8).T) * scale
    assert np.abs(bf16_to_f64(bits) - expected).max() <= 6e-2 * np.abs(expected).max()
    nimcount.fwht(producer, inverse=True, scale=1 / scale)
    assert producer.deleted == 2
    assert np.abs(bf16_to_f64(bits) - x).max() <= 6e-2 * np.abs(x).max()


def test_float16_dlpack_and_numpys_own_export():
    bits = np.ones((2, 12), dtype=np.float16)
    producer = Producer(bits.view(np.uint16), code=2)
    nimcount.fwht(producer)
    assert np.array_equal(bits, np.ones((2, 12), dtype=np.float16) @ nimcount.hadamard_matrix(12).T.astype(np.float16))

    class Wrapped:
        """Only the DLPack methods of a NumPy array."""

        def __init__(self, a):
            self.a = a

        def __dlpack__(self, **kwargs):
            return self.a.__dlpack__(**kwargs)

        def __dlpack_device__(self):
            return self.a.__dlpack_device__()

    a = RNG.standard_normal((3, 20)).astype(np.float32)
    expected = a.astype(np.float64) @ nimcount.hadamard_matrix(20).T
    w = Wrapped(a)
    assert nimcount.fwht(w) is w
    assert np.allclose(a, expected, rtol=1e-5, atol=1e-5)
    ro = a.copy()
    ro.flags.writeable = False
    with pytest.raises(ValueError, match="read-only|writable"):
        nimcount.fwht(Wrapped(ro))
    assert np.array_equal(ro, a)


def test_dlpack_producers_refused_with_a_clear_error():
    bits = np.zeros((2, 12), dtype=np.uint16)
    for producer, match in [
        (Producer(bits, device=2), "device type 2"),
        (Producer(bits, versioned=True, read_only=True), "read-only"),
        (Producer(bits, code=0), "unsupported DLPack dtype"),
        (Producer(np.zeros((2, 10), dtype=np.uint16)), "pad with zeros to 12"),
    ]:
        with pytest.raises(ValueError, match=match):
            nimcount.fwht(producer)
        assert producer.deleted == 0, "a refused tensor is left to its capsule"
    with pytest.raises(TypeError, match="NumPy array or an object with __dlpack__"):
        nimcount.fwht(object(), scale=1.0)


def test_ctrl_c_stops_many_short_rows_within_a_second():
    import signal
    import subprocess
    import sys
    import time

    # Python's own handler in the child, also where SIGINT was ignored at start (a background job).
    code = (
        "import signal, numpy as np, nimcount\n"
        "signal.signal(signal.SIGINT, signal.default_int_handler)\n"
        "a = np.ones((1 << 23, 28), np.float16)\n"
        "print('ready', flush=True)\n"
        "try:\n"
        "    for _ in range(1000):\n"
        "        nimcount.fwht(a, threads=1)\n"
        "except KeyboardInterrupt:\n"
        "    print('interrupted', flush=True)\n"
    )
    p = subprocess.Popen([sys.executable, "-c", code], stdout=subprocess.PIPE, text=True)
    try:
        assert p.stdout.readline().strip() == "ready"
        time.sleep(1.0)
        sent = time.perf_counter()
        p.send_signal(signal.SIGINT)
        assert p.stdout.readline().strip() == "interrupted"
        assert time.perf_counter() - sent < 1.0
    finally:
        p.kill()
        p.wait()
