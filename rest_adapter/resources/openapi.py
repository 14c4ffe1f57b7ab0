"""`GET /openapi.json` (the REST interface as OpenAPI 3.1) and `GET /swagger` (Swagger UI on it).

The document is built per request from the app's live route table (`rest_adapter.openapi`),
so a route added by any resource module appears without anyone listing it. Swagger UI's
files come from the `swagger-ui-bundle-v2` package (Swagger UI 5, the first to read OpenAPI
3.1), served as they are under `/swagger/static/`; the page that starts it on our document
is the few lines below. Both are public even when authentication is on: HugeGraph's are,
and a client needs the document before it can know how to log in.
"""

from __future__ import annotations

from importlib.metadata import PackageNotFoundError, version

from starlette.requests import Request
from starlette.responses import HTMLResponse, Response
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles
from swagger_ui_bundle import swagger_ui_path

from rest_adapter.context import json_response
from rest_adapter.openapi import build_document

SWAGGER_ASSETS = "/swagger/static"

SWAGGER_PAGE = f"""<!DOCTYPE html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <title>hugelite REST API</title>
  <link rel="stylesheet" href="{SWAGGER_ASSETS}/swagger-ui.css">
  <link rel="icon" type="image/png" href="{SWAGGER_ASSETS}/favicon-32x32.png">
</head>
<body>
  <div id="swagger-ui"></div>
  <script src="{SWAGGER_ASSETS}/swagger-ui-bundle.js"></script>
  <script>
    window.ui = SwaggerUIBundle({{url: "/openapi.json", dom_id: "#swagger-ui", deepLinking: true}});
  </script>
</body>
</html>
"""


def _version() -> str:
    try:
        return version("hugelite")
    except PackageNotFoundError:
        return "0"


async def openapi_json(request: Request) -> Response:
    registry = getattr(request.app.state, "registry", None)
    graphs = sorted(registry.names()) if registry is not None else []
    return json_response(build_document(request.app.routes, _version(), graphs))


async def swagger(request: Request) -> Response:
    return HTMLResponse(SWAGGER_PAGE)


server_routes = [
    Route("/openapi.json", openapi_json, methods=["GET"]),
    Route("/swagger", swagger, methods=["GET"]),
    Mount(SWAGGER_ASSETS, app=StaticFiles(directory=str(swagger_ui_path)), name="swagger-assets"),
]
routes: list[Route] = []
