"""Crash test on PostgreSQL (issue 24), in `make test-postgres`: `kill -9` of the server during
concurrent batch loads into a PostgreSQL-backed graph, restart, and no acknowledged batch is
lost and no batch is present in part.

The trials of `bench/crash.py` (its docstring tells the procedure; `python -m bench.crash
--backend postgresql --trials 100` is the long run) on one database of the test cluster,
with a fixed seed. A request's writes are one PostgreSQL transaction, committed before the
server answers, so a killed server leaves each batch committed whole or rolled back by
PostgreSQL when the connection dies; the store check after each kill is `amcheck`'s
`bt_index_check` of every index.
"""

from __future__ import annotations

import random
from pathlib import Path

from bench.crash import postgres_props, run_round
from tests.backends import new_database_name, postgres_only, server_url
from tests.hostile.test_crash import TRIALS, assert_no_batch_lost_or_partial


@postgres_only("kills a server loading into a PostgreSQL-backed graph")
def test_kill_9_during_postgresql_batch_loads_loses_no_acknowledged_batch(tmp_path: Path) -> None:
    props = postgres_props(server_url(), new_database_name("crash"))
    trials = run_round(tmp_path, random.Random(24), TRIALS, loaders=3, singles=2, kill_window_s=(0.5, 3.0),
                       props=props)
    assert_no_batch_lost_or_partial(trials)
