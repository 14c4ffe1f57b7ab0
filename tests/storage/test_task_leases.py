"""Task leases and write generations (`storage/task_leases.py`, `storage/generations.py`): what
several processes serving one store agree through, on a real store."""

from __future__ import annotations

from storage import (
    SCHEMA_GENERATION,
    Store,
    TaskLeases,
    bump_generation,
    ensure_task_leases,
    generation,
    open_store,
)


def _task(tx, status: str) -> int:
    return tx.records.task_insert({"type": "gremlin", "name": "x", "status": status, "progress": 0,
                                   "create_ms": 1, "retries": 0, "callable": "c"})


def test_a_lease_is_held_by_one_owner_until_released(store: Store) -> None:
    with store.write() as tx:
        ensure_task_leases(tx)
        ensure_task_leases(tx)  # idempotent
        running, queued, orphan = _task(tx, "running"), _task(tx, "queued"), _task(tx, "running")
        done = _task(tx, "success")
        leases = TaskLeases(tx)
        leases.take(running, "host/1/a", 1_000)
        leases.take(queued, "host/2/b", 5_000)
    with store.write() as tx:
        leases = TaskLeases(tx)
        assert leases.hold(running, "host/1/a", 2_000) is True
        assert leases.hold(running, "host/2/b", 9_000) is False  # not the holder: no claim
        assert leases.renew("host/2/b", 6_000) == 1
        assert sorted(leases.owned("host/2/b")) == [queued]
        assert leases.unfinished(("queued", "running")) == [
            (running, "running", "host/1/a", 2_000), (queued, "queued", "host/2/b", 6_000), (orphan, "running", None, None)]
        assert done not in [t for t, *_ in leases.unfinished(("queued", "running"))]
    with store.write() as tx:
        tx.records.task_delete(queued)  # a forced delete: the holder must learn of it
        leases = TaskLeases(tx)
        assert leases.statuses("host/2/b") == [(queued, None)]
        assert leases.statuses("host/1/a") == [(running, "running")]
        leases.forget_expired(3_000)  # the lease of `running` (2,000) had expired
        assert leases.owned("host/1/a") == []
        leases.release(queued)
        assert leases.owned("host/2/b") == []


def test_a_generation_counts_committed_writes_only(tmp_path) -> None:
    one, two = open_store(tmp_path / "g.db"), None
    one.initialise()
    try:
        two = open_store(tmp_path / "g.db")  # another connection set: as another process
        with two.read() as tx:
            assert generation(tx, SCHEMA_GENERATION) == 0
        try:
            with one.write() as tx:
                assert bump_generation(tx, SCHEMA_GENERATION) == 1
                raise RuntimeError("rolled back")
        except RuntimeError:
            pass
        with one.write() as tx:
            assert bump_generation(tx, SCHEMA_GENERATION) == 1
            assert bump_generation(tx, SCHEMA_GENERATION) == 2
            with two.read() as other:
                assert generation(other, SCHEMA_GENERATION) == 0  # not committed yet
        with two.read() as tx:
            assert generation(tx, SCHEMA_GENERATION) == 2
    finally:
        one.close()
        if two is not None:
            two.close()
