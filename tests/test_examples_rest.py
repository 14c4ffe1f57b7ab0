"""The REST examples in `examples/` run against a real server and print what they claim.

Each Python example runs as a user would run it (`.venv/bin/python examples/x.py URL GRAPH`, a
subprocess) against a uvicorn server from the root `server_factory`; `curl.sh` runs under
bash (skipped without curl); `schema.groovy` is sent through `POST /gremlin`. Every example
gets a fresh strict graph, and one more test runs them all, twice, on one graph after the
groovy schema, which is what their docstrings promise (shared schema, safe to re-run).
"""

from __future__ import annotations

import ast
import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import httpx
import pytest

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = ROOT / "examples"
STRICT_SQLITE = "backend=sqlite\nschema.mode=strict\n"
STRICT_MEMORY = "backend=memory\nschema.mode=strict\n"

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def srv(server_factory):
    return server_factory.start(graphs={
        "pyclient": STRICT_SQLITE,
        "rawhttp": STRICT_MEMORY,
        "curlwalk": STRICT_MEMORY,
        "groovy": STRICT_MEMORY,
        "shared": STRICT_SQLITE,
    })


def run_example(*cmd: str, timeout: float = 180) -> str:
    done = subprocess.run(
        list(cmd), cwd=ROOT, capture_output=True, text=True, timeout=timeout,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
    )
    assert done.returncode == 0, f"{cmd} failed ({done.returncode}):\n{done.stdout}\n{done.stderr}"
    return done.stdout


def python_example(name: str, url: str, graph: str) -> str:
    return run_example(sys.executable, str(EXAMPLES / name), url, graph)


def send_groovy(url: str, graph: str) -> httpx.Response:
    script = (EXAMPLES / "schema.groovy").read_text()
    return httpx.post(f"{url}/gremlin", timeout=60, json={
        "gremlin": script, "bindings": {}, "language": "gremlin-groovy",
        "aliases": {"graph": graph, "g": f"__g_{graph}"}})


def exchanges(output: str) -> list[tuple[str, int]]:
    """(request line, status) for every `METHOD path -> status` line rest_httpx.py prints."""
    return [(m[1], int(m[2])) for m in re.finditer(r"^(\w+ \S+) -> (\d{3})$", output, re.M)]


def test_every_rest_example_has_a_docstring_title() -> None:
    for path in sorted(EXAMPLES.glob("rest_*.py")):
        doc = ast.get_docstring(ast.parse(path.read_text()))
        assert doc and doc.splitlines()[0].strip(), f"{path.name} needs a docstring title"
    assert (EXAMPLES / "curl.sh").read_text().splitlines()[1].startswith("# curl walkthrough")
    assert (EXAMPLES / "schema.groovy").read_text().startswith("// A loader-style schema script")


PYHUGEGRAPH_CLAIMS = [
    "graphspace layout: True",
    "vertex labels: ['person', 'software']",
    "added: 1:marko {'name': 'marko', 'age': 29, 'city': 'Beijing'}",
    "batch ids: ['1:vadas', '1:josh', '1:peter', '2:lop', '2:ripple']",
    "edge: S1:marko>1>1>>S1:vadas {'weight': 0.5}",
    "by id: {'name': 'josh', 'age': 32, 'city': 'Beijing'}",
    "city=Beijing: ['josh', 'marko']",
    "age>30: ['josh', 'peter']",
    "kout depth 2 from marko: ['1:peter', '2:ripple']",
    "shortest path vadas -> josh: ['1:vadas', '1:marko', '1:josh']",
    "gremlin: ['vadas', 'marko', 'josh', 'peter']",
    "created edges: 4",
]


def test_rest_pyhugegraph(srv) -> None:
    out = python_example("rest_pyhugegraph.py", srv.base_url, "pyclient")
    assert out.splitlines() == PYHUGEGRAPH_CLAIMS
    # the client really wrote through the graphspace layout
    v = httpx.get(f"{srv.base_url}/graphspaces/DEFAULT/graphs/pyclient/graph/vertices/%222:lop%22").json()
    assert v == {"id": "2:lop", "label": "software", "type": "vertex", "properties": {"name": "lop", "lang": "java"}}


def test_rest_httpx(srv) -> None:
    out = python_example("rest_httpx.py", srv.base_url, "rawhttp")
    seen = exchanges(out)
    created = [line for line, status in seen if line.startswith("POST /graphs/rawhttp/schema/")]
    assert len(created) == 5 + 2 + 2 + 2  # keys, vertex labels, edge labels, index labels
    refused = [(line, status) for line, status in seen if status >= 300]
    assert refused == [("GET /graphs/rawhttp/graph/edges?label=knows&properties="
                        "%7B%22weight%22%3A+0.5%7D", 400)]
    assert len(seen) == 29 and seen[0] == ("GET /versions", 200)
    bodies = [json.loads(line) for line in out.splitlines() if line.startswith("    {") and len(line) < 404]
    assert {"id": "1:marko", "label": "person", "type": "vertex",
            "properties": {"name": "marko", "age": 29, "city": "Beijing"}} in bodies
    kout = next(b for b in bodies if "measure" in b and "path" not in b)
    assert sorted(kout["vertices"]) == ["1:peter", "2:ripple"]
    shortest = next(b for b in bodies if "path" in b)
    assert shortest["path"] == ["1:vadas", "1:marko", "1:josh"]
    gremlin = [b["result"]["data"] for b in bodies if "requestId" in b]
    assert gremlin == [["vadas", "marko", "josh", "peter"], ["lop", "ripple"]]
    error = next(b for b in bodies if "exception" in b)
    assert error["exception"] == "class org.apache.hugegraph.exception.NoIndexException"
    assert '"page": "' in out and '"page": null' in out  # the first page's cursor, then the end
    assert '["1:vadas", "1:josh", "1:peter", "2:lop", "2:ripple"]' in out


@pytest.mark.skipif(shutil.which("curl") is None or shutil.which("bash") is None, reason="needs curl and bash")
def test_curl_walkthrough(srv) -> None:
    out = run_example("bash", str(EXAMPLES / "curl.sh"), srv.base_url, "curlwalk")
    statuses = [int(s) for s in re.findall(r"^-> (\d{3})$", out, re.M)]
    assert len(statuses) == out.count("$ curl -X ") >= 35
    failures = [s for s in statuses if s >= 300]
    assert failures == [404, 400]  # the two deliberate errors
    assert '"message":"Vertex \'1:nobody\' does not exist"' in out
    assert '{"id":"1:josh","label":"person","type":"vertex","properties":{"name":"josh","age":33,"city":"Beijing"}}' in out
    assert '"task_status":"success"' in out and '"task_result":"[3]"' in out
    assert '"result":{"data":["marko","josh"]' in out
    assert '{"owner":"examples/curl.sh"}' in out


def test_schema_groovy_through_gremlin(srv) -> None:
    for _ in range(2):  # idempotent: the second run changes nothing and succeeds
        resp = send_groovy(srv.base_url, "groovy")
        assert resp.status_code == 200, resp.text
        data = resp.json()["result"]["data"]
        assert [(i["name"], i["index_type"], i["fields"]) for i in data] == [
            ("personByCity", "SECONDARY", ["city"]),
            ("personByAge", "RANGE", ["age"]),
            ("softwareByLang", "SECONDARY", ["lang"]),
            ("createdByWeight", "RANGE", ["weight"]),
        ]
    schema = httpx.get(f"{srv.base_url}/graphs/groovy/schema").json()
    assert [v["name"] for v in schema["vertexlabels"]] == ["person", "software", "tag"]
    tagged = next(e for e in schema["edgelabels"] if e["name"] == "tagged")
    assert (tagged["frequency"], tagged["sort_keys"]) == ("MULTIPLE", ["date"])
    tag = next(v for v in schema["vertexlabels"] if v["name"] == "tag")
    assert tag["id_strategy"] == "CUSTOMIZE_STRING"


def test_examples_share_one_graph_and_rerun(srv) -> None:
    """schema.groovy, then every example twice on one graph: the definitions agree."""
    assert send_groovy(srv.base_url, "shared").status_code == 200
    for _ in range(2):
        lines = python_example("rest_pyhugegraph.py", srv.base_url, "shared").splitlines()
        assert lines[1] == "vertex labels: ['person', 'software', 'tag']"  # tag: from schema.groovy
        assert lines[:1] + lines[2:] == PYHUGEGRAPH_CLAIMS[:1] + PYHUGEGRAPH_CLAIMS[2:]
        seen = exchanges(python_example("rest_httpx.py", srv.base_url, "shared"))
        assert [s for _, s in seen if s >= 300] == [400]
        if shutil.which("curl") and shutil.which("bash"):
            out = run_example("bash", str(EXAMPLES / "curl.sh"), srv.base_url, "shared")
            assert [int(s) for s in re.findall(r"^-> (\d{3})$", out, re.M) if int(s) >= 300] == [404, 400]
    count = httpx.post(f"{srv.base_url}/gremlin", json={"gremlin": "__g_shared.V().count()"}).json()
    assert count["result"]["data"] == [6]  # marko vadas josh peter lop ripple, never duplicated
