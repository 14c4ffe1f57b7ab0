"""Runs TinkerPop Gherkin scenarios against a `ScriptExecutor` and reports outcomes.

Design (why one gated test and not 2000 pytest tests): the corpus is a progress measure
while the engine grows, not a list of regressions. `run_corpus` runs every scenario and
returns an `Outcome` per scenario (passed / failed / skipped, with the first line of what
went wrong); `tests/features/test_conformance.py` turns that into one pytest test that
fails only when the pass count drops below `floor.txt`, and prints the summary line
`conformance: P passed, F failed, S skipped of N runnable`. `python -m
tests.features.report` runs the same code and writes the failures grouped by feature.

A scenario is *skipped* when `skiplist.txt` names it or one of its tags, when the corpus
marks it unsupported itself (`Given an unsupported test`), or when it needs a lambda
(`c[...]`). Everything else counts: an error, an unknown step or a wrong result is a
failure of that scenario alone.

Graphs: read-only scenarios share one graph per dataset for the whole run; a scenario that
has an initializer, writes (by its traversal text), or checks the graph afterwards runs on
a fresh private graph.
"""

from __future__ import annotations

import re
import time
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from .executor import FEATURE_PROPERTIES, ElementWorld, ScriptExecutor
from .gherkin import Feature, Scenario, Step
from .results import canon, compare_of, compare_ordered, compare_unordered, show
from .values import Unsupported, decode

DATASETS = ("modern", "classic", "crew", "grateful", "sink", "empty")

_MUTATING = re.compile(r"\b(addV|addE|property|drop|mergeV|mergeE|io)\s*\(")
_QUOTED = r'"((?:[^"\\]|\\.)*)"'


class _Skip(Exception):
    pass


class _Fail(Exception):
    pass


@dataclass
class Outcome:
    group: str  # feature folder/file, e.g. "map/AddEdge"
    scenario: str
    status: str  # "passed" | "failed" | "skipped"
    message: str = ""
    seconds: float = 0.0
    line: int = 0

    @property
    def first_line(self) -> str:
        return self.message.strip().splitlines()[0] if self.message.strip() else ""


class SkipList:
    """`skiplist.txt`: one entry a line, `<scenario name or @Tag>  <reason>`; `#` comments."""

    def __init__(self, names: dict[str, str] | None = None, tags: dict[str, str] | None = None) -> None:
        self.names = names or {}
        self.tags = tags or {}

    @classmethod
    def load(cls, path: Path) -> SkipList:
        names: dict[str, str] = {}
        tags: dict[str, str] = {}
        if path.exists():
            for raw in path.read_text(encoding="utf-8").splitlines():
                line = raw.strip()
                if not line or line.startswith("#"):
                    continue
                key, _, reason = line.partition(" ")
                (tags if key.startswith("@") else names)[key] = reason.strip() or "listed in skiplist.txt"
        return cls(names, tags)

    def reason(self, scenario: Scenario) -> str | None:
        if scenario.name in self.names:
            return self.names[scenario.name]
        for t in scenario.tags:
            if t in self.tags:
                return f"{t}: {self.tags[t]}"
        return None


def _unquote(s: str) -> str:
    return re.sub(r"\\(.)", r"\1", s)


def _entries(value: Any) -> list[Any]:
    """How the TinkerPop runners turn the object `next()` returned into result rows: a
    collection gives its members, a map its entries (each as a one-entry map), a path its
    objects (a Java Path is Iterable)."""
    if isinstance(value, dict):
        return [{k: v} for k, v in value.items()]
    if isinstance(value, list | tuple | set | frozenset):
        return list(value)
    if type(value).__name__ == "Path" and hasattr(value, "objects"):
        return list(value.objects)
    return [value]


def parse_tree(text: str, world: Any) -> dict[Any, Any]:
    """The `|--a` / `   |--b` ascii tree of the Tree assertions as nested dicts."""
    root: dict[Any, Any] = {}
    stack: list[tuple[int, dict[Any, Any]]] = [(-1, root)]
    for line in text.splitlines():
        if "|--" not in line:
            continue
        depth = line.index("|--")
        key = decode(line.split("|--", 1)[1].strip(), world)
        while stack[-1][0] >= depth:
            stack.pop()
        child: dict[Any, Any] = {}
        stack[-1][1][key] = child
        stack.append((depth, child))
    return root


class ScenarioRun:
    """The state of one scenario while its steps run."""

    def __init__(self, runner: Runner, scenario: Scenario) -> None:
        self.runner = runner
        self.sc = scenario
        self.dataset: str | None = None
        self.initializer: str | None = None
        self.params: list[tuple[str, str]] = []
        self.side_effects: list[tuple[str, str]] = []
        self.traversal: str | None = None
        self.handle: Any = None
        self.world: Any = None
        self.executed = False
        self.result: list[Any] | None = None
        self.raw_next: Any = None
        self.error: BaseException | None = None

    # ---- graph ---------------------------------------------------------------------------
    def _needs_fresh(self) -> bool:
        if self.initializer is not None:
            return True
        if self.traversal and _MUTATING.search(self.traversal):
            return True
        return any(s.text.startswith("the graph should return") for s in self.sc.steps)

    def _ensure_graph(self) -> None:
        if self.handle is not None:
            return
        if self.dataset is None:
            raise _Fail("no graph was given")
        ex = self.runner.executor
        props: dict[str, str] = {}
        for tag in self.sc.tags:
            props.update(FEATURE_PROPERTIES.get(tag, {}))
        fresh = self._needs_fresh() or bool(props)
        self.handle = ex.open(self.dataset, fresh, props) if props else ex.open(self.dataset, fresh)
        if fresh:
            self.runner.fresh_handles += 1
        if self.initializer is not None:
            try:
                ex.execute(self.handle, self.initializer, {})
            except Exception as e:
                raise _Fail(f"graph initializer failed: {type(e).__name__}: {e}") from e
        if fresh:
            self.world = ElementWorld(ex, self.handle, ex.records(self.dataset))
        else:
            self.world = self.runner.shared_world(self.dataset, self.handle)

    def decode(self, text: str) -> Any:
        try:
            return decode(text, self.world)
        except Unsupported as e:
            raise _Skip(str(e)) from e
        except LookupError as e:
            raise _Fail(f"cannot resolve {text!r}: {e}") from e

    def bindings(self) -> dict[str, Any]:
        b = {name: self.decode(raw) for name, raw in self.params}
        for name, raw in self.side_effects:
            b[f"se_{name}"] = self.decode(raw)
        return b

    def script(self) -> str:
        text = self.traversal or ""
        for name, _ in reversed(self.side_effects):
            text = re.sub(r"^\s*g\s*\.", f'g.withSideEffect("{name}", se_{name}).', text, count=1)
        return text

    # ---- when ----------------------------------------------------------------------------
    def run_traversal(self, next_only: bool) -> None:
        if self.traversal is None:
            raise _Fail("no traversal was given")
        self._ensure_graph()
        bindings = self.bindings()
        self.executed = True
        try:
            res = self.runner.executor.execute(self.handle, self.script(), bindings)
        except Exception as e:
            self.error = e
            return
        if next_only:
            if not res:
                self.error = LookupError("next() on an empty traversal (NoSuchElementException)")
                return
            self.raw_next = res[0]
            self.result = _entries(res[0])
        else:
            self.result = res

    # ---- then ----------------------------------------------------------------------------
    def _actual(self) -> list[Any]:
        if not self.executed:
            raise _Fail("a result was checked before the traversal ran")
        if self.error is not None:
            raise _Fail(f"traversal raised {type(self.error).__name__}: {self.error}")
        assert self.result is not None
        return self.result

    def _expected(self, step: Step) -> list[Any]:
        rows = step.table or []
        return [self.decode(r[0]) for r in rows[1:]]

    def check(self, step: Step) -> None:
        t = step.text
        m = re.fullmatch(r"the result should be (unordered|ordered|of)", t)
        if m:
            actual, expected = self._actual(), self._expected(step)
            cmp = {"unordered": compare_unordered, "ordered": compare_ordered, "of": compare_of}[m.group(1)]
            msg = cmp(actual, expected)
            if msg:
                raise _Fail(msg)
            return
        if t == "the result should be empty":
            actual = self._actual()
            if actual:
                raise _Fail(f"expected no results, got {len(actual)}: {show(canon(actual[:8]))}")
            return
        m = re.fullmatch(r"the result should have a count of (\d+)", t)
        if m:
            actual = self._actual()
            if len(actual) != int(m.group(1)):
                raise _Fail(f"expected {m.group(1)} results, got {len(actual)}")
            return
        if t == "the result should be a tree with a structure of":
            self._actual()
            expected = parse_tree(step.doc_string or "", self.world)
            if canon(self.raw_next) != canon(expected):
                raise _Fail(f"tree mismatch: expected {show(canon(expected))}, got {show(canon(self.raw_next))}")
            return
        if t == "the result should be a subgraph with the following":
            self._check_subgraph(step)
            return
        m = re.fullmatch(
            r"the traversal will raise an error(?: with message (containing|starting with|ending with) text of "
            + _QUOTED + ")?", t)
        if m:
            if not self.executed:
                raise _Fail("an error was expected before the traversal ran")
            if self.error is None:
                raise _Fail(f"expected an error, but the traversal returned {len(self.result or [])} results")
            if m.group(1):
                want, got = _unquote(m.group(2)), str(self.error)
                ok = {"containing": want in got, "starting with": got.startswith(want),
                      "ending with": got.endswith(want)}[m.group(1)]
                if not ok:
                    raise _Fail(f"error message {m.group(1)} {want!r} expected, got "
                                f"{type(self.error).__name__}: {got}")
            return
        m = re.fullmatch(r"the graph should return (\d+) for count of " + _QUOTED, t)
        if m:
            self._actual()
            script = _unquote(m.group(2))
            try:
                n = len(self.runner.executor.execute(self.handle, script, self.bindings()))
            except Exception as e:
                raise _Fail(f"count script {script!r} raised {type(e).__name__}: {e}") from e
            if n != int(m.group(1)):
                raise _Fail(f"count of {script!r}: expected {m.group(1)}, got {n}")
            return
        raise _Fail(f"unsupported step: {step.keyword} {t}")

    def _check_subgraph(self, step: Step) -> None:
        self._actual()
        sg = self.raw_next
        rows = step.table or []
        kind = rows[0][0] if rows else ""
        if kind not in ("edges", "vertices"):
            raise _Fail(f"subgraph table must be headed edges or vertices, not {kind!r}")
        members = getattr(sg, kind, None)
        if members is None:
            raise _Fail(f"result is not a subgraph: {type(sg).__name__}")
        actual = list(members() if callable(members) else members)
        msg = compare_unordered(actual, [self.decode(r[0]) for r in rows[1:]])
        if msg:
            raise _Fail(f"subgraph {kind}: {msg}")

    # ---- driver --------------------------------------------------------------------------
    def step(self, step: Step) -> None:
        t = step.text
        m = re.fullmatch(r"the (\w+) graph", t)
        if step.keyword == "Given" and m:
            if m.group(1) not in DATASETS:
                raise _Fail(f"unknown graph {m.group(1)!r}")
            self.dataset = m.group(1)
            return
        if t == "an unsupported test":
            raise _Skip("the corpus marks it unsupported")
        if t == "the graph initializer of":
            self.initializer = step.doc_string or ""
            return
        m = re.fullmatch(r"using the (parameter|side effect) (\w+) defined as " + _QUOTED, t)
        if m:
            (self.params if m.group(1) == "parameter" else self.side_effects).append(
                (m.group(2), _unquote(m.group(3))))
            return
        if t == "the traversal of":
            self.traversal = step.doc_string or ""
            return
        if t in ("iterated to list", "iterated next"):
            self.run_traversal(next_only=t == "iterated next")
            return
        if t == "nothing should happen because":
            raise _Skip("the corpus marks it unsupported")
        self.check(step)

    def run(self) -> tuple[str, str]:
        try:
            for st in self.sc.steps:
                self.step(st)
            if not self.executed:
                raise _Fail("the scenario never ran its traversal")
            return "passed", ""
        except _Skip as e:
            return "skipped", str(e)
        except _Fail as e:
            return "failed", str(e)
        except Exception as e:  # a runner bug or an engine crash outside execute
            return "failed", f"runner error {type(e).__name__}: {e}"
        finally:
            if self.handle is not None and getattr(self.handle, "fresh", False):
                try:
                    self.runner.executor.close(self.handle)
                except Exception:
                    pass


class Runner:
    def __init__(self, executor: ScriptExecutor, skiplist: SkipList | None = None) -> None:
        self.executor = executor
        self.skiplist = skiplist or SkipList()
        self._worlds: dict[str, ElementWorld] = {}
        self.fresh_handles = 0

    def shared_world(self, dataset: str, handle: Any) -> ElementWorld:
        w = self._worlds.get(dataset)
        if w is None:
            w = self._worlds[dataset] = ElementWorld(self.executor, handle, self.executor.records(dataset))
        return w

    def run_scenario(self, scenario: Scenario) -> Outcome:
        group = scenario.feature.group if scenario.feature else ""
        reason = self.skiplist.reason(scenario)
        if reason is not None:
            return Outcome(group, scenario.name, "skipped", reason, line=scenario.line)
        t0 = time.perf_counter()
        status, message = ScenarioRun(self, scenario).run()
        return Outcome(group, scenario.name, status, message, time.perf_counter() - t0, scenario.line)

    def run_all(self, features: Iterable[Feature], name_filter: str | None = None) -> list[Outcome]:
        out = []
        for f in features:
            for sc in f.scenarios:
                if name_filter and not re.search(name_filter, f"{f.group}/{sc.name}"):
                    continue
                out.append(self.run_scenario(sc))
        return out


def summary_line(outcomes: list[Outcome]) -> str:
    p = sum(o.status == "passed" for o in outcomes)
    f = sum(o.status == "failed" for o in outcomes)
    s = sum(o.status == "skipped" for o in outcomes)
    return f"conformance: {p} passed, {f} failed, {s} skipped of {p + f} runnable"
