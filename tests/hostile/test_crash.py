"""Crash test in `make test` (issue 16): `kill -9` during concurrent batch loads and single
writes, restart, and no acknowledged batch is lost and no batch is present in part.

A few trials of `bench/crash.py` (whose docstring tells the procedure; `python -m bench.crash
--trials 100` is the long run), on one store, with a fixed seed: the kill moments are spread
over the load so that some land before the first acknowledgement and some during group
commits of several loaders.
"""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

from bench.crash import BATCH, run_round

TRIALS = 4


def test_kill_9_during_batch_loads_loses_no_acknowledged_batch(tmp_path: Path) -> None:
    trials = run_round(tmp_path, random.Random(16), TRIALS, loaders=3, singles=2, kill_window_s=(0.5, 3.0))
    assert_no_batch_lost_or_partial(trials)


def assert_no_batch_lost_or_partial(trials: list[Any]) -> None:
    """What every trial must show (also on PostgreSQL: `test_crash_postgres.py`)."""
    assert len(trials) == TRIALS
    for trial in trials:
        assert trial.integrity == "ok", trial.summary()
        assert not trial.refused, trial.refused
        assert not trial.lost, (trial.summary(), trial.lost[:5])
        assert not trial.partial, (trial.summary(), trial.partial[:5])
        assert not trial.unknown, (trial.summary(), trial.unknown[:5])
        assert not trial.earlier_changed, (trial.summary(), trial.earlier_changed[:5])
    # the trials did test something: batches of 500 were acknowledged and found whole
    acknowledged_batches = [m for t in trials for m in t.acked if t.sent[m][1] == BATCH]
    assert acknowledged_batches
    assert all(t.found[m] == BATCH for t in trials for m in t.acked if t.sent[m][1] == BATCH)
