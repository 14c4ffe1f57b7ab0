"""HugeGraph's traverser and rank algorithms as `call()` services: `hugegraph.<name>`.

Each service runs the very step the REST route `/traversers/<name>` runs
(`gremlin_engine/algorithms/`, `hg_<name>`) on the request map the call's parameters make,
and answers that step's one result map: `g.call('hugegraph.kout', [source: '1:marko',
max_depth: 2])` gives what `GET /traversers/kout?source="1:marko"&max_depth=2` gives, with the
same checks and messages. Called mid-traversal (`g.V(id).call('hugegraph.kout',
[max_depth: 2])`) the incoming vertex's id is the `source` (or `vertex`) unless the
parameters name one.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from gremlin_engine.algorithms import STEPS
from gremlin_engine.algorithms.base import Walker
from gremlin_engine.errors import IllegalArgument
from gremlin_engine.services.model import Service
from gremlin_engine.structure.elements import Element

_WALK = ("direction", "label", "max_depth", "max_degree", "skip_degree", "capacity", "limit")
#: the request keys of each algorithm (HugeGraph's GET parameters, and the POST body keys
#: where the route takes a body); what each means is HugeGraph's documentation of the route
PARAMS: dict[str, tuple[str, ...]] = {
    "kout": ("source", *_WALK, "nearest", "steps", "count_only", "with_vertex", "with_path", "with_edge"),
    "kneighbor": ("source", *_WALK, "steps", "count_only", "with_vertex", "with_path", "with_edge"),
    "shortestpath": ("source", "target", *_WALK, "with_vertex", "with_edge"),
    "allshortestpaths": ("source", "target", *_WALK, "with_vertex", "with_edge"),
    "weightedshortestpath": ("source", "target", "direction", "label", "weight", "max_degree", "skip_degree",
                             "capacity", "with_vertex", "with_edge"),
    "singlesourceshortestpath": ("source", "direction", "label", "weight", "max_degree", "skip_degree", "capacity",
                                 "limit", "with_vertex", "with_edge"),
    "multinodeshortestpath": ("vertices", "step", "max_depth", "capacity", "with_vertex", "with_edge"),
    "paths": ("source", "target", "sources", "targets", "step", *_WALK, "nearest", "with_vertex", "with_edge"),
    "crosspoints": ("source", "target", *_WALK, "with_vertex"),
    "rings": ("source", *_WALK, "source_in_ring", "with_vertex", "with_edge"),
    "rays": ("source", *_WALK, "with_vertex", "with_edge"),
    "customizedpaths": ("sources", "steps", "sort_by", "capacity", "limit", "with_vertex", "with_edge"),
    "templatepaths": ("sources", "targets", "steps", "with_ring", "capacity", "limit", "with_vertex", "with_edge"),
    "customizedcrosspoints": ("sources", "path_patterns", "capacity", "limit", "with_path", "with_vertex", "with_edge"),
    "sameneighbors": ("vertex", "other", "direction", "label", "max_degree", "limit"),
    "jaccardsimilarity": ("vertex", "other", "direction", "label", "max_degree", "step", "top", "capacity"),
    "fusiformsimilarity": ("sources", "label", "direction", "min_neighbors", "alpha", "min_similars", "top",
                           "group_property", "min_groups", "max_degree", "capacity", "limit", "with_intermediary",
                           "with_vertex"),
    "adamicadar": ("vertex", "other", "direction", "label", "max_degree"),
    "resourceallocation": ("vertex", "other", "direction", "label", "max_degree"),
    "personalrank": ("source", "label", "alpha", "max_degree", "max_depth", "limit", "with_label", "sorted"),
    "neighborrank": ("source", "steps", "alpha", "capacity"),
    "count": ("source", "steps", "contains_traversed", "dedup_size"),
    "edgeexist": ("source", "target", "label", "sort_values", "limit"),
    "vertices": ("ids",),
    "edges": ("ids",),
    "shards": ("split_size",),
    "scan": ("start", "end", "page", "page_limit"),
}
_SOURCES = ("source", "vertex")


def services() -> list[Service]:
    out = []
    for step_name in sorted(STEPS):
        name = step_name.removeprefix("hg_")
        keys = PARAMS.get(name, ())
        params = {k: f"HugeGraph's `{k}` of /traversers/{name}" for k in keys}
        out.append(Service(f"hugegraph.{name}", _runner(step_name, keys), start=True, streaming=True, params=params))
    return out


def _runner(step_name: str, keys: tuple[str, ...]) -> Any:
    source_key = next((k for k in _SOURCES if k in keys), None)

    def run(ctx: Any, inputs: Sequence[Any] | None, params: Sequence[Mapping[str, Any]]) -> list[list[Any]]:
        step = STEPS[step_name][0]()
        if inputs is None:
            return [[_answer(step, dict(params[0]), ctx)]]
        out = []
        for obj, p in zip(inputs, params, strict=True):
            req = dict(p)
            if source_key is not None and source_key not in req:
                if not isinstance(obj, Element):
                    raise IllegalArgument(f"hugegraph.{step_name[3:]} needs a `{source_key}` or a vertex to start from")
                req[source_key] = obj.id
            out.append([_answer(step, req, ctx)])
        return out

    return run


def _answer(step: Any, req: dict[str, Any], ctx: Any) -> Any:
    ctx.check()
    return step.run(req, Walker(ctx, request=req))
