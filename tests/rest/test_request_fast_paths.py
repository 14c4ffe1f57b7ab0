"""The per-request shortcuts of a GET by id give exactly what the general code gives: the id
literal fast path vs the engine's parser, the registry read vs `app.state`, the inlined
telemetry record vs Meter/Histogram."""

from __future__ import annotations

from pathlib import Path

import pytest

from gremlin_engine.errors import IllegalArgument
from gremlin_engine.structure import ids as idc
from gremlin_engine.structure.numbers import Long
from rest_adapter.resources._element_common import point_ir, vertex_id_param
from rest_adapter.telemetry import Histogram, Meter, Telemetry
from tests.conftest import SyncASGIClient, write_conf

ID_TEXTS = [
    '"1:marko"', '"a"', '"é ü"', '"a b"', '"a\\"b"', '"a\\u0041"', '"a\tb"', '""', '"', '"a', 'a"', "a", "",
    "0", "7", "123", "0123", "-5", "1.5", "1e3", "12345678901234567", "123456789012345678",
    "1234567890123456789", "99999999999999999999", " 5", "5 ", '  "x"  ', '"x"y"', "true", "null", "[1]",
    'U"a8098c1a-f86e-11da-bd1a-00112444be1e"', 'U"bad"', "٣", "²", '"\x7f"', '"\udce9"', '"a\\/b"',
]


@pytest.mark.parametrize("text", ID_TEXTS)
def test_vertex_id_param_reads_as_the_id_parser(text: str) -> None:
    try:
        expected: object = idc.parse_id_literal(text)
    except IllegalArgument as e:
        with pytest.raises(IllegalArgument) as got:
            vertex_id_param(text)
        assert str(got.value) == str(e)
        return
    got_id = vertex_id_param(text)
    assert got_id == expected and type(got_id) is type(expected)


def test_vertex_id_param_everyday_forms() -> None:
    assert vertex_id_param('"1:marko"') == "1:marko"
    assert vertex_id_param("42") == Long(42) and type(vertex_id_param("42")) is Long
    with pytest.raises(IllegalArgument, match="The vertex id must be formatted as Number/String/UUID"):
        vertex_id_param(None)  # type: ignore[arg-type]


def test_point_ir_is_the_generic_ir() -> None:
    from rest_adapter.resources._element_common import ir

    assert point_ir("V", "1:x") == ir(("V", "1:x"))
    assert point_ir("E", Long(3)) == ir(("E", Long(3)))


def test_registry_is_read_from_the_app(tmp_path: Path) -> None:
    from rest_adapter.app import create_app, open_registry
    from rest_adapter.settings import Settings

    settings = Settings.load(write_conf(tmp_path, {"g": "backend=memory\nschema.mode=auto\n"}))
    registry = open_registry(settings)
    app = create_app(settings, registry=registry)
    client = SyncASGIClient(app)
    try:
        assert app.registry is app.state.registry is registry  # type: ignore[attr-defined]
        r = client.post("/graphs/g/graph/vertices", json={"label": "dog", "properties": {"name": "rex"}})
        assert r.status_code == 201, r.text
        r = client.get(f"/graphs/g/graph/vertices/{r.json()['id']}")
        assert r.status_code == 200 and r.json()["properties"] == {"name": "rex"}
        r = client.get("/graphs/nothing/graph/vertices/1")
        assert r.status_code == 404 and r.json()["message"] == "Graph 'nothing' does not exist"
    finally:
        client.close()
        registry.close_all()


def test_inlined_record_matches_meter_and_histogram() -> None:
    tel = Telemetry()
    meter, hist = Meter(tel.total.start), Histogram()
    samples = [(200, 1.5), (404, 0.25), (200, 9.0), (500, 3.0), (200, 0.5)]
    for status, ms in samples:
        tel.record("GET", "/x/{id}", status, ms)
        meter.mark(tel.total.start)
        hist.update(ms)
    stats = tel.routes[("GET", "/x/{id}")]
    assert stats.latency.snapshot() == hist.snapshot()
    assert (stats.meter.count, stats.meter.uncounted) == (meter.count, meter.uncounted) == (5, 5)
    assert (tel.total.count, tel.errors, stats.success, stats.failed) == (5, 2, 3, 2)
    assert stats.statuses == {200: 3, 404: 1, 500: 1}


# ---- batch bodies ---------------------------------------------------------------------------

_EDGE = {"label": "knows", "outV": "1:a", "inV": "1:b", "outVLabel": "person", "inVLabel": "person",
         "properties": {"weight": 0.5}}
EDGE_BODIES = [
    _EDGE, {**_EDGE, "id": "x"}, {**_EDGE, "type": "edge"}, {k: v for k, v in _EDGE.items() if k != "properties"},
    {**_EDGE, "properties": None}, {**_EDGE, "properties": []}, {**_EDGE, "properties": "x"}, {**_EDGE, "label": ""},
    {**_EDGE, "label": 3}, {**_EDGE, "label": None}, {**_EDGE, "outV": None}, {**_EDGE, "inV": None},
    {k: v for k, v in _EDGE.items() if k != "outVLabel"}, {k: v for k, v in _EDGE.items() if k != "inVLabel"},
    {k: v for k, v in _EDGE.items() if k not in ("outVLabel", "inVLabel")}, {**_EDGE, "outVLabel": None},
    {**_EDGE, "weight": 1}, {**_EDGE, "outV": 0, "inV": 7}, None, [1], "edge", 3, {},
]
_VERTEX = {"label": "person", "properties": {"name": "a", "age": 3}}
VERTEX_BODIES = [
    _VERTEX, {**_VERTEX, "id": 5}, {**_VERTEX, "type": "vertex"}, {"properties": {"name": "x"}},
    {**_VERTEX, "label": None}, {**_VERTEX, "label": 7}, {"label": "person"}, {**_VERTEX, "properties": None},
    {**_VERTEX, "properties": [1]}, {**_VERTEX, "name": "x"}, None, [], "v", 1.5, {},
]


def _outcome(fn: object, *args: object) -> object:
    try:
        return ("ok", [_as_read(i) for i in fn(*args)])  # type: ignore[operator]
    except Exception as e:  # the error class and its exact message
        return ("error", type(e).__name__, getattr(e, "status_code", None), str(e))


def _as_read(item: dict[str, object]) -> dict[str, object]:
    """An item as the engine steps read it (`item.get(field)` of the known fields): a plain
    batch passes its bodies through, whose absent "id" or extra "type" reads alike."""
    fields = ("label", "id", "outV", "inV", "outVLabel", "inVLabel", "properties")
    return {f: item.get(f) for f in fields}


def test_plain_batches_pass_their_bodies_through() -> None:
    from rest_adapter.resources._element_common import edge_items, vertex_items

    edges = [dict(_EDGE), {**_EDGE, "type": "edge", "id": "x"}]
    assert edge_items(edges, True) is edges
    assert edge_items([{**_EDGE, "properties": None}], True)[0]["properties"] == {}  # converted
    vertices = [dict(_VERTEX), {"properties": {"name": "x"}, "type": "vertex"}]
    assert vertex_items(vertices) is vertices
    mixed = [*vertices, {**_VERTEX, "label": None}]
    assert vertex_items(mixed) is mixed


@pytest.mark.parametrize("labels_required", [True, False])
def test_edge_items_check_and_convert_as_edge_item(labels_required: bool) -> None:
    from rest_adapter.resources._element_common import edge_item, edge_items

    for body in EDGE_BODIES:
        one = _outcome(lambda b: [edge_item(b, labels_required)], body)
        assert _outcome(edge_items, [body], labels_required) == one, body
    for bad in range(len(EDGE_BODIES)):  # a batch fails on its first bad body
        batch = [_EDGE, *EDGE_BODIES[bad:], _EDGE]
        assert _outcome(edge_items, batch, labels_required) == \
            _outcome(lambda b: [edge_item(x, labels_required) for x in b], batch)


def test_vertex_items_check_and_convert_as_vertex_item() -> None:
    from rest_adapter.resources._element_common import vertex_item, vertex_items

    for body in VERTEX_BODIES:
        assert _outcome(vertex_items, [body]) == _outcome(lambda b: [vertex_item(b)], body), body
    for bad in range(len(VERTEX_BODIES)):
        batch = [_VERTEX, *VERTEX_BODIES[bad:], _VERTEX]
        assert _outcome(vertex_items, batch) == _outcome(lambda b: [vertex_item(x) for x in b], batch)


def test_ids_json_as_id_json() -> None:
    from rest_adapter.resources._element_common import ids_json
    from rest_adapter.serializers.hugegraph_json import id_json

    ids = ["S1:a>1>>S1:b", Long(3), 7, True, "x"]
    assert ids_json(ids) == [id_json(i) for i in ids] == ["S1:a>1>>S1:b", 3, 7, "true", "x"]
    strs = ["S1:a>1>>S1:b", "1:x", ""]
    assert ids_json(strs) == [id_json(i) for i in strs] and ids_json([]) == []
