"""A real hugelite server process whose requests carry a Principal chosen by the client.

Stands in for the authenticating layer (issue 19's credentials, built in parallel): a
one-function ASGI wrapper puts the Principal named by the `X-Test-Principal` header into the
HTTP or WebSocket scope under "hugelite.principal", exactly where the real authenticator
leaves it. Everything behind it is the stock app under stock uvicorn, so the door tests see
what each door does with a principal, not what a mock would.

Run: python tests/auth/principal_server.py CONF_DIR PORT
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import uvicorn

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from rest_adapter.app import create_app, open_registry
from rest_adapter.context import PRINCIPAL_KEY
from rest_adapter.settings import Settings
from tests.auth.conftest import PRINCIPALS


def with_principals(app: Any) -> Any:
    async def wrapped(scope: Any, receive: Any, send: Any) -> None:
        if scope["type"] in ("http", "websocket"):
            for name, value in scope.get("headers") or ():
                if name == b"x-test-principal":
                    scope = dict(scope)
                    scope[PRINCIPAL_KEY] = PRINCIPALS[value.decode()]
        await app(scope, receive, send)

    return wrapped


def main() -> None:
    conf, port = sys.argv[1], int(sys.argv[2])
    settings = Settings.load(conf)
    app = create_app(settings, registry=open_registry(settings))
    uvicorn.run(with_principals(app), host="127.0.0.1", port=port, log_level="warning")


if __name__ == "__main__":
    main()
