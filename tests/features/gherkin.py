"""A small Gherkin reader for the TinkerPop feature corpus.

The corpus uses a narrow slice of Gherkin: one `Feature:` per file with tags, `Scenario:`
blocks with their own tags, `Given/And/When/Then/But` steps, `\"\"\"` doc strings and `|`
tables. No Background, Outline or Rule appears, so a line-oriented reader is enough and we
avoid a test dependency (radish/behave) just for parsing. Anything it does not understand
is an error with the file and line, so a corpus upgrade cannot silently drop scenarios.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

STEP_KEYWORDS = ("Given", "And", "When", "Then", "But")


class GherkinError(ValueError):
    """A line the reader does not understand (names file and line)."""


@dataclass
class Step:
    keyword: str  # as written: Given/And/When/Then/But
    text: str  # the rest of the line, stripped
    line: int
    doc_string: str | None = None
    table: list[list[str]] | None = None  # rows of cells, header row included


@dataclass
class Scenario:
    name: str
    line: int
    tags: list[str] = field(default_factory=list)  # scenario tags plus the feature's
    steps: list[Step] = field(default_factory=list)
    feature: Feature | None = field(default=None, repr=False)

    @property
    def feature_name(self) -> str:
        return self.feature.name if self.feature else ""


@dataclass
class Feature:
    name: str
    path: str
    tags: list[str] = field(default_factory=list)
    scenarios: list[Scenario] = field(default_factory=list)

    @property
    def group(self) -> str:
        """`map/AddEdge` style name (folder + file stem) used in reports."""
        p = Path(self.path)
        return f"{p.parent.name}/{p.stem}"


def _split_row(line: str) -> list[str]:
    """Cells of a `| a | b |` row; `\\|` stands for a literal bar inside a cell."""
    body = line.strip()
    if not (body.startswith("|") and body.endswith("|")):
        raise ValueError(f"bad table row: {line!r}")
    cells, cur, i = [], [], 1
    while i < len(body) - 1:
        ch = body[i]
        if ch == "\\" and i + 1 < len(body) - 1 and body[i + 1] in "|\\":
            cur.append(body[i + 1])
            i += 2
            continue
        if ch == "|":
            cells.append("".join(cur).strip())
            cur = []
        else:
            cur.append(ch)
        i += 1
    cells.append("".join(cur).strip())
    return cells


def parse_feature(text: str, path: str = "<string>") -> Feature:
    """Parses one feature file's text."""
    lines = text.splitlines()
    feature: Feature | None = None
    scenario: Scenario | None = None
    pending_tags: list[str] = []
    step: Step | None = None
    i = 0

    def fail(msg: str) -> GherkinError:
        return GherkinError(f"{path}:{i + 1}: {msg}")

    while i < len(lines):
        raw = lines[i]
        s = raw.strip()
        if not s or s.startswith("#"):
            i += 1
            continue
        if s.startswith("@"):
            pending_tags.extend(t for t in s.split() if t.startswith("@"))
        elif s.startswith("Feature:"):
            if feature is not None:
                raise fail("second Feature in one file")
            feature = Feature(name=s[len("Feature:"):].strip(), path=path, tags=pending_tags)
            pending_tags = []
        elif s.startswith("Scenario:"):
            if feature is None:
                raise fail("Scenario before Feature")
            scenario = Scenario(
                name=s[len("Scenario:"):].strip(), line=i + 1, tags=pending_tags + feature.tags, feature=feature
            )
            pending_tags = []
            feature.scenarios.append(scenario)
            step = None
        elif s.split(" ", 1)[0] in STEP_KEYWORDS:
            if scenario is None:
                raise fail("step outside a Scenario")
            kw, _, rest = s.partition(" ")
            step = Step(keyword=kw, text=rest.strip(), line=i + 1)
            scenario.steps.append(step)
        elif s.startswith('"""'):
            if step is None:
                raise fail("doc string without a step")
            indent = len(raw) - len(raw.lstrip())
            body: list[str] = []
            i += 1
            while i < len(lines) and lines[i].strip() != '"""':
                ln = lines[i]
                # strip the opening delimiter's indentation, never real text
                cut = min(indent, len(ln) - len(ln.lstrip()))
                body.append(ln[cut:])
                i += 1
            if i >= len(lines):
                raise fail("unterminated doc string")
            step.doc_string = "\n".join(body)
        elif s.startswith("|"):
            if step is None:
                raise fail("table without a step")
            if step.table is None:
                step.table = []
            try:
                step.table.append(_split_row(s))
            except ValueError as e:
                raise fail(str(e)) from None
        elif scenario is None and feature is not None:
            pass  # free-text feature description
        else:
            raise fail(f"unrecognised line: {s!r}")
        i += 1
    if feature is None:
        raise GherkinError(f"{path}: no Feature")
    return feature


def load_features(root: Path) -> list[Feature]:
    """Every `*.feature` under `root`, in a stable (sorted path) order."""
    return [parse_feature(p.read_text(encoding="utf-8"), str(p)) for p in sorted(root.rglob("*.feature"))]
