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

from bench.crash import BATCH, postgres_props, run_round
from tests.backends import new_database_name, postgres_only, server_url

TRIALS = 4


@postgres_only("kills a server loading into a PostgreSQL-backed graph")
def test_kill_9_during_postgresql_batch_loads_loses_no_acknowledged_batch(tmp_path: Path) -> None:
    props = postgres_props(server_url(), new_database_name("crash"))
    trials = run_round(tmp_path, random.Random(24), TRIALS, loaders=3, singles=2, kill_window_s=(0.5, 3.0),
                       props=props)
    assert len(trials) == TRIALS
    for trial in trials:
        assert trial.integrity == "ok", trial.summary()
        assert not trial.refused, trial.refused
        assert not trial.lost, (trial.summary(), trial.lost[:5])
        assert not trial.partial, (trial.summary(), trial.partial[:5])
        assert not trial.unknown, (trial.summary(), trial.unknown[:5])
        assert not trial.earlier_changed, (trial.summary(), trial.earlier_changed[:5])
    acknowledged_batches = [m for t in trials for m in t.acked if t.sent[m][1] == BATCH]
    assert acknowledged_batches  # the kills came after some batches of 500 were acknowledged
    assert all(t.found[m] == BATCH for t in trials for m in t.acked if t.sent[m][1] == BATCH)
