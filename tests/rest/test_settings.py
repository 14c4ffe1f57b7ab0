"""The `.properties` parser and server settings."""

from __future__ import annotations

from pathlib import Path

import pytest

from rest_adapter.settings import Settings, SettingsError, parse_properties
from tests.backends import sqlite_only
from tests.conftest import write_conf


def test_properties_syntax() -> None:
    text = (
        "# comment\n! also a comment\n\nbackend=sqlite\nstore : data/x.db\n"
        "schema.mode   auto\n  spaced.key = value with spaces  \nempty=\n"
        "long=a,\\\n   b\nurl=http://h:1/p?q=1\n"
    )
    assert parse_properties(text) == {
        "backend": "sqlite",
        "store": "data/x.db",
        "schema.mode": "auto",
        "spaced.key": "value with spaces",
        "empty": "",
        "long": "a,b",
        "url": "http://h:1/p?q=1",
    }


def test_java_escaped_lines_read_as_java_writes_them(tmp_path: Path) -> None:
    """`Properties.store` escapes `:` and `=`; a file written that way binds the port it names."""
    assert parse_properties("restserver.url=http\\://127.0.0.1\\:8081\nkey\\=with\\=eq=v\nname=caf\\u00e9\n") == {
        "restserver.url": "http://127.0.0.1:8081",
        "key=with=eq": "v",
        "name": "caf\u00e9",
    }
    conf = write_conf(tmp_path, {"one": "backend=memory\n"})
    (conf / "rest-server.properties").write_text(
        f"restserver.url=http\\://127.0.0.1\\:8081\ngraphs={conf / 'graphs'}\n"
    )
    s = Settings.load(conf)
    assert (s.host, s.port) == ("127.0.0.1", 8081)


@sqlite_only("reads back the sqlite defaults of the conf it writes")
def test_settings_load(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    conf = write_conf(
        tmp_path,
        {"one": "backend=memory\nschema.mode=auto\ngremlin.graph=x.Factory\n", "two": "store=data/two.db\n"},
        {"restserver.url": "http://0.0.0.0:9999", "gremlinserver.evaluation_timeout_ms": "1234",
         "batch.max_vertices_per_batch": "7", "gremlin.import_dir": "imports",
         "gremlin.export_dir": "exports"},
    )
    s = Settings.load(conf)
    assert (s.host, s.port) == ("0.0.0.0", 9999)
    assert s.evaluation_timeout_ms == 1234
    assert s.max_vertices_per_batch == 7 and s.max_edges_per_batch == 500
    assert s.import_dir == tmp_path / "imports" and s.export_dir == tmp_path / "exports"
    assert s.graphs_dir == tmp_path / "conf" / "graphs"
    one, two = s.graphs
    assert (one.name, one.backend, one.store, one.schema_mode) == ("one", "memory", None, "auto")
    assert one.extra == {"gremlin.graph": "x.Factory"}
    assert (two.name, two.backend, two.schema_mode) == ("two", "sqlite", "strict")
    assert two.store_path == tmp_path / "data" / "two.db"
    assert two.text == "store=data/two.db\n"


def test_settings_errors(tmp_path: Path) -> None:
    conf = write_conf(tmp_path, {}, {"gremlinserver.evaluation_timeout_ms": "soon"})
    with pytest.raises(SettingsError, match="gremlinserver.evaluation_timeout_ms must be an integer"):
        Settings.load(conf)
    conf = write_conf(tmp_path, {}, {"graphs": str(tmp_path / "absent")})
    with pytest.raises(SettingsError, match="graphs folder .*absent does not exist"):
        Settings.load(conf)


def test_connection_bounds(tmp_path: Path) -> None:
    """The connection and request bounds (README "Configuration"): documented defaults, the
    keys read, and uvicorn's options made from them."""
    from rest_adapter.cli import server_options

    defaults = Settings.load(write_conf(tmp_path / "a", {}))
    assert (defaults.connection_idle_timeout_s, defaults.max_connections, defaults.max_request_body_bytes,
            defaults.request_body_timeout_s, defaults.http_parser, defaults.max_header_bytes,
            defaults.request_header_timeout_s, defaults.ws_ping_interval_s, defaults.session_writer_idle_timeout_s) == (
        30, 1000, 16 * 1024 * 1024, 30.0, "httptools", 16 * 1024, 20.0, 0.0, 30.0)
    options = server_options(defaults, "info")
    guard = options["http"]
    assert (guard.parser, guard.idle_timeout_s, guard.header_timeout_s, guard.max_header_bytes,
            guard.max_connections) == ("httptools", 30, 20.0, 16 * 1024, 1000)
    assert (options["timeout_keep_alive"], options["ws_ping_interval"]) == (30, None)
    assert "h11_max_incomplete_event_size" not in options
    assert "limit_concurrency" not in options  # the guard keeps it, answering with HugeGraph's body
    s = Settings.load(write_conf(tmp_path / "b", {}, {
        "restserver.connection_idle_timeout": "3", "restserver.max_connections": "9",
        "restserver.max_request_body_size": "1024", "restserver.request_body_timeout": "0.5",
        "restserver.http_parser": "h11", "restserver.max_header_size": "4096",
        "restserver.request_header_timeout": "2.5",
        "gremlinserver.ws_ping_interval": "15", "gremlinserver.session_writer_idle_timeout": "2"}))
    options = server_options(s, "info")
    guard = options["http"]
    assert (guard.parser, guard.idle_timeout_s, guard.header_timeout_s, guard.max_header_bytes,
            guard.max_connections) == ("h11", 3, 2.5, 4096, 9)
    assert (options["h11_max_incomplete_event_size"], options["timeout_keep_alive"], options["ws_ping_interval"],
            options["ws_ping_timeout"]) == (4096, 3, 15.0, 20.0)
    assert (s.max_request_body_bytes, s.request_body_timeout_s, s.session_writer_idle_timeout_s) == (1024, 0.5, 2.0)


@pytest.mark.parametrize(("key", "value", "says"), [
    ("restserver.max_connections", "0", "must be at least 1"),
    ("restserver.max_request_body_size", "big", "must be an integer"),
    ("restserver.request_body_timeout", "-1", "at least"),
    ("restserver.request_body_timeout", "nan", "at least"),
    ("restserver.http_parser", "fast", "httptools or h11"),
    ("restserver.request_header_timeout", "0", "at least"),
])
def test_bad_bounds_are_refused(tmp_path: Path, key: str, value: str, says: str) -> None:
    with pytest.raises(SettingsError, match=says) as info:
        Settings.load(write_conf(tmp_path, {}, {key: value}))
    assert key in str(info.value)
