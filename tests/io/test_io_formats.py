"""`g.io(path)` beyond GraphSON reads: GraphML read and write, GraphSON write, the export
folder's confinement, and Gryo refused by name; through scripts on real memory graphs."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

from gremlin_engine.errors import Forbidden, HugeliteError, IllegalArgument, NotSupported
from gremlin_engine.graph import GraphConfig, GraphRegistry
from gremlin_engine.io.graphml import GraphMLError, graphml_text, parse_graphml, read_graphml
from gremlin_engine.io.graphson import parse_lines
from gremlin_engine.io.graphson_write import encode_value, graphson_lines
from gremlin_engine.structure.numbers import Float, Int, Long

HERE = Path(__file__).resolve().parent
MODERN_XML = HERE / "data" / "tinkerpop-modern.xml"
DATA = Path(
    os.environ.get("HUGELITE_TINKERPOP_DIR") or HERE.parents[2] / "shared" / "tinkerpop"
) / "data"
needs_corpus = pytest.mark.skipif(not DATA.is_dir(), reason=f"TinkerPop data folder {DATA} is absent")


@pytest.fixture
def folders(tmp_path: Path) -> tuple[Path, Path]:
    imp, exp = tmp_path / "import", tmp_path / "export"
    imp.mkdir()
    exp.mkdir()
    shutil.copy(MODERN_XML, imp / "modern.xml")
    if DATA.is_dir():
        shutil.copy(DATA / "tinkerpop-crew-v3.json", imp / "crew.json")
    return imp, exp


@pytest.fixture
def registry(folders: tuple[Path, Path]) -> GraphRegistry:
    return GraphRegistry(import_dir=folders[0], export_dir=folders[1])


def graph(registry: GraphRegistry, name: str):
    return registry.create(GraphConfig(name=name, backend="memory", schema_mode="auto"))


def run(g, script: str) -> list:
    return list(g.execute(script, {}))


# ---- GraphML ----------------------------------------------------------------------------


def test_graphml_modern_reads_with_typed_values() -> None:
    recs = read_graphml(MODERN_XML)
    assert [(v.id, v.label) for v in recs.vertices][:3] == [("1", "person"), ("2", "person"), ("3", "software")]
    marko = recs.vertices[0]
    ages = [p.value for p in marko.properties if p.key == "age"]
    assert ages == [29] and type(ages[0]) is Int
    assert [(e.id, e.label, e.out_v, e.in_v, e.properties) for e in recs.edges][0] == (
        "7", "knows", "1", "2", {"weight": 0.5})


def test_graphml_read_through_a_script(registry: GraphRegistry) -> None:
    g = graph(registry, "m")
    assert run(g, "g.io('modern.xml').with(IO.reader, IO.graphml).read()") == []
    assert run(g, "g.V().count()") == [6] and run(g, "g.E().count()") == [6]
    # GraphML ids are text: the file's 1 is the string '1'
    assert run(g, "g.V('1').out('knows').values('name').order()") == ["josh", "vadas"]
    assert run(g, "g.E('9').values('weight')") == [0.4]


def test_graphml_refuses_entity_expansion() -> None:
    bomb = (b'<?xml version="1.0"?><!DOCTYPE g [<!ENTITY a "aaaaaaaaaa"><!ENTITY b "&a;&a;&a;&a;">]>'
            b'<graphml><graph><node id="&b;"/></graph></graphml>')
    with pytest.raises(GraphMLError, match="not a GraphML file"):
        parse_graphml(bomb)


def test_graphml_bad_input_is_named() -> None:
    with pytest.raises(GraphMLError, match="names no declared <key>"):
        parse_graphml(b'<graphml><graph><node id="1"><data key="x">1</data></node></graph></graphml>')
    with pytest.raises(GraphMLError, match="is not a GraphML int"):
        parse_graphml(b'<graphml><key id="x" for="node" attr.name="x" attr.type="int"/>'
                      b'<graph><node id="1"><data key="x">one</data></node></graph></graphml>')


def test_graphml_write_widens_mixed_types_and_refuses_multi_properties() -> None:
    recs = parse_lines([])
    from gremlin_engine.io.graphson import PropertyRecord, VertexRecord

    recs.vertices = [VertexRecord(1, "p", [PropertyRecord("n", Int(1))]),
                     VertexRecord(2, "p", [PropertyRecord("n", Long(2**40)), PropertyRecord("f", Float(1.5))])]
    back = parse_graphml(graphml_text(recs))
    assert [[(p.key, p.value, type(p.value)) for p in v.properties] for v in back.vertices] == [
        [("n", 1, Long)], [("f", 1.5, Float), ("n", 2**40, Long)]]
    recs.vertices[0].properties.append(PropertyRecord("n", Int(3)))
    with pytest.raises(GraphMLError, match="several values for 'n'"):
        graphml_text(recs)


def test_graphml_write_then_read(registry: GraphRegistry, folders: tuple[Path, Path]) -> None:
    g = graph(registry, "w")
    run(g, "g.io('modern.xml').read()")
    assert run(g, "g.io('copy.xml').write()") == []
    shutil.copy(folders[1] / "copy.xml", folders[0] / "copy.xml")
    g2 = graph(registry, "w2")
    run(g2, "g.io('copy.xml').read()")
    same = "g.E().project('e','o','i','w').by(id).by(outV().values('name')).by(inV().values('name')).by('weight')"
    assert sorted(map(str, run(g2, same))) == sorted(map(str, run(g, same)))


# ---- GraphSON write ---------------------------------------------------------------------


def test_graphson_values_round_trip() -> None:
    import datetime
    import uuid

    from gremlin_engine.io.graphson import decode_value

    values = [Int(1), Long(2), Float(1.5), 2.5, "s", True, None, [Int(1), "a"], {"k": Long(3)},
              uuid.UUID(int=5), datetime.datetime(2020, 1, 2, 3, 4, 5, tzinfo=datetime.UTC)]
    for v in values:
        back = decode_value(encode_value(v))
        assert back == v and type(back) is type(v)


@needs_corpus
def test_graphson_write_keeps_ids_multi_and_meta_properties(registry: GraphRegistry,
                                                             folders: tuple[Path, Path]) -> None:
    g = graph(registry, "crew")
    run(g, "g.io('crew.json').read()")
    assert run(g, "g.io('crew-out.json').with(IO.writer, IO.graphson).write()") == []
    out = folders[1] / "crew-out.json"
    original = parse_lines((DATA / "tinkerpop-crew-v3.json").read_bytes().splitlines())
    written = parse_lines(out.read_bytes().splitlines())

    def shape(recs):
        vs = sorted((v.id, v.label, sorted((p.key, str(p.value), sorted(p.meta.items())) for p in v.properties))
                    for v in recs.vertices)
        es = sorted((e.id, e.label, e.out_v, e.in_v, sorted(e.properties.items())) for e in recs.edges)
        return vs, es

    assert shape(written) == shape(original)
    assert graphson_lines(written) == out.read_bytes()


# ---- folders and refusals ---------------------------------------------------------------


def test_write_stays_inside_the_export_folder(registry: GraphRegistry, folders: tuple[Path, Path],
                                              tmp_path: Path) -> None:
    g = graph(registry, "f")
    run(g, "g.io('modern.xml').read()")
    with pytest.raises(Forbidden, match="only write files under the export folder"):
        run(g, "g.io('../import/evil.json').write()")
    with pytest.raises(Forbidden):
        run(g, f"g.io('{tmp_path / 'evil.json'}').write()")
    os.symlink(tmp_path / "evil.json", folders[1] / "link.json")
    with pytest.raises(Forbidden):
        run(g, "g.io('link.json').write()")
    assert not (tmp_path / "evil.json").exists() and not (folders[0] / "evil.json").exists()
    with pytest.raises(HugeliteError, match="no folder"):
        run(g, "g.io('sub/x.json').write()")


def test_write_needs_a_configured_export_folder(folders: tuple[Path, Path]) -> None:
    g = graph(GraphRegistry(import_dir=folders[0]), "n")
    with pytest.raises(Forbidden, match="export folder, and none is configured"):
        run(g, "g.io('x.json').write()")


@pytest.mark.parametrize("script", [
    "g.io('data/tinkerpop-modern.kryo').read()",
    "g.io('modern.xml').with(IO.reader, IO.gryo).read()",
    "g.io('out.kryo').write()",
    "g.io('out.json').with(IO.writer, IO.gryo).write()",
])
def test_gryo_is_refused_by_name(registry: GraphRegistry, script: str) -> None:
    with pytest.raises(NotSupported, match=r"Gryo \(Kryo\) format is not supported"):
        run(graph(registry, "k"), script)


def test_unknown_suffix_asks_for_a_format(registry: GraphRegistry, folders: tuple[Path, Path]) -> None:
    (folders[0] / "modern.txt").write_bytes(MODERN_XML.read_bytes())
    g = graph(registry, "u")
    with pytest.raises(IllegalArgument, match="cannot tell the format of 'modern.txt'"):
        run(g, "g.io('modern.txt').read()")
    run(g, "g.io('modern.txt').with(IO.reader, IO.graphml).read()")
    assert run(g, "g.V().count()") == [6]
