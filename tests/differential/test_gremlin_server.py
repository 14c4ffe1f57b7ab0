"""Gremlin Server (TinkerGraph) vs hugelite over the WebSocket protocol: every case of
`gremlin_cases.py` as a script and as bytecode, over GraphBinary, GraphSON 3.0 and GraphSON 2.0, and as a raw
GraphSON 3.0 script whose typed JSON is compared as it is; the error cases on status codes."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests.differential import normalise, wire
from tests.differential.gremlin_cases import CASES, ERROR_CASES, Case, as_script

MODES = ("script-binary", "script-graphson", "script-graphson2", "bytecode-binary", "bytecode-graphson",
         "bytecode-graphson2", "raw-graphson")


def _ask(url: str, source: str, case: Case, mode: str) -> tuple[bool, object]:
    kind, ser = mode.split("-")
    if kind == "raw":
        ok, value = wire.raw(url, source, as_script(case.expr))
        return ok, normalise.raw_results(value, case.ordered) if ok else value
    if kind == "script":
        ok, value = wire.script(url, source, as_script(case.expr), ser)
    else:
        ok, value = wire.bytecode(url, source, case.expr, ser)
    return ok, normalise.results(value, case.ordered, ser == "graphson2") if ok else value


@pytest.fixture(scope="module")
def servers(gremlin_server: str, hugelite: str) -> Iterator[tuple[str, str]]:
    yield gremlin_server, f"ws://{hugelite.removeprefix('http://')}/gremlin"
    wire.close_all()


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("case", CASES, ids=lambda c: c.id)
def test_same_answer(servers: tuple[str, str], case: Case, mode: str) -> None:
    real, ours = servers
    expected = _ask(real, f"g{case.graph}", case, mode)
    assert _ask(ours, case.graph, case, mode) == expected


@pytest.mark.parametrize("mode", ("script-binary", "script-graphson"))
@pytest.mark.parametrize("case", ERROR_CASES, ids=lambda c: c.id)
def test_same_error_status(servers: tuple[str, str], case: Case, mode: str) -> None:
    real, ours = servers
    expected = _ask(real, f"g{case.graph}", case, mode)
    assert not expected[0]
    assert _ask(ours, case.graph, case, mode) == expected
