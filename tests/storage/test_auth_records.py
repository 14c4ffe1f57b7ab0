"""Auth records (`storage.AuthTable`) behave alike on every dialect: creation order, name
and id conflicts that leave the transaction usable, the write generation, revoked tokens."""

from __future__ import annotations

import pytest

from storage import AuthTable, Store, StoreConflict, ensure_auth_tables


def test_records_conflicts_order_and_generation(store: Store) -> None:
    with store.write() as tx:
        ensure_auth_tables(tx)
        table = AuthTable(tx)
        assert table.present() is True
        for n in ("c", "a", "b"):
            table.insert("user", f"id-{n}", n, f'{{"name":"{n}"}}')
        with pytest.raises(StoreConflict):
            table.insert("user", "id-a", "other", "{}")  # the id is taken
        with pytest.raises(StoreConflict):
            table.insert("user", "id-z", "a", "{}")  # the name is taken
        table.insert("group", "g1", "a", "{}")  # names are unique per kind only
        assert table.update("user", "id-c", '{"name":"c2"}') is True
    with store.read() as tx:
        table = AuthTable(tx)
        assert [i for i, _b in table.list("user")] == ["id-c", "id-a", "id-b"]  # creation order
        assert table.list("user", limit=1) == [("id-c", '{"name":"c2"}')]
        assert table.find("user", "b") == ("id-b", '{"name":"b"}')
        assert table.get("user", "id-z") is None
        assert table.generation() == 5


def test_revoked_tokens(store: Store) -> None:
    with store.write() as tx:
        ensure_auth_tables(tx)
        table = AuthTable(tx)
        table.revoke("d1", 100)
        table.revoke("d1", 200)  # again: the later expiry holds
        table.revoke("d2", 50)
        table.forget_revoked(150)
        assert table.revoked("d1") is True
        assert table.revoked("d2") is False
