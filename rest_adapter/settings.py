r"""Server settings, read from a HugeGraph-style configuration folder.

```
conf/rest-server.properties     restserver.url, graphs, gremlinserver.*, batch.*, auth.*
conf/graphs/<name>.properties   one file per graph: backend, store, schema.mode, ...
```

Both use Java `.properties` syntax, read by the `javaproperties` library exactly as Java's
`Properties.load` reads it (so a file written by `Properties.store`, with `\:` escapes,
works). Relative paths (`graphs`, `store`, `gremlin.import_dir`) resolve against the working directory, as in HugeGraph, so
`make run` from the checkout finds `conf/graphs` and `data/`.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import urlparse

import javaproperties

from gremlin_engine import GraphConfig, IllegalArgument
from rest_adapter.auth import (
    CONFIG,
    STANDARD,
    AuthConfigError,
    auth_mode,
    credential_table,
    graph_store,
    token_expire_s,
)

GRAPH_NAME_RE = re.compile(r"^[A-Za-z][A-Za-z0-9_]{0,47}$")


class SettingsError(Exception):
    """A configuration the server cannot start with; the message names the file and key."""


def parse_properties(text: str) -> dict[str, str]:
    """Parses `.properties` text into an ordered dict (later keys win), as Java's `Properties.load`
    does (escapes such as `http\\://host\\:8081`, `\\uXXXX`, continuation lines, `#`/`!`
    comments), by the `javaproperties` library. Values are stripped of trailing blanks, as
    HugeGraph's configuration reader trims them."""
    return {key: value.strip() for key, value in javaproperties.loads(text).items()}


def graph_config_from_text(name: str, text: str) -> GraphConfig:
    """A graph config from `.properties` text (a graph file, or a POST /graphs/{name} body)."""
    return GraphConfig.from_properties(name, parse_properties(text), text=text)


def check_graph_name(name: str) -> str:
    if not GRAPH_NAME_RE.match(name):
        raise IllegalArgument(
            f"Invalid graph name '{name}': it must start with a letter and contain only "
            "letters, digits and '_' (at most 48 characters)"
        )
    return name


@dataclass
class Settings:
    """Everything the server reads from its configuration folder."""

    conf_dir: Path | None = None
    #: origins a browser page may call from (`serve --cors ORIGIN`); empty: no CORS headers
    cors_origins: list[str] = field(default_factory=list)
    host: str = "127.0.0.1"
    port: int = 8080
    graphs_dir: Path | None = None
    graphs: list[GraphConfig] = field(default_factory=list)
    evaluation_timeout_ms: int = 30000
    #: the time limit of an async Gremlin job (`POST /jobs/gremlin`); 0: none
    job_timeout_ms: int = 600000
    gremlin_port: int = 0
    import_dir: Path | None = None
    export_dir: Path | None = None
    max_vertices_per_batch: int = 500
    max_edges_per_batch: int = 500
    # connection and request bounds (issue 16 items 4 and 6; README "Configuration")
    connection_idle_timeout_s: int = 30
    max_connections: int = 1000
    max_request_body_bytes: int = 16 * 1024 * 1024
    request_body_timeout_s: float = 30.0
    http_parser: str = "httptools"
    max_header_bytes: int = 16 * 1024
    request_header_timeout_s: float = 20.0
    rest_worker_threads: int = 40
    ws_worker_threads: int = 64
    #: server processes over the same stores (`restserver.workers`, `serve --workers N`)
    workers: int = 1
    ws_idle_timeout_s: float = 3600.0
    ws_ping_interval_s: float = 0.0
    ws_ping_timeout_s: float = 20.0
    session_writer_idle_timeout_s: float = 30.0
    # every rest-server property as written, for parts that read their own keys (auth.*)
    raw: dict[str, str] = field(default_factory=dict)

    @classmethod
    def load(cls, conf_dir: str | Path = "conf") -> Settings:
        conf = Path(conf_dir)
        server_file = conf / "rest-server.properties"
        if not server_file.is_file():
            raise SettingsError(f"{server_file} does not exist (pass --conf DIR pointing at a conf folder)")
        raw = parse_properties(server_file.read_text(encoding="utf-8"))
        s = cls(conf_dir=conf.resolve(), raw=raw)
        url = raw.get("restserver.url", "http://127.0.0.1:8080")
        parsed = urlparse(url if "://" in url else f"http://{url}")
        s.host = parsed.hostname or "127.0.0.1"
        s.port = parsed.port or 8080
        s.evaluation_timeout_ms = _int(raw, "gremlinserver.evaluation_timeout_ms", 30000, server_file)
        s.job_timeout_ms = _int(raw, "gremlinserver.job_timeout_ms", 600000, server_file)
        s.gremlin_port = _int(raw, "gremlinserver.port", 0, server_file)
        s.max_vertices_per_batch = _int(raw, "batch.max_vertices_per_batch", 500, server_file)
        s.max_edges_per_batch = _int(raw, "batch.max_edges_per_batch", 500, server_file)
        s._load_bounds(raw, server_file)
        if raw.get("gremlin.import_dir"):
            s.import_dir = Path(raw["gremlin.import_dir"]).expanduser().resolve()
        if raw.get("gremlin.export_dir"):
            s.export_dir = Path(raw["gremlin.export_dir"]).expanduser().resolve()
        try:  # the auth.* keys (rest_adapter/auth.py); the graph store is checked once graphs are open
            if auth_mode(raw) == CONFIG:
                credential_table(raw)
            token_expire_s(raw)
        except AuthConfigError as e:
            raise SettingsError(f"{server_file}: {e}") from None
        graphs = raw.get("graphs")
        s.graphs_dir = Path(graphs).expanduser().resolve() if graphs else (conf / "graphs").resolve()
        if not s.graphs_dir.is_dir():
            raise SettingsError(f"{server_file}: graphs folder {s.graphs_dir} does not exist")
        for f in sorted(s.graphs_dir.glob("*.properties")):
            name = f.stem
            try:
                check_graph_name(name)
                s.graphs.append(graph_config_from_text(name, f.read_text(encoding="utf-8")))
            except IllegalArgument as e:
                raise SettingsError(f"{f}: {e}") from e
        if auth_mode(raw) == STANDARD and graph_store(raw) not in {g.name for g in s.graphs}:
            raise SettingsError(f"{server_file}: auth.graph_store names the graph '{graph_store(raw)}', which "
                                f"{s.graphs_dir} lacks: declare it, or name one of its graphs")
        return s

    def _load_bounds(self, raw: dict[str, str], where: Path) -> None:
        """The connection and request bounds; every one must be positive (a bound of 0 for a
        timeout that allows 0, as the pings, turns it off)."""
        self.connection_idle_timeout_s = _int(raw, "restserver.connection_idle_timeout", 30, where, 1)
        self.max_connections = _int(raw, "restserver.max_connections", 1000, where, 1)
        self.max_request_body_bytes = _int(raw, "restserver.max_request_body_size", 16 * 1024 * 1024, where, 1)
        self.request_body_timeout_s = _float(raw, "restserver.request_body_timeout", 30.0, where, 0.001)
        self.http_parser = raw.get("restserver.http_parser") or "httptools"
        if self.http_parser not in ("httptools", "h11"):
            raise SettingsError(f"{where}: restserver.http_parser must be httptools or h11, "
                                f"but got '{self.http_parser}'")
        self.max_header_bytes = _int(raw, "restserver.max_header_size", 16 * 1024, where, 1)
        self.request_header_timeout_s = _float(raw, "restserver.request_header_timeout", 20.0, where, 0.001)
        self.rest_worker_threads = _int(raw, "restserver.max_worker_threads", 40, where, 1)
        self.ws_worker_threads = _int(raw, "gremlinserver.max_worker_threads", 64, where, 1)
        self.workers = _int(raw, "restserver.workers", 1, where, 1)
        self.ws_idle_timeout_s = _float(raw, "gremlinserver.idle_connection_timeout", 3600.0, where, 0.001)
        self.ws_ping_interval_s = _float(raw, "gremlinserver.ws_ping_interval", 0.0, where, 0.0)
        self.ws_ping_timeout_s = _float(raw, "gremlinserver.ws_ping_timeout", 20.0, where, 0.001)
        self.session_writer_idle_timeout_s = _float(raw, "gremlinserver.session_writer_idle_timeout", 30.0,
                                                    where, 0.001)

    def graph_file(self, name: str) -> Path | None:
        return None if self.graphs_dir is None else self.graphs_dir / f"{name}.properties"


def _int(raw: dict[str, str], key: str, default: int, where: Path, minimum: int | None = None) -> int:
    return _number(raw, key, default, where, int, "an integer", minimum, "at least {minimum}")


def _float(raw: dict[str, str], key: str, default: float, where: Path, minimum: float) -> float:
    return _number(raw, key, default, where, float, "a number of seconds", minimum,
                   "a number of seconds of at least {minimum:g}")


def _number(raw: dict[str, str], key: str, default: Any, where: Path, parse: Any, kind: str,
            minimum: float | None, bound: str) -> Any:
    """`key` read by `parse` (`default` when unset), at least `minimum` and finite; a bad value
    is a `SettingsError` naming the file, the key and what it must be."""
    value = raw.get(key)
    if value in (None, ""):
        return default
    try:
        number = parse(value)
    except ValueError:
        raise SettingsError(f"{where}: {key} must be {kind}, but got '{value}'") from None
    if minimum is not None and (not number >= minimum or number == float("inf")):
        raise SettingsError(f"{where}: {key} must be {bound.format(minimum=minimum)}, but got '{value}'")
    return number
