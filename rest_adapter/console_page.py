"""The web console's page and the HTML face of `GET /`.

The console (issue 22) is a static single page built from `console/` (npm packages bundled by
esbuild) into `rest_adapter/console_dist/`, which ships as package data: a wheel carries the
built page, so `pip install` users need no Node. The page holds no data and no private API:
its JavaScript calls the same REST routes as any client, with the same credentials. The server
fills in two things only it knows: its evaluation timeout (shown next to the editor) and the
root path it is mounted under (a reverse proxy's prefix, uvicorn's `--root-path`).

`GET /` stays HugeGraph's JSON service profile for every client that does not ask for HTML
first; a browser (its `Accept` lists `text/html`) gets a short page linking to the console.
"""

from __future__ import annotations

import html
from pathlib import Path

from starlette.requests import Request

#: the built console (`make install` builds it when missing; `console/build.mjs` writes it)
DIST = Path(__file__).resolve().parent / "console_dist"

#: what a server with auth on must answer without credentials: the page and its files hold no
#: data, and the login form is on the page (an auth filter's public paths: exact paths)
PUBLIC_PATHS = frozenset({"/console", "/console/console.js", "/console/console.css",
                          "/console/console.js.LEGAL.txt"})

NOT_BUILT = (
    "The web console is not built in this installation: run `make install` in the source tree "
    "(it needs node and npm), or `npm ci && npm run build` in console/."
)


def wants_html(request: Request) -> bool:
    """A browser's navigation: HTML is listed in `Accept` ahead of JSON (or JSON is absent).
    hugegraph-python, curl and httpx send `*/*` or `application/json` and keep the JSON."""
    accept = request.headers.get("accept", "").lower()
    if "text/html" not in accept:
        return False
    json_at = accept.find("application/json")
    return json_at < 0 or accept.find("text/html") < json_at


def console_html(root_path: str, evaluation_timeout_ms: int) -> str | None:
    """The console's page with the server's values filled in; None when it is not built."""
    try:
        page = (DIST / "index.html").read_text(encoding="utf-8")
    except FileNotFoundError:
        return None
    return (page.replace("{{root}}", html.escape(root_path.rstrip("/")))
                .replace("{{evaluation_timeout_ms}}", str(int(evaluation_timeout_ms))))


def root_html(root_path: str) -> str:
    """What a browser sees at `/`: where the console is, and that the JSON is still there."""
    root = html.escape(root_path.rstrip("/"))
    return (
        "<!doctype html><html lang=en><head><meta charset=utf-8><title>hugelite</title></head><body>"
        "<h1>hugelite</h1><p>A HugeGraph-compatible graph server.</p>"
        f'<p><a href="{root}/console">Open the web console</a></p>'
        f'<p>REST clients get this service profile as JSON (<code>Accept: application/json</code>); '
        f'<a href="{root}/versions">/versions</a>, <a href="{root}/graphs">/graphs</a>.</p>'
        "</body></html>"
    )
