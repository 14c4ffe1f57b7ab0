"""`/openapi.json` and `/swagger` on a real server: the document names every route the app
serves, with its method, in both path families; it is valid OpenAPI 3.1; every route has a
description; Swagger UI's page and files are served."""

from __future__ import annotations

import re

import httpx
from openapi_spec_validator import OpenAPIV31SpecValidator
from starlette.routing import Route

from rest_adapter.app import create_app
from rest_adapter.openapi import build_document, undescribed
from tests.test_docs import served_routes


def document(http: httpx.Client) -> dict:
    answer = http.get("/openapi.json")
    assert answer.status_code == 200
    assert answer.headers["content-type"].startswith("application/json")
    return answer.json()


def test_every_route_of_the_app_is_in_the_document(http: httpx.Client) -> None:
    paths = document(http)["paths"]
    served = {(m.lower(), re.sub(r"\{(\w+):\w+\}", r"{\1}", path))
              for path, route in served_routes() if isinstance(route, Route)
              for m in route.methods or () if m != "HEAD"}
    listed = {(m, path) for path, item in paths.items() for m in item}
    assert served - listed == set()
    assert ("post", "/graphspaces/DEFAULT/graphs/{graph}/graph/vertices") in listed
    assert ("get", "/graphs/{graph}/traversers/kout") in listed
    assert len(served) > 180  # both families of ~90 graph routes, and the server's


def test_the_document_is_valid_openapi_3_1(http: httpx.Client) -> None:
    doc = document(http)
    assert doc["openapi"] == "3.1.0"
    errors = [e.message for e in OpenAPIV31SpecValidator(doc).iter_errors()]
    assert errors == []


def test_every_route_has_a_description() -> None:
    assert undescribed(create_app().routes) == [], "routes without a row in rest_adapter/openapi/operations.py"


def test_operations_carry_schemas_and_hugegraph_errors(http: httpx.Client) -> None:
    doc = document(http)
    create = doc["paths"]["/graphs/{graph}/graph/vertices"]["post"]
    assert create["requestBody"]["content"]["application/json"]["schema"] == {"$ref": "#/components/schemas/NewVertex"}
    assert create["responses"]["201"]["content"]["application/json"]["schema"]["$ref"].endswith("/Vertex")
    assert create["responses"]["4XX"]["content"]["application/json"]["schema"]["$ref"].endswith("/Error")
    assert doc["components"]["schemas"]["Error"]["required"] == ["exception", "message", "cause"]
    graph = doc["paths"]["/graphs/{graph}"]["get"]["parameters"][0]
    assert graph["in"] == "path" and "hugegraph" in graph["schema"]["examples"]
    kout = {p["name"]: p["schema"] for p in doc["paths"]["/graphs/{graph}/traversers/kout"]["get"]["parameters"]}
    assert kout["max_depth"] == {"type": "integer"} and kout["nearest"] == {"type": "boolean"}


def test_swagger_ui_is_served(http: httpx.Client) -> None:
    page = http.get("/swagger")
    assert page.status_code == 200 and page.headers["content-type"].startswith("text/html")
    assert 'url: "/openapi.json"' in page.text
    assert http.get("/swagger/").status_code == 200
    for asset in re.findall(r'(?:src|href)="(/swagger/static/[^"]+)"', page.text):
        answer = http.get(asset)
        assert answer.status_code == 200, asset
    bundle = http.get("/swagger/static/swagger-ui-bundle.js")
    assert "SwaggerUIBundle" in bundle.text[:200_000]
    missing = http.get("/swagger/static/nothing.js")
    assert missing.status_code == 404
    assert {"exception", "message", "cause"} <= missing.json().keys()


def test_auth_layouts_share_a_row_and_public_routes_need_no_credentials() -> None:
    doc = build_document(create_app().routes, "test")
    paths = doc["paths"]
    layouts = ["/graphs/{graph}/auth/groups/{id}", "/graphspaces/DEFAULT/auth/groups/{id}", "/auth/groups/{id}"]
    puts = [paths[p]["put"] for p in layouts]
    assert {op["requestBody"]["content"]["application/json"]["schema"]["$ref"] for op in puts} == {
        "#/components/schemas/GroupUpdate"}
    assert {op["summary"] for op in puts} == {"Update a group"}
    assert paths["/auth/login"]["post"]["responses"]["200"]["content"]["application/json"]["schema"] == {
        "$ref": "#/components/schemas/Token"}
    assert "201" in paths["/graphspaces/DEFAULT/auth/users"]["post"]["responses"]
    assert "204" in paths["/graphs/{graph}/auth/accesses/{id}"]["delete"]["responses"]
    assert {s["scheme"] for s in doc["components"]["securitySchemes"].values()} == {"basic", "bearer"}
    assert doc["security"] == [{"basic": []}, {"bearer": []}]
    for public in ("/versions", "/openapi.json", "/swagger", "/console"):
        assert paths[public]["get"]["security"] == [], public
    assert "security" not in paths["/graphs/{graph}/auth/users"]["get"]
    assert "text/html" in paths["/console"]["get"]["responses"]["200"]["content"]
