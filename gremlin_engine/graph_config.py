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
from gremlin_engine import postgres_config as pg
from gremlin_engine.errors import IllegalArgument, StoreNotReady

#: graph modes (HugeGraph `GraphMode`); see spec "States and transitions"
GRAPH_MODES = ("NONE", "RESTORING", "MERGING", "LOADING")
#: graph read modes (HugeGraph `GraphReadMode`); HugeGraph starts every graph in OLTP_ONLY
READ_MODES = ("ALL", "OLTP_ONLY", "OLAP_ONLY")
BACKENDS = ("sqlite", "memory", "postgresql")
SCHEMA_MODES = ("strict", "auto")

INIT_HINT = "hugelite init-store --conf DIR"


@dataclass
class GraphConfig:
    """One graph's configuration, as read from `conf/graphs/<name>.properties`.

    `store` is the SQLite file (None for memory); a relative path is resolved against the
    working directory when the store is opened, as HugeGraph resolves its data paths. For
    `postgresql` it is the database's name (HugeGraph's rule, `postgres_config.py`), and
    `url` the SQLAlchemy URL built from the `jdbc.*` keys or `sqlalchemy.url`.
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
        self.url: Any = None
        if self.backend == "memory":
            self.store = None
        elif self.backend == "postgresql":
            self.url = pg.server_url(self.name, self.store, self.extra)
            self.store = self.url.database
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
        """The absolute store file, or None for memory and PostgreSQL."""
        if self.store is None or self.url is not None:
            return None
        return Path(self.store).expanduser().resolve()

    @property
    def location(self) -> str | None:
        """What `storage.open_store` opens: the store file, the PostgreSQL URL (password
        included), or None for memory."""
        if self.url is not None:
            return str(self.url.render_as_string(hide_password=False))
        path = self.store_path
        return None if path is None else str(path)

    @property
    def display_location(self) -> str:
        """The store as messages and logs name it: the file, or the URL without its password."""
        if self.url is not None:
            return pg.display_url(self.url)
        return str(self.store_path) if self.store_path is not None else "memory"

    def shown_text(self) -> str:
        """The configuration as `/conf` shows it: the file's text with every password masked
        (`postgres_config.masked_text`); regenerated from the properties, masked, when the
        file's text would still let one through (a continued line)."""
        text = self.text or self.properties_text()
        secrets = [v for k, v in self.extra.items() if k in pg.SECRET_KEYS and v]
        if self.url is not None and self.url.password:
            secrets.append(str(self.url.password))
        if not secrets and "sqlalchemy.url" not in self.extra:
            return text
        shown = pg.masked_text(text)
        if any(s in shown for s in secrets) or any(line.rstrip().endswith("\\") for line in shown.splitlines()):
            shown = pg.masked_text(self.properties_text())
        return shown

    def same_store(self, other: GraphConfig) -> bool:
        """Whether both configurations name one store: the same file, or the same database
        on the same PostgreSQL server."""
        if self.url is not None and other.url is not None:
            mine, theirs = self.url, other.url
            return (mine.host, mine.port, mine.database) == (theirs.host, theirs.port, theirs.database)
        return self.store_path is not None and self.store_path == other.store_path

    def properties(self) -> dict[str, str]:
        props = {"backend": self.backend}
        if self.store is not None:
            props["store"] = self.store
        props["schema.mode"] = self.schema_mode
        props.update(self.extra)
        return props

    def clone_properties(self) -> dict[str, str]:
        """The properties a graph cloned from this one starts with (`POST /graphs/{new}?
        clone_graph_name=this`): everything but the store, so the clone gets a store of its
        own (a PostgreSQL `sqlalchemy.url` loses its database for the same reason)."""
        props = {k: v for k, v in self.properties().items() if k != "store"}
        if self.url is not None and "sqlalchemy.url" in props:
            props["sqlalchemy.url"] = pg.without_database(self.url)
        return props

    def properties_text(self) -> str:
        lines = [f"# graph '{self.name}'"]
        lines += [f"{k}={v}" for k, v in self.properties().items()]
        return "\n".join(lines) + "\n"


def store_api() -> ModuleType:
    """The `storage` package (its public face: `open_store`, `remove_store_files`, ...)."""
    return storage


#: the meta key recording that hugelite created a PostgreSQL graph's database (`init-store`
#: or `POST /graphs`), which is what lets a drop remove it (`remove_store`)
DATABASE_OWNER_KEY = "database_created_by"
DATABASE_OWNER = "hugelite"


def open_raw_store(cfg: GraphConfig) -> tuple[Any, bool]:
    """The store of `cfg`, ready to be initialised, and whether its PostgreSQL database was
    created now (`storage.ensure_database`); a file's folder is made."""
    path = cfg.store_path
    created = False
    if path is not None:
        path.parent.mkdir(parents=True, exist_ok=True)
    elif cfg.url is not None:
        created = bool(store_api().ensure_database(cfg.location))
    return store_api().open_store(cfg.location), created


def record_database_owner(store: Any) -> None:
    with store.write() as tx:
        tx.schema.meta_set(DATABASE_OWNER_KEY, DATABASE_OWNER)


def remove_store(cfg: GraphConfig) -> bool:
    """Deletes a dropped graph's store when hugelite created it; False when it stays.

    A file goes only when hugelite created it (`storage.remove_store_files`). A PostgreSQL
    database goes whole, as HugeGraph's drop dropped it (`clear(true)`: `DROP DATABASE`),
    but only when hugelite created it (`init-store` or `POST /graphs`): a database an
    administrator made and handed over keeps its tables, exactly as an adopted SQLite file
    stays on disk (`storage.drop_database`)."""
    if cfg.url is not None:
        api = store_api()
        store = api.open_store(cfg.location)
        try:
            with store.read() as tx:
                owned = tx.schema.meta_get(DATABASE_OWNER_KEY) == DATABASE_OWNER
        except api.StoreError:
            owned = False
        finally:
            store.close()
        return owned and bool(api.drop_database(cfg.location))
    path = cfg.store_path
    return path is None or bool(store_api().remove_store_files(path))


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
            f"Graph '{cfg.name}': the store {cfg.display_location} was initialised with schema.mode={found}, "
            f"but it is opened with schema.mode={cfg.schema_mode}; set schema.mode={found} "
            f"in the graph's configuration (embedded: schema_mode='{found}', or leave it out)"
        )


def not_ready(cfg: GraphConfig, why: str) -> StoreNotReady:
    return StoreNotReady(f"Graph '{cfg.name}': {why}; run `{INIT_HINT}` before starting the server")
