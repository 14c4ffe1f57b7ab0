"""The direct indexed lookup's value handling (runtime/direct.py `_one_index_lookup`): the run's
value is used bare (no condition list, no `P`), coerced by the key's specialised coercer and,
for text, looked up as itself. Every key type and index type is compared with the ordinary
pipeline (values and Java types), including values of the wrong type, collections inside
list-valued keys and numbers of every width.
"""

from __future__ import annotations

import datetime as dt
from pathlib import Path
from typing import Any

import orjson
import pytest

from gremlin_engine.graph import Graph, GraphRegistry
from gremlin_engine.runtime import api, direct, direct_scripts
from gremlin_engine.runtime.reads import _props_match_raw
from gremlin_engine.structure.numbers import Int, Long
from gremlin_engine.traversal.predicates import P
from tests.runtime.conftest import _open, typed, with_schema

SCHEMA = (
    ("propertykey", {"name": "name", "data_type": "TEXT"}),
    ("propertykey", {"name": "code", "data_type": "INT"}),
    ("propertykey", {"name": "big", "data_type": "LONG"}),
    ("propertykey", {"name": "rate", "data_type": "DOUBLE"}),
    ("propertykey", {"name": "tags", "data_type": "TEXT", "cardinality": "LIST"}),
    ("propertykey", {"name": "when", "data_type": "DATE"}),
    ("vertexlabel", {"name": "item", "id_strategy": "CUSTOMIZE_STRING",
                     "properties": ["name", "code", "big", "rate", "tags", "when"],
                     "nullable_keys": ["code", "big", "rate", "tags", "when"]}),
    ("vertexlabel", {"name": "other", "id_strategy": "CUSTOMIZE_NUMBER", "properties": ["name"]}),
    ("indexlabel", {"name": "byName", "base_type": "VERTEX_LABEL", "base_value": "item",
                    "index_type": "SECONDARY", "fields": ["name"]}),
    ("indexlabel", {"name": "byCode", "base_type": "VERTEX_LABEL", "base_value": "item",
                    "index_type": "SECONDARY", "fields": ["code"]}),
    ("indexlabel", {"name": "byBig", "base_type": "VERTEX_LABEL", "base_value": "item",
                    "index_type": "RANGE", "fields": ["big"]}),
    ("indexlabel", {"name": "byRate", "base_type": "VERTEX_LABEL", "base_value": "item",
                    "index_type": "RANGE", "fields": ["rate"]}),
    ("indexlabel", {"name": "byTags", "base_type": "VERTEX_LABEL", "base_value": "item",
                    "index_type": "SECONDARY", "fields": ["tags"]}),
    ("indexlabel", {"name": "byWhen", "base_type": "VERTEX_LABEL", "base_value": "item",
                    "index_type": "SECONDARY", "fields": ["when"]}),
    ("indexlabel", {"name": "otherByName", "base_type": "VERTEX_LABEL", "base_value": "other",
                    "index_type": "UNIQUE", "fields": ["name"]}),
)

WHEN = dt.datetime(2020, 5, 17, 10, 30, tzinfo=dt.UTC)


@pytest.fixture
def graph(registry: GraphRegistry, tmp_path: Path) -> Graph:
    g = with_schema(_open(registry, tmp_path, "hugegraph", "strict"), SCHEMA)
    with api.write_access(g) as a:
        for i in range(6):
            a.add_vertex("item", f"i{i}", [("name", "same" if i < 3 else f"n{i}"), ("code", i % 3),
                                           ("big", 2**40 + i % 2), ("rate", i / 2), ("tags", "x"),
                                           ("tags", f"t{i}"), ("when", WHEN)])
        a.add_vertex("item", "uni", [("name", "żółw \u00e9\x01"), ("tags", "")])
        a.add_vertex("item", "bare", [("name", "")])
        a.add_vertex("other", Long(7), [("name", "same")])
    return g


def _same(graph: Graph, script: str, bindings: dict[str, Any], monkeypatch: pytest.MonkeyPatch) -> list[Any]:
    """Learns, runs directly (asserting the plan exists) and compares with the pipeline."""
    first = graph.execute(script, bindings=bindings)
    fast = graph.execute(script, bindings=bindings)
    entry = graph.registry.direct_scripts.get((script, graph.name, ()))  # type: ignore[union-attr]
    assert entry is not None
    plan = entry.plans.get(direct_scripts._signature(entry.names, bindings))
    assert plan is not None and plan.direct.kind == "index", (script, bindings)
    monkeypatch.setattr(direct, "ENABLED", False)
    try:
        plain = graph.execute(script, bindings=bindings)
    finally:
        monkeypatch.setattr(direct, "ENABLED", True)
    assert typed(first) == typed(plain), (script, bindings)
    assert typed(fast) == typed(plain), (script, bindings)
    return fast


VALUES: dict[str, list[Any]] = {
    "name": ["same", "n4", "", "żółw \u00e9\x01", "nobody", 3, Long(3), "SAME"],
    "code": [0, 1, 2, 9, Int(1), Long(1), 2**40, -(2**63), "1", "x"],
    "big": [2**40, 2**40 + 1, Long(2**40), 0, Int(5), "1099511627776"],
    "rate": [0, 1, 2, 5, "x", 2**40],
    "tags": ["x", "t3", "", "nope", 1],
    "when": ["2020-05-17 10:30:00", "2021-01-01", 1589711400000, 3, "not a date"],
}


@pytest.mark.parametrize("key", list(VALUES))
def test_each_key_type_answers_as_the_pipeline(graph: Graph, monkeypatch: pytest.MonkeyPatch, key: str) -> None:
    script = f"g.V().has('item', '{key}', v).id()"
    for v in VALUES[key]:
        _same(graph, script, {"v": v}, monkeypatch)


def test_found_ids_and_labels_are_exact(graph: Graph, monkeypatch: pytest.MonkeyPatch) -> None:
    assert _same(graph, "g.V().has('item', 'name', v).id()", {"v": "same"}, monkeypatch) == ["i0", "i1", "i2"]
    assert _same(graph, "g.V().has('item', 'code', v).id()", {"v": 1}, monkeypatch) == ["i1", "i4"]
    assert _same(graph, "g.V().has('item', 'big', v).id()", {"v": 2**40 + 1}, monkeypatch) == ["i1", "i3", "i5"]
    assert _same(graph, "g.V().has('item', 'tags', v).id()", {"v": "t3"}, monkeypatch) == ["i3"]
    assert _same(graph, "g.V().has('item', 'name', v).id()", {"v": ""}, monkeypatch) == ["bare"]
    # another label's index, its ids numbers
    assert typed(_same(graph, "g.V().has('other', 'name', v).id()", {"v": "same"}, monkeypatch)) == [(Long, 7)]


def test_the_bare_value_path_is_taken(graph: Graph, monkeypatch: pytest.MonkeyPatch) -> None:
    script = "g.V().has('item', 'name', v).id()"
    _same(graph, script, {"v": "same"}, monkeypatch)
    entry = graph.registry.direct_scripts.get((script, graph.name, ()))  # type: ignore[union-attr]
    plan = entry.plans[direct_scripts._signature(entry.names, {"v": "same"})]
    prep = plan.direct.memo[1]
    assert prep.outcome == "lookup" and prep.bare and prep.key == "name" and prep.text


def test_the_text_retest_is_props_match_raw() -> None:
    docs = [None, b"", b"{}", orjson.dumps({"name": "a"}), orjson.dumps({"name": ["a", "b"]}),
            orjson.dumps({"name": ["b", "a"]}), orjson.dumps({"name": "b"}), orjson.dumps({"name": 1}),
            orjson.dumps({"name": {"@v": "a"}}), orjson.dumps({"name": ["b", 1, "a"]}),
            orjson.dumps({"other": "a"}), orjson.dumps({"name": []}), orjson.dumps({"name": 2.5}),
            orjson.dumps({"name": [{"@v": "a", "@p": {}}]})]
    for raw in docs:
        for value in ("a", "b", "", "1"):
            held = direct._text_holds(raw, "name", value)
            expected = _props_match_raw([("name", P("eq", value))], raw)
            if held is None:  # only when a non-text entry asks for the condition's test
                assert direct._holds(raw, "name", P("eq", value), value) == expected
            else:
                assert held == expected, (raw, value)
