"""`TextP.regex` built outside a script (bytecode, REST) meets the script's regex guard:
Python's `re` cannot be interrupted, so a catastrophic pattern is refused when the
predicate is made, wherever it comes from."""

from __future__ import annotations

import pytest

from gremlin_engine.errors import StepArgumentError
from gremlin_engine.traversal.predicates import make_predicate

from .gremlin import g
from .helpers import r


def test_a_catastrophic_pattern_is_refused_in_any_predicate() -> None:
    for name in ("regex", "notRegex"):
        with pytest.raises(StepArgumentError, match=r"regex '\(a\+\)\+\$' is refused: a repeated group"):
            make_predicate("TextP", name, ["(a+)+$"])


def test_plain_patterns_still_match(graph) -> None:
    assert r(g.V().has("name", make_predicate("TextP", "regex", ["^ma.*"])).values("name"), graph) == ["marko"]
    names = r(g.V().has("name", make_predicate("TextP", "notRegex", ["o"])).values("name"), graph)
    assert sorted(names) == ["peter", "ripple", "vadas"]
    assert r(g.V().has("name", make_predicate("TextP", "regex", ["(ab)+|^v"])).values("name"), graph) == ["vadas"]
