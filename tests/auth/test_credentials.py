"""Credentials over REST with auth on: 401/400 bodies, the public path, tokens (login,
verify, logout, expiry), the login throttle, a password changed by another process, and
auth off ignoring credentials."""

from __future__ import annotations

import time

import httpx

from tests.auth.conftest import ADMIN_PASSWORD, start_auth_server
from tests.conftest import ServerFactory, run_cli

NOT_AUTHORIZED = "class jakarta.ws.rs.NotAuthorizedException"


def test_versions_is_public_and_everything_else_needs_credentials(anon: httpx.Client) -> None:
    assert anon.get("/versions").status_code == 200
    assert anon.get("/console").status_code in (200, 503)  # the console's page (503: not built) carries the login
    for path in ("/graphs", "/graphs/hugegraph/schema", "/no/such/route", "/graphspaces/DEFAULT/auth/users"):
        r = anon.get(path)
        assert r.status_code == 401, path
        assert r.json() == {"exception": NOT_AUTHORIZED, "message": "Authentication credentials are required",
                            "cause": ""}
        assert r.headers["www-authenticate"] == "Missing authentication credentials"


def test_wrong_credentials_and_other_schemes(anon: httpx.Client) -> None:
    r = anon.get("/graphs", auth=("admin", "wrong"))
    assert r.status_code == 401
    assert r.json() == {"exception": NOT_AUTHORIZED, "message": "Authentication failed", "cause": ""}
    assert anon.get("/graphs", auth=("nobody", "x")).status_code == 401
    r = anon.get("/graphs", headers={"Authorization": "Digest username=admin"})
    assert r.status_code == 400
    assert r.json()["message"] == "Only HTTP Basic or Bearer authentication is supported"
    r = anon.get("/graphs", headers={"Authorization": "Basic Og=="})  # ":" (what an empty client sends)
    assert (r.status_code, r.json()["message"]) == (400, "Invalid syntax for username and password")
    r = anon.get("/graphs", headers={"Authorization": "Bearer not.a.token"})
    assert (r.status_code, r.json()["message"]) == (401, "Authentication failed")


def test_gremlin_without_credentials_is_refused_and_writes_nothing(anon: httpx.Client, admin: httpx.Client) -> None:
    body = {"gremlin": "graph.variables().set('intruder', 1); 'done'", "aliases": {"graph": "hugegraph"}}
    r = anon.post("/gremlin", json=body)
    assert r.status_code == 401
    assert "intruder" not in admin.get("/graphs/hugegraph/variables").json()
    assert admin.post("/gremlin", json={"gremlin": "1 + 1"}).json()["result"]["data"] == [2]


def test_login_verify_logout(anon: httpx.Client, admin: httpx.Client) -> None:
    admin.post("/graphspaces/DEFAULT/auth/users", json={"user_name": "tokuser", "user_password": "tok-pw"})
    # login itself needs credentials (HugeGraph 1.3+): a request without any is a 401
    assert anon.post("/auth/login", json={"user_name": "tokuser", "user_password": "tok-pw"}).status_code == 401
    r = admin.post("/auth/login", json={"user_name": "tokuser", "user_password": "wrong"})
    assert (r.status_code, r.json()["message"]) == (401, "Incorrect username or password")
    r = admin.post("/auth/login", json={"user_name": "tokuser"})
    assert (r.status_code, r.json()["message"]) == (400, "The password of user can't be null")
    token = admin.post("/auth/login", json={"user_name": "tokuser", "user_password": "tok-pw"}).json()["token"]
    bearer = {"Authorization": f"Bearer {token}"}
    expected = {"user_name": "tokuser", "user_id": "-63:tokuser"}
    assert anon.get("/auth/verify", headers=bearer).json() == expected
    assert anon.get("/graphs/hugegraph/auth/verify", headers=bearer).json() == expected  # 1.5's path
    assert anon.get("/graphs", headers=bearer).status_code == 200
    r = admin.get("/auth/verify")  # Basic is not a token
    assert (r.status_code, r.json()["message"]) == (400, "Only HTTP Bearer authentication is supported")
    assert anon.delete("/auth/logout", headers=bearer).status_code == 204
    assert anon.get("/graphs", headers=bearer).status_code == 401
    assert anon.get("/auth/verify", headers=bearer).status_code == 401
    # 1.5's login path gives a token too
    r = admin.post("/graphs/hugegraph/auth/login", json={"user_name": "tokuser", "user_password": "tok-pw"})
    assert r.status_code == 200 and r.json()["token"].count(".") == 2


def test_tokens_expire(server_factory: ServerFactory) -> None:
    server = start_auth_server(server_factory, **{"auth.token_expire": "1"})
    try:
        with httpx.Client(base_url=server.base_url, timeout=30) as http:
            token = http.post("/auth/login", auth=("admin", ADMIN_PASSWORD),
                              json={"user_name": "admin", "user_password": ADMIN_PASSWORD}).json()["token"]
            bearer = {"Authorization": f"Bearer {token}"}
            assert http.get("/graphs", headers=bearer).status_code == 200
            time.sleep(2.2)
            r = http.get("/graphs", headers=bearer)
            assert (r.status_code, r.json()["message"]) == (401, "Authentication failed")
    finally:
        server.stop()


def test_repeated_failures_are_slowed_then_refused(server_factory: ServerFactory) -> None:
    """A server of its own: the throttle counts per address too, and every test here is 127.0.0.1."""
    server = start_auth_server(server_factory)
    try:
        with httpx.Client(base_url=server.base_url, timeout=60) as http:
            wrong = ("admin", "wrong")
            for _ in range(6):  # five free failures, and the sixth is answered without a wait too
                assert http.get("/graphs", auth=wrong).status_code == 401
            started = time.perf_counter()
            for _ in range(2):  # then each waits twice as long as the last (0.25 s, 0.5 s)
                assert http.get("/graphs", auth=wrong).status_code == 401
            assert time.perf_counter() - started >= 0.7
            for _ in range(3):  # 1, 2, 4 s
                assert http.get("/graphs", auth=wrong).status_code == 401
            # now the wait would be over 5 s: refused at once, even with the right password
            r = http.get("/graphs", auth=("admin", ADMIN_PASSWORD))
            assert r.status_code == 401
            assert "Too many failed logins" in r.headers["www-authenticate"]
    finally:
        server.stop()


def test_a_password_changed_by_the_cli_is_seen_by_a_running_server(server_factory: ServerFactory) -> None:
    """`hugelite users passwd` on the store a server serves (another process): the server,
    which remembers the old password as checked, refuses it within its sync interval (1 s)."""
    server = start_auth_server(server_factory)
    try:
        with httpx.Client(base_url=server.base_url, timeout=30) as http:
            old = ("admin", ADMIN_PASSWORD)
            assert http.get("/graphs", auth=old).status_code == 200  # checked, and remembered
            done = run_cli("users", "passwd", "admin", "--password", "changed-pw", "--conf", str(server.conf),
                           cwd=server.cwd)
            assert done.returncode == 0, done.stderr
            deadline = time.monotonic() + 10
            while http.get("/graphs", auth=old).status_code == 200:
                assert time.monotonic() < deadline, "the old password still logs in"
                time.sleep(0.2)
            assert http.get("/graphs", auth=("admin", "changed-pw")).status_code == 200
    finally:
        server.stop()


def test_auth_off_ignores_credentials(http: httpx.Client) -> None:
    for header in ("Basic Og==", "Basic " + "YWRtaW46d3Jvbmc=", "Bearer garbage", "Digest x"):
        assert http.get("/graphs", headers={"Authorization": header}).status_code == 200
    r = http.get("/graphspaces/DEFAULT/auth/users")
    assert r.status_code == 400
    assert r.json()["message"].startswith("Unconfigured authenticator, please config auth.authenticator")


def test_the_interface_description_is_public(anon: httpx.Client) -> None:
    """HugeGraph serves its OpenAPI document without credentials; so do we, and Swagger UI."""
    doc = anon.get("/openapi.json")
    assert doc.status_code == 200 and doc.json()["openapi"].startswith("3.1")
    assert anon.get("/swagger").status_code == 200
    assert anon.get("/graphs").status_code == 401
