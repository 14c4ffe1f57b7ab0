"""Where the built parser is kept between processes (`grammar.parser_cache_file`)."""

from __future__ import annotations

from pathlib import Path

import pytest

import grammar

SCRIPT = "g.V(1).out('knows').has('age', gt(30)).values('name')"


def test_the_parser_is_kept_in_the_configured_cache_dir_and_loads_from_it(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(grammar.CACHE_DIR_ENV, str(tmp_path / "cache"))
    path = grammar.parser_cache_file()
    assert path is not None and path.parent == tmp_path / "cache"
    assert (tmp_path / "cache").stat().st_mode & 0o777 == 0o700
    assert not path.exists()
    built = grammar.build_parser()
    assert path.is_file() and path.stat().st_size > 10_000
    loaded = grammar.build_parser()  # now read from the file
    assert loaded.parse(SCRIPT) == built.parse(SCRIPT)
    assert loaded.parse(SCRIPT) == grammar.build_parser(cache=False).parse(SCRIPT)


def test_the_file_name_carries_the_grammar_hash_and_versions(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import hashlib
    import sys

    import lark

    monkeypatch.setenv(grammar.CACHE_DIR_ENV, str(tmp_path))
    path = grammar.parser_cache_file()
    assert path is not None
    key = hashlib.sha256(grammar.GRAMMAR_FILE.read_bytes()).hexdigest()[:16]
    assert path.name == f"gremlin-{key}-lark{lark.__version__}-py{sys.version_info[0]}{sys.version_info[1]}.parser"


def test_default_dir_follows_xdg_then_home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(grammar.CACHE_DIR_ENV, raising=False)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    assert grammar.cache_dir() == tmp_path / "xdg" / "hugelite"
    monkeypatch.delenv("XDG_CACHE_HOME")
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    assert grammar.cache_dir() == tmp_path / "home" / ".cache" / "hugelite"


def test_an_unusable_cache_dir_builds_in_memory(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    blocker = tmp_path / "a-file"
    blocker.write_text("not a folder")
    monkeypatch.setenv(grammar.CACHE_DIR_ENV, str(blocker / "cache"))
    assert grammar.parser_cache_file() is None
    parser = grammar.build_parser()
    assert parser.parse(SCRIPT) == grammar.build_parser(cache=False).parse(SCRIPT)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["a-file"]
