"""The Hadamard matrices of both families and the drop-in functions of the packages that rotate
models: fwht(x, factor=K, family=...) against x @ (H_K ⊗ H_(2^k)).T computed in float64 from the
published matrices, for every order K and k up to 6; fast-hadamard-transform's
hadamard_transform_kN with its padding; QuIP#'s and QuaRot's matmul_hadU against their own
algorithm (butterflies on halves, then the order-K product), transcribed here in float64."""

import math

import numpy as np
import pytest

import nimcount

try:
    import ml_dtypes

    BF16 = np.dtype(ml_dtypes.bfloat16)
except ImportError:
    BF16 = None

FHT = "fast-hadamard-transform"
ORDERS = {FHT: (12, 20, 28, 40), "sloane": (12, 20, 28, 36, 40, 44, 52, 60, 108, 140, 156, 172)}
DTYPES = [d for d in (np.dtype(np.float16), BF16, np.dtype(np.float32), np.dtype(np.float64)) if d is not None]
# Relative to the largest magnitude of the exact result: float64 1e-12; the others one rounding
# of the float32 sum to the storage type (half an ulp), with room for float32's own sums.
TOLERANCE = {"float16": 2.0**-10, "bfloat16": 2.0**-7, "float32": 1e-6, "float64": 1e-12}

# FNV-1a (64 bits) of each published matrix written row by row as "+" and "-": taken from
# fast-hadamard-transform's csrc/code_gen.py and from QuIP#'s, QuaRot's and torchao's matrices.
PUBLISHED = {
    (FHT, 12): 0x6D27D4EF16D47D75,
    (FHT, 20): 0x021413DCEFA542C5,
    (FHT, 28): 0x2B859142F8574C35,
    (FHT, 40): 0x8B986804B3983415,
    ("sloane", 12): 0x35C7785E68B764AD,
    ("sloane", 20): 0x47EE1A0779DA2545,
    ("sloane", 28): 0x65C668D18606A97D,
    ("sloane", 36): 0x03CBD584A619BDDD,
    ("sloane", 40): 0x8B986804B3983415,
    ("sloane", 44): 0xCB05C18B98ABACBD,
    ("sloane", 52): 0x64547545B4660CC5,
    ("sloane", 60): 0x976DBE55C09A5EB5,
    ("sloane", 108): 0x6391C059935EEBB5,
    ("sloane", 140): 0x7E0D0C2C703D8685,
    ("sloane", 156): 0x1311BCD59E9C3EF5,
    ("sloane", 172): 0xA0B3F25B06595585,
}


def fingerprint(h):
    value = 0xCBF29CE484222325
    for v in h.ravel():
        value = ((value ^ (ord("+") if v > 0 else ord("-"))) * 0x100000001B3) & 0xFFFFFFFFFFFFFFFF
    return value


def sylvester(n):
    h = np.ones((1, 1), np.int8)
    while h.shape[0] < n:
        h = np.block([[h, h], [h, -h]])
    return h


def order_matrix(family, k):
    h = nimcount.hadamard_matrix(k, np.int8, factor=k, family=family)
    assert fingerprint(h) == PUBLISHED[(family, k)], (family, k)
    return h


def product(hk, log2, x):
    """x @ (H_K ⊗ H_(2^log2)).T in float64, the Kronecker matrix built whole (as int8) and
    multiplied a slice of rows at a time."""
    h = np.kron(hk, sylvester(1 << log2))
    out = np.empty(x.shape, np.float64)
    for i in range(0, h.shape[0], 1024):
        out[..., i : i + 1024] = x.astype(np.float64) @ h[i : i + 1024].T.astype(np.float64)
    return out


@pytest.mark.parametrize("family,k", [(f, k) for f, ks in ORDERS.items() for k in ks], ids=lambda v: str(v))
def test_every_order_and_length_equals_the_product_with_the_published_matrix(family, k):
    hk = order_matrix(family, k)
    wide = hk.astype(np.int64)
    assert np.array_equal(wide @ wide.T, k * np.eye(k, dtype=np.int64))
    rng = np.random.default_rng(k)
    for log2 in range(7):
        n = k << log2
        # Multiples of 1/8 of at most 4 in magnitude: exact in every dtype.
        x = rng.integers(-32, 33, size=(2, n)) / 8.0
        exact = product(hk, log2, x)
        for dtype in DTYPES:
            for scale in (1 / math.sqrt(n), -0.375):
                y = x.astype(dtype)
                assert nimcount.fwht(y, factor=k, family=family, scale=scale) is y
                expected = exact * scale
                top = np.abs(expected).max()
                err = np.abs(y.astype(np.float64) - expected).max() / top
                assert err <= TOLERANCE[dtype.name], (family, k, log2, dtype, scale, err)
        # The matrix fwht multiplies by is the Kronecker product, the order-K matrix outside.
        if n <= 1024:
            h = nimcount.hadamard_matrix(n, np.int8, factor=k, family=family)
            assert np.array_equal(h, np.kron(hk, sylvester(1 << log2)))


def test_the_families_differ_at_orders_12_20_28_and_agree_at_40():
    for k in (12, 20, 28):
        assert not np.array_equal(order_matrix(FHT, k), order_matrix("sloane", k))
    assert np.array_equal(order_matrix(FHT, 40), order_matrix("sloane", 40))


def test_the_rule_and_the_defaults():
    def split(n, **kw):
        h = nimcount.hadamard_matrix(n, np.int8, **kw)
        for family, ks in ORDERS.items():
            for k in ks:
                if n % k == 0 and (n // k) & (n // k - 1) == 0:
                    if np.array_equal(h, np.kron(order_matrix(family, k), sylvester(n // k))):
                        return k, family
        return None

    assert split(160) == (40, FHT)
    assert split(160, factor=20) == (20, FHT)
    assert split(160, factor=20, family="sloane") == (20, "sloane")
    assert split(36) == (36, "sloane")
    assert split(88) == (44, "sloane")
    assert split(12, family="sloane") == (12, "sloane")
    assert split(24) == (12, FHT)


def test_hadamard_transform_20N_of_160_is_h20_times_h8_not_h40_times_h4():
    x = np.random.default_rng(160).standard_normal((3, 160))
    y = nimcount.hadamard_transform_20N(x, 0.5)
    assert y is not x and y.shape == x.shape and y.dtype == x.dtype
    want = 0.5 * product(order_matrix(FHT, 20), 3, x)
    np.testing.assert_allclose(y, want, rtol=0, atol=1e-12 * np.abs(want).max())
    other = 0.5 * product(order_matrix(FHT, 40), 2, x)
    assert np.abs(y - other).max() > 1.0
    # The rule's own choice at 160 is H_40 ⊗ H_4.
    z = x.copy()
    nimcount.fwht(z, scale=0.5)
    np.testing.assert_allclose(z, other, rtol=0, atol=1e-12 * np.abs(other).max())


def padded_reference(x, k):
    """fast-hadamard-transform's kernels: the row padded with zeros to a multiple of 8 (4k for
    the kN transforms), then to k times a power of two; transformed; cut back."""
    dim = x.shape[-1]
    unit = 8 if k == 1 else 4 * k
    rounded = -(-dim // unit) * unit
    p = 1
    while k * p < rounded:
        p *= 2
    z = np.zeros(x.shape[:-1] + (k * p,))
    z[..., :dim] = x
    hk = np.ones((1, 1), np.int8) if k == 1 else order_matrix(FHT, k)
    return product(hk, p.bit_length() - 1, z)[..., :dim]


@pytest.mark.parametrize("k", [1, 12, 20, 28, 40])
def test_the_drop_ins_of_fast_hadamard_transform_pad_as_its_kernels(k):
    f = {1: nimcount.hadamard_transform, 12: nimcount.hadamard_transform_12N, 20: nimcount.hadamard_transform_20N,
         28: nimcount.hadamard_transform_28N, 40: nimcount.hadamard_transform_40N}[k]
    rng = np.random.default_rng(k)
    for dim in sorted({1, 3, k, k + 1, 4 * k - 1, 4 * k, 8 * k, 8 * k + 5, 100}):
        x = rng.standard_normal((2, dim))
        original = x.copy()
        y = f(x, 0.25)
        assert np.array_equal(x, original), "the input is left alone"
        want = 0.25 * padded_reference(x, k)
        np.testing.assert_allclose(y, want, rtol=0, atol=1e-12 * max(np.abs(want).max(), 1), err_msg=f"{k} {dim}")
    # float16 and float32 keep their dtype; the default scale is 1.
    for dtype in (np.float16, np.float32):
        x = np.ones(8 * k, dtype)
        y = f(x)
        assert y.dtype == dtype
        assert np.array_equal(y.astype(np.float64), padded_reference(x.astype(np.float64), k))


def matmul_hadU_reference(x, transpose=False):
    """QuIP#'s matmul_hadU in float64 NumPy: QuaRot's get_hadK, then the butterflies of halves
    while more than K rows remain, then the order-K matrix, over sqrt(n)."""
    n = x.shape[-1]
    for k in (172, 156, 140, 108, 60, 52, 36, 28, 44, 40, 20, 12, 1):
        if n % k == 0:
            assert (n // k) & (n // k - 1) == 0
            break
    hk = None if k == 1 else order_matrix("sloane", k).astype(np.float64)
    if transpose and hk is not None:
        hk = hk.T
    inp = x.astype(np.float64).reshape(-1, n, 1)
    out = inp.copy()
    while inp.shape[1] > k:
        inp = inp.reshape(inp.shape[0], inp.shape[1] // 2, 2, inp.shape[2])
        out = out.reshape(inp.shape)
        out[:, :, 0, :] = inp[:, :, 0, :] + inp[:, :, 1, :]
        out[:, :, 1, :] = inp[:, :, 0, :] - inp[:, :, 1, :]
        out = out.reshape(inp.shape[0], inp.shape[1], -1)
        inp, out = out, inp
    if k > 1:
        inp = hk @ inp
    return inp.reshape(x.shape) / math.sqrt(n)


@pytest.mark.parametrize("n", [11008, 13824, 8960, 53248, 14336, 28672, 4096, 5120, 12, 40, 44 * 4])
def test_matmul_hadU_equals_the_reference_rule_on_the_sizes_of_models(n):
    x = np.random.default_rng(n).standard_normal((2, n))
    for transpose in (False, True):
        y = nimcount.matmul_hadU(x, transpose=transpose)
        want = matmul_hadU_reference(x, transpose)
        np.testing.assert_allclose(y, want, rtol=0, atol=1e-12 * np.abs(want).max(), err_msg=f"{n} {transpose}")
    back = nimcount.matmul_hadU(nimcount.matmul_hadU(x), transpose=True)
    np.testing.assert_allclose(back, x, rtol=0, atol=1e-12 * np.abs(x).max())
    for dtype in [d for d in DTYPES if d.name != "float64"]:
        y = nimcount.matmul_hadU(x.astype(dtype))
        assert y.dtype == dtype
        want = matmul_hadU_reference(x.astype(dtype))
        err = np.abs(y.astype(np.float64) - want).max() / np.abs(want).max()
        assert err <= TOLERANCE[dtype.name], (n, dtype, err)


def test_factor_and_family_errors():
    x = np.ones(160)
    with pytest.raises(ValueError, match="length 160 is not 36·2\\^k"):
        nimcount.fwht(x, factor=36)
    with pytest.raises(ValueError, match="fast-hadamard-transform has no Hadamard matrix of order 36"):
        nimcount.fwht(np.ones(72), factor=36, family=FHT)
    with pytest.raises(ValueError, match="the families are"):
        nimcount.fwht(x, family="Sloane")
    with pytest.raises(TypeError, match="family must be a str"):
        nimcount.fwht(x, family=3)
    with pytest.raises(TypeError, match="factor must be an int, not a bool"):
        nimcount.fwht(x, factor=True)
    with pytest.raises(TypeError, match="factor must be an int"):
        nimcount.fwht(x, factor=20.0)
    with pytest.raises(ValueError, match="at least 1"):
        nimcount.fwht(x, factor=0)
    with pytest.raises(ValueError, match="at least 1"):
        nimcount.fwht(x, factor=-20)
    with pytest.raises(ValueError, match="is the order of no Hadamard matrix"):
        nimcount.fwht(x, factor=10**30)
    with pytest.raises(ValueError, match="factor= and family= applies to float arrays"):
        nimcount.fwht(np.ones(16, np.int64), factor=1)
    with pytest.raises(ValueError, match="not 12·2\\^k"):
        nimcount.hadamard_matrix(40, factor=12)
    with pytest.raises(ValueError, match="no Hadamard matrix of order 172"):
        nimcount.hadamard_matrix(172, family=FHT)
    assert np.array_equal(x, np.ones(160)), "refused calls leave the array alone"
    with pytest.raises(ValueError, match="matmul_hadU"):
        nimcount.matmul_hadU(np.ones(0))
    with pytest.raises(ValueError, match="is not"):
        nimcount.matmul_hadU(np.ones(172 * 3))
    with pytest.raises(TypeError, match="transpose must be a bool"):
        nimcount.matmul_hadU(np.ones(8), transpose=1)
    with pytest.raises(ValueError, match="unsupported dtype"):
        nimcount.hadamard_transform(np.ones(8, np.int64))
    with pytest.raises(TypeError, match="expected a NumPy array"):
        nimcount.hadamard_transform_12N([1.0, 2.0])
    with pytest.raises(ValueError, match="0-d"):
        nimcount.hadamard_transform(np.array(1.0))


class Tensorish:
    """A stand-in for a PyTorch CPU tensor: ``new_zeros``, item assignment, ``shape``, ``ndim``
    and DLPack, over a NumPy array."""

    def __init__(self, array):
        self.array = array

    @property
    def shape(self):
        return self.array.shape

    @property
    def ndim(self):
        return self.array.ndim

    def new_zeros(self, *shape):
        return Tensorish(np.zeros(shape, self.array.dtype))

    def __setitem__(self, key, value):
        self.array[key] = value.array if isinstance(value, Tensorish) else value

    def __getitem__(self, key):
        return Tensorish(self.array[key])

    def __dlpack__(self, **kwargs):
        return self.array.__dlpack__(**kwargs)

    def __dlpack_device__(self):
        return self.array.__dlpack_device__()


def test_a_tensor_gives_a_tensor_made_by_its_new_zeros():
    x = np.random.default_rng(7).standard_normal((3, 160)).astype(np.float32)
    t = Tensorish(x.copy())
    y = nimcount.hadamard_transform_20N(t, 0.5)
    assert isinstance(y, Tensorish) and y.array.dtype == np.float32
    assert np.array_equal(t.array, x), "the input is left alone"
    want = 0.5 * product(order_matrix(FHT, 20), 3, x)
    np.testing.assert_allclose(y.array, want, rtol=0, atol=1e-5 * np.abs(want).max())
    # A length that is padded: the tensor is cut back with [..., :dim].
    y = nimcount.hadamard_transform(Tensorish(x[:, :100].copy()))
    assert isinstance(y, Tensorish) and y.shape == (3, 100)
    np.testing.assert_allclose(y.array, padded_reference(x[:, :100], 1), rtol=0, atol=1e-4)
    y = nimcount.matmul_hadU(Tensorish(x.copy()), transpose=True)
    assert isinstance(y, Tensorish)
    np.testing.assert_allclose(y.array, matmul_hadU_reference(x, True), rtol=0, atol=1e-5)
