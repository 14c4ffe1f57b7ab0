"""Traverser listings and gzip, through httpx against a real server: a k-out / k-neighbor id
listing is gzipped exactly when its JSON is at least `GZIP_MINIMUM_SIZE` bytes and the client
accepts gzip, and a gzipped answer decodes to the same listing (same ids, same order, same
Java-free JSON) as the plain one."""

from __future__ import annotations

import gzip
import re
from collections.abc import Iterator
from typing import Any

import httpx
import orjson
import pytest

from rest_adapter.compression import GZIP_MINIMUM_SIZE

G = "/graphs/zg"
T = f"{G}/traversers"
FAN = 3000  # out-neighbours of the hub: ~24 KB of ids listed
HUB = 1
_COST = re.compile(rb'"cost\(ns\)":\d+')


@pytest.fixture(scope="module")
def http(server_factory: Any) -> Iterator[httpx.Client]:
    server = server_factory.start(graphs={"zg": "backend=sqlite\nschema.mode=strict\n"})
    with httpx.Client(base_url=server.base_url, timeout=60) as c:
        s = f"{G}/schema"
        assert c.post(f"{s}/propertykeys", json={"name": "name", "data_type": "TEXT"}).status_code == 202
        assert c.post(f"{s}/vertexlabels", json={"name": "n", "id_strategy": "CUSTOMIZE_NUMBER",
                                                 "properties": ["name"], "nullable_keys": ["name"]}).status_code == 201
        assert c.post(f"{s}/edgelabels", json={"name": "to", "source_label": "n",
                                               "target_label": "n"}).status_code == 201
        ids = [HUB, *(1_000_000 + i for i in range(FAN))]
        for i in range(0, len(ids), 500):
            batch = [{"label": "n", "id": v, "properties": {}} for v in ids[i:i + 500]]
            r = c.post(f"{G}/graph/vertices/batch", json=batch)
            assert r.status_code == 201, r.text
        # the hub's neighbours in a shuffled insertion order: the listing's order is the index's
        order = sorted(ids[1:], key=lambda v: (v * 7919) % FAN)
        for i in range(0, FAN, 500):
            batch = [{"label": "to", "outV": HUB, "inV": v, "outVLabel": "n", "inVLabel": "n"} for v in order[i:i + 500]]
            r = c.post(f"{G}/graph/edges/batch", json=batch)
            assert r.status_code == 201, r.text
        yield c


def _get(c: httpx.Client, path: str, encoding: str) -> tuple[bool, bytes]:
    """(gzipped on the wire, the body as JSON bytes decoded) of one GET, read raw."""
    resp = c.send(c.build_request("GET", path, headers={"Accept-Encoding": encoding}), stream=True)
    try:
        raw = b"".join(resp.iter_raw())
    finally:
        resp.close()
    assert resp.status_code == 200, raw
    assert int(resp.headers["content-length"]) == len(raw)
    zipped = resp.headers.get("content-encoding") == "gzip"
    return zipped, gzip.decompress(raw) if zipped else raw


@pytest.mark.parametrize("endpoint", ["kout", "kneighbor"])
def test_gzipped_and_plain_listings_are_the_same(http: httpx.Client, endpoint: str) -> None:
    path = f"{T}/{endpoint}?source={HUB}&max_depth=1&direction=OUT&label=to&max_degree=-1&limit=-1"
    if endpoint == "kout":
        path += "&capacity=-1"
    zipped, body = _get(http, path, "gzip, deflate")
    plain_zipped, plain = _get(http, path, "identity")
    assert zipped and not plain_zipped and len(plain) >= GZIP_MINIMUM_SIZE
    assert _COST.sub(b"", body) == _COST.sub(b"", plain)
    listed = orjson.loads(body)["vertices"]
    expected = [1_000_000 + i for i in range(FAN)]  # the index's order: by neighbour key
    assert listed == (expected if endpoint == "kout" else [HUB, *expected])


def test_the_threshold(http: httpx.Client) -> None:
    """Listings on either side of `GZIP_MINIMUM_SIZE` (the `limit` sets their length): each
    answer is gzipped if and only if its own JSON is at least that long."""
    sizes = {}
    for limit in (10, 500, 1500, 2000, 2040, 2045, 2050, 2100, 2500):
        path = f"{T}/kout?source={HUB}&max_depth=1&direction=OUT&label=to&max_degree=-1&limit={limit}&capacity=-1"
        zipped, body = _get(http, path, "gzip")
        assert zipped == (len(body) >= GZIP_MINIMUM_SIZE), (limit, len(body))
        assert len(orjson.loads(body)["vertices"]) == limit
        sizes[limit] = (len(body), zipped)
    assert {z for _, z in sizes.values()} == {True, False}, sizes
