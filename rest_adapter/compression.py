"""Gzip for large successful responses, when the client accepts it.

HugeGraph gzips its big list responses (vertices, edges, `/gremlin`); the spec says a client
must be ready to decompress them. Starlette's `GZipMiddleware` is not used, for two answers
it would get wrong: it also compresses error bodies, which HugeGraph never does (clients
read error JSON without decoding), and it reads any `Accept-Encoding` that mentions gzip as
acceptance, `gzip;q=0` (a refusal) included (`tests/rest/test_gzip.py`). `GzipMiddleware`
compresses only 2xx responses of at least `minimum_size` bytes that are not already
encoded, for clients that accept gzip, and streams when the application streams;
`GzipSender` is its `send` for one response.

What the app uses (`GZIP_MINIMUM_SIZE`, `GZIP_LEVEL`), chosen on these figures (CPU per
answer of k-out id lists, `{"vertices":[...],"measure":{...}}`, medians of interleaved runs
in one process, load ~4 on the 2-core host, 2026-11-22):

=========  =====  ===========  ============  ============  ====================
body       ids    JSON encode  gzip level 6  gzip level 1  gzipped, level 6 / 1
=========  =====  ===========  ============  ============  ====================
178 B      15     0.9 µs       11.5 µs       8.2 µs        151 / 151 B
855 B      130    3.7 µs       22.8 µs       19.5 µs       497 / 495 B
1,564 B    250    5.3 µs       37.5 µs       32.4 µs       853 / 863 B
3,040 B    500    11.4 µs      63.1 µs       51.9 µs       1,599 / 1,633 B
5,989 B    1000   12.4 µs      108 µs        72.0 µs       3,083 / 3,147 B
11,867 B   2000   30.8 µs      311 µs        151 µs        6,039 / 6,192 B
23,661 B   4000   77.6 µs      1.09 ms       346 µs        11,799 / 12,179 B
94,310 B   16000  196 µs       7.58 ms       1.22 ms       45,000 / 47,937 B
376,918 B  64000  1.00 ms      35.4 ms       6.47 ms       176,115 / 190,908 B
=========  =====  ===========  ============  ============  ====================

* Gzip costs 6-10x the JSON it compresses (~12-17 µs per KiB of ids at level 1), and a
  zlib stream costs ~8-10 µs before its first byte (its window and hash tables). Level 6
  saves 1-8% more bytes than level 1 for 1.5-5x the CPU, so the level is 1.
* What it buys is bytes on the wire, which on loopback cost the server ~nothing. Over a
  network, a body that fits in TCP's first congestion window (10 segments, ~14 KiB) goes
  out in one flight whether compressed or not: gzip saves no round trip there, only
  ~half the bytes of one flight. From there on each halving can save whole round trips.
  So answers of at least 16 KiB are gzipped (HugeGraph's big lists, `/gremlin` results)
  and smaller ones are not. The threshold was 1 KiB: light traverser listings of 1-4 KiB
  (k-out / k-neighbor depth 2 at `large`) paid 30-60 µs of server CPU each for it.
"""

from __future__ import annotations

import gzip
import io
from typing import Any

from starlette.datastructures import MutableHeaders
from starlette.types import ASGIApp, Message, Receive, Scope, Send

#: the smallest 2xx body the app gzips, and the zlib level (see the module doc for the figures)
GZIP_MINIMUM_SIZE = 16 * 1024
GZIP_LEVEL = 1

#: a scope key a handler sets when its answer is gzipped at any size: HugeGraph compresses its
#: vertex and edge lists (`@Compress`) whatever their length, and clients that look at the
#: encoding of those lists see the same here (`compress_any_size`)
COMPRESS_ANY_SIZE = "hugelite.compress_any_size"


def compress_any_size(scope: Scope) -> None:
    """Marks the request's answer as gzipped for a client that accepts gzip, whatever its size."""
    scope[COMPRESS_ANY_SIZE] = True


def accepts_gzip_value(value: str) -> bool:
    """Whether an `Accept-Encoding` value accepts gzip (`gzip` or `*`, not with `q=0`)."""
    for part in value.split(","):
        coding, _, params = part.strip().partition(";")
        if coding.strip().lower() in ("gzip", "*"):
            q = params.strip()
            return not (q.startswith("q=") and float(q[2:] or 0) == 0)
    return False


_ACCEPTS: dict[bytes, bool] = {}  # Accept-Encoding value -> accepts gzip (clients send few)


def client_accepts_gzip(raw_headers: Any) -> bool:
    """`accepts_gzip_value` of an ASGI scope's raw `Accept-Encoding` header (remembered per value)."""
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
    def __init__(self, app: ASGIApp, minimum_size: int = GZIP_MINIMUM_SIZE, level: int = GZIP_LEVEL) -> None:
        self.app = app
        self.minimum_size = minimum_size
        self.level = level

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or not client_accepts_gzip(scope["headers"]):
            await self.app(scope, receive, send)
            return
        await self.app(scope, receive, GzipSender(send, self.minimum_size, self.level, scope))


class GzipSender:
    """Wraps one response's `send`: passes non-2xx, 204 and already encoded responses
    through, gzips a complete body of `minimum_size` bytes or more, and gzips a streamed
    body chunk by chunk."""

    __slots__ = ("send", "minimum_size", "level", "start", "passthrough", "streaming", "buffer", "gzip", "scope")

    def __init__(self, send: Send, minimum_size: int, level: int, scope: Scope | None = None) -> None:
        self.send = send
        self.scope = scope
        self.minimum_size = minimum_size
        self.level = level
        self.start: Message | None = None
        self.passthrough = False
        self.streaming = False
        self.buffer = io.BytesIO()
        self.gzip: gzip.GzipFile | None = None

    def _small_or_encoded(self, start: Message) -> bool:
        """Whether a response start declares a body under `minimum_size` or an encoding (then
        it passes untouched, without buffering the start: most answers are small)."""
        for name, value in start["headers"]:
            lower = name.lower()
            if lower == b"content-length" and int(value) < self.minimum_size:
                return True
            if lower == b"content-encoding":
                return True
        return False

    def _drain(self) -> bytes:
        data = self.buffer.getvalue()
        self.buffer.seek(0)
        self.buffer.truncate()
        return data

    async def __call__(self, message: Message) -> None:
        kind = message["type"]
        if kind == "http.response.start":
            if self.scope is not None and self.scope.get(COMPRESS_ANY_SIZE):  # set by the handler, which ran
                self.minimum_size = 0
            status = message["status"]
            self.passthrough = not 200 <= status < 300 or status == 204 or self._small_or_encoded(message)
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
