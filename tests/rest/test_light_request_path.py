"""Shortcuts on the path every light request takes (routing of literal-ended paths, the
front door's gzip choice): same answers as the general code, less work per request."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from rest_adapter import front_door, routing
from rest_adapter.app import build_routes
from rest_adapter.routing import IndexedRouter

LITERAL_PATHS = [
    "/graphs/g/traversers/kout", "/graphs/g/traversers/kneighbor", "/graphs/other/traversers/kout",
    "/graphspaces/DEFAULT/graphs/g/traversers/kout", "/graphs/g/graph/vertices/batch", "/graphs/g/clear",
    "/versions", "/apis/version", "/graphs/g/traversers/vertices/scan", "/graphs/g/schema/propertykeys",
    "/graphs/g/nothing/kout", "/graphs//traversers/kout",
]


def _plain(hits: Any) -> Any:
    return None if hits is None else [(n, route.path, params) for n, route, params in hits]


@pytest.mark.parametrize("kind", ["http", "websocket"])
def test_literal_paths_route_as_the_shape_match(kind: str) -> None:
    router = IndexedRouter(build_routes())
    for rounds in range(3):
        for path in LITERAL_PATHS:
            want = router._match(path[1:].split("/"), kind)
            assert _plain(router.lookup(path, kind)) == _plain(want), (rounds, path)
    if kind == "http":  # websocket templates have no literal there: those paths take the head plan
        assert ("http", "/graphs/g/traversers/kout") in router._literal


def test_literal_paths_get_their_own_params_dicts() -> None:
    router = IndexedRouter(build_routes())
    a = router.lookup("/graphs/g/traversers/kout", "http")
    assert a is not None and a[0][2] == {"graph": "g"}
    a[0][2]["graph"] = "changed"
    b = router.lookup("/graphs/g/traversers/kout", "http")
    assert b is not None and b[0][2] == {"graph": "g"} and b[0][2] is not a[0][2]
    assert router._literal[("http", "/graphs/g/traversers/kout")][0][2] == {"graph": "g"}


def test_the_literal_table_stops_growing(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(routing, "MAX_HEAD_PLANS", 2)
    router = IndexedRouter(build_routes())
    for n in range(6):
        path = f"/graphs/g{n}/traversers/kout"
        assert _plain(router.lookup(path, "http")) == _plain(router._match(path[1:].split("/"), "http"))
    assert len(router._literal) == 2


def _exchange_run(status: int, length: int, accept: bytes | None, monkeypatch: pytest.MonkeyPatch) -> Any:
    calls: list[Any] = []
    real = front_door.client_accepts_gzip
    monkeypatch.setattr(front_door, "client_accepts_gzip", lambda h: calls.append(h) or real(h))
    sent: list[Any] = []

    async def server_send(message: Any) -> None:
        sent.append(message)

    headers = [(b"host", b"x")] + ([(b"accept-encoding", accept)] if accept is not None else [])
    exchange = front_door._Exchange(server_send, headers, 1024, 1)
    body = b"x" * length

    async def go() -> None:
        await exchange.send({"type": "http.response.start", "status": status,
                             "headers": [(b"content-length", str(length).encode())]})
        await exchange.send({"type": "http.response.body", "body": body})

    asyncio.run(go())
    return calls, sent, exchange


@pytest.mark.parametrize("accept", [b"gzip, deflate", b"identity", None])
def test_small_or_failed_answers_never_read_accept_encoding(accept: bytes | None,
                                                            monkeypatch: pytest.MonkeyPatch) -> None:
    for status, length in ((200, 100), (404, 5000), (204, 0)):
        calls, sent, exchange = _exchange_run(status, length, accept, monkeypatch)
        assert calls == [] and exchange.gzip is None and exchange.status == status and exchange.started
        assert [m["type"] for m in sent] == ["http.response.start", "http.response.body"]
        assert sent[1]["body"] == b"x" * length


@pytest.mark.parametrize(("accept", "gzipped"), [(b"gzip, deflate", True), (b"identity", False), (None, False)])
def test_large_answers_gzip_when_accepted(accept: bytes | None, gzipped: bool,
                                          monkeypatch: pytest.MonkeyPatch) -> None:
    calls, sent, exchange = _exchange_run(200, 5000, accept, monkeypatch)
    assert len(calls) == 1 and (exchange.gzip is not None) is gzipped
    encoding = dict(sent[0]["headers"]).get(b"content-encoding")
    assert encoding == (b"gzip" if gzipped else None)
