"""A client that leaves stops the server's PostgreSQL statement (issue 16 item 3 on
PostgreSQL), against a real server: the statement runs in the PostgreSQL backend, not in the
server's process, so what is watched is the server's `pg_stat_activity`. The script's count
is one join-chain statement of (2(N-1))**3 walks (`storage.pg_cancel` cancels it once the
request's cancel token is set); while the client is there, it shows as active; after the
client disconnects it is gone within a bound, where it would run on for seconds; and the
graph answers the next request. Run by `make test-postgres`, skipped on SQLite.
"""

from __future__ import annotations

import json
import socket
import time
from collections.abc import Iterator
from typing import Any

import httpx
import psycopg
import pytest

from rest_adapter.settings import parse_properties
from tests.backends import postgres_only, server_url
from tests.conftest import RunningServer, ServerFactory

pytestmark = postgres_only("the statement runs in the PostgreSQL backend")

G = "/graphs/pg"
N = 250
SLOW = "g.V(1).both().both().both().count()"
#: the statement's text as the server runs it (the walk's third join); PostgreSQL may run it
#: with parallel workers, which show in `pg_stat_activity` with the same text
SHAPE = "%JOIN edges AS e2 ON%"
#: seconds after the client left by which the statement must be gone (the server notices
#: the disconnect, the watcher polls every 25 ms; a loaded host)
BOUND_S = 2.5


@pytest.fixture(scope="module")
def served(server_factory: ServerFactory) -> Iterator[RunningServer]:
    running = server_factory.start(graphs={"pg": "backend=sqlite\nstore=data/pg.db\nschema.mode=strict\n"})
    with httpx.Client(base_url=running.base_url, timeout=60) as c:
        s = f"{G}/schema"
        assert c.post(f"{s}/vertexlabels", json={"name": "n", "id_strategy": "CUSTOMIZE_NUMBER"}).status_code == 201
        assert c.post(f"{s}/edgelabels", json={"name": "e", "source_label": "n", "target_label": "n"}).status_code == 201
        r = c.post(f"{G}/graph/vertices/batch", json=[{"label": "n", "id": v, "properties": {}} for v in range(1, N + 1)])
        assert r.status_code == 201, r.text
        pairs = [(u, v) for u in range(1, N + 1) for v in range(1, N + 1) if u != v]
        for i in range(0, len(pairs), 500):
            batch = [{"label": "e", "outV": u, "inV": v, "outVLabel": "n", "inVLabel": "n"} for u, v in pairs[i:i + 500]]
            r = c.post(f"{G}/graph/edges/batch", json=batch)
            assert r.status_code == 201, r.text
    yield running
    running.stop()


def _database(server: RunningServer) -> str:
    props = parse_properties((server.conf / "graphs" / "pg.properties").read_text())
    return str(props["store"])


def _active(conn: Any, database: str) -> int:
    row = conn.execute("SELECT count(*) FROM pg_stat_activity WHERE datname = %s AND state = 'active'"
                       " AND query LIKE %s", (database, SHAPE)).fetchone()
    return int(row[0])


def _gremlin(client: httpx.Client, script: str) -> httpx.Response:
    return client.post("/gremlin", json={"gremlin": script, "aliases": {"g": "__g_pg", "graph": "pg"}})


def test_a_client_that_leaves_stops_the_statement(served: RunningServer) -> None:
    database = _database(served)
    body = json.dumps({"gremlin": SLOW, "aliases": {"g": "__g_pg", "graph": "pg"}}).encode()
    host, port = served.base_url.removeprefix("http://").split(":")
    admin = f"{server_url().replace('postgresql+psycopg', 'postgresql', 1)}/postgres"
    with psycopg.connect(admin, autocommit=True) as pg:
        assert _active(pg, database) == 0
        with socket.create_connection((host, int(port)), timeout=10) as sock:
            sock.sendall(b"POST /gremlin HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
                         b"Content-Length: %d\r\n\r\n%s" % (len(body), body))
            deadline = time.monotonic() + 10
            while not _active(pg, database):  # the statement reaches the server
                assert time.monotonic() < deadline, "the walk count never ran in PostgreSQL"
                time.sleep(0.02)
            time.sleep(0.5)
            assert _active(pg, database) >= 1  # still running while its client waits
        left = time.monotonic()
        while _active(pg, database):
            assert time.monotonic() - left < BOUND_S, "the statement ran on after its client left"
            time.sleep(0.02)
    with httpx.Client(base_url=served.base_url, timeout=30) as c:
        r = _gremlin(c, "g.V(1).both().count()")
        assert r.status_code == 200, r.text
        assert r.json()["result"]["data"] == [2 * (N - 1)]
