"""HugeGraph query steps: the index requirement and paging with a cursor.

* `hgRequireIndex(kind, label, conditions)` passes its stream through unchanged, but first
  refuses (HugeGraph's NoIndex error) a property query no index can answer. It checks
  before pulling anything, so `g.V().hasLabel(l).has(k, p).hgRequireIndex(...)` fails
  without scanning.
* `hgPage(token, limit)` is a reducing step: it skips what earlier pages returned, takes
  `limit` elements and emits ONE map `{"items": [...], "page": next token | None}`.

Page tokens are opaque to clients (they only echo them, ids-and-formats.md §7): URL-safe
base64 of `{"k": <storage key of the last element returned>, "n": <elements returned so
far>}`. Scans and index lookups stream in storage-key order, so "after key k" resumes
exactly; for a stream that is not in key order (an id lookup) the count is used.

These steps read schema through `ctx.access.schema` (the runtime's schema bridge), so they
run on the runtime's `StoreAccess`, not on a bare `GraphAccess`.
"""

from __future__ import annotations

import base64
from collections.abc import Iterator, Sequence
from typing import Any

import orjson

from gremlin_engine.errors import HugeliteError, IllegalArgument
from gremlin_engine.traversal.steps.base import Step
from gremlin_engine.traversal.steps.hugegraph.conditions import require_index
from gremlin_engine.traversal.traverser import Context, Traverser, checked


class InvalidPage(HugeliteError):
    """A page token this server did not issue (HugeGraph: BackendException, 400)."""

    java_exception = "org.apache.hugegraph.backend.BackendException"


def encode_page(key: int | None, count: int) -> str:
    raw = orjson.dumps({"k": key, "n": count})
    return base64.urlsafe_b64encode(raw).decode().rstrip("=")


def decode_page(token: str) -> tuple[int | None, int]:
    """(last key, count) of a token; '' is the first page."""
    if not token:
        return None, 0
    text = token.strip().replace(" ", "+")
    try:
        pad = "=" * (-len(text) % 4)
        data = orjson.loads(base64.urlsafe_b64decode(text.replace("+", "-").replace("/", "_") + pad))
        key, count = data["k"], data["n"]
        if (key is not None and not isinstance(key, int)) or not isinstance(count, int) or count < 0:
            raise ValueError(token)
        return key, count
    except (ValueError, KeyError, TypeError, orjson.JSONDecodeError):
        raise InvalidPage(f"Invalid page: '{token}'") from None


class RequireIndexStep(Step):
    """`hgRequireIndex(kind, label | None, [[key, P], ...])`."""

    name = "hgRequireIndex"

    def __init__(self, kind: str, label: str | None = None, conditions: Sequence[Any] = ()) -> None:
        super().__init__(kind, label, conditions)
        if kind not in ("vertex", "edge"):
            raise IllegalArgument(f"hgRequireIndex(): kind must be 'vertex' or 'edge', not {kind!r}")
        self.kind = kind
        self.label = label
        self.conditions = [(str(c[0]), c[1]) for c in conditions]

    def process(self, it: Iterator[Traverser], ctx: Context) -> Iterator[Traverser]:
        require_index(ctx.access.schema, self.kind, self.label, self.conditions)  # type: ignore[attr-defined]
        yield from checked(it, ctx)


class PageStep(Step):
    """`hgPage(token, limit)`: one page of the incoming elements and the next cursor."""

    name = "hgPage"

    def __init__(self, token: str | None, limit: int) -> None:
        super().__init__(token, limit)
        if int(limit) <= 0:
            raise IllegalArgument("Can't set limit=0 when using paging" if int(limit) == 0 else f"Invalid limit {limit}")
        self.after, self.skip = decode_page(token or "")
        self.limit = int(limit)

    def _elements(self, it: Iterator[Traverser], ctx: Context) -> Iterator[Any]:
        for t in checked(it, ctx):
            for _ in range(t.bulk):
                yield t.obj

    def process(self, it: Iterator[Traverser], ctx: Context) -> Iterator[Traverser]:
        items: list[Any] = []
        seen = 0  # elements passed over, for the count-based resume
        last_key: int | None = None
        ordered = True  # keys strictly increasing so far
        more = False
        for obj in self._elements(it, ctx):
            key = getattr(obj, "key", None)
            if isinstance(key, int):
                if last_key is not None and key <= last_key:
                    ordered = False
                last_key = key
            else:
                ordered = False
            if self.after is not None and ordered:
                if key <= self.after:  # type: ignore[operator]
                    seen += 1
                    continue
            elif seen < self.skip:
                seen += 1
                continue
            if len(items) == self.limit:
                more = True
                break
            items.append(obj)
            seen += 1
        token = None
        if more:
            tail = getattr(items[-1], "key", None) if items else None
            token = encode_page(tail if ordered and isinstance(tail, int) else None, seen)
        yield ctx.new_traverser({"items": items, "page": token})
