"""COPY or multi-row INSERT for a batch on PostgreSQL: the store's own batch insert, A/B in one process.

    python -m bench.pg_copy [SIZE ...]      # default: 2 8 16 32 64 500 rows a batch

`Elements.vertices_insert` / `edges_insert` on a PostgreSQL store write a batch of
`COPY_MIN_ROWS` rows or more by COPY (`PgRaw.copy_rows`), a smaller one by multi-row
INSERT. This runs both on every size, alternating (A, B, A, B ...: a burst of other load
on the shared machine hits both alike), by moving the threshold: 1 (every batch by COPY)
or past the batch (every batch by INSERT). Each sample is one write transaction, commit
included: a batch of vertices, then one of edges between them (AUTOMATIC edge ids). It
prints the median wall time per batch and the COPY ÷ INSERT ratio. The store is a database
of `$HUGELITE_BENCH_PG_URL`'s server, else of a throw-away cluster (`tests/postgres_cluster.py`).
"""

from __future__ import annotations

import contextlib
import statistics
import sys
import time
from collections.abc import Callable
from typing import Any

import storage
import storage.tx_elements as tx_elements
from bench.measure import pg_server

ROUNDS = 25
WARM = 3  # rounds left out of the medians


def _timed(store: Any, write: Callable[[Any], Any]) -> tuple[float, Any]:
    started = time.perf_counter()
    with store.write() as tx:
        out = write(tx)
    return time.perf_counter() - started, out


def run(store: Any, sizes: list[int]) -> None:
    made = iter(range(10**9))
    print("| rows a batch | vertices INSERT | vertices COPY | COPY ÷ INSERT | edges INSERT | edges COPY | COPY ÷ INSERT |")
    print("|---:|---:|---:|---:|---:|---:|---:|")
    for size in sizes:
        samples: dict[str, list[float]] = {"v insert": [], "v copy": [], "e insert": [], "e copy": []}
        for _ in range(ROUNDS):
            for mode, threshold in (("insert", 10**9), ("copy", 1)):
                tx_elements.COPY_MIN_ROWS = threshold  # type: ignore[attr-defined]
                n = next(made)
                rows = [(f"v{n}-{j}", 1, f'{{"name":"n{j}","age":{j}}}') for j in range(size)]
                took, keys = _timed(store, lambda tx, rows=rows: tx.elements.vertices_insert(rows))
                samples[f"v {mode}"].append(took)
                edges = [(None, 2, keys[j], keys[(j + 1) % size], "", '{"w":1}') for j in range(size)]
                took, _ = _timed(store, lambda tx, edges=edges: tx.elements.edges_insert(edges))
                samples[f"e {mode}"].append(took)
        m = {k: statistics.median(v[WARM:]) * 1e3 for k, v in samples.items()}
        print(f"| {size} | {m['v insert']:.2f} ms | {m['v copy']:.2f} ms | {m['v copy'] / m['v insert']:.2f} "
              f"| {m['e insert']:.2f} ms | {m['e copy']:.2f} ms | {m['e copy'] / m['e insert']:.2f} |", flush=True)


def main(argv: list[str]) -> None:
    sizes = [int(a) for a in argv] or [2, 8, 16, 32, 64, 500]
    with contextlib.ExitStack() as stack:
        server = pg_server(stack)
        url = f"{server}/bench_copy"
        storage.drop_database(url)
        storage.ensure_database(url)
        store = storage.open_store(url)
        stack.callback(storage.drop_database, url)
        stack.callback(store.close)
        store.initialise()
        run(store, sizes)


if __name__ == "__main__":
    main(sys.argv[1:])
