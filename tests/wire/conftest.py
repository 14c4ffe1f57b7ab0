"""A real hugelite server process for the wire tests, driven by real gremlinpython clients.

Two memory graphs: `hugegraph` (the default graph, what a driver's `g` means) and `modern`,
both in `auto` schema mode so tests can write TinkerGraph-style data. A second server has
auth enabled (`auth.authenticator` + ConfigAuthenticator-style `auth.admin_token`).
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests.wire.server import Server, free_port, write_conf

ADMIN_TOKEN = "s3cret"


@pytest.fixture(scope="session")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    port = free_port()
    s = Server(write_conf(tmp_path_factory.mktemp("wire"), port), port)
    yield s
    s.stop()


@pytest.fixture(scope="session")
def auth_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    port = free_port()
    extra = f"auth.authenticator=org.apache.hugegraph.auth.ConfigAuthenticator\nauth.admin_token={ADMIN_TOKEN}\n"
    s = Server(write_conf(tmp_path_factory.mktemp("wire_auth"), port, extra=extra), port)
    yield s
    s.stop()
