"""The engine's auth parts without a server: the storage table, the records' rules on a
real store, role derivation and containment, resource types, and `authenticate` for an
embedded connection given credentials."""

from __future__ import annotations

import pytest

import storage
from gremlin_engine.auth import (
    ANONYMOUS_ADMIN,
    AuthenticationFailed,
    AuthRecords,
    Principal,
    StandardAuthenticator,
    authenticate,
    ensure_admin,
    records_in_file,
)
from gremlin_engine.auth.records import role_contains
from gremlin_engine.auth.resources import covers, normalise
from gremlin_engine.errors import Forbidden, IllegalArgument


@pytest.fixture
def store():
    s = storage.open_store(None)
    s.initialise()
    yield s
    s.close()


def test_auth_table_counts_writes_and_refuses_duplicates(store) -> None:
    with store.write() as tx:
        table = storage.AuthTable(tx)
        assert table.generation() == 0
        table.insert("user", "-63:a", "a", "{}")
        with pytest.raises(storage.StoreConflict):
            table.insert("user", "-63:other", "a", "{}")  # the same name
        table.update("user", "-63:a", '{"x": 1}')
        assert table.generation() == 2
        assert table.list("user") == [("-63:a", '{"x": 1}')]  # the counter row is no record
        table.revoke("abc", 10)
        assert table.revoked("abc") and not table.revoked("abd")
        table.forget_revoked(11)
        assert not table.revoked("abc")


def test_tables_are_made_in_a_store_initialised_before_them(tmp_path) -> None:
    path = tmp_path / "old.db"
    s = storage.open_store(path)
    s.initialise()
    with s.write() as tx:
        tx.raw.execute("DROP TABLE auth_records")
        tx.raw.execute("DROP TABLE auth_revoked")
    s.close()
    with records_in_file(path) as records:
        assert ensure_admin(records, "pw-admin")
        assert not ensure_admin(records, "another")
    with records_in_file(path) as records:
        assert records.user_by_name("admin")["user_creator"] == "system"


def test_authenticate_for_embedded_connections(store) -> None:
    records = AuthRecords(store)
    ensure_admin(records, "pw-admin")
    records.create(ANONYMOUS_ADMIN, "users", {"user_name": "eve", "user_password": "eve-pw"})
    assert authenticate(store, "admin", "pw-admin").admin
    eve = authenticate(store, "eve", "eve-pw")
    assert (eve.name, eve.user_id, eve.admin, eve.role) == ("eve", "-63:eve", False, {})
    with pytest.raises(AuthenticationFailed):
        authenticate(store, "eve", "wrong")


def test_a_changed_password_or_grant_is_seen_at_once(store) -> None:
    records = AuthRecords(store)
    user = records.create(ANONYMOUS_ADMIN, "users", {"user_name": "tom", "user_password": "one-pw"})
    auth = StandardAuthenticator(records)
    assert auth.check_password("tom", "one-pw").role == {}
    group = records.create(ANONYMOUS_ADMIN, "groups", {"group_name": "g"})
    target = records.create(ANONYMOUS_ADMIN, "targets", {"target_name": "t", "target_graph": "g1",
                                                         "target_url": "h", "target_resources": [{"type": "VAR"}]})
    records.create(ANONYMOUS_ADMIN, "belongs", {"user": user["id"], "group": group["id"]})
    records.create(ANONYMOUS_ADMIN, "accesses", {"group": group["id"], "target": target["id"],
                                                 "access_permission": "read"})
    assert auth.check_password("tom", "one-pw").role == {
        "g1": {"READ": [{"type": "VAR", "label": "*", "properties": None}]}}
    records.set_password("tom", "two-pw")
    assert auth.check_password("tom", "one-pw") is None
    assert auth.check_password("tom", "two-pw") is not None


def test_records_rules(store) -> None:
    records = AuthRecords(store)
    nobody = Principal("nobody", "-63:nobody", role={})
    with pytest.raises(Forbidden):
        records.create(nobody, "groups", {"group_name": "g"})
    with pytest.raises(IllegalArgument, match="The graph of target can't be null"):
        records.create(ANONYMOUS_ADMIN, "targets", {"target_name": "t", "target_url": "h"})
    with pytest.raises(IllegalArgument, match="Invalid access permission 'ALL'"):
        records.create(ANONYMOUS_ADMIN, "accesses", {"group": "x", "target": "y", "access_permission": "ALL"})


def test_resource_types_and_containment() -> None:
    assert covers("ROOT", "GRANT") and covers("ALL", "VERTEX") and covers("ALL", "META")
    assert not covers("ALL", "GRANT") and not covers("VERTEX", "EDGE")
    assert covers("SCHEMA", "VERTEX_LABEL") and not covers("SCHEMA", "VERTEX")
    person = normalise([{"type": "VERTEX", "label": "person"}])
    beijing = normalise([{"type": "VERTEX", "label": "person", "properties": {"city": "Beijing"}}])
    assert role_contains({"g": {"READ": person}}, {"g": {"READ": beijing}})
    assert not role_contains({"g": {"READ": beijing}}, {"g": {"READ": person}})
    assert not role_contains({"g": {"READ": person}}, {"g": {"WRITE": beijing}})
    assert not role_contains({"g": {"READ": person}}, {"h": {"READ": beijing}})
    with pytest.raises(IllegalArgument):
        normalise([{"type": "VERTEX", "colour": "red"}])
