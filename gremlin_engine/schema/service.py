"""The schema service: one per graph, the only way schema is read or changed.

Schema is small and read on every element write and most queries, so the whole of it is held
in memory as an immutable snapshot (`SchemaSnapshot`) and replaced wholesale after a change.
Changes are written to the store in a transaction first; the snapshot is updated in the same
step so that later statements of the same transaction see the new element. If the
transaction rolls back, the snapshot is dropped (`invalidate()`) and reloaded from the store
on the next read: the graph facade calls `invalidate()` after a failed write transaction
(and transactions the service opens itself do it on their own).

Several processes may serve one store (`serve --workers N`): every schema write bumps the
store's schema generation in its transaction (`storage.generations`), every snapshot
remembers the generation it was loaded at, and `sync(tx)` drops a snapshot that another
process has overtaken. A graph served by several processes syncs at the start of every
transaction (`runtime/session.py`) and before the REST schema reads (`fresh`), so a
schema change made through one process is seen by the next request of every other.

Reads (`property_key`, `vertex_label`, ...) return `None` for unknown names; the `get_*`
forms used by REST raise `NotFound` with HugeGraph's message. Creating, changing and
removing schema lives in `changes.py` (mixed in here), schema jobs in `jobs.py`.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Hashable, Iterator, Mapping
from contextlib import contextmanager
from typing import Any

import orjson

from gremlin_engine.errors import IllegalArgument, NotFound
from gremlin_engine.graph_handle import GraphHandle
from gremlin_engine.schema import coercion, indexing
from gremlin_engine.schema.auto import AutoSchema
from gremlin_engine.schema.changes import SCHEMA_TYPES, SchemaChanges
from gremlin_engine.schema.model import (
    EDGE_LABEL,
    INDEX_LABEL,
    KINDS,
    MODEL_OF,
    PROPERTY_KEY,
    READABLE,
    VERTEX_LABEL,
    BaseType,
    EdgeLabel,
    IndexLabel,
    PropertyKey,
    SchemaElement,
    VertexLabel,
    store_json,
)
from storage import SCHEMA_GENERATION, Store, Tx, bump_generation, generation

#: derived entries a snapshot keeps at most: keys include request shapes (a hop's labels,
#: an index lookup's conditions), so a client sending ever new shapes must not grow the
#: cache without bound; past it the cache starts afresh (entries are remade on demand)
MAX_DERIVED = 4096


class SchemaSnapshot:
    """All schema of a graph at one version, by kind, by name and by id: immutable, replaced
    wholesale after a change. What is derived from the schema is cached on it (`derive`) and
    dies with it."""

    __slots__ = ("by_name", "by_id", "_derived", "generation")

    def __init__(self, elements: dict[str, list[SchemaElement]], generation: int = 0) -> None:
        self._derived: dict[Hashable, Any] = {}
        #: the store's schema generation this snapshot is at (`storage.generations`)
        self.generation = generation
        self.by_name: dict[str, dict[str, SchemaElement]] = {}
        self.by_id: dict[str, dict[int, SchemaElement]] = {}
        for kind in KINDS:
            items = sorted(elements.get(kind, ()), key=lambda e: e.id)
            self.by_name[kind] = {e.name: e for e in items}
            self.by_id[kind] = {e.id: e for e in items}

    def derive(self, key: Hashable, make: Callable[[], Any]) -> Any:
        """`make()`, computed once for this snapshot under `key`. A None result is not kept
        (an unknown label named by a client must not grow the cache), and the cache holds
        `MAX_DERIVED` entries at most."""
        cache = self._derived
        try:
            return cache[key]
        except KeyError:
            found = make()
            if found is not None:
                if len(cache) >= MAX_DERIVED:
                    cache.clear()
                cache[key] = found
            return found

    def with_element(self, element: SchemaElement, removed: bool, generation: int) -> SchemaSnapshot:
        elements = {k: list(v.values()) for k, v in self.by_id.items()}
        kind = element.kind
        elements[kind] = [e for e in elements[kind] if e.id != element.id]
        if not removed:
            elements[kind].append(element)
        return SchemaSnapshot(elements, generation)


def _body_of(row: Any) -> dict[str, Any]:
    """The JSON body of a storage schema row (a row object or an (id, name, body) tuple)."""
    for attr in ("body_json", "body", "json"):
        body = getattr(row, attr, None)
        if body is not None:
            break
    else:
        body = row[-1]
    return orjson.loads(body) if isinstance(body, (str, bytes)) else dict(body)


class SchemaService(SchemaChanges, AutoSchema):
    """Schema of one graph. `graph` gives `store`, `config.schema_mode`, `mode`, `name` and
    (for jobs) `tasks`."""

    def __init__(self, graph: GraphHandle) -> None:
        self.graph = graph
        self._lock = threading.RLock()
        self._snap: SchemaSnapshot | None = None
        self._pinned: PinnedSchema | None = None

    # ---- plumbing ------------------------------------------------------------------------
    @property
    def store(self) -> Store:
        return self.graph.store

    @property
    def schema_mode(self) -> str:
        config = getattr(self.graph, "config", None)
        return getattr(config, "schema_mode", "strict") or "strict"

    @property
    def graph_mode(self) -> str:
        mode = getattr(self.graph, "mode", "NONE")
        mode = mode() if callable(mode) else mode
        return str(getattr(mode, "value", mode) or "NONE").upper()

    @property
    def graph_name(self) -> str:
        return str(getattr(self.graph, "name", None) or getattr(getattr(self.graph, "config", None), "name", "hugegraph"))

    def invalidate(self) -> None:
        """Forget the cached schema; the next read reloads it (after a rollback, a clear, ...)."""
        with self._lock:
            self._snap = None

    reload = invalidate

    def _load(self, tx: Tx | None = None) -> SchemaSnapshot:
        def read(t: Any) -> SchemaSnapshot:
            found: dict[str, list[SchemaElement]] = {}
            for kind in KINDS:
                model = MODEL_OF[kind]
                found[kind] = [model.from_json(_body_of(row)) for row in t.schema.schema_list(kind)]
            return SchemaSnapshot(found, generation(t, SCHEMA_GENERATION))

        if tx is not None:
            return read(tx)
        with self.store.read() as t:
            return read(t)

    def pinned(self) -> PinnedSchema:
        """This schema as its current snapshot shows it (loaded now when none is held), for a
        single-statement read (`store.read(ctx, single=True)`): reading schema through it
        never loads the snapshot again, so no schema statement can run inside that read
        (one would be its second statement), whatever another thread changes meanwhile.
        One view per snapshot; it is read-only in use (single-statement reads never write)."""
        snap = self._snap
        if snap is None:
            snap = self.snapshot()
        view = self._pinned
        if view is None or view._snap is not snap:
            view = self._pinned = PinnedSchema(self.graph, snap)
        return view

    def snapshot(self, tx: Tx | None = None) -> SchemaSnapshot:
        """The current schema snapshot (loaded through `tx`, or a read of our own, when none
        is held)."""
        snap = self._snap
        if snap is None:
            with self._lock:
                snap = self._snap
                if snap is None:
                    snap = self._snap = self._load(tx)
        return snap

    def sync(self, tx: Any) -> None:
        """Drops the snapshot when the store, as `tx` sees it, holds a later schema than it
        (another process changed it). Only *later*: a snapshot ahead of the store is this
        process's own change in a transaction still open, which no other writer can overtake
        (writers are serialised), and which a rollback drops anyway."""
        snap = self._snap
        if snap is not None and generation(tx, SCHEMA_GENERATION) > snap.generation:
            with self._lock:
                if self._snap is snap:
                    self._snap = None

    def fresh(self) -> None:
        """`sync` in a read transaction of its own, for reads that have none (the REST schema
        reads) on a graph served by several processes; nothing otherwise."""
        if getattr(self.graph, "shared", False) and not self.store.in_transaction():
            with self.store.read() as t:
                self.sync(t)

    def derived(self, key: Hashable, make: Callable[[], Any]) -> Any:
        """`make()`, computed once per schema version and kept on the snapshot it was derived
        from (`SchemaSnapshot.derive`), so it dies with it: what callers derive from the schema
        (a label's write rules) is never stale, and no caller keeps its own cache keyed by
        schema state."""
        return self.snapshot().derive(key, make)

    @contextmanager
    def writing(self, tx: Tx | None = None, ctx: Any = None) -> Iterator[Tx]:
        """The caller's transaction, or one of our own (carrying `ctx`) that drops the
        snapshot on failure."""
        if tx is not None:
            yield tx
            return
        try:
            with self.store.write(ctx) as own:
                self.sync(own)  # a change is checked against the store's latest schema
                yield own
        except BaseException:
            self.invalidate()
            raise

    def put_element(self, tx: Tx, element: SchemaElement) -> None:
        """Writes `element` in `tx` and puts it in a new snapshot (which the owner of `tx`
        drops if it rolls back: `writing` for its own transactions, the runtime's sessions)."""
        tx.schema.schema_put(element.kind, element.id, element.name, orjson.dumps(store_json(element)).decode())
        self._replace(tx, element, removed=False)

    def delete_element(self, tx: Tx, element: SchemaElement) -> None:
        """Deletes `element` in `tx` and from a new snapshot (dropped as `put_element` says)."""
        tx.schema.schema_delete(element.kind, element.id)
        self._replace(tx, element, removed=True)

    def _replace(self, tx: Tx, element: SchemaElement, removed: bool) -> None:
        """The snapshot with `element` put or removed, at the generation this change bumps
        the store's to (other processes see it once `tx` commits)."""
        self.sync(tx)
        new_generation = bump_generation(tx, SCHEMA_GENERATION)
        with self._lock:
            self._snap = self.snapshot(tx).with_element(element, removed, new_generation)

    # ---- reads ----------------------------------------------------------------------------
    def element(self, kind: str, name: str) -> SchemaElement | None:
        return self.snapshot().by_name[kind].get(name)

    def element_by_id(self, kind: str, id: int) -> SchemaElement | None:
        return self.snapshot().by_id[kind].get(int(id))

    def elements(self, kind: str) -> list[SchemaElement]:
        """All elements of a kind in id order."""
        return list(self.snapshot().by_id[kind].values())

    def property_key(self, name: str) -> PropertyKey | None:
        return self.snapshot().by_name[PROPERTY_KEY].get(name)  # type: ignore[return-value]

    def property_key_by_id(self, id: int) -> PropertyKey | None:
        return self.snapshot().by_id[PROPERTY_KEY].get(int(id))  # type: ignore[return-value]

    def vertex_label(self, name: str) -> VertexLabel | None:
        return self.snapshot().by_name[VERTEX_LABEL].get(name)  # type: ignore[return-value]

    def vertex_label_by_id(self, id: int) -> VertexLabel | None:
        return self.snapshot().by_id[VERTEX_LABEL].get(int(id))  # type: ignore[return-value]

    def edge_label(self, name: str) -> EdgeLabel | None:
        return self.snapshot().by_name[EDGE_LABEL].get(name)  # type: ignore[return-value]

    def edge_label_by_id(self, id: int) -> EdgeLabel | None:
        return self.snapshot().by_id[EDGE_LABEL].get(int(id))  # type: ignore[return-value]

    def index_label(self, name: str) -> IndexLabel | None:
        return self.snapshot().by_name[INDEX_LABEL].get(name)  # type: ignore[return-value]

    def index_label_by_id(self, id: int) -> IndexLabel | None:
        return self.snapshot().by_id[INDEX_LABEL].get(int(id))  # type: ignore[return-value]

    def property_keys(self) -> list[PropertyKey]:
        return self.elements(PROPERTY_KEY)  # type: ignore[return-value]

    def vertex_labels(self) -> list[VertexLabel]:
        return self.elements(VERTEX_LABEL)  # type: ignore[return-value]

    def edge_labels(self) -> list[EdgeLabel]:
        return self.elements(EDGE_LABEL)  # type: ignore[return-value]

    def index_labels(self) -> list[IndexLabel]:
        return self.elements(INDEX_LABEL)  # type: ignore[return-value]

    def get(self, kind: str, name: str, *, ctx: Any = None) -> SchemaElement:
        """Like `element`, but an unknown name is HugeGraph's 404; with a request's `ctx`,
        one its principal may not READ is a 403."""
        if ctx is not None and not ctx.principal.admin:
            ctx.require(self.graph_name, "READ", SCHEMA_TYPES[kind], name)
        self.fresh()
        found = self.element(kind, name)
        if found is None:
            raise NotFound(f"{READABLE[kind]} with name '{name}' does not exist")
        return found

    def get_many(self, kind: str, names: list[str] | None = None, *, ctx: Any = None) -> list[SchemaElement]:
        """The elements named (each must be readable), or all the readable ones."""
        if not names:
            self.fresh()
            return self._readable(kind, self.elements(kind), ctx)
        return [self.get(kind, n, ctx=ctx) for n in names]

    def _readable(self, kind: str, elements: list[SchemaElement], ctx: Any) -> list[SchemaElement]:
        """`elements` less those the principal of `ctx` may not READ (issue 19: silently)."""
        if ctx is None or ctx.principal.admin:
            return elements
        rtype = SCHEMA_TYPES[kind]
        return [e for e in elements if ctx.allows(self.graph_name, "READ", rtype, e.name)]

    def index_labels_for(self, base_type: BaseType | str, label_name: str) -> list[IndexLabel]:
        """The index labels on a vertex or edge label, in id order (CREATED and building ones:
        writes must maintain an index while it is being built)."""
        bt = BaseType(base_type if not isinstance(base_type, str) or base_type.isupper() else
                      {"vertex": "VERTEX_LABEL", "edge": "EDGE_LABEL"}[base_type])
        return [il for il in self.index_labels() if il.base_type == bt and il.base_value == label_name]

    def schema_json(self, *, ctx: Any = None) -> dict[str, list[dict[str, Any]]]:
        """`GET /schema`: everything (that `ctx`'s principal may read), range index types
        unmapped."""
        self.fresh()
        return {
            "propertykeys": [e.to_json() for e in self._readable(PROPERTY_KEY, self.elements(PROPERTY_KEY), ctx)],
            "vertexlabels": [e.to_json() for e in self._readable(VERTEX_LABEL, self.elements(VERTEX_LABEL), ctx)],
            "edgelabels": [e.to_json() for e in self._readable(EDGE_LABEL, self.elements(EDGE_LABEL), ctx)],
            "indexlabels": [e.to_json(public_range=False)  # type: ignore[call-arg]
                            for e in self._readable(INDEX_LABEL, self.elements(INDEX_LABEL), ctx)],
        }

    # ---- values and indexes ---------------------------------------------------------------
    def coerce(self, pk: PropertyKey | str, value: Any) -> Any:
        """Validates and converts `value` for a key (by object or name); IllegalArgument with
        HugeGraph's message when it does not fit. Unknown key names are IllegalArgument too."""
        if isinstance(pk, str):
            found = self.property_key(pk)
            if found is None:
                raise IllegalArgument(f"Undefined property key: '{pk}'")
            pk = found
        return coercion.coerce(pk, value)

    def index_entries(self, element_kind: str, label: str, props: Mapping[str, Any]) -> list[tuple[int, Any]]:
        """`(index_id, value)` pairs an element of `label` with `props` (name → coerced value)
        must have in storage. `element_kind` is 'vertex' or 'edge'."""
        base = BaseType.VERTEX_LABEL if element_kind.startswith("v") else BaseType.EDGE_LABEL
        return indexing.index_entries_of(self.index_labels_for(base, label), props)

    def index_lookup_value(self, index: IndexLabel, values: list[Any]) -> Any:
        """The stored value an equality lookup on `index` must ask for (values coerced)."""
        return indexing.lookup_value(index, values)


class PinnedSchema(SchemaService):
    """`SchemaService.pinned`: the service's reads over one snapshot that never reloads."""

    def __init__(self, graph: GraphHandle, snap: SchemaSnapshot) -> None:
        super().__init__(graph)
        self._snap = snap
        #: what the runtime reads this view through (its `SchemaBridge`), made once per view:
        #: the view never changes, so neither does what is looked up through it
        self.reader: Any = None

    def snapshot(self, tx: Tx | None = None) -> SchemaSnapshot:
        return self._snap  # type: ignore[return-value]
