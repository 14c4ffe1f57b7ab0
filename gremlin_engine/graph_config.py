"""Graph configurations, and the checks a store meets before a graph opens on it.

`GraphConfig` is one `conf/graphs/<name>.properties`; the functions below open a store for
a configuration and hold it to the schema mode it was initialised with. The facade
(`gremlin_engine.graph`) builds graphs and the registry on them.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from types import ModuleType
from typing import Any

import storage
from gremlin_engine.errors import IllegalArgument, StoreNotReady

#: graph modes (HugeGraph `GraphMode`); see spec "States and transitions"
GRAPH_MODES = ("NONE", "RESTORING", "MERGING", "LOADING")
#: graph read modes (HugeGraph `GraphReadMode`); HugeGraph starts every graph in OLTP_ONLY
READ_MODES = ("ALL", "OLTP_ONLY", "OLAP_ONLY")
BACKENDS = ("sqlite", "memory")
SCHEMA_MODES = ("strict", "auto")

INIT_HINT = "hugelite init-store --conf DIR"


@dataclass
class GraphConfig:
    """One graph's configuration, as read from `conf/graphs/<name>.properties`.

    `store` is the SQLite file (None for memory); a relative path is resolved against the
    working directory when the store is opened, as HugeGraph resolves its data paths.
    `extra` keeps every other property, and `text` the original file text for `/conf`.
    """

    name: str
    backend: str = "sqlite"
    store: str | None = None
    schema_mode: str = "strict"
    extra: dict[str, str] = field(default_factory=dict)
    text: str = ""

    def __post_init__(self) -> None:
        if self.backend not in BACKENDS:
            raise IllegalArgument(
                f"Graph '{self.name}': backend must be one of {list(BACKENDS)}, but got '{self.backend}'"
            )
        if self.schema_mode not in SCHEMA_MODES:
            raise IllegalArgument(
                f"Graph '{self.name}': schema.mode must be one of {list(SCHEMA_MODES)}, "
                f"but got '{self.schema_mode}'"
            )
        if self.backend == "memory":
            self.store = None
        elif not self.store:
            self.store = self.store_in_data_folder(self.name)

    @staticmethod
    def store_in_data_folder(store_name: str) -> str:
        """The store file of a store named `store_name` in the server's data folder (`data/`
        under the working directory): where a graph's store is by default, and the only
        place a graph created over REST may keep one."""
        return f"data/{store_name}.db"

    @classmethod
    def from_properties(cls, name: str, props: Mapping[str, str], text: str = "") -> GraphConfig:
        """Builds a config from parsed `.properties` pairs (keys `backend`, `store`,
        `schema.mode`; everything else lands in `extra`)."""
        known = {"backend", "store", "schema.mode"}
        backend = (props.get("backend") or "sqlite").strip().lower()
        cfg = cls(
            name=name,
            backend=backend,
            store=(props.get("store") or "").strip() or None,
            schema_mode=(props.get("schema.mode") or "strict").strip().lower(),
            extra={k: v for k, v in props.items() if k not in known},
            text=text,
        )
        if not cfg.text:
            cfg.text = cfg.properties_text()
        return cfg

    @property
    def store_path(self) -> Path | None:
        """The absolute store file, or None for memory."""
        if self.store is None:
            return None
        return Path(self.store).expanduser().resolve()

    def properties(self) -> dict[str, str]:
        props = {"backend": self.backend}
        if self.store is not None:
            props["store"] = self.store
        props["schema.mode"] = self.schema_mode
        props.update(self.extra)
        return props

    def properties_text(self) -> str:
        lines = [f"# graph '{self.name}'"]
        lines += [f"{k}={v}" for k, v in self.properties().items()]
        return "\n".join(lines) + "\n"


def store_api() -> ModuleType:
    """The `storage` package (its public face: `open_store`, `remove_store_files`, ...)."""
    return storage


def open_raw_store(cfg: GraphConfig) -> Any:
    path = cfg.store_path
    if path is not None:
        path.parent.mkdir(parents=True, exist_ok=True)
    return store_api().open_store(str(path) if path is not None else None)


SCHEMA_MODE_KEY = "schema_mode"
#: the store metadata key holding the graph mode (NONE, LOADING, RESTORING, MERGING)
MODE_KEY = "graph.mode"


def recorded_schema_mode(store: Any) -> str | None:
    """The schema mode the store was initialised with (None for a store older than the record)."""
    with store.read() as tx:
        value = tx.schema.meta_get(SCHEMA_MODE_KEY)
    return None if value is None else str(value)


def hold_schema_mode(cfg: GraphConfig, store: Any) -> None:
    """A store keeps the schema mode it was initialised with: strict and auto stores differ in
    their ids and labels (an auto writer puts automatic ids under a PRIMARY_KEY label, and later
    duplicates), so opening one with the other mode is refused, naming both. A store from before
    the record adopts the mode it is first opened with."""
    found = recorded_schema_mode(store)
    if found is None:
        with store.write() as tx:
            tx.schema.meta_set(SCHEMA_MODE_KEY, cfg.schema_mode)
    elif found != cfg.schema_mode:
        raise StoreNotReady(
            f"Graph '{cfg.name}': the store {cfg.store} was initialised with schema.mode={found}, "
            f"but it is opened with schema.mode={cfg.schema_mode}; set schema.mode={found} "
            f"in the graph's configuration (embedded: schema_mode='{found}', or leave it out)"
        )


def not_ready(cfg: GraphConfig, why: str) -> StoreNotReady:
    return StoreNotReady(f"Graph '{cfg.name}': {why}; run `{INIT_HINT}` before starting the server")
