"""Records to vertex and edge items: the item maps the REST batch endpoints take.

A vertex item is `{"label", "id", "properties"}`, an edge item `{"label", "id", "outV", "inV",
"outVLabel", "inVLabel", "properties"}`: exactly what `POST .../vertices/batch` and
`.../edges/batch` carry, so the in-process load and the REST load send the same thing and
the engine applies its rules to both alike.

What the loader must work out itself is an edge's end vertex ids, since a row names its end
vertices by their primary key values or customized ids: the id is made with the engine's one
id codec (`structure/ids.py`) from values converted by the engine's own coercion, never by
a second copy of either. The schema comes as HugeGraph schema JSON (`GET /schema`, or
`graph.schema.schema_json()` in process), so both modes read it the same way.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from gremlin_engine.errors import IllegalArgument
from gremlin_engine.io.field_values import FieldError, ValueReader
from gremlin_engine.io.mapping import ElementMapping, InputSpec, MappingError
from gremlin_engine.schema.coercion import coerce
from gremlin_engine.schema.model import EdgeLabel, IdStrategy, PropertyKey, VertexLabel
from gremlin_engine.structure import ids as idc


class SchemaFacts:
    """The schema as the loader needs it, read from HugeGraph schema JSON."""

    def __init__(self, schema_json: dict[str, Any], auto: bool = False) -> None:
        self.auto = auto
        self.keys = {d["name"]: PropertyKey.from_json(d) for d in schema_json.get("propertykeys") or ()}
        self.vertex_labels = {d["name"]: VertexLabel.from_json(d) for d in schema_json.get("vertexlabels") or ()}
        self.edge_labels = {d["name"]: EdgeLabel.from_json(d) for d in schema_json.get("edgelabels") or ()}

    def vertex_label(self, name: str, ctx: str) -> VertexLabel | None:
        vl = self.vertex_labels.get(name)
        if vl is None and not self.auto:
            raise MappingError(f"{ctx}: the graph has no vertex label '{name}' (load the schema first: --schema)")
        return vl

    def edge_ends(self, name: str, ctx: str) -> tuple[EdgeLabel | None, str | None, str | None]:
        el = self.edge_labels.get(name)
        if el is None:
            if not self.auto:
                raise MappingError(f"{ctx}: the graph has no edge label '{name}' (load the schema first: --schema)")
            return None, None, None
        source, target = el.source_label, el.target_label
        if (source is None or target is None) and len(el.links) == 1:
            source, target = el.links[0]
        if source is None or target is None:
            raise MappingError(f"{ctx}: edge label '{name}' has several source/target labels; map a sub-label")
        return el, source, target


class RowError(IllegalArgument):
    """A record that cannot become its element; the message names the column."""


@dataclass
class _End:
    """How one end of an edge is identified: its label, its strategy, and which columns
    give which primary key (or the id itself); `ids` remembers the ids made so far (the same
    vertices end many edges)."""

    label: VertexLabel | None
    name: str
    columns: tuple[str, ...]
    ids: dict[Any, Any] = field(default_factory=dict)


#: end vertex ids remembered per edge end before the memo starts afresh
_END_MEMO = 1 << 17


class ElementBuilder:
    """One mapping's rule for turning a record's fields into an item."""

    def __init__(self, mapping: ElementMapping, facts: SchemaFacts, spec: InputSpec, ctx: str) -> None:
        self.mapping = mapping
        self.facts = facts
        self.values = ValueReader(spec)
        self.ctx = f"{ctx}, {mapping.kind} '{mapping.label}'"
        self._checked: tuple[str, ...] | None = None
        #: items of one mapping kind and update strategies are written together
        self.group = (mapping.kind, tuple(sorted(mapping.update_strategies.items())))
        #: per column order: (column, key, quick converter, property key) of kept columns
        self._plans: dict[tuple[str, ...], list[tuple[str, str, Any, PropertyKey | None]]] = {}
        if mapping.kind == "vertex":
            self.vl = facts.vertex_label(mapping.label, self.ctx)
            if self.vl is not None:
                self._check_vertex_id(self.vl)
        else:
            self.el, source, target = facts.edge_ends(mapping.label, self.ctx)
            self.source = self._end(source, mapping.source, "source")
            self.target = self._end(target, mapping.target, "target")

    # ---- checks made once -------------------------------------------------------------
    def _check_vertex_id(self, vl: VertexLabel) -> None:
        strategy = vl.id_strategy
        if strategy == IdStrategy.PRIMARY_KEY and self.mapping.id:
            raise MappingError(f"{self.ctx}: label '{vl.name}' takes its id from primary keys; remove 'id'")
        if strategy.value.startswith("CUSTOMIZE") and not self.mapping.id:
            raise MappingError(f"{self.ctx}: label '{vl.name}' uses {strategy.value} ids; name the id column in 'id'")
        if strategy in (IdStrategy.AUTOMATIC, IdStrategy.DEFAULT) and self.mapping.id:
            raise MappingError(f"{self.ctx}: label '{vl.name}' uses AUTOMATIC ids; remove 'id'")

    def _end(self, label: str | None, columns: tuple[str, ...], which: str) -> _End:
        vl = self.facts.vertex_label(label, self.ctx) if label is not None else None
        if vl is not None:
            if vl.id_strategy == IdStrategy.PRIMARY_KEY:
                keys = [self.mapping.key_of(c) for c in columns]
                if sorted(keys) != sorted(vl.primary_keys):
                    raise MappingError(
                        f"{self.ctx}: the {which} columns {list(columns)} map to {keys}, but the primary keys "
                        f"of '{vl.name}' are {list(vl.primary_keys)} (use field_mapping)")
            elif len(columns) != 1:
                raise MappingError(f"{self.ctx}: '{vl.name}' has {vl.id_strategy.value} ids: one {which} column")
        return _End(vl, label or "", columns)

    def check_columns(self, columns: Iterable[str]) -> None:
        """Refuses, once per file, a column that would become an unknown or foreign key."""
        cols = columns if isinstance(columns, tuple) else tuple(columns)
        if cols == self._checked:
            self._checked = cols
            return
        if self.facts.auto:
            self._checked = cols
            return
        m = self.mapping
        owner = self.vl if m.kind == "vertex" else self.el
        allowed = set(owner.properties) if owner is not None else set()
        for c in cols:
            if m.keeps(c) and m.key_of(c) not in allowed:
                raise MappingError(
                    f"{self.ctx}: column '{c}' maps to '{m.key_of(c)}', which is not a property of "
                    f"'{m.label}' ({sorted(allowed)}); add it to 'ignored' or map it with field_mapping")
        needed = ([m.id] if m.id else []) + list(m.source) + list(m.target)
        missing = [c for c in needed if c not in cols]
        if missing:  # a row's fault (a JSON line may lack a key the others have)
            raise RowError(f"the record has no column(s) {missing}; its columns are {list(cols)}")
        self._checked = cols

    # ---- per record ---------------------------------------------------------------------
    def _field(self, column: str, raw: Any) -> Any:
        """The field after value_mapping and null_values (None: no value)."""
        m = self.mapping
        if m.value_mapping:
            table = m.value_mapping.get(column)
            if table is not None and str(raw) in table:
                raw = table[str(raw)]
        if raw is None or (type(raw) is str and raw in m.null_values):
            return None
        return raw

    def _value(self, key: str, raw: Any, column: str) -> Any:
        pk = self.facts.keys.get(key)
        if pk is None:
            return raw  # auto mode: the engine infers the key
        try:
            return self.values.read(pk, raw)
        except FieldError as e:
            raise RowError(f"column '{column}': {e}") from None

    def _plan(self, columns: tuple[str, ...]) -> list[tuple[str, str, Any, dict[str, Any] | None]]:
        """(column, key, quick converter or None, value_mapping table or None) of the kept
        columns, made once per column order."""
        plan = self._plans.get(columns)
        if plan is None:
            if len(self._plans) > 64:  # JSON lines with ever new key sets
                self._plans.clear()
            m = self.mapping
            plan = []
            for column in columns:
                if m.keeps(column):
                    key = m.key_of(column)
                    pk = self.facts.keys.get(key)
                    convert = self.values.converter(pk) if pk is not None else None
                    plan.append((column, key, convert, m.value_mapping.get(column)))
            self._plans[columns] = plan
        return plan

    def properties(self, fields: dict[str, Any], columns: tuple[str, ...]) -> dict[str, Any]:
        out: dict[str, Any] = {}
        nulls = self.mapping.null_values
        for column, key, convert, table in self._plan(columns):
            value = fields[column]
            if table is not None and str(value) in table:
                value = table[str(value)]
            if value is None or (type(value) is str and value in nulls):
                continue
            if convert is None:
                out[key] = value
                continue
            try:
                out[key] = convert(value) if type(value) is str else self._value(key, value, column)
            except ValueError:
                out[key] = self._value(key, value, column)  # raises RowError naming the column
        return out

    def item(self, fields: dict[str, Any], columns: tuple[str, ...] | None = None) -> dict[str, Any]:
        """The item of one record; `columns` is `tuple(fields)` (an input's header tuple,
        the same object for all its rows, which makes the once-per-file checks cheap)."""
        if columns is None:
            columns = tuple(fields)
        if columns is not self._checked:
            self.check_columns(columns)
        props = self.properties(fields, columns)
        m = self.mapping
        if m.kind == "vertex":
            vid = None
            if m.id:
                vid = self._id(self.vl, fields, m.id)
            return {"label": m.label, "id": vid, "properties": props}
        return {"label": m.label, "id": None, "outV": self._end_id(self.source, fields),
                "inV": self._end_id(self.target, fields), "outVLabel": self.source.name,
                "inVLabel": self.target.name, "properties": props}

    def _id(self, vl: VertexLabel | None, fields: dict[str, Any], column: str) -> Any:
        raw = self._field(column, fields.get(column))
        if raw is None:
            raise RowError(f"column '{column}': the id is empty")
        strategy = vl.id_strategy if vl is not None else None
        if strategy in (IdStrategy.CUSTOMIZE_NUMBER, IdStrategy.AUTOMATIC, IdStrategy.DEFAULT):
            try:
                return int(str(raw).strip())
            except ValueError:
                raise RowError(f"column '{column}': the id '{raw}' is not a number ({strategy.value})") from None
        return str(raw) if strategy is not None else raw

    def _end_id(self, end: _End, fields: dict[str, Any]) -> Any:
        columns = end.columns
        key: Any = fields.get(columns[0]) if len(columns) == 1 else tuple([fields.get(c) for c in columns])
        found = end.ids.get(key)
        if found is None:
            found = self._make_end_id(end, fields)
            if len(end.ids) >= _END_MEMO:
                end.ids.clear()
            end.ids[key] = found
        return found

    def _make_end_id(self, end: _End, fields: dict[str, Any]) -> Any:
        vl = end.label
        if vl is None or vl.id_strategy != IdStrategy.PRIMARY_KEY:
            return self._id(vl, fields, end.columns[0])
        by_key = {self.mapping.key_of(c): c for c in end.columns}
        parts = []
        for key in vl.primary_keys:
            column = by_key[key]
            raw = self._field(column, fields.get(column))
            if raw is None:
                raise RowError(f"column '{column}': primary key '{key}' of '{vl.name}' is empty")
            pk = self.facts.keys[key]
            try:
                value = coerce(pk, self._value(key, raw, column))
            except IllegalArgument as e:
                raise RowError(f"column '{column}': {e}") from None
            parts.append((value, pk.data_type.value))
        return idc.primary_key_id(vl.id, parts)
