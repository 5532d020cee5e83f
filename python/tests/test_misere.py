"""misere_quotient, and misère counts of multisets and sets, against a plain misère search."""

import functools
import itertools

import pytest

import nimcount


def misere_lost(moves):
    """Whether a position of subtract:MOVES (heap sizes, ascending) is lost for the player to
    move when whoever cannot move wins: it has a move, and every option is won."""

    @functools.lru_cache(maxsize=None)
    def lost(position):
        options = []
        for i, h in enumerate(position):
            for m in moves:
                if m <= h:
                    rest = position[:i] + position[i + 1 :] + ((h - m,) if h > m else ())
                    options.append(tuple(sorted(rest)))
        return bool(options) and all(not lost(o) for o in options)

    return lambda heaps: lost(tuple(sorted(h for h in heaps if h > 0)))


def test_the_quotient_of_0_75_is_r8():
    q = nimcount.misere_quotient("octal:0.75")
    assert isinstance(q, nimcount.MisereQuotient)
    assert (q.game, q.order, q.preperiod, q.period, q.theorem_id) == ("octal:0.75", 8, 8, 2, "octal")
    assert q.generators == (("a", 1), ("b", 2), ("c", 5))
    assert q.elements[0] == "1" and [q.elements[a] for a in q.p_portion] == ["a", "b^2"]
    assert len(q.heaps) == q.preperiod + q.period and q.table is None
    assert all(isinstance(r, tuple) and len(r) == 2 for r in q.relations) and q.relations
    assert q.element(10**18) == q.heaps[8] and q.element(9) == q.heaps[9] and q.element(11) == q.heaps[9]
    assert q.as_dict()["order"] == 8
    with pytest.raises(ValueError):
        q.element(-1)
    with pytest.raises(TypeError):
        q.element(True)


@pytest.mark.parametrize("moves", [(1, 2), (1, 3, 4)])
def test_the_quotient_judges_every_small_position_as_the_search(moves):
    q = nimcount.misere_quotient("subtract:" + ",".join(map(str, moves)), table=True)
    assert len(q.table) == q.order and all(len(row) == q.order for row in q.table)
    lost = misere_lost(moves)
    for heaps in itertools.chain.from_iterable(
        itertools.combinations_with_replacement(range(13), k) for k in range(4)
    ):
        product = functools.reduce(lambda x, h: q.table[x][q.element(h)], heaps, 0)
        assert (product in q.p_portion) == lost(heaps), heaps


def test_published_orders():
    assert nimcount.misere_quotient("subtract:1,2").order == 6
    assert nimcount.misere_quotient("kayles").order == 40


def test_a_quotient_not_found_raises_with_the_keyword_that_searches_further():
    with pytest.raises(nimcount.QuotientNotFound) as e:
        nimcount.misere_quotient("dawsons-kayles", max_states=1000)
    assert e.value.keyword == "max_states" and "max_states= searches further" in str(e.value)
    assert isinstance(e.value, ValueError) and e.value.reason in str(e.value)
    with pytest.raises(nimcount.QuotientNotFound) as e:
        nimcount.misere_quotient("dawsons-kayles", max_order=10)
    assert e.value.keyword == "max_order"
    with pytest.raises(nimcount.QuotientNotFound) as e:
        nimcount.misere_quotient("nim")
    assert e.value.keyword is None and "octal games and finite subtraction games" in e.value.reason
    with pytest.raises(nimcount.TooCostly) as e:
        nimcount.misere_quotient("kayles", max_states=10**8, max_order=16384)
    assert e.value.keyword == "max_seconds" and "max_seconds= raises the limit" in str(e.value)
    for bad in [{"max_heap": 0}, {"max_order": 10**9}, {"max_states": -1}, {"max_seconds": 0}]:
        with pytest.raises(ValueError):
            nimcount.misere_quotient("kayles", **bad)
    with pytest.raises(ValueError, match="unknown game"):
        nimcount.misere_quotient("chess")


@pytest.mark.parametrize("moves", [(1, 2), (1, 3, 4)])
def test_unordered_and_distinct_misere_counts_equal_the_search(moves):
    game = "subtract:" + ",".join(map(str, moves))
    lost = misere_lost(moves)
    for lo, hi in [(0, 7), (1, 9)]:
        for k in range(4):
            for kind, tuples in [
                ("unordered", itertools.combinations_with_replacement(range(lo, hi + 1), k)),
                ("distinct", itertools.combinations(range(lo, hi + 1), k)),
            ]:
                tuples = list(tuples)
                want = sum(lost(t) for t in tuples)
                for modulus in [None, 10**9 + 7, 2**64, 12]:
                    c = nimcount.count(game, (lo, hi), k, misere=True, modulus=modulus, **{kind: True})
                    assert c.losing == (want if modulus is None else want % modulus), (game, lo, hi, k, kind)
                    assert c.total == (len(tuples) if modulus is None else len(tuples) % modulus)
                    assert c.kind == kind and c.play == "misere"


def dawson_lost():
    """Whether a position of Dawson's Kayles (octal:0.07: take two stones, leaving nothing, one
    heap or two non-empty heaps) is lost for the player to move in misère play."""

    @functools.lru_cache(maxsize=None)
    def lost(position):
        options = []
        for i, h in enumerate(position):
            rest = position[:i] + position[i + 1 :]
            if h >= 2:
                options.append(rest + ((h - 2,) if h > 2 else ()))
            for a in range(1, (h - 2) // 2 + 1):
                options.append(rest + (a, h - 2 - a))
        return bool(options) and all(not lost(tuple(sorted(o))) for o in options)

    return lambda heaps: lost(tuple(sorted(h for h in heaps if h > 0)))


def test_the_quotient_of_the_heaps_in_range_when_none_of_every_heap_is_found():
    lost = dawson_lost()
    q = nimcount.misere_quotient("dawsons-kayles", max_heap=12, table=True)
    assert q.largest_heap == 12 and q.period == 0 and "heaps up to 12" in q.reason
    assert q.theorem_id == "heaps" and len(q.heaps) == 13
    # It judges every position of up to three heaps of 0..=12 as the plain search does.
    for position in itertools.combinations_with_replacement(range(13), 3):
        product = 0
        for h in position:
            product = q.table[product][q.element(h)]
        assert (product in q.p_portion) == lost(position), position
    with pytest.raises(ValueError, match="above the heaps 0..=12"):
        q.element(13)
    # Without max_heap, not found as before; a quotient of every heap size keeps no reason.
    with pytest.raises(nimcount.QuotientNotFound):
        nimcount.misere_quotient("dawsons-kayles")
    q = nimcount.misere_quotient("octal:0.75", max_heap=100)
    assert q.largest_heap is None and q.reason is None and q.period == 2


def test_play_reaches_larger_quotients_with_max_states():
    lost = dawson_lost()
    q = nimcount.misere_quotient("dawsons-kayles", max_heap=21, max_states=10**6, table=True)
    assert q.largest_heap == 21
    for heaps in [(20, 21), (21, 21), (4, 20)]:
        p = nimcount.play("dawsons-kayles", heaps, misere=True, max_states=10**6)
        product = q.table[q.element(heaps[0])][q.element(heaps[1])]
        assert (p.verdict == "lost") == (product in q.p_portion), heaps
    assert nimcount.play("dawsons-kayles", (4, 6), misere=True, max_states=10**6).verdict == (
        "lost" if lost((4, 6)) else "won"
    )
    with pytest.raises(ValueError, match="misere=True"):
        nimcount.play("kayles", (3, 4), max_states=10**6)
