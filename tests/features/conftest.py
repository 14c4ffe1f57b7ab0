"""Fixtures for the TinkerPop conformance run, and the summary line at the end of a session.

The corpus runs once per session (`conformance_outcomes`); the summary line
`conformance: P passed, F failed, S skipped of N runnable` is printed in the terminal
summary and the full report is written to `build/conformance-report.txt`.
"""

from __future__ import annotations

import time
from typing import Any

import pytest

from .report import DEFAULT_OUT, format_report, run_corpus
from .runner import Outcome, summary_line

_RUN: dict[str, Any] = {}


@pytest.fixture(scope="session")
def conformance_outcomes() -> list[Outcome]:
    t0 = time.perf_counter()
    outcomes = run_corpus()
    _RUN["outcomes"] = outcomes
    _RUN["seconds"] = time.perf_counter() - t0
    try:
        DEFAULT_OUT.parent.mkdir(parents=True, exist_ok=True)
        DEFAULT_OUT.write_text(format_report(outcomes), encoding="utf-8")
        _RUN["report"] = DEFAULT_OUT
    except OSError:
        pass
    return outcomes


def pytest_terminal_summary(terminalreporter: Any) -> None:
    outcomes = _RUN.get("outcomes")
    if outcomes is None:
        return
    terminalreporter.write_line(
        f"TinkerPop corpus ran in {_RUN['seconds']:.1f}s; failures by feature in {_RUN.get('report', '(not written)')}"
        " (or run `python -m tests.features.report`)"
    )
    terminalreporter.write_line(summary_line(outcomes))
