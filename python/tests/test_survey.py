"""``nimcount.survey`` against a plain mex and a plain misère search written here."""

import functools
import itertools

import pytest

import nimcount

QUICK = {"max_seconds_per_game": 0.2}


def values(moves, n):
    """G(0) … G(n - 1) of the subtraction game ``moves``, by definition."""
    g = []
    for size in range(n):
        seen = {g[size - m] for m in moves if m <= size}
        g.append(next(v for v in itertools.count() if v not in seen))
    return g


def misere_lost(moves, heaps):
    """Whether a position is lost in misère play, by searching its game tree."""

    @functools.lru_cache(maxsize=None)
    def lost(position):
        options = [
            tuple(sorted(position[:i] + ((h - m,) if h > m else ()) + position[i + 1:]))
            for i, h in enumerate(position)
            for m in moves
            if m <= h
        ]
        if not options:
            return False  # the player who cannot move wins in misère play
        return all(not lost(o) for o in options)

    return lost(tuple(sorted(h for h in heaps if h)))


def moves_of(game):
    return [int(m) for m in game.split(":")[1].split(",")] if "-" not in game else expand(game)


def expand(game):
    out = []
    for part in game.split(":")[1].split(","):
        a, _, b = part.partition("-")
        out.extend(range(int(a), int(b or a) + 1))
    return out


def test_subtraction_sets_within_one_to_five():
    rows = nimcount.survey("subtract:{1..5}", **QUICK)
    # {2, 3, 4} is {2, 4}: heaps 2k and 2k + 1 of {2, 4} are the same game, so taking 3 goes
    # where taking 2 or 4 goes.
    assert sum(1 + len(r["equal_to"]) for r in rows) == 31
    assert [(r["game"], r["equal_to"]) for r in rows if r["equal_to"]] == [("subtract:2,4", ["subtract:2-4"])]
    for row in rows:
        moves = expand(row["game"])
        normal = row["normal"]
        assert normal["status"] == "periodic", row
        pre, per = normal["preperiod"], normal["period"]
        g = values(moves, 3 * (pre + per) + 200)
        assert all(g[n] == g[n + per] for n in range(pre, len(g) - per)), row["game"]
        assert pre == 0 or g[pre - 1] != g[pre - 1 + per], row["game"]
        assert normal["largest_value"] == max(g)
        misere = row["misere"]
        assert misere["status"] in ("found", "tame"), row
        # Tame: misère Nim's rule on the values decides every position of up to 12 stones.
        if misere["status"] == "tame":
            for heaps in partitions(12):
                v = [g[h] for h in heaps]
                x = functools.reduce(lambda a, b: a ^ b, v, 0)
                rule = (x == 0) if any(t >= 2 for t in v) else (x == 1)
                assert rule == misere_lost(tuple(moves), heaps), (row["game"], heaps)


def partitions(stones, largest=None):
    largest = stones if largest is None else largest
    yield ()
    for h in range(1, min(stones, largest) + 1):
        for rest in partitions(stones - h, h):
            yield (h,) + rest


def test_rows_have_the_keys_of_the_json_output():
    (row,) = nimcount.survey("octal:0.77", **QUICK)
    assert set(row) == {"game", "equal_to", "equal_shifts", "equal_preperiods", "normal", "misere", "seconds"}
    assert set(row["normal"]) == {"status", "preperiod", "period", "saltus", "largest_value", "values",
                                  "theorem", "theorem_id", "never_periodic", "candidate", "pushed"}
    assert set(row["misere"]) == {"status", "order", "preperiod", "period", "theorem", "states_checked", "reached"}
    assert (row["normal"]["preperiod"], row["normal"]["period"]) == (71, 12)


def test_open_games_are_pushed():
    (row,) = nimcount.survey("octal:0.6", max_seconds_per_game=0.1, push=200_000)
    assert row["normal"]["status"] == "open"
    pushed = row["normal"]["pushed"]
    assert pushed["values"] == 200_000 and pushed["period"] is None
    assert pushed["largest_value"] >= row["normal"]["largest_value"]


def test_equal_codes_are_reported_once():
    rows = nimcount.survey(["octal:0.?7", "octal:0.4"], **QUICK)
    dawson = next(r for r in rows if r["game"] == "octal:0.07")
    assert dict(zip(dawson["equal_to"], dawson["equal_shifts"])) == {"octal:0.4": 1}
    assert sum(1 + len(r["equal_to"]) for r in rows) == 9


@pytest.mark.parametrize("pattern", ["octal:0.8", "hex:0.G", "subtract:{1..0}", "chess:0.?"])
def test_bad_patterns(pattern):
    with pytest.raises(ValueError, match="invalid pattern"):
        nimcount.survey(pattern)
