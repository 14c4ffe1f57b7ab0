"""Graph create/drop touch only the server's data folder, and only its own files (issue 16 item 2).

Before: `POST /graphs/{name}` with `"store": "/nonexistent_dir/x/y.db"` created that file,
a foreign SQLite database got hugelite's tables added, a file that is not a database was a
500, and `DELETE /graphs/{name}` deleted the foreign database.
"""

from __future__ import annotations

import sqlite3
from pathlib import Path

import httpx
import pytest

from tests.conftest import RunningServer
from tests.hostile.conftest import Watch

DROP = {"confirm_message": "I'm sure to drop the graph"}


def _refused(answer: httpx.Response, *words: str) -> None:
    assert answer.status_code == 400, answer.text
    body = answer.json()
    assert list(body) == ["exception", "message", "cause"]
    assert body["exception"] == "class java.lang.IllegalArgumentException"
    for word in words:
        assert word in body["message"]
    assert "Traceback" not in body["message"] and "sqlite3" not in body["message"]


def _graphs(client: httpx.Client) -> list[str]:
    return client.get("/graphs").json()["graphs"]


@pytest.mark.parametrize(
    "store", ["/tmp/hugelite-hostile/x/y.db", "../escape", "data/../../escape.db", "a/b", "x\x00y", "C:\\x.db"]
)
def test_a_store_path_is_refused_and_nothing_is_created(client: httpx.Client, hostile_server: RunningServer,
                                                        watch: Watch, store: str) -> None:
    before = sorted(p.name for p in hostile_server.cwd.rglob("*"))
    with watch:
        answer = client.post("/graphs/pathy", json={"backend": "sqlite", "store": store})
    watch.assert_held()
    _refused(answer, "'store' must be a store name", "data folder")
    assert "pathy" not in _graphs(client)
    assert not Path("/tmp/hugelite-hostile").exists()
    assert sorted(p.name for p in hostile_server.cwd.rglob("*")) == before


def test_a_properties_body_with_a_path_is_refused_too(client: httpx.Client) -> None:
    answer = client.post("/graphs/pathy", content="backend=sqlite\nstore=/tmp/hugelite-hostile.db\n",
                         headers={"Content-Type": "text/plain"})
    _refused(answer, "'store' must be a store name")
    assert not Path("/tmp/hugelite-hostile.db").exists()


def test_a_store_name_lives_in_the_data_folder_and_drop_deletes_it(client: httpx.Client,
                                                                     hostile_server: RunningServer) -> None:
    answer = client.post("/graphs/named", json={"backend": "sqlite", "store": "named_store"})
    assert answer.status_code == 201, answer.text
    file = hostile_server.cwd / "data" / "named_store.db"
    assert file.is_file()
    assert "store=data/named_store.db" in client.get("/graphs/named/conf").text
    assert client.delete("/graphs/named", params=DROP).status_code == 204
    assert not file.exists()


@pytest.mark.parametrize(
    ("content", "why"),
    [(None, "it is a SQLite database with other tables"), (b"not a database at all " * 50, "it is not a SQLite database")],
)
def test_a_file_that_is_not_a_hugelite_store_is_refused_untouched(
    client: httpx.Client, hostile_server: RunningServer, watch: Watch, content: bytes | None, why: str
) -> None:
    file = hostile_server.cwd / "data" / "foreign.db"
    file.unlink(missing_ok=True)
    if content is None:
        with sqlite3.connect(file) as conn:
            conn.execute("CREATE TABLE accounts (owner TEXT)")
            conn.execute("INSERT INTO accounts VALUES ('somebody')")
        conn.close()
    else:
        file.write_bytes(content)
    before = file.read_bytes()
    with watch:
        answer = client.post("/graphs/foreign", json={"backend": "sqlite", "store": "foreign"})
    watch.assert_held()
    _refused(answer, "is not a hugelite database", why, "left untouched")
    assert file.read_bytes() == before
    assert sorted(p.name for p in file.parent.glob("foreign.db*")) == ["foreign.db"]
    assert "foreign" not in _graphs(client)
    assert not (hostile_server.conf / "graphs" / "foreign.properties").exists()


def test_drop_keeps_a_file_hugelite_did_not_create(client: httpx.Client, hostile_server: RunningServer) -> None:
    file = hostile_server.cwd / "data" / "adopted.db"
    file.parent.mkdir(exist_ok=True)
    file.write_bytes(b"")  # an empty file is an empty database: adopted, but not ours
    answer = client.post("/graphs/adopted", json={"backend": "sqlite"})
    assert answer.status_code == 201, answer.text
    assert client.delete("/graphs/adopted", params=DROP).status_code == 204
    assert "adopted" not in _graphs(client)
    assert file.is_file()


@pytest.mark.parametrize("name", ["bad%01name", "tab%09name", "new%0Aline", "dot.dot", "x" * 49])
def test_graph_names_with_control_characters_or_separators_are_refused(client: httpx.Client, name: str) -> None:
    answer = client.post(f"/graphs/{name}", json={"backend": "memory"})
    _refused(answer, "Invalid graph name")
    assert len(_graphs(client)) == 2
