"""Issue 16 item 1: a user-given count never sizes one allocation or one SQL statement.

`g.V().repeat(both()).times(100000).count()` used to unroll into one statement of 100,000
CTEs: SQLite overflowed its C stack preparing it (SIGSEGV after ~95 s, 760 MB), and
`times(10**9)` built a list of 10**9 hops first (16 GB). Now the walk-count strategy unrolls
at most `storage.WALK_MAX_HOPS` hops; past it the stepwise repeat runs, merging bulk per level
and polling its deadline, and a bulk past Long.MAX_VALUE (2**n walks on a cycle) is refused.
"""

from __future__ import annotations

import httpx
import pytest

from tests.hostile.conftest import Watch, gremlin


@pytest.mark.parametrize("times", [100, 100_000, 1_000_000_000])
def test_a_huge_times_on_a_cycle_is_refused_quickly(client: httpx.Client, watch: Watch, times: int) -> None:
    with watch:
        answer = gremlin(client, f"g.V().repeat(both()).times({times}).count()")
    assert answer.status_code == 400, answer.text
    body = answer.json()
    assert body["exception"] == "org.apache.hugegraph.exception.LimitExceedException"
    assert "Long.MAX_VALUE" in body["message"]
    watch.assert_held(rss_ceiling_mb=400)


def test_a_walk_that_never_grows_runs_stepwise_until_the_deadline(client: httpx.Client, watch: Watch) -> None:
    """The stepwise repeat (no unrolling) ends at the server's 3 s evaluation timeout."""
    with watch:
        answer = gremlin(client, "g.V().repeat(both().limit(1)).times(1000000000).count()")
    assert answer.status_code == 400, answer.text
    assert answer.json()["exception"] == "java.util.concurrent.TimeoutException"
    watch.assert_held(rss_ceiling_mb=400)


def test_short_walks_are_still_counted(client: httpx.Client) -> None:
    """Within the unrolling bound the count is the walk count (TinkerPop's answers)."""
    assert gremlin(client, "g.V().repeat(both()).times(8).count()").json()["result"]["data"] == [5910]
    assert gremlin(client, "g.V().repeat(both()).times(20).count()").json()["result"]["data"] == [231683790]
    assert gremlin(client, "g.V(1).repeat(out()).times(2).count()").json()["result"]["data"] == [2]
