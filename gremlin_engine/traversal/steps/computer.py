"""The VertexProgram steps: `pageRank()`, `peerPressure()`, `connectedComponent()` and
`shortestPath()`, configured with `with(option, value)` under TinkerPop's option names
(`~tinkerpop.pageRank.edges`, ...), run by `gremlin_engine/computer` (see there).

Each is a barrier over its input traversers, as TinkerPop's VertexProgramStep is. Where the
step follows its traversal's start `V()` (possibly after other such steps), TinkerPop moves
that `V()` after it, so the program starts from every vertex alike; after any other step
the program is seeded by the traversers that reach it (PageRank's initial rank and
PeerPressure's vote strength are the number of traversers at each vertex, ShortestPath
searches from them; ConnectedComponent starts from every vertex either way). They run at the root of a
traversal only, as TinkerPop's do.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any, ClassVar

from gremlin_engine.computer import programs, shortest, topology
from gremlin_engine.computer.view import ComputedAccess
from gremlin_engine.errors import StepArgumentError
from gremlin_engine.structure.elements import Vertex
from gremlin_engine.structure.numbers import is_number
from gremlin_engine.traversal.executor import CompiledTraversal, produces
from gremlin_engine.traversal.steps.base import Step
from gremlin_engine.traversal.tokens import Direction
from gremlin_engine.traversal.traverser import Context, Traverser, checked


class VertexComputingStep(Step):
    """A barrier running one vertex program over the whole graph (see the module docstring)."""

    computer: ClassVar[bool] = True
    prefix: ClassVar[str] = ""
    defaults: ClassVar[dict[str, Any]] = {}

    def __init__(self, *args: Any) -> None:
        super().__init__(*args)
        self.options: dict[str, Any] = dict(self.defaults)
        self.fresh = False  # follows the traversal's start V(): every vertex starts alike

    def placed(self, previous: list[Step], root: bool) -> None:
        """Compiler hook: where the step sits in its traversal (see the module docstring)."""
        if not root:
            raise StepArgumentError(f"{self.name}() runs a vertex program: it must be a step of the root traversal")
        first = previous[0] if previous else None
        self.fresh = (first is not None and first.is_start and first.name == "V"
                      and all(getattr(s, "computer", False) for s in previous[1:]))

    def modulate(self, name: str, args: tuple[Any, ...]) -> None:
        if name != "with" or not args or not isinstance(args[0], str) or len(args) > 2:
            super().modulate(name, args)
        if not args[0].startswith(self.prefix):
            return  # configuration TinkerPop keeps and ignores
        key = args[0].removeprefix(self.prefix)
        value = args[1] if len(args) == 2 else True
        self.check_option(key, value)
        self.options[key] = value

    def check_option(self, key: str, value: Any) -> None:
        if key == "edges" and not isinstance(value, CompiledTraversal):
            raise StepArgumentError(f"{self.prefix}edges requires a Traversal as its argument")
        if key == "propertyName" and not isinstance(value, str):
            raise StepArgumentError(f"{self.prefix}propertyName requires a String as its argument")
        if key == "times" and not (is_number(value) and int(value) == value):
            raise StepArgumentError(f"{self.prefix}times requires an Integer as its argument")

    def children(self) -> list[CompiledTraversal]:
        return [v for v in self.options.values() if isinstance(v, CompiledTraversal)]

    def process(self, it: Iterator[Traverser], ctx: Context) -> Iterator[Traverser]:
        inputs = list(checked(it, ctx))
        view = _view(ctx)
        values = self.compute(ctx, inputs)
        if values is not None:
            view.publish(self.options["propertyName"], values)
        for t in inputs:
            yield t.replace(view.fresh(t.obj)) if isinstance(t.obj, Vertex) else t

    def compute(self, ctx: Context, inputs: list[Traverser]) -> dict[Any, Any] | None:
        raise NotImplementedError

    def halted(self, topo: topology.Topology, inputs: list[Traverser]) -> list[float]:
        """Per vertex, how many traversers reached the step there (bulk counted)."""
        counts = [0.0] * len(topo.vertices)
        for t in inputs:
            if isinstance(t.obj, Vertex):
                i = topo.index.get(t.obj.id)
                if i is not None:
                    counts[i] += t.bulk
        return counts

    def __repr__(self) -> str:
        opts = ", ".join(f"{k}={v!r}" for k, v in self.options.items())
        return f"{self.name}({opts})" + "".join(f".as({lb!r})" for lb in self.labels)


def _view(ctx: Context) -> ComputedAccess:
    """The run's computed-properties view (made with the context; made here otherwise)."""
    found = ctx.access
    if isinstance(found, ComputedAccess):
        return found
    view = ComputedAccess(found)
    ctx.access = view  # a view: the GraphAccess calls, delegated
    return view


OUT_E = (Direction.OUT, ())
BOTH_E = (Direction.BOTH, ())


class PageRankStep(VertexComputingStep):
    name = "pageRank"
    prefix = "~tinkerpop.pageRank."
    defaults = {"edges": OUT_E, "propertyName": "gremlin.pageRankVertexProgram.pageRank", "times": 20}

    def __init__(self, alpha: Any = 0.85) -> None:
        super().__init__(*(() if alpha == 0.85 else (alpha,)))
        self.alpha = float(alpha)

    def compute(self, ctx: Context, inputs: list[Traverser]) -> dict[Any, Any]:
        topo = topology.load(ctx, self.options["edges"])
        initial = None if self.fresh else self.halted(topo, inputs)
        ranks = programs.page_rank(topo.adj, initial, self.alpha, int(self.options["times"]) + 1, ctx.check)
        return {v.id: r for v, r in zip(topo.vertices, ranks, strict=True)}


class PeerPressureStep(VertexComputingStep):
    name = "peerPressure"
    prefix = "~tinkerpop.peerPressure."
    defaults = {"edges": OUT_E, "propertyName": "gremlin.peerPressureVertexProgram.cluster", "times": 30}

    def compute(self, ctx: Context, inputs: list[Traverser]) -> dict[Any, Any]:
        topo = topology.load(ctx, self.options["edges"])
        ids = [v.id for v in topo.vertices]
        strength = None if self.fresh else self.halted(topo, inputs)
        clusters = programs.peer_pressure(topo.adj, ids, strength, int(self.options["times"]), ctx.check)
        return dict(zip(ids, clusters, strict=True))


class ConnectedComponentStep(VertexComputingStep):
    name = "connectedComponent"
    prefix = "~tinkerpop.connectedComponent."
    defaults = {"edges": BOTH_E, "propertyName": "gremlin.connectedComponentVertexProgram.component"}

    def compute(self, ctx: Context, inputs: list[Traverser]) -> dict[Any, Any]:
        edges = self.options["edges"]
        topo = topology.load(ctx, edges)
        if topology.plain_edges(edges) == BOTH_E:
            linked = [bool(a) for a in topo.adj]
        else:  # a vertex sends only if it has an edge at all, whatever the edge traversal
            every = topology.neighbours(topology.base_context(ctx), topo.vertices, Direction.BOTH, ())
            linked = [bool(a) for a in every]
        # every linked vertex sends its id, also after a traversal: TinkerPop's step seeds
        # from halted traversers only when they sit in the computer's memory, and traversers
        # at vertices sit on the vertices (so `V().hasLabel(x).connectedComponent()` numbers
        # x's components by the least id in the whole component)
        ids = [v.id for v in topo.vertices]
        return dict(zip(ids, programs.connected_components(topo.adj, ids, linked, ctx.check), strict=True))


class ShortestPathStep(VertexComputingStep):
    """Maps each traverser at a vertex to the shortest paths found from it."""

    name = "shortestPath"
    prefix = "~tinkerpop.shortestPath."
    defaults = {"target": None, "edges": BOTH_E, "distance": None, "maxDistance": None, "includeEdges": False}

    def check_option(self, key: str, value: Any) -> None:
        ok = {
            "target": isinstance(value, CompiledTraversal),
            "edges": isinstance(value, CompiledTraversal | Direction),
            "distance": isinstance(value, CompiledTraversal | str),
            "maxDistance": is_number(value),
            "includeEdges": isinstance(value, bool),
        }.get(key, True)
        if not ok:
            raise StepArgumentError(f"{self.prefix}{key} does not accept {value!r}")

    def process(self, it: Iterator[Traverser], ctx: Context) -> Iterator[Traverser]:
        inputs = list(checked(it, ctx))
        _view(ctx)
        opts = self.options
        edges = opts["edges"]
        if isinstance(edges, Direction):
            edges = (edges, ())
        target = opts["target"]
        search = shortest.Search(
            edges=None if isinstance(edges, tuple) else edges,
            plain=topology.plain_edges(edges),
            distance=opts["distance"],
            max_distance=opts["maxDistance"],
            include_edges=bool(opts["includeEdges"]),
            target=(lambda v: True) if target is None else (lambda v: produces(target, ctx.new_traverser(v), ctx)),
        )
        found: dict[Any, list[Any]] = {}
        for t in inputs:
            v = t.obj
            if not isinstance(v, Vertex):
                continue
            paths = found.get(v.id)
            if paths is None:
                paths = found[v.id] = shortest.shortest_paths(ctx, v, search)
            for p in paths:
                yield t.split(p)


STEPS = {
    "pageRank": (PageRankStep, "num?"),
    "peerPressure": (PeerPressureStep, ""),
    "connectedComponent": (ConnectedComponentStep, ""),
    "shortestPath": (ShortestPathStep, ""),
}
