"""The Gherkin reader: features, tags, steps, doc strings and tables, and the real corpus."""

from __future__ import annotations

import pytest

from .executor import corpus_dir
from .gherkin import GherkinError, load_features, parse_feature

SAMPLE = '''# Licensed to the Apache Software Foundation
@StepClassMap @StepAddE
Feature: Step - addE()

  Some free text describing the feature.

  Scenario: g_addE_one
    Given the empty graph
    And the graph initializer of
      """
      g.addV("person").property("name", "marko").
        addV("person")
      """
    And using the parameter vid1 defined as "v[marko].id"
    And the traversal of
      """
      g.V(vid1).as("a")
      """
    When iterated to list
    Then the result should be unordered
      | result |
      | v[marko] |
      | m[{"a":"d[1].i"}] |
      | str[a\\|b] |

  @DisallowNullPropertyValues
  Scenario: second
    Given the modern graph
    # a comment between steps
    Then the result should have a count of 2
'''


def test_sample_feature_structure() -> None:
    f = parse_feature(SAMPLE, "features/map/AddEdge.feature")
    assert f.name == "Step - addE()"
    assert f.tags == ["@StepClassMap", "@StepAddE"]
    assert f.group == "map/AddEdge"
    assert [s.name for s in f.scenarios] == ["g_addE_one", "second"]
    first, second = f.scenarios
    assert first.tags == ["@StepClassMap", "@StepAddE"]
    assert second.tags == ["@DisallowNullPropertyValues", "@StepClassMap", "@StepAddE"]
    assert first.feature_name == "Step - addE()"
    assert [(s.keyword, s.text) for s in first.steps] == [
        ("Given", "the empty graph"),
        ("And", "the graph initializer of"),
        ("And", 'using the parameter vid1 defined as "v[marko].id"'),
        ("And", "the traversal of"),
        ("When", "iterated to list"),
        ("Then", "the result should be unordered"),
    ]
    # doc strings lose the delimiter's indentation but keep their own
    assert first.steps[1].doc_string == 'g.addV("person").property("name", "marko").\n  addV("person")'
    assert first.steps[3].doc_string == 'g.V(vid1).as("a")'
    assert first.steps[5].table == [["result"], ["v[marko]"], ['m[{"a":"d[1].i"}]'], ["str[a|b]"]]
    assert second.steps[1].text == "the result should have a count of 2"
    assert second.line == 27


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("Scenario: x\n", "Scenario before Feature"),
        ("Feature: a\nFeature: b\n", "second Feature"),
        ("Feature: a\n  Scenario: s\n    Given x\n      \"\"\"\n      open\n", "unterminated doc string"),
        ("Feature: a\n  Scenario: s\n    Frobnicate the graph\n", "unrecognised line"),
        ("Feature: a\n  Given x\n", "step outside a Scenario"),
        ("# nothing\n", "no Feature"),
    ],
)
def test_malformed_features_are_errors(text: str, message: str) -> None:
    with pytest.raises(GherkinError, match=message):
        parse_feature(text, "f.feature")


@pytest.mark.skipif(not (corpus_dir() / "features").is_dir(), reason="TinkerPop corpus is absent")
def test_whole_corpus_parses() -> None:
    features = load_features(corpus_dir() / "features")
    scenarios = [s for f in features for s in f.scenarios]
    assert len(features) >= 150
    assert len(scenarios) >= 2000
    # every scenario has steps, and every table has a header row plus data
    assert all(s.steps for s in scenarios)
    tables = [st.table for s in scenarios for st in s.steps if st.table is not None]
    assert {t[0][0] for t in tables} <= {"result", "edges", "vertices"}
    traversals = [st for s in scenarios for st in s.steps if st.text == "the traversal of"]
    assert all(st.doc_string and st.doc_string.lstrip().startswith("g.") for st in traversals)
