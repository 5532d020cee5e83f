"""The README's Python table lists every public function with its own signature, and each of
its keyword parameters in it: a function or keyword added to the module without a word in the
table fails here, naming what to add.
"""

import inspect
import re
from pathlib import Path

import pytest

import nimcount

README = Path(__file__).parents[2] / "README.md"


def python_table():
    """The table rows of the README's ``## Python`` section (up to the next ``##`` heading)."""
    text = README.read_text(encoding="utf-8")
    section = re.search(r"^## Python\n(.*?)^## ", text, re.S | re.M)
    assert section, "README.md has no '## Python' section"
    return [line for line in section.group(1).splitlines() if line.startswith("|")]


def signatures(rows):
    """``{name: [parameters text, ...]}`` of every `` `name(...)` `` in the first cells."""
    found = {}
    for row in rows:
        first = row.split("|")[1]
        for name, params in re.findall(r"`(\w+)\(([^`]*)\)`", first):
            found.setdefault(name, []).append(params)
    return found


def missing_from(table):
    """What the table lacks: ``(function, [keywords])`` with ``None`` for a function without a
    signature of its own."""
    missing = []
    for name in nimcount.__all__:
        f = getattr(nimcount, name)
        if isinstance(f, type) or not callable(f):
            continue
        keywords = [p.name for p in inspect.signature(f).parameters.values()
                    if p.kind == p.KEYWORD_ONLY or p.default is not p.empty]
        listed = table.get(name)
        if not listed:
            missing.append((name, None))
            continue
        words = set(re.findall(r"\w+", " ".join(listed)))
        lacking = [k for k in keywords if k not in words]
        if lacking:
            missing.append((name, lacking))
    return missing


@pytest.mark.skipif(not README.exists(), reason="the package outside its repository")
def test_the_python_table_lists_every_function_and_keyword():
    missing = missing_from(signatures(python_table()))
    assert not missing, "README.md's Python table lacks: " + "; ".join(
        f"{name}(...) with its own signature" if lacking is None else f"{name}: {', '.join(lacking)}"
        for name, lacking in missing
    )


def test_a_missing_keyword_is_named():
    table = {"fwht": ["a, *, modulus=None"]}
    missing = dict(missing_from(table))
    assert "inverse" in missing["fwht"] and "scale" in missing["fwht"]
    assert missing["zeta"] is None
