"""uvicorn's httptools protocol, writing each small response with one socket write.

uvicorn writes a response's status line and headers as soon as the application sends
`http.response.start`, and the body with a second `transport.write` when it arrives. On
loopback each write is a system call that runs the whole TCP send path and wakes the
client, and a GET by id answers ~200 bytes: the second write cost the server about as much
CPU as building the response did (and the client wakes up twice).

`CoalescingHttpToolsProtocol` holds the header block of a response that declares its
`content-length` (a complete, non-streaming body follows at once) and writes it together
with the first body chunk. Streaming responses (no content-length) and everything else are
untouched: uvicorn still builds, checks and frames every byte; only the moment of the write
changes. uvicorn's `RequestResponseCycle` writes through its `transport` attribute, so the
hold is done by standing in for that attribute during the two `send` calls.

`_start_asgi_task` is uvicorn's (private) single entry point for starting a request's
cycle, pipelined or not. Should a later uvicorn rename it, the override is simply never
called and responses go out in two writes, as before: slower, never wrong.
"""

from __future__ import annotations

from typing import Any

from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol, RequestResponseCycle


class _HeldHead:
    """Stands in for the cycle's transport: keeps the header block uvicorn writes and
    puts it in front of the next write (or writes it alone before a close)."""

    __slots__ = ("transport", "held")

    def __init__(self, transport: Any) -> None:
        self.transport = transport
        self.held = b""

    def write(self, data: bytes) -> None:
        self.held += data

    def flush_with(self, data: bytes) -> None:
        held, self.held = self.held, b""
        self.transport.write(held + data if held else data)

    def flush(self) -> None:
        if self.held:
            self.flush_with(b"")

    def close(self) -> None:
        self.flush()
        self.transport.close()

    def is_closing(self) -> bool:
        return self.transport.is_closing()


class _BodyWriter:
    """The transport seen while uvicorn writes a body chunk: the held head goes first."""

    __slots__ = ("head",)

    def __init__(self, head: _HeldHead) -> None:
        self.head = head

    def write(self, data: bytes) -> None:
        self.head.flush_with(data)

    def close(self) -> None:
        self.head.close()

    def is_closing(self) -> bool:
        return self.head.transport.is_closing()


def _has_content_length(headers: Any) -> bool:
    for name, _value in headers:
        if len(name) == 14 and name.lower() == b"content-length":
            return True
    return False


def coalesce_writes(cycle: RequestResponseCycle) -> None:
    """Makes `cycle` write a content-length response's head and body in one write."""
    send = cycle.send

    async def coalescing_send(message: Any) -> None:
        writer = cycle.transport
        if message["type"] == "http.response.start":
            if cycle.response_started or not _has_content_length(message.get("headers", ())):
                await send(message)
                return
            real = cycle.transport
            holder = _HeldHead(real)
            cycle.transport = holder  # type: ignore[assignment]
            try:
                await send(message)
            finally:
                cycle.transport = _BodyWriter(holder) if holder.held else real  # type: ignore[assignment]
            return
        if not isinstance(writer, _BodyWriter):
            await send(message)
            return
        head = writer.head
        try:
            await send(message)
        finally:
            head.flush()  # HEAD, an ignored message, or an error: the head still goes out
            cycle.transport = head.transport

    cycle.send = coalescing_send  # type: ignore[method-assign]


class CoalescingHttpToolsProtocol(HttpToolsProtocol):
    """uvicorn's httptools protocol with one write per complete small response."""

    def _start_asgi_task(self, cycle: RequestResponseCycle, app: Any) -> None:
        coalesce_writes(cycle)
        super()._start_asgi_task(cycle, app)
