"""Servers with authentication on (StandardAuthenticator, records in the sqlite graph
`hugegraph`), started as real processes, and their bootstrap admin's password."""

from __future__ import annotations

import os
from collections.abc import Iterator

import httpx
import pytest

from tests.conftest import RunningServer, ServerFactory

ADMIN_PASSWORD = "pa-secret"
STANDARD = {
    "auth.authenticator": "org.apache.hugegraph.auth.StandardAuthenticator",
    "auth.graph_store": "hugegraph",
    "auth.token_secret": "a-test-secret-of-enough-length-for-hs256",
}
GRAPHS = {
    "hugegraph": "backend=sqlite\nstore=data/hugegraph.db\nschema.mode=strict\n",
    "memgraph": "backend=memory\nschema.mode=auto\n",
}


def start_auth_server(factory: ServerFactory, **server: str) -> RunningServer:
    """A server with auth on; `init-store` creates `admin` from HUGELITE_ADMIN_PASSWORD."""
    old = os.environ.get("HUGELITE_ADMIN_PASSWORD")
    os.environ["HUGELITE_ADMIN_PASSWORD"] = ADMIN_PASSWORD
    try:
        return factory.start(graphs=GRAPHS, server={**STANDARD, **server})
    finally:
        if old is None:
            del os.environ["HUGELITE_ADMIN_PASSWORD"]
        else:
            os.environ["HUGELITE_ADMIN_PASSWORD"] = old


@pytest.fixture(scope="session")
def auth_server(server_factory: ServerFactory) -> RunningServer:
    return start_auth_server(server_factory)


@pytest.fixture
def admin(auth_server: RunningServer) -> Iterator[httpx.Client]:
    with httpx.Client(base_url=auth_server.base_url, auth=("admin", ADMIN_PASSWORD), timeout=30) as client:
        yield client


@pytest.fixture
def anon(auth_server: RunningServer) -> Iterator[httpx.Client]:
    with httpx.Client(base_url=auth_server.base_url, timeout=30) as client:
        yield client
