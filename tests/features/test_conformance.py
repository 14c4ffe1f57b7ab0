"""The TinkerPop Gherkin corpus as one gated test: the pass count may only go up.

See `runner.py` for the design. Scenario failures do not fail pytest one by one (the engine
grows scenario by scenario); this test fails when fewer scenarios pass than `floor.txt`
records, or when the corpus itself cannot be read. Raise the floor when you fix things.
`HUGELITE_CONFORMANCE_STRATEGIES=off` runs it with the engine's strategies off.
"""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest

from .executor import corpus_dir
from .runner import Outcome

CORPUS = corpus_dir()
if not (CORPUS / "features").is_dir():
    pytest.skip(
        f"TinkerPop corpus not found at {CORPUS}: conformance is not run (set HUGELITE_TINKERPOP_DIR)",
        allow_module_level=True,
    )

FLOOR_FILE = Path(__file__).with_name("floor.txt")


def read_floor() -> int:
    for line in FLOOR_FILE.read_text(encoding="utf-8").splitlines():
        line = line.strip()
        if line and not line.startswith("#"):
            return int(line)
    return 0


def test_pass_count_does_not_drop_below_floor(request: pytest.FixtureRequest) -> None:
    if importlib.util.find_spec("gremlin_engine.runtime.api") is None:
        pytest.skip("the engine runtime (gremlin_engine.runtime.api) is not there yet")
    conformance_outcomes: list[Outcome] = request.getfixturevalue("conformance_outcomes")
    passed = sum(o.status == "passed" for o in conformance_outcomes)
    floor = read_floor()
    assert len(conformance_outcomes) > 1900, "the corpus lost scenarios: check the Gherkin reader"
    assert passed >= floor, (
        f"only {passed} TinkerPop scenarios pass, the recorded floor is {floor}; "
        "see build/conformance-report.txt or run `python -m tests.features.report`"
    )
