"""What an embedded Gremlin query process imports of ours (issue #3: its peak RSS).

A program that opens a graph and runs reads should not import the REST adapter, the HugeGraph
algorithms, GraphSON IO, or the step families a query never names: each module it imports
stays in its memory for good. These tests run the process for real, in a fresh interpreter
(the test process has imported everything), and compare module sets, never figures.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from gremlin_engine.graph import GraphConfig, GraphRegistry

ROOT = Path(__file__).resolve().parents[2]

#: packages and modules a read-only query process must not have imported
NEVER_FOR_READS = (
    "rest_adapter",
    "gremlin_engine.algorithms",
    "gremlin_engine.io",
    "gremlin_engine.traversal.steps.strings",
    "gremlin_engine.traversal.steps.lists",
    "gremlin_engine.traversal.steps.conversions",
    "gremlin_engine.traversal.steps.match",
)

_PROBE = r"""
import json, sys
from gremlin_engine import GraphConfig, GraphRegistry

cfg = GraphConfig(name="people", backend="sqlite", store=sys.argv[1], schema_mode="strict")
registry = GraphRegistry(evaluation_timeout_ms=0)
graph = registry.open(cfg)
out = {"imported": [], "answers": []}
out["answers"].append(graph.execute("g.V().count()"))
out["answers"].append(graph.execute("g.V().has('person', 'name', n).values('age')", bindings={"n": "b"}))
out["imported"].append(sorted(sys.modules))
for script in sys.argv[2:]:
    out["answers"].append(graph.execute(script))
out["imported"].append(sorted(sys.modules))
registry.close_all()
print(json.dumps(out, default=str))
"""


@pytest.fixture(scope="module")
def store(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A file store with a strict schema, a secondary index on name and three people."""
    path = tmp_path_factory.mktemp("boundary") / "g.db"
    cfg = GraphConfig(name="people", backend="sqlite", store=str(path), schema_mode="strict")
    GraphRegistry.init_store(cfg)
    registry = GraphRegistry(evaluation_timeout_ms=0)
    graph = registry.open(cfg)
    s = graph.schema
    s.create("propertykey", {"name": "name", "data_type": "TEXT"})
    s.create("propertykey", {"name": "age", "data_type": "INT"})
    s.create("vertexlabel", {"name": "person", "id_strategy": "CUSTOMIZE_NUMBER",
                             "properties": ["name", "age"], "nullable_keys": ["age"]})
    _el, task = s.create("indexlabel", {"name": "personByName", "base_type": "VERTEX_LABEL",
                                        "base_value": "person", "index_type": "SECONDARY", "fields": ["name"]})
    if task:
        assert graph.tasks.wait(task, 60)["task_status"] == "success"
    graph.execute("g.addV('person').property(T.id, 1).property('name', 'a').property('age', 30)"
                  ".addV('person').property(T.id, 2).property('name', 'b').property('age', 41)"
                  ".addV('person').property(T.id, 3).property('name', 'c')")
    registry.close_all()
    return path


def _run(store: Path, *scripts: str) -> dict:
    env = {**os.environ, "PYTHONPATH": str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", "")}
    done = subprocess.run([sys.executable, "-c", _PROBE, str(store), *scripts],
                          cwd=ROOT, env=env, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout.splitlines()[-1])


def _loaded(modules: list[str], name: str) -> bool:
    return any(m == name or m.startswith(name + ".") for m in modules)


def test_a_read_query_process_leaves_the_rest_unimported(store: Path) -> None:
    out = _run(store)
    assert out["answers"] == [["3"], ["41"]] or out["answers"] == [[3], [41]]
    modules = out["imported"][0]
    assert "gremlin_engine.traversal.steps.filter" in modules  # the query ran through the engine
    assert [name for name in NEVER_FOR_READS if _loaded(modules, name)] == []


def test_a_lazy_step_family_loads_when_a_script_names_it(store: Path) -> None:
    """`toUpper()` is a string step: the first script that names it imports its family and
    gets the answer a fully imported table gives."""
    out = _run(store, "g.V(1).values('name').toUpper()", "g.V().values('age').fold().asString()")
    before, after = out["imported"]
    assert not _loaded(before, "gremlin_engine.traversal.steps.strings")
    assert _loaded(after, "gremlin_engine.traversal.steps.strings")
    assert _loaded(after, "gremlin_engine.traversal.steps.conversions")
    assert out["answers"][2:] == [["A"], ["[30, 41]"]]
    assert not _loaded(after, "gremlin_engine.algorithms")


def test_the_step_table_loads_families_in_order_and_completes_for_walks() -> None:
    """A miss loads pending families until one holds the name; an unknown name or any walk
    over the table loads the rest, so nothing reads a partial table."""
    from gremlin_engine.traversal.registry import StepSpec, StepTable

    loaded: list[str] = []

    def family(tag: str, *names: str) -> object:
        def load() -> dict[str, StepSpec]:
            loaded.append(tag)
            return {n: StepSpec(str, "", tag) for n in names}
        return load

    table = StepTable({"out": StepSpec(str, "str*", "flatmap")},
                      [family("a", "x"), family("b", "y"), family("c", "z")])  # type: ignore[list-item]
    assert table.get("out").family == "flatmap" and loaded == []
    assert table.loaded_items() == [("out", table.get("out"))] and loaded == []
    assert table.get("y").family == "b" and loaded == ["a", "b"]
    assert table.get("nothing") is None and loaded == ["a", "b", "c"]
    assert sorted(table) == ["out", "x", "y", "z"] and len(table) == 4

    walked = StepTable({}, [family("d", "w")])  # type: ignore[list-item]
    assert "w" in walked and walked["w"].family == "d"
    with pytest.raises(KeyError):
        walked["nothing"]
    assert [n for n, _ in StepTable({}, [family("e", "v")]).items()] == ["v"]  # type: ignore[list-item]
