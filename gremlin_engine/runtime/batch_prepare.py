"""REST batch writes in two phases: prepared before the writer is taken, written under it.

A store has one writer (`BEGIN IMMEDIATE`, `storage/store.py`), and a batch request used to
take it before doing anything: its checks, coercion, column building, ids, stored texts and
index values all ran while it held the writer, so a second request's Python waited for the
first one's INSERT and COMMIT although SQLite releases the GIL while it steps. Four clients
loaded no faster than one.

Here a plain REST batch (`inject(item...).hgAddVertices().id()` or
`inject(item...).hgAddEdges(check_vertex).id()`, strict schema) is prepared by `prepare`
on the calling (worker) thread with no transaction at all: everything that depends only on
the items and the schema snapshot. `Prepared.write` then runs inside the call's write
transaction: it checks that the schema snapshot is still the one the batch was prepared
against (the schema service replaces its snapshot object on every change, so identity is
the version), looks up the end vertices of an edge batch, inserts the rows and the index
entries, and the session commits as before.

The prepared path covers exactly the all-new case of the column lanes that
`BatchWritesMixin.add_vertices` / `add_edges` take for such a batch (`VertexPlan` /
`EdgePlan.prepare_columns`, `writes._plain_specs`), and gives what they give. Anything
else declines: `prepare` returns None when the batch is not of that shape, and `write`
returns None, having written nothing, when the schema changed, an end vertex is missing or
has another label than the item names, or an element exists already (an upsert: the
optimistic insert conflicts and storage leaves nothing behind). The caller then runs the
traversal as it always did, in the same transaction, so every error, message, upsert rule
and rollback is the reference path's own. Graph modes need no check: the column lanes
decline any element missing a non-nullable key, which is the only thing LOADING relaxes.

`HUGELITE_BATCH_PREPARE=off` in the environment turns the prepared path off (A/B runs).
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from functools import partial
from itertools import chain, repeat
from operator import itemgetter
from typing import Any

from gremlin_engine.limits import CancelToken
from gremlin_engine.runtime.column_lanes import plain_end_ids
from gremlin_engine.runtime.schema_bridge import SchemaBridge
from gremlin_engine.runtime.write_plans import EdgePlan, VertexPlan
from gremlin_engine.schema.model import IdStrategy
from gremlin_engine.traversal.ir import TraversalIR
from gremlin_engine.traversal.steps.hugegraph.writes import WRITE_BATCH
from storage import StoreConflict

#: read once: the A/B switch of the prepared path
ENABLED = os.environ.get("HUGELITE_BATCH_PREPARE", "on").lower() not in ("off", "0", "false", "no")

_DICT = {dict}
_STR = {str}
_KEY = itemgetter(0)
_ID = itemgetter(1)
_LABEL_ID = itemgetter(2)


class Prepared:
    """A batch of `size` elements prepared against one schema snapshot (`snap`), written by
    `write` (through `batch_commit.write`, which may group it with others)."""

    __slots__ = ("snap", "size")

    def __init__(self, snap: Any, size: int) -> None:
        self.snap = snap
        self.size = size

    def write(self, graph: Any, tx: Any, token: CancelToken) -> list[Any] | None:
        """The ids the traversal would return, having written the batch in the write
        transaction `tx`; None (nothing written) when the traversal must run instead."""
        if getattr(graph.schema, "_snap", None) is not self.snap:
            return None  # the schema changed since: prepare again, i.e. the reference path
        token.check()  # as the write step checks its token before each chunk
        return self._write(tx)

    def _write(self, tx: Any) -> list[Any] | None:
        raise NotImplementedError

    @staticmethod
    def _inserted(insert: Any, rows: list[Any], index: list[Any] | None, tx: Any, kind: str) -> bool:
        """Inserts `rows` by `insert` and adds each new element's index entries (`index`:
        per element, its (index id, value) pairs; None when the label has no index). False,
        with nothing written, when an element exists already: an upsert (storage left
        nothing behind), which is the traversal's to do."""
        try:
            keys = insert(rows)
        except StoreConflict:
            return False
        if index is not None:
            entries = [(i, value, key, kind) for key, found in zip(keys, index, strict=True) for i, value in found]
            if entries:
                tx.index_add_many(entries)
        return True


class PreparedVertices(Prepared):
    """A vertex batch of one label with one TEXT primary key (`VertexPlan.prepare_columns`)."""

    __slots__ = ("ids", "rows", "index")

    def __init__(self, snap: Any, ids: list[Any], rows: list[tuple[Any, int, str]], index: list[Any] | None) -> None:
        super().__init__(snap, len(ids))
        self.ids = ids
        self.rows = rows
        self.index = index  # per vertex, its (index id, value) entries; None: no index label

    def _write(self, tx: Any) -> list[Any] | None:
        return self.ids if self._inserted(tx.vertices_insert, self.rows, self.index, tx, "v") else None


class PreparedEdges(Prepared):
    """An edge batch of one label between string-id vertices of the labels the items name
    (`writes._plain_specs` then `EdgePlan.prepare_id_columns`)."""

    __slots__ = ("ids", "label_id", "outs", "ins", "wanted", "end_labels", "texts", "index")

    def __init__(
        self, snap: Any, ids: list[str], label_id: int, outs: list[str], ins: list[str],
        end_labels: tuple[list[int], list[int]] | int, texts: list[str], index: list[Any] | None,
    ) -> None:
        super().__init__(snap, len(ids))
        self.ids = ids
        self.label_id = label_id
        self.outs = outs
        self.ins = ins
        # the distinct end ids, in item order (as `writes._vertices_by_id` asks for them)
        self.wanted = list(dict.fromkeys(chain.from_iterable(zip(outs, ins, strict=True))))
        # the vertex label id every end must have, or per end (out ids, in ids) when they differ
        self.end_labels = end_labels
        self.texts = texts
        self.index = index

    def _write(self, tx: Any) -> list[Any] | None:
        heads = tx.vertex_heads_by_ids(self.wanted)  # (key, id, label_id), no particular order
        if len(heads) != len(self.wanted):
            return None  # a missing end vertex: the reference path names it
        end_labels = self.end_labels
        if type(end_labels) is int:
            if set(map(_LABEL_ID, heads)) != {end_labels}:
                return None  # an end of another label than its item says
        else:
            label_of = dict(zip(map(_ID, heads), map(_LABEL_ID, heads), strict=True))
            if list(map(label_of.__getitem__, self.outs)) != end_labels[0] or \
                    list(map(label_of.__getitem__, self.ins)) != end_labels[1]:
                return None
        key_of = dict(zip(map(_ID, heads), map(_KEY, heads), strict=True)).__getitem__
        n = len(self.ids)
        rows = list(zip(self.ids, repeat(self.label_id, n), map(key_of, self.outs), map(key_of, self.ins),
                        repeat("", n), self.texts, strict=True))
        insert = partial(tx.edges_insert, unique_parts=True)
        return self.ids if self._inserted(insert, rows, self.index, tx, "e") else None


def prepare(graph: Any, ir: TraversalIR) -> Prepared | None:
    """The prepared form of a plain REST batch IR on a strict graph, or None (see module doc).
    Runs without a transaction: only the schema snapshot and the items are read. It never
    raises: whatever goes wrong here, the traversal itself runs and raises it where errors
    belong (a schema read on a closed store, say)."""
    if not ENABLED or ir.source or ir.anonymous:
        return None
    try:
        return _prepare(graph, ir)
    except Exception:
        return None


def _prepare(graph: Any, ir: TraversalIR) -> Prepared | None:
    steps = ir.steps
    if len(steps) != 3 or steps[0].name != "inject" or steps[2].name != "id" or steps[2].args:
        return None
    write, items = steps[1], steps[0].args
    if not items or len(items) > WRITE_BATCH or set(map(type, items)) != _DICT:
        return None
    service = graph.schema
    snapshot = getattr(service, "_snapshot", None)
    if snapshot is None:
        return None
    snap = snapshot()  # taken first: any change after this replaces the service's snapshot
    schema = SchemaBridge(service, None, graph.config.schema_mode)
    if schema.auto:
        return None
    if write.name == "hgAddVertices" and not write.args:
        return _vertices(snap, schema, items)
    if write.name == "hgAddEdges" and (not write.args or (len(write.args) == 1 and type(write.args[0]) is bool)):
        return _edges(snap, schema, items)
    return None


def _column(items: Sequence[dict[str, Any]], name: str) -> list[Any]:
    return list(map(dict.get, items, repeat(name)))


def _one_label(items: Sequence[dict[str, Any]]) -> tuple[str, list[Any]] | None:
    """(the one label every item names, every item's properties) when those are all
    dicts: the shape both column lanes start from; else None."""
    labels = _column(items, "label")
    label = labels[0]
    if type(label) is not str or labels.count(label) != len(labels):
        return None
    props = _column(items, "properties")
    if set(map(type, props)) != _DICT:
        return None
    return label, props


def _index_values(schema: SchemaBridge, kind: str, label: str, values: list[dict[str, Any]]) -> list[Any] | None:
    """Each element's (index id, value) entries, or None when the label has no index."""
    if not schema.has_indexes(kind, label):
        return None
    entries = schema.index_entries
    return [entries(kind, label, found) for found in values]


def _vertices(snap: Any, schema: SchemaBridge, items: Sequence[dict[str, Any]]) -> PreparedVertices | None:
    """`add_vertices`' column lane (`_add_vertex_columns`) up to the insert."""
    found = _one_label(items)
    if found is None:
        return None
    label, props = found
    ids = _column(items, "id")
    plan = VertexPlan.build(schema, label)
    if plan is None:
        return None
    # loading=False asks for every non-nullable key: a batch that has them is prepared alike
    # in every graph mode (LOADING only drops that check), so the mode need not be read
    columns = plan.prepare_columns(ids, props, False)
    if columns is None:
        return None
    vids, values, texts = columns
    if len(set(vids)) != len(vids):
        return None  # a repeated id: the grouping (upsert) path
    vl = plan.label
    index = _index_values(schema, "vertex", vl.name, values)
    return PreparedVertices(snap, vids, list(zip(vids, repeat(vl.id), texts)), index)


def _edges(snap: Any, schema: SchemaBridge, items: Sequence[dict[str, Any]]) -> PreparedEdges | None:
    """`writes._plain_specs` and `add_edges`' column lane (`_add_edge_columns`) up to the
    end-vertex lookup, taking the end labels the items name as the labels found (the write
    checks them)."""
    outs, ins = _column(items, "outV"), _column(items, "inV")
    if not plain_end_ids(outs, ins) or "" in outs or "" in ins:
        return None
    out_labels, in_labels = _column(items, "outVLabel"), _column(items, "inVLabel")
    if set(map(type, out_labels)) != _STR or set(map(type, in_labels)) != _STR:
        return None
    label_ids: dict[str, int] = {}
    for name in {*out_labels, *in_labels}:
        vl = schema.vertex_label(name)
        if vl is None or vl.id_strategy == IdStrategy.CUSTOMIZE_UUID:
            return None
        label_ids[name] = vl.id
    found = _one_label(items)
    if found is None:
        return None
    label, props = found
    plan = EdgePlan.build(schema, label)
    if plan is None:
        return None
    columns = plan.prepare_id_columns(outs, ins, out_labels, in_labels, props, False)  # any mode: see `_vertices`
    if columns is None:
        return None
    eids, values, texts = columns
    if len(set(eids)) != len(eids):
        return None  # a repeated edge: the grouping (upsert) path
    if len(label_ids) == 1:
        end_labels: tuple[list[int], list[int]] | int = next(iter(label_ids.values()))
    else:
        end_labels = (list(map(label_ids.__getitem__, out_labels)), list(map(label_ids.__getitem__, in_labels)))
    el = plan.label
    index = _index_values(schema, "edge", el.name, values)
    return PreparedEdges(snap, eids, el.id, outs, ins, end_labels, texts, index)
