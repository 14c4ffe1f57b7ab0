"""Skip list parsing, the summary line and the grouped failure report."""

from __future__ import annotations

from pathlib import Path

from .gherkin import parse_feature
from .report import error_kind, format_report
from .runner import Outcome, SkipList, summary_line


def test_skiplist_names_and_tags(tmp_path: Path) -> None:
    f = tmp_path / "skip.txt"
    f.write_text("# comment\n\ng_V_one  lambdas are not run\n@GraphComputerOnly needs OLAP\nbare_name\n")
    sl = SkipList.load(f)
    feature = parse_feature(
        "@GraphComputerOnly\nFeature: f\n  Scenario: g_V_two\n    Given the modern graph\n"
        "  Scenario: g_V_one\n    Given the modern graph\n  Scenario: bare_name\n    Given the modern graph\n",
        "x/F.feature",
    )
    two, one, bare = feature.scenarios
    assert sl.reason(one) == "lambdas are not run"
    assert sl.reason(two) == "@GraphComputerOnly: needs OLAP"
    assert sl.reason(bare) == "listed in skiplist.txt"
    assert SkipList.load(tmp_path / "missing.txt").reason(one) is None


def test_the_project_skiplist_only_names_reasons() -> None:
    sl = SkipList.load(Path(__file__).with_name("skiplist.txt"))
    entries = {**sl.names, **sl.tags}
    assert entries and all(reason and reason != "listed in skiplist.txt" for reason in entries.values())
    # the computer steps and call() run now: their tags are no longer skipped wholesale
    assert not {"@GraphComputerOnly", "@TinkerServiceRegistry"} & set(sl.tags)


def test_summary_and_grouped_report() -> None:
    outs = [
        Outcome("map/A", "s1", "passed"),
        Outcome("map/A", "s2", "failed", "traversal raised X: the step foo() is not supported at line 1, column 9\nmore"),
        Outcome("map/B", "s3", "failed", "traversal raised X: the step bar() is not supported at line 1, column 12"),
        Outcome("map/B", "s4", "skipped", "reason"),
    ]
    assert summary_line(outs) == "conformance: 1 passed, 2 failed, 1 skipped of 3 runnable"
    text = format_report(outs, show_skipped=True)
    lines = text.splitlines()
    assert lines[0] == summary_line(outs)
    assert "== map/A (1 failed, 1 passed)" in lines
    assert "  s2: traversal raised X: the step foo() is not supported at line 1, column 9" in lines
    assert "  map/B/s4: reason" in lines
    assert error_kind("the step 'x' failed at line 3") == "the step '…' failed at line N"
