"""A store keeps the schema mode it was initialised with (issue 20, embedded mode's promises)."""

from __future__ import annotations

from pathlib import Path

import pytest
from gremlin_python.process.anonymous_traversal import traversal

from gremlin_engine import GraphConfig, GraphRegistry, StoreNotReady
from gremlin_engine.embedded import EmbeddedConnection


def test_embedded_takes_the_stores_mode_and_refuses_the_other(tmp_path: Path) -> None:
    db = str(tmp_path / "people.db")
    cfg = GraphConfig(name="people", backend="sqlite", store=db, schema_mode="strict")
    assert GraphRegistry.init_store(cfg)
    with EmbeddedConnection(db) as conn:
        assert conn.graph.schema_mode == "strict"
        g = traversal().with_(conn)
        with pytest.raises(Exception, match="Undefined vertex label|label 'person'"):
            g.add_v("person").property("name", "marko").iterate()
    with pytest.raises(StoreNotReady) as refused:
        EmbeddedConnection(db, schema_mode="auto")
    message = str(refused.value)
    assert "schema.mode=strict" in message and "schema.mode=auto" in message


def test_a_new_embedded_store_is_auto_and_stays_auto(tmp_path: Path) -> None:
    db = str(tmp_path / "fresh.db")
    with EmbeddedConnection(db) as conn:
        g = traversal().with_(conn)
        g.add_v("person").property("name", "marko").iterate()
    with EmbeddedConnection(db) as conn:
        assert conn.graph.schema_mode == "auto"
        assert traversal().with_(conn).V().has("person", "name", "marko").count().next() == 1
    registry = GraphRegistry()
    with pytest.raises(StoreNotReady, match="initialised with schema.mode=auto"):
        registry.open(GraphConfig(name="fresh", backend="sqlite", store=db, schema_mode="strict"))
