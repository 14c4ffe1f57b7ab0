"""The layer rules of DESIGN.md, checked on the source: what may import what, and that the
REST vertex and edge endpoints reach the graph only through the engine (one traversal).

* `storage` and `grammar` import nothing of ours; `gremlin_engine` imports only `grammar`
  and `storage`; `rest_adapter` never imports `storage` (it opens stores through
  `gremlin_engine`) nor the runtime's internals.
* No engine module imports one of ours inside a function (a dodged import cycle), but for a
  short list of lazily loaded families; no engine module probes a transaction with
  `hasattr`/`getattr` (transactions are storage's typed `Tx`).
* Every route handler of `rest_adapter/resources/vertices.py` and `edges.py` runs exactly
  the traversals it builds (`_element_common.traverse` -> `Graph.traverse`), and touches no
  store, transaction or write/read access object.
"""

from __future__ import annotations

import ast
import importlib
import importlib.util
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("storage", "grammar", "gremlin_engine", "rest_adapter")
ALLOWED = {
    "storage": set(),
    "grammar": set(),
    "gremlin_engine": {"grammar", "storage"},
    "rest_adapter": {"gremlin_engine"},
}
#: names a REST handler must never touch: they would bypass the engine
FORBIDDEN_ATTRS = {"store", "tx", "write_access", "read_access", "session", "access"}
# handler helpers that run exactly one engine traversal (checked below)
ONE_TRAVERSAL_HELPERS = {"traverse", "delete_element"}


def _modules(package: str) -> list[Path]:
    return sorted((ROOT / package).rglob("*.py"))


def _imports(path: Path) -> list[str]:
    tree = ast.parse(path.read_text(), str(path))
    found: list[str] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found += [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            found += [f"{node.module}.{a.name}" for a in node.names]
    return found


@pytest.mark.parametrize("package", PACKAGES)
def test_import_layers(package):
    bad = []
    for path in _modules(package):
        for name in _imports(path):
            top = name.split(".")[0]
            if top in PACKAGES and top != package and top not in ALLOWED[package]:
                bad.append(f"{path.relative_to(ROOT)} imports {name}")
    assert not bad, "\n".join(bad)


#: the runtime's entry points (what the `Graph` facade calls, and Gremlin sessions); every
#: other runtime module handles storage transactions and access objects directly
RUNTIME_ENTRY_POINTS = ("gremlin_engine.runtime.api", "gremlin_engine.runtime.tx_session")


def test_rest_adapter_does_not_reach_runtime_internals():
    """Only the runtime's public entry points are open to the REST layer; sessions, access
    objects, readers/writers and storage are not."""
    bad = [
        f"{p.relative_to(ROOT)} imports {n}"
        for p in _modules("rest_adapter")
        for n in _imports(p)
        if (n.startswith("gremlin_engine.runtime.") and not n.startswith(RUNTIME_ENTRY_POINTS))
        or n.split(".")[0] == "storage"
    ]
    assert not bad, "\n".join(bad)


def _handlers(module_name: str) -> dict[str, ast.AsyncFunctionDef]:
    mod = importlib.import_module(module_name)
    tree = ast.parse(Path(mod.__file__).read_text())
    funcs = {n.name: n for n in tree.body if isinstance(n, ast.AsyncFunctionDef)}
    endpoints = {r.endpoint.__name__ for r in mod.routes}
    assert endpoints and endpoints <= set(funcs), endpoints - set(funcs)
    return {name: funcs[name] for name in endpoints}


@pytest.mark.parametrize("module_name", ["rest_adapter.resources.vertices", "rest_adapter.resources.edges"])
def test_every_element_handler_runs_one_traversal(module_name):
    handlers = _handlers(module_name)
    assert len(handlers) == 7  # POST, POST batch, PUT batch, PUT one, GET list, GET one, DELETE
    for name, fn in handlers.items():
        calls = [n for n in ast.walk(fn) if isinstance(n, ast.Call)]
        traversals = [
            c for c in calls
            if isinstance(c.func, ast.Attribute) and c.func.attr in ONE_TRAVERSAL_HELPERS
            and isinstance(c.func.value, ast.Name) and c.func.value.id == "c"
        ]
        assert len(traversals) == 1, f"{name} must run exactly one engine traversal"
        touched = {n.attr for n in ast.walk(fn) if isinstance(n, ast.Attribute)}
        assert not touched & FORBIDDEN_ATTRS, f"{name} touches {touched & FORBIDDEN_ATTRS}"


def test_shared_handlers_run_exactly_one_traversal():
    """`c.delete_element` serves both DELETE handlers; it counts as their one traversal."""
    from rest_adapter.resources import _element_common

    tree = ast.parse(Path(_element_common.__file__).read_text())
    for name in ONE_TRAVERSAL_HELPERS - {"traverse"}:
        fn = next(n for n in tree.body if isinstance(n, ast.AsyncFunctionDef) and n.name == name)
        calls = [n for n in ast.walk(fn) if isinstance(n, ast.Call) and isinstance(n.func, ast.Name)]
        assert [c.func.id for c in calls].count("traverse") == 1, name


def test_traverse_helper_goes_through_the_engine_facade():
    from rest_adapter.resources import _element_common

    tree = ast.parse(Path(_element_common.__file__).read_text())
    fn = next(n for n in tree.body if isinstance(n, ast.AsyncFunctionDef) and n.name == "traverse")
    src = ast.unparse(fn)
    assert "graph.traverse" in src and "storage" not in src


#: framework modules that are not part of uvicorn's or Starlette's public API
PRIVATE_FRAMEWORK = ("uvicorn.protocols", "uvicorn.lifespan", "uvicorn.loops", "uvicorn.middleware",
                     "starlette.middleware.errors")


def _private(name: str) -> bool:
    parts = name.split(".")
    if parts[0] not in ("uvicorn", "starlette", "httptools", "h11"):
        return False
    return name.startswith(PRIVATE_FRAMEWORK) or any(p.startswith("_") and p != "__init__" for p in parts[1:])


@pytest.mark.parametrize("package", (*PACKAGES, "bench"))
def test_no_private_framework_module_is_imported(package):
    """The HTTP stack is stock uvicorn and Starlette (issue 17 item 4): nothing imports their
    protocol classes or underscore modules, whose shape may change in any release."""
    bad = [f"{p.relative_to(ROOT)} imports {n}" for p in _modules(package) for n in _imports(p) if _private(n)]
    assert not bad, "\n".join(bad)


def _from_imports(path: Path) -> list[ast.ImportFrom]:
    return [n for n in ast.walk(ast.parse(path.read_text(), str(path))) if isinstance(n, ast.ImportFrom)]


def test_the_engine_imports_only_the_storage_package_face():
    """`gremlin_engine` reaches storage through `from storage import X` (the names in
    `storage.__all__`), never a `storage.<module>`: storage's modules are its own business."""
    import storage

    bad = []
    for path in _modules("gremlin_engine"):
        for name in _imports(path):
            if name.split(".")[0] != "storage":
                continue
            parts = name.split(".")
            if len(parts) > 2 or (len(parts) == 2 and parts[1] not in storage.__all__):
                bad.append(f"{path.relative_to(ROOT)} imports {name}")
    assert not bad, "\n".join(bad)


#: imports of another module's `_private` names that predate this rule, each with the work
#: that removes it; the list only shrinks
KNOWN_PRIVATE_IMPORTS = {
    # issue 17 (write side): batch writes fold into the write steps
    ("gremlin_engine/runtime/batch_writes.py", "gremlin_engine.runtime.writes"),
    ("gremlin_engine/runtime/mutations.py", "gremlin_engine.runtime.writes"),
}


def _is_module(name: str) -> bool:
    try:
        return importlib.util.find_spec(name) is not None
    except (ImportError, ValueError):
        return False


def test_no_module_imports_another_modules_private_names():
    """A `_name` is its module's own: importing it from elsewhere (a library's private
    module included) ties two modules to one implementation detail (STYLE.md §H)."""
    bad = []
    known_seen = set()
    for package in PACKAGES:
        for path in _modules(package):
            rel = str(path.relative_to(ROOT))
            for node in _from_imports(path):
                if node.level or not node.module:
                    continue
                if (rel, node.module) in KNOWN_PRIVATE_IMPORTS:
                    known_seen.add((rel, node.module))
                    continue
                private = [a.name for a in node.names if a.name.startswith("_") and not a.name.startswith("__")
                           and not (node.module.split(".")[0] == package and _is_module(f"{node.module}.{a.name}"))]
                # (a package's own helper module, `from rest_adapter.resources import _element_common`, is its own)
                if private:
                    bad.append(f"{rel} imports {node.module}: {', '.join(private)}")
    assert not bad, "\n".join(bad)
    assert known_seen == KNOWN_PRIVATE_IMPORTS, f"gone, take them off the list: {KNOWN_PRIVATE_IMPORTS - known_seen}"


def _schema_service_private_names() -> set[str]:
    """The `_names` the schema service module defines (its attributes and functions)."""
    tree = ast.parse((ROOT / "gremlin_engine" / "schema" / "service.py").read_text())
    found = {"_snap", "_derived"}
    for node in ast.walk(tree):
        if isinstance(node, ast.FunctionDef | ast.ClassDef) and node.name.startswith("_") and not node.name.startswith("__"):
            found.add(node.name)
        elif isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id == "self":
            if node.attr.startswith("_") and not node.attr.startswith("__"):
                found.add(node.attr)
    return found


def test_nobody_reads_the_schema_services_private_state():
    """What is derived from the schema is cached on its public snapshot (`SchemaSnapshot.derive`,
    through `SchemaService.derived`): no module outside the service reads its private state,
    by attribute (`service._snap`, `schema._lock`), by name in a string (`getattr(s, "_snap")`)
    or reaches the snapshot's private memo. Mixins of the service use its public methods."""
    owner = ROOT / "gremlin_engine" / "schema" / "service.py"
    private = _schema_service_private_names() - {"_lock", "_load"}  # names other classes use for their own
    bad = [
        f"{path.relative_to(ROOT)}:{node.lineno}"
        for package in PACKAGES
        for path in _modules(package)
        if path != owner
        for node in ast.walk(ast.parse(path.read_text(), str(path)))
        if (isinstance(node, ast.Attribute) and node.attr in private)
        or (isinstance(node, ast.Constant) and node.value in private)
    ]
    assert not bad, "\n".join(bad)
    schema_modules = (ROOT / "gremlin_engine" / "schema").glob("*.py")
    reach = [
        f"{path.relative_to(ROOT)}:{node.lineno} {node.attr}"
        for path in schema_modules
        if path != owner
        for node in ast.walk(ast.parse(path.read_text(), str(path)))
        if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id == "service"
        and node.attr.startswith("_") and not node.attr.startswith("__")
    ]
    assert not reach, "\n".join(reach)


#: function-local imports of our own modules that remain, each for a real need: a step family
#: or library part a query rarely uses is imported when first used, so a process that never
#: names it never loads it (issue #3, tests/runtime/test_import_boundary.py). (file, module)
LAZY_IMPORTS = {
    # the step table's rarely named families, loaded on the first lookup of one of their names
    ("gremlin_engine/traversal/registry.py", "gremlin_engine.traversal.steps"),
    ("gremlin_engine/traversal/registry.py", "gremlin_engine.algorithms"),
    # connective where() patterns are match()'s (a lazy family)
    ("gremlin_engine/traversal/steps/filter.py", "gremlin_engine.traversal.steps.match"),
    # the VertexProgram view, for traversals holding a VertexProgram step (a lazy family)
    ("gremlin_engine/traversal/__init__.py", "gremlin_engine.computer.view"),
    # g.io(path).read() / .write(): GraphSON and GraphML
    ("gremlin_engine/traversal/steps/sideeffect.py", "gremlin_engine.io"),
    ("gremlin_engine/traversal/steps/sideeffect.py", "gremlin_engine.io.export"),
}


def _function_local_imports(path: Path) -> list[tuple[int, str]]:
    """(line, module) of each import of one of our packages inside a function body (at any
    depth); module-level ones, `if TYPE_CHECKING:` blocks included, are not listed."""
    found: list[tuple[int, str]] = []

    def visit(node: ast.AST, in_function: bool) -> None:
        for child in ast.iter_child_nodes(node):
            if in_function and isinstance(child, ast.Import):
                found.extend((child.lineno, a.name) for a in child.names if a.name.split(".")[0] in PACKAGES)
            elif in_function and isinstance(child, ast.ImportFrom):
                module = child.module or ""
                if child.level or module.split(".")[0] in PACKAGES:
                    found.append((child.lineno, "." * child.level + module))
            visit(child, in_function or isinstance(child, ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda))

    visit(ast.parse(path.read_text(), str(path)), False)
    return found


def test_the_engine_has_no_function_local_imports_of_its_own_modules():
    """Import cycles are broken by where code lives (shared parts moved down, the runtime taking
    the graph as a `GraphHandle`), not dodged by importing inside a function (issue 17 item 7):
    such an import hides a cycle from every reader and costs a lookup per call. Optional
    libraries (not ours) may still be imported where used."""
    seen = set()
    bad = []
    for path in _modules("gremlin_engine"):
        rel = str(path.relative_to(ROOT))
        for line, module in _function_local_imports(path):
            if (rel, module) in LAZY_IMPORTS:
                seen.add((rel, module))
            else:
                bad.append(f"{rel}:{line} imports {module} inside a function")
    assert not bad, "\n".join(bad)
    assert seen == LAZY_IMPORTS, f"gone, take them off the list: {LAZY_IMPORTS - seen}"


def test_the_engine_never_duck_types_a_transaction():
    """A transaction is storage's `Tx`, typed: its components are called, never probed with
    `hasattr(tx, ...)` / `getattr(tx, "...")`. Such a probe outlives a rename in storage and
    silently takes the slow path (two such slowdowns, issue 17 item 7); a typed call fails
    `tests/test_types.py` instead."""

    def is_tx(node: ast.expr) -> bool:
        name = node.id if isinstance(node, ast.Name) else node.attr if isinstance(node, ast.Attribute) else ""
        return name in ("tx", "own", "t") or name.endswith("_tx")

    bad = [
        f"{path.relative_to(ROOT)}:{node.lineno}"
        for path in _modules("gremlin_engine")
        for node in ast.walk(ast.parse(path.read_text(), str(path)))
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in ("hasattr", "getattr")
        and node.args and is_tx(node.args[0])
    ]
    assert not bad, "\n".join(bad)
