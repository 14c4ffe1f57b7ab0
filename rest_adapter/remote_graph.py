"""A graph on a running server, as a load or a backup/restore sees it (over REST, httpx).

The calls are hugegraph-loader's and hugegraph-tools' (`../shared/reference/hugegraph/
tools.md`): `POST /graphs/{g}/graph/vertices/batch` and `.../edges/batch` (500 elements a
request), `PUT .../batch` with update strategies, the schema script through `/gremlin`,
`GET/PUT /graphs/{g}/mode`, `DELETE /graphs/{g}/clear`, `GET /graphs/{g}/schema`.

A 4xx answer is the graph refusing what was sent: it becomes an `IllegalArgument` carrying
the server's message, which the load treats like an in-process refusal (the batch is halved
and the refused rows go to the insert-error file). Anything else (the server unreachable,
a 5xx) raises `RemoteError` and stops the load.
"""

from __future__ import annotations

import datetime as dt
import logging
import time
import uuid
from collections.abc import Iterator, Sequence
from typing import Any

import httpx
import orjson

from gremlin_engine.errors import IllegalArgument

log = logging.getLogger("hugelite.load")

CONFIRM_CLEAR = "I'm sure to delete all data"


class RemoteError(Exception):
    """The server could not be reached or failed (not a refusal of the data)."""


def _default(value: Any) -> Any:
    if isinstance(value, dt.datetime):  # epoch millis: no time zone to agree on with the server
        return round(value.timestamp() * 1000)
    if isinstance(value, uuid.UUID):
        return str(value)
    if isinstance(value, (set, frozenset, tuple)):
        return list(value)
    raise TypeError(f"cannot send {type(value).__name__} as JSON")


class RemoteGraph:
    """A `GraphSink` (and the backup/restore source and target) over REST."""

    def __init__(self, url: str, graph: str, user: str | None = None, password: str | None = None,
                 timeout_s: float = 120.0, check_vertex: bool = True) -> None:
        self.name = graph
        self.auto = False
        self.check_vertex = check_vertex
        auth = (user, password or "") if user else None
        self.http = httpx.Client(base_url=url.rstrip("/"), auth=auth, timeout=timeout_s)
        self.base = f"/graphs/{graph}"

    def close(self) -> None:
        self.http.close()

    def __enter__(self) -> RemoteGraph:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def call(self, method: str, path: str, body: Any = None, params: dict[str, Any] | None = None) -> Any:
        content = None if body is None else orjson.dumps(body, default=_default, option=orjson.OPT_PASSTHROUGH_DATETIME)
        headers = {"Content-Type": "application/json"} if content is not None else None
        try:
            r = self.http.request(method, path, content=content, params=params, headers=headers)
        except httpx.HTTPError as e:
            raise RemoteError(f"{method} {self.http.base_url}{path}: {e}") from None
        if r.status_code >= 500 or r.status_code in (401, 403):
            raise RemoteError(f"{method} {path}: HTTP {r.status_code}: {r.text[:500]}")
        if r.status_code >= 400:
            try:
                message = orjson.loads(r.content).get("message") or r.text
            except (orjson.JSONDecodeError, AttributeError):
                message = r.text
            raise IllegalArgument(f"HTTP {r.status_code}: {message}")
        return orjson.loads(r.content) if r.content else None

    # ---- GraphSink -----------------------------------------------------------------------
    def schema_json(self) -> dict[str, Any]:
        return dict(self.call("GET", f"{self.base}/schema"))

    def run_schema(self, script: str) -> None:
        self.gremlin("schema = graph.schema()\n" + script)
        self.wait_for_tasks()

    def wait_for_tasks(self, timeout_s: float = 600.0) -> None:
        """Polls `GET /graphs/{g}/tasks` until no task is pending (index label rebuilds)."""
        deadline = time.monotonic() + timeout_s
        while time.monotonic() < deadline:
            tasks = self.call("GET", f"{self.base}/tasks", params={"limit": -1}).get("tasks", [])
            if all(t.get("task_status") in ("success", "failed", "cancelled") for t in tasks):
                return
            time.sleep(0.05)
        raise RemoteError(f"the server's tasks of graph '{self.name}' did not end within {timeout_s:g} s")

    def gremlin(self, script: str) -> Any:
        body = {"gremlin": script, "bindings": {}, "language": "gremlin-groovy",
                "aliases": {"graph": self.name, "g": f"__g_{self.name}"}}
        return self.call("POST", "/gremlin", body)

    def mode(self) -> str:
        return str(self.call("GET", f"{self.base}/mode")["mode"])

    def set_mode(self, mode: str) -> None:
        self.call("PUT", f"{self.base}/mode", mode)

    def hold_mode(self, mode: str, job: str) -> str:
        """Over REST the server keeps no hold record: a client killed half-way leaves the
        mode set (`hugelite load --url` says so at its next start; PUT .../mode repairs it)."""
        previous = self.mode()
        if previous == mode:
            log.warning("graph '%s' is already in %s mode (a %s killed half-way?); it is set to NONE "
                        "at the end", self.name, mode, job)
        self._previous_mode = previous if previous != mode else "NONE"
        self.set_mode(mode)
        return self._previous_mode

    def release_mode(self, mode: str | None = None) -> None:
        self.set_mode(mode or getattr(self, "_previous_mode", "NONE"))

    def clear(self) -> None:
        self.call("DELETE", f"{self.base}/clear", params={"confirm_message": CONFIRM_CLEAR})

    def write(self, kind: str, items: Sequence[dict[str, Any]], strategies: dict[str, str] | None = None) -> int:
        plural = "vertices" if kind == "vertex" else "edges"
        path = f"{self.base}/graph/{plural}/batch"
        if strategies:
            self.call("PUT", path, {plural: list(items), "update_strategies": strategies, "create_if_not_exist": True})
        elif kind == "edge":
            self.call("POST", path, list(items), params={"check_vertex": str(self.check_vertex).lower()})
        else:
            self.call("POST", path, list(items))
        return len(items)

    # ---- restore and backup ----------------------------------------------------------------
    def create_schema(self, kind: str, body: dict[str, Any]) -> None:
        self.call("POST", f"{self.base}/schema/{kind}s", body)

    def has_data(self) -> bool:
        return any(self.call("GET", f"{self.base}/graph/{p}", params={"limit": 1})[p] for p in ("vertices", "edges"))

    def elements(self) -> Iterator[dict[str, Any]]:
        """Every vertex, then every edge, page by page (as hugegraph-tools reads; not one
        snapshot: a graph written meanwhile may be caught half-way)."""
        for plural in ("vertices", "edges"):
            page: str | None = ""
            while page is not None:
                answer = self.call("GET", f"{self.base}/graph/{plural}", params={"page": page, "limit": 500})
                for element in answer[plural]:
                    element.pop("type", None)
                    yield element
                page = answer.get("page")
