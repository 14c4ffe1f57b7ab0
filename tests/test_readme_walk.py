"""A newcomer's walk through README.md and docs/, kept true: what they show runs and answers
as shown.

`tests/test_docs.py` keeps the README *complete* (every route, CLI option, step, example);
this file keeps its *claims* checkable where a newcomer copies them:

* the configuration tables' defaults are what `Settings`/`GraphConfig` read from an empty
  file, and every key they name is one the code reads;
* the `make` targets and variables the README names exist in the Makefile;
* every command that runs an example names an existing file with the venv's python (the
  clients live only in `.venv`);
* every repository path the README, grammar/README.md and the docs/ pages mention exists,
  and every `module.py` `NAME` pair names something defined there;
* the Quickstart runs as written against a real server: its three curl calls answer what it
  shows, its gremlinpython and embedded snippets print what it says, and its load of the
  `modern` sample loads six vertices;
* the reference's snippets run as written against a real server: the `POST /gremlin` sample
  answers the data shown, the error body shown is the server's byte for byte, the
  WebSocket and embedded snippets print what the README's data implies, the WebSocket
  example runs on a graph made as its docstring says, and `EmbeddedConnection`'s signature
  is the one shown.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import httpx
import pytest

ROOT = Path(__file__).resolve().parent.parent
DOCS = ["README.md", "grammar/README.md", *sorted(f"docs/{p.name}" for p in (ROOT / "docs").glob("*.md"))]
#: the README and the docs/ reference pages, as one text (sections live on either)
README = "\n".join((ROOT / d).read_text(encoding="utf-8") for d in DOCS if d != "grammar/README.md")


def section(title: str) -> str:
    start = README.index(f"\n## {title}\n")
    end = README.find("\n## ", start + 1)
    return README[start : end if end >= 0 else len(README)]


def table_defaults(text: str) -> dict[str, str]:
    """`key` -> default cell of a `| key | default | meaning |` table (both keys of a
    `` `a`, `b` `` row get the same default)."""
    out: dict[str, str] = {}
    for keys, default in re.findall(r"^\| (`[^|]+`) \| ([^|]+) \|", text, re.M):
        for key in re.findall(r"`([^`]+)`", keys):
            out[key] = default.strip().strip("`")
    return out


def server_table() -> dict[str, str]:
    text = section("Configuration")
    return table_defaults(text[text.index("`conf/rest-server.properties`") : text.index("`conf/graphs/<name>")])


def graph_table() -> dict[str, str]:
    text = section("Configuration")
    return table_defaults(text[text.index("`conf/graphs/<name>") :])


def test_server_configuration_defaults(tmp_path: Path) -> None:
    from rest_adapter.settings import Settings

    conf = tmp_path / "conf"
    (conf / "graphs").mkdir(parents=True)
    (conf / "rest-server.properties").write_text("# nothing set: every default\n")
    s = Settings.load(conf)
    documented = server_table()
    assert documented["restserver.url"] == f"http://{s.host}:{s.port}"
    assert s.graphs_dir == (conf / "graphs").resolve()
    assert documented["graphs"] == "<conf>/graphs"
    assert int(documented["gremlinserver.evaluation_timeout_ms"]) == s.evaluation_timeout_ms
    assert int(documented["gremlinserver.port"]) == s.gremlin_port
    assert int(documented["batch.max_vertices_per_batch"]) == s.max_vertices_per_batch
    assert int(documented["batch.max_edges_per_batch"]) == s.max_edges_per_batch
    assert documented["gremlin.import_dir"] == "–" and s.import_dir is None
    for key in ("auth.authenticator", "auth.admin_token", "auth.user_tokens"):
        assert documented[key] == "–" and key not in s.raw


def test_graph_configuration_defaults() -> None:
    from gremlin_engine.graph import GraphConfig

    cfg = GraphConfig.from_properties("people", {})
    documented = graph_table()
    assert documented["backend"] == cfg.backend
    assert documented["store"].replace("<name>", "people") == cfg.store
    assert documented["schema.mode"] == cfg.schema_mode
    assert documented["gremlin.strategies"] == "default"  # anything but `none` keeps them on


def test_every_documented_key_is_read_by_the_code() -> None:
    sources = "".join(p.read_text(encoding="utf-8") for pkg in ("rest_adapter", "gremlin_engine")
                      for p in (ROOT / pkg).rglob("*.py"))
    for key in [*server_table(), *graph_table()]:
        assert f'"{key}"' in sources or f"'{key}'" in sources, f"README configures `{key}`, which no code reads"


def test_make_targets_and_variables_exist() -> None:
    makefile = (ROOT / "Makefile").read_text(encoding="utf-8")
    targets = set(re.findall(r"^([\w-]+):", makefile, re.M))
    variables = set(re.findall(r"^(\w+) \?=", makefile, re.M)) | set(re.findall(r"\$\((\w+)\)", makefile))
    for target in set(re.findall(r"`make (\w[\w-]*)", README)):
        assert target in targets, f"README names `make {target}`"
    for variable in set(re.findall(r"`make \w+ ((?:[A-Z_]+=\S+ ?)+)", README)):
        for name in re.findall(r"([A-Z_]+)=", variable):
            assert name in variables, f"README sets {name}, which the Makefile does not read"
    for name in ("HOST", "PORT", "CONF"):
        assert f"{name}=" in section("Quickstart"), f"the Quickstart should show how to change {name}"


def example_commands() -> list[tuple[str, str]]:
    """(where, command line) for every line that runs an examples/ file."""
    found = [("README.md", m) for m in re.findall(r"^.*\bexamples/\w+\.py\b.*$", README, re.M)
             if re.search(r"python\S* examples/", m)]
    for path in sorted(p for p in (ROOT / "examples").iterdir() if p.is_file()):
        for line in path.read_text(encoding="utf-8").splitlines():
            if re.search(r"python\S* examples/", line):
                found.append((path.name, line))
    return found


def test_repo_scripts_run_with_the_venv_python() -> None:
    """A bare `python` lacks the project's dependencies (they live in `.venv`), so the
    README's commands run repository code with `.venv/bin/python` (the Benchmarks section,
    whose commands run after `make bench`'s install, aside)."""
    text = README.replace(section("Benchmarks"), "")
    for line in text.splitlines():
        for interpreter in re.findall(r"(\S*python3?)(?= (?:-m (?:tests|bench|rest_adapter)|(?:docs|examples|tests)/))", line):
            assert interpreter.endswith(".venv/bin/python"), f"README: {line.strip()}"


def test_example_commands_use_the_venv_and_existing_files() -> None:
    commands = example_commands()
    assert len(commands) >= 5
    for where, line in commands:
        for interpreter, name in re.findall(r"(\S*python\S*) (examples/[\w.]+)", line):
            assert (ROOT / name).is_file(), f"{where}: {name} does not exist"
            assert interpreter.endswith(".venv/bin/python"), f"{where}: run {name} with .venv/bin/python"


def test_repository_paths_in_the_docs_exist() -> None:
    tracked = subprocess.run(["git", "ls-files"], cwd=ROOT, capture_output=True, text=True).stdout.split()
    if not tracked:  # not a git checkout (an sdist): nothing to compare against
        pytest.skip("needs a git checkout")
    # made by a run, not tracked: the conformance report, the steering doc, a backup folder's files
    generated = {"build/conformance-report.txt", "../shared/DESIGN.md", "schema.json", "manifest.json"}
    for doc in DOCS:
        text = (ROOT / doc).read_text(encoding="utf-8")
        for ref in set(re.findall(r"`((?:\.\./)?[\w./-]+\.(?:py|lark|txt|md|groovy|sh|toml|json))`", text)):
            if ref in generated or ref.startswith("/"):  # a route (`/openapi.json`), not a file
                continue
            tail = ref.lstrip("./")
            assert any(f == tail or f.endswith("/" + tail) for f in tracked), f"{doc} mentions `{ref}`"
        for module, names in re.findall(r"`([\w/]+\.py)` ((?:`\w+`(?:, | and )?)+)", text):
            source = (ROOT / module).read_text(encoding="utf-8") if (ROOT / module).is_file() else ""
            for name in re.findall(r"`(\w+)`", names):
                assert re.search(rf"\b{name}\b", source), f"{doc}: `{module}` `{name}` is not defined there"


# --- the snippets, run against a real server -------------------------------------------------

PEOPLE = [{"label": "person", "properties": {"name": n, "age": a}} for n, a in
          [("marko", 29), ("vadas", 27), ("josh", 32)]]
KNOWS = [{"label": "knows", "outV": "1:marko", "inV": f"1:{n}", "outVLabel": "person",
          "inVLabel": "person", "properties": {}} for n in ("vadas", "josh")]


@pytest.fixture(scope="module")
def srv(server_factory):
    """A strict default graph `hugegraph` holding the README's marko, vadas and josh."""
    s = server_factory.start(graphs={"hugegraph": "backend=memory\nschema.mode=strict\n"})
    script = (ROOT / "examples" / "schema.groovy").read_text(encoding="utf-8")
    api = f"{s.base_url}/graphs/hugegraph"
    with httpx.Client(timeout=60) as http:
        done = http.post(f"{s.base_url}/gremlin", json={
            "gremlin": script, "aliases": {"graph": "hugegraph", "g": "__g_hugegraph"}})
        assert done.status_code == 200, done.text
        assert http.post(f"{api}/graph/vertices/batch", json=PEOPLE).json() == ["1:marko", "1:vadas", "1:josh"]
        assert http.post(f"{api}/graph/edges/batch", json=KNOWS).status_code == 201
    return s


def code_block(text: str, lang: str = "") -> str:
    match = re.search(rf"```{lang}\n(.*?)```", text, re.S)
    assert match, f"no ```{lang} block"
    return match.group(1)


def test_gremlin_over_rest_sample_answers_as_shown(srv) -> None:
    block = code_block(section("Gremlin over REST"))
    request, answer = block.split("\n\n", 1)
    assert request.startswith("POST /gremlin\n")
    status, body = answer.strip().split(" ", 1)
    shown = json.loads(body)
    got = httpx.post(f"{srv.base_url}/gremlin", json=json.loads(request.split("\n", 1)[1]), timeout=30)
    assert got.status_code == int(status)
    real = got.json()
    assert real["status"] == shown["status"] and real["result"] == shown["result"]
    assert set(real) == set(shown)


def test_error_body_shown_is_the_servers(srv) -> None:
    shown = re.search(r"`(\{\"exception\": \"class org\.apache\.hugegraph\.exception\.NotFoundException\",.*?\})`",
                      section("REST interface").replace("\n  ", " "), re.S)
    assert shown, "the Errors convention shows a NotFoundException body"
    got = httpx.get(f"{srv.base_url}/graphs/hugegraph/graph/vertices/%221%3Anobody%22", timeout=30)
    assert got.status_code == 404 and got.json() == json.loads(shown.group(1))


def test_versions_row_is_the_answer(srv) -> None:
    row = re.search(r"^\| GET \| `/versions` \| `([^`]+)`", README, re.M)
    assert row
    assert httpx.get(f"{srv.base_url}/versions", timeout=30).json() == json.loads(row.group(1))


def run_snippet(code: str, cwd: Path) -> str:
    path = cwd / "snippet.py"
    path.write_text(code, encoding="utf-8")
    done = subprocess.run([sys.executable, str(path)], cwd=cwd, capture_output=True, text=True, timeout=120,
                          env={**os.environ, "PYTHONPATH": str(ROOT)})
    assert done.returncode == 0, done.stderr
    return done.stdout


def test_websocket_snippet_runs(srv, tmp_path: Path) -> None:
    code = code_block(section("Gremlin over WebSocket"), "python")
    assert code.count("ws://127.0.0.1:8080/gremlin") == 2
    ws_url = srv.base_url.replace("http://", "ws://") + "/gremlin"
    out = run_snippet(code.replace("ws://127.0.0.1:8080/gremlin", ws_url), tmp_path)
    assert out.splitlines() == ["['vadas', 'josh']", "[3]"]  # adjacency order: created first, listed first


def test_embedded_snippet_runs(tmp_path: Path) -> None:
    code = code_block(section("Embedded mode"), "python")
    assert "data/g.db" in code and "created and initialised when missing" in code
    assert run_snippet(code, tmp_path).splitlines() == ["['marko']"]
    assert (tmp_path / "data" / "g.db").is_file()
    assert run_snippet(code, tmp_path).splitlines() == ["['marko', 'marko']"]  # the same file, reopened


def test_websocket_example_makes_its_own_graph(srv, tmp_path: Path) -> None:
    """The examples run in the README's order on one server: the WebSocket example makes its
    graph (`wsdemo`, as its docstring's request shows) and leaves the strict `hugegraph` and
    its `person` alone; run twice, it reuses its graph."""
    example = ROOT / "examples" / "websocket_gremlinpython.py"
    doc = example.read_text(encoding="utf-8")
    made = re.search(r"curl -X POST http://127\.0\.0\.1:8080/graphs/(\w+) .*?-d '([^']+)'", doc, re.S)
    assert made, "the docstring shows the request that makes the example's graph"
    graph = made.group(1)
    ws_url = srv.base_url.replace("http://", "ws://") + "/gremlin"
    for _ in range(2):
        done = subprocess.run([sys.executable, str(example), ws_url], cwd=tmp_path, capture_output=True,
                              text=True, timeout=120, env={**os.environ, "PYTHONPATH": str(ROOT)})
        assert done.returncode == 0, done.stderr
        assert done.stdout.splitlines() == ["over 30: ['carol', 'alice']", "alice knows: ['bob']",
                                            "with a 5 s limit: 3", "script with bindings (GraphSON 3): [103]"]
    assert graph in httpx.get(f"{srv.base_url}/graphs", timeout=30).json()["graphs"]
    labels = httpx.get(f"{srv.base_url}/graphs/{graph}/schema/vertexlabels/person", timeout=30).json()
    assert labels["id_strategy"] == "AUTOMATIC"
    ours = httpx.get(f"{srv.base_url}/graphs/hugegraph/schema/vertexlabels/person", timeout=30).json()
    assert ours["id_strategy"] == "PRIMARY_KEY"


def test_embedded_signature_is_the_readmes() -> None:
    import inspect

    from gremlin_engine.embedded import EmbeddedConnection

    shown = re.search(r"`EmbeddedConnection\(([^`]*)\)`", section("Embedded mode"))
    assert shown, "Embedded mode shows EmbeddedConnection's signature"
    params = list(inspect.signature(EmbeddedConnection.__init__).parameters.values())[1:]
    parts: list[str] = []
    for p in params:
        if p.kind is p.KEYWORD_ONLY and "*" not in parts:
            parts.append("*")
        parts.append(p.name if p.default is p.empty else f"{p.name}={p.default!r}".replace("'", '"'))
    assert re.sub(r"\s+", " ", shown.group(1)) == ", ".join(parts)


@pytest.mark.parametrize("which", ["--port", "gremlinserver.port"])
def test_a_port_in_use_ends_serve_with_exit_code_3(tmp_path: Path, which: str) -> None:
    """What `make run` does when another server holds its port (Command line, `serve`)."""
    import socket

    from tests.conftest import free_port, run_cli, write_conf

    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen()
        taken = busy.getsockname()[1]
        port = taken if which == "--port" else free_port()
        server = {} if which == "--port" else {"gremlinserver.port": str(taken)}
        conf = write_conf(tmp_path, {"g": "backend=memory\n"}, server, port)
        done = run_cli("serve", "--conf", str(conf), "--port", str(port), cwd=tmp_path)
    assert done.returncode == 3, done.stdout + done.stderr
    said = done.stdout + done.stderr
    assert f"127.0.0.1:{taken} is not free (Address already in use)" in said
    assert "Traceback" not in said and "serving" not in said  # one line, before the banner


# --- the Quickstart, as a newcomer pastes it -------------------------------------------------


def _quickstart_blocks(lang: str) -> list[str]:
    return re.findall(rf"```{lang}\n(.*?)```", section("Quickstart"), re.S)


def test_quickstart_curl_calls_answer_as_shown(server_factory) -> None:
    s = server_factory.start(graphs={"hugegraph": "backend=memory\nschema.mode=strict\n"})
    curls = _quickstart_blocks("sh")[0].replace("http://127.0.0.1:8080", s.base_url)
    calls = [c for c in re.split(r"\n(?=# \d\. )", curls) if c.startswith("# ")]
    assert len(calls) == 3, "three curl calls: schema, data, Gremlin"
    outputs = [subprocess.run(["bash", "-c", call], capture_output=True, text=True, timeout=60) for call in calls]
    assert all(o.returncode == 0 for o in outputs), [o.stderr for o in outputs]
    assert json.loads(outputs[0].stdout)["result"]["data"] == ["ok"]
    shown = section("Quickstart")
    batch_ids = re.search(r"The batch answers `([^`]+)`", shown)
    final = re.search(r"the last call\n?`(\{[^`]+\})`", shown)
    assert batch_ids and final
    assert json.loads(outputs[1].stdout) == json.loads(batch_ids.group(1))
    answer, expected = json.loads(outputs[2].stdout), json.loads(final.group(1).replace("…", "x"))
    assert answer["result"] == expected["result"] and answer["status"] == expected["status"]
    ws_url = s.base_url.replace("http://", "ws://") + "/gremlin"
    code = _quickstart_blocks("python")[0].replace("ws://127.0.0.1:8080/gremlin", ws_url)
    with_comment = re.search(r"# (\[.*\])", code)
    assert with_comment
    assert run_snippet(code, Path(s.cwd)).splitlines() == [with_comment.group(1)]


def test_quickstart_embedded_snippet_runs(tmp_path: Path) -> None:
    code = _quickstart_blocks("python")[1]
    assert run_snippet(code, tmp_path).splitlines() == ["1"]
    assert run_snippet(code, tmp_path).splitlines() == ["2"]  # the same file, reopened


def test_quickstart_load_of_the_modern_sample(tmp_path: Path) -> None:
    """The load block, run from a copy of the shipped conf (the `make run` line aside)."""
    import shutil

    work = tmp_path / "checkout"
    shutil.copytree(ROOT / "conf", work / "conf")
    (work / "conf" / "graphs" / "modern.properties").unlink(missing_ok=True)
    block = _quickstart_blocks("sh")[1]
    lines = [line for line in block.splitlines() if line.strip() and not line.startswith("make ")]
    script = "\n".join(lines).replace(".venv/bin/hugelite", f"{sys.executable} -m rest_adapter")
    script = script.replace("../shared/", f"{ROOT.parent / 'shared'}/")
    done = subprocess.run(["bash", "-ec", script], cwd=work, capture_output=True, text=True, timeout=120,
                          env={**os.environ, "PYTHONPATH": str(ROOT)})
    assert done.returncode == 0, done.stderr
    assert "modern: loaded 6 vertices and 6 edges" in done.stdout
