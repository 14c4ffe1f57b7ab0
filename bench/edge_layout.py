"""Edge insert cost of physical layouts, plain sqlite3, no engine; and of the store itself.

    python -m bench.edge_layout --size small|large [--batch 500] [--layouts v1,keyed,store]

Why it exists: REST batch loads commit once per request, and at the large size SQLite's
random index inserts, not Python, bound them (see bench/README.md, "Where hugelite's time
goes"). This measures the floor each layout sets, with the store's PRAGMAs:

* ``v1``: store layout v1 (`STORE_VERSION` "1": rowid edge table with AUTOINCREMENT, a
  unique text edge id, out/in adjacency indexes, a label index, foreign keys on);
* ``keyed``: store layout v2 (`storage/tables.py` before layout v3 added the end vertices'
  ids to the edge rows and ``in_id`` to the out-adjacency index): the rowid edge table kept
  (its integer key is the engine's edge handle), no index on the text edge id of HugeGraph
  edges (derivable from the edge's parts; a partial index serves auto-mode ids), no foreign
  keys, and the out-adjacency index UNIQUE with ``dup`` so it also enforces edge identity;
* ``store``: the store's current layout (v3) through the storage API (`Store.write()` + ``edges_insert(rows,
  unique_parts=True)``): what the storage layer adds to the DDL's floor (its end-vertex
  check, savepoint, key allocation, SQLAlchemy-free but Python-side row building);
* ``clustered``: an edge table ``WITHOUT ROWID`` whose primary key is the out-adjacency tuple
  (the edge id is derivable from it), plus one in-adjacency index.

Edges join uniformly random vertices of the workload's size, `--batch` per transaction.
Prints edges/s (wall), CPU µs per edge and the file size.
"""

from __future__ import annotations

import argparse
import os
import random
import sqlite3
import tempfile
import time

from bench.workload import SIZES

PRAGMAS = ("journal_mode=WAL", "synchronous=NORMAL", "cache_size=-32768", "wal_autocheckpoint=20000",
           "foreign_keys=ON")

V1 = (
    "CREATE TABLE edges(key INTEGER PRIMARY KEY AUTOINCREMENT, id BLOB NOT NULL UNIQUE, "
    "label_id INTEGER NOT NULL, out_key INTEGER NOT NULL REFERENCES vertices(key) ON DELETE CASCADE, "
    "in_key INTEGER NOT NULL REFERENCES vertices(key) ON DELETE CASCADE, "
    "sort_values TEXT NOT NULL DEFAULT '', props BLOB)",
    "CREATE INDEX ix_edges_out ON edges(out_key, label_id, sort_values, in_key)",
    "CREATE INDEX ix_edges_in ON edges(in_key, label_id, sort_values, out_key)",
    "CREATE INDEX ix_edges_label ON edges(label_id, key)",
)
KEYED = (
    "CREATE TABLE edges(key INTEGER PRIMARY KEY AUTOINCREMENT, id BLOB NOT NULL, "
    "label_id INTEGER NOT NULL, out_key INTEGER NOT NULL, in_key INTEGER NOT NULL, "
    "sort_values TEXT NOT NULL DEFAULT '', dup INTEGER NOT NULL DEFAULT 0, props BLOB)",
    "CREATE UNIQUE INDEX ix_edges_out ON edges(out_key, label_id, sort_values, in_key, dup)",
    "CREATE INDEX ix_edges_in ON edges(in_key, label_id, sort_values, out_key)",
    "CREATE INDEX ix_edges_label ON edges(label_id, key)",
    "CREATE UNIQUE INDEX ix_edges_id ON edges(id) WHERE dup <> 0",
)
CLUSTERED_KEYED = (
    "CREATE TABLE edges(out_key INTEGER NOT NULL, label_id INTEGER NOT NULL, "
    "sort_values TEXT NOT NULL DEFAULT '', in_key INTEGER NOT NULL, key INTEGER NOT NULL, id BLOB, props BLOB, "
    "PRIMARY KEY(out_key, label_id, sort_values, in_key)) WITHOUT ROWID",
    "CREATE INDEX ix_edges_in ON edges(in_key, label_id, sort_values, out_key)",
    "CREATE UNIQUE INDEX ix_edges_key ON edges(key)",
    "CREATE INDEX ix_edges_label ON edges(label_id, key)",
    "CREATE UNIQUE INDEX ix_edges_id ON edges(id) WHERE id IS NOT NULL",
)
CLUSTERED = (
    "CREATE TABLE edges(out_key INTEGER NOT NULL, label_id INTEGER NOT NULL, "
    "sort_values TEXT NOT NULL DEFAULT '', in_key INTEGER NOT NULL, props BLOB, "
    "PRIMARY KEY(out_key, label_id, sort_values, in_key)) WITHOUT ROWID",
    "CREATE INDEX ix_edges_in ON edges(in_key, label_id, sort_values, out_key)",
)


def _ids(pairs: list[tuple[int, int]]) -> list[tuple[object, ...]]:
    """The HugeGraph edge id of each pair (what the engine stores in the row)."""
    return [(f"S1:p{o}>1>1>>S1:p{i}", o, i) for o, i in pairs]


def measure_store(vertices: int, pairs: list[tuple[int, int]], batch: int) -> str:
    """The current layout through `storage`: one write transaction per batch, as a REST request."""
    from storage import open_store

    fd, path = tempfile.mkstemp(suffix=".db")
    os.close(fd)
    os.remove(path)
    store = open_store(path)
    try:
        store.initialise()
        with store.write() as tx:
            tx.elements.vertices_insert([(f"1:p{i}", 1, "{}") for i in range(vertices)])
        rows = [(eid, 1, o, i, "", "{}") for eid, o, i in _ids(pairs)]
        seen: set[tuple[int, int]] = set()
        batches: list[list[tuple[object, ...]]] = [[]]
        for row in rows:  # the engine upserts a repeated pair; here it is left out
            if (row[2], row[3]) in seen:
                continue
            seen.add((row[2], row[3]))
            if len(batches[-1]) == batch:
                batches.append([])
            batches[-1].append(row)
        wall, cpu = time.perf_counter(), time.process_time()
        for part in batches:
            with store.write() as tx:
                tx.elements.edges_insert(part, unique_parts=True)
        wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
        size = os.path.getsize(path) / 2**20
        n = len(seen)
        return f"| store | {n / wall:,.0f} | {cpu / n * 1e6:.1f} µs | {size:.0f} MiB |"
    finally:
        store.close()
        for suffix in ("", "-wal", "-shm"):
            if os.path.exists(path + suffix):
                os.remove(path + suffix)


def measure(layout: str, vertices: int, pairs: list[tuple[int, int]], batch: int) -> str:
    if layout == "store":
        return measure_store(vertices, pairs, batch)
    fd, path = tempfile.mkstemp(suffix=".db")
    os.close(fd)
    con = sqlite3.connect(path, isolation_level=None)
    try:
        for pragma in PRAGMAS:
            con.execute("PRAGMA " + pragma)
        con.execute("CREATE TABLE vertices(key INTEGER PRIMARY KEY AUTOINCREMENT, id BLOB NOT NULL UNIQUE, "
                    "label_id INTEGER NOT NULL, props BLOB)")
        if layout == "v1":
            ddl = V1
            sql = "INSERT OR IGNORE INTO edges(id, label_id, out_key, in_key, props) VALUES (?, 1, ?, ?, '{}')"
            rows: list[tuple[object, ...]] = _ids(pairs)
        elif layout == "keyed":
            ddl = KEYED
            sql = "INSERT OR IGNORE INTO edges(id, label_id, out_key, in_key, props) VALUES (?, 1, ?, ?, '{}')"
            rows = _ids(pairs)
        elif layout == "ckeyed":
            ddl = CLUSTERED_KEYED
            sql = "INSERT OR IGNORE INTO edges(out_key, label_id, in_key, key, props) VALUES (?, 1, ?, ?, '{}')"
            rows = [(o, i, n + 1) for n, (o, i) in enumerate(pairs)]
        else:
            ddl = CLUSTERED
            sql = "INSERT OR IGNORE INTO edges(out_key, label_id, in_key, props) VALUES (?, 1, ?, '{}')"
            rows = list(pairs)
        for stmt in ddl:
            con.execute(stmt)
        con.execute("BEGIN")
        con.executemany("INSERT INTO vertices(id, label_id, props) VALUES (?, 1, '{}')",
                        ((f"1:p{i}",) for i in range(vertices)))
        con.execute("COMMIT")
        wall, cpu = time.perf_counter(), time.process_time()
        for start in range(0, len(rows), batch):
            con.execute("BEGIN")
            con.executemany(sql, rows[start:start + batch])
            con.execute("COMMIT")
        wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
        size = os.path.getsize(path) / 2**20
        return (f"| {layout} | {len(rows) / wall:,.0f} | {cpu / len(rows) * 1e6:.1f} µs | {size:.0f} MiB |")
    finally:
        con.close()
        for suffix in ("", "-wal", "-shm"):
            if os.path.exists(path + suffix):
                os.remove(path + suffix)


def main() -> None:
    ap = argparse.ArgumentParser(prog="python -m bench.edge_layout", description=__doc__.split("\n\n")[0])
    ap.add_argument("--size", choices=sorted(SIZES), default="small")
    ap.add_argument("--batch", type=int, default=500)
    ap.add_argument("--layouts", default="v1,keyed,clustered,store")
    args = ap.parse_args()
    vertices, edges = SIZES[args.size]
    rng = random.Random(1)
    pairs = [(rng.randrange(1, vertices + 1), rng.randrange(1, vertices + 1)) for _ in range(edges)]
    print(f"# edge inserts, {args.size}: {vertices:,} vertices, {edges:,} edges, {args.batch} per commit\n")
    print("| layout | edges/s (wall) | CPU per edge | file |\n|---|---:|---:|---:|")
    for layout in args.layouts.split(","):
        print(measure(layout, vertices, pairs, args.batch), flush=True)


if __name__ == "__main__":
    main()
