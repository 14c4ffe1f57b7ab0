"""The `.properties` parser and server settings."""

from __future__ import annotations

from pathlib import Path

import pytest

from rest_adapter.settings import Settings, SettingsError, parse_properties
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


def test_settings_load(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    conf = write_conf(
        tmp_path,
        {"one": "backend=memory\nschema.mode=auto\ngremlin.graph=x.Factory\n", "two": "store=data/two.db\n"},
        {"restserver.url": "http://0.0.0.0:9999", "gremlinserver.evaluation_timeout_ms": "1234",
         "batch.max_vertices_per_batch": "7", "gremlin.import_dir": "imports"},
    )
    s = Settings.load(conf)
    assert (s.host, s.port) == ("0.0.0.0", 9999)
    assert s.evaluation_timeout_ms == 1234
    assert s.max_vertices_per_batch == 7 and s.max_edges_per_batch == 500
    assert s.import_dir == tmp_path / "imports"
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
