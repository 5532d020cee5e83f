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
