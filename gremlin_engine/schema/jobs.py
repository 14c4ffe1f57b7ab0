"""Schema jobs: the work behind `remove_schema` and `rebuild_index` tasks.

A job runs in a task worker thread, over the data in batches of `BATCH` elements, each batch
its own write transaction, so a large label never holds the single writer for long and a
cancel request is honoured between batches (the job raises `TraversalCancelled`, which the
task manager records as `cancelled`). The last step (removing the schema element, or
marking the index CREATED) is its own short transaction.

Element properties are decoded with the runtime's value codec (`structure/values.py`), so the
rebuilt entries equal the ones the runtime writes for new elements.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from typing import Any

from gremlin_engine.errors import HugeliteError
from gremlin_engine.schema import indexing
from gremlin_engine.schema.model import (
    EDGE_LABEL,
    INDEX_LABEL,
    VERTEX_LABEL,
    BaseType,
    Cardinality,
    EdgeLabel,
    IndexLabel,
    PropertyKey,
    SchemaElement,
    SchemaStatus,
    VertexLabel,
)
from gremlin_engine.structure import values
from gremlin_engine.structure.elements import Vertex
from storage import Tx

BATCH = 1000


class SchemaJobError(HugeliteError):
    """A schema job refused to run; its message becomes the task result (HugeException)."""

    java_exception = "org.apache.hugegraph.HugeException"


def job_for(service: Any, task_type: str, element: SchemaElement) -> Callable[[Any], Any]:
    """The callable a task runs: `fn(ctx)` with `ctx.check()` raising on cancel and
    `ctx.progress(n)`; its return value is the task result."""
    if task_type == "rebuild_index":
        return lambda ctx: rebuild(service, element, ctx)
    if task_type == "create_olap":
        return lambda ctx: None
    if element.kind == INDEX_LABEL:
        return lambda ctx: remove_index_label(service, element.name, ctx)
    if element.kind == VERTEX_LABEL:
        return lambda ctx: remove_vertex_label(service, element.name, ctx)
    return lambda ctx: remove_edge_label(service, element.name, ctx)


def _check(ctx: Any) -> None:
    if ctx is not None:
        ctx.check()


# ---- decoding ------------------------------------------------------------------------------


def vertex_props(service: Any, row: Any) -> dict[str, Any]:
    """name → value (a list for LIST/SET keys) of a stored vertex row."""
    vertex = Vertex(row.id, "", row.key)
    out: dict[str, Any] = {}
    for key, vps in values.decode_vertex_props(row.props, vertex).items():
        pk: PropertyKey | None = service.property_key(key)
        if pk is not None and pk.cardinality is not Cardinality.SINGLE:
            out[key] = [vp.value for vp in vps]
        elif vps:
            out[key] = vps[0].value
    return out


def edge_props(row: Any) -> dict[str, Any]:
    return values.decode_edge_props(row.props)


# ---- remove ------------------------------------------------------------------------------


def _delete_by_label(service: Any, label_id: int, vertices: bool, ctx: Any) -> int:
    store = service.store
    removed = 0
    while True:
        _check(ctx)
        with store.write() as tx:
            scan = tx.elements.vertices_scan if vertices else tx.elements.edges_scan
            rows = scan(label_ids=[label_id], limit=BATCH)
            if not rows:
                return removed
            keys = [r.key for r in rows]
            (tx.elements.vertices_delete if vertices else tx.elements.edges_delete)(keys)
        removed += len(keys)
        if ctx is not None:
            ctx.progress(removed)


def _drop_index(service: Any, tx: Tx, index: IndexLabel) -> None:
    tx.index.index_drop(index.id)
    service.detach_index(tx, index)
    service.delete_element(tx, index)


def remove_vertex_label(service: Any, name: str, ctx: Any = None) -> Any:
    label: VertexLabel | None = service.vertex_label(name)
    if label is None:
        return None
    for el in service.edge_labels():
        if any(name in link for link in el.links):
            raise SchemaJobError(
                f"Not allowed to remove vertex label '{name}' because the edge label '{el.name}' still link with it"
            )
    return _remove_label(service, label, ctx)


def remove_edge_label(service: Any, name: str, ctx: Any = None) -> Any:
    label: EdgeLabel | None = service.edge_label(name)
    if label is None:
        return None
    return _remove_label(service, label, ctx)


def _remove_label(service: Any, label: VertexLabel | EdgeLabel, ctx: Any) -> None:
    """Marks the label DELETING, removes its elements in batches, then drops its indexes and
    the label itself (the DELETING version the first step stored)."""
    with service.writing() as tx:
        service.put_element(tx, dataclasses.replace(label, status=SchemaStatus.DELETING))
    on_vertices = label.kind == VERTEX_LABEL
    _delete_by_label(service, label.id, on_vertices, ctx)
    base_type = BaseType.VERTEX_LABEL if on_vertices else BaseType.EDGE_LABEL
    with service.writing() as tx:
        for index in service.index_labels_for(base_type, label.name):
            _drop_index(service, tx, index)
        service.delete_element(tx, service.element(label.kind, label.name))
    return None


def remove_index_label(service: Any, name: str, ctx: Any = None) -> Any:
    index: IndexLabel | None = service.index_label(name)
    if index is None:
        return None
    _check(ctx)
    with service.writing() as tx:
        _drop_index(service, tx, index)
    return None


# ---- rebuild -------------------------------------------------------------------------------


def _indexes_to_rebuild(service: Any, element: SchemaElement) -> list[IndexLabel]:
    if element.kind == INDEX_LABEL:
        current = service.index_label(element.name)
        return [current] if current is not None else []
    base = BaseType.VERTEX_LABEL if element.kind == VERTEX_LABEL else BaseType.EDGE_LABEL
    found: list[IndexLabel] = service.index_labels_for(base, element.name)
    return found


def rebuild(service: Any, element: SchemaElement, ctx: Any = None) -> Any:
    """Refills index entries from the data: drops what the index holds, scans its base
    label in key order, writes entries batch by batch, then marks it CREATED."""
    indexes = _indexes_to_rebuild(service, element)
    if not indexes:
        return None
    store = service.store
    by_base: dict[tuple[BaseType, str], list[IndexLabel]] = {}
    for il in indexes:
        by_base.setdefault((il.base_type, il.base_value), []).append(il)
    with service.writing() as tx:
        for il in indexes:
            tx.index.index_drop(il.id)
            if il.status is SchemaStatus.CREATED:
                service.put_element(tx, dataclasses.replace(il, status=SchemaStatus.REBUILDING))
    done = 0
    for (base_type, base_value), group in by_base.items():
        vertices = base_type is BaseType.VERTEX_LABEL
        label = service.vertex_label(base_value) if vertices else service.edge_label(base_value)
        if label is None:
            continue
        after = None
        while True:
            _check(ctx)
            with store.write() as tx:
                scan = tx.elements.vertices_scan if vertices else tx.elements.edges_scan
                rows = scan(label_ids=[label.id], after_key=after, limit=BATCH)
                if not rows:
                    break
                entries = []
                for row in rows:
                    props = vertex_props(service, row) if vertices else edge_props(row)
                    for il in group:
                        for value in indexing.entries_for(il, props):
                            entries.append((il.id, value, row.key, "v" if vertices else "e"))
                if entries:
                    tx.index.index_add_many(entries)
                after = rows[-1].key
            done += len(rows)
            if ctx is not None:
                ctx.progress(done)
    with service.writing() as tx:
        for il in indexes:
            current = service.index_label(il.name)
            if current is not None and current.status is not SchemaStatus.CREATED:
                service.put_element(tx, dataclasses.replace(current, status=SchemaStatus.CREATED))
    return None


__all__ = ["job_for", "rebuild", "remove_vertex_label", "remove_edge_label", "remove_index_label", "EDGE_LABEL"]
