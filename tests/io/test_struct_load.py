"""`hugelite load --struct`: hugegraph-loader mappings into a real SQLite graph, in process."""

from __future__ import annotations

import datetime as dt
import gzip
import json
import shutil
from pathlib import Path

import pytest

from gremlin_engine import GraphRegistry
from gremlin_engine.io.load_job import LoadAborted, LoadOptions, run_load
from gremlin_engine.io.mapping import MappingError, read_mapping
from gremlin_engine.io.sink import GraphWriter
from tests.conftest import ROOT, run_cli
from tests.io.loader_data import SCHEMA, graph_dump, open_store, write_fixture


@pytest.fixture
def registry():
    reg = GraphRegistry(evaluation_timeout_ms=None)
    yield reg
    reg.close_all()


def load(graph, struct: Path, **kw) -> object:
    kw.setdefault("schema_script", SCHEMA)
    return run_load(GraphWriter(graph), read_mapping(struct), LoadOptions(**kw))


def test_every_id_strategy_list_date_value_mapping_and_nulls(tmp_path: Path, registry) -> None:
    struct = write_fixture(tmp_path / "in")
    g = open_store(registry, tmp_path / "g.db")
    summary = load(g, struct)
    assert (summary.read, summary.parsed, summary.parse_failed) == (20, 20, 0)
    assert summary.inserted == {"vertex": 11, "edge": 9}
    vertices, edges = graph_dump(g)
    by_id = {v[0]: (v[1], dict(v[2])) for v in vertices}
    utc = dt.UTC
    assert by_id["1:marko"] == ("person", {
        "name": "['marko']", "age": "[29]", "tags": "['a', 'b']",
        "born": repr([dt.datetime(1997, 2, 20, 10, 0, tzinfo=utc)])})
    assert by_id["1:josh"][1].keys() == {"name", "born", "tags"}  # '-' is a null value: no age
    assert by_id["1:peter"][1] == {"name": "['peter']", "age": "[35]"}  # empty fields: no property
    assert by_id["lop"] == ("software", {"name": "['lop']", "lang": "['java']"})  # value_mapping J -> java
    assert by_id["2L"] == ("city", {"name": "['Hangzhou']"})  # CUSTOMIZE_NUMBER from JSON lines
    assert by_id["3e6f2c3a-8d3b-4d7a-9a36-2f1d0c6f1a11"][0] == "device"
    assert sorted(v[2] for v in vertices if v[1] == "note") == [[("name", "['first']")], [("name", "['second']")]]
    assert {(e[1], e[2], e[3]) for e in edges} == {
        ("knows", "1:marko", "1:vadas"), ("knows", "1:marko", "1:josh"), ("created", "1:marko", "lop"),
        ("created", "1:josh", "ripple"), ("created", "1:josh", "lop"), ("livesIn", "1:marko", "1L"),
        ("livesIn", "1:vadas", "2L"), ("livesIn", "1:josh", "1L"), ("livesIn", "1:peter", "2L")}
    # the indexes were kept up: a range query answers
    assert g.execute("g.V().has('person', 'age', gt(28)).values('name').toList()") == ["marko", "peter"]
    assert g.mode == "NONE"


def test_bad_rows_go_to_the_error_files_and_good_rows_load(tmp_path: Path, registry) -> None:
    struct = write_fixture(tmp_path / "in")
    people = tmp_path / "in" / "people.csv"
    people.write_text(people.read_text() + "bob,old,,,1\nann,40,,,1,extra\n")
    knows = tmp_path / "in" / "knows.csv"
    knows.write_text(knows.read_text() + "marko,nobody,0.1\n")
    g = open_store(registry, tmp_path / "g.db")
    summary = load(g, struct, max_parse_errors=10, batch_size=2)
    # the short row is refused twice: read for the vertices and again for the edges; bob's
    # vertex was refused, so his livesIn edge is too (its source does not exist)
    assert summary.parse_failed == 3 and summary.insert_failed == {"vertex": 0, "edge": 2}
    assert summary.inserted["vertex"] == 11
    parse = (tmp_path / "in" / "people.csv.parse-error").read_text().splitlines()
    assert parse[0].startswith("# line 6: vertex 'person': column 'age': 'old' is not a number")
    assert parse[1] == "bob,old,,,1"
    assert parse[2] == "# line 7: vertex mappings: line 7 has 6 columns, but the header has 5 (['name', 'age', 'born', 'tags', 'city_id'])"
    assert parse[3] == "ann,40,,,1,extra"
    assert parse[4].startswith("# line 7: edge mappings: line 7 has 6 columns")
    insert = (tmp_path / "in" / "knows.csv.insert-error").read_text().splitlines()
    assert insert[0].startswith("# line 4, edge: ") and "1:nobody" in insert[0]
    assert insert[1] == "marko,nobody,0.1"
    assert g.execute("g.E().hasLabel('knows').count()") == [2]
    assert (tmp_path / "in" / "people.csv.insert-error").read_text().splitlines()[1] == "bob,old,,,1"
    assert sorted(p.name for p in summary.reject_files) == [
        "knows.csv.insert-error", "people.csv.insert-error", "people.csv.parse-error"]


def test_too_many_parse_errors_stop_the_load_and_restore_the_mode(tmp_path: Path, registry) -> None:
    struct = write_fixture(tmp_path / "in")
    people = tmp_path / "in" / "people.csv"
    people.write_text(people.read_text() + "bob,old,,,1\ncid,older,,,1\n")
    g = open_store(registry, tmp_path / "g.db")
    g.set_mode("MERGING")
    with pytest.raises(LoadAborted, match=r"more than 1 records failed to parse .* line 7 of people.csv"):
        load(g, struct)
    assert g.mode == "MERGING"


def test_a_mapping_that_does_not_fit_the_graph_is_refused_by_name(tmp_path: Path, registry) -> None:
    struct = write_fixture(tmp_path / "in")
    g = open_store(registry, tmp_path / "g.db")
    doc = json.loads(struct.read_text())
    doc["structs"][0]["vertices"][0]["ignored"] = []
    struct.write_text(json.dumps(doc))
    with pytest.raises(LoadAborted, match="column 'city_id' maps to 'city_id', which is not a property of 'person'"):
        load(g, struct)
    assert g.mode == "NONE"
    struct.write_text(json.dumps({**doc, "version": "1.0"}))
    with pytest.raises(MappingError, match="only mapping version '2.0'"):
        read_mapping(struct)


@pytest.mark.parametrize("compression, opener", [("GZIP", gzip.open), ("BZ2", None), ("XZ", None)])
def test_compressed_inputs(tmp_path: Path, registry, compression: str, opener) -> None:
    import bz2
    import lzma

    opener = opener or {"BZ2": bz2.open, "XZ": lzma.open}[compression]
    struct = write_fixture(tmp_path / "in")
    people = tmp_path / "in" / "people.csv"
    with opener(tmp_path / "in" / "people.csv.z", "wt", encoding="utf-8") as f:
        f.write(people.read_text())
    doc = json.loads(struct.read_text())
    doc["structs"][0]["input"].update(path="people.csv.z", compression=compression)
    struct.write_text(json.dumps(doc))
    g = open_store(registry, tmp_path / "g.db")
    assert load(g, struct).inserted == {"vertex": 11, "edge": 9}


def test_the_example_loads_as_written(tmp_path: Path) -> None:
    """examples/struct.json with examples/schema.groovy, by the command a reader would type."""
    shutil.copytree(ROOT / "examples", tmp_path / "examples")
    r = run_cli("load", "--store", "g.db", "--struct", "examples/struct.json", "--schema", "examples/schema.groovy",
                cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    assert "vertices inserted 5, failed 0; edges inserted 3, failed 0" in r.stdout
    assert "vertices from people.csv: 100.0%" in r.stdout  # plain lines when not on a terminal
    reg = GraphRegistry(evaluation_timeout_ms=None)
    try:
        g = open_store(reg, tmp_path / "g.db", name="hugegraph")
        assert g.execute("g.V().has('person','name','vadas').values('city').toList()") == ["Hong Kong"]
        assert g.execute("g.V('1:marko').out('knows').values('name').toList()") == ["vadas", "josh"]
    finally:
        reg.close_all()


def test_update_strategies_merge_with_what_is_stored(tmp_path: Path, registry) -> None:
    struct = write_fixture(tmp_path / "in")
    (tmp_path / "in" / "more.csv").write_text("name,age,tags\nmarko,40,[b|c]\nvadas,20,[z]\n")
    doc = json.loads(struct.read_text())
    doc["structs"].append({"id": "more", "input": {"path": "more.csv"}, "vertices": [
        {"label": "person", "update_strategies": {"age": "BIGGER", "tags": "APPEND"}}]})
    struct.write_text(json.dumps(doc))
    g = open_store(registry, tmp_path / "g.db")
    summary = load(g, struct)
    assert summary.inserted["vertex"] == 13
    ages = g.execute("g.V().has('person','name',within('marko','vadas')).order().by('name').values('age').toList()")
    assert ages == [40, 27]  # BIGGER: marko 29 -> 40, vadas keeps 27
    assert g.execute("g.V('1:marko').values('tags').toList()") == ["a", "b", "b", "c"]  # APPEND to a list
    assert g.execute("g.V().hasLabel('person').count()") == [4]


def test_load_into_a_configured_graph(tmp_path: Path) -> None:
    """`hugelite load GRAPH --conf DIR --struct ...`: the graph of a server's configuration."""
    from tests.conftest import write_conf

    struct = write_fixture(tmp_path / "in")
    conf = write_conf(tmp_path, {"hugegraph": "backend=sqlite\nstore=data/hg.db\nschema.mode=strict\n"})
    assert run_cli("init-store", "--conf", str(conf), cwd=tmp_path).returncode == 0
    r = run_cli("load", "hugegraph", "--conf", str(conf), "--struct", str(struct),
                "--schema", str(tmp_path / "in" / "schema.groovy"), cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    assert "vertices inserted 11, failed 0; edges inserted 9, failed 0" in r.stdout
    missing = run_cli("load", "nope", "--conf", str(conf), "--struct", str(struct), cwd=tmp_path)
    assert missing.returncode == 1 and "Graph 'nope' is not configured" in missing.stderr
    reg = GraphRegistry(evaluation_timeout_ms=None)
    try:
        g = open_store(reg, tmp_path / "data" / "hg.db", name="hg")
        assert g.execute("g.V().count()") == [11] and g.mode == "NONE"
    finally:
        reg.close_all()
