"""A point lookup built up layer by layer, from raw sqlite3 to the script door.

    python -m bench.door_floor HUGELITE_STORE RAW_STORE [--n 20000] [--best 5]

Why: the door-to-answer cost of a point lookup is the sum of many small layers (storage
transaction, access, session, prepared entry, door); this prints each layer's CPU per call
(`thread_time`, best of `--best` loops of `--n` calls) so a change shows where it paid. Every
layer does what the one above it does plus its own work, through public entry points only.
Run from the tree under test (cwd, `PYTHONPATH`), on a copy of the store.
"""

from __future__ import annotations

import argparse
import sqlite3
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from bench.engine import SCRIPTS, HugeliteEngine
from gremlin_engine.context import ExecutionContext
from gremlin_engine.runtime import api
from gremlin_engine.runtime.access import StoreAccess
from gremlin_engine.runtime.session import Session, begin
from gremlin_engine.structure.numbers import Long
from gremlin_engine.traversal.ir import Instruction, TraversalIR
from storage.queries import Lookup

IDS = [Long(i % 1000 + 1) for i in range(1000)]


def _best(fn: Callable[[Any], Any], n: int, best: int) -> float:
    ids = IDS
    out = []
    for _ in range(best):
        t = time.thread_time_ns()
        for i in range(n):
            fn(ids[i % 1000])
        out.append((time.thread_time_ns() - t) / n / 1000)
    return min(out)


def layers(hl: Path, raw_path: Path) -> list[tuple[str, Callable[[Any], Any]]]:
    raw = sqlite3.connect(raw_path, check_same_thread=False)
    raw_tx = sqlite3.connect(raw_path, check_same_thread=False, isolation_level=None)
    eng = HugeliteEngine(hl, fresh=False)
    graph = eng.graph
    store = graph.store

    def raw_select(vid: Any) -> Any:
        return raw.execute("SELECT name FROM v WHERE k = ?", (int(vid),)).fetchone()[0]

    def raw_begin(vid: Any) -> Any:
        raw_tx.execute("BEGIN")
        row = raw_tx.execute("SELECT name FROM v WHERE k = ?", (int(vid),)).fetchone()[0]
        raw_tx.execute("ROLLBACK")
        return row

    def store_read(vid: Any) -> Any:
        with store.read() as tx:
            return tx.elements.find(Lookup.VERTICES_BY_IDS, [int(vid)])

    def store_single(vid: Any) -> Any:
        with store.read(None, single=True) as tx:
            return tx.elements.find(Lookup.VERTICES_BY_IDS, [int(vid)])

    def with_access(vid: Any) -> Any:
        ctx = ExecutionContext()
        with store.read(ctx, single=True) as tx:
            return StoreAccess.for_graph(graph, tx, graph.schema.pinned()).point_vertex(vid)

    def with_session(vid: Any) -> Any:
        session = Session(api._SingleGraph(graph), False, begin(None))
        try:
            return session.answer_once(graph.name, compiled(vid))
        finally:
            session.close(None)

    # the prepared, bound traversal of each probe, made ahead: this layer is the session's
    cache = graph.prepared
    assert cache is not None
    bound = {vid: cache.prepare(TraversalIR((), (Instruction("V", (vid,)), Instruction("values", ("name",)))), True)[0]
             for vid in IDS}

    def compiled(vid: Any) -> Any:
        return bound[vid]

    ir = TraversalIR((), (Instruction("V", (Long(1),)), Instruction("values", ("name",))))

    def bytecode_door(vid: Any) -> Any:
        return graph.traverse(TraversalIR((), (Instruction("V", (vid,)), ir.steps[1])))

    script = SCRIPTS["point_lookup"]

    def script_door(vid: Any) -> Any:
        return graph.execute(script, {"vid": vid})

    return [
        ("raw sqlite3: SELECT (autocommit)", raw_select),
        ("raw sqlite3: BEGIN, SELECT, ROLLBACK", raw_begin),
        ("storage: store.read() + tx.elements.find", store_read),
        ("storage: store.read(single=True) + find", store_single),
        ("+ context, StoreAccess (pinned schema), point_vertex", with_access),
        ("+ token, session, answer_once (fused step, result check)", with_session),
        ("graph.traverse(ir) (bytecode and REST door)", bytecode_door),
        ("graph.execute(script) (script door)", script_door),
    ]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("hugelite", type=Path)
    ap.add_argument("raw", type=Path)
    ap.add_argument("--n", type=int, default=20_000)
    ap.add_argument("--best", type=int, default=5)
    args = ap.parse_args()
    for name, fn in layers(args.hugelite, args.raw):
        fn(IDS[0])
        print(f"{name:58s} {_best(fn, args.n, args.best):6.1f} us", flush=True)


if __name__ == "__main__":
    main()
