"""Login throttling and empty credentials (issue 16 item 9), through gremlinpython.

Before: 4,141 wrong SASL attempts in 3 s were answered at full speed, and a user configured
with an empty token logged in with an empty password. Now a configured empty token stops
the server at start, an empty password never logs in, and repeated failures per user and
per address wait (asyncio.sleep: other clients keep being answered) and then are refused
at once, even with the right password, until the delay has passed.
"""

from __future__ import annotations

import asyncio
import base64
import json
import time
import uuid
from collections.abc import Iterator
from pathlib import Path

import aiohttp
import pytest
from gremlin_python.driver.client import Client
from gremlin_python.driver.protocol import GremlinServerError

from tests.conftest import RunningServer, ServerFactory, run_cli, write_conf
from tests.hostile.conftest import Watch

AUTH = {
    "auth.authenticator": "org.apache.hugegraph.auth.ConfigAuthenticator",
    "auth.admin_token": "s3cret",
    "auth.user_tokens": "[bob:b0b-pw]",
}


@pytest.fixture
def auth_server(server_factory: ServerFactory) -> Iterator[RunningServer]:
    """A fresh server per test: the throttle's memory is the server's."""
    # a configured user has every permission on the graph of its own name (HugeGraph's
    # ConfigAuthenticator), so bob's scripts run on `bob`
    running = server_factory.start(graphs={"hugegraph": "backend=memory\nschema.mode=auto\n",
                                           "bob": "backend=memory\nschema.mode=auto\n"}, server=AUTH)
    yield running
    running.stop()


def _login(server: RunningServer, user: str, password: str) -> str:
    """'ok', or the server's refusal message."""
    client = Client(server.base_url.replace("http", "ws") + "/gremlin", "g", username=user, password=password)
    try:
        assert client.submit("g.inject(1)", request_options={"aliases": {"g": "__g_bob"}}).all().result() == [1]
        return "ok"
    except GremlinServerError as exc:
        assert exc.status_code == 401, exc
        return str(exc)
    finally:
        client.close()


def _sasl(server: RunningServer, user: str, password: str) -> dict:
    """The answer to one SASL PLAIN `authentication` request, sent as GraphSON 3 text
    (gremlinpython itself never sends an empty password)."""
    sasl = base64.b64encode(f"\0{user}\0{password}".encode()).decode()
    request = {"requestId": str(uuid.uuid4()), "op": "authentication", "processor": "", "args": {"sasl": sasl}}
    mime = b"application/vnd.gremlin-v3.0+json"
    frame = bytes([len(mime)]) + mime + json.dumps(request).encode()

    async def send() -> dict:
        async with aiohttp.ClientSession() as session, session.ws_connect(
            server.base_url.replace("http", "ws") + "/gremlin"
        ) as ws:
            await ws.send_bytes(frame)
            return json.loads((await ws.receive(timeout=30)).data)

    return asyncio.run(send())


def test_an_empty_password_never_logs_in(auth_server: RunningServer) -> None:
    for user, password in [("admin", ""), ("", ""), ("bob", "")]:
        status = _sasl(auth_server, user, password)["status"]
        assert (status["code"], status["message"]) == (401, "Username and/or password are incorrect")
    assert _sasl(auth_server, "bob", "b0b-pw")["status"]["code"] == 204
    assert _login(auth_server, "bob", "b0b-pw") == "ok"


@pytest.mark.parametrize(
    ("key", "value", "user"),
    [("auth.user_tokens", "[bob:b0b-pw, eve:]", "eve"), ("auth.admin_token", "", "admin")],
)
def test_a_configured_empty_token_stops_the_server_at_start(tmp_path: Path, key: str, value: str, user: str) -> None:
    conf = write_conf(tmp_path, {"hugegraph": "backend=memory\n"}, {**AUTH, key: value})
    done = run_cli("serve", "--conf", str(conf), cwd=tmp_path)
    assert done.returncode == 1  # a configuration error, as every other (click's exit code)
    assert f"{key}: user '{user}' has an empty token" in done.stderr
    assert "Traceback" not in done.stderr


def test_repeated_failures_are_slowed_then_refused(auth_server: RunningServer) -> None:
    watch = Watch(auth_server)
    attempts: list[str] = []
    with watch:
        started = time.monotonic()
        while time.monotonic() - started < 3:
            attempts.append(_login(auth_server, "admin", "wrong"))
    watch.assert_held(rss_ceiling_mb=512)  # the waits never held other clients
    assert len(attempts) < 20  # before: 4,141 in 3 s
    assert all("Username and/or password are incorrect" in a for a in attempts[:5])
    # keep failing until the delay outgrows the wait the server grants: refused unchecked,
    # even with the right password
    for _ in range(10):
        if "Too many failed logins" in _login(auth_server, "admin", "wrong"):
            break
    refusal = _login(auth_server, "admin", "s3cret")
    assert "Too many failed logins for this user or address; try again in" in refusal


def test_failures_count_per_address_across_users(auth_server: RunningServer) -> None:
    for n in range(12):
        _login(auth_server, f"user{n}", "wrong")  # 12 different users, one address
    assert "Too many failed logins" in _login(auth_server, "bob", "b0b-pw")
