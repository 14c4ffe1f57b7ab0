"""Element reads by id, shards and shard scans, count and edge existence (`hg_vertices`,
`hg_edges`, `hg_shards`, `hg_scan`, `hg_count`, `hg_edgeexist`).

Shards split the vertex (or edge) table into ranges of storage keys, each holding about
`split_size` bytes' worth of elements (an element is estimated at `ELEMENT_BYTES` of its
kind, so a 1 MiB split of a 100k-vertex graph gives about a dozen shards); `start` is
inclusive and `end` exclusive, and consecutive shards share their boundary, so scanning
every shard visits every element exactly once. `scan` walks a shard in key order, all at
once or page by page (`page` is the next key; null ends the shard).

Key-range reads need more than the `GraphAccess` contract offers (it has no key ranges), so
`_range` reads the runtime's storage transaction through the access's `tx` and builds
elements with its own row builders; any other access gets a slower enumeration fallback.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from gremlin_engine.errors import IllegalArgument
from gremlin_engine.structure import ids as idc
from gremlin_engine.structure.elements import Edge, Element, Vertex
from gremlin_engine.traversal.tokens import Direction

from .base import AlgorithmStep, Walker
from .steps import NO_LIMIT, EdgeStep, as_int, get_bool, get_int, limit, parse_step

ELEMENT_BYTES = {"vertex": 128, "edge": 160}
DEFAULT_PAGE_LIMIT = 100_000
SCAN_PAGE = 5_000


def _range(walker: Walker, kind: str, after: int | None, count: int | None) -> list[Element]:
    """Up to `count` elements with storage key > `after`, in key order."""
    access = walker.access
    store = walker.store  # not through a filtering view (see `Walker.store`)
    tx = getattr(store, "tx", None)
    if store is not None and tx is not None and hasattr(store, "_vertex"):
        if kind == "vertex":
            return [store._vertex(r) for r in tx.elements.vertices_scan(None, after, count)]
        return store._edges_from_rows(tx.elements.edges_scan(None, after, count))
    items = access.vertices() if kind == "vertex" else access.edges()
    out = []
    for pos, el in enumerate(items):
        key = el.key if el.key is not None else pos
        if after is None or key > after:
            if el.key is None:
                el.key = key
            out.append(el)
            if count is not None and len(out) >= count:
                break
    return out


def _kind(req: Mapping[str, Any]) -> str:
    kind = req.get("kind", "vertex")
    if kind not in ("vertex", "edge"):
        raise IllegalArgument(f"The kind must be 'vertex' or 'edge', but got '{kind}'")
    return kind


def _plural(kind: str) -> str:
    return "vertices" if kind == "vertex" else "edges"


class ShardsStep(AlgorithmStep):
    name = "hg_shards"

    def run(self, req: Mapping[str, Any], walker: Walker) -> dict[str, Any]:
        kind = _kind(req)
        if req.get("split_size") is None:
            raise IllegalArgument("The split-size can't be null")
        split = as_int(req["split_size"], "split_size")
        if split <= 0:
            raise IllegalArgument(f"The split-size must be > 0, but got {split}")
        per_shard = max(1, split // ELEMENT_BYTES[kind])
        shards = []
        start = 0
        after: int | None = None
        while True:
            walker.ctx.check()
            batch = _range(walker, kind, after, per_shard)
            if not batch:
                break
            after = batch[-1].key
            end = after + 1
            shards.append({"start": str(start), "end": str(end), "length": 0})
            start = end
            if len(batch) < per_shard:
                break
        if not shards:
            shards.append({"start": "0", "end": "0", "length": 0})
        return {"shards": shards}


class ScanStep(AlgorithmStep):
    name = "hg_scan"

    def run(self, req: Mapping[str, Any], walker: Walker) -> dict[str, Any]:
        kind = _kind(req)
        start = _key(req.get("start"), "start")
        end = _key(req.get("end"), "end")
        page = req.get("page")
        page_limit = get_int(req, "page_limit", DEFAULT_PAGE_LIMIT)
        if page_limit <= 0:
            raise IllegalArgument(f"The page limit must be > 0, but got {page_limit}")
        if page:
            start = max(start, _key(page, "page"))
        out: list[Element] = []
        after = start - 1
        want = page_limit if page is not None else None
        next_page: str | None = None
        while True:
            walker.ctx.check()
            batch = _range(walker, kind, after, SCAN_PAGE)
            stop = False
            for el in batch:
                if el.key >= end:
                    stop = True
                    break
                if want is not None and len(out) >= want:
                    next_page, stop = str(el.key), True
                    break
                out.append(el)
            if stop or len(batch) < SCAN_PAGE:
                break
            after = batch[-1].key
        walker.load(out)
        result: dict[str, Any] = {_plural(kind): out}
        if page is not None:
            result["page"] = next_page
        return result


def _key(value: Any, name: str) -> int:
    if value is None or value == "":
        raise IllegalArgument(f"The {name} can't be null")
    try:
        return int(str(value))
    except ValueError:
        raise IllegalArgument(f"Invalid {name} '{value}': shard positions are storage keys") from None


class VerticesStep(AlgorithmStep):
    name = "hg_vertices"

    def run(self, req: Mapping[str, Any], walker: Walker) -> dict[str, Any]:
        ids = req.get("ids")
        if not ids:
            raise IllegalArgument("The ids parameter can't be null or empty")
        found = list(walker.access.vertices(ids=list(ids)))
        walker.load(found)
        return {"vertices": found}


class EdgesStep(AlgorithmStep):
    name = "hg_edges"

    def run(self, req: Mapping[str, Any], walker: Walker) -> dict[str, Any]:
        ids = req.get("ids")
        if not ids:
            raise IllegalArgument("The ids parameter can't be null or empty")
        strict = walker.schema is not None and not getattr(walker.schema, "auto", False)
        if strict:
            for i in ids:
                if isinstance(i, str):
                    idc.parse_edge_id(i)  # 404 for a malformed edge id, as HugeGraph
        return {"edges": list(walker.access.edges(ids=list(ids)))}


class EdgeExistStep(AlgorithmStep):
    name = "hg_edgeexist"

    def run(self, req: Mapping[str, Any], walker: Walker) -> dict[str, Any]:
        if req.get("source") is None:
            raise IllegalArgument("The source can't be null")
        if req.get("target") is None:
            raise IllegalArgument("The target can't be null")
        lim = limit(get_int(req, "limit", 100))
        label = req.get("label") or None
        sort_values = req.get("sort_values") or ""
        source = walker.vertex(req["source"])
        target = walker.vertex(req["target"], "target vertex")
        step = EdgeStep(Direction.OUT, (label,) if label else (), max_degree=NO_LIMIT)
        out: list[Edge] = []
        for _, items in walker.adjacency([source], step, edges=True):
            for e, n in items:
                if n.id != target.id or e.out_v.id != source.id:
                    continue
                if sort_values and _sort_values(e) != sort_values:
                    continue
                out.append(e)
                if lim != NO_LIMIT and len(out) >= lim:
                    break
        return {"edges": out}


def _sort_values(e: Edge) -> str:
    if isinstance(e.id, str):
        try:
            return idc.parse_edge_id(e.id).sort_values
        except Exception:  # not a HugeGraph edge id: no sort values
            return ""
    return ""


class CountStep(AlgorithmStep):
    name = "hg_count"

    def run(self, req: Mapping[str, Any], walker: Walker) -> dict[str, Any]:
        body = req.get("steps")
        if not isinstance(body, list) or not body:
            raise IllegalArgument("The steps of count request can't be empty")
        if not all(s is None or isinstance(s, Mapping) for s in body):
            raise IllegalArgument("Each step of count request must be a JSON object")
        steps = [parse_step(walker.schema, {"skip_degree": 100_000, **(s or {})}) for s in body]
        contains = get_bool(req, "contains_traversed", False)
        dedup_size = get_int(req, "dedup_size", 1_000_000)
        if dedup_size < NO_LIMIT:
            raise IllegalArgument(f"The dedup size must be >= 0 or == -1, but got: {dedup_size}")
        source = walker.vertex(req.get("source"))
        count = 1 if contains else 0
        seen: set[Any] = {source.id}
        frontier: list[Vertex] = [source]
        for step in steps[:-1]:
            new: list[Vertex] = []
            for _, items in walker.neighbors(frontier, step):
                for n in items:
                    if contains:
                        count += 1
                    if dedup_size != 0:
                        if n.id in seen:
                            continue
                        if dedup_size == NO_LIMIT or len(seen) < dedup_size:
                            seen.add(n.id)
                    new.append(n)
            frontier = new
        for _, items in walker.neighbors(frontier, steps[-1]):
            count += len(items)
        return {"count": count}
