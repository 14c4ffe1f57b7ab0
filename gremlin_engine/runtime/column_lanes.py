"""The column lanes of write plans: a whole batch checked, coerced and encoded column by column.

`VertexPlan.prepare_row` / `EdgePlan.prepare_row` (`runtime/write_plans.py`) settle one
element at a time. A REST batch is nearly always one label whose items carry the same few
`raw` keys, and for such a batch every step (type checks, coercion, key order, stored
texts, ids) can run once per column with C-level maps instead of once per element. The
lanes here give exactly what `prepare_row` gives each element, or None when any element is
not of that shape, and the caller then takes `prepare_row` for all of them. They are mixed
into the plans (`VertexColumns`, `EdgeColumns`) and read the plans' own attributes.
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import repeat
from math import isfinite
from operator import attrgetter, getitem
from typing import Any

import orjson

from gremlin_engine.runtime.key_plans import KeyPlan, end_part, key_order
from gremlin_engine.structure.elements import Vertex
from gremlin_engine.structure.numbers import INT_MAX, INT_MIN, Int

_STR = {str}
_FLOAT = {float}
_FLOAT_INT = {float, int}
_INTS = {int, Int}
_BOOL = {bool}
_DICT = {dict}
_LABEL = attrgetter("label")
_ID = attrgetter("id")

#: what a lane returns: (ids, values in key-id order, stored texts), one entry per element
Lane = tuple[list[str], list[dict[str, Any]], list[str]]


class VertexColumns:
    """The column lane of `VertexPlan` (see its attributes there)."""

    __slots__ = ()
    keys: dict[str, KeyPlan]
    orders: dict[tuple[str, ...], tuple[str, ...] | None]
    pk_text: str | None
    id_prefix: str
    needed: tuple[str, ...]
    needed_loading: tuple[str, ...]

    def prepare_columns(self, ids: Sequence[Any], props: Sequence[Any], loading: bool) -> Lane | None:
        """`prepare_row` for a whole batch of a label with one TEXT primary key, column by
        column: (vertex ids, flat values in key-id order, stored texts), what `prepare_row`
        gives each element, or None when any element needs `prepare_row`.

        Covered: no id given, every element's properties a dict with the same keys, all of
        them `raw`, the required ones among them, every value coerced column-wise, every
        primary key value starting above U+0003 (`key_plans._key_part` inline). A REST
        vertex batch of such a label; anything else is None."""
        pk = self.pk_text
        if pk is None or ids.count(None) != len(ids):
            return None
        found = _ordered_columns(self.keys, self.orders, props, self.needed_loading if loading else self.needed)
        if found is None:
            return None
        given, columns, values, texts = found
        if pk not in given:
            return None
        names_col = columns[given.index(pk)]
        if min(names_col) < "\u0004":  # empty, or starting at or below U+0003
            return None
        prefix = self.id_prefix
        joined = "".join(names_col)
        if "!" in joined or ":" in joined:
            vids = [prefix + n.replace("!", "`!").replace(":", "`:") for n in names_col]
        else:
            vids = [prefix + n for n in names_col]
        return vids, values, texts


class EdgeColumns:
    """The column lane of `EdgePlan` (see its attributes there)."""

    __slots__ = ()
    keys: dict[str, KeyPlan]
    orders: dict[tuple[str, ...], tuple[str, ...] | None]
    links: set[tuple[str, str]]
    sort_parts: tuple[tuple[str, str], ...]
    id_middle: str
    needed: tuple[str, ...]
    needed_loading: tuple[str, ...]

    def prepare_columns(self, outs: list[Vertex], ins: list[Vertex], props: Sequence[Any], loading: bool) -> Lane | None:
        """`prepare_row` for a whole batch, column by column: (edge ids, properties in key-id
        order, stored texts), the same values `prepare_row` gives each element, or None
        when any element needs `prepare_row` (the caller then takes that path for all).

        Covered: every pair of end labels allowed, no sort keys, every element's properties
        a dict with the same keys in the same order, all of them `raw` keys, the required
        ones among them, every value coerced column-wise (`_raw_column`). That is a REST edge
        batch; anything else is None."""
        out_ids = list(map(_ID, outs))
        in_ids = list(map(_ID, ins))
        if plain_end_ids(out_ids, in_ids):
            return self.prepare_id_columns(out_ids, in_ids, list(map(_LABEL, outs)), list(map(_LABEL, ins)), props, loading)
        columns = self._value_columns(list(map(_LABEL, outs)), list(map(_LABEL, ins)), props, loading)
        if columns is None:
            return None
        middle = self.id_middle + ">"
        parts: dict[int, str] = {}
        eids = [end_part(o, parts) + middle + end_part(i, parts) for o, i in zip(outs, ins, strict=True)]
        return eids, columns[0], columns[1]

    def prepare_id_columns(
        self, out_ids: list[str], in_ids: list[str], out_labels: list[str], in_labels: list[str], props: Sequence[Any],
        loading: bool,
    ) -> Lane | None:
        """`prepare_columns` from the end vertices' ids and labels alone, for ends whose ids
        are strings without a `>` (`plain_end_ids`: an end's id part is `S` + its id, no
        escape, no storage key needed). The prepare phase of a REST edge batch calls it
        before any vertex is looked up (`runtime/batch_prepare.py`): the labels are the ones
        the items name, which the write phase then checks against the vertices found."""
        columns = self._value_columns(out_labels, in_labels, props, loading)
        if columns is None:
            return None
        middle = self.id_middle + ">S"
        eids = [f"S{o}{middle}{i}" for o, i in zip(out_ids, in_ids, strict=True)]
        return eids, columns[0], columns[1]

    def _value_columns(
        self, out_labels: list[str], in_labels: list[str], props: Sequence[Any], loading: bool
    ) -> tuple[list[dict[str, Any]], list[str]] | None:
        """(properties in key-id order, stored texts) of a batch `prepare_columns` covers,
        else None."""
        if self.sort_parts or not _links_allow(self.links, out_labels, in_labels):
            return None
        found = _ordered_columns(self.keys, self.orders, props, self.needed_loading if loading else self.needed)
        return None if found is None else (found[2], found[3])


def plain_end_ids(out_ids: list[Any], in_ids: list[Any]) -> bool:
    """Every end id a string without `>`: its edge-id part is `S` + the id, unescaped."""
    return (
        set(map(type, out_ids)) == _STR == set(map(type, in_ids))
        and ">" not in "".join(out_ids) and ">" not in "".join(in_ids)
    )


def _ordered_columns(
    keys: dict[str, KeyPlan], orders: dict[tuple[str, ...], tuple[str, ...] | None], props: Sequence[Any],
    needed: tuple[str, ...],
) -> tuple[tuple[str, ...], list[list[Any]], list[dict[str, Any]], list[str]] | None:
    """(the keys and their columns, both in key-id order, the row dicts, their stored
    texts) of a batch whose columns `_raw_columns` takes and whose keys include every
    `needed` one; None otherwise. What the vertex and edge lanes share."""
    found = _raw_columns(keys, props)
    if found is None:
        return None
    given, columns = found
    if not set(given).issuperset(needed):
        return None
    if len(given) > 1:
        wanted = key_order(given, keys, orders)
        if wanted is not None:
            columns = [columns[given.index(k)] for k in wanted]
            given = wanted
    values = _dicts(given, columns, len(props))
    return given, columns, values, list(map(bytes.decode, map(orjson.dumps, values)))


def _raw_columns(keys: dict[str, KeyPlan], props: Sequence[Any]) -> tuple[tuple[str, ...], list[list[Any]]] | None:
    """(the keys, their coerced values column by column) of a batch whose every element's
    properties are a dict with the same keys, all of them known `raw` keys whose values
    `_raw_column` takes; None otherwise."""
    if set(map(type, props)) != _DICT or len(set(map(len, props))) != 1:
        return None
    given = tuple(props[0])  # every dict has as many keys, each of these (below): the same keys
    columns = []
    try:
        for key in given:
            kp = keys.get(key)
            if kp is None or not kp.raw or type(key) is not str:
                return None
            col = _raw_column(kp.data_type, list(map(getitem, props, repeat(key))))
            if col is None:
                return None
            columns.append(col)
    except KeyError:  # some element has other keys
        return None
    return given, columns


def _raw_column(data_type: str, col: list[Any]) -> list[Any] | None:
    """A `raw` key's values for a whole batch, coerced column-wise exactly as its plan's
    coercer would coerce each (`key_plans._exact_text`, `_finite_double`, `coercion.coercer`
    for INT and BOOLEAN); None when any value would need more (the row path decides then)."""
    types = set(map(type, col))
    if data_type == "TEXT":
        return col if types == _STR else None
    if data_type == "DOUBLE":
        if not types <= _FLOAT_INT:
            return None
        if types != _FLOAT:
            try:
                col = list(map(float, col))
            except OverflowError:
                return None
        return col if all(map(isfinite, col)) else None
    if data_type == "INT":
        if types <= _INTS and INT_MIN <= min(col) and max(col) <= INT_MAX:
            return list(map(Int, col))
        return None
    if data_type == "BOOLEAN":
        return col if types == _BOOL else None
    return None


def _links_allow(links: set[tuple[str, str]], out_labels: list[str], in_labels: list[str]) -> bool:
    """Every (out label, in label) pair of the batch is among `links` (one label each side,
    the usual batch, is one test)."""
    if all((a, b) in links for a in set(out_labels) for b in set(in_labels)):
        return True
    return links.issuperset(zip(out_labels, in_labels, strict=True))


def _dicts(names: tuple[str, ...], columns: list[list[Any]], n: int) -> list[dict[str, Any]]:
    """One dict per row of `columns` (keys `names`, in that order): the row dicts of a batch."""
    if len(names) == 1:
        (k,) = names
        return [{k: v} for v in columns[0]]
    if len(names) == 2:
        k0, k1 = names
        return [{k0: a, k1: b} for a, b in zip(*columns, strict=True)]
    if len(names) == 3:
        k0, k1, k2 = names
        return [{k0: a, k1: b, k2: c} for a, b, c in zip(*columns, strict=True)]
    if not names:
        return [{} for _ in range(n)]
    return [dict(zip(names, row, strict=True)) for row in zip(*columns, strict=True)]
