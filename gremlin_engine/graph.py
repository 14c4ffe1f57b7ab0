"""The engine facade: the registry of open graphs, and `Graph` (configurations are
`graph_config.py`'s, re-exported here).

Everything outside the engine (the REST adapter, the CLI, embedded users, tests) reaches a
graph through these three classes and nothing else: they own the store's life cycle (open,
initialise, refuse a store that is not ready, close) and delegate all graph work to the
runtime (`gremlin_engine.runtime.api`), the schema service and the task manager. Those parts
take the graph as a `GraphHandle` (`graph_handle.py`) and never import this module, so the
imports run one way.

Store readiness is checked here, not in the server: a non-memory store must be initialised
beforehand (`hugelite init-store`) and by this store version, exactly as HugeGraph refuses to
start on an uninitialised backend. A memory store initialises itself, since nothing
outlives the process anyway.
"""

from __future__ import annotations

import json
import logging
import os
import threading
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any

from gremlin_engine.auth.guard import require_admin
from gremlin_engine.errors import ExistedError, IllegalArgument, NotFound, StoreNotReady
from gremlin_engine.graph_config import (  # GraphConfig and the modes: importers use this module
    GRAPH_MODES,
    MODE_KEY,
    READ_MODES,
    GraphConfig,
    hold_schema_mode,
    not_ready,
    open_raw_store,
    record_database_owner,
    recorded_schema_mode,
    remove_store,
    store_api,
)
from gremlin_engine.mode_hold import process_alive, read_hold
from gremlin_engine.runtime import api
from gremlin_engine.schema import SchemaService
from gremlin_engine.tasks import TaskManager
from gremlin_engine.traversal.prepared import PreparedCache
from gremlin_engine.variables import VariableService

log = logging.getLogger("hugelite.engine")

_MODE_KEY = MODE_KEY
_READ_MODE_KEY = "graph.read_mode"
#: who holds the graph's mode for a bulk job, and the mode to give back (`Graph.hold_mode`)
_MODE_HOLD_KEY = "graph.mode_hold"


class Graph:
    """One open graph. Thread-safe: every call opens its own store transaction."""

    def __init__(self, config: GraphConfig, store: Any, registry: GraphRegistry | None = None) -> None:
        self.config = config
        self.store = store
        self.registry = registry
        self._lock = threading.RLock()
        self._schema: SchemaService | None = None
        self._tasks: TaskManager | None = None
        self.variables = VariableService(self)
        self.closed = False
        #: other processes serve this store too (`serve --workers N`): every transaction
        #: first checks that the cached schema is still the store's (`SchemaService.sync`)
        self.shared = bool(registry is not None and registry.shared)
        # False when the config says `gremlin.strategies=none`: the conformance suite runs
        # graphs unoptimised to check that the strategies change nothing but speed (read
        # once: a graph's config does not change while it is open)
        self.runs_strategies = str(config.extra.get("gremlin.strategies", "default")).lower() != "none"
        # TinkerPop 3.7's AllowNullPropertyValues, for TinkerGraph-like (auto) graphs only: a
        # strict graph keeps HugeGraph's rules (a null value is refused or removes the key)
        self.allows_nulls = config.schema_mode == "auto" and str(
            config.extra.get("gremlin.allow_null_property_values", "false")).strip().lower() == "true"
        # which `call()` service families the graph offers, when its configuration says
        self.services: str | None = config.extra.get("gremlin.services")

    # ---- identity -------------------------------------------------------------------
    @property
    def name(self) -> str:
        return self.config.name

    @property
    def backend(self) -> str:
        return self.config.backend

    @property
    def schema_mode(self) -> str:
        return self.config.schema_mode

    @property
    def prepared(self) -> PreparedCache | None:
        """The registry's prepared-traversal cache (None for a graph outside a registry)."""
        return self.registry.prepared if self.registry is not None else None

    def __repr__(self) -> str:
        return f"hugegraph[{self.name}]"

    # ---- services (made on first use) ----------------------------------------------------
    @property
    def schema(self) -> SchemaService:
        if self._schema is None:
            with self._lock:
                if self._schema is None:
                    self._schema = SchemaService(self)
        return self._schema

    @property
    def tasks(self) -> TaskManager:
        if self._tasks is None:
            with self._lock:
                if self._tasks is None:
                    self._tasks = TaskManager(self)
        return self._tasks

    # ---- modes ------------------------------------------------------------------------
    @property
    def mode(self) -> str:
        return self._meta(_MODE_KEY, "NONE")

    def set_mode(self, mode: str, *, ctx: Any = None) -> str:
        require_admin(ctx, "graph mode set")
        if mode not in GRAPH_MODES:
            raise IllegalArgument(f"Graph mode must be one of {list(GRAPH_MODES)}, but got '{mode}'")
        self._set_meta(_MODE_KEY, mode)
        return mode

    def hold_mode(self, mode: str, job: str, *, ctx: Any = None) -> str:
        """Puts the graph in `mode` for a bulk job of this process (a load, a restore) and
        returns the mode it had. The mode to give back is kept in the store beside the id of
        the process holding it, so a job killed before `release_mode` (kill -9, power loss)
        does not leave the graph in LOADING or RESTORING for good: the next open of the
        store gives the mode back (`repair_held_mode`). A second job while one holds the
        graph is refused: two loads at once would fight over the mode to restore. Setting a
        mode is the administrator's (`ctx`)."""
        require_admin(ctx, "graph mode set")
        if mode not in GRAPH_MODES:
            raise IllegalArgument(f"Graph mode must be one of {list(GRAPH_MODES)}, but got '{mode}'")
        with self.store.write(ctx) as tx:
            held = read_hold(tx.schema.meta_get(_MODE_HOLD_KEY))
            if held is not None and process_alive(held["pid"]):
                raise IllegalArgument(
                    f"The graph '{self.name}' is held in {tx.schema.meta_get(_MODE_KEY)} mode by a {held['job']} "
                    f"running in process {held['pid']}; wait for it to end, or stop it")
            previous = (held or {}).get("previous") or str(tx.schema.meta_get(_MODE_KEY) or "NONE")
            tx.schema.meta_set(_MODE_HOLD_KEY, json.dumps({"job": job, "pid": os.getpid(), "previous": previous}))
            tx.schema.meta_set(_MODE_KEY, mode)
        return previous

    def release_mode(self, mode: str | None = None, *, ctx: Any = None) -> None:
        """Ends this process's hold: the graph gets `mode`, or the mode it had before
        (`ctx` as for `hold_mode`)."""
        require_admin(ctx, "graph mode set")
        with self.store.write(ctx) as tx:
            held = read_hold(tx.schema.meta_get(_MODE_HOLD_KEY))
            tx.schema.meta_set(_MODE_HOLD_KEY, "")  # no hold
            back = mode or (held or {}).get("previous") or "NONE"
            tx.schema.meta_set(_MODE_KEY, back if back in GRAPH_MODES else "NONE")

    def repair_held_mode(self) -> str | None:
        """Gives the graph its mode back when the job that held it is gone (its process
        ended without `release_mode`); returns the mode given back, or None."""
        with self.store.write() as tx:
            held = read_hold(tx.schema.meta_get(_MODE_HOLD_KEY))
            if held is None or process_alive(held["pid"]):
                return None
            tx.schema.meta_set(_MODE_HOLD_KEY, "")  # no hold
            back = held.get("previous") if held.get("previous") in GRAPH_MODES else "NONE"
            tx.schema.meta_set(_MODE_KEY, back)
        log.warning("graph '%s': a %s (process %s) ended without giving the graph its mode back; "
                     "mode set back to %s", self.name, held["job"], held["pid"], back)
        return str(back)

    @property
    def read_mode(self) -> str:
        return self._meta(_READ_MODE_KEY, "OLTP_ONLY")

    def set_read_mode(self, mode: str, *, ctx: Any = None) -> str:
        require_admin(ctx, "graph read mode set")
        if mode not in READ_MODES:
            raise IllegalArgument(f"Graph read mode must be one of {list(READ_MODES)}, but got '{mode}'")
        self._set_meta(_READ_MODE_KEY, mode)
        return mode

    def mode_of(self, attr: str, *, ctx: Any = None) -> str:
        """`mode` or `read_mode` for a request: the administrator's only (`ctx`)."""
        require_admin(ctx, f"graph {attr.replace('_', ' ')}")
        return str(self.mode if attr == "mode" else self.read_mode)

    def config_text(self, *, ctx: Any = None) -> str:
        """The graph's configuration as `/conf` shows it: the administrator's only."""
        require_admin(ctx, "graph configuration")
        return self.config.shown_text()

    def _meta(self, key: str, default: str) -> str:
        with self.store.read() as tx:
            value = tx.schema.meta_get(key)
        return default if value is None else str(value)

    def _set_meta(self, key: str, value: str) -> None:
        with self.store.write() as tx:
            tx.schema.meta_set(key, value)

    # ---- data -------------------------------------------------------------------------
    def clear(self, *, ctx: Any = None) -> None:
        """Drops schema, data, indexes and variables (not tasks or store metadata); the
        administrator's only (`ctx`: the request's `ExecutionContext`)."""
        require_admin(ctx, "graph clear")
        with self.store.write(ctx) as tx:
            tx.clear()
            store_api().bump_generation(tx, store_api().SCHEMA_GENERATION)  # other processes drop theirs
        with self._lock:
            schema, self._schema = self._schema, None
        if schema is not None and hasattr(schema, "invalidate"):
            schema.invalidate()

    def stats(self) -> dict[str, Any]:
        """Figures for `/metrics`: element counts and the store's size on disk."""
        with self.store.read() as tx:
            vertices = int(tx.elements.vertex_count())
            edges = int(tx.elements.edge_count())
        path = self.config.store_path
        size = 0
        if path is not None:
            for suffix in ("", "-wal", "-shm"):
                p = Path(str(path) + suffix)
                if p.exists():
                    size += p.stat().st_size
        elif self.config.url is not None:
            size = self.store.size_bytes()  # the database's size, as the server counts it
        return {
            "backend": self.backend,
            "vertices": vertices,
            "edges": edges,
            "store_bytes": size,
            "store": self.config.display_location if self.config.location is not None else None,
        }

    # ---- running Gremlin -------------------------------------------------------------
    def execute(
        self,
        script: str,
        bindings: Mapping[str, Any] | None = None,
        aliases: Mapping[str, str] | None = None,
        timeout_ms: float | None = None,
        cancel: Any = None,
        as_value: bool = False,
        *,
        ctx: Any = None,
    ) -> Any:
        """Runs Gremlin script text with this graph as the default graph (`g`, `graph`);
        `as_value` as in `runtime.api.execute_script`; `ctx` the door's `ExecutionContext`
        (its timeout, when it names one, stands for `timeout_ms`)."""
        if timeout_ms is None and ctx is not None:
            timeout_ms = ctx.timeout_ms
        registry = self.registry
        name = self.config.name
        if registry is not None:
            if aliases or timeout_ms is not None or registry._graphs.get(name) is not self:
                return registry.execute(
                    script, bindings, aliases, graph=name, timeout_ms=timeout_ms, cancel=cancel, as_value=as_value,
                    ctx=ctx,
                )
            # what `registry.execute` does for this graph without aliases or a timeout of its
            # own, inline: a point read through the facade pays one call less
            limit = registry.evaluation_timeout_ms
            if limit is not None and limit <= 0:
                limit = None
            args = bindings if type(bindings) is dict else dict(bindings or {})
            return api.execute_script(
                registry, name, script, args, {}, limit, cancel, as_value=as_value, ctx=ctx)
        solo = GraphRegistry()
        solo._graphs[self.name] = self
        return api.execute_script(
            solo, self.name, script, dict(bindings or {}), dict(aliases or {}), timeout_ms, cancel, as_value=as_value,
            ctx=ctx,
        )

    def server_timeout_ms(self, timeout_ms: float | None = None) -> float | None:
        """`timeout_ms` when the caller names one, else the server's evaluation timeout
        (`gremlinserver.evaluation_timeout_ms`): a REST call (an element query, a traverser
        such as `rays` or `customizedpaths`) is bounded by the same limit as a script, and
        ends with the same TimeoutException (400, as HugeGraph maps it) past it."""
        if timeout_ms is not None or self.registry is None:
            return timeout_ms
        return self.registry.evaluation_timeout_ms

    def traverse(self, ir: Any, timeout_ms: float | None = None, cancel: Any = None, *, ctx: Any = None) -> list[Any]:
        """Runs a traversal IR; `ctx` is the door's `ExecutionContext` (None: an internal
        call, run as the administrator)."""
        if timeout_ms is None and ctx is not None:
            timeout_ms = ctx.timeout_ms
        return api.run_traversal(self, ir, timeout_ms=self.server_timeout_ms(timeout_ms), cancel=cancel, ctx=ctx)

    def traverse_together(
        self, irs: list[Any], note: tuple[str, str] | None = None, *, ctx: Any = None
    ) -> list[list[Any]]:
        """Runs writing traversals in one transaction with a store note (`store_note` reads
        it back): what a bulk loader needs to keep its progress exact. `ctx`: the loader
        door's `ExecutionContext`."""
        timeout_ms = ctx.timeout_ms if ctx is not None else None
        return api.run_traversals(self, irs, note, timeout_ms=self.server_timeout_ms(timeout_ms), ctx=ctx)

    def store_note(self, key: str) -> str | None:
        """A note `traverse_together` recorded (None when there is none)."""
        with self.store.read() as tx:
            return tx.schema.meta_get(key)

    def read_ready(self) -> bool:
        """True when a read-only call could start at once, without waiting for a lock or a
        connection (a file store with an idle pooled connection; a memory store's reads
        wait for its writer). Servers use it to run tiny reads without a thread hop."""
        ready = getattr(self.store, "read_ready", None)
        return bool(ready()) if ready is not None and not self.closed else False

    def iterate(self, ir: Any, timeout_ms: float | None = None, cancel: Any = None, *, ctx: Any = None) -> Iterator[Any]:
        """Streams results (for 206 partial batches); `ctx` as for `traverse`."""
        if timeout_ms is None and ctx is not None:
            timeout_ms = ctx.timeout_ms
        timeout_ms = self.server_timeout_ms(timeout_ms)
        return api.iterate_traversal(self, ir, timeout_ms=timeout_ms, cancel=cancel, ctx=ctx)

    # ---- life cycle -------------------------------------------------------------------
    def close(self) -> None:
        if self.closed:
            return
        self.closed = True
        tasks = self._tasks
        if tasks is not None:
            for stop in ("close", "shutdown"):
                fn = getattr(tasks, stop, None)
                if fn is not None:
                    fn()
                    break
        close = getattr(self.store, "close", None)
        if close is not None:
            close()


class GraphRegistry:
    """The graphs one server (or one embedded user) holds open, by name.

    `evaluation_timeout_ms` is the time limit of scripts and REST calls; `job_timeout_ms`
    that of async Gremlin jobs (None or 0: none); `import_dir` is the only folder
    `g.io(path).read()` may read from, `export_dir` the only one `g.io(path).write()` may
    write to (None: refused). `shared`: other processes serve the same stores (`serve
    --workers N`), so cached schema is checked against the store's (`Graph.shared`).
    """

    def __init__(self, evaluation_timeout_ms: float | None = 30000, import_dir: Path | str | None = None,
                 job_timeout_ms: float | None = None, export_dir: Path | str | None = None,
                 shared: bool = False) -> None:
        self.shared = shared
        #: whether opening a graph restarts the index jobs a killed process left half done
        #: (False where the registry only checks the stores: `serve --workers N`'s parent)
        self.resume_jobs = True
        self.evaluation_timeout_ms = evaluation_timeout_ms
        self.job_timeout_ms = job_timeout_ms
        self.import_dir = Path(import_dir).resolve() if import_dir is not None else None
        self.export_dir = Path(export_dir).resolve() if export_dir is not None else None
        self._graphs: dict[str, Graph] = {}
        self._lock = threading.RLock()
        # every prepared traversal of this registry's graphs (script text or IR shape ->
        # compiled steps and slot binder); cleared whenever a graph comes or goes, since a
        # script entry records which graph each of its names resolved to
        self.prepared = PreparedCache()

    # ---- stores -----------------------------------------------------------------------
    @staticmethod
    def store_status(cfg: GraphConfig) -> str:
        """'ready', 'uninitialised', 'mismatch', 'not a hugelite store' or 'memory' — without
        changing anything."""
        if cfg.backend == "memory":
            return "memory"
        path = cfg.store_path
        if path is not None and not path.exists():
            return "uninitialised"
        stores = store_api()
        store = stores.open_store(cfg.location)
        try:
            store.check_ready()
            return "ready"
        except stores.StoreNotInitialised:
            return "uninitialised"
        except stores.StoreVersionMismatch:
            return "mismatch"
        except stores.StoreNotHugelite:
            return "not a hugelite store"
        finally:
            store.close()

    @staticmethod
    def recorded_schema_mode(path: str) -> str | None:
        """The schema mode an initialised store file records; None when it records none or is
        not a ready store (its opening then says why)."""
        stores = store_api()
        store = stores.open_store(path)
        try:
            store.check_ready()
            return recorded_schema_mode(store)
        except (stores.StoreNotInitialised, stores.StoreVersionMismatch, stores.StoreNotHugelite):
            return None
        finally:
            store.close()

    @staticmethod
    def init_store(cfg: GraphConfig) -> bool:
        """Creates the store's tables and records the store version. Idempotent: returns
        False when the store was already initialised. A store written by another store
        version is refused with `StoreNotReady` (initialising over it would lose data)."""
        if cfg.backend == "memory":
            return False
        stores = store_api()
        try:
            store, created = open_raw_store(cfg)
        except stores.StoreError as e:  # a PostgreSQL server that refused us
            raise StoreNotReady(f"Graph '{cfg.name}': the store {cfg.display_location} cannot be created: {e}") from e
        try:
            try:
                store.check_ready()
                return False
            except stores.StoreNotInitialised:
                store.initialise()
                hold_schema_mode(cfg, store)
                if created:
                    record_database_owner(store)
                return True
            except stores.StoreVersionMismatch as e:
                raise StoreNotReady(f"Graph '{cfg.name}': {e}") from e
            except stores.StoreNotHugelite as e:
                raise IllegalArgument(f"Graph '{cfg.name}': {e}") from None
            except stores.StoreError as e:
                raise StoreNotReady(f"Graph '{cfg.name}': the store {cfg.display_location} cannot be opened: {e}") from e
        finally:
            store.close()

    # ---- graphs -----------------------------------------------------------------------
    def open(self, cfg: GraphConfig) -> Graph:
        """Opens (never creates) the graph's store and registers it under its name."""
        stores = store_api()
        with self._lock:
            if cfg.name in self._graphs:
                raise ExistedError(f"The graph '{cfg.name}' has existed")
            if cfg.backend == "memory":
                store = stores.open_store(None)
                store.initialise()
            else:
                where = cfg.display_location
                if cfg.store_path is not None and not cfg.store_path.exists():
                    raise not_ready(cfg, f"store {where} does not exist (uninitialised)")
                store = stores.open_store(cfg.location)
                try:
                    store.check_ready()
                except stores.StoreNotInitialised as e:
                    store.close()
                    raise not_ready(cfg, f"store {where} is not initialised") from e
                except stores.StoreVersionMismatch as e:
                    store.close()
                    raise StoreNotReady(f"Graph '{cfg.name}': {e}") from e
                except stores.StoreNotHugelite as e:
                    store.close()
                    raise IllegalArgument(f"Graph '{cfg.name}': {e}") from None
                except stores.StoreError as e:  # a server store: no database, no connection
                    store.close()
                    raise StoreNotReady(f"Graph '{cfg.name}': {e}") from e  # it names the store
                try:
                    hold_schema_mode(cfg, store)
                except StoreNotReady:
                    store.close()
                    raise
            graph = Graph(cfg, store, self)
            self._graphs[cfg.name] = graph
            self.prepared.clear()
        if cfg.backend != "memory":
            graph.repair_held_mode()  # a load or restore killed half-way
            if self.resume_jobs:
                graph.schema.resume_interrupted()  # index jobs a killed process left half done
        return graph

    def create(self, cfg: GraphConfig, *, ctx: Any = None) -> Graph:
        """Creates a graph at runtime (POST /graphs/{name}): initialises its store, then
        opens it. An existing store file is reused as it is when it is ready. The
        administrator's only (`ctx`)."""
        require_admin(ctx, "graph create")
        with self._lock:
            if cfg.name in self._graphs:
                raise ExistedError(f"The graph '{cfg.name}' has existed")
            for other in self._graphs.values():
                if cfg.location is not None and other.config.same_store(cfg):
                    raise IllegalArgument(
                        f"The store '{cfg.store}' is already used by graph '{other.name}'"
                    )
            self.init_store(cfg)
            return self.open(cfg)

    def drop(self, name: str, delete_store: bool = True, *, ctx: Any = None) -> GraphConfig:
        """Closes and unregisters a graph and (by default) deletes its store files, only when
        hugelite created them (`storage.remove_store_files`): a pre-existing file stays. The
        administrator's only (`ctx`)."""
        require_admin(ctx, "graph drop")
        with self._lock:
            graph = self.get(name)
            del self._graphs[name]
            self.prepared.clear()
        graph.close()
        if delete_store and not remove_store(graph.config):
            log.warning("graph '%s' dropped; its store %s was not created by hugelite and stays",
                        name, graph.config.display_location)
        return graph.config

    def get(self, name: str) -> Graph:
        graph = self._graphs.get(name)
        if graph is None:
            raise NotFound(f"Graph '{name}' does not exist")
        return graph

    def __contains__(self, name: object) -> bool:
        return name in self._graphs

    def names(self) -> list[str]:
        return list(self._graphs)

    def graphs(self) -> list[Graph]:
        return list(self._graphs.values())

    def close_all(self) -> None:
        with self._lock:
            graphs, self._graphs = list(self._graphs.values()), {}
        for graph in graphs:
            graph.close()

    # ---- scripts ----------------------------------------------------------------------
    def resolve_alias_target(self, target: str) -> str:
        """Maps an alias value onto a bound name. Accepts `hugegraph`, `__g_hugegraph`, and
        the graphspace forms hugegraph-python 1.7 sends (`DEFAULT-hugegraph`,
        `__g_DEFAULT-hugegraph`)."""
        prefix = "__g_" if target.startswith("__g_") else ""
        bare = target[len(prefix):]
        if bare not in self._graphs and "-" in bare:
            _space, _, graph = bare.partition("-")
            if graph in self._graphs:
                return prefix + graph
        return target

    def execute(
        self,
        script: str,
        bindings: Mapping[str, Any] | None = None,
        aliases: Mapping[str, str] | None = None,
        graph: str | None = None,
        timeout_ms: float | None = None,
        cancel: Any = None,
        as_value: bool = False,
        *,
        ctx: Any = None,
    ) -> Any:
        """Runs a script in which every graph is bound by name and its traversal source as
        `__g_<name>`; `aliases` adds names (`g`, `graph`) for those. `graph` names the
        default graph (the one `g`/`graph` mean when no alias says otherwise). `ctx` is the
        door's `ExecutionContext` (None: an internal call, run as the administrator)."""
        if timeout_ms is None and ctx is not None:
            timeout_ms = ctx.timeout_ms
        if graph is not None and graph not in self._graphs:
            self.get(graph)  # raises NotFound
        resolved = {k: self.resolve_alias_target(str(v)) for k, v in aliases.items()} if aliases else {}
        limit = self.evaluation_timeout_ms if timeout_ms is None else timeout_ms
        if limit is not None and limit <= 0:
            limit = None
        # a plain dict is passed as it is: nothing downstream changes it (the script host
        # copies what it keeps), and a point read should not pay for a copy
        args = bindings if type(bindings) is dict else dict(bindings or {})
        return api.execute_script(self, graph, script, args, resolved, limit, cancel, as_value=as_value, ctx=ctx)
