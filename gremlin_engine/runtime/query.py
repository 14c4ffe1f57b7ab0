"""Turning `(ids, labels, conditions)` into the cheapest storage access.

A `V()`/`E()` call arrives with ids, label names and `(key, P)` conditions. This module
splits them into what storage can answer (id lookups, label ids, an index lookup, a
primary-key id) and what must be tested in Python afterwards. Every condition is re-tested
on the elements that come back, so an index only ever narrows the candidates: a wrong guess
here costs speed, never correctness. (The one exception, an index that decides a text
equality exactly, is `eq_recipe`'s, for the fused `indexIds` read.)
"""

from __future__ import annotations

import dataclasses
import itertools
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from gremlin_engine.errors import IllegalArgument
from gremlin_engine.runtime.schema_bridge import SchemaBridge
from gremlin_engine.schema.model import Cardinality, IdStrategy, IndexLabel, IndexType, SchemaStatus
from gremlin_engine.structure import ids as idc
from gremlin_engine.structure.elements import Element
from gremlin_engine.traversal.tokens import T

EQ_OPS = ("eq", "within")
RANGE_OPS = ("gt", "gte", "lt", "lte", "between", "inside")
_EQ_INDEXES = (IndexType.SECONDARY, IndexType.UNIQUE)


@dataclass
class Query:
    kind: str  # "vertex" | "edge"
    ids: list[Any] | None = None  # explicit ids, in order, duplicates kept
    label_names: list[str] | None = None  # None: every label
    id_tests: list[Any] = field(default_factory=list)  # predicates on the element id
    label_tests: list[Any] = field(default_factory=list)  # predicates on the label name
    props: list[tuple[str, Any]] = field(default_factory=list)  # (key, P) to test
    empty: bool = False  # nothing can match


def _values_of(p: Any) -> list[Any] | None:
    """The values an eq/within predicate accepts, or None for other predicates."""
    if p.op == "eq":
        return [p.value]
    if p.op == "within":
        return list(p.value)
    return None


def split(kind: str, ids: Sequence[Any] | None, labels: Sequence[str] | None, conditions: Sequence[Any]) -> Query:
    q = Query(kind, list(ids) if ids is not None else None, list(labels) if labels is not None else None)
    for key, p in conditions:
        if key is T.id:
            vals = _values_of(p)
            if q.ids is None and vals is not None:
                q.ids = list(dict.fromkeys(_hashable_id(v) for v in vals))
            else:
                q.id_tests.append(p)
        elif key is T.label:
            vals = _values_of(p)
            if q.label_names is None and vals is not None:
                q.label_names = [v for v in vals if isinstance(v, str)]
            else:
                q.label_tests.append(p)
        elif isinstance(key, str):
            q.props.append((key, p))
        else:
            q.id_tests.append(_never())  # T.key / T.value are not element conditions
    if q.label_names is not None and not q.label_names:
        q.empty = True
    if q.ids is not None and not q.ids:
        q.empty = True
    return q


def _hashable_id(v: Any) -> Any:
    """An id to look up: an element's id, or the value; a map, list or set is no id of any
    element (`hasId([a: 1])`), so it becomes None, which matches nothing."""
    if isinstance(v, Element):
        return v.id
    return None if isinstance(v, dict | list | set) else v


class _Never:
    op = "never"

    def test(self, _v: Any) -> bool:
        return False


def _never() -> Any:
    return _Never()


def matches_head(q: Query, element: Any) -> bool:
    """The id and label tests alone: all an element needs before its properties are read."""
    for p in q.id_tests:
        if not p.test(element.id):
            return False
    for p in q.label_tests:
        if not p.test(element.label):
            return False
    return True


def matches_vertex(q: Query, v: Any) -> bool:
    """Label/id/property tests on a vertex whose properties are loaded."""
    if not matches_head(q, v):
        return False
    props = v._props
    for key, p in q.props:
        if not any(p.test(vp.value) for vp in props.get(key, ())):
            return False
    return True


def matches_edge(q: Query, e: Any) -> bool:
    if not matches_head(q, e):
        return False
    props = e._props
    for key, p in q.props:
        if key not in props or not p.test(props[key]):
            return False
    return True


def label_ids(schema: SchemaBridge, q: Query) -> list[int] | None:
    """Storage label ids for the query's label names (None: all labels), label tests applied
    by name up front so storage skips labels that cannot match."""
    if q.kind == "vertex":
        all_labels = [vl.name for vl in schema.vertex_labels()]
        to_ids = schema.vertex_label_ids
    else:
        all_labels = [el.name for el in schema.edge_labels()]
        to_ids = schema.edge_label_ids
    names = q.label_names
    if q.label_tests:
        base = names if names is not None else all_labels
        names = [n for n in base if all(p.test(n) for p in q.label_tests)]
    if names is None:
        return None
    return list(dict.fromkeys(to_ids(names)))


# ---- primary-key shortcut -------------------------------------------------------------


def primary_key_ids(schema: SchemaBridge, q: Query, lids: list[int] | None) -> list[Any] | None:
    """`hasLabel('person').has('name','marko')` on a PRIMARY_KEY label is an id lookup
    (`1:marko`). Returns the candidate ids, or None when the shortcut does not apply."""
    if q.kind != "vertex" or lids is None or not lids or not q.props:
        return None
    eqs: dict[str, list[Any]] = {}
    for key, p in q.props:
        vals = _values_of(p)
        if vals is not None and key not in eqs:
            eqs[key] = vals
    out: list[Any] = []
    for lid in lids:
        vl = schema.vertex_label_by_id(lid)
        if vl.id_strategy != IdStrategy.PRIMARY_KEY or not vl.primary_keys:
            return None
        if any(k not in eqs for k in vl.primary_keys):
            return None
        pks = [schema.property_key(k) for k in vl.primary_keys]
        if any(pk is None for pk in pks):
            return None
        combos = itertools.product(*(eqs[k] for k in vl.primary_keys))
        for combo in itertools.islice(combos, 1000):
            try:
                values = [(_coerce_single(schema, pk, v), pk.data_type.value) for pk, v in zip(pks, combo, strict=True)]
                out.append(idc.primary_key_id(vl.id, values))
            except IllegalArgument:
                continue  # a value of the wrong type matches no vertex
    return list(dict.fromkeys(out))


def _coerce_single(schema: SchemaBridge, pk: Any, value: Any) -> Any:
    if pk.cardinality != Cardinality.SINGLE:
        pk = dataclasses.replace(pk, cardinality=Cardinality.SINGLE)
    if isinstance(value, list | tuple | set | frozenset):
        raise IllegalArgument("collection")
    return schema.coerce(pk, value)


# ---- index choice ---------------------------------------------------------------------


@dataclass
class IndexPlan:
    """Index lookups whose union holds every element that can match."""

    eq: list[tuple[int, list[Any]]] = field(default_factory=list)  # (index id, lookup values)
    ranges: list[tuple[int, Any, Any, bool, bool]] = field(default_factory=list)
    #: the index labels read, and the (key, P) condition they serve: whether their entries
    #: decide it exactly is `eq_recipe.exact_value_types`'s question
    indexes: list[IndexLabel] = field(default_factory=list)
    condition: Any = None


def candidate_labels(schema: SchemaBridge, q: Query, lids: list[int] | None, key: str) -> list[str]:
    if q.kind == "vertex":
        labels = [schema.vertex_label_by_id(i) for i in lids] if lids is not None else schema.vertex_labels()
    else:
        labels = [schema.edge_label_by_id(i) for i in lids] if lids is not None else schema.edge_labels()
    if schema.auto:
        return [lb.name for lb in labels]
    return [lb.name for lb in labels if key in lb.properties]


def find_index(indexes: list[IndexLabel], key: str, ranged: bool) -> IndexLabel | None:
    for il in indexes:
        if tuple(il.fields) != (key,) or il.status != SchemaStatus.CREATED:
            continue  # an index still being built may miss elements
        if ranged and il.index_type.is_range:
            return il
        if not ranged and (il.index_type in _EQ_INDEXES or il.index_type.is_range):
            return il
    return None


def _range_bounds(p: Any) -> tuple[Any, Any, bool, bool]:
    op, v = p.op, p.value
    if op == "gt":
        return v, None, False, False
    if op == "gte":
        return v, None, True, False
    if op == "lt":
        return None, v, False, False
    if op == "lte":
        return None, v, False, True
    if op == "between":
        return v[0], v[1], True, False
    return v[0], v[1], False, False  # inside


def index_plan(schema: SchemaBridge, q: Query, lids: list[int] | None) -> IndexPlan | None:
    """An index plan for the first property condition every candidate label indexes."""
    for key, p in q.props:
        ranged = p.op in RANGE_OPS
        if p.op not in EQ_OPS and not ranged:
            continue
        labels = candidate_labels(schema, q, lids, key)
        if not labels:
            return IndexPlan()  # no label has the key: nothing matches
        pk = schema.property_key(key)
        if pk is None:
            return IndexPlan() if not schema.auto else None
        plan = IndexPlan(condition=(key, p))
        for name in labels:
            il = find_index(schema.index_labels_for(q.kind, name), key, ranged)
            if il is None:
                plan = None
                break
            plan.indexes.append(il)
            if not _add_lookup(schema, plan, il, pk, p, ranged):
                plan = None
                break
        if plan is not None:
            return plan
    return None


def _add_lookup(schema: SchemaBridge, plan: IndexPlan, il: IndexLabel, pk: Any, p: Any, ranged: bool) -> bool:
    if ranged:
        lo, hi, lo_incl, hi_incl = _range_bounds(p)
        try:
            lo_v = None if lo is None else schema.index_lookup_value(il, [_coerce_single(schema, pk, lo)])
            hi_v = None if hi is None else schema.index_lookup_value(il, [_coerce_single(schema, pk, hi)])
        except IllegalArgument:
            return False  # incomparable bound: let the scan's P.test decide
        plan.ranges.append((il.id, lo_v, hi_v, lo_incl, hi_incl))
        return True
    plan.eq.append((il.id, _lookup_values(schema, il, pk, p)))
    return True


def _lookup_values(schema: SchemaBridge, il: Any, pk: Any, p: Any) -> list[Any]:
    """The index lookup values of an equality predicate's values; a value of another type
    than the key's matches nothing and is left out."""
    values = []
    for v in _values_of(p) or ():
        try:
            values.append(schema.index_lookup_value(il, [_coerce_single(schema, pk, v)]))
        except IllegalArgument:
            continue
    return values
