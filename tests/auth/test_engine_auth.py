"""The engine's auth parts without a server: the storage table, the records' rules on a
real store, role derivation and containment, resource types, and `authenticate` for an
embedded connection given credentials."""

from __future__ import annotations

import time

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


def test_remembered_credentials_are_only_verified_ones_and_die_with_a_change(store) -> None:
    records = AuthRecords(store)
    records.create(ANONYMOUS_ADMIN, "users", {"user_name": "ann", "user_password": "ann-pw"})
    auth = StandardAuthenticator(records)
    assert auth.remembered("ann", "ann-pw") is None  # never checked: the records decide
    assert auth.check_password("ann", "wrong") is None
    assert auth.remembered("ann", "wrong") is None  # a wrong password is never remembered
    checked = auth.check_password("ann", "ann-pw")
    assert auth.remembered("ann", "ann-pw") == checked and checked.name == "ann"
    assert auth.remembered("ann", "ann-pw ") is None and auth.remembered("ann2", "ann-pw") is None
    group = records.create(ANONYMOUS_ADMIN, "groups", {"group_name": "g"})  # any write: checked afresh
    assert auth.remembered("ann", "ann-pw") is None
    records.create(ANONYMOUS_ADMIN, "belongs", {"user": "-63:ann", "group": group["id"]})
    assert auth.check_password("ann", "ann-pw") == checked  # same user, same hash, same (empty) role
    assert auth.remembered("ann", "ann-pw") == checked
    records.set_password("ann", "new-pw")
    assert auth.remembered("ann", "ann-pw") is None and auth.check_password("ann", "ann-pw") is None


def test_remembered_tokens_end_at_logout_and_expiry(store) -> None:
    records = AuthRecords(store)
    records.create(ANONYMOUS_ADMIN, "users", {"user_name": "tim", "user_password": "tim-pw"})
    auth = StandardAuthenticator(records, "a-test-secret-of-enough-length-for-hs256")
    token = auth.issue(auth.check_password("tim", "tim-pw"))
    assert auth.remembered_token(token) is None
    assert auth.check_token(token).name == "tim"
    assert auth.remembered_token(token).name == "tim"
    assert auth.remembered_token(token + "x") is None
    auth.logout(token)
    assert auth.remembered_token(token) is None and auth.check_token(token) is None
    expired = StandardAuthenticator(records, auth.secret, expire_s=1)
    short = expired.issue(expired.check_password("tim", "tim-pw"))
    assert expired.check_token(short) is not None and expired.remembered_token(short) is not None
    time.sleep(2.1)
    assert expired.remembered_token(short) is None and expired.check_token(short) is None


def test_writes_of_another_process_are_seen_at_sync(store) -> None:
    served = AuthRecords(store)
    served.create(ANONYMOUS_ADMIN, "users", {"user_name": "ivy", "user_password": "ivy-pw"})
    auth = StandardAuthenticator(served)
    auth.check_password("ivy", "ivy-pw")
    assert not served.sync()  # nothing new
    AuthRecords(store).set_password("ivy", "other-pw")  # as `hugelite users passwd` would
    assert auth.remembered("ivy", "ivy-pw") is not None  # memory only: not seen yet
    assert served.sync()
    assert auth.remembered("ivy", "ivy-pw") is None and auth.check_password("ivy", "ivy-pw") is None
    assert auth.check_password("ivy", "other-pw") is not None


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
