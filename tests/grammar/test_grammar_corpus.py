"""Every Gremlin text of the Apache TinkerPop feature corpus parses and interprets.

The corpus (`../shared/tinkerpop/features/**/*.feature`) is the conformance suite's input;
a traversal the grammar cannot read is a scenario lost before the engine sees it. Each
text is also interpreted against the recording host, so literal typing, tokens,
predicates and strategies are exercised for the whole corpus, not just for samples."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from gremlin_engine.errors import GremlinError
from gremlin_engine.syntax import interpret, parse
from gremlin_engine.syntax.host import TraversalSourceRef

FEATURES = Path(__file__).resolve().parents[3] / "shared" / "tinkerpop" / "features"

# Texts that are *meant* to fail when built (their scenario says "the traversal will raise
# an error"), keyed by a fragment of the text.
EXPECTED_INTERPRET_ERRORS = {
    'P.typeOf("non-registered-Name")': "TypeOf.feature: the scenario expects an unknown type name to be an error",
}


def corpus() -> list[tuple[str, int, str]]:
    """(feature file, line, traversal text) for every `the traversal of` block."""
    out = []
    for path in sorted(FEATURES.rglob("*.feature")):
        lines = path.read_text(encoding="utf-8").splitlines()
        i = 0
        while i < len(lines):
            if re.match(r"\s*(And|Given) the traversal of\s*$", lines[i]):
                j = i + 1
                while lines[j].strip().startswith("#"):
                    j += 1
                assert lines[j].strip() == '"""', f"{path}:{j + 1}"
                indent = len(lines[j]) - len(lines[j].lstrip())
                k = j + 1
                body = []
                while lines[k].strip() != '"""':
                    body.append(lines[k][indent:])
                    k += 1
                out.append((str(path.relative_to(FEATURES)), i + 1, "\n".join(body)))
                i = k
            i += 1
    return out


class CorpusHost:
    """Bindings of the feature files (`xx1`, `vid1`, `eid11`...) become their own names."""

    def lookup(self, name: str) -> object:
        if name == "g":
            return TraversalSourceRef("g")
        if re.fullmatch(r"(xx|vid|eid|v|e)\d+", name):
            return name
        raise KeyError(name)

    def run(self, traversal: object, terminal: str, args: tuple = ()) -> object:
        return []

    def call_method(self, target: object, name: str, args: tuple) -> object:
        raise AssertionError(f"corpus traversal called host method {name}")

    def get_property(self, target: object, name: str) -> object:
        raise AssertionError(f"corpus traversal read host property {name}")


@pytest.fixture(scope="module")
def texts() -> list[tuple[str, int, str]]:
    if not FEATURES.is_dir():
        pytest.skip(f"TinkerPop feature corpus not found at {FEATURES}")
    return corpus()


def test_corpus_is_substantial(texts: list[tuple[str, int, str]]) -> None:
    assert len(texts) > 2000
    assert sum("\n" in t for _, _, t in texts) > 100  # multi-line chains are in there


def test_every_corpus_traversal_parses(texts: list[tuple[str, int, str]]) -> None:
    failures = []
    for where, line, text in texts:
        try:
            script = parse(text)
        except GremlinError as e:
            failures.append(f"{where}:{line}: {text!r}: {e}")
            continue
        assert len(script.statements) == 1, f"{where}:{line} is one statement"
    assert failures == []


def test_every_corpus_traversal_interprets(texts: list[tuple[str, int, str]]) -> None:
    failures = []
    expected_hits = set()
    for where, line, text in texts:
        try:
            assert interpret(text, CorpusHost()) == []
        except GremlinError as e:
            known = [k for k in EXPECTED_INTERPRET_ERRORS if k in text]
            if known:
                expected_hits.update(known)
                continue
            failures.append(f"{where}:{line}: {text!r}: {type(e).__name__}: {e}")
    assert failures == []
    assert expected_hits == set(EXPECTED_INTERPRET_ERRORS)
