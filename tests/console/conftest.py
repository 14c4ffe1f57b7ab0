"""The web console's browser harness: a real server, a real headless Chromium.

The browser is Debian's `chromium` package (`/usr/bin/chromium`, or `HUGELITE_CHROMIUM`),
driven by Playwright from PyPI through `executable_path`: nothing is downloaded at test time.
`.ci/run` installs the package on a fresh machine; `make install` builds the console. When
either is missing the tests fail, saying how to get it: a skipped browser test would pass a
console nobody has seen work.

The served graphs: `dead`, TinkerPop's Grateful Dead graph (808 vertices, 8049 edges) in
memory, read with `g.io()`; and `people`, a strict-schema sqlite graph with a primary key and
a secondary index, for the lookups.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from rest_adapter.console_page import DIST
from tests.conftest import RunningServer, ServerFactory

CHROMIUM = Path(os.environ.get("HUGELITE_CHROMIUM", "/usr/bin/chromium"))
#: the evaluation timeout the console must show (`5 s`)
TIMEOUT_MS = 5000
#: set to a folder (e.g. `docs`) to save the main views' screenshots there
SHOTS = os.environ.get("HUGELITE_CONSOLE_SHOTS")

PEOPLE_SCHEMA = (
    "schema = graph.schema(); "
    "schema.propertyKey('name').asText().ifNotExist().create(); "
    "schema.propertyKey('age').asInt().ifNotExist().create(); "
    "schema.propertyKey('city').asText().ifNotExist().create(); "
    "schema.vertexLabel('person').properties('name', 'age', 'city').primaryKeys('name')"
    ".nullableKeys('age', 'city').ifNotExist().create(); "
    "schema.edgeLabel('knows').sourceLabel('person').targetLabel('person').ifNotExist().create(); "
    "schema.indexLabel('personByCity').onV('person').by('city').secondary().ifNotExist().create(); "
    "'ok'"
)
PEOPLE = [("marko", 29, "Rome"), ("vadas", 27, "Oslo"), ("josh", 32, "Rome"), ("peter", 35, "Lima")]


def gremlin(client: httpx.Client, graph: str, script: str) -> Any:
    r = client.post("/gremlin", json={"gremlin": script, "aliases": {"graph": graph, "g": f"__g_{graph}"}})
    assert r.status_code == 200, r.text
    return r.json()["result"]["data"]


# package scope: the server ends with tests/console, not with the whole session
@pytest.fixture(scope="package")
def console_server(server_factory: ServerFactory) -> Iterator[RunningServer]:
    if not (DIST / "console.js").exists():
        pytest.fail(f"the web console is not built ({DIST} is missing): run `make install`")
    running = server_factory.start(
        graphs={"dead": "backend=memory\nschema.mode=auto\n",
                "people": "backend=sqlite\nstore=data/people.db\nschema.mode=strict\n"},
        server={"gremlinserver.evaluation_timeout_ms": str(TIMEOUT_MS)},
    )
    with httpx.Client(base_url=running.base_url, timeout=60) as client:
        assert gremlin(client, "dead", "g.io('grateful-dead-v3.json').read().iterate(); g.V().count()") == [808]
        assert gremlin(client, "people", PEOPLE_SCHEMA) == ["ok"]
        for name, age, city in PEOPLE:
            r = client.post("/graphs/people/graph/vertices",
                            json={"label": "person", "properties": {"name": name, "age": age, "city": city}})
            assert r.status_code == 201, r.text
    yield running
    running.stop()


# module scope: Playwright's sync API keeps an asyncio loop running in this thread while it is
# open, and in-process tests (an asyncio.Runner) cannot run beside it
@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    if not CHROMIUM.exists():
        pytest.fail(f"no Chromium at {CHROMIUM}: install Debian's package (`apt-get install chromium`, "
                    "as .ci/run does) or point HUGELITE_CHROMIUM at a Chromium binary")
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        pytest.fail("the playwright package is missing: `make install` installs the test extra")
    with sync_playwright() as pw:
        # --no-sandbox: CI runs as root, where Chromium's sandbox refuses to start
        browser = pw.chromium.launch(executable_path=str(CHROMIUM), args=["--no-sandbox"])
        yield browser
        browser.close()


@pytest.fixture
def page(browser: Any, console_server: RunningServer) -> Iterator[Any]:
    """A fresh browser context (empty localStorage) on the console; page errors fail the test."""
    context = browser.new_context(viewport={"width": 1200, "height": 820}, base_url=console_server.base_url)
    page = context.new_page()
    page.set_default_timeout(15_000)
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    yield page
    context.close()
    assert not errors, f"JavaScript errors on the page: {errors}"


def shot(page: Any, name: str) -> None:
    """Saves a screenshot of the page as `<SHOTS>/console-<name>.png` when asked to."""
    if SHOTS:
        bottom = page.evaluate("() => Math.max(...[...document.querySelectorAll('header, main > :not([hidden]), "
                               "#login:not([hidden])')].map(e => e.getBoundingClientRect().bottom))")
        height = max(240, min(820, int(bottom) + 16))  # no empty page below the content
        page.screenshot(path=str(Path(SHOTS) / f"console-{name}.png"),
                        clip={"x": 0, "y": 0, "width": 1200, "height": height})
