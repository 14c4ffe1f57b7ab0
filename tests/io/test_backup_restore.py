"""`backup` / `restore` / `snapshot`: a graph with every id strategy and index type, backed up,
restored into a new graph (RESTORING: ids kept) and compared; restored into a graph with
data (MERGING); a backup and a snapshot taken while writes run are consistent."""

from __future__ import annotations

import threading
from pathlib import Path

import orjson
import pytest

from gremlin_engine import GraphRegistry
from gremlin_engine.io.backup import GraphReader, backup, restore
from gremlin_engine.io.load_job import LoadOptions, run_load
from gremlin_engine.io.mapping import read_mapping
from gremlin_engine.io.sink import GraphWriter
from storage import snapshot_file
from tests.conftest import ServerFactory, run_cli
from tests.io.loader_data import SCHEMA, graph_dump, open_store, write_fixture

INDEXES = """
schema.indexLabel("personByBorn").onV("person").by("born").range().ifNotExist().create()
schema.indexLabel("softwareByName").onV("software").by("name").search().ifNotExist().create()
schema.indexLabel("cityByCode").onV("city").by("code").unique().ifNotExist().create()
schema.indexLabel("personByNameAge").onV("person").by("name", "age").shard().ifNotExist().create()
schema.indexLabel("createdByWeight").onE("created").by("weight").range().ifNotExist().create()
"""


@pytest.fixture
def registry():
    reg = GraphRegistry(evaluation_timeout_ms=None)
    yield reg
    reg.close_all()


def loaded(registry, tmp_path: Path, name: str = "src"):
    struct = write_fixture(tmp_path / f"in-{name}")
    g = open_store(registry, tmp_path / f"{name}.db", name=name)
    run_load(GraphWriter(g), read_mapping(struct), LoadOptions(schema_script=SCHEMA + INDEXES))
    return g


def schema_of(g) -> dict:
    """The schema JSON less `~create_time`, which the graph stamps on every creation (as
    HugeGraph does; a restore is a creation)."""
    doc = orjson.loads(orjson.dumps(g.schema.schema_json()))
    for family in doc.values():
        for element in family:
            element.get("user_data", {}).pop("~create_time", None)
    return doc


def test_backup_and_restore_into_a_new_graph_keeps_everything(tmp_path: Path, registry) -> None:
    src = loaded(registry, tmp_path)
    index_types = {i["index_type"] for i in src.schema.schema_json()["indexlabels"]}
    assert {"SECONDARY", "SEARCH", "UNIQUE", "SHARD"} <= index_types and any(t.startswith("RANGE") for t in index_types)
    strategies = {v["id_strategy"] for v in src.schema.schema_json()["vertexlabels"]}
    assert strategies == {"PRIMARY_KEY", "CUSTOMIZE_STRING", "CUSTOMIZE_NUMBER", "CUSTOMIZE_UUID", "AUTOMATIC"}
    summary = backup(GraphReader(src), tmp_path / "bk")
    assert (summary.vertices, summary.edges) == (11, 9)
    assert sorted(p.name for p in (tmp_path / "bk").iterdir()) == [
        "edges.jsonl", "manifest.json", "schema.json", "vertices.jsonl"]
    # the AUTOMATIC-id vertices are numbered away from 1 in the copy's source, so a restore
    # that renumbered them would show
    dst = open_store(registry, tmp_path / "dst.db", name="dst")
    restored = restore(GraphWriter(dst), tmp_path / "bk")
    assert (restored.vertices, restored.edges) == (11, 9)
    assert dst.mode == "NONE"
    assert schema_of(dst) == schema_of(src)
    assert graph_dump(dst) == graph_dump(src)
    # the indexes answer in the copy
    assert dst.execute("g.V().has('city', 'code', 100).values('name').toList()") == ["Beijing"]
    assert dst.execute("g.E().has('created', 'weight', gt(0.5)).count()") == [1]


def test_restore_into_a_graph_with_data_merges(tmp_path: Path, registry) -> None:
    src = loaded(registry, tmp_path)
    backup(GraphReader(src), tmp_path / "bk")
    dst = open_store(registry, tmp_path / "dst.db", name="dst")
    # a different schema first, so the person label gets another id than in the backup
    dst.execute("schema = graph.schema()\nschema.propertyKey('title').asText().create()\n"
                "schema.vertexLabel('book').properties('title').primaryKeys('title').create()\n"
                "g.addV('book').property('title', 'dune').iterate()")
    restore(GraphWriter(dst), tmp_path / "bk")
    assert dst.mode == "NONE"
    assert dst.execute("g.V().hasLabel('book').count()") == [1]
    assert dst.execute("g.V().count()") == [12] and dst.execute("g.E().count()") == [9]
    person = next(v for v in dst.schema.schema_json()["vertexlabels"] if v["name"] == "person")
    assert person["id"] != 1
    marko = f"{person['id']}:marko"
    assert dst.execute(f"g.V('{marko}').out('knows').values('name').order().toList()") == ["josh", "vadas"]
    assert dst.execute(f"g.V('{marko}').out('livesIn').values('name').toList()") == ["Beijing"]


def test_a_backup_while_writes_run_is_one_snapshot(tmp_path: Path, registry) -> None:
    src = loaded(registry, tmp_path)
    stop = threading.Event()

    def writer() -> None:
        n = 0
        while not stop.is_set():
            # each write adds a vertex and an edge to it in one transaction
            src.execute(f"g.addV('person').property('name', 'w{n}').as('a').V('1:marko')"
                        f".addE('knows').to('a').iterate()")
            n += 1

    thread = threading.Thread(target=writer)
    thread.start()
    try:
        for i in range(3):
            backup(GraphReader(src), tmp_path / f"bk{i}")
            vertices = [orjson.loads(x) for x in (tmp_path / f"bk{i}" / "vertices.jsonl").read_bytes().splitlines()]
            edges = [orjson.loads(x) for x in (tmp_path / f"bk{i}" / "edges.jsonl").read_bytes().splitlines()]
            ids = {v["id"] for v in vertices}
            assert all(e["outV"] in ids and e["inV"] in ids for e in edges)
            written = sum(1 for v in vertices if v["properties"]["name"].startswith("w"))
            assert sum(1 for e in edges if str(e["inV"]).startswith("1:w")) == written
        snapshot_file(tmp_path / "src.db", tmp_path / "copy.db")
    finally:
        stop.set()
        thread.join()
    copy = open_store(registry, tmp_path / "copy.db", name="copy")
    assert copy.execute("g.V().has('person','name',startingWith('w')).count()") == \
        copy.execute("g.V('1:marko').out('knows').has('name',startingWith('w')).count()")


def test_backup_restore_and_snapshot_by_command_and_over_rest(tmp_path: Path, registry) -> None:
    src = loaded(registry, tmp_path)
    # more vertices than a REST batch takes (500), so the restore over REST must split
    GraphWriter(src).write("vertex", [{"label": "note", "id": None, "properties": {"name": f"n{i}"}}
                                      for i in range(600)])
    expected = graph_dump(src), schema_of(src)
    registry.close_all()
    r = run_cli("backup", "--store", "src.db", "-d", "bk", cwd=tmp_path)
    assert r.returncode == 0 and "backed up 611 vertices and 9 edges" in r.stdout, r.stderr
    factory = ServerFactory(tmp_path / "srv")
    srv = factory.start(graphs={"g": "backend=sqlite\nstore=data/g.db\nschema.mode=strict\n"})
    try:
        r = run_cli("restore", "--url", srv.base_url, "--graph", "g", "-d", str(tmp_path / "bk"), cwd=tmp_path)
        assert r.returncode == 0 and "restored 611 vertices and 9 edges" in r.stdout, r.stderr
        r = run_cli("backup", "g", "--url", srv.base_url, "-d", str(tmp_path / "bk-rest"), cwd=tmp_path)
        assert r.returncode == 0 and "backed up 611 vertices and 9 edges" in r.stdout, r.stderr
        r = run_cli("snapshot", "--graph", "g", "--conf", str(srv.conf), str(tmp_path / "snap.db"), cwd=srv.cwd)
        assert r.returncode == 0, r.stderr
    finally:
        srv.stop()
    reg = GraphRegistry(evaluation_timeout_ms=None)
    try:
        for name, store in (("served", srv.cwd / "data" / "g.db"), ("snap", tmp_path / "snap.db")):
            g = open_store(reg, store, name=name)
            assert (graph_dump(g), schema_of(g)) == expected
        again = open_store(reg, tmp_path / "again.db", name="again")
        restore(GraphWriter(again), tmp_path / "bk-rest")
        assert (graph_dump(again), schema_of(again)) == expected
    finally:
        reg.close_all()
