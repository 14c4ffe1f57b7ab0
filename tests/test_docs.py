"""Documentation completeness: README.md and the reference pages in docs/ cannot silently
fall behind the code.

* every route of the app (`rest_adapter.app.create_app`), with its methods, has a row in one
  of the route tables (docs/rest.md), and every such row names a route that exists (the
  `/graphspaces/DEFAULT/graphs/{graph}` family collapses onto `/graphs/{g}`);
* every CLI command and every option, argument and choice of it appears in its row of the
  "Command line" table;
* the step matrix between the markers in docs/steps.md is exactly what `docs/gen_step_matrix.py`
  prints now, and names every registered step;
* every example file is listed, the opening keeps `make run` / `make test` first, and the
  links of the README and of every docs/ page point at files and headings that exist;
* the README stays a newcomer's page: under 20,000 characters, the reference in docs/.
"""

from __future__ import annotations

import importlib.util
import re
from pathlib import Path

import click
import pytest
from starlette.routing import BaseRoute, Mount, Route, WebSocketRoute

ROOT = Path(__file__).resolve().parent.parent
README = (ROOT / "README.md").read_text(encoding="utf-8")
PAGES = {"README.md": README} | {
    f"docs/{p.name}": p.read_text(encoding="utf-8") for p in sorted((ROOT / "docs").glob("*.md"))
}
#: the README and every reference page, as one text, for what may live on any of them
DOCS = "\n".join(PAGES.values())
STEPS = PAGES["docs/steps.md"]

#: a route table row: | GET, POST | `/graphs/{g}/graph/vertices` | ...
ROW = re.compile(r"^\| ((?:GET|POST|PUT|DELETE|WS)(?:, (?:GET|POST|PUT|DELETE|WS))*) \| `(/[^`]*)` \|", re.M)


def normalise(path: str) -> str:
    """One spelling per route: the classic family, `{g}` for the graph, converters dropped."""
    if path.startswith("/graphspaces/DEFAULT/graphs"):
        path = path[len("/graphspaces/DEFAULT"):]
    path = re.sub(r"\{(\w+):\w+\}", r"{\1}", path)
    return path.replace("{graph}", "{g}")


def served_routes() -> list[tuple[str, BaseRoute]]:
    """(full path, route) of every route the app serves, the mounted ones under their mount."""
    from rest_adapter.app import create_app

    def walk(prefix: str, routes: list[BaseRoute]) -> list[tuple[str, BaseRoute]]:
        out: list[tuple[str, BaseRoute]] = []
        for route in routes:
            if isinstance(route, Mount):
                out += walk(prefix + route.path, route.routes)
            else:
                out.append((prefix + getattr(route, "path", ""), route))
        return out

    return walk("", create_app().routes)


def app_routes() -> set[tuple[str, str]]:
    out: set[tuple[str, str]] = set()
    for path, route in served_routes():
        if isinstance(route, WebSocketRoute):
            out.add(("WS", normalise(path)))
        elif isinstance(route, Route):
            for method in route.methods or ():
                if method != "HEAD":
                    out.add((method, normalise(path)))
    return out


def readme_routes() -> set[tuple[str, str]]:
    return {(m, path) for methods, path in ROW.findall(DOCS) for m in methods.split(", ")}


def test_both_path_families_are_served() -> None:
    paths = {path for path, r in served_routes() if isinstance(r, Route)}
    classic = {p for p in paths if p.startswith("/graphs/{graph}")}
    assert len(classic) > 40
    assert {p.replace("/graphs/", "/graphspaces/DEFAULT/graphs/", 1) for p in classic} <= paths


def test_every_route_is_documented() -> None:
    missing = sorted(app_routes() - readme_routes(), key=lambda r: (r[1], r[0]))
    assert not missing, "routes without a README row (method, path): " + ", ".join(
        f"{m} {p}" for m, p in missing)


def test_every_documented_route_exists() -> None:
    stale = sorted(readme_routes() - app_routes(), key=lambda r: (r[1], r[0]))
    assert not stale, "README rows for routes the app does not serve: " + ", ".join(f"{m} {p}" for m, p in stale)


def section(title: str) -> str:
    start = DOCS.index(f"\n## {title}\n")
    end = DOCS.find("\n## ", start + 1)
    return DOCS[start : end if end >= 0 else len(DOCS)]


def test_every_cli_command_and_option_is_documented() -> None:
    from rest_adapter.cli import main

    assert isinstance(main, click.Group)
    text = section("Command line")
    rows = {m.group(1): m.group(0) for m in re.finditer(r"^\| `hugelite ([\w-]+)[^\n]*", text, re.M)}
    assert set(rows) == set(main.commands), "the Command line table must have one row per command"
    for name, command in main.commands.items():
        row = rows[name]
        for param in command.params:
            if isinstance(param, click.Argument):
                assert param.human_readable_name in row, f"{name}: argument {param.human_readable_name}"
                continue
            for opt in param.opts + param.secondary_opts:
                assert opt in row, f"hugelite {name}: option {opt} is not documented"
            if isinstance(param.type, click.Choice):
                for choice in param.type.choices:
                    assert str(choice) in row, f"hugelite {name} {param.opts[0]}: choice {choice}"
    ctx = click.Context(main)
    for opt in main.get_help_option_names(ctx):
        assert opt in text, f"help option {opt}"
    assert "python -m rest_adapter" in text


def _generator():
    spec = importlib.util.spec_from_file_location("gen_step_matrix", ROOT / "docs" / "gen_step_matrix.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_step_matrix_is_current() -> None:
    gen = _generator()
    block = gen.marked_block(STEPS)
    assert block is not None, "docs/steps.md lacks the step-matrix markers"
    assert block == gen.block(), "the step matrix is stale: run `python docs/gen_step_matrix.py --write`"


def test_every_registered_step_is_in_the_matrix() -> None:
    from gremlin_engine.traversal.registry import REGISTRY

    block = _generator().marked_block(STEPS) or ""
    names = re.findall(r"^\| `([^`]+)` \| (\w+) \|", block, re.M)
    assert sorted(n for n, _ in names) == sorted(REGISTRY)
    assert all(REGISTRY[n].family == family for n, family in names)


def test_every_example_is_listed() -> None:
    files = sorted(p.name for p in (ROOT / "examples").iterdir() if p.is_file() and not p.name.startswith("."))
    assert files, "examples/ is empty"
    table = section("Examples")
    for name in files:
        assert f"`examples/{name}`" in table, f"examples/{name} is not in the README's Examples table"


def test_opening_keeps_the_two_commands_first() -> None:
    head = README.split("\n## ", 1)[0]
    assert head.startswith("# hugelite\n")
    assert "make run" in head and "make test" in head
    assert head.index("make run") < head.index("make test")


def _slug(heading: str) -> str:
    """GitHub's anchor for a heading: lower case, punctuation dropped, spaces to dashes."""
    text = re.sub(r"[^\w\- ]", "", heading.strip().lower())
    return text.replace(" ", "-")


def _headings(text: str) -> set[str]:
    return {_slug(h) for h in re.findall(r"^#{1,6} (.+)$", text, re.M)}


LINKS = sorted(
    {(page, target) for page, text in PAGES.items() for target in re.findall(r"\]\(([^)\s:]+)\)", text)}
)


@pytest.mark.parametrize(("page", "target"), LINKS)
def test_links_resolve(page: str, target: str) -> None:
    """A link names a file that exists and, after `#`, a heading of that file (or of its own page)."""
    path, _, anchor = target.partition("#")
    where = (ROOT / page).parent / path if path else ROOT / page
    assert where.exists(), f"{page} links to {target}, which does not exist"
    if anchor:
        assert where.suffix == ".md", f"{page}: an anchor into {path}"
        assert anchor in _headings(where.read_text(encoding="utf-8")), f"{page} links to {target}"


def test_the_readme_stays_short() -> None:
    assert len(README) < 20_000, f"README.md is {len(README)} characters: move reference detail to docs/"
