"""Runs the TinkerPop corpus over the wire and writes a report per mode.

    .venv/bin/python -m tests.wire.conformance.run [--mode eval|bytecode|both] [--filter REGEX]
                                                   [--engine-diff]

For each mode: a server process is started, every scenario goes through gremlinpython (see
`executor.py`), and `build/wire-conformance-<mode>.txt` gets the summary line, the failures
grouped by feature and the slowest scenarios (`tests.features.report.format_report`).
`--engine-diff` also runs the corpus in process and lists the scenarios that pass there but
fail over the wire: those are the wire-side failures; the rest fail in the engine as well.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

from tests.features.executor import corpus_dir
from tests.features.report import format_report, run_corpus
from tests.features.runner import Outcome, summary_line
from tests.wire.conformance.executor import MODES, WireExecutor

BUILD = Path(__file__).resolve().parents[3] / "build"


def run_mode(mode: str, name_filter: str | None = None) -> list[Outcome]:
    """Every scenario (or those matching `name_filter`) over the wire in `mode`."""
    executor = WireExecutor(mode)
    outcomes = run_corpus(name_filter=name_filter, executor=executor)
    if executor.io_problem:
        print(f"note ({mode}): the server did not read the toy graphs itself ({executor.io_problem}); "
              "they were written with gremlinpython bytecode instead", file=sys.stderr)
    return outcomes


def wire_only_failures(wire: list[Outcome], engine: list[Outcome]) -> list[Outcome]:
    """Scenarios that pass in process but not over the wire."""
    passed = {(o.group, o.scenario) for o in engine if o.status == "passed"}
    return [o for o in wire if o.status == "failed" and (o.group, o.scenario) in passed]


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m tests.wire.conformance.run", description=__doc__.split("\n\n")[0])
    ap.add_argument("--mode", choices=[*MODES, "both"], default="both")
    ap.add_argument("--filter", help="regex over '<folder>/<Feature file>/<scenario name>'")
    ap.add_argument("--engine-diff", action="store_true", help="list scenarios that fail only over the wire")
    args = ap.parse_args(argv)
    if not (corpus_dir() / "features").is_dir():
        print(f"TinkerPop corpus not found at {corpus_dir()} (set HUGELITE_TINKERPOP_DIR)", file=sys.stderr)
        return 2
    engine = run_corpus(name_filter=args.filter) if args.engine_diff else None
    BUILD.mkdir(exist_ok=True)
    for mode in MODES if args.mode == "both" else (args.mode,):
        t0 = time.perf_counter()
        outcomes = run_mode(mode, args.filter)
        text = format_report(outcomes) + f"ran in {time.perf_counter() - t0:.1f}s\n"
        if engine is not None:
            only = wire_only_failures(outcomes, engine)
            text += f"\nfailing over the wire only ({len(only)}; they pass in process):\n"
            text += "".join(f"  {o.group}/{o.scenario}: {o.first_line}\n" for o in only)
        out = BUILD / f"wire-conformance-{mode}.txt"
        out.write_text(text, encoding="utf-8")
        print(f"{mode}: {summary_line(outcomes)} in {time.perf_counter() - t0:.1f}s (report: {out})")
    if engine is not None:
        print(f"in process: {summary_line(engine)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
