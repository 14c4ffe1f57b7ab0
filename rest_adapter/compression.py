"""Gzip for large successful responses, when the client accepts it.

HugeGraph gzips its big list responses (vertices, edges, `/gremlin`); the spec says a client
must be ready to decompress them. Starlette's GZipMiddleware would also compress error
bodies, which HugeGraph never does (clients read error JSON without decoding), so this one
compresses only 2xx responses of at least `minimum_size` bytes that are not already
encoded, and streams when the application streams.

`GzipSender` is the `send` that does it for one response; the app's front door
(`front_door.py`) puts it in place only for a 2xx response the client may get gzipped
and that is not declared smaller than `minimum_size`, so a small answer is never buffered.
`GzipMiddleware` is the same as a stand-alone ASGI middleware.
"""

from __future__ import annotations

import gzip
import io
from typing import Any

from starlette.datastructures import Headers, MutableHeaders
from starlette.types import ASGIApp, Message, Receive, Scope, Send


def accepts_gzip_value(value: str) -> bool:
    """Whether an `Accept-Encoding` value accepts gzip (`gzip` or `*`, not with `q=0`)."""
    for part in value.split(","):
        coding, _, params = part.strip().partition(";")
        if coding.strip().lower() in ("gzip", "*"):
            q = params.strip()
            return not (q.startswith("q=") and float(q[2:] or 0) == 0)
    return False


def accepts_gzip(headers: Headers) -> bool:
    return accepts_gzip_value(headers.get("accept-encoding", ""))


_ACCEPTS: dict[bytes, bool] = {}  # Accept-Encoding value -> accepts gzip (clients send few)


def client_accepts_gzip(raw_headers: Any) -> bool:
    """`accepts_gzip` on an ASGI scope's raw header list, without building `Headers`."""
    for name, value in raw_headers:
        if len(name) == 15 and name.lower() == b"accept-encoding":
            known = _ACCEPTS.get(value)
            if known is None:
                known = accepts_gzip_value(value.decode("latin-1"))
                if len(_ACCEPTS) < 256:
                    _ACCEPTS[value] = known
            return known
    return False


class GzipMiddleware:
    def __init__(self, app: ASGIApp, minimum_size: int = 1024, level: int = 6) -> None:
        self.app = app
        self.minimum_size = minimum_size
        self.level = level

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or not client_accepts_gzip(scope["headers"]):
            await self.app(scope, receive, send)
            return
        await self.app(scope, receive, GzipSender(send, self.minimum_size, self.level))


class GzipSender:
    """Wraps one response's `send`: passes non-2xx, 204 and already encoded responses
    through, gzips a complete body of `minimum_size` bytes or more, and gzips a streamed
    body chunk by chunk."""

    __slots__ = ("send", "minimum_size", "level", "start", "passthrough", "streaming", "buffer", "gzip")

    def __init__(self, send: Send, minimum_size: int, level: int) -> None:
        self.send = send
        self.minimum_size = minimum_size
        self.level = level
        self.start: Message | None = None
        self.passthrough = False
        self.streaming = False
        self.buffer = io.BytesIO()
        self.gzip: gzip.GzipFile | None = None

    def _drain(self) -> bytes:
        data = self.buffer.getvalue()
        self.buffer.seek(0)
        self.buffer.truncate()
        return data

    async def __call__(self, message: Message) -> None:
        kind = message["type"]
        if kind == "http.response.start":
            headers = Headers(raw=message["headers"])
            status = message["status"]
            self.passthrough = (
                not 200 <= status < 300 or status == 204 or "content-encoding" in headers
            )
            if self.passthrough:
                await self.send(message)
            else:
                self.start = message
            return
        if kind != "http.response.body" or self.passthrough:
            await self.send(message)
            return
        assert self.start is not None
        body: bytes = message.get("body", b"")
        more = message.get("more_body", False)
        if not self.streaming and not more:
            headers = MutableHeaders(raw=self.start["headers"])
            if len(body) < self.minimum_size:
                await self.send(self.start)
                await self.send(message)
                return
            compressed = gzip.compress(body, compresslevel=self.level, mtime=0)
            headers["Content-Encoding"] = "gzip"
            headers["Content-Length"] = str(len(compressed))
            headers.add_vary_header("Accept-Encoding")
            await self.send(self.start)
            await self.send({"type": "http.response.body", "body": compressed})
            return
        if not self.streaming:
            self.streaming = True
            headers = MutableHeaders(raw=self.start["headers"])
            headers["Content-Encoding"] = "gzip"
            headers.add_vary_header("Accept-Encoding")
            if "content-length" in headers:
                del headers["Content-Length"]
            await self.send(self.start)
            self.gzip = gzip.GzipFile(mode="wb", fileobj=self.buffer, compresslevel=self.level, mtime=0)
        assert self.gzip is not None
        self.gzip.write(body)
        if not more:
            self.gzip.close()
        else:
            self.gzip.flush()
        await self.send({"type": "http.response.body", "body": self._drain(), "more_body": more})
