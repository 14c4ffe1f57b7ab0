"""The limit: the same operations written by hand in SQL over plain `sqlite3`.

Same physical shape as hugelite's store (a vertex table, an edge table with an adjacency
index on (out, label) and (in, label), a secondary index on the queried property), no
Gremlin, no engine, no SQLAlchemy. Whatever hugelite costs above this is our overhead.
"""

from __future__ import annotations

import sqlite3
from collections import Counter
from pathlib import Path

from bench.workload import Workload


class RawSqlite:
    name = "raw sqlite3"

    def __init__(self, path: Path) -> None:
        self.con = sqlite3.connect(path)
        self.con.executescript(
            """
            PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;
            CREATE TABLE IF NOT EXISTS v (k INTEGER PRIMARY KEY, name TEXT, age INT, city TEXT);
            CREATE TABLE IF NOT EXISTS e (k INTEGER PRIMARY KEY, o INT, i INT, label INT, weight REAL);
            """
        )

    def load(self, w: Workload) -> None:
        with self.con:
            self.con.executemany("INSERT INTO v VALUES (?,?,?,?)", [(i + 1, n, a, c) for i, n, a, c in w.vertices()])
            self.con.executemany("INSERT INTO e (o, i, label, weight) VALUES (?,?,1,?)", [(o + 1, i + 1, wt) for o, i, wt in w.edges()])
            self.con.executescript(
                """
                CREATE INDEX IF NOT EXISTS e_out ON e (o, label, i);
                CREATE INDEX IF NOT EXISTS e_in ON e (i, label, o);
                CREATE INDEX IF NOT EXISTS v_name ON v (name);
                """
            )

    # --- the operations (each returns a value so results can be cross-checked) -------------
    def point_lookup(self, idx: int) -> str:
        return self.con.execute("SELECT name FROM v WHERE k = ?", (idx + 1,)).fetchone()[0]

    def lookup_by_property(self, idx: int) -> int:
        return self.con.execute("SELECT k FROM v WHERE name = ?", (f"p{idx}",)).fetchone()[0] - 1

    def one_hop(self, idx: int) -> int:
        return len(self.con.execute("SELECT i FROM e WHERE o = ? AND label = 1", (idx + 1,)).fetchall())

    def two_hop_count(self, idx: int) -> int:
        return self.con.execute(
            "SELECT count(*) FROM e a JOIN e b ON b.o = a.i AND b.label = 1 WHERE a.o = ? AND a.label = 1", (idx + 1,)
        ).fetchone()[0]

    def group_count_city(self) -> dict[str, int]:
        return dict(self.con.execute("SELECT city, count(*) FROM v GROUP BY city").fetchall())

    def k_hop(self, idx: int, k: int) -> int:
        """Count of paths of length k (what `repeat(out()).times(k).count()` counts)."""
        frontier = Counter({idx + 1: 1})
        for _ in range(k):
            nxt: Counter[int] = Counter()
            keys = list(frontier)
            for chunk in range(0, len(keys), 900):
                part = keys[chunk : chunk + 900]
                q = f"SELECT o, i FROM e WHERE label = 1 AND o IN ({','.join('?' * len(part))})"
                for o, i in self.con.execute(q, part):
                    nxt[i] += frontier[o]
            frontier = nxt
        return sum(frontier.values())

    def close(self) -> None:
        self.con.close()
