"""Equality index reads of `V().hasLabel(labels).has(conditions)`, planned once per schema
snapshot and shape.

`query.split` / `label_ids` / `primary_key_ids` / `index_plan` decide, per request, which
index answers a lookup. For the fused `indexIds` root (`StoreAccess.point_index_ids`) those
decisions do not depend on the condition values, so `index_recipe` makes them once, and the
caller caches the `EqRecipe` on the schema snapshot (`SchemaBridge.derived`). The recipe
also holds what is per key: the prepared `IndexQuery` of each lookup, the function that
turns one condition value into that index's lookup value (the coercion and encoding rules
chosen for the key's type once), the label-id set, and whether the index's match is exact.
Per request only the values are left (`eq_lookups`).

Exact: an index read normally only narrows the candidates and every condition is re-tested
on the rows. The re-test is skipped only where the index decides the condition exactly:
the one condition is `eq`/`within` on a SINGLE key served by secondary or unique indexes,
and every value sought is of a type whose entry text is one-to-one with its equality
(`_EXACT_TYPES`):

* a TEXT key and plain `str` values: the one-field `indexing.secondary_value` of a string is
  the string, a TEXT property holds only strings, and Gremlin equality of two strings is
  `==`;
* a BYTE/INT/LONG key and integer values (not bool, not float): the entry is the decimal
  text of the integer, a property of such a key holds only integers, and Gremlin equality
  of integers is equality of their values, whatever their Java types.

So an entry matches exactly when the property does. Every other key type keeps the
re-test (floats, dates and blobs go through encodings where this is not so plain: NaN,
-0.0, time zones), as do multi-properties and every request with a value of another type.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from gremlin_engine.errors import IllegalArgument
from gremlin_engine.runtime.query import (
    EQ_OPS,
    RANGE_OPS,
    candidate_labels,
    find_index,
    index_plan,
    label_ids,
    primary_key_ids,
    split,
)
from gremlin_engine.runtime.schema_bridge import SchemaBridge
from gremlin_engine.schema import coercion, indexing
from gremlin_engine.schema.model import Cardinality, DataType, IdStrategy, IndexLabel, IndexType
from gremlin_engine.structure.numbers import Byte, Int, Long
from storage import IndexProject, IndexQuery

#: index types whose one-field entry is `indexing.secondary_value`'s text of the value
_TEXT_EXACT_INDEXES = (IndexType.SECONDARY, IndexType.UNIQUE)
_INTEGERS = frozenset({int, Byte, Int, Long})
#: per key type, the value types a text entry decides equality for exactly (see module)
_EXACT_TYPES = {
    DataType.TEXT: frozenset({str}),
    DataType.BYTE: _INTEGERS,
    DataType.INT: _INTEGERS,
    DataType.LONG: _INTEGERS,
}

Encode = Callable[[Any], Any]


@dataclass(frozen=True)
class EqRecipe:
    """What an equality index read needs whatever the condition values are: the label ids
    (None: all) and the same as a set (`allowed`), per lookup the prepared query and the
    value encoder, which condition the lookups serve, and the value types for which the
    index answers that condition exactly (see module; empty: never). `reads` None: nothing
    can match."""

    lids: list[int] | None
    reads: tuple[tuple[IndexQuery, Encode], ...] | None
    condition: int = 0
    exact_types: frozenset[type] = frozenset()
    allowed: frozenset[int] | None = None


#: "an index read cannot answer this exactly": the caller takes the general path
GENERAL: Any = "general"


def index_recipe(schema: SchemaBridge, labels: Sequence[str] | None, conditions: Sequence[Any]) -> Any:
    """`EqRecipe`, `GENERAL`, or None when the choice depends on the values (an id or label
    condition, a range condition: the caller plans with them). The same decisions as
    `split`, `label_ids`, `primary_key_ids` and `index_plan` make, without the values."""
    if any(type(key) is not str for key, _p in conditions):
        return None
    q = split("vertex", None, labels, conditions)
    if q.empty:
        return EqRecipe(None, None)
    if not q.props:
        return GENERAL
    lids = label_ids(schema, q)
    if lids is not None and not lids:
        return EqRecipe(lids, None)
    if _pk_shortcut(schema, q.props, lids):
        return GENERAL
    allowed = frozenset(lids) if lids is not None else None
    for n, (key, p) in enumerate(q.props):
        if p.op in RANGE_OPS:
            return None
        if p.op not in EQ_OPS:
            continue
        names = candidate_labels(schema, q, lids, key)
        pk = schema.property_key(key)
        if not names or pk is None:
            return EqRecipe(lids, None)
        found: list[IndexLabel] = []
        for name in names:
            il = find_index(schema.index_labels_for(q.kind, name), key, False)
            if il is None:
                break
            found.append(il)
        else:
            reads = tuple((IndexQuery(il.id, project=IndexProject.VERTICES), _encoder(il, pk)) for il in found)
            return EqRecipe(lids, reads, n, exact_value_types(pk, found, len(q.props) == 1), allowed)
    return GENERAL


def exact_value_types(pk: Any, indexes: Sequence[IndexLabel], lone: bool) -> frozenset[type]:
    """The value types for which the entries of `indexes` (one per candidate label) decide an
    `eq`/`within` condition on key `pk` exactly (see module); empty when the condition is not
    the `lone` one, the key is not SINGLE, or an index is not secondary or unique. Asked by
    `index_recipe` and by `StoreAccess.count`, which counts index entries only when so."""
    if not lone or pk.cardinality is not Cardinality.SINGLE:
        return frozenset()
    if not all(il.index_type in _TEXT_EXACT_INDEXES for il in indexes):
        return frozenset()
    return _EXACT_TYPES.get(pk.data_type, frozenset())


def values_sought(p: Any) -> list[Any]:
    """The values an `eq` or `within` predicate seeks."""
    return [p.value] if p.op == "eq" else list(p.value)


def _pk_shortcut(schema: SchemaBridge, props: Sequence[tuple[str, Any]], lids: list[int] | None) -> bool:
    """Whether `query.primary_key_ids` gives candidate ids (a list, perhaps empty)."""
    if lids is None or not lids or not props:
        return False
    eq_keys = {key for key, p in props if p.op in EQ_OPS}
    for lid in lids:
        vl = schema.vertex_label_by_id(lid)
        if vl.id_strategy != IdStrategy.PRIMARY_KEY or not vl.primary_keys:
            return False
        if any(k not in eq_keys or schema.property_key(k) is None for k in vl.primary_keys):
            return False
    return True


def _encoder(il: IndexLabel, pk: Any) -> Encode:
    """One condition value -> `il`'s lookup value (what `query._lookup_values` computes per
    value), IllegalArgument for a value of another type than the key's (it matches nothing).
    The key is made SINGLE once here (a query value is one value of a multi-property), and
    a string sought on a TEXT key's secondary/unique index is its own entry."""
    single = pk if pk.cardinality is Cardinality.SINGLE else dataclasses.replace(pk, cardinality=Cardinality.SINGLE)
    coerce, lookup_value = coercion.coerce, indexing.lookup_value

    def encode(v: Any) -> Any:
        if isinstance(v, list | tuple | set | frozenset):
            raise IllegalArgument("collection")
        return lookup_value(il, [coerce(single, v)])

    if pk.data_type is DataType.TEXT and il.index_type in _TEXT_EXACT_INDEXES:

        def encode_text(v: Any) -> Any:
            return v if type(v) is str else encode(v)

        return encode_text
    return encode


def eq_lookups(recipe: EqRecipe, conditions: Sequence[Any]) -> tuple[list[tuple[IndexQuery, list[Any]]], bool]:
    """The (query, lookup values) pairs of `recipe` for the values of `conditions`, and
    whether the rows they find need no re-test (every value is of a type the recipe's
    index decides exactly). Values that cannot match (another type than the key's) are left out."""
    wanted = values_sought(conditions[recipe.condition][1])
    out: list[tuple[IndexQuery, list[Any]]] = []
    for query, encode in recipe.reads or ():
        values = []
        for v in wanted:
            try:
                values.append(encode(v))
            except IllegalArgument:
                continue
        out.append((query, values))
    exact_types = recipe.exact_types
    return out, bool(exact_types) and all(type(v) in exact_types for v in wanted)


def planned_lookups(schema: SchemaBridge, labels: Sequence[str] | None, conditions: Sequence[Any]) -> Any:
    """The lookups of a shape `index_recipe` cannot plan without the values (it gave None),
    planned with them as `query.index_plan` does: `(lookups, allowed label ids, property
    conditions to re-test)`, empty lookups when nothing can match, or None for the general
    path (id or label tests, a primary-key label, a range, no equality index)."""
    q = split("vertex", None, labels, conditions)
    if q.empty:
        return [], None, []
    if q.ids is not None or q.id_tests or q.label_tests or not q.props:
        return None
    lids = label_ids(schema, q)
    if lids is not None and not lids:
        return [], None, []
    if primary_key_ids(schema, q, lids) is not None:
        return None
    plan = index_plan(schema, q, lids)
    if plan is None or plan.ranges:
        return None
    lookups = [(IndexQuery(index_id, project=IndexProject.VERTICES), values) for index_id, values in plan.eq]
    return lookups, (frozenset(lids) if lids is not None else None), q.props
