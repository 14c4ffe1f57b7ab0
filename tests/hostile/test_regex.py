"""No regex can freeze the server (issue 16 item 5): patterns run on RE2, in linear time.

Before: `^(a?){9}(a?){9}(a?){9}a{14}$` on `a` * 13 + `b` took 17.6 s of Python's `re` (35 s
on 20 `a`s), holding every other request, and `.*.*.*x` on a 600-character value held
`/versions` for 27 s. Now both answer
at once, and a Java-regex feature RE2 lacks is a 400 naming it.
"""

from __future__ import annotations

import httpx
import pytest
from gremlin_python.driver.driver_remote_connection import DriverRemoteConnection
from gremlin_python.process.anonymous_traversal import traversal
from gremlin_python.process.traversal import TextP

from tests.conftest import RunningServer
from tests.hostile.conftest import Watch, gremlin


@pytest.mark.parametrize(
    ("pattern", "text"),
    [("^(a?){9}(a?){9}(a?){9}a{14}$", "a" * 20 + "b"), (".*.*.*x", "a" * 20_000), ("(a+)+$", "a" * 5000 + "!")],
)
def test_a_backtracking_pattern_answers_at_once(client: httpx.Client, watch: Watch, pattern: str,
                                                text: str) -> None:
    with watch:
        answer = gremlin(client, f"g.inject('{text}').filter(__.is(TextP.regex('{pattern}'))).count()")
        assert answer.status_code == 200, answer.text
        assert answer.json()["result"]["data"] == [0]
    watch.assert_held(rss_ceiling_mb=512)


def test_ordinary_patterns_match_as_before(client: httpx.Client) -> None:
    answer = gremlin(client, "g.V().has('name', TextP.regex('^(ma|vad)')).values('name').order()")
    assert answer.json()["result"]["data"] == ["marko", "vadas"]
    answer = gremlin(client, "g.V().has('name', TextP.notRegex('o')).values('name').order()")
    assert answer.json()["result"]["data"] == ["peter", "ripple", "vadas"]


@pytest.mark.parametrize(
    ("pattern", "feature"),
    [("(a)\\\\1", "backreference \\1"), ("(?<=a)b", "lookbehind (?<=...)"), ("a++", "possessive quantifier ++")],
)
def test_a_feature_re2_lacks_is_a_400_naming_it(client: httpx.Client, watch: Watch, pattern: str,
                                               feature: str) -> None:
    with watch:
        answer = gremlin(client, f"g.addV('person').property('name','regex').has('name', TextP.regex('{pattern}'))")
    watch.assert_held()
    assert answer.status_code == 400
    body = answer.json()
    assert body["exception"] == "java.lang.IllegalArgumentException"
    assert f"regex feature not supported: {feature} (hugelite uses RE2, linear time" in body["message"]
    count = gremlin(client, "g.V().has('name','regex').count()")
    assert count.json()["result"]["data"] == [0]  # the request changed nothing


def test_bytecode_patterns_meet_the_same_engine(hostile_server: RunningServer, watch: Watch) -> None:
    url = hostile_server.base_url.replace("http", "ws") + "/gremlin"
    remote = DriverRemoteConnection(url, "__g_modern")
    try:
        g = traversal().with_(remote)
        with watch:
            assert g.inject("a" * 20_000).is_(TextP.regex(".*.*.*x")).count().next() == 0
            assert g.V().has("name", TextP.regex("^jo")).values("name").to_list() == ["josh"]
        watch.assert_held()
        with pytest.raises(Exception, match="regex feature not supported: lookahead"):
            g.V().has("name", TextP.regex("(?=j)")).to_list()
    finally:
        remote.close()
