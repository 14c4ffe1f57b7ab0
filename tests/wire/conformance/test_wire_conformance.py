"""The TinkerPop corpus over the wire, in both modes, gated by floors (pass counts may only rise).

`eval` sends each scenario as a script with bindings, `bytecode` as gremlinpython bytecode
(see `executor.py`). Both modes run at the same time against two server processes, so the
whole corpus costs about one mode's time. The issue's bar is that at least 85% of the
runnable scenarios pass in each mode; the floors in `floor-eval.txt` / `floor-bytecode.txt`
record the counts reached, and this test fails when a mode drops below its floor or below
85%. Reports: `build/wire-conformance-<mode>.txt` (or run `python -m
tests.wire.conformance.run --engine-diff` to see which failures are the wire's own).

`HUGELITE_WIRE_CONFORMANCE=off` skips the run (it takes a couple of minutes).
"""

from __future__ import annotations

import os
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from tests.features.executor import corpus_dir
from tests.features.report import format_report
from tests.features.runner import Outcome, summary_line
from tests.wire.conformance.executor import MODES
from tests.wire.conformance.run import BUILD, run_mode

HERE = Path(__file__).resolve().parent
BAR = 0.85

if not (corpus_dir() / "features").is_dir():
    pytest.skip(f"TinkerPop corpus not found at {corpus_dir()}", allow_module_level=True)
if os.environ.get("HUGELITE_WIRE_CONFORMANCE", "on").strip().lower() in ("off", "0", "no"):
    pytest.skip("HUGELITE_WIRE_CONFORMANCE=off", allow_module_level=True)


def read_floor(mode: str) -> int:
    for line in (HERE / f"floor-{mode}.txt").read_text(encoding="utf-8").splitlines():
        line = line.strip()
        if line and not line.startswith("#"):
            return int(line)
    return 0


@pytest.fixture(scope="module")
def outcomes() -> dict[str, list[Outcome]]:
    with ThreadPoolExecutor(max_workers=len(MODES)) as pool:
        runs = {mode: pool.submit(run_mode, mode) for mode in MODES}
        result = {mode: f.result() for mode, f in runs.items()}
    BUILD.mkdir(exist_ok=True)
    for mode, out in result.items():
        (BUILD / f"wire-conformance-{mode}.txt").write_text(format_report(out), encoding="utf-8")
    return result


@pytest.mark.parametrize("mode", MODES)
def test_wire_pass_count_holds(outcomes: dict[str, list[Outcome]], mode: str) -> None:
    out = outcomes[mode]
    passed = sum(o.status == "passed" for o in out)
    runnable = sum(o.status != "skipped" for o in out)
    print(f"\n{mode}: {summary_line(out)}")
    assert len(out) > 1900, "the corpus lost scenarios: check the Gherkin reader"
    assert passed >= read_floor(mode), (
        f"{mode}: only {passed} scenarios pass over the wire, the floor is {read_floor(mode)}; "
        f"see build/wire-conformance-{mode}.txt")
    assert passed >= BAR * runnable, f"{mode}: {passed} of {runnable} runnable is below {BAR:.0%}"
