"""Loading GraphSON into a real memory graph through the engine's write path."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

from gremlin_engine.errors import Forbidden, HugeliteError
from gremlin_engine.graph import GraphConfig, GraphRegistry
from gremlin_engine.io import load_graphson, read_into, write_access
from gremlin_engine.structure.numbers import Float
from gremlin_engine.traversal.tokens import Direction

DATA = Path(
    os.environ.get("HUGELITE_TINKERPOP_DIR") or Path(__file__).resolve().parents[3] / "shared" / "tinkerpop"
) / "data"
pytestmark = pytest.mark.skipif(not DATA.is_dir(), reason=f"TinkerPop data folder {DATA} is absent")
pytest.importorskip("gremlin_engine.runtime.access", reason="the engine runtime is not there yet")


@pytest.fixture
def registry() -> GraphRegistry:
    return GraphRegistry()


def new_graph(registry: GraphRegistry, name: str):
    return registry.create(GraphConfig(name=name, backend="memory", schema_mode="auto"))


def test_modern_keeps_ids_labels_and_properties(registry: GraphRegistry) -> None:
    g = new_graph(registry, "modern")
    assert load_graphson(g, DATA / "tinkerpop-modern-v3.json") == (6, 6)
    assert g.stats()["vertices"] == 6 and g.stats()["edges"] == 6
    with write_access(g) as a:
        (marko,) = a.vertices(ids=[1])
        a.load([marko])
        assert (marko.id, marko.label) == (1, "person")
        assert marko.value("name") == "marko" and marko.value("age") == 29
        out = a.adjacent_edges([marko], Direction.OUT)
        assert sorted((e.label, e.id, e.in_v.id) for _, e in out) == [
            ("created", 9, 3), ("knows", 7, 2), ("knows", 8, 4)]
        weights = {e.id: e.value("weight") for _, e in out}
        assert weights == {7: 0.5, 8: 1.0, 9: 0.4}
        assert a.count("vertex", labels=["software"]) == 2


def test_crew_multi_and_meta_properties(registry: GraphRegistry) -> None:
    g = new_graph(registry, "crew")
    assert load_graphson(g, DATA / "tinkerpop-crew-v3.json") == (6, 14)
    with write_access(g) as a:
        (marko,) = a.vertices(ids=[1])
        a.load([marko])
        locs = [(vp.value, vp.meta) for vp in marko.properties("location")]
        assert locs == [
            ("san diego", {"startTime": 1997, "endTime": 2001}),
            ("santa cruz", {"startTime": 2001, "endTime": 2004}),
            ("brussels", {"startTime": 2004, "endTime": 2005}),
            ("santa fe", {"startTime": 2005}),
        ]
        # vertex property ids from the file are kept
        assert [vp.id for vp in marko.properties("location")] == [6, 7, 8, 9]


def test_classic_float_weights_and_grateful_size(registry: GraphRegistry) -> None:
    g = new_graph(registry, "classic")
    load_graphson(g, DATA / "tinkerpop-classic-v3.json")
    with write_access(g) as a:
        weights = [e.value("weight") for e in a.edges()]
        assert len(weights) == 6 and all(type(w) is Float for w in weights)
    gd = new_graph(registry, "grateful")
    assert load_graphson(gd, DATA / "grateful-dead-v3.json") == (808, 8049)
    assert gd.stats()["edges"] == 8049


def test_a_failed_load_leaves_the_graph_unchanged(registry: GraphRegistry) -> None:
    g = new_graph(registry, "twice")
    load_graphson(g, DATA / "tinkerpop-modern-v3.json")
    with pytest.raises(HugeliteError):  # the same user ids again: refused, all rolled back
        load_graphson(g, DATA / "tinkerpop-modern-v3.json")
    assert g.stats()["vertices"] == 6 and g.stats()["edges"] == 6


def test_read_into_respects_the_import_folder(registry: GraphRegistry, tmp_path: Path) -> None:
    folder = tmp_path / "import"
    folder.mkdir()
    shutil.copy(DATA / "tinkerpop-sink-v3.json", folder / "sink.json")
    g = new_graph(registry, "sink")
    with write_access(g) as a:
        assert read_into(a, "sink.json", folder) == (3, 3)
    assert g.stats()["vertices"] == 3
    with write_access(g) as a, pytest.raises(Forbidden):
        read_into(a, str(DATA / "tinkerpop-modern-v3.json"), folder)
    assert g.stats()["vertices"] == 3
