"""Concurrent writers of one file store (the one writer, `storage/store.py`): a write block
that returned is committed; a block that failed leaves nothing; the other writers' blocks are
untouched by it; threads holding two stores' writers do not deadlock."""

from __future__ import annotations

import threading
from pathlib import Path

import pytest

from storage import Lookup, open_store

WRITERS = 4
BLOCKS = 60


def _other_store_sees(path: Path, vid: str) -> bool:
    """Whether a second `Store` on the file (its own connections) reads the vertex."""
    other = open_store(path)
    try:
        with other.read() as tx:
            return bool(tx.elements.find(Lookup.VERTICES_BY_IDS, [vid]))
    finally:
        other.close()


def test_concurrent_writes_are_committed_when_they_return_and_failures_undo_only_their_own(tmp_path: Path) -> None:
    path = tmp_path / "g.db"
    store = open_store(path)
    store.initialise()
    unseen: list[str] = []
    errors: list[BaseException] = []

    def writer(w: int) -> None:
        try:
            for b in range(BLOCKS):
                vid = f"w{w}-b{b}"
                try:
                    with store.write() as tx:
                        tx.elements.vertex_insert(vid, 1, None)
                        tx.elements.vertex_insert(vid + "-second", 1, None)
                        if b % 7 == 3:
                            raise RuntimeError("this block fails after writing")
                except RuntimeError:
                    continue
                # returned: committed, so a reader on its own connection sees it now
                with store.read() as tx:
                    if not tx.elements.find(Lookup.VERTICES_BY_IDS, [vid]):
                        unseen.append(vid)
        except BaseException as exc:
            errors.append(exc)

    threads = [threading.Thread(target=writer, args=(w,)) for w in range(WRITERS)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors and not unseen
    kept = {f"w{w}-b{b}" for w in range(WRITERS) for b in range(BLOCKS) if b % 7 != 3}
    with store.read() as tx:
        ids = {r.id for r in tx.elements.vertices_scan(None, None, None)}
    assert ids == kept | {v + "-second" for v in kept}
    assert _other_store_sees(path, "w0-b0")
    store.close()


def test_a_driver_error_in_one_writer_fails_that_block_only(tmp_path: Path) -> None:
    """A conflict (the same id twice) is that block's `StoreConflict`; concurrent blocks
    commit."""
    store = open_store(tmp_path / "g.db")
    store.initialise()
    with store.write() as tx:
        tx.elements.vertex_insert("taken", 1, None)
    failures: list[str] = []

    def writer(w: int) -> None:
        for b in range(30):
            try:
                with store.write() as tx:
                    tx.elements.vertex_insert(f"w{w}-{b}", 1, None)
                    if w == 0 and b % 5 == 0:
                        tx.elements.vertex_insert("taken", 1, None)
            except Exception as exc:
                failures.append(f"w{w}-{b}:{type(exc).__name__}")

    threads = [threading.Thread(target=writer, args=(w,)) for w in range(3)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert sorted(failures) == sorted(f"w0-{b}:StoreConflict" for b in range(0, 30, 5))
    with store.read() as tx:
        assert tx.elements.vertex_count() == 1 + 3 * 30 - 6
    store.close()


@pytest.mark.parametrize("memory", [True, False])
def test_a_lone_writer_commits_at_once(tmp_path: Path, memory: bool) -> None:
    store = open_store(None if memory else tmp_path / "g.db")
    store.initialise()
    with store.write() as tx:
        tx.elements.vertex_insert("a", 1, None)
    with store.read() as tx:
        assert tx.elements.vertex_count() == 1
    store.close()


def test_writers_holding_two_stores_do_not_deadlock(tmp_path: Path) -> None:
    """A script writing two graphs holds both writers, ending the first while it still holds
    the second."""
    a, b = open_store(tmp_path / "a.db"), open_store(tmp_path / "b.db")
    a.initialise()
    b.initialise()

    def writer(w: int) -> None:
        for n in range(40):
            wa = a.write()
            txa = wa.__enter__()
            txa.elements.vertex_insert(f"a{w}-{n}", 1, None)
            with b.write() as txb:
                txb.elements.vertex_insert(f"b{w}-{n}", 1, None)
                wa.__exit__(None, None, None)  # ends a's block while b's is still open

    threads = [threading.Thread(target=writer, args=(w,), daemon=True) for w in range(3)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=60)
    assert not any(t.is_alive() for t in threads)
    for store, prefix in ((a, "a"), (b, "b")):
        with store.read() as tx:
            assert tx.elements.vertex_count() == 120, prefix
        store.close()
