"""The PyPI peer: gremlite (0.1.x), Gremlin bytecode evaluated over its own SQLite schema.

gremlite is the closest existing thing to hugelite (Gremlin over SQLite, in process), so it
is the bar to beat by 10x. It runs the same operations through gremlinpython bytecode
(`get_g(path)`), with its quirks handled here:

* vertex ids are its own (allocated by `add_v`), so loading keeps a workload index -> id
  table and answers are translated back to workload indexes;
* `add_e` needs labelled ends: `g.V(a).as_('x').V(b).add_e('knows').from_('x')`;
* there is no `iterate()`: writes end with `to_list()`; the load commits through its
  connection at the end (one transaction, as the engine's chunks are few);
* there is no `groupCount()` step: that op is answered by `values('city')` plus a
  client-side `Counter`, and the report marks it *emulated*;
* `repeat(out()).times(k)` yields nothing in 0.1.2 (its repeat yields a traverser only on
  `emit()` or a met `until()`, never at the `times()` limit), so k-hop runs as `k` chained
  `out()` steps, the same paths; also marked *emulated*;
* loading is slow (one bytecode round per element), so `load` takes a time budget and stops
  with `LoadTimeBoxed` when the projected time exceeds it; the runner then reports the
  measured load rate instead of query timings.
"""

from __future__ import annotations

import json
import time
from collections import Counter
from pathlib import Path

from bench.workload import Workload

#: ops this peer answers by emulation rather than by the Gremlin step itself
EMULATED = {
    "group_count_city": "values('city') + client-side Counter (gremlite has no groupCount)",
    "k_hop2": "out().out() (gremlite 0.1.2's repeat(...).times(k) without emit/until yields nothing)",
    "k_hop3": "out().out().out() (gremlite 0.1.2's repeat(...).times(k) without emit/until yields nothing)",
}


class LoadTimeBoxed(RuntimeError):
    """Loading would exceed the time budget; `rate` is elements per second so far."""

    def __init__(self, done: int, total: int, elapsed: float) -> None:
        self.done, self.total, self.elapsed = done, total, elapsed
        self.rate = done / elapsed if elapsed else 0.0
        super().__init__(
            f"gremlite load time-boxed: {done} of {total} elements in {elapsed:.0f} s "
            f"({self.rate:.0f}/s, about {total / self.rate if self.rate else float('inf'):.0f} s for all)"
        )


class GremlitePeer:
    name = "gremlite"

    def __init__(self, path: Path, budget_s: float | None = None, fresh: bool = True) -> None:
        """`fresh`: a new database; else the one a load phase left at `path` (with its
        workload index -> gremlite id table beside it)."""
        from gremlite import get_g

        self.ids_path = Path(f"{path}.ids.json")
        if fresh:
            for suffix in ("", "-wal", "-shm", "-journal", ".ids.json"):
                Path(f"{path}{suffix}").unlink(missing_ok=True)
        self.g = get_g(str(path))
        self.budget_s = budget_s
        self.ids: list[int] = [] if fresh else json.loads(self.ids_path.read_text())
        self.index_of: dict[int, int] = {v: i for i, v in enumerate(self.ids)}

    def _check_budget(self, started: float, done: int, total: int) -> None:
        if self.budget_s is None or done == 0:
            return
        elapsed = time.perf_counter() - started
        projected = elapsed / done * total
        if projected > self.budget_s and elapsed > min(30.0, self.budget_s / 10):
            self.g.remote_connection.rollback()
            raise LoadTimeBoxed(done, total, elapsed)

    def load(self, w: Workload) -> None:
        g = self.g
        vertices, edges = w.vertices(), w.edges()
        total = len(vertices) + len(edges)
        started = time.perf_counter()
        for n, (i, name, age, city) in enumerate(vertices):
            v = g.add_v("person").property("name", name).property("age", age).property("city", city).next()
            self.ids.append(v.id)
            self.index_of[v.id] = i
            if n % 2000 == 1999:
                self._check_budget(started, n + 1, total)
        for n, (o, i, weight) in enumerate(edges):
            (g.V(self.ids[o]).as_("x").V(self.ids[i]).add_e("knows").from_("x")
             .property("weight", weight).to_list())
            if n % 5000 == 4999:
                self._check_budget(started, len(vertices) + n + 1, total)
        g.remote_connection.commit()
        self.ids_path.write_text(json.dumps(self.ids))

    # --- the operations: same answers as bench/raw_sqlite.py -----------------------------
    def point_lookup(self, idx: int) -> str:
        return self.g.V(self.ids[idx]).values("name").to_list()[0]

    def lookup_by_property(self, idx: int) -> int:
        return self.index_of[self.g.V().has("person", "name", f"p{idx}").id_().to_list()[0]]

    def one_hop(self, idx: int) -> int:
        return len(self.g.V(self.ids[idx]).out("knows").id_().to_list())

    def two_hop_count(self, idx: int) -> int:
        return self.g.V(self.ids[idx]).out().out().count().next()

    def group_count_city(self) -> dict[str, int]:
        return dict(Counter(self.g.V().values("city").to_list()))

    def k_hop(self, idx: int, k: int) -> int:
        t = self.g.V(self.ids[idx])
        for _ in range(k):
            t = t.out()
        return t.count().next()

    def close(self) -> None:
        self.g.remote_connection.close()
