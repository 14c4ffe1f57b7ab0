"""The ASGI lifespan handshake the protocol tests' bare apps answer: uvicorn sends startup
and shutdown to every app it serves, and a test app has nothing to do for either."""

from __future__ import annotations

from typing import Any


async def answer_lifespan(receive: Any, send: Any) -> None:
    """Completes startup, then shutdown, and returns when the server shuts down."""
    while True:
        message = await receive()
        if message["type"] == "lifespan.startup":
            await send({"type": "lifespan.startup.complete"})
        elif message["type"] == "lifespan.shutdown":
            await send({"type": "lifespan.shutdown.complete"})
            return
