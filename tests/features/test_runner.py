"""The scenario runner end to end on the real engine, with small hand-written features.

Each scenario below is chosen to exercise one runner path (shared vs fresh graphs, element
look-ups after an initializer, parameters and side effects, typed comparison, expected
errors, graph counts, skips) with traversals the engine has run since its first version."""

from __future__ import annotations

import importlib.util

import pytest

from .executor import EngineExecutor, corpus_dir
from .gherkin import parse_feature
from .runner import Runner, SkipList

pytestmark = [
    pytest.mark.skipif(not (corpus_dir() / "data").is_dir(), reason="TinkerPop data folder is absent"),
    pytest.mark.skipif(importlib.util.find_spec("gremlin_engine.runtime.api") is None,
                       reason="the engine runtime is not there yet"),
]

FEATURE = '''
Feature: runner self-test

  Scenario: typed_values_pass
    Given the modern graph
    And using the parameter vid1 defined as "v[marko].id"
    And the traversal of
      """
      g.V(vid1).out("knows").values("age")
      """
    When iterated to list
    Then the result should be unordered
      | result |
      | d[27].i |
      | d[32].i |

  Scenario: wrong_java_type_fails
    Given the modern graph
    And the traversal of
      """
      g.V().has("name", "marko").values("age")
      """
    When iterated to list
    Then the result should be unordered
      | result |
      | d[29].l |

  Scenario: ordered_and_elements
    Given the modern graph
    And the traversal of
      """
      g.V().hasLabel("person").order().by("name").values("name")
      """
    When iterated to list
    Then the result should be ordered
      | result |
      | josh |
      | marko |
      | peter |
      | vadas |

  Scenario: fresh_graph_with_initializer
    Given the empty graph
    And the graph initializer of
      """
      g.addV("person").property("name", "ann").as("a").
        addV("person").property("name", "bob").as("b").
        addE("knows").from("a").to("b")
      """
    And using the parameter vid1 defined as "v[ann].id"
    And the traversal of
      """
      g.V(vid1).addE("likes").to(__.V().has("name", "bob"))
      """
    When iterated to list
    Then the result should have a count of 1
    And the graph should return 2 for count of "g.E()"
    And the graph should return 1 for count of "g.V(vid1).outE(\\"likes\\")"

  Scenario: edges_resolve
    Given the modern graph
    And the traversal of
      """
      g.V().has("name", "marko").outE("knows")
      """
    When iterated to list
    Then the result should be unordered
      | result |
      | e[marko-knows->vadas] |
      | e[marko-knows->josh] |

  Scenario: next_unrolls_a_list
    Given the modern graph
    And the traversal of
      """
      g.V().has("name", "marko").out("created").values("name").fold()
      """
    When iterated next
    Then the result should be unordered
      | result |
      | lop |

  Scenario: expected_error_passes
    Given the modern graph
    And the traversal of
      """
      g.V().noSuchStepAnywhere()
      """
    When iterated to list
    Then the traversal will raise an error

  Scenario: empty_result
    Given the modern graph
    And the traversal of
      """
      g.V().has("name", "nobody")
      """
    When iterated to list
    Then the result should be empty

  Scenario: unsupported_by_corpus
    Given an unsupported test
    Then nothing should happen because
      """
      reasons
      """

  @SkipMe
  Scenario: skipped_by_tag
    Given the modern graph
    And the traversal of
      """
      g.V()
      """
    When iterated to list
    Then the result should have a count of 6

  Scenario: unknown_step_fails
    Given the modern graph
    And the traversal of
      """
      g.V()
      """
    When iterated to list
    Then the result should sparkle
'''


@pytest.fixture(scope="module")
def outcomes() -> dict[str, tuple[str, str]]:
    feature = parse_feature(FEATURE, "selftest/Runner.feature")
    executor = EngineExecutor()
    try:
        runner = Runner(executor, SkipList(tags={"@SkipMe": "a reason"}))
        results = runner.run_all([feature])
    finally:
        executor.shutdown()
    return {o.scenario: (o.status, o.message) for o in results}


@pytest.mark.parametrize(
    "name",
    ["typed_values_pass", "ordered_and_elements", "fresh_graph_with_initializer", "edges_resolve",
     "next_unrolls_a_list", "expected_error_passes", "empty_result"],
)
def test_passing_scenarios(outcomes: dict[str, tuple[str, str]], name: str) -> None:
    assert outcomes[name] == ("passed", "")


def test_type_mismatch_is_a_failure_naming_both_sides(outcomes: dict[str, tuple[str, str]]) -> None:
    status, message = outcomes["wrong_java_type_fails"]
    assert status == "failed"
    assert "missing [29l]" in message and "unexpected [29i]" in message


def test_skips_and_unknown_steps(outcomes: dict[str, tuple[str, str]]) -> None:
    assert outcomes["unsupported_by_corpus"] == ("skipped", "the corpus marks it unsupported")
    assert outcomes["skipped_by_tag"] == ("skipped", "@SkipMe: a reason")
    status, message = outcomes["unknown_step_fails"]
    assert status == "failed" and message == "unsupported step: Then the result should sparkle"
