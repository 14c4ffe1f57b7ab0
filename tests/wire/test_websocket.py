"""The Gremlin Server protocol end to end: real gremlinpython 3.8 against a real server."""

from __future__ import annotations

import asyncio
import threading
import time
import uuid
from concurrent.futures import ThreadPoolExecutor

import aiohttp
import pytest
from gremlin_python.driver.client import Client
from gremlin_python.driver.driver_remote_connection import DriverRemoteConnection
from gremlin_python.driver.protocol import ConfigurationError, GremlinServerError
from gremlin_python.driver.serializer import (
    GraphBinarySerializersV1,
    GraphSONSerializersV2d0,
    GraphSONSerializersV3d0,
)
from gremlin_python.process.anonymous_traversal import traversal
from gremlin_python.process.graph_traversal import __
from gremlin_python.process.traversal import Order, P, T, TextP
from gremlin_python.structure.graph import Vertex as GpVertex

from tests.wire.conftest import ADMIN_TOKEN

SERIALIZERS = {
    "graphbinary": GraphBinarySerializersV1,
    "graphson3": GraphSONSerializersV3d0,
    "graphson2": GraphSONSerializersV2d0,
}

MODERN = [
    ("person", "marko", 29), ("person", "vadas", 27), ("software", "lop", None),
    ("person", "josh", 32), ("software", "ripple", None), ("person", "peter", 35),
]
EDGES = [("marko", "knows", "vadas", 0.5), ("marko", "knows", "josh", 1.0), ("marko", "created", "lop", 0.4),
         ("josh", "created", "ripple", 1.0), ("josh", "created", "lop", 0.4), ("peter", "created", "lop", 0.2)]


@pytest.fixture(scope="module")
def modern(server):
    """The TinkerPop modern graph, written into graph `modern` through bytecode."""
    conn = DriverRemoteConnection(server.url, "modern")
    g = traversal().with_(conn)
    for label, name, age in MODERN:
        t = g.add_v(label).property("name", name)
        if age is not None:
            t = t.property("age", age)
        t.iterate()
    for a, label, b, w in EDGES:
        g.V().has("name", a).add_e(label).to(__.V().has("name", b)).property("weight", w).iterate()
    yield g
    conn.close()


@pytest.fixture(params=list(SERIALIZERS), ids=list(SERIALIZERS))
def g(request, server, modern):
    conn = DriverRemoteConnection(server.url, "modern", message_serializer=SERIALIZERS[request.param]())
    yield traversal().with_(conn)
    conn.close()


@pytest.mark.parametrize("fmt", list(SERIALIZERS))
def test_script_with_bindings(server, fmt):
    client = Client(server.url, "g", message_serializer=SERIALIZERS[fmt]())
    try:
        assert client.submit("g.inject(x, y).fold()", {"x": 1, "y": "two"}).all().result() == [[1, "two"]]
        assert client.submit("x + 1", {"x": 41}).all().result() == [42]
    finally:
        client.close()


def test_traversal_steps_predicates_order(g):
    assert sorted(g.V().has_label("person").values("name").to_list()) == ["josh", "marko", "peter", "vadas"]
    assert g.V().has("age", P.gt(30)).order().by("age", Order.desc).values("name").to_list() == ["peter", "josh"]
    assert g.V().has("name", TextP.starting_with("ma")).values("age").to_list() == [29]
    assert g.V().has("name", "marko").out("knows").has("age", P.within(27, 32)).count().next() == 2
    assert sorted(g.V().where(__.out("created")).values("name").to_list()) == ["josh", "marko", "peter"]
    counts = g.V().group_count().by(T.label).next()
    assert counts == {"person": 4, "software": 2}
    assert g.with_side_effect("x", ["lop"]).V().has("name", P.within("lop", "josh")).values("name") \
        .where(P.within("x")).to_list() == ["lop"]


def test_elements_arrive_with_properties(g):
    v = g.V().has("name", "marko").next()
    assert isinstance(v, GpVertex) and v.label == "person"
    assert {p.key: p.value for p in v.properties} == {"name": "marko", "age": 29}
    e = g.V().has("name", "marko").out_e("knows").order().by("weight").next()
    assert e.label == "knows" and e.outV.id == v.id
    assert [(p.key, p.value) for p in e.properties] == [("weight", 0.5)]
    path = g.V().has("name", "marko").out("created").path().by("name").next()
    assert list(path.objects) == ["marko", "lop"]


def test_results_are_streamed_in_batches(server, modern):
    client = Client(server.url, "modern")
    try:
        rs = client.submit("g.V().values('name')", request_options={"batchSize": 4})
        batches = list(rs)  # a ResultSet yields one list per response frame
        assert [len(b) for b in batches] == [4, 2]
        assert sorted(x for b in batches for x in b) == sorted(n for _, n, _ in MODERN)
        assert client.submit("g.V().limit(0)").all().result() == []  # a single 204
    finally:
        client.close()


def test_partial_frames_206_then_200(server, modern):
    async def frames():
        ser = GraphBinarySerializersV1()
        from gremlin_python.driver.request import RequestMessage

        rid = str(uuid.uuid4())
        msg = ser.serialize_message(rid, RequestMessage("", "eval", {
            "gremlin": "g.V().values('name')", "aliases": {"g": "modern"}, "batchSize": 4}))
        codes, data = [], []
        async with aiohttp.ClientSession() as s, s.ws_connect(server.url) as ws:
            await ws.send_bytes(msg)
            while True:
                m = ser.deserialize_message((await ws.receive()).data)
                assert m["requestId"] == rid
                codes.append(m["status"]["code"])
                data.extend(m["result"]["data"])
                if codes[-1] != 206:
                    return codes, data

    codes, data = asyncio.run(frames())
    assert codes == [206, 200] and sorted(data) == sorted(n for _, n, _ in MODERN)


def test_evaluation_timeout_script_and_bytecode(server, modern):
    client = Client(server.url, "g")
    try:
        with pytest.raises(GremlinServerError) as e:
            client.submit("g.inject(1).repeat(__.identity()).times(100000000).count()",
                          request_options={"evaluationTimeout": 200}).all().result()
        assert e.value.status_code == 598
    finally:
        client.close()
    start = time.monotonic()
    with pytest.raises(GremlinServerError) as e:
        modern.with_("evaluationTimeout", 200).inject(1).repeat(__.identity()).times(100000000).count().next()
    assert e.value.status_code == 598 and time.monotonic() - start < 10


def test_errors_have_tinkerpop_codes(server):
    client = Client(server.url, "g")
    try:
        with pytest.raises(GremlinServerError) as e:
            client.submit("g.V(").all().result()
        assert e.value.status_code == 597 and "line" in e.value.status_message
        with pytest.raises(GremlinServerError) as e:
            client.submit("System.exit(0)").all().result()
        assert e.value.status_code == 597
    finally:
        client.close()
    nope = DriverRemoteConnection(server.url, "nope")
    try:
        with pytest.raises(GremlinServerError) as e:
            traversal().with_(nope).V().to_list()
        assert e.value.status_code == 499 and "hugegraph" in e.value.status_message
    finally:
        nope.close()


def test_traversal_source_names(server, modern):
    for source in ("modern", "__g_modern"):
        conn = DriverRemoteConnection(server.url, source)
        try:
            assert traversal().with_(conn).V().count().next() == 6
        finally:
            conn.close()
    client = Client(server.url, "__g_modern")
    try:
        assert client.submit("g.V().count()").all().result() == [6]
        assert client.submit("__g_modern.V().count()").all().result() == [6]
    finally:
        client.close()


def test_default_source_g_is_hugegraph(server):
    conn = DriverRemoteConnection(server.url, "g")
    try:
        g = traversal().with_(conn)
        marker = f"m-{uuid.uuid4().hex[:8]}"
        g.add_v("thing").property("name", marker).iterate()
        assert g.V().has("name", marker).count().next() == 1
    finally:
        conn.close()
    client = Client(server.url, "hugegraph")
    try:
        assert client.submit(f"g.V().has('name', '{marker}').count()").all().result() == [1]
    finally:
        client.close()


def test_malformed_frames_answer_499(server):
    async def send(payload):
        async with aiohttp.ClientSession() as s, s.ws_connect(server.url) as ws:
            await ws.send_bytes(payload)
            return (await ws.receive()).data

    raw = asyncio.run(send(b"\x20application/vnd.graphbinary-v1.0\x81\x00\x01"))
    m = GraphBinarySerializersV1().deserialize_message(raw)
    assert m["status"]["code"] == 499 and "truncated" in m["status"]["message"]
    raw = asyncio.run(send(b"\x09text/html<p>"))
    m = GraphBinarySerializersV1().deserialize_message(raw)
    assert m["status"]["code"] == 499 and "mime" in m["status"]["message"]


def test_authentication_op_without_auth_is_refused(server):
    client = Client(server.url, "g", username="admin", password="x")
    try:
        from gremlin_python.driver.request import RequestMessage

        msg = RequestMessage("traversal", "authentication", {"sasl": "AGFkbWluAHg="})
        with pytest.raises(GremlinServerError) as e:
            client._pool.get(True).write(msg).result().all().result()
        assert e.value.status_code == 499 and "not enabled" in e.value.status_message
    finally:
        client.close()


def test_many_concurrent_clients(server, modern):
    def one(i: int) -> list:
        conn = DriverRemoteConnection(server.url, "modern")
        try:
            g = traversal().with_(conn)
            return [i, g.V().has("name", "marko").out("knows").count().next(), g.inject(i).next()]
        finally:
            conn.close()

    with ThreadPoolExecutor(max_workers=100) as pool:
        results = list(pool.map(one, range(100)))
    assert results == [[i, 2, i] for i in range(100)]


def test_slow_query_does_not_block_others(server, modern):
    slow_done = threading.Event()

    def slow():
        c = Client(server.url, "g")
        try:
            c.submit("g.inject(1).repeat(__.identity()).times(100000000).count()",
                     request_options={"evaluationTimeout": 4000}).all().result()
        except GremlinServerError:
            pass
        finally:
            slow_done.set()
            c.close()

    t = threading.Thread(target=slow)
    t.start()
    time.sleep(0.3)
    # another graph: a memory store serialises its own transactions (file stores use WAL)
    c = Client(server.url, "modern")
    try:
        start = time.monotonic()
        assert c.submit("g.V().has('name', 'marko').values('age')").all().result() == [29]
        assert time.monotonic() - start < 2.0
        assert not slow_done.is_set()
    finally:
        c.close()
        t.join()


def test_session_transaction_commit(server, modern):
    conn = DriverRemoteConnection(server.url, "modern")
    try:
        g = traversal().with_(conn)
        tx = g.tx()
        gtx = tx.begin()
        gtx.add_v("person").property("name", "tx-commit").iterate()
        assert gtx.V().has("name", "tx-commit").count().next() == 1
        tx.commit()
        assert g.V().has("name", "tx-commit").count().next() == 1
        g.V().has("name", "tx-commit").drop().iterate()
    finally:
        conn.close()


def test_session_scripts(server):
    client = Client(server.url, "g", session=str(uuid.uuid4()))
    try:
        assert client.submit("g.inject(1, 2).sum()").all().result() == [3]
        assert client.submit("g.inject('a')").all().result() == ["a"]
    finally:
        client.close()


def test_auth_sasl_plain(auth_server):
    ok = Client(auth_server.url, "g", username="admin", password=ADMIN_TOKEN)
    try:
        assert ok.submit("g.inject(1)").all().result() == [1]
        assert ok.submit("g.inject(2)").all().result() == [2]  # the connection stays authenticated
    finally:
        ok.close()
    bad = Client(auth_server.url, "g", username="admin", password="wrong")
    try:
        with pytest.raises(GremlinServerError) as e:
            bad.submit("g.inject(1)").all().result()
        assert e.value.status_code == 401
    finally:
        bad.close()
    anonymous = Client(auth_server.url, "g")
    try:
        with pytest.raises(ConfigurationError):
            anonymous.submit("g.inject(1)").all().result()
    finally:
        anonymous.close()
    conn = DriverRemoteConnection(auth_server.url, "g", username="admin", password=ADMIN_TOKEN)
    try:
        assert traversal().with_(conn).inject(3).to_list() == [3]
    finally:
        conn.close()


def test_idle_connections_get_no_keepalive_pings(server):
    """gremlinpython answers pings only while a request runs, so a server that pings idle
    connections and drops late pongs cuts every idle DriverRemoteConnection (uvicorn's
    default: ping at 20 s). Gremlin Server sends none; nothing may arrive unasked."""

    async def idle() -> str:
        async with aiohttp.ClientSession() as s, s.ws_connect(server.url, autoping=False) as ws:
            try:
                msg = await ws.receive(timeout=23)
            except TimeoutError:
                return "nothing"
            return f"{msg.type.name} {msg.data!r}"

    assert asyncio.run(idle()) == "nothing"


@pytest.fixture(scope="module")
def no_limit_server(tmp_path_factory):
    from tests.wire.server import Server, free_port, write_conf

    port = free_port()
    s = Server(write_conf(tmp_path_factory.mktemp("nolimit"), port, timeout_ms=0), port)
    yield s
    s.stop()


def test_server_time_limit_zero_means_none(no_limit_server):
    """`gremlinserver.evaluation_timeout_ms=0` is Gremlin Server's "no limit", not 0 ms."""
    slow = "g.inject(1).repeat(__.identity()).times(20000).count()"
    client = Client(no_limit_server.url, "modern")
    conn = DriverRemoteConnection(no_limit_server.url, "modern")
    try:
        assert client.submit(slow).all().result() == [1]
        g = traversal().with_(conn)
        assert g.inject(1).repeat(__.identity()).times(20000).count().next() == 1
        with pytest.raises(GremlinServerError) as e:  # a request's own limit still applies
            g.with_("evaluationTimeout", 50).inject(1).repeat(__.identity()).times(10**8).count().next()
        assert e.value.status_code == 598
    finally:
        client.close()
        conn.close()


def test_aliasing_only_g_moves_graph_along(server, modern):
    """`Client(url, "modern")` aliases `g` alone; a script's `graph` then means `modern` too
    (a schema write through `graph` once landed in the default graph)."""
    client = Client(server.url, "modern")
    try:
        assert client.submit("graph.traversal().V().count()").all().result() == [6]
        assert client.submit("g.V().count()").all().result() == [6]
        name = f"follow_{uuid.uuid4().hex[:8]}"
        client.submit(f"graph.schema().propertyKey('{name}').asText().ifNotExist().create()").all().result()
        got = client.submit(f"modern.schema().getPropertyKey('{name}')").all().result()
        assert len(got) == 1 and name in str(got[0])
        with pytest.raises(GremlinServerError):
            client.submit(f"hugegraph.schema().getPropertyKey('{name}')").all().result()
    finally:
        client.close()
    bare = Client(server.url, "g")  # the driver's default: both mean the default graph
    try:
        assert bare.submit("graph.traversal().V().count()").all().result() == \
            bare.submit("hugegraph.traversal().V().count()").all().result()
    finally:
        bare.close()
