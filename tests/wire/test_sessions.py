"""Session transactions with real gremlinpython: `g.tx()` over WebSocket and embedded, and
script sessions (`Client(..., session=...)`).

The graphs are SQLite files (WAL): other connections read the last committed state while a
session holds its transaction, which is what these tests look at."""

from __future__ import annotations

import uuid
from collections.abc import Iterator

import pytest
from gremlin_python.driver.client import Client
from gremlin_python.driver.driver_remote_connection import DriverRemoteConnection
from gremlin_python.driver.protocol import GremlinServerError
from gremlin_python.process.anonymous_traversal import traversal

from gremlin_engine.embedded import EmbeddedConnection
from gremlin_engine.errors import NotSupported
from tests.wire.server import Server, free_port, write_conf


@pytest.fixture(scope="module")
def tx_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    base = tmp_path_factory.mktemp("tx")
    port = free_port()
    conf = write_conf(base, port, graphs={})
    s = Server(conf, port)  # the store: data/txg.db, in the server's data folder
    status, body = s.request("POST", "/graphs/txg", "backend=sqlite\nstore=txg\nschema.mode=auto\n")
    assert status == 200, body
    yield s
    s.stop()


def names(g, tag: str) -> list[str]:
    return sorted(g.V().has("tag", tag).values("name").to_list())


@pytest.fixture
def tag() -> str:
    return uuid.uuid4().hex[:8]


@pytest.fixture
def remote(tx_server: Server) -> Iterator[DriverRemoteConnection]:
    conn = DriverRemoteConnection(tx_server.url, "txg")
    yield conn
    conn.close()


def test_commit_makes_writes_visible_to_other_connections(remote, tx_server, tag):
    g = traversal().with_(remote)
    tx = g.tx()
    gtx = tx.begin()
    gtx.add_v("person").property("name", "ann").property("tag", tag).iterate()
    gtx.add_v("person").property("name", "bob").property("tag", tag).iterate()
    assert names(gtx, tag) == ["ann", "bob"]  # the session sees its own writes
    other = DriverRemoteConnection(tx_server.url, "txg")
    try:
        assert names(traversal().with_(other), tag) == []  # nobody else does yet
        tx.commit()
        assert not tx.is_open()
        assert names(traversal().with_(other), tag) == ["ann", "bob"]
    finally:
        other.close()


def test_rollback_discards_writes(remote, tag):
    g = traversal().with_(remote)
    g.add_v("person").property("name", "kept").property("tag", tag).iterate()
    tx = g.tx()
    gtx = tx.begin()
    gtx.add_v("person").property("name", "gone").property("tag", tag).iterate()
    gtx.V().has("tag", tag).has("name", "kept").property("name", "renamed").iterate()
    assert names(gtx, tag) == ["gone", "renamed"]
    tx.rollback()
    assert names(g, tag) == ["kept"]


def test_session_closed_without_commit_rolls_back(remote, tag):
    g = traversal().with_(remote)
    tx = g.tx()
    gtx = tx.begin()
    gtx.add_v("person").property("name", "ghost").property("tag", tag).iterate()
    tx.close()  # closes the session on the server: what was not committed is rolled back
    assert names(g, tag) == []


def test_failed_request_rolls_the_session_back(remote, tag):
    g = traversal().with_(remote)
    tx = g.tx()
    gtx = tx.begin()
    gtx.add_v("person").property("name", "early").property("tag", tag).iterate()
    with pytest.raises(GremlinServerError):
        gtx.inject(1).fail("boom").iterate()
    tx.commit()  # nothing left to commit: the failure rolled the transaction back
    assert names(g, tag) == []


def test_script_session_commit_and_rollback(tx_server, tag):
    session = Client(tx_server.url, "txg", session=str(uuid.uuid4()))
    reader = Client(tx_server.url, "txg")
    seen = "g.V().has('tag', t).values('name').order()"
    try:
        session.submit("g.addV('person').property('name', 'cy').property('tag', t)", {"t": tag}).all().result()
        assert session.submit(seen, {"t": tag}).all().result() == ["cy"]
        assert reader.submit(seen, {"t": tag}).all().result() == []
        session.submit("g.tx().commit()").all().result()
        assert reader.submit(seen, {"t": tag}).all().result() == ["cy"]
        session.submit("g.addV('person').property('name', 'dee').property('tag', t)", {"t": tag}).all().result()
        session.submit("g.tx().rollback()").all().result()
        session.submit("g.addV('person').property('name', 'eve').property('tag', t)", {"t": tag}).all().result()
    finally:
        session.close()  # eve was never committed
    try:
        assert reader.submit(seen, {"t": tag}).all().result() == ["cy"]
    finally:
        reader.close()


def test_rollback_outside_a_session_is_refused(remote):
    with pytest.raises(GremlinServerError) as e:
        remote.rollback().all().result()
    assert "session" in str(e.value)


# ---- embedded ------------------------------------------------------------------------------
@pytest.fixture
def embedded(tmp_path) -> Iterator[EmbeddedConnection]:
    conn = EmbeddedConnection(tmp_path / "tx.db")
    yield conn
    conn.close()


def test_embedded_commit_and_rollback(embedded, tag):
    g = traversal().with_(embedded)
    tx = g.tx()
    gtx = tx.begin()
    gtx.add_v("person").property("name", "ann").property("tag", tag).iterate()
    assert names(gtx, tag) == ["ann"]
    tx.commit()
    assert names(g, tag) == ["ann"]

    tx = g.tx()
    gtx = tx.begin()
    gtx.add_v("person").property("name", "bob").property("tag", tag).iterate()
    tx.rollback()
    assert names(g, tag) == ["ann"]


def test_embedded_session_closed_without_commit_rolls_back(embedded, tag):
    g = traversal().with_(embedded)
    tx = g.tx()
    gtx = tx.begin()
    gtx.add_v("person").property("name", "ghost").property("tag", tag).iterate()
    tx.close()
    assert names(g, tag) == []


def test_embedded_uncommitted_writes_are_invisible_to_another_connection(tmp_path, tag):
    writer = EmbeddedConnection(tmp_path / "shared.db")
    reader = EmbeddedConnection(writer.graph)  # a second connection onto the same open graph
    try:
        tx = traversal().with_(writer).tx()
        gtx = tx.begin()
        gtx.add_v("person").property("name", "zed").property("tag", tag).iterate()
        assert names(traversal().with_(reader), tag) == []
        tx.commit()
        assert names(traversal().with_(reader), tag) == ["zed"]
    finally:
        reader.close()
        writer.close()


def test_embedded_rollback_outside_a_session_is_refused(embedded):
    with pytest.raises(NotSupported):
        embedded.rollback()
