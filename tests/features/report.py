"""Runs the TinkerPop corpus and writes the failures grouped by feature.

    .venv/bin/python -m tests.features.report [--filter REGEX] [--no-strategies]
                                               [--out build/conformance-report.txt] [--skipped]

Prints (and writes to `--out`) the summary line, the most common error kinds across the
corpus (to find what to fix first), then every failing scenario under its feature with the
first line of its error. `HUGELITE_TINKERPOP_DIR` points at another corpus copy.
"""

from __future__ import annotations

import argparse
import re
import sys
import time
from collections import Counter, defaultdict
from pathlib import Path

from .executor import EngineExecutor, ScriptExecutor, corpus_dir, strategies_enabled
from .gherkin import load_features
from .runner import Outcome, Runner, SkipList, summary_line

HERE = Path(__file__).resolve().parent
DEFAULT_OUT = HERE.parents[1] / "build" / "conformance-report.txt"


def error_kind(message: str) -> str:
    """The first line of an error with literals blanked, so similar failures group."""
    first = message.strip().splitlines()[0] if message.strip() else "(no message)"
    first = re.sub(r"'[^']*'|\"[^\"]*\"", "'…'", first)
    first = re.sub(r"\b\d+(\.\d+)?\b", "N", first)
    return first[:160]


def format_report(outcomes: list[Outcome], show_skipped: bool = False, top: int = 40) -> str:
    lines = [summary_line(outcomes), ""]
    failed = [o for o in outcomes if o.status == "failed"]
    by_group: dict[str, list[Outcome]] = defaultdict(list)
    for o in failed:
        by_group[o.group].append(o)
    passed_by_group = Counter(o.group for o in outcomes if o.status == "passed")
    if failed:
        lines.append(f"most common errors ({len(failed)} failures):")
        for kind, n in Counter(error_kind(o.message) for o in failed).most_common(top):
            lines.append(f"  {n:5d}  {kind}")
        lines.append("")
        lines.append("failures by feature (failed/passed):")
        for group in sorted(by_group, key=lambda g: (-len(by_group[g]), g)):
            lines.append(f"  {len(by_group[group]):4d}/{passed_by_group[group]:<4d} {group}")
        lines.append("")
        for group in sorted(by_group):
            lines.append(f"== {group} ({len(by_group[group])} failed, {passed_by_group[group]} passed)")
            for o in by_group[group]:
                lines.append(f"  {o.scenario}: {o.first_line}")
            lines.append("")
    if show_skipped:
        lines.append("skipped:")
        for o in outcomes:
            if o.status == "skipped":
                lines.append(f"  {o.group}/{o.scenario}: {o.first_line}")
    slow = sorted((o for o in outcomes if o.seconds > 0.5), key=lambda o: -o.seconds)[:10]
    if slow:
        lines.append("slowest scenarios:")
        lines.extend(f"  {o.seconds:6.2f}s {o.group}/{o.scenario}" for o in slow)
    return "\n".join(lines) + "\n"


def run_corpus(
    strategies: bool | None = None, name_filter: str | None = None, executor: ScriptExecutor | None = None
) -> list[Outcome]:
    """Every scenario of the corpus through `executor` (default: the embedded engine)."""
    root = corpus_dir()
    features = load_features(root / "features")
    if executor is None:
        executor = EngineExecutor(strategies=strategies_enabled() if strategies is None else strategies)
    try:
        return Runner(executor, SkipList.load(HERE / "skiplist.txt")).run_all(features, name_filter)
    finally:
        executor.shutdown()


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m tests.features.report", description=__doc__.split("\n\n")[0])
    ap.add_argument("--filter", help="regex over '<folder>/<Feature file>/<scenario name>'")
    ap.add_argument("--no-strategies", action="store_true", help="run with the engine's strategies off")
    ap.add_argument("--out", type=Path, default=DEFAULT_OUT)
    ap.add_argument("--skipped", action="store_true", help="list skipped scenarios too")
    args = ap.parse_args(argv)
    if not (corpus_dir() / "features").is_dir():
        print(f"TinkerPop corpus not found at {corpus_dir()} (set HUGELITE_TINKERPOP_DIR)", file=sys.stderr)
        return 2
    t0 = time.perf_counter()
    outcomes = run_corpus(strategies=False if args.no_strategies else None, name_filter=args.filter)
    text = format_report(outcomes, show_skipped=args.skipped)
    text += f"ran in {time.perf_counter() - t0:.1f}s\n"
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(text, encoding="utf-8")
    print(text, end="")
    print(f"(written to {args.out})")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
