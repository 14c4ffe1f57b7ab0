"""`hugelite serve --workers 2`: two real server processes over one SQLite store.

Every request here goes on a connection of its own, so the kernel hands each to whichever
process accepts first. Which process answered is read from `/metrics`, whose request
counters are per process: one process's count of earlier `/metrics` answers only grows, so an
answer whose count is not above the one before came from the other process
(`test_connections_reach_both_processes`). The other tests then show what must hold
whichever process answers: schema made through one request is there for every following one,
a job runs once, cancels and task reads work from another process than the job's (two
keep-alive connections found to be on different processes: `apart`), users log in everywhere.
"""

from __future__ import annotations

import os
import re
import signal
import time
from collections.abc import Iterator
from itertools import pairwise
from pathlib import Path

import httpx
import pytest

from tests.conftest import RunningServer, ServerFactory, run_cli

G = "/graphs/hugegraph"
GRAPHS = {"hugegraph": "backend=sqlite\nstore=data/hugegraph.db\nschema.mode=strict\n"}
ADMIN_PASSWORD = "w0rkers-admin"
FINISHED = ("success", "failed", "cancelled")
#: requests per check: each lands on either process, so both see some of them
REQUESTS = 24
_COUNT = re.compile(r'hugelite_http_requests_total\{method="GET",route="/metrics",status="200"\} (\d+)')


@pytest.fixture(scope="module")
def two(server_factory: ServerFactory) -> RunningServer:
    return server_factory.start(graphs=GRAPHS, workers=2)


@pytest.fixture
def fresh(two: RunningServer) -> Iterator[httpx.Client]:
    """A client that opens a new connection for every request."""
    with httpx.Client(base_url=two.base_url, timeout=30, limits=httpx.Limits(max_keepalive_connections=0)) as c:
        yield c


def _metrics_count(client: httpx.Client) -> int:
    found = _COUNT.search(client.get("/metrics").text)
    return int(found.group(1)) if found else 0


def _wait(client: httpx.Client, task_id: int, within_s: float = 30) -> dict:
    deadline = time.monotonic() + within_s
    while True:
        task = client.get(f"{G}/tasks/{task_id}").json()
        if task["task_status"] in FINISHED or time.monotonic() > deadline:
            return task
        time.sleep(0.05)


def test_connections_reach_both_processes(fresh: httpx.Client) -> None:
    counts = [_metrics_count(fresh) for _ in range(REQUESTS)]
    assert any(b <= a for a, b in pairwise(counts)), f"one process answered everything: {counts}"


def test_schema_made_through_one_request_serves_every_following_one(fresh: httpx.Client) -> None:
    r = fresh.post(f"{G}/schema/propertykeys", json={"name": "wname", "data_type": "TEXT", "cardinality": "SINGLE"})
    assert r.status_code == 202, r.text
    r = fresh.post(f"{G}/schema/vertexlabels", json={"name": "wperson", "id_strategy": "PRIMARY_KEY",
                                                     "properties": ["wname"], "primary_keys": ["wname"]})
    assert r.status_code == 201, r.text
    for i in range(REQUESTS):
        r = fresh.post(f"{G}/graph/vertices", json={"label": "wperson", "properties": {"wname": f"p{i}"}})
        assert r.status_code == 201, (i, r.text)
        assert fresh.get(f"{G}/schema/vertexlabels/wperson").json()["primary_keys"] == ["wname"]
    # and a change made later (a new property on the label) too
    fresh.post(f"{G}/schema/propertykeys", json={"name": "wage", "data_type": "INT", "cardinality": "SINGLE"})
    r = fresh.put(f"{G}/schema/vertexlabels/wperson", params={"action": "append"},
                  json={"name": "wperson", "properties": ["wage"], "nullable_keys": ["wage"]})
    assert r.status_code == 200, r.text
    for i in range(REQUESTS):
        r = fresh.post(f"{G}/graph/vertices", json={"label": "wperson", "properties": {"wname": f"q{i}", "wage": i}})
        assert r.status_code == 201, (i, r.text)


def test_a_job_runs_once_and_any_process_reads_it(fresh: httpx.Client) -> None:
    fresh.post(f"{G}/schema/propertykeys", json={"name": "jname", "data_type": "TEXT", "cardinality": "SINGLE"})
    fresh.post(f"{G}/schema/vertexlabels", json={"name": "jlabel", "id_strategy": "AUTOMATIC",
                                                 "properties": ["jname"]})
    ids = []
    for i in range(4):
        r = fresh.post(f"{G}/jobs/gremlin", json={"gremlin": f"g.addV('jlabel').property('jname', 'job{i}')",
                                                  "bindings": {}, "language": "gremlin-groovy"})
        assert r.status_code == 201, r.text
        ids.append(r.json()["task_id"])
    assert len(set(ids)) == 4
    for task_id in ids:
        assert _wait(fresh, task_id)["task_status"] == "success"
        for _ in range(4):  # every process reads the same finished task
            assert fresh.get(f"{G}/tasks/{task_id}").json()["task_status"] == "success"
    r = fresh.post("/gremlin", json={"gremlin": "g.V().hasLabel('jlabel').values('jname').order()",
                                     "aliases": {"g": "__g_hugegraph"}})
    assert r.json()["result"]["data"] == ["job0", "job1", "job2", "job3"]  # each job's vertex, once


LONG_JOB = "g.inject(1).repeat(identity()).times(60000000).count()"


def _start_long_jobs(client: httpx.Client, n: int) -> list[int]:
    ids = []
    for _ in range(n):
        r = client.post(f"{G}/jobs/gremlin", json={"gremlin": LONG_JOB, "bindings": {}, "language": "gremlin-groovy"})
        assert r.status_code == 201, r.text
        ids.append(r.json()["task_id"])
    deadline = time.monotonic() + 20
    for task_id in ids:
        while client.get(f"{G}/tasks/{task_id}").json()["task_status"] != "running":
            assert time.monotonic() < deadline, "the job did not start"
            time.sleep(0.05)
    return ids


@pytest.fixture
def apart(two: RunningServer) -> Iterator[tuple[httpx.Client, httpx.Client]]:
    """Two keep-alive clients whose connections are on different processes: `/metrics` on
    the first, the second, the first again counts up by one only when the second's request
    went to the other process."""
    first = httpx.Client(base_url=two.base_url, timeout=30)
    others: list[httpx.Client] = []
    try:
        for _ in range(40):
            second = httpx.Client(base_url=two.base_url, timeout=30)
            others.append(second)
            before = _metrics_count(first)
            _metrics_count(second)
            if _metrics_count(first) == before + 1:
                yield first, second
                return
        pytest.fail("40 connections in a row went to the first one's process")
    finally:
        first.close()
        for c in others:
            c.close()


def test_cancel_reaches_the_process_running_the_job(apart: tuple[httpx.Client, httpx.Client]) -> None:
    runner, other = apart
    (task_id,) = _start_long_jobs(runner, 1)
    assert other.get(f"{G}/tasks/{task_id}").json()["task_status"] == "running"  # read by the other process
    r = other.put(f"{G}/tasks/{task_id}", params={"action": "cancel"})  # written there, in the store
    assert r.status_code == 202, r.text
    asked = time.monotonic()
    task = _wait(other, task_id, within_s=10)
    # the holder hears of it within its poll interval (leases.POLL_S, 0.5 s)
    assert task["task_status"] == "cancelled", task
    assert time.monotonic() - asked < 5
    assert runner.get(f"{G}/tasks/{task_id}").json()["task_status"] == "cancelled"


def test_a_forced_delete_through_another_process_stops_the_job(apart: tuple[httpx.Client, httpx.Client]) -> None:
    runner, other = apart
    (task_id,) = _start_long_jobs(runner, 1)
    assert other.delete(f"{G}/tasks/{task_id}", params={"force": "true"}).status_code == 204
    assert runner.get(f"{G}/tasks/{task_id}").status_code == 404
    # the holder sees the record gone and stops the job: its pool's two threads then run two
    # new long jobs at once, which they could not while the deleted one still ran
    both = _start_long_jobs(runner, 2)
    for job in both:
        assert runner.put(f"{G}/tasks/{job}", params={"action": "cancel"}).status_code == 202
        assert _wait(runner, job, within_s=10)["task_status"] == "cancelled"


def test_a_dead_process_leaves_its_job_failed_not_running(two: RunningServer, fresh: httpx.Client) -> None:
    (task_id,) = _start_long_jobs(fresh, 1)
    parent = two.process.pid
    children = [int(p) for p in Path(f"/proc/{parent}/task/{parent}/children").read_text().split()
                if b"spawn_main" in Path(f"/proc/{p}/cmdline").read_bytes()]  # not multiprocessing's tracker
    assert len(children) == 2
    for pid in children:  # kill -9 both: the job's holder among them (uvicorn starts new ones)
        os.kill(pid, signal.SIGKILL)
    deadline = time.monotonic() + 30
    while True:
        try:
            task = fresh.get(f"{G}/tasks/{task_id}").json()
            break
        except httpx.HTTPError:
            assert time.monotonic() < deadline, "no process answered after the kill"
            time.sleep(0.1)
    # the holder's pid is gone, so the next process to read the task gives it up (HugeGraph's
    # distributed scheduler: RUNNING -> FAILED when no server holds the task's lock)
    assert task["task_status"] == "failed", task
    assert "interrupted" in task["task_result"]


def test_graphs_are_not_created_at_runtime(fresh: httpx.Client) -> None:
    r = fresh.post("/graphs/another", json={"backend": "sqlite", "store": "another"})
    assert r.status_code == 400
    assert "2 server processes" in r.json()["message"] and "conf/graphs/another.properties" in r.json()["message"]
    assert fresh.get("/graphs").json()["graphs"] == ["hugegraph"]


def test_a_memory_graph_is_refused_with_workers(tmp_path) -> None:
    from tests.conftest import write_conf

    conf = write_conf(tmp_path, {"hugegraph": GRAPHS["hugegraph"], "scratch": "backend=memory\n"}, None, 0)
    assert run_cli("init-store", "--conf", str(conf), cwd=tmp_path).returncode == 0
    done = run_cli("serve", "--conf", str(conf), "--port", "0", "--workers", "2", cwd=tmp_path)
    assert done.returncode == 2
    assert "graph 'scratch' has backend=memory" in done.stderr
    assert "--workers 1" in done.stderr


@pytest.fixture(scope="module")
def auth_two(server_factory: ServerFactory) -> Iterator[RunningServer]:
    """Auth on, and no `auth.token_secret`: one secret is drawn for both processes."""
    import os

    os.environ["HUGELITE_ADMIN_PASSWORD"] = ADMIN_PASSWORD
    try:
        yield server_factory.start(graphs=GRAPHS, workers=2, server={
            "auth.authenticator": "org.apache.hugegraph.auth.StandardAuthenticator",
            "auth.graph_store": "hugegraph"})
    finally:
        del os.environ["HUGELITE_ADMIN_PASSWORD"]


def test_users_made_through_one_process_log_in_on_every_process(auth_two: RunningServer) -> None:
    limits = httpx.Limits(max_keepalive_connections=0)
    admin = ("admin", ADMIN_PASSWORD)  # HugeGraph's login route wants a caller already authenticated
    with httpx.Client(base_url=auth_two.base_url, timeout=30, limits=limits) as c:
        r = c.post("/graphspaces/DEFAULT/auth/users", auth=admin,
                   json={"user_name": "wuser", "user_password": "w-pw-1"})
        assert r.status_code == 201, r.text
        counts = []
        for _ in range(REQUESTS):
            r = c.post("/auth/login", auth=admin, json={"user_name": "wuser", "user_password": "w-pw-1"})
            assert r.status_code == 200, r.text
            token = r.json()["token"]
            # a token issued by one process verifies on the next connection's, whichever
            assert c.get("/graphs", headers={"Authorization": f"Bearer {token}"}).status_code == 200
            found = _COUNT.search(c.get("/metrics", auth=admin).text)
            counts.append(int(found.group(1)) if found else 0)
        assert any(b <= a for a, b in pairwise(counts)), f"one process answered everything: {counts}"
        # a new password, set through one process, is soon the only one any process takes
        user_id = c.get("/graphspaces/DEFAULT/auth/users", auth=admin).json()["users"]
        uid = next(u["id"] for u in user_id if u["user_name"] == "wuser")
        r = c.put(f"/graphspaces/DEFAULT/auth/users/{uid}", auth=admin,
                  json={"user_password": "w-pw-2"})
        assert r.status_code == 200, r.text
        # the other process remembered the old credentials as good; it learns of the change at
        # its next sync of the records (once a second: docs/auth.md)
        time.sleep(2.5)
        for _ in range(REQUESTS // 2):
            assert c.get("/graphs", auth=("wuser", "w-pw-1")).status_code == 401
            assert c.get("/graphs", auth=("wuser", "w-pw-2")).status_code == 200


def test_a_logout_through_one_process_ends_the_token_on_every_process(auth_two: RunningServer) -> None:
    """Each process remembers tokens it verified; a logout written by one process bumps the
    records' generation, which every other process reads at its next sync (once a second)."""
    limits = httpx.Limits(max_keepalive_connections=0)
    admin = ("admin", ADMIN_PASSWORD)
    with httpx.Client(base_url=auth_two.base_url, timeout=30, limits=limits) as c:
        r = c.post("/auth/login", auth=admin, json={"user_name": "admin", "user_password": ADMIN_PASSWORD})
        assert r.status_code == 200, r.text
        bearer = {"Authorization": f"Bearer {r.json()['token']}"}
        # both processes see (and remember) the token as good
        for _ in range(REQUESTS // 2):
            assert c.get("/graphs", headers=bearer).status_code == 200
        assert c.delete("/auth/logout", headers=bearer).status_code == 204
        time.sleep(2.5)  # the other process's sync runs every second
        statuses = [c.get("/graphs", headers=bearer).status_code for _ in range(REQUESTS // 2)]
        assert statuses == [401] * (REQUESTS // 2)


def _from(address: str, base_url: str) -> httpx.Client:
    """A client whose every request is a new connection from loopback `address` (each
    lands on either process; the throttle's address key is `address`)."""
    transport = httpx.HTTPTransport(local_address=address, limits=httpx.Limits(max_keepalive_connections=0))
    return httpx.Client(base_url=base_url, timeout=30, transport=transport)


def test_failed_logins_count_once_across_processes(auth_two: RunningServer) -> None:
    """The throttle's counts live in the store both processes serve. Eleven wrong passwords
    in a row, each on a new connection (so spread over both processes, as
    `test_connections_reach_both_processes` shows), leave the user 8 s to wait: the next
    attempt is refused unchecked. Counted per process, a 2-way split leaves each well
    under that (5 free failures, then 0.25 s doubling), and the attempt is checked.
    The user's right password is then held off too, on any process, also where it was
    remembered as right; another user from another address is not slowed."""
    admin = ("admin", ADMIN_PASSWORD)
    with _from("127.0.0.1", auth_two.base_url) as c, _from("127.0.0.2", auth_two.base_url) as mallory, \
            _from("127.0.0.3", auth_two.base_url) as elsewhere:
        r = c.post("/graphspaces/DEFAULT/auth/users", auth=admin, json={"user_name": "tuser", "user_password": "t-pw-1"})
        assert r.status_code == 201, r.text
        for _ in range(REQUESTS // 2):  # both processes remember tuser's password as right
            assert elsewhere.get("/graphs", auth=("tuser", "t-pw-1")).status_code == 200
        started = time.monotonic()
        for n in range(11):
            r = mallory.get("/graphs", auth=("tuser", f"guess-{n}"))
            assert r.status_code == 401 and "Too many" not in r.headers.get("www-authenticate", ""), n
        assert time.monotonic() - started >= 0.25 + 0.5 + 1 + 2 + 4  # the 7th to 11th waited
        r = mallory.get("/graphs", auth=("tuser", "guess-11"))
        assert r.status_code == 401
        assert r.headers["www-authenticate"] == "Too many failed logins for this user or address; try again in 8 s"
        time.sleep(1.2)  # every process's picture of who failed is refreshed once a second
        for _ in range(4):
            r = elsewhere.get("/graphs", auth=("tuser", "t-pw-1"))  # right, and remembered, but held
            assert r.status_code == 401 and "Too many failed logins" in r.headers["www-authenticate"]
        assert c.get("/graphs", auth=admin).status_code == 200
