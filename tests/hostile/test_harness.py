"""The harness itself measures what it claims: an ordinary request holds every bound."""

from __future__ import annotations

import time

import httpx

from tests.hostile.conftest import Watch, gremlin


def test_an_ordinary_query_holds_every_bound(client: httpx.Client, watch: Watch) -> None:
    with watch:
        answer = gremlin(client, "g.V().has('name','marko').out('knows').values('name').order()")
        assert answer.status_code == 200
        assert answer.json()["result"]["data"] == ["josh", "vadas"]
        deadline = time.monotonic() + 10
        while len(watch.versions_ms) < 3 and time.monotonic() < deadline:  # a loaded host probes slowly
            time.sleep(0.05)
    watch.assert_held(rss_ceiling_mb=512)
    assert len(watch.versions_ms) >= 3
    assert watch.peak_rss_mb > 10
