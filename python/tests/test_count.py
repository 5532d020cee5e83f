"""count, grundy, period and play against brute force in Python."""

import _thread
import itertools
import pathlib
import re
import signal
import threading
import time

import numpy as np
import pytest

import nimcount


def grundy_subtract(moves, n):
    g = []
    for h in range(n):
        options = {g[h - m] for m in moves if m <= h}
        g.append(min(set(range(len(options) + 1)) - options))
    return g


def brute_count(values, heaps, kind="ordered"):
    """(losing, total) over tuples, multisets or sets of heap sizes with these Grundy values."""
    if kind == "ordered":
        tuples = itertools.product(values, repeat=heaps)
    elif kind == "unordered":
        tuples = itertools.combinations_with_replacement(values, heaps)
    else:
        tuples = itertools.combinations(values, heaps)
    losing = total = 0
    for t in tuples:
        x = 0
        for v in t:
            x ^= v
        losing += x == 0
        total += 1
    return losing, total


def test_the_seed_query():
    start = time.perf_counter()
    c = nimcount.count("subtract:1-1000000", (1, 12983567378251), 98670634123, modulus=10**9 + 7)
    elapsed = time.perf_counter() - start
    assert c.losing == 154334921
    assert c.total == pow(12983567378251, 98670634123, 10**9 + 7)
    assert c.winning == (c.total - c.losing) % (10**9 + 7)
    assert (c.period.preperiod, c.period.period, c.period.saltus) == (0, 1000001, 0)
    assert c.theorem.startswith("subtraction set {1..1000000}")
    assert c.as_dict()["losing"] == 154334921
    print(f"seed query: {elapsed * 1e3:.2f} ms")


@pytest.mark.parametrize("kind", ["ordered", "unordered", "distinct"])
@pytest.mark.parametrize("heaps", [0, 1, 2, 3])
def test_counts_match_brute_force(kind, heaps):
    g = grundy_subtract([1, 3, 4], 13)
    values = g[2:13]
    want = brute_count(values, heaps, kind)
    c = nimcount.count("subtract:1,3,4", range(2, 13), heaps, unordered=kind == "unordered",
                       distinct=kind == "distinct")
    assert (c.losing, c.total) == want
    assert c.kind == kind
    m = nimcount.count("subtract:1,3,4", (2, 12), heaps, modulus=7, unordered=kind == "unordered",
                       distinct=kind == "distinct")
    assert (m.losing, m.total, m.modulus) == (want[0] % 7, want[1] % 7, 7)


def test_histograms_as_dict_and_array():
    values = grundy_subtract([1, 2], 10)
    counts = np.bincount(values)
    want = brute_count(values, 3)
    by_dict = nimcount.count(histogram={v: int(c) for v, c in enumerate(counts)}, heaps=3)
    by_array = nimcount.count(histogram=counts.astype(np.uint64), heaps=3)
    assert (by_dict.losing, by_dict.total) == want == (by_array.losing, by_array.total)
    assert by_dict.source == "histogram"
    huge = nimcount.count(histogram={0: 10**30, 1: 10**30}, heaps=2)
    assert huge.losing == 2 * 10**60


def test_huge_numbers_both_ways():
    c = nimcount.count("nim", (1, 2**200), 1)
    assert c.total == 2**200 and c.losing == 0
    big = nimcount.count("nim", (0, 3), 10**50, modulus=2**300 + 1)
    assert big.total == pow(4, 10**50, 2**300 + 1)


def test_misere_nim():
    # Misère nim: lost when some heap is >= 2 and the XOR is 0, or all heaps <= 1 and an odd number of 1s.
    def lost(t):
        if max(t) >= 2:
            x = 0
            for v in t:
                x ^= v
            return x == 0
        return sum(t) % 2 == 1

    want = sum(lost(t) for t in itertools.product(range(0, 6), repeat=3))
    assert nimcount.count("nim", (0, 5), 3, misere=True).losing == want


def test_probability():
    p = nimcount.count(histogram={0: 3, 1: 1}, heaps=2, probability=True)
    assert (p.losing, p.winning, p.total, p.exact) == (0.625, 0.375, 1.0, True)


def test_moore():
    c = nimcount.count("moore:2", (1, 40), 5)
    assert c.losing == 160800 and c.source == "digits"


def test_grundy_period_and_play():
    assert nimcount.grundy("octal:0.137", 10).tolist() == [0, 1, 1, 2, 0, 3, 1, 1, 0, 3]
    assert nimcount.grundy("subtract:1,3,4", 30).tolist() == grundy_subtract([1, 3, 4], 30)
    assert nimcount.grundy("nim", 5).dtype == np.uint64
    p = nimcount.period("octal:0.77")
    assert (p.preperiod, p.period, p.saltus, p.theorem_id) == (71, 12, 0, "octal-splitting")
    hex08 = nimcount.period("hex:0.8")
    assert (hex08.preperiod, hex08.period, hex08.saltus, hex08.theorem_id) == (1, 3, 1, "hexadecimal-saltus")
    open_game = nimcount.period("octal:0.6", max_heap=3000)
    assert open_game.period is None and open_game.suggested_max_heap > 3000
    played = nimcount.play("nim", [3, 4, 5])
    assert played.verdict == "won" and played.won and played.grundy == [3, 4, 5]
    assert [str(m) for m in played.moves] == ["heap 1: 3 → 1"]
    assert played.moves[0].changes == ((0, 3, (1,)),)
    assert nimcount.play("nim", [1, 2, 3]).moves == []
    assert nimcount.play("nim", [1, 1, 1], misere=True).verdict == "lost"
    assert nimcount.play("moore:2", [1, 2, 3, 3]).verdict == "lost"
    assert nimcount.play("subtract:1,3,4", [10**30, 5]).verdict == "won"
    # Every winning move: all-but positions show theirs, Kayles lists every split.
    assert [str(m) for m in nimcount.play("allbut:1,2", [100, 6]).moves] == [
        "heap 1: 100 → 6",
        "heap 1: 100 → 7",
        "heap 1: 100 → 8",
    ]
    assert len(nimcount.play("kayles", [10, 17, 170]).moves) == 29


def test_refusals_are_too_costly_with_the_keyword():
    with pytest.raises(nimcount.TooCostly) as info:
        nimcount.count("nim", (1, 1000), 10**9, modulus=10**300000)
    assert info.value.keyword == "max_work" and info.value.estimate > 4 * 10**8
    assert "max_work=" in str(info.value)
    assert isinstance(info.value, ValueError)
    with pytest.raises(nimcount.TooCostly) as info:
        nimcount.count("octal:0.6", (1, 10**9), 3, max_heap=3000)
    assert info.value.keyword == "max_heap" and "max_heap=" in str(info.value)
    assert info.value.estimate > 60


def test_errors():
    def raises(match, call, exception=ValueError):
        with pytest.raises(exception, match=match) as info:
            call()
        assert "\n" not in str(info.value)

    raises("needs sizes", lambda: nimcount.count("nim", heaps=3))
    raises("heaps= is required", lambda: nimcount.count("nim", (1, 3)))
    raises("range of step 1", lambda: nimcount.count("nim", range(1, 10, 2), 3))
    raises("empty", lambda: nimcount.count("nim", range(5, 5), 3))
    raises("empty range of heap sizes", lambda: nimcount.count("nim", (5, 3), 3))
    raises("pair", lambda: nimcount.count("nim", 5, 3))
    raises("invalid game 'octal:0.8'", lambda: nimcount.count("octal:0.8", (1, 3), 3))
    raises("not to a histogram", lambda: nimcount.count(histogram={0: 1}, sizes=(1, 2), heaps=3))
    raises("choose one", lambda: nimcount.count("nim", (1, 3), 3, unordered=True, distinct=True))
    raises("modulus=0", lambda: nimcount.count("nim", (1, 3), 3, modulus=0))
    raises("drop modulus=", lambda: nimcount.count("nim", (1, 3), 3, modulus=5, probability=True))
    raises("heaps 0..=5000 is above the limit of heap 1000", lambda: nimcount.count("lasker", (1, 5000), 3, misere=True))
    raises("at least 0", lambda: nimcount.count("nim", (-1, 3), 3))
    raises("must be an int", lambda: nimcount.count("nim", (1.5, 3), 3), TypeError)
    raises("moore:2: only ordered positions are counted", lambda: nimcount.count("moore:2", (1, 3), 3, unordered=True))
    raises("max_work=0", lambda: nimcount.count("nim", (1, 3), 3, max_work=0))
    raises("1-d", lambda: nimcount.count(histogram=np.ones((2, 2), np.uint64), heaps=2))
    raises("negative", lambda: nimcount.count(histogram=np.array([1, -1]), heaps=2))
    raises("misère search of this position", lambda: nimcount.play("octal:0.137", [60, 60], misere=True))
    raises("no Grundy values", lambda: nimcount.grundy("moore:2", 3))


def test_ctrl_c_interrupts_a_long_computation():
    # Python's own handler, also where SIGINT was ignored at start (a background job).
    previous = signal.signal(signal.SIGINT, signal.default_int_handler)
    timer = threading.Timer(0.5, _thread.interrupt_main)
    try:
        timer.start()
        start = time.perf_counter()
        with pytest.raises(KeyboardInterrupt):
            nimcount.period("octal:0.6", max_heap=3_000_000)  # a minute of work
        assert time.perf_counter() - start < 5
    finally:
        timer.cancel()
        signal.signal(signal.SIGINT, previous)


def test_the_version_is_the_crate_version():
    root = pathlib.Path(__file__).resolve().parents[2] / "Cargo.toml"
    version = re.search(r'^version = "([^"]+)"', root.read_text(), re.M).group(1)
    assert nimcount.__version__ == version


def test_docstrings_have_examples():
    for name in ["fwht", "xor_convolve", "xor_power", "count", "grundy", "period", "play", "misere_quotient"]:
        doc = getattr(nimcount, name).__doc__
        assert "Examples" in doc and ">>>" in doc, name


def test_the_docstring_examples_run():
    import doctest

    failures, tried = doctest.testmod(nimcount, optionflags=doctest.NORMALIZE_WHITESPACE)
    assert tried >= 20 and failures == 0


def test_sums_of_different_games():
    # One Nim heap of 0..=3 and one heap of subtract:1,2 (values n mod 3) of 0..=5.
    c = nimcount.count(parts=[("nim", (0, 3), 1), ("subtract:1,2", range(0, 6), 1)])
    assert (c.losing, c.total, c.source) == (6, 24, "sum")
    one = nimcount.count("octal:0.77", (1, 100), 3, modulus=10**9 + 7)
    assert nimcount.count(parts=[("octal:0.77", (1, 100), 3)], modulus=10**9 + 7).losing == one.losing
    with pytest.raises(ValueError, match="drop game"):
        nimcount.count("nim", parts=[("nim", (0, 3), 1)])


def test_misere_play_of_any_game():
    # Dawson's Kayles (octal:0.07): a heap of 1 has no move, so 1 alone is won in misère play.
    assert nimcount.play("octal:0.07", [1], misere=True).verdict == "won"
    assert nimcount.play("subtract:2", [3], misere=True).verdict == "lost"


@pytest.mark.parametrize("kind", ["ordered", "unordered", "distinct"])
def test_heaps_range_sums_the_brute_force_counts(kind):
    values = grundy_subtract([1, 3, 4], 12)[1:]
    flags = {"unordered": kind == "unordered", "distinct": kind == "distinct"}
    for lo, hi in [(0, 0), (0, 3), (1, 4), (3, 3)]:
        brute = [brute_count(values, k, kind) for k in range(lo, hi + 1)]
        losing, total = sum(b[0] for b in brute), sum(b[1] for b in brute)
        for modulus in [None, 998244353, 12]:
            c = nimcount.count("subtract:1,3,4", range(1, 12), range(lo, hi + 1), modulus=modulus, **flags)
            reduce = (lambda x: x) if modulus is None else (lambda x: x % modulus)
            assert (c.losing, c.total) == (reduce(losing), reduce(total)), (lo, hi, modulus)
            assert c.heaps == range(lo, hi + 1)


def test_heaps_range_of_any_size_and_its_refusals():
    c = nimcount.count("nim", (1, 10**12), range(1, 10**18 + 1), modulus=998244353)
    assert 0 <= c.losing < 998244353
    for bad in [range(5, 3), range(1, 10, 2)]:
        with pytest.raises(ValueError, match="heaps="):
            nimcount.count("nim", (0, 7), bad)
    with pytest.raises(ValueError, match="range of heap counts"):
        nimcount.count("nim", (0, 7), range(1, 4), probability=True)
    # Misère play over a range of heap counts: the counts of each number of heaps, summed (nim of
    # every kind, ordered heaps of a game with a quotient); multisets of such a game, refused.
    for game, flags in [("nim", {}), ("nim", {"unordered": True}), ("nim", {"distinct": True}), ("kayles", {})]:
        c = nimcount.count(game, (0, 7), range(1, 4), misere=True, **flags)
        each = [nimcount.count(game, (0, 7), k, misere=True, **flags) for k in range(1, 4)]
        assert (c.losing, c.total) == (sum(e.losing for e in each), sum(e.total for e in each))
    with pytest.raises(ValueError, match="range of heap counts"):
        nimcount.count("kayles", (0, 7), range(1, 4), misere=True, unordered=True)


def test_misere_counts_by_the_quotient_equal_play():
    # octal:0.75 has a misère quotient (order 8): ordered pairs over 0..=7 counted by it, and
    # each pair judged by play.
    lost = sum(
        nimcount.play("octal:0.75", [a, b], misere=True).verdict == "lost" for a in range(8) for b in range(8)
    )
    assert nimcount.count("octal:0.75", (0, 7), 2, misere=True).losing == lost
    assert nimcount.count("octal:0.75", (0, 7), 2, misere=True, modulus=12).losing == lost % 12
