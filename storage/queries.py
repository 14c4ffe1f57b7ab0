"""Query objects: what a caller asks of the store, as a value, not as a method name.

A query object names a *shape* (direction, label set, per-vertex limit, projection); the
batch it runs over (vertex keys) is passed beside it. Query objects are frozen and
hashable, so the statement of each shape is compiled once (`lru_cache` keyed by the shape)
and a caller that asks the same shape for many batches (a step, once per batch) builds its
query once and keeps it. This replaces one storage method per caller (``adjacent``,
``adjacent_keys``, ``adjacent_to_keys``, ``adjacent_heads``, ...): the caller says which
projection it wants, and the one reader (`Adjacency.read`) chooses the statement.
"""

from __future__ import annotations

import enum
from typing import Any, NamedTuple

from storage.errors import StoreError

DIRECTIONS = ("out", "in", "both")


class _Kind(enum.Enum):
    """An enum whose members hash by identity, in C: `enum.Enum`'s own ``__hash__`` is a
    Python function (the hash of the member's name), one more call on every read that
    looks its statement up by a member (`Elements.find`, `Adjacency.read`). Members are
    singletons compared by identity, so the identity hash agrees with equality."""

    __hash__ = object.__hash__


class Project(_Kind):
    """What an adjacency read returns, in adjacency order unless said otherwise.

    ``EDGES``: an `EdgeRow` per incident edge. ``PAIRS``: (from key, to key) per edge, from
    the adjacency index alone. ``TO_KEYS``: the to keys of ``PAIRS``. ``TO_KEY_IDS``:
    (``TO_KEYS``, {to key: stored id}). ``TARGETS``: the to keys in no particular order (a
    set of neighbours, counted). ``HEADS``: (from key, to key, to id, to label id), one
    direction only. ``COUNTS``: {from key: number of incident edges}, every key present.
    ``NEIGHBOUR_IDS``: (start key, far id) per edge of one vertex given by its stored id
    (`Adjacency.from_id`)."""

    EDGES = "edges"
    PAIRS = "pairs"
    TO_KEYS = "to_keys"
    TO_KEY_IDS = "to_key_ids"
    TARGETS = "targets"
    HEADS = "heads"
    COUNTS = "counts"
    NEIGHBOUR_IDS = "neighbour_ids"


def direction_name(direction: Any) -> str:
    """'out', 'in' or 'both' from a string or any enum member of those names."""
    d = str(getattr(direction, "name", direction)).lower()
    if d not in DIRECTIONS:
        raise StoreError(f"direction must be 'out', 'in' or 'both', not {direction!r}")
    return d


class _Shape(NamedTuple):
    direction: str
    labels: tuple[int, ...] | None
    per_vertex: int | None
    project: Project


class AdjacencyQuery(_Shape):
    """The incident edges of a batch of vertices: `direction` ('out', 'in', 'both'),
    `labels` (edge label ids; None: any label, empty: none, so no row), `per_vertex` (keep
    each vertex's first n edges in adjacency order; for 'both' n in total, out-edges
    first), `project` (what comes back, `Project`). Normalised on construction (labels
    sorted and distinct), so equal shapes are equal keys of the statement caches. A named
    tuple: built on every adjacency read, it costs about a microsecond."""

    __slots__ = ()

    def __new__(
        cls, direction: Any = "both", labels: Any = None, per_vertex: int | None = None,
        project: Project = Project.EDGES,
    ) -> AdjacencyQuery:
        d = direction if direction in _DIRECTION_SET else direction_name(direction)
        if labels is not None:
            labels = tuple(labels)
            if len(labels) > 1:
                labels = tuple(sorted({int(i) for i in labels}))
        return tuple.__new__(cls, (d, labels, per_vertex, project))

    @property
    def empty(self) -> bool:
        """True when no vertex can have a row of this shape (an empty label set, a limit
        of 0 or less): the reader answers without SQL."""
        return (self.labels is not None and not self.labels) or (self.per_vertex is not None and self.per_vertex <= 0)

    @property
    def label_key(self) -> tuple[int, ...]:
        """The label filter for the statement builders: () means any label."""
        return self.labels or ()


_DIRECTION_SET = frozenset(DIRECTIONS)


class Lookup(_Kind):
    """The element lookups (`Elements.find(lookup, values)`): which table, what names the
    elements, and what comes back. Each is one statement shape (or one per chunk of 900
    values), answering the whole batch. Rows come in order of first occurrence of each
    distinct value, unknown ones skipped, unless said otherwise.

    ``VERTICES_BY_IDS`` / ``VERTICES_BY_KEYS`` -> `VertexRow`s. ``VERTEX_HEADS_BY_IDS`` ->
    (key, id, label_id) in no particular order (the end vertices of an edge batch: no props;
    a write transaction remembers them for its edge inserts). ``VERTEX_IDS_BY_KEYS`` -> the
    stored ids in the order of the keys (a key given twice gives its id twice): the ids-only
    projection of what a walk reached. ``EDGES_BY_IDS`` (id-identified edges only),
    ``EDGES_BY_KEYS``, ``EDGES_BY_PARTS`` ((out_key, label_id, sort_values, in_key) tuples;
    per tuple the HugeGraph-mode edge first, then id-identified ones in insertion order) and
    ``EDGES_BY_END_IDS`` ((out_id, label_id, sort_values, in_id) tuples: the ends by stored
    id, one statement per tuple: one HugeGraph edge id, `E(id)`) -> `EdgeRow`s."""

    VERTICES_BY_IDS = "vertices_by_ids"
    VERTICES_BY_KEYS = "vertices_by_keys"
    VERTEX_HEADS_BY_IDS = "vertex_heads_by_ids"
    VERTEX_IDS_BY_KEYS = "vertex_ids_by_keys"
    EDGES_BY_IDS = "edges_by_ids"
    EDGES_BY_KEYS = "edges_by_keys"
    EDGES_BY_PARTS = "edges_by_parts"
    EDGES_BY_END_IDS = "edges_by_end_ids"



class IndexProject(_Kind):
    """What an index read returns: ``KEYS`` the element keys in index order (value, then
    key), each once; ``COUNT`` how many distinct elements match; ``VERTICES`` the matching
    vertex rows, each once, in key order (equality only)."""

    KEYS = "keys"
    COUNT = "count"
    VERTICES = "vertices"


class _IndexShape(NamedTuple):
    index_id: int
    range: bool
    project: IndexProject
    limit: int | None
    lo_incl: bool
    hi_incl: bool


class IndexQuery(_IndexShape):
    """A lookup in index label `index_id` (`Index.read(query, operand)`): by equality (the
    operand is the values sought, any of which matches) or, with `range`, by range (the
    operand is ``(lo, hi)``, None for an open end, which stays within the bound's type class:
    numbers, strings or bytes; `lo_incl` / `hi_incl` say whether the bounds match).
    `project` says what comes back (`IndexProject`); `limit` stops a ``KEYS`` read after
    that many keys. Each shape is one statement per dialect (or one per chunk of 900
    values), compiled once."""

    __slots__ = ()

    def __new__(
        cls, index_id: int, range: bool = False, project: IndexProject = IndexProject.KEYS, limit: int | None = None,
        lo_incl: bool = True, hi_incl: bool = True,
    ) -> IndexQuery:
        if range and project is IndexProject.VERTICES:
            raise StoreError("an index range read projects KEYS or COUNT")
        return tuple.__new__(cls, (int(index_id), bool(range), project, limit, bool(lo_incl), bool(hi_incl)))


Hop = tuple[str, tuple[int, ...] | None]
"""(direction 'out' / 'in' / 'both', edge label ids or None for every label)."""


class WalkStart(_Kind):
    """Where a `WalkCount`'s walks start: ``PAIRS`` at (vertex key, multiplicity) pairs,
    ``ALL`` once at every vertex (with a label in the query's `start_labels`, when given),
    ``ID`` at the one vertex whose stored id is the operand (at most `CHAIN_MAX_HOPS` hops:
    one join chain, the start found by the id index; 0 when there is none)."""

    PAIRS = "pairs"
    ALL = "all"
    ID = "id"


class _WalkShape(NamedTuple):
    hops: tuple[Hop, ...] | None
    start: WalkStart
    start_labels: tuple[int, ...] | None


class WalkCount(_WalkShape):
    """The number of walks of ``len(hops)`` steps (`Aggregates.count(query, operand)`), hop i
    going in direction hops[i][0] over edges with a label in hops[i][1] (None: any label;
    empty: none, so no walk). Normalised on construction; `hops` is None when a hop allows
    no label (the count is 0 without SQL). A 'both' hop counts a self-loop twice, as an
    adjacency read lists it twice."""

    __slots__ = ()

    def __new__(
        cls, hops: Any, start: WalkStart = WalkStart.PAIRS, start_labels: Any = None,
    ) -> WalkCount:
        norm: list[Hop] | None = []
        for direction, labels in hops:
            d = direction if direction in _DIRECTION_SET else direction_name(direction)
            if labels is not None:
                labels = tuple(labels)
                if not labels:
                    norm = None
                    break
                labels = (int(labels[0]),) if len(labels) == 1 else tuple(sorted({int(i) for i in labels}))
            norm.append((d, labels))  # type: ignore[union-attr]
        starts = None if start_labels is None else tuple(sorted({int(i) for i in start_labels}))
        return tuple.__new__(cls, (None if norm is None else tuple(norm), start, starts))


class _GroupShape(NamedTuple):
    kind: str
    labels: tuple[int, ...] | None
    key: str | None


class GroupCount(_GroupShape):
    """Row counts of `kind` ('vertex' / 'edge') with a label in `labels` (None: all) per
    label (`key` None) or per JSON text of the top-level member `key` of their props
    (`Aggregates.groups(query)`), in the order of each group's first row."""

    __slots__ = ()

    def __new__(cls, kind: str, labels: Any = None, key: str | None = None) -> GroupCount:
        if kind not in ("vertex", "edge"):
            raise StoreError(f"a group count is of 'vertex' or 'edge' rows, not {kind!r}")
        norm = None if labels is None else tuple(sorted({int(i) for i in labels}))
        return tuple.__new__(cls, (kind, norm, key))
