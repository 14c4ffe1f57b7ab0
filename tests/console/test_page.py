"""The console page's server side, without a browser: who gets HTML at `/`, what the server
fills in, and that the built files the page names are the package data a wheel ships."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path
from typing import Any

import pytest
from starlette.requests import Request

from rest_adapter import console_page
from rest_adapter.console_page import DIST, PUBLIC_PATHS, console_html, wants_html

ROOT = Path(__file__).resolve().parents[2]


def request(accept: str | None) -> Request:
    headers = [] if accept is None else [(b"accept", accept.encode())]
    return Request({"type": "http", "method": "GET", "path": "/", "headers": headers})


@pytest.mark.parametrize(("accept", "html"), [
    ("text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8", True),  # a browser's navigation
    ("text/html", True),
    (None, False),  # curl without -H, httpx
    ("*/*", False),
    ("application/json", False),
    ("application/json, text/html", False),  # JSON asked for first
    ("application/json;charset=UTF-8", False),  # hugegraph-python
])
def test_only_a_browser_asking_for_html_first_gets_the_page(accept: str | None, html: bool) -> None:
    assert wants_html(request(accept)) is html


def test_the_server_fills_in_its_timeout_and_root_path() -> None:
    page = console_html("/hg/", 12_000)
    assert page is not None, "the console is not built: make install"
    assert '<meta name="hugelite-evaluation-timeout-ms" content="12000">' in page
    assert 'src="/hg/console/console.js"' in page and 'href="/hg/console/console.css"' in page
    assert "{{" not in page


def test_an_unbuilt_console_says_how_to_build_it(monkeypatch: pytest.MonkeyPatch, tmp_path: Path,
                                                 app_client: Any) -> None:
    monkeypatch.setattr(console_page, "DIST", tmp_path)
    assert console_html("", 1000) is None
    r = app_client.get("/console")
    assert r.status_code == 503
    assert r.json() == {"exception": "class java.lang.IllegalStateException", "message": console_page.NOT_BUILT,
                        "cause": ""}
    assert "make install" in console_page.NOT_BUILT


def test_the_files_the_page_names_are_package_data() -> None:
    page = (DIST / "index.html").read_text(encoding="utf-8")
    named = set(re.findall(r'(?:src|href)="\{\{root\}\}/console/([^"]+)"', page))
    assert named == {"console.js", "console.css"}
    assert all((DIST / name).is_file() for name in named)
    # every built file is one an auth filter lets through (console_page.PUBLIC_PATHS)
    assert {f"/console/{p.name}" for p in DIST.iterdir() if p.name != "index.html"} | {"/console"} == PUBLIC_PATHS
    pyproject = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    shipped = pyproject["tool"]["setuptools"]["package-data"]["rest_adapter"]
    assert "console_dist/*" in shipped
    assert DIST == ROOT / "rest_adapter" / "console_dist"
