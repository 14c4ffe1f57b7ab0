"""Running a `Direct` (`traversal/direct.py`): a one-statement read as one call.

The ordinary run of `g.V(id).values('name')` opens a `Session` (a read transaction: pool
checkout, ``BEGIN``, ``ROLLBACK``, checkin), builds a `Context`, binds a copy of the cached
template, pulls traversers through the fused step's generator and walks the results for
elements to load: together several times the ~10 us of the SELECT. Here the same answer
comes from the same `StoreAccess` method the fused step calls (`point_vertex`,
`point_neighbour_ids`, `point_index_ids`, `walk_count`, `vertices`/`edges`), on a
`StoreAccess` made for this one call over `storage.read_once`: a pooled connection with
no explicit transaction, because one SELECT in WAL mode reads one consistent snapshot
(reads of several statements pass `snapshot=True` and get ``BEGIN``/``ROLLBACK``).

Sameness with the pipeline, case by case:

* results: the fused steps yield exactly what these methods return (ids, values, a
  `Long` count, elements loaded with `load_results`); bulk is 1 throughout;
* an access method that declines (None: auto mode, an element already held) makes the
  whole call take the ordinary path (`FALLBACK`), as the fused step would run its steps;
* errors: raised by the same methods; the caller translates storage errors as a session
  would (`api._reraise`); a read has nothing to roll back;
* cancel / timeout: the caller's token is checked before the read starts; a walk count
  polls it during its statement (SQLite progress handler), as `WalkCountStep` does;
* a thread that already has a transaction of this store open reads through a view of it
  (`read_once`), i.e. sees its own pending writes, like a nested `store.read()`;
* schema: read per call from the graph's schema service (`graph.schema`), the snapshot the
  pipeline would use; nothing of it is cached here.
"""

from __future__ import annotations

import dataclasses
import os
from collections.abc import Callable
from typing import Any

import orjson

from gremlin_engine.errors import IllegalArgument
from gremlin_engine.limits import CancelToken
from gremlin_engine.runtime import query as qp
from gremlin_engine.runtime.access import StoreAccess
from gremlin_engine.runtime.materialize import load_results
from gremlin_engine.runtime.reads import storage_direction
from gremlin_engine.runtime.schema_bridge import SchemaBridge
from gremlin_engine.runtime.session import make_token
from gremlin_engine.schema.coercion import coercer
from gremlin_engine.schema.model import Cardinality, IdStrategy
from gremlin_engine.structure import ids as idc
from gremlin_engine.structure.elements import Vertex
from gremlin_engine.structure.numbers import Int, Long
from gremlin_engine.structure.values import decode_vertex_props, entry_value
from gremlin_engine.traversal.predicates import P
from gremlin_engine.traversal.steps.point import _values
from storage.read_once import DECLINED, read_once, reader
from storage.tx_aggregates import CHAIN_MAX_HOPS
from storage.tx_point import VERTEX_BY_ID_SQL

#: returned when the ordinary path must answer (the caller then runs the traversal)
FALLBACK: Any = object()
#: False sends everything through the ordinary path (tests; `HUGELITE_DIRECT_PLANS=off` in
#: the environment for A/B measurements such as `bench.run`)
ENABLED = os.environ.get("HUGELITE_DIRECT_PLANS", "on").lower() not in ("off", "0", "false", "no")


def usable(graph: Any) -> bool:
    """Whether `graph`'s traversals may take direct plans: strategies on (a graph with
    `gremlin.strategies=none` runs everything unoptimised) and strict schema (auto mode's
    lookups also try alternate ids: the access methods decline there anyway)."""
    if not ENABLED:
        return False
    ok = getattr(graph, "_direct_ok", None)
    if ok is None:  # a graph's config does not change while it is open
        config = graph.config
        ok = config.schema_mode != "auto" and str(config.extra.get("gremlin.strategies", "default")).lower() != "none"
        graph._direct_ok = ok
    return ok  # type: ignore[no-any-return]


def run(graph: Any, direct: Any, values: list[Any], timeout_ms: float | None = None, cancel: CancelToken | None = None) -> Any:
    """The result list of `direct` with the run's slot `values`, or `FALLBACK`."""
    if cancel is not None:
        cancel.check()
    kind = direct.kind
    if kind == "algorithm":  # a traverser request: `direct_algorithms.py`
        from gremlin_engine.runtime import direct_algorithms

        return direct_algorithms.run(graph, direct, values, timeout_ms, cancel)
    if kind == "walk":
        token = make_token(timeout_ms, cancel)
        token.check()
        if len(direct.hops) <= CHAIN_MAX_HOPS:  # one statement finds the start and counts
            return read_once(graph.store, _walk_chain, graph, direct, values[0], token)
        return read_once(graph.store, _walk, graph, direct, values[0], token, snapshot=True)
    if kind == "element" and direct.element_kind == "vertex" and len(values) == 1:
        found = _one_vertex(graph, values[0])  # `V(id)` alone: a REST GET by id
        if found is not DECLINED:
            return found
    return read_once(graph.store, _RUNNERS[kind], graph, direct, values, snapshot=direct.snapshot)


def _access(tx: Any, graph: Any) -> StoreAccess:
    """A `StoreAccess` over `tx` for one direct read. Its schema bridge is shared by every
    direct read of the graph while the schema snapshot stays the same object (the service
    replaces it on any change): a bridge only caches what the snapshot says, and is bound
    to a transaction only for auto mode's schema creation, which strict reads never do."""
    access = StoreAccess(tx, graph.schema, "strict", None, bridge(graph))
    access.graph_name = graph.name
    return access


def bridge(graph: Any) -> SchemaBridge:
    """The strict schema bridge direct reads of `graph` share (see `_access`)."""
    service = graph.schema
    snap = getattr(service, "_snap", None)
    held = getattr(graph, "_direct_bridge", None)
    if held is not None and snap is not None and held[0] is snap:
        return held[1]  # type: ignore[no-any-return]
    made = SchemaBridge(service, None, "strict")
    if snap is not None:
        graph._direct_bridge = (snap, made)
    return made


def _point(tx: Any, graph: Any, direct: Any, values: list[Any]) -> Any:
    found = _access(tx, graph).point_vertex(values[0])
    if found is None:
        return FALLBACK
    if not found:
        return []
    mode = direct.mode
    if mode == "id":
        return [found[0]]
    if mode == "label":
        return [found[1]]
    return _values(found[2], direct.keys)


def _hop(tx: Any, graph: Any, direct: Any, values: list[Any]) -> Any:
    """`point_neighbour_ids` with its schema-only work (storage direction, edge label ids)
    kept per schema snapshot in `direct.memo`, and no `StoreAccess`: that method's
    fall-backs cannot apply here (the graph is strict, see `usable`, and a fresh access
    holds no vertex), so what is left is its id codec and `tx.neighbour_ids`."""
    wanted = idc.lookup_id(values[0])
    if wanted is None:
        return []
    service = graph.schema
    snap = getattr(service, "_snap", None)
    memo = direct.memo
    if memo is not None and snap is not None and memo[0] is snap:
        side, lids = memo[1]
    else:
        side = storage_direction(direct.direction)
        lids = _access(tx, graph)._edge_label_filter(direct.labels)
        if snap is not None:
            direct.memo = (snap, (side, lids))
    if lids is not None and not lids:
        return []
    return _public_ids(tx.neighbour_ids(idc.to_storage(wanted), side, lids))


def _public_ids(rows: list[Any], column: int = 1) -> list[Any]:
    """`idc.from_storage` of each row's `column`. Most graphs' ids are numbers (AUTOMATIC,
    CUSTOMIZE_NUMBER), which it turns into `Long`: that case is tested inline, which at ~10
    ids per hop is a measurable share of the call; other kinds go through it."""
    from_storage = idc.from_storage
    return [Long(r[column]) if type(r[column]) is int else from_storage(r[column]) for r in rows]


def _index(tx: Any, graph: Any, direct: Any, values: list[Any]) -> Any:
    if not direct.snapshot:  # one label, one equality: the plan is prepared per schema
        return _one_index_lookup(tx, graph, direct, values)
    conditions = direct.bind_conditions(values)
    access = _access(tx, graph)
    labels = list(direct.label_filter) if direct.label_filter is not None else None
    found = access.point_index_ids(labels, tuple(conditions))
    return FALLBACK if found is None else found


class _IndexPrep:
    """What `point_index_ids` decides for `V().hasLabel(l).has(k, P.eq(x)).id()` without
    looking at `x`: nothing can match (`outcome` "empty"), the general path must answer
    ("fallback"), or one equality lookup in index `index` ("lookup"). Depends on schema
    only, so it is kept per schema snapshot (`Direct.memo`), with what makes a run's value
    cheap to use:

    * `key`: the condition's key (a template constant), and `bare`: the run's value is the
      condition's `P.eq` value itself (checked once by binding a sentinel), so a run needs
      no condition list and no `P` unless a non-text comparison asks for one;
    * `coerce`: `coercion.coercer(pk)`, the key's coercion specialised once (a `str` for a
      TEXT key is passed through inline, anything else goes through `coerce` itself);
    * `text`: a coerced `str` is its own lookup value (`indexing.secondary_value` of one
      string is that string; range indexes store numbers instead).
    """

    __slots__ = ("outcome", "label_id", "index", "pk", "key", "bare", "coerce", "text")

    def __init__(self, outcome: str, label_id: int = 0, index: Any = None, pk: Any = None) -> None:
        self.outcome = outcome
        self.label_id = label_id
        self.index = index
        self.pk = pk
        self.key = ""
        self.bare = False
        self.coerce: Callable[[Any], Any] | None = coercer(pk) if pk is not None else None
        self.text = index is not None and not index.index_type.is_range


def _prepare_index(schema: Any, label: str, key: str) -> _IndexPrep:
    """`point_index_ids`' decisions in its order (`query.label_ids`, `primary_key_ids`,
    `index_plan`) for one label and one equality condition on `key`."""
    vl = schema.vertex_label(label)
    if vl is None:
        return _IndexPrep("empty")  # an unknown label matches nothing
    if (vl.id_strategy == IdStrategy.PRIMARY_KEY and vl.primary_keys and all(k == key for k in vl.primary_keys)
            and all(schema.property_key(k) is not None for k in vl.primary_keys)):
        return _IndexPrep("fallback")  # the primary-key shortcut answers instead
    if key not in vl.properties:
        return _IndexPrep("empty")
    pk = schema.property_key(key)
    if pk is None:
        return _IndexPrep("empty")
    il = qp._find_index(schema.index_labels_for("vertex", vl.name), key, False)
    if il is None:
        return _IndexPrep("fallback")
    if pk.cardinality != Cardinality.SINGLE:  # as `query._coerce_single` looks values up
        pk = dataclasses.replace(pk, cardinality=Cardinality.SINGLE)
    return _IndexPrep("lookup", vl.id, il, pk)


def _index_prep(graph: Any, direct: Any, values: list[Any]) -> _IndexPrep:
    """The `_IndexPrep` of `direct` for the current schema snapshot (made on a miss)."""
    snap = getattr(graph.schema, "_snap", None)
    memo = direct.memo
    if memo is not None and snap is not None and memo[0] is snap:
        return memo[1]  # type: ignore[no-any-return]
    conditions = direct.bind_conditions(values)
    key = conditions[0][0]
    prep = _prepare_index(bridge(graph), direct.label_filter[0], key)
    prep.key = key
    sentinel = object()
    probe = direct.bind_conditions([sentinel])
    prep.bare = (len(probe) == 1 and probe[0][0] == key and type(probe[0][1]) is P and probe[0][1].op == "eq"
                 and probe[0][1].value is sentinel)
    if snap is not None:
        direct.memo = (snap, prep)
    return prep


def _one_index_lookup(tx: Any, graph: Any, direct: Any, values: list[Any]) -> Any:
    return index_answer(lambda params: tx.index_id_props(*params), graph, direct, values)


def index_answer(read: Callable[[tuple[Any, Any, int]], Any], graph: Any, direct: Any, values: list[Any]) -> Any:
    """`V().hasLabel(l).has(k, x).id()` of one label and one equality, its rows read by
    `read((index id, lookup value, label id))` (`tx.index_id_props`, or a prepared reader of
    `direct_fast.py`, whose `DECLINED` is passed back as it is)."""
    prep = _index_prep(graph, direct, values)
    if prep.outcome != "lookup":
        return [] if prep.outcome == "empty" else FALLBACK
    if prep.bare:
        key, value, p = prep.key, values[0], None
    else:
        key, p = direct.bind_conditions(values)[0]
        value = p.value
    if isinstance(value, list | tuple | set | frozenset):
        return []  # `_coerce_single` refuses collections: the value matches nothing
    try:
        coerced = prep.coerce(value)  # type: ignore[misc]
    except IllegalArgument:
        return []  # a value of another type matches nothing
    wanted = coerced if prep.text and type(coerced) is str else graph.schema.index_lookup_value(prep.index, [coerced])
    rows = read((prep.index.id, wanted, prep.label_id))
    if rows is DECLINED:
        return rows
    if not rows:
        return []
    if type(value) is str:
        kept = []
        for r in rows:
            held = _text_holds(r[1], key, value)
            if held is None:  # a non-text entry: compare it as the condition would
                if p is None:
                    p = direct.bind_conditions(values)[0][1]
                held = _holds(r[1], key, p, value)
            if held:
                kept.append(r)
        return _public_ids(kept, 0)
    if p is None:
        p = direct.bind_conditions(values)[0][1]
    return _public_ids([r for r in rows if _holds(r[1], key, p, value)], 0)


def _text_holds(raw: Any, key: str, value: str) -> bool | None:
    """`_holds` for a string `value` while every value of `key` in the row is a string (two
    strings are Gremlin-equal exactly when they are equal); None when some other value
    would need the condition's own test."""
    entry = orjson.loads(raw).get(key, _ABSENT) if raw else _ABSENT
    if entry is _ABSENT:
        return False
    if type(entry) is str:
        return entry == value
    found = False
    for e in entry if type(entry) is list else (entry,):
        v = entry_value(e)
        if type(v) is not str:
            return None
        found = found or v == value
    return found


def _holds(raw: Any, key: str, p: Any, value: Any) -> bool:
    """`reads._props_match_raw([(key, p)], raw)` for the one equality of an indexed lookup:
    some value of `key` in the row's JSON passes `p`. Two strings are Gremlin-equal exactly
    when they are equal (`compare.equals`: same kind, then ==), so that test is made
    directly; any other pair goes through `p.test`."""
    entry = orjson.loads(raw).get(key, _ABSENT) if raw else _ABSENT
    if entry is _ABSENT:
        return False
    text = type(value) is str
    for e in entry if type(entry) is list else (entry,):
        v = entry_value(e)
        if (v == value) if (text and type(v) is str) else p.test(v):
            return True
    return False


_ABSENT: Any = object()


def _element(tx: Any, graph: Any, direct: Any, values: list[Any]) -> Any:
    access = _access(tx, graph)
    fetch = access.vertices if direct.element_kind == "vertex" else access.edges
    found = list(fetch(values, None, (), None))
    load_results(access, found)
    return found


def stored_id(value: Any) -> Any:
    """The stored form of a vertex id bound as an `int`/`Long`/`Int` (the int) or a `str`
    (itself), as `ids.lookup_id` + `ids.to_storage` make them, for the prepared readers here
    and in `direct_fast`; `DECLINED` for any other type, whose conversion the general path
    owns."""
    t = type(value)
    if t is str:
        return value
    if t is int or t is Long or t is Int:
        return int(value)
    return DECLINED


def _one_vertex(graph: Any, value: Any) -> Any:
    """`_element` for one vertex id on a prepared reader (`read_once.reader`, kept on the
    graph per store): one statement, the `Vertex` built and its properties decoded as the
    loader does (`ElementLoader._vertex` + `_decode`), without a `Tx`, a `StoreAccess`, a
    generator or a `load_results` round. `DECLINED` for an id of a type other than
    `int`/`Long`/`Int`/`str` (whose conversion `ids.lookup_id` owns) and whenever the reader
    declines (a memory store, a closed store, this thread inside a transaction, no idle
    connection, checkout listeners): `_element` then answers. An undefined label id raises
    as the loader's strict bridge does."""
    sid = stored_id(value)
    if sid is DECLINED:
        return DECLINED
    store = graph.store
    held = getattr(graph, "_direct_one_vertex", None)
    if held is None or held[0] is not store:
        held = graph._direct_one_vertex = (store, reader(store, VERTEX_BY_ID_SQL, one=True))
    row = held[1]((sid,))
    if row is None:
        return []
    if row is DECLINED:
        return DECLINED
    v = Vertex(idc.from_storage(row[1]), bridge(graph).vertex_label_by_id(row[2]).name, row[0])
    v._props = decode_vertex_props(row[3], v)
    return [v]


def _walk_chain(tx: Any, graph: Any, direct: Any, ident: Any, token: CancelToken) -> Any:
    n = _access(tx, graph).walk_count_from_id(ident, direct.hops, lambda: token.cancelled or token.expired())
    if n is None:  # interrupted or unanswerable: a pending timeout is raised, else the pipeline counts
        token.check()
        return FALLBACK
    return [Long(n)]


def _walk(tx: Any, graph: Any, direct: Any, ident: Any, token: CancelToken) -> Any:
    access = _access(tx, graph)
    starts = [(v, 1) for v in access.vertices([ident], None, (), None)]
    if not starts:
        return [Long(0)]
    n = access.walk_count(starts, direct.hops, lambda: token.cancelled or token.expired())
    if n is None:  # interrupted or unanswerable: a pending timeout is raised, else the pipeline counts
        token.check()
        return FALLBACK
    return [Long(n)]


_RUNNERS: dict[str, Callable[..., Any]] = {"point": _point, "hop": _hop, "index": _index, "element": _element}
