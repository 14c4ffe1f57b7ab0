"""HugeGraph property conditions: `properties={"age": "P.gt(29)", "city": "Beijing"}`.

A REST query's `properties` object maps keys to either a plain value (equality) or a
predicate written as text, `P.<name>(args)` (spec: Property conditions). `parse_conditions`
turns the object into the engine's `(key, P)` pairs, with every value coerced to its
property key's type so that `P.gt("2017-01-01")` compares dates with dates.

HugeGraph answers property queries from indexes only: `require_index` refuses a query whose
conditions no index label (or the primary key) can answer, with HugeGraph's
`Don't accept query based on properties [...]` message, before anything is scanned.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Mapping, Sequence
from typing import Any

import orjson

from gremlin_engine.errors import IllegalArgument, NoIndexError, NotSupported, StepArgumentError
from gremlin_engine.schema.model import Cardinality, IndexType
from gremlin_engine.traversal.predicates import P, make_predicate

_CALL = re.compile(r"^\s*P\.(\w+)\s*\((.*)\)\s*$", re.S)
#: REST predicate names -> engine predicate names
_NAMES = {
    "eq": "eq", "neq": "neq", "lt": "lt", "lte": "lte", "gt": "gt", "gte": "gte",
    "between": "between", "inside": "inside", "outside": "outside", "within": "within",
    "contains": "eq", "textcontains": "containing",
}
EQ_OPS = frozenset({"eq", "within"})
RANGE_OPS = frozenset({"gt", "gte", "lt", "lte", "between", "inside", "outside", "neq"})


def _split_args(text: str) -> list[str]:
    """Top-level comma split that respects quotes and brackets."""
    out, depth, quote, cur = [], 0, "", []
    i = 0
    while i < len(text):
        c = text[i]
        if quote:
            cur.append(c)
            if c == "\\" and i + 1 < len(text):
                cur.append(text[i + 1])
                i += 1
            elif c == quote:
                quote = ""
        elif c in "\"'":
            quote = c
            cur.append(c)
        elif c in "[{(":
            depth += 1
            cur.append(c)
        elif c in "]})":
            depth -= 1
            cur.append(c)
        elif c == "," and depth == 0:
            out.append("".join(cur))
            cur = []
        else:
            cur.append(c)
        i += 1
    if "".join(cur).strip() or out:
        out.append("".join(cur))
    return [a.strip() for a in out]


def _arg_value(text: str) -> Any:
    """One predicate argument: a JSON literal when it parses, else the bare text."""
    if len(text) >= 2 and text[0] == text[-1] == "'":
        return text[1:-1]
    try:
        return orjson.loads(text)
    except orjson.JSONDecodeError:
        return text


def parse_predicate(text: str) -> P:
    """`P.gt(29)` -> the engine's `P('gt', 29)`; 400 `Invalid predicate: ...` otherwise."""
    m = _CALL.match(text)
    if m is None:
        raise IllegalArgument(f"Invalid predicate: {text}")
    name, raw = m.group(1), m.group(2)
    engine_name = _NAMES.get(name)
    if engine_name is None:
        raise NotSupported(f"Not support predicate '{name}' in {text}")
    args = [_arg_value(a) for a in _split_args(raw)]
    try:
        if engine_name == "within":
            return make_predicate("P", "within", [args])
        return make_predicate("P" if engine_name != "containing" else "TextP", engine_name, args)
    except StepArgumentError as e:
        raise IllegalArgument(f"Invalid predicate: {text} ({e})") from None


def _coerce_scalar(schema: Any, key: str, value: Any, auto: bool) -> Any:
    pk = schema.property_key(key)
    if pk is None:
        if auto:
            return value
        raise IllegalArgument(f"Undefined property key: '{key}'")
    if pk.cardinality != Cardinality.SINGLE:
        pk = dataclasses.replace(pk, cardinality=Cardinality.SINGLE)
    return schema.coerce(pk, value)


def _coerce_predicate(schema: Any, key: str, p: P, auto: bool) -> P:
    if p.op in ("and", "or"):
        return P(p.op, [_coerce_predicate(schema, key, x, auto) for x in p.value])
    if type(p) is not P or p.op in ("containing",):
        return p
    value = p.value
    if isinstance(value, list):
        value = [_coerce_scalar(schema, key, v, auto) for v in value]
    else:
        value = _coerce_scalar(schema, key, value, auto)
    return P(p.op, value)


def parse_conditions(
    schema: Any, props: Mapping[str, Any], keep_p: bool = False, auto: bool = False
) -> list[tuple[str, P]]:
    """`{"age": "P.gt(29)", "city": "Beijing"}` -> `[("age", gt(29)), ("city", eq("Beijing"))]`.

    `schema` is anything with `property_key(name)` and `coerce(pk, value)` (the schema
    service or the runtime's bridge). With `keep_p`, `P.` strings stay literal values; with
    `auto` (auto schema mode) unknown keys keep their values as given."""
    out: list[tuple[str, P]] = []
    for key, value in props.items():
        if isinstance(value, str) and value.startswith("P.") and not keep_p:
            p = parse_predicate(value)
        else:
            if value is None or isinstance(value, dict):
                raise IllegalArgument(f"Invalid property value {value!r} for key '{key}' in the query")
            p = P("eq", value)
        out.append((str(key), _coerce_predicate(schema, str(key), p, auto)))
    return out


def op_of(p: Any) -> str:
    op = getattr(p, "op", "")
    if op in ("and", "or"):
        return "range"
    return str(op)


# ---- "querying by property requires an index" --------------------------------------------


def _covered(schema: Any, kind: str, label: Any, key: str, op: str, eq_keys: set[str]) -> bool:
    indexes = schema.index_labels_for(kind, label.name)
    if op in EQ_OPS:
        if kind == "vertex" and key in label.primary_keys and all(k in eq_keys for k in label.primary_keys):
            return True
        return any(key in il.fields for il in indexes)
    if op == "containing":
        return any(il.index_type is IndexType.SEARCH and tuple(il.fields) == (key,) for il in indexes)
    return any(il.index_type.is_range and tuple(il.fields) == (key,) for il in indexes)


def _java_list(items: Sequence[str]) -> str:
    return "[" + ", ".join(items) + "]"


def require_index(schema: Any, kind: str, label_name: str | None, conditions: Sequence[tuple[str, Any]]) -> None:
    """Raises HugeGraph's NoIndex error when `conditions` on `label_name` (or on any label
    when None) cannot be answered by an index label or the primary key."""
    if getattr(schema, "auto", False):
        return  # auto mode is TinkerGraph-like: conditions are filters, no index needed
    labels: list[Any]
    if label_name is not None:
        lb = schema.vertex_label(label_name) if kind == "vertex" else schema.edge_label(label_name)
        if lb is None:
            raise IllegalArgument(f"Undefined {kind} label: '{label_name}'")
        labels = [lb]
        if not conditions and not lb.enable_label_index:
            raise NoIndexError(f"Don't accept query by label '{label_name}', label index is disabled")
    else:
        labels = list(schema.vertex_labels() if kind == "vertex" else schema.edge_labels())
    if not conditions:
        return
    keys = [k for k, _ in conditions]
    eq_keys = {k for k, p in conditions if op_of(p) in EQ_OPS}
    for key in keys:
        if schema.property_key(key) is None:
            raise IllegalArgument(f"Undefined property key: '{key}'")
    ranged = any(op_of(p) not in EQ_OPS for _, p in conditions)
    # a label answers the query when it has every key and an index (or the primary key)
    # for every condition; without a label, one such label is enough
    ok = [
        lb for lb in labels
        if all(k in lb.properties for k in keys)
        and all(_covered(schema, kind, lb, k, op_of(p), eq_keys) for k, p in conditions)
    ]
    if ok:
        return
    where = f"in label '{label_name}'" if label_name is not None else "in any label"
    suffix = ", may not match range condition" if ranged else ""
    raise NoIndexError(f"Don't accept query based on properties {_java_list(keys)} that are not indexed {where}{suffix}")
