"""Issue 16 item 4: results are bounded in bytes written out, not in items.

A 248-byte script (a 655,360-character string held by 1,024 slots of one list) answered
671 MB and took the server to 1.37 GB: the bound counted items, and a shared string once.
Now results are weighed as a serializer writes them (`MAX_RESULT_BYTES`, 64 MiB by default,
env `HUGELITE_MAX_RESULT_MB`) and refused with a 400 naming the limit.
"""

from __future__ import annotations

import httpx
import pytest

from tests.hostile.conftest import Watch, gremlin

BIG = "a='xxxxxxxxxx';" + "a=a+a;" * 16  # 655,360 characters, within MAX_VALUE_SIZE


@pytest.mark.parametrize("tail", [
    "g.inject(a).repeat(union(identity(),identity())).times(10).fold()",  # one list of 1,024 copies
    "g.inject(a).repeat(union(identity(),identity())).times(10)",  # 1,024 results (one bulked traverser)
    "g.V().constant(a).repeat(union(identity(),identity())).times(8).group().by(constant(1))",
])
def test_a_shared_long_string_is_weighed_each_time_it_is_written(client: httpx.Client, watch: Watch, tail: str) -> None:
    with watch:
        answer = gremlin(client, BIG + tail)
    assert answer.status_code == 400, answer.text[:300]
    body = answer.json()
    assert body["exception"] == "org.apache.hugegraph.exception.LimitExceedException"
    assert "MAX_RESULT_BYTES (67,108,864 bytes" in body["message"]
    assert len(answer.content) < 10_000
    watch.assert_held(rss_ceiling_mb=400)


def test_results_within_the_bound_are_answered(client: httpx.Client) -> None:
    answer = gremlin(client, BIG + "g.inject(a).repeat(union(identity(),identity())).times(5).fold().count(local)")
    assert answer.json()["result"]["data"] == [32]
    answer = gremlin(client, BIG + "g.inject(a).repeat(union(identity(),identity())).times(5)")
    assert answer.status_code == 200 and len(answer.json()["result"]["data"]) == 32  # ~21 MB
