"""A learnt direct plan as one prepared callable: the hottest calls in one frame or two.

`direct.run` answers `g.V(id).values(k)`, `g.V(id).out(l).id()`, an indexed
`g.V().has(label, k, v).id()` and `g.V(id).out().out().count()` with one statement, yet at ~10 us of SQL the Python around it
(`read_once`, a `Tx`, a `StoreAccess`, its id codec, row tuples, the schema bridge) cost
twice the statement again. A script plan (`direct_scripts.ScriptPlan`) whose one slot is
one binding gets here, once, a callable `run(value)` that does only what is left once
everything that depends on the schema and on the plan alone is settled in advance:

* the statement's SQL text and its prepared reader (`storage.read_once.reader`: an idle
  pooled connection, the statement, the connection back);
* per schema snapshot (the service replaces its snapshot object on every change, and
  `Graph.clear` replaces the service): label names by id, the hop's or walk's label
  filters and statement;
* the id codec for the common id types inline (an `int`/`Long`/`Int` is stored as the
  int, a `str` as itself), as `ids.lookup_id` + `ids.to_storage` make them.

`run` returns `SLOW` whenever it is not sure to answer exactly as `direct.run` would: an id
of another type (booleans, elements, UUIDs, floats), direct plans switched off, and
everything the prepared reader declines (a memory store, a closed store, this thread
inside a transaction, no idle connection, checkout listeners such as statement tracing).
The caller then runs `direct.run`, which keeps every one of its own fall-backs (sessions,
auto mode and strategies off never reach a script plan). A fresh read holds no element,
so `point_vertex`'s "a vertex this transaction holds" rule cannot apply here. Results,
Java types and errors are the ones of `direct.run` (`tests/runtime/test_direct_fast.py`,
`test_direct_fast_walk.py`). A walk count is the one plan `direct.run` polls a time limit
for, so its callable answers only calls without one (`timeless`).
"""

from __future__ import annotations

import sqlite3
from collections.abc import Callable
from typing import Any

import orjson

from gremlin_engine.errors import IllegalArgument
from gremlin_engine.limits import CancelToken
from gremlin_engine.runtime import direct as _direct
from gremlin_engine.runtime.reads import storage_direction
from gremlin_engine.structure import ids as idc
from gremlin_engine.structure.numbers import Long
from gremlin_engine.structure.values import entry_value
from gremlin_engine.traversal.steps.point import _values
from storage import tx_aggregates, tx_point
from storage.read_once import DECLINED, reader
from storage.tx_aggregates import CHAIN_MAX_HOPS

#: "take `direct.run`": the prepared callable cannot answer this call exactly
SLOW: Any = DECLINED

_NONE: tuple[Any, Any] = (None, None)
_ABSENT: Any = object()


def _settled(graph: Any, plan: Any, state: list[tuple[Any, Any]], settle: Callable[..., tuple[Any, Any]]) -> tuple[Any, Any]:
    """`state[0]`, (schema snapshot, what the plan needs under it), settled again by
    `settle(graph, plan, state)` when the schema service or its snapshot has changed since
    (every schema change replaces the snapshot object; `Graph.clear` the service)."""
    held = state[0]
    service = graph._schema
    if service is None or held[0] is not service._snap or held[0] is None:
        held = settle(graph, plan, state)
    return held


def prepare(graph: Any, plan: Any) -> Callable[[Any], Any] | None:
    """The prepared callable of `plan` (a `Direct` with one slot) on `graph`, or None when
    its kind has none (longer walks, bare elements, algorithms, multi-condition lookups) or
    it could never answer (a memory store: its reads share the writer's lock)."""
    if not _direct.usable(graph) or graph.store.memory:
        return None
    kind = plan.kind
    if kind == "point":
        return _point(graph, plan)
    if kind == "hop":
        return _hop(graph, plan)
    if kind == "index" and not plan.snapshot:
        return _index(graph, plan)
    if kind == "walk" and len(plan.hops) <= CHAIN_MAX_HOPS:
        return _walk(graph, plan)
    return None


def timeless(plan: Any) -> bool:
    """Whether `plan`'s prepared callable ignores time limits: a point, hop or index read is
    one short statement that `direct.run` never polls a token for, and its callable takes
    the value alone; a walk count's callable takes `(value, timeout_ms)` and polls the limit
    as `direct.run` does (a caller's cancel token always takes `direct.run`)."""
    return plan.kind != "walk"


def _point(graph: Any, plan: Any) -> Callable[[Any], Any]:
    """`point_vertex` then the plan's mode (`direct._point`) in one frame."""
    read = reader(graph.store, tx_point.VERTEX_BY_ID_SQL, one=True)
    mode, keys = plan.mode, plan.keys
    one_key = keys[0] if len(keys) == 1 else None
    from_storage = idc.from_storage
    loads = orjson.loads
    #: (schema snapshot, {label id: name}) for the snapshot last seen
    state: list[tuple[Any, dict[int, str]]] = [(None, {})]

    def run(value: Any) -> Any:
        sid = _direct.stored_id(value)
        if sid is SLOW or not _direct.ENABLED:
            return SLOW
        row = read((sid,))
        if row is None:
            return []
        if row is SLOW:
            return SLOW
        # the label is resolved in every mode, as `point_vertex` does (an unknown label id raises)
        held = state[0]
        service = graph._schema
        name = held[1].get(row[2]) if service is not None and held[0] is service._snap else None
        if name is None:
            name = _label_name(graph, state, row[2])
        if mode == "values":
            if one_key is None:
                return _values(row[3], keys)
            # `_values` for one key: its entry alone, no walk over the row's other keys
            props = row[3]
            entry = loads(props).get(one_key, _ABSENT) if props else _ABSENT
            if entry is _ABSENT:
                return []
            t = type(entry)
            if t is str:
                return [entry]
            if t is list:
                return [entry_value(e) for e in entry]
            return [entry_value(entry)]
        if mode == "id":
            i = row[1]
            return [Long(i) if type(i) is int else from_storage(i)]
        return [name]

    return run


def _label_name(graph: Any, state: list[tuple[Any, dict[int, str]]], label_id: int) -> str:
    """The name of vertex label `label_id` through the shared strict bridge (which raises for
    an undefined id, as `point_vertex` does), remembered for the current snapshot."""
    name: str = _direct.bridge(graph).vertex_label_by_id(label_id).name
    snap = getattr(graph.schema, "_snap", None)
    if snap is not None:
        held = state[0]
        if held[0] is not snap:
            held = state[0] = (snap, {})
        held[1][label_id] = name
    return name


def _hop(graph: Any, plan: Any) -> Callable[[Any], Any]:
    """`direct._hop` with its per-snapshot work (direction, label ids, statement) settled
    once per schema snapshot."""
    store = graph.store
    from_storage = idc.from_storage
    #: (schema snapshot, None when no label matches else (reader, id repeats, id column))
    state: list[tuple[Any, Any]] = [_NONE]

    def run(value: Any) -> Any:
        sid = _direct.stored_id(value)
        if sid is SLOW or not _direct.ENABLED or store._closed:
            return SLOW
        held = _settled(graph, plan, state, _hop_prepare)
        how = held[1]
        if how is None:
            return []
        read, repeat, col = how
        rows = read((sid,) if repeat == 1 else (sid,) * repeat)
        if rows is SLOW:
            return SLOW
        if col == 0:
            return [Long(r[0]) if type(r[0]) is int else from_storage(r[0]) for r in rows]
        return [Long(r[col]) if type(r[col]) is int else from_storage(r[col]) for r in rows]

    return run


def _hop_prepare(graph: Any, plan: Any, state: list[tuple[Any, Any]]) -> tuple[Any, Any]:
    """The hop's statement under the current schema (`direct._hop`'s `side` and `lids`)."""
    labels = plan.labels
    lids = list(dict.fromkeys(_direct.bridge(graph).edge_label_ids(list(labels)))) if labels else None
    snap = getattr(graph.schema, "_snap", None)
    if lids is not None and not lids:
        held: tuple[Any, Any] = (snap, None)
    else:
        sql, repeat, col = tx_point.neighbour_ids_statement(storage_direction(plan.direction), lids)
        held = (snap, (reader(graph.store, sql), repeat, col))
    if snap is not None:
        state[0] = held
    return held


def _index(graph: Any, plan: Any) -> Callable[[Any], Any]:
    """`direct._one_index_lookup` on a prepared reader. The usual call (a string looked up
    in a text index whose rows hold that key as one string, the plan's `_IndexPrep` known
    for the current snapshot) is answered inline; anything else goes through
    `direct.index_answer` on the same reader."""
    store = graph.store
    read = reader(store, tx_point.INDEX_ID_PROPS_SQL)
    answer = _direct.index_answer
    loads = orjson.loads
    from_storage = idc.from_storage

    def run(value: Any) -> Any:
        if not _direct.ENABLED or store._closed:
            return SLOW
        memo = plan.memo
        service = graph._schema
        if type(value) is not str or memo is None or service is None or memo[0] is not service._snap:
            return answer(read, graph, plan, [value])
        prep = memo[1]
        if prep.outcome != "lookup" or not prep.bare or not prep.text:
            return answer(read, graph, plan, [value])
        try:
            coerced = prep.coerce(value)
        except IllegalArgument:
            return []  # as `index_answer`: a value of another type matches nothing
        if type(coerced) is not str:
            return answer(read, graph, plan, [value])
        rows = read((prep.index.id, coerced, prep.label_id))
        if rows is SLOW:
            return SLOW
        key = prep.key
        out = []
        for r in rows:
            props = r[1]
            entry = loads(props).get(key, _ABSENT) if props else _ABSENT
            if type(entry) is str:
                if entry == value:
                    out.append(Long(r[0]) if type(r[0]) is int else from_storage(r[0]))
            elif entry is not _ABSENT:  # a multi-value or typed entry: the general test
                return answer(read, graph, plan, [value])
        return out

    return run


def _walk(graph: Any, plan: Any) -> Callable[..., Any]:
    """`direct._walk_chain` for a call without a cancel token: the walk statement per schema
    snapshot, the start's stored id as `_point` makes it, no `Tx` or `StoreAccess`. With a
    time limit (`timeout_ms` > 0) it makes the token `direct.run` makes, checks it first and
    polls it during the statement (`tx_aggregates.POLL_EVERY`); without one nothing could
    stop the walk, so no progress handler is set. An interrupted statement raises the
    token's timeout; any other driver error (`OperationalError`: what `_aggregate` turns
    into `AggregateUnsupported`) declines, and `direct.run` meets it its own way."""
    store = graph.store
    #: (schema snapshot, None when no walk passes a hop's labels else the reader)
    state: list[tuple[Any, Any]] = [_NONE]

    def run(value: Any, timeout_ms: float | None = None) -> Any:
        sid = _direct.stored_id(value)
        if sid is SLOW or not _direct.ENABLED or store._closed:
            return SLOW
        held = _settled(graph, plan, state, _walk_prepare)
        read = held[1]
        if timeout_ms is None or timeout_ms <= 0:
            if read is None:
                return [Long(0)]
            row = read((sid,))
        else:
            token = CancelToken(timeout_ms)
            token.check()
            if read is None:
                return [Long(0)]
            row = read((sid,), token.expired)
            if row is SLOW and token.expired():
                token.check()  # interrupted: the timeout `direct.run` raises
        if row is SLOW:
            return SLOW
        return [Long(row[0] or 0)]

    return run


def _walk_prepare(graph: Any, plan: Any, state: list[tuple[Any, Any]]) -> tuple[Any, Any]:
    """The walk's statement under the current schema (`pushdowns._walk_plan`'s label ids)."""
    bridge = _direct.bridge(graph)
    hops: list[tuple[str, list[int] | None]] | None = []
    for direction, labels in plan.hops:
        lids = list(dict.fromkeys(bridge.edge_label_ids(list(labels)))) if labels else None
        if lids is not None and not lids:
            hops = None  # an unknown label: no walk gets past it
            break
        hops.append((storage_direction(direction), lids))  # type: ignore[union-attr]
    sql = None if hops is None else tx_aggregates.walk_chain_statement(hops)
    snap = getattr(graph.schema, "_snap", None)
    held: tuple[Any, Any] = (snap, None if sql is None else reader(
        graph.store, sql, one=True, decline=(sqlite3.OperationalError,), poll_every=tx_aggregates.POLL_EVERY))
    if snap is not None:
        state[0] = held
    return held
