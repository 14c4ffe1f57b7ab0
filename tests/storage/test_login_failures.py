"""Failed-login counts (`storage/login_failures.py`) on a real store of each dialect: counting,
delays, what counts as live, forgetting, the bound, and two stores over one database counting
at once (two server processes) without losing a failure."""

from __future__ import annotations

import threading

import pytest

from storage import LoginFailures, Store, ensure_login_failures, open_store


def test_counts_delays_and_clearing(store: Store) -> None:
    with store.write() as tx:
        ensure_login_failures(tx)
        ensure_login_failures(tx)  # idempotent
        table = LoginFailures(tx)
        assert table.count("user:a", 100.0) == (1, 0.0)
        assert table.count("user:a", 101.5) == (2, 0.0)
        table.hold("user:a", 130.25)
        assert table.count("user:a", 102.0) == (3, 130.25)
        table.count("address:x", 103.0)
    with store.read() as tx:
        table = LoginFailures(tx)
        assert table.read(["user:a", "address:x", "user:none"], 0.0, 102.0) == {
            "user:a": (3, 130.25), "address:x": (1, 0.0)}
        assert table.read([], 0.0, 0.0) == {}
        # past the window: a row counts while its delay holds, then not
        assert table.read(["user:a", "address:x"], 110.0, 120.0) == {"user:a": (3, 130.25)}
        assert sorted(table.keys(110.0, 131.0)) == []
        assert len(table) == 2
    with store.write() as tx:
        table = LoginFailures(tx)
        table.clear(["user:a", "user:none"])
        assert table.keys(0.0, 0.0) == ["address:x"]


def test_forget_and_trim_bound_the_table(store: Store) -> None:
    with store.write() as tx:
        ensure_login_failures(tx)
        table = LoginFailures(tx)
        for n in range(10):
            table.count(f"k{n}", float(n // 2))  # pairs at the same instant
        table.hold("k0", 50.0)
        table.forget(3.0, 10.0)  # failed before 3 and no delay left: k1 to k5 go; k0 waits till 50
        assert sorted(table.keys(0.0, 10.0)) == ["k0", "k6", "k7", "k8", "k9"]
        table.trim(3)  # the three latest failures stay (k8, k9 at 4; k6 and k7 tie at 3: the key decides)
        assert sorted(table.keys(0.0, 10.0)) == ["k7", "k8", "k9"]
        table.trim(3)
        assert len(table) == 3


def test_two_stores_counting_at_once_lose_no_failure(store: Store) -> None:
    if store.memory:
        pytest.skip("a memory store lives in one process")
    with store.write() as tx:
        ensure_login_failures(tx)
    other = open_store(store.url or store.path)
    per_thread = 25
    errors: list[BaseException] = []

    def fail(s: Store) -> None:
        try:
            for _ in range(per_thread):
                with s.write() as tx:
                    LoginFailures(tx).count("user:shared", 1.0)
        except BaseException as exc:  # reported below
            errors.append(exc)

    threads = [threading.Thread(target=fail, args=(s,)) for s in (store, other)]
    try:
        for t in threads:
            t.start()
        for t in threads:
            t.join()
    finally:
        other.close()
    assert errors == []
    with store.read() as tx:
        assert LoginFailures(tx).read(["user:shared"], 0.0, 0.0) == {"user:shared": (2 * per_thread, 0.0)}
