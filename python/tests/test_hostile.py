"""Every public function against hostile arguments, and the costs, memory and threads of calls:
a documented exception for every mistake (never a Rust panic), refusals that name their keyword,
no abort under a memory limit, no thread left behind, Ctrl-C acting within a second."""

import _thread
import os
import pathlib
import shutil
import signal
import subprocess
import sys
import threading
import time

import numpy as np
import pytest

import nimcount

ROOT = pathlib.Path(__file__).resolve().parents[2]
DOCUMENTED = (ValueError, TypeError, MemoryError, OverflowError)
DTYPES = [np.bool_, np.int8, np.int16, np.int32, np.int64, np.uint8, np.uint16, np.uint32, np.uint64,
          np.float16, np.float32, np.float64, np.complex64, object, "U3"]


def hostile_arrays():
    """Arrays of every kind a caller might pass by mistake."""
    for dtype in DTYPES:
        yield np.zeros((), dtype)  # 0-d
        yield np.zeros(0, dtype)  # empty
        yield np.zeros((1,) * 33, dtype)  # beyond the array views' 32 dimensions
        yield np.zeros((1,) * 64, dtype)  # NumPy's most
        yield np.zeros((2,) * 6, dtype).transpose()  # not contiguous along the last axis
        yield np.zeros(8, dtype)[::2]
        yield np.zeros(6, dtype)  # not a power of two


def call_documented(f):
    """Calls ``f``; an exception must be a documented one (a Rust panic is a BaseException)."""
    try:
        f()
    except DOCUMENTED:
        pass
    except BaseException as e:  # noqa: BLE001
        pytest.fail(f"{type(e).__module__}.{type(e).__name__}: {e}")


def test_no_panic_reaches_python_from_any_array():
    for a in hostile_arrays():
        for kwargs in [{}, {"inverse": True}, {"axis": 0}, {"modulus": 7}, {"threads": 1}]:
            call_documented(lambda: nimcount.fwht(a.copy() if a.ndim else a, **kwargs))
        call_documented(lambda: nimcount.xor_convolve(a, a))
        call_documented(lambda: nimcount.xor_convolve(a, a, axis=0))
        call_documented(lambda: nimcount.xor_power(a, 3))
        call_documented(lambda: nimcount.xor_power(a, 2, modulus=7))
        call_documented(lambda: nimcount.count(histogram=a, heaps=2))


def test_64_dimensions_are_refused_with_a_value_error():
    for dtype in (np.float64, np.int64):
        for kwargs in [{"axis": 0}, {"axis": 0, "inverse": True}]:
            with pytest.raises(ValueError, match="64 dimensions; nimcount takes at most 32"):
                nimcount.fwht(np.zeros((1,) * 64, dtype), **kwargs)
    with pytest.raises(ValueError, match="33 dimensions"):
        nimcount.xor_power(np.zeros((1,) * 33), 2)


HOSTILE_INTS = [True, False, np.bool_(True), -1, -(10**1000), 10**1000, 2**64, 1.5, "3", None, [1], object()]


def test_no_panic_reaches_python_from_any_int():
    x = np.ones(4, np.uint64)
    for v in HOSTILE_INTS:
        call_documented(lambda: nimcount.fwht(x.copy(), modulus=v))
        call_documented(lambda: nimcount.fwht(x.copy(), threads=v))
        call_documented(lambda: nimcount.xor_power(x, v, modulus=7))
        call_documented(lambda: nimcount.count("nim", (1, v), 3))
        call_documented(lambda: nimcount.count("nim", (v, 5), 3))
        call_documented(lambda: nimcount.count("nim", (1, 5), v))
        call_documented(lambda: nimcount.count("nim", (1, 5), 3, modulus=v))
        call_documented(lambda: nimcount.count("nim", (1, 5), 3, max_work=v))
        call_documented(lambda: nimcount.count("nim", (1, 5), 3, max_heap=v))
        call_documented(lambda: nimcount.count(histogram={v: 1}, heaps=2))
        call_documented(lambda: nimcount.count(histogram={0: v}, heaps=2))
        call_documented(lambda: nimcount.grundy("nim", v))
        call_documented(lambda: nimcount.grundy("nim", 5, max_seconds=v))
        call_documented(lambda: nimcount.period("subtract:1,2", max_heap=v))
        call_documented(lambda: nimcount.play("nim", [v, 1]))
        call_documented(lambda: nimcount.play("nim", v))
        call_documented(lambda: nimcount.play("nim", [3], max_heap=v))


def test_bools_are_refused():
    for call in [
        lambda: nimcount.count("nim", (1, 5), True),
        lambda: nimcount.count("nim", (True, 5), 3),
        lambda: nimcount.count("nim", (1, 5), 3, modulus=True),
        lambda: nimcount.fwht(np.ones(4), threads=True),
        lambda: nimcount.fwht(np.ones(4, np.uint64), modulus=np.bool_(True)),
        lambda: nimcount.xor_power(np.ones(4), True),
        lambda: nimcount.grundy("nim", True),
        lambda: nimcount.play("nim", [True, 2]),
    ]:
        with pytest.raises(TypeError, match="bool"):
            call()
    with pytest.raises(ValueError, match="bool arrays"):
        nimcount.fwht(np.ones(4, np.bool_))


def test_sizes_from_a_huge_range_and_no_set():
    c = nimcount.count("nim", range(0, 10**30), 3)
    assert c.sizes == 10**30
    assert c.losing == nimcount.count("nim", (0, 10**30 - 1), 3).losing
    with pytest.raises(ValueError, match="empty"):
        nimcount.count("nim", range(10**30, 10**30), 3)
    with pytest.raises(ValueError, match="pair"):
        nimcount.count("nim", {1, 10}, 3)


def test_huge_ints_make_short_messages():
    for dtype in (np.uint32, np.uint64):
        with pytest.raises(ValueError) as e:
            nimcount.fwht(np.zeros(4, dtype), modulus=10**1000 + 1)
        assert len(str(e.value)) < 300, str(e.value)
        assert "bits" in str(e.value)
    with pytest.raises(ValueError) as e:
        nimcount.count("nim", (1, 5), -(10**1000))
    assert len(str(e.value)) < 300


def test_threads_are_refused_below_one_and_above_the_most():
    with pytest.raises(ValueError, match="threads=-1: give 1 to 256"):
        nimcount.fwht(np.ones(4), threads=-1)
    with pytest.raises(ValueError, match="threads=0: give 1 to 256"):
        nimcount.fwht(np.ones(4), threads=0)
    with pytest.raises(ValueError, match="threads=1023 is too many"):
        nimcount.fwht(np.ones(4), threads=1023)


def thread_count():
    for line in pathlib.Path("/proc/self/status").read_text().splitlines():
        if line.startswith("Threads:"):
            return int(line.split()[1])
    return threading.active_count()


@pytest.mark.skipif(not pathlib.Path("/proc/self/status").exists(), reason="Linux /proc")
def test_pools_of_many_sizes_leave_few_threads():
    x = np.ones(1 << 16)
    for n in range(2, 65):
        nimcount.fwht(x, threads=n)
        nimcount.fwht(x, threads=n, inverse=True)
    assert np.all(x == 1)
    # At most one pool of at most the core count, rayon's global pool and this process's own
    # threads; the dropped pools' threads end shortly after.
    limit = 2 * (os.cpu_count() or 1) + 16
    deadline = time.monotonic() + 10
    while thread_count() > limit and time.monotonic() < deadline:
        time.sleep(0.05)
    assert thread_count() <= limit


@pytest.mark.parametrize("dtype,wide", [(np.int8, np.int64), (np.int16, np.int64), (np.int32, np.int64),
                                        (np.uint8, np.uint32), (np.uint16, np.uint32)])
def test_narrow_integer_arrays_are_widened(dtype, wide):
    rng = np.random.default_rng(7)
    x = rng.integers(0, 4, size=(3, 8)).astype(dtype)
    want = nimcount.fwht(x.astype(wide))
    got = nimcount.fwht(x.copy())
    assert got.dtype == dtype
    assert np.array_equal(got, want.astype(dtype))
    if dtype in (np.uint8, np.uint16):
        y = x.copy()
        nimcount.fwht(y, modulus=7)
        assert np.array_equal(y, nimcount.fwht(x.astype(np.uint32), modulus=7))
        assert np.array_equal(nimcount.fwht(y, modulus=7, inverse=True), x)
    else:
        assert np.array_equal(nimcount.fwht(got, inverse=True), x)
    ring = {"modulus": 7} if wide == np.uint32 else {}
    conv = nimcount.xor_convolve(x, x, **ring)
    assert conv.dtype == wide
    assert np.array_equal(conv, nimcount.xor_convolve(x.astype(wide), x.astype(wide), **ring))
    power = nimcount.xor_power(x, 2, **ring)
    assert power.dtype == wide and np.array_equal(power, conv)


def test_narrow_results_that_do_not_fit_are_refused():
    x = np.full(8, 100, np.int8)
    with pytest.raises(ValueError, match="does not fit in int8"):
        nimcount.fwht(x)
    assert np.all(x == 100)
    with pytest.raises(ValueError, match="too large for uint8"):
        nimcount.fwht(np.zeros(4, np.uint8), modulus=257)
    # A new array of the wider dtype holds residues of any modulus.
    c = nimcount.xor_convolve(np.full(4, 255, np.uint8), np.ones(4, np.uint8), modulus=1_000_003)
    assert c.dtype == np.uint32 and c.tolist() == [1020] * 4


def test_lists_and_axis_for_convolution_and_power():
    assert nimcount.xor_convolve([1, 1], [1, 1]).tolist() == [2, 2]
    assert nimcount.xor_power([1.0, 1.0, 1.0, 1.0], 2).tolist() == [4.0] * 4
    a = np.arange(8, dtype=np.int64).reshape(4, 2)
    b = np.ones((4, 2), np.int64)
    by_columns = nimcount.xor_convolve(a, b, axis=0)
    assert np.array_equal(by_columns, nimcount.xor_convolve(a.T.copy(), b.T.copy()).T)
    p = nimcount.xor_power(a, 3, axis=0)
    assert np.array_equal(p, nimcount.xor_power(a.T.copy(), 3).T)
    with pytest.raises(ValueError, match="axis 2 is out of bounds"):
        nimcount.xor_power(a, 2, axis=2)


def test_two_views_of_one_buffer_are_refused_or_exact():
    n = 1 << 18
    want = nimcount.fwht(np.ones(n))
    for _ in range(100):
        buffer = bytearray(np.ones(n).tobytes())
        x, y = np.frombuffer(buffer, np.float64), np.frombuffer(buffer, np.float64)
        outcomes = []

        def work(a):
            try:
                nimcount.fwht(a, threads=1)
                outcomes.append("done")
            except ValueError as e:
                assert "in use" in str(e)
                outcomes.append("refused")

        threads = [threading.Thread(target=work, args=(a,)) for a in (x, y)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        if outcomes == ["done", "done"]:
            assert np.array_equal(x, nimcount.fwht(want.copy()))  # one after the other
        else:
            assert sorted(outcomes) == ["done", "refused"]
            assert np.array_equal(x, want)


def test_overlapping_slices_conflict_and_disjoint_ones_do_not():
    x = np.zeros(1 << 20)
    with nimcount._native.Held(x[: 1 << 19]):
        with pytest.raises(ValueError, match="in use"):
            nimcount.fwht(x[(1 << 19) - 4 : (1 << 19) + 4])
        nimcount.fwht(x[1 << 19 :])  # disjoint
    nimcount.fwht(x[: 1 << 19])  # released


def interrupted_after(seconds, call):
    """The seconds from the interrupt until ``call`` raised KeyboardInterrupt."""
    previous = signal.signal(signal.SIGINT, signal.default_int_handler)
    timer = threading.Timer(seconds, _thread.interrupt_main)
    try:
        timer.start()
        start = time.perf_counter()
        with pytest.raises(KeyboardInterrupt):
            call()
        return time.perf_counter() - start - seconds
    finally:
        timer.cancel()
        signal.signal(signal.SIGINT, previous)


def test_ctrl_c_stops_a_power_within_a_second():
    # About ten seconds of modular powers of 61-bit residues.
    x = np.arange(1 << 23, dtype=np.uint64)
    assert interrupted_after(0.5, lambda: nimcount.xor_power(x, 10**40 + 1, modulus=(1 << 61) - 1)) < 1.5


def test_ctrl_c_stops_grundy_values_and_period_searches_within_a_second():
    # Hexadecimal games of many digits: each value costs much, and the library reports progress
    # inside a value, which is where the module stops.
    assert interrupted_after(0.5, lambda: nimcount.grundy("hex:0.FF", 40000, max_seconds=1e9)) < 1.5
    assert interrupted_after(0.5, lambda: nimcount.period("hex:0." + "F" * 1024)) < 1.5


def test_ctrl_c_stops_a_misere_quotient_within_a_second():
    # Seconds of construction (Dawson's Kayles' heaps 0..=30, order 360): the construction reads
    # the request to stop between its steps, not only between heaps.
    call = lambda: nimcount.misere_quotient("dawsons-kayles", max_heap=30, max_states=10**6)  # noqa: E731
    assert interrupted_after(0.5, call) < 1.0
    # Nothing of the stopped search is remembered.
    assert nimcount.misere_quotient("octal:0.75").order == 8
    q = nimcount.misere_quotient("dawsons-kayles", max_heap=12)
    assert q.largest_heap == 12


def test_grundy_estimates_first_and_refuses():
    with pytest.raises(nimcount.TooCostly):
        nimcount.grundy("octal:0.6", 10**6, max_seconds=1e-6)
    start = time.perf_counter()
    with pytest.raises(nimcount.TooCostly) as e:
        nimcount.grundy("octal:0.6", 10**9)
    assert time.perf_counter() - start < 20
    assert e.value.keyword == "max_seconds"
    assert e.value.estimate > 30
    assert "max_seconds=" in str(e.value)
    assert len(nimcount.grundy("octal:0.6", 1000, max_seconds=5)) == 1000


def test_play_gives_one_move_without_all():
    with pytest.raises(nimcount.TooCostly) as e:
        nimcount.play("moore:2", [8191] * 4)
    assert e.value.keyword == "all"
    p = nimcount.play("moore:2", [8191] * 4, all=False)
    assert p.verdict == "won" and len(p.moves) == 1
    q = nimcount.play("nim", [3, 4, 5], all=False)
    assert q.moves == nimcount.play("nim", [3, 4, 5]).moves[:1]
    assert nimcount.play("nim", (h for h in [1, 1]), all=False).moves == []


def test_every_cost_refusal_is_too_costly_with_its_keyword():
    with pytest.raises(nimcount.TooCostly) as e:
        nimcount.count("fraction:1/2", (1, 10**15), 3)
    assert e.value.keyword == "max_work"
    assert "max_work=" in str(e.value)


def test_histograms_empty_sparse_and_narrow():
    with pytest.raises(ValueError, match="empty"):
        nimcount.count(histogram={}, heaps=2)
    with pytest.raises(ValueError, match="empty"):
        nimcount.count(histogram=np.zeros(0, np.uint64), heaps=2)
    c = nimcount.count(histogram={2**63: 1, 0: 1}, heaps=2)
    assert (c.losing, c.total) == (2, 4)
    huge = nimcount.count(histogram={2**200: 3, 5: 2}, heaps=3, modulus=10**9 + 7)
    assert huge.total == 125
    small = nimcount.count(histogram=np.array([1, 2, 3], np.uint8), heaps=2)
    assert small.losing == nimcount.count(histogram={0: 1, 1: 2, 2: 3}, heaps=2).losing
    wide = nimcount.count(histogram=np.array([2**40, 1], np.uint64), heaps=2)
    assert wide.losing == 2**80 + 1


# The calls under a memory limit are rows of the door matrix (test_doors.py, class "memory").


def test_the_stubs_match_the_module():
    pytest.importorskip("mypy")
    child = subprocess.run([sys.executable, "-m", "mypy.stubtest", "nimcount"], cwd=ROOT,
                           capture_output=True, text=True, timeout=600)
    assert child.returncode == 0, child.stdout + child.stderr


def test_bench_runs_from_the_repository_root(tmp_path):
    # The layout of the repository: the script beside the source folder, which lacks the
    # compiled module when the package is installed elsewhere.
    (tmp_path / "python").mkdir()
    shutil.copy(ROOT / "python" / "bench.py", tmp_path / "python" / "bench.py")
    shutil.copytree(ROOT / "python" / "nimcount", tmp_path / "python" / "nimcount",
                    ignore=shutil.ignore_patterns("_native*", "__pycache__"))
    child = subprocess.run([sys.executable, "python/bench.py", "--help"], cwd=tmp_path,
                           capture_output=True, text=True, timeout=120)
    assert child.returncode == 0, child.stdout + child.stderr
    assert "usage" in child.stdout
