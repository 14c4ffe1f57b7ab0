"""`GET /console`: the web console page, and its built script and stylesheet below it.

The page is filled in per request (`console_page.console_html`); `/console/console.js` and
`/console/console.css` are Starlette's `StaticFiles` over the built folder. Neither touches a
graph: what the console shows, it fetches through the public REST routes like any client.
"""

from __future__ import annotations

from starlette.requests import Request
from starlette.responses import HTMLResponse, Response
from starlette.routing import BaseRoute, Mount, Route
from starlette.staticfiles import StaticFiles

from rest_adapter.console_page import DIST, NOT_BUILT, console_html
from rest_adapter.errors import HttpError


async def console(request: Request) -> Response:
    settings = request.app.state.settings
    page = console_html(request.scope.get("root_path", ""), settings.evaluation_timeout_ms)
    if page is None:  # HugeGraph's error body, as every other refusal
        raise HttpError(503, NOT_BUILT, "java.lang.IllegalStateException")
    # the page names its script by a fixed path: a stale cached page must not outlive an upgrade
    return HTMLResponse(page, headers={"Cache-Control": "no-cache"})


#: server-level routes (the assets' `Mount` is matched only below `/console/`)
server_routes: list[BaseRoute] = [
    Route("/console", console, methods=["GET"]),
    Mount("/console", app=StaticFiles(directory=DIST, check_dir=False), name="console-assets"),
]
routes: list[Route] = []
