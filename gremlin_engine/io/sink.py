"""Where a load writes: a graph in this process, or (in `rest_adapter`) a server over REST.

Both are a `GraphSink`. The in-process one writes every batch as the traversal the REST
batch handlers build for the same body (`rest_adapter/resources/vertices.py`, `edges.py`):
`inject(item...).hgAddVertices().id()`, `inject(item...).hgAddEdges(check).id()`, or with
update strategies `inject(item...).hgUpsert(kind, strategies)`, run by one `graph.traverse`
call (one transaction). So a loaded row meets the same schema checks, id rules and index
upkeep as a REST request, and the loader never writes around the engine.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Protocol

from gremlin_engine.auth.principal import ANONYMOUS_ADMIN, Principal
from gremlin_engine.context import LOADER, ExecutionContext
from gremlin_engine.graph import Graph
from gremlin_engine.tasks.model import COMPLETED
from gremlin_engine.traversal.ir import Instruction, TraversalIR


class GraphSink(Protocol):
    """What a load needs of a graph."""

    name: str
    auto: bool

    def schema_json(self) -> dict[str, Any]: ...

    def run_schema(self, script: str) -> None: ...

    def wait_for_tasks(self) -> None: ...

    def mode(self) -> str: ...

    def set_mode(self, mode: str) -> None: ...

    def hold_mode(self, mode: str, job: str) -> str:
        """Puts the graph in `mode` for this job; returns the mode to give back."""
        ...

    def release_mode(self, mode: str | None = None) -> None:
        """Ends the job's hold: `mode`, or the mode the graph had before."""
        ...

    def clear(self) -> None: ...

    def write(self, kind: str, items: Sequence[dict[str, Any]], strategies: dict[str, str] | None = None) -> int: ...


def batch_ir(kind: str, items: Sequence[dict[str, Any]], strategies: dict[str, str] | None = None,
             check_vertex: bool = True) -> TraversalIR:
    """The traversal `POST/PUT /graph/{vertices|edges}/batch` runs for `items`."""
    if strategies:
        steps = [Instruction("hgUpsert", (kind, dict(strategies)))]
    elif kind == "vertex":
        steps = [Instruction("hgAddVertices", ()), Instruction("count", ())]
    else:
        steps = [Instruction("hgAddEdges", (check_vertex,)), Instruction("count", ())]
    if strategies:
        steps.append(Instruction("count", ()))
    return TraversalIR((), (Instruction("inject", tuple(items)), *steps))


class GraphWriter:
    """A `GraphSink` over a `gremlin_engine.Graph` opened in this process."""

    def __init__(self, graph: Graph, check_vertex: bool = True, principal: Principal = ANONYMOUS_ADMIN) -> None:
        self.graph = graph
        self.name = graph.name
        self.auto = graph.schema_mode == "auto"
        self.check_vertex = check_vertex
        #: who the load runs as (the loader door; the administrator unless given)
        self.principal = principal

    def _ctx(self) -> ExecutionContext:
        """A context per engine call: each is one request of the loader door."""
        return ExecutionContext(self.principal, LOADER)

    def schema_json(self) -> dict[str, Any]:
        return dict(self.graph.schema.schema_json())

    def run_schema(self, script: str) -> None:
        # hugegraph-loader binds `schema` for its schema files; so does this
        self.graph.execute("schema = graph.schema()\n" + script, ctx=self._ctx())
        self.wait_for_tasks()

    def wait_for_tasks(self, timeout_s: float = 600.0) -> None:
        """Waits for the schema's tasks (index label rebuilds) to end, so the data that
        follows finds every index label CREATED."""
        tasks, _ = self.graph.tasks.list(limit=None)
        for task in tasks:
            if task.get("task_status") not in COMPLETED:
                self.graph.tasks.wait(task["id"], timeout_s=timeout_s)

    def mode(self) -> str:
        return str(self.graph.mode)

    def set_mode(self, mode: str) -> None:
        self.graph.set_mode(mode, ctx=self._ctx())

    def hold_mode(self, mode: str, job: str) -> str:
        return str(self.graph.hold_mode(mode, job, ctx=self._ctx()))  # kept in the store: a killed job is repaired

    def release_mode(self, mode: str | None = None) -> None:
        self.graph.release_mode(mode, ctx=self._ctx())

    def clear(self) -> None:
        self.graph.clear(ctx=self._ctx())

    def write(self, kind: str, items: Sequence[dict[str, Any]], strategies: dict[str, str] | None = None) -> int:
        result = self.graph.traverse(batch_ir(kind, items, strategies, self.check_vertex), ctx=self._ctx())
        return int(result[0]) if result else 0

    def write_together(self, batches: Sequence[tuple[str, Sequence[dict[str, Any]], dict[str, str] | None]],
                       note: tuple[str, str]) -> None:
        """Writes several batches and the load's progress note in one transaction (a
        `ProgressFile` reads the note back through `read_note` on resume)."""
        irs = [batch_ir(kind, items, strategies, self.check_vertex) for kind, items, strategies in batches]
        self.graph.traverse_together(irs, note, ctx=self._ctx())

    def read_note(self, key: str) -> str | None:
        return self.graph.store_note(key)

    # ---- restore (`backup.py`) ------------------------------------------------------------
    def create_schema(self, kind: str, body: dict[str, Any]) -> None:
        self.graph.schema.create(kind, body)

    def has_data(self) -> bool:
        stats = self.graph.stats()
        return bool(stats["vertices"] or stats["edges"])
