"""HugeGraph batch writes as engine steps.

* `inject(item...).hgAddVertices()` creates (upserts) one vertex per item map.
* `inject(item...).hgAddEdges(check_vertex)` creates (upserts) one edge per item map; the
  end vertices of a batch are resolved with one lookup, their labels checked against
  `outVLabel`/`inVLabel`.
* `inject(item...).hgUpsert(kind, strategies)` is `PUT .../batch`: each item finds its
  element by the id HugeGraph would give it (primary keys, customized id, or the edge's
  (source, label, sort values, target)), merges old and new properties by the update
  strategies (`strategies.py`; duplicates inside the request are merged first), and writes
  the result. Elements that do not exist yet are created.

Gremlin has no step for these: `addV` cannot merge by strategy, and a chain of 500 `addV`
steps would compile 500 steps for one request. All writes go through `GraphAccess`, in the
caller's one transaction: a bad item fails the whole request and nothing is kept.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from operator import attrgetter
from typing import Any

from gremlin_engine.errors import IllegalArgument
from gremlin_engine.schema.model import IdStrategy
from gremlin_engine.structure import ids as idc
from gremlin_engine.structure.elements import Vertex
from gremlin_engine.traversal.steps.base import Step
from gremlin_engine.traversal.steps.hugegraph import elements as el_
from gremlin_engine.traversal.steps.hugegraph.strategies import check_strategies, merge_properties
from gremlin_engine.traversal.traverser import Context, Traverser, batches

#: items written per `add_vertices`/`add_edges` call: a whole REST batch (HugeGraph's limit
#: is 500 per request) in one storage round rather than the traversal's usual 256
WRITE_BATCH = 5000


def _objects(batch: list[Traverser]) -> list[tuple[Traverser, Any]]:
    out = []
    for t in batch:
        if t.bulk == 1:
            out.append((t, t.obj))
        else:
            out.extend((t, t.obj) for _ in range(t.bulk))
    return out


class _BatchWriteStep(Step):
    """What `hgAddVertices` and `hgAddEdges` share: items in, one write per batch.

    `g.inject(items...)` with nothing to track hands its objects over as a tuple
    (`InjectedStream.injected`): the items are written straight from it, and the written
    elements come out as fresh traversers, without an input traverser per item. Any other
    input (a mid-traversal stream, paths, sacks, bulks) takes the general path, whose output
    traversers are `t.split(element)` of the input ones."""

    mutating = True

    def process(self, it: Iterator[Traverser], ctx: Context) -> Iterator[Traverser]:
        injected = getattr(it, "injected", None)
        if injected is not None:
            return WrittenStream(None, self._plain(injected, ctx))
        return WrittenStream(self._written(it, ctx))

    def _plain(self, objs: tuple[Any, ...], ctx: Context) -> Iterator[list[Any]]:
        size = max(ctx.batch_size, WRITE_BATCH)
        for start in range(0, len(objs), size):
            ctx.check()
            yield self._write(objs if len(objs) <= size else objs[start:start + size], ctx)

    def _written(self, it: Iterator[Traverser], ctx: Context) -> Iterator[tuple[list[tuple[Traverser, Any]], list[Any]]]:
        for batch in batches(it, max(ctx.batch_size, WRITE_BATCH), ctx):
            pairs = _objects(batch)
            yield pairs, self._write([obj for _t, obj in pairs], ctx)

    def _write(self, objs: Sequence[Any], ctx: Context) -> list[Any]:
        raise NotImplementedError


class AddVerticesStep(_BatchWriteStep):
    """`hgAddVertices()`: each incoming `{"label", "id"?, "properties"}` becomes a vertex.

    One `GraphAccess` call per batch when the access offers the batched form
    `add_vertices([(label, id, props)]) -> [Vertex]` (likewise `add_edges([(label, out_v,
    in_v, props)]) -> [Edge]` for `hgAddEdges`); otherwise one `add_vertex` per item. The
    batched forms take an item's properties as its dict when it is one (a JSON object)."""

    name = "hgAddVertices"

    def _write(self, objs: Sequence[Any], ctx: Context) -> list[Any]:
        access = ctx.access
        bulk_add = getattr(access, "add_vertices", None)
        name = self.name
        specs: list[tuple[Any, Any, Any]] = []  # (label, id, JSON object or property list)
        for obj in objs:
            item = obj if type(obj) is dict else el_.item_map(obj, name)
            props = item.get("properties")
            if type(props) is not dict or bulk_add is None:
                props = el_.item_property_list(item, "vertex")
            specs.append((item.get("label"), item.get("id"), props))
        if bulk_add is not None:
            return bulk_add(specs)  # type: ignore[no-any-return]
        return [access.add_vertex(label, vid, props) for label, vid, props in specs]


class AddEdgesStep(_BatchWriteStep):
    """`hgAddEdges(check_vertex)`: each incoming edge item map becomes an edge."""

    name = "hgAddEdges"

    def __init__(self, check_vertex: bool = True) -> None:
        super().__init__(check_vertex)
        self.check_vertex = bool(check_vertex)

    def _write(self, objs: Sequence[Any], ctx: Context) -> list[Any]:
        access = ctx.access
        schema = access.schema  # type: ignore[attr-defined]
        bulk_add = getattr(access, "add_edges", None)
        name = self.name
        items = [obj if type(obj) is dict else el_.item_map(obj, name) for obj in objs]
        ends = _EndIds(schema).pairs(items)
        found = _vertices_by_id(access, [x for pair in ends for x in pair])
        specs: list[tuple[Any, Vertex, Vertex, Any]] = []  # props: JSON object or property list
        for item, (out_id, in_id) in zip(items, ends, strict=True):
            out_label = item.get("outVLabel")
            out_v = found.get(out_id)
            if out_v is None or (out_label is not None and out_v.label != out_label):
                out_v = _end(found, out_id, out_label)  # raises
            in_label = item.get("inVLabel")
            in_v = found.get(in_id)
            if in_v is None or (in_label is not None and in_v.label != in_label):
                in_v = _end(found, in_id, in_label)  # raises
            props = item.get("properties")
            if type(props) is not dict or bulk_add is None:
                props = el_.item_property_list(item, "edge")
            specs.append((item.get("label"), out_v, in_v, props))
        if bulk_add is not None:
            return bulk_add(specs)  # type: ignore[no-any-return]
        return [access.add_edge(label, o, i, None, props) for label, o, i, props in specs]


class WrittenStream:
    """The output of a batch write step: `t.split(element)` for each input traverser.

    `POST .../batch` runs `hgAddVertices().id()`; an `id()` step reading this stream calls
    `id_stream()` instead of iterating it, and gets `t.split(element).split(element.id)`
    made in one go, so a REST element costs one traverser and one generator hop less. Only
    a direct `id()` reader does that (an `as()` label on the write step wraps the stream in
    another generator), so the element stays observable everywhere else. A write fed by
    `InjectedStream` (`plain`: lists of written elements) has no input traversers: its
    elements and ids come out as fresh traversers."""

    __slots__ = ("_written", "_plain", "_elements")

    def __init__(
        self,
        written: Iterator[tuple[list[tuple[Traverser, Any]], list[Any]]] | None,
        plain: Iterator[list[Any]] | None = None,
    ) -> None:
        self._written = written
        self._plain = plain
        self._elements: Iterator[Traverser] | None = None

    def __iter__(self) -> Iterator[Traverser]:
        if self._elements is None:
            if self._plain is not None:
                self._elements = FreshStream(self._plain)
            else:
                assert self._written is not None
                self._elements = _follow(self._written)
        return self._elements

    def __next__(self) -> Traverser:
        return next(iter(self))

    def object_chunks(self) -> Iterator[list[Any]] | None:
        """The written elements as lists (see `FreshStream`), or None when they come from
        input traversers."""
        return None if self._plain is None else iter(self).object_chunks()  # type: ignore[attr-defined]

    def id_stream(self) -> Iterator[Traverser]:
        """The ids of the written elements, as `id()` would make them (call before iterating)."""
        if self._plain is not None:
            return FreshStream(list(map(_ID, made)) for made in self._plain)
        assert self._written is not None
        return _follow_ids(self._written)


_ID = attrgetter("id")


class FreshStream:
    """Fresh traversers (bulk 1, no path, loops or sack: what the injected ones were) for
    objects that come in lists (written elements or their ids). A reader that wants the
    objects themselves, not traversers (`executor.objects`, the end of a REST batch), takes
    the lists from `object_chunks()` instead of iterating (call it before iterating)."""

    __slots__ = ("_chunks", "_traversers")

    def __init__(self, chunks: Iterator[list[Any]]) -> None:
        self._chunks = chunks
        self._traversers: Iterator[Traverser] | None = None

    def __iter__(self) -> Iterator[Traverser]:
        if self._traversers is None:
            self._traversers = self._fresh()
        return self._traversers

    def __next__(self) -> Traverser:
        return next(iter(self))

    def _fresh(self) -> Iterator[Traverser]:
        for chunk in self._chunks:
            yield from [Traverser(x, 1, None, (), None) for x in chunk]

    def object_chunks(self) -> Iterator[list[Any]] | None:
        """The objects, list by list; None once iteration has begun."""
        return self._chunks if self._traversers is None else None


def _follow(written: Iterator[tuple[list[tuple[Traverser, Any]], list[Any]]]) -> Iterator[Traverser]:
    """`t.split(element)` for each input traverser, built directly for the common traverser
    of a REST batch (no path, no sack to copy: `split` would do exactly this)."""
    for pairs, made in written:
        for (t, _obj), element in zip(pairs, made, strict=True):
            if t.path is None and t.sack is None:
                yield Traverser(element, t.bulk, None, t.loops, None)
            else:
                yield t.split(element)


def _follow_ids(written: Iterator[tuple[list[tuple[Traverser, Any]], list[Any]]]) -> Iterator[Traverser]:
    """`t.split(element).split(element.id)`, the element traverser skipped when no path or
    sack would record it."""
    for pairs, made in written:
        for (t, _obj), element in zip(pairs, made, strict=True):
            if t.path is None and t.sack is None:
                yield Traverser(element.id, t.bulk, None, t.loops, None)
            else:
                yield t.split(element).split(element.id)


class _EndIds:
    """`elements.end_id` for one batch, remembering which end labels take UUID ids (the
    only case where a string id needs the schema)."""

    __slots__ = ("schema", "uuid_labels", "plain")

    def __init__(self, schema: Any) -> None:
        self.schema = schema
        self.uuid_labels: dict[Any, bool] = {}
        self.plain: dict[str, bool] = {}  # labels whose (non-empty) string ids are used as given

    def __call__(self, value: Any, label: Any) -> Any:
        if type(value) is str and value:
            if not label:
                return value
            is_uuid = self.uuid_labels.get(label) if type(label) is str else True
            if is_uuid is None:
                vl = self.schema.vertex_label(label)
                is_uuid = self.uuid_labels[label] = vl is not None and vl.id_strategy == IdStrategy.CUSTOMIZE_UUID
                if not is_uuid:
                    self.plain[label] = True
            if not is_uuid:
                return value
        return el_.end_id(self.schema, value, label)

    def pairs(self, items: list[Mapping[str, Any]]) -> list[tuple[Any, Any]]:
        """(out id, in id) of each edge item, in item order (so the first bad one raises);
        a string id under a label already known to take it as given is not looked at again."""
        plain = self.plain
        out = []
        for i in items:
            o, ol = i.get("outV"), i.get("outVLabel")
            if not (type(o) is str and o and type(ol) is str and plain.get(ol)):
                o = self(o, ol)
            n, nl = i.get("inV"), i.get("inVLabel")
            if not (type(n) is str and n and type(nl) is str and plain.get(nl)):
                n = self(n, nl)
            out.append((o, n))
        return out


def _vertices_by_id(access: Any, ids: list[Any]) -> dict[Any, Vertex]:
    wanted = list(dict.fromkeys(ids))
    if not wanted:
        return {}
    lookup = getattr(access, "vertices_by_id", None)  # the runtime's lean batch lookup
    if lookup is not None:
        by_id: dict[Any, Vertex] = lookup(wanted)
        return by_id
    return {v.id: v for v in access.vertices(ids=wanted)}


def _end(found: Mapping[Any, Vertex], vid: Any, label: str | None) -> Vertex:
    v = found.get(vid)
    if v is None:
        raise IllegalArgument(f"Invalid vertex id '{el_.id_text(vid)}'")
    el_.check_end_label(v, label)
    return v


class UpsertStep(Step):
    """`hgUpsert(kind, strategies)`: HugeGraph's batch update (a barrier over the request)."""

    name = "hgUpsert"
    mutating = True

    def __init__(self, kind: str, strategies: Mapping[str, Any]) -> None:
        super().__init__(kind, strategies)
        if kind not in ("vertex", "edge"):
            raise IllegalArgument(f"hgUpsert(): kind must be 'vertex' or 'edge', not {kind!r}")
        self.kind = kind
        self.strategies = check_strategies(strategies)

    def process(self, it: Iterator[Traverser], ctx: Context) -> Iterator[Traverser]:
        items = [el_.item_map(obj, self.name) for batch in batches(it, ctx.batch_size, ctx) for _t, obj in _objects(batch)]
        if not items:
            return
        made = self._vertices(items, ctx) if self.kind == "vertex" else self._edges(items, ctx)
        for element in made:
            yield ctx.new_traverser(element)

    def _typed(self, schema: Any, props: dict[str, Any]) -> dict[str, Any]:
        """Strategy keys coerced to their types, so old and new values can be merged."""
        for key in self.strategies:
            if key in props:
                props[key] = el_.coerce_value(schema, key, props[key])
        return props

    # ---- vertices ---------------------------------------------------------------------------
    def _vertices(self, items: list[Mapping[str, Any]], ctx: Context) -> list[Any]:
        access = ctx.access
        schema = access.schema  # type: ignore[attr-defined]
        groups: dict[Any, list[Any]] = {}  # id -> [label, customized id or None, props]
        for item in items:
            label = item.get("label")
            vl = schema.vertex_label(label) if isinstance(label, str) else None
            if vl is None:
                raise IllegalArgument(f"Undefined vertex label: '{label}'")
            props = self._typed(schema, el_.item_properties(item, "vertex"))
            vid = el_.vertex_id_of(schema, vl, item, props)
            given = None if vl.id_strategy == IdStrategy.PRIMARY_KEY else vid
            seen = groups.get(vid)
            if seen is None:
                groups[vid] = [vl.name, given, props]
            else:
                if seen[0] != vl.name:
                    raise IllegalArgument(
                        f"The vertex label of vertex '{el_.id_text(vid)}' is '{seen[0]}', it can't be changed to '{vl.name}'"
                    )
                seen[2] = merge_properties(seen[2], props, self.strategies)
        old = {v.id: v for v in access.vertices(ids=list(groups))}
        access.load(list(old.values()))
        out = []
        for vid, (label, given, props) in groups.items():
            before = old.get(vid)
            if before is not None:
                if before.label != label:
                    raise IllegalArgument(
                        f"The vertex label of vertex '{el_.id_text(vid)}' is '{before.label}', it can't be changed to '{label}'"
                    )
                props = merge_properties(el_.plain_properties(schema, before), props, self.strategies)
            final = [(k, v) for k, v in props.items() if v is not None]
            out.append(access.add_vertex(label, given, final))
        return out

    # ---- edges --------------------------------------------------------------------------------
    def _edges(self, items: list[Mapping[str, Any]], ctx: Context) -> list[Any]:
        access = ctx.access
        schema = access.schema  # type: ignore[attr-defined]
        groups: dict[str, list[Any]] = {}  # edge id -> [label, out id, in id, item, props]
        for item in items:
            el = el_.edge_label_or_fail(schema, item.get("label"))
            props = self._typed(schema, el_.item_properties(item, "edge"))
            out_id = el_.end_id(schema, item.get("outV"), item.get("outVLabel"))
            in_id = el_.end_id(schema, item.get("inV"), item.get("inVLabel"))
            eid = el_.edge_id_of(schema, el, out_id, in_id, props)
            given = item.get("id")
            if given is not None and (idc.canonical_edge_id(str(given)) or str(given)) != eid:
                raise IllegalArgument(
                    f"The ids are different between server and request body ('{eid}' != '{given}'). And note the "
                    f"sort key values should either be null or equal to the origin value when specified edge id"
                )
            seen = groups.get(eid)
            if seen is None:
                groups[eid] = [el.name, out_id, in_id, item, props]
            else:
                seen[4] = merge_properties(seen[4], props, self.strategies)
        old = {e.id: e for e in access.edges(ids=list(groups))}
        ends = _vertices_by_id(access, [x for g in groups.values() for x in (g[1], g[2])])
        out = []
        for eid, (label, out_id, in_id, item, props) in groups.items():
            out_v = _end(ends, out_id, item.get("outVLabel"))
            in_v = _end(ends, in_id, item.get("inVLabel"))
            before = old.get(eid)
            if before is not None:
                props = merge_properties(el_.plain_properties(schema, before), props, self.strategies)
            final = [(k, v) for k, v in props.items() if v is not None]
            out.append(access.add_edge(label, out_v, in_v, None, final))
        return out
