"""nimcount.fwht against fht_cpu.fht (when installed) and a NumPy loop, one thread, same process.

    python python/bench.py [--min-log2 10] [--max-log2 24] [--runs 7] [--nimcount-bench PATH]

Every size is timed in turns (nimcount, fht_cpu, NumPy, nimcount, ...) and the median of each is
printed with the ratios ``fht_cpu / nimcount`` and ``numpy / nimcount`` (above 1: nimcount is
faster). Then the call overhead of a 2^6-element float32 transform, and uint32 residues modulo
998244353 at 2^20 against ``nimcount bench`` for the same ring and size (when the binary is
given or on PATH). Then the two shapes of machine learning's use (with ml_dtypes and fht_cpu
installed): bfloat16 2048 x 4096 in place with a scale, against what a user does without
nimcount (convert to float32, ``fht_cpu.fht``, scale, convert back), float32 256 x 28672
(28 * 2^10) against ``fht_cpu.fht`` on the 1024-point rows plus ``np.matmul`` by the 28 x 28
matrix, and bfloat16 256 x 11008 (172 * 2^6) through ``matmul_hadU`` against the same recipe with
Sloane's 172 x 172 matrix. BLAS and nimcount's default pool run on one thread
(OPENBLAS_NUM_THREADS, RAYON_NUM_THREADS and the like are set to 1 unless given).
"""

import argparse
import json
import os
import pathlib
import platform
import re
import shutil
import statistics
import subprocess
import sys
import time
import timeit

# `python python/bench.py` puts this script's folder first on sys.path, where the source folder
# nimcount/ would hide the installed package when it holds no compiled module (`pip install
# ./python` installs it elsewhere): then the folder leaves sys.path.
_HERE = pathlib.Path(__file__).resolve().parent
if not any((_HERE / "nimcount").glob("_native*")):
    sys.path[:] = [p for p in sys.path if pathlib.Path(p or os.curdir).resolve() != _HERE]

# One thread for NumPy's BLAS too (np.matmul), set before NumPy loads it.
for _variable in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS", "RAYON_NUM_THREADS"):
    os.environ.setdefault(_variable, "1")

import numpy as np  # noqa: E402

import nimcount  # noqa: E402

try:
    import fht_cpu
except ImportError:  # optional
    fht_cpu = None

try:
    import ml_dtypes
except ImportError:  # optional
    ml_dtypes = None


def numpy_fwht(x):
    """The textbook radix-2 loop, vectorised per level with NumPy (in place)."""
    n = x.shape[-1]
    h = 1
    while h < n:
        v = x.reshape(-1, 2, h)
        a = v[:, 0, :].copy()
        v[:, 0, :] += v[:, 1, :]
        np.subtract(a, v[:, 1, :], out=v[:, 1, :])
        h *= 2
    return x


def median_seconds(fn, data, runs):
    """The median time of `fn` on a fresh copy of `data` each run (the copy is not timed)."""
    buffer = np.empty_like(data)
    times = []
    for _ in range(runs):
        np.copyto(buffer, data)
        start = time.perf_counter()
        fn(buffer)
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def cpu_name():
    try:
        out = subprocess.run(["lscpu"], capture_output=True, text=True, check=True).stdout
        return re.search(r"Model name:\s*(.+)", out).group(1).strip()
    except Exception:  # noqa: BLE001 - lscpu is optional
        return platform.processor() or "unknown CPU"


def floats(args):
    rng = np.random.default_rng(1)
    print(f"{'dtype':8} {'n':>6} {'nimcount ms':>12} {'fht_cpu ms':>11} {'numpy ms':>9} {'fht_cpu/nc':>10} {'numpy/nc':>9}")
    for dtype in (np.float32, np.float64):
        for log2 in range(args.min_log2, args.max_log2 + 1, 2):
            n = 1 << log2
            x = rng.standard_normal(n).astype(dtype)
            contenders = {"nimcount": lambda a: nimcount.fwht(a, threads=1)}
            if fht_cpu is not None:
                contenders["fht_cpu"] = lambda a: fht_cpu.fht(a, num_threads=1)
            if log2 <= args.numpy_max_log2:
                contenders["numpy"] = numpy_fwht
            # Same answer first (a transform of a copy each).
            want = nimcount.fwht(x.astype(np.float64), threads=1)
            for name, fn in contenders.items():
                got = fn(x.copy()).astype(np.float64)
                assert np.allclose(got, want, rtol=1e-4, atol=1e-3 * np.sqrt(n)), name
            times = {name: [] for name in contenders}
            runs = args.runs if log2 <= 20 else max(3, args.runs // 2)
            for _ in range(runs):  # in turns, so that load on a busy host falls on all alike
                for name, fn in contenders.items():
                    times[name].append(median_seconds(fn, x, 1 if n >= 1 << 16 else 20))
            med = {name: statistics.median(t) * 1e3 for name, t in times.items()}
            nc = med["nimcount"]
            fc = med.get("fht_cpu")
            npy = med.get("numpy")
            print(
                f"{np.dtype(dtype).name:8} 2^{log2:<4} {nc:12.4f} "
                f"{(f'{fc:11.4f}' if fc else '          -')} {(f'{npy:9.3f}' if npy else '        -')} "
                f"{(f'{fc / nc:10.2f}' if fc else '         -')} {(f'{npy / nc:9.1f}' if npy else '        -')}"
            )


def overhead():
    x = np.ones(64, dtype=np.float32)
    loops = 100_000
    best = min(timeit.repeat(lambda: nimcount.fwht(x, threads=1), number=loops, repeat=5)) / loops
    default = min(timeit.repeat(lambda: nimcount.fwht(x), number=loops, repeat=5)) / loops
    line = f"call overhead, 2^6 float32: {best * 1e6:.2f} us (threads=1), {default * 1e6:.2f} us (threads=None)"
    if fht_cpu is not None:
        theirs = min(timeit.repeat(lambda: fht_cpu.fht(x, num_threads=1), number=loops, repeat=5)) / loops
        line += f"; fht_cpu {theirs * 1e6:.2f} us"
    print(line)


def against_cli(args):
    binary = args.nimcount_bench or shutil.which("nimcount")
    m, log2 = 998_244_353, 20
    x = np.random.default_rng(2).integers(0, m, size=1 << log2, dtype=np.uint32)
    if not binary or not os.path.exists(binary):
        print("nimcount bench: binary not found (--nimcount-bench PATH)")
        return
    python_ms, cli_ms = [], []
    command = [binary, "bench", "--ring", "u32", "--modulus", str(m), "--log2", str(log2), "--threads", "1",
               "--no-textbook", "--json"]
    for _ in range(args.runs):  # in turns
        python_ms.append(median_seconds(lambda a: nimcount.fwht(a, modulus=m, threads=1), x, 9) * 1e3)
        out = subprocess.run(command, capture_output=True, text=True, check=True).stdout
        cli_ms.append(cli_milliseconds(out))
    py, cli = statistics.median(python_ms), statistics.median(cli_ms)
    print(f"uint32 mod {m}, 2^{log2}, one thread: nimcount.fwht {py:.3f} ms, nimcount bench {cli:.3f} ms, ratio {py / cli:.2f}")


def cli_milliseconds(out):
    """The fast transform's median time from `nimcount bench --json`."""
    return json.loads(out.strip().splitlines()[-1])["median_ns"] / 1e6


def timed_in_turns(contenders, data, runs):
    """The median milliseconds of each contender, timed in turns on fresh copies of ``data``."""
    times = {name: [] for name in contenders}
    for _ in range(runs):
        for name, fn in contenders.items():
            times[name].append(median_seconds(fn, data, 1))
    return {name: statistics.median(t) * 1e3 for name, t in times.items()}


def machine_learning(args):
    if ml_dtypes is None or fht_cpu is None:
        print("machine learning shapes: skipped (pip install ml_dtypes fht-cpu)")
        return
    rng = np.random.default_rng(3)
    bf16 = np.dtype(ml_dtypes.bfloat16)

    # bfloat16 2048 x 4096, scale 1/sqrt(4096), in place.
    x = rng.standard_normal((2048, 4096)).astype(bf16)
    scale = 1 / 64

    def without(a):
        f = a.astype(np.float32)
        fht_cpu.fht(f, num_threads=1)
        f *= scale
        a[...] = f.astype(bf16)

    contenders = {
        "nimcount": lambda a: nimcount.fwht(a, scale=scale, threads=1),
        "float32 + fht_cpu": without,
    }
    a, b = x.copy(), x.copy()
    contenders["nimcount"](a)
    without(b)
    diff = np.abs(a.astype(np.float32) - b.astype(np.float32)).max() / np.abs(b.astype(np.float32)).max()
    assert diff <= 1e-2, diff
    med = timed_in_turns(contenders, x, args.runs)
    nc, other = med["nimcount"], med["float32 + fht_cpu"]
    print(f"bfloat16 2048 x 4096, scale: nimcount {nc:.2f} ms, float32 + fht_cpu + scale + back {other:.2f} ms, ratio {other / nc:.2f}")

    # float32 256 x 28672 = 28 * 2^10.
    y = rng.standard_normal((256, 28 << 10)).astype(np.float32)
    h28 = nimcount.hadamard_matrix(28, dtype=np.float32)

    def matmul(a):
        blocks = a.reshape(256, 28, 1024)
        fht_cpu.fht(a.reshape(256 * 28, 1024), num_threads=1)
        a[...] = np.matmul(h28, blocks).reshape(256, 28 << 10)

    contenders = {"nimcount": lambda a: nimcount.fwht(a, threads=1), "fht_cpu + matmul": matmul}
    a, b = y.copy(), y.copy()
    contenders["nimcount"](a)
    matmul(b)
    assert np.allclose(a, b, rtol=1e-4, atol=1e-3), np.abs(a - b).max()
    med = timed_in_turns(contenders, y, args.runs)
    nc, other = med["nimcount"], med["fht_cpu + matmul"]
    print(f"float32 256 x 28672: nimcount {nc:.2f} ms, fht_cpu on 1024-point rows + np.matmul by H28 {other:.2f} ms, ratio {other / nc:.2f}")

    # bfloat16 256 x 11008 = 172 * 2^6 (Llama-2-7B's intermediate size), QuIP#'s and QuaRot's
    # matmul_hadU: Sloane's H_172 (family "sloane"), scaled by 1/sqrt(n), out of place.
    n = 172 << 6
    z = rng.standard_normal((256, n)).astype(bf16)
    h172 = nimcount.hadamard_matrix(172, dtype=np.float32, family="sloane")

    def recipe(a):
        f = a.astype(np.float32)
        fht_cpu.fht(f.reshape(256 * 172, 64), num_threads=1)
        return (np.matmul(h172, f.reshape(256, 172, 64)).reshape(256, n) / np.sqrt(n)).astype(bf16)

    contenders = {"nimcount": nimcount.matmul_hadU, "float32 + fht_cpu + matmul": recipe}
    a, b = nimcount.matmul_hadU(z), recipe(z)
    diff = np.abs(a.astype(np.float32) - b.astype(np.float32)).max() / np.abs(b.astype(np.float32)).max()
    assert diff <= 1e-2, diff
    med = timed_in_turns(contenders, z, args.runs)
    nc, other = med["nimcount"], med["float32 + fht_cpu + matmul"]
    print(f"bfloat16 256 x 11008 (172 * 2^6), matmul_hadU: nimcount {nc:.2f} ms, float32 + fht_cpu on 64-point parts + np.matmul by H172 + scale + back {other:.2f} ms, ratio {other / nc:.2f}")


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--min-log2", type=int, default=10)
    parser.add_argument("--max-log2", type=int, default=24)
    parser.add_argument("--numpy-max-log2", type=int, default=22)
    parser.add_argument("--runs", type=int, default=7)
    parser.add_argument("--nimcount-bench", help="the nimcount binary (default: nimcount on PATH)")
    parser.add_argument("--only-ml", action="store_true", help="only the machine learning shapes")
    args = parser.parse_args()
    fht = f"fht_cpu {fht_cpu.__version__}" if fht_cpu is not None else "fht_cpu not installed (pip install fht-cpu)"
    print(f"nimcount {nimcount.__version__}, {fht}, numpy {np.__version__}; {cpu_name()}, one thread")
    if not args.only_ml:
        floats(args)
        overhead()
        against_cli(args)
    machine_learning(args)


if __name__ == "__main__":
    main()
