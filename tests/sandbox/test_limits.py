"""Resource bombs a script may try, each ending in a bounded error that names its limit.

A script runs inside the server process, so a memory or CPU bomb is a denial of service
for every client. Each case here runs through the real engine (`Graph.execute` on a memory
graph) with the engine's own limits set small where the default would be slow to reach,
and asserts the refusal or limit message; afterwards the same graph still answers. No case
asserts a duration: a time bomb must end with the timeout error, whatever the host's speed.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any, cast

import pytest

import grammar
from gremlin_engine import limits
from gremlin_engine.errors import (
    GremlinSyntaxError,
    LimitExceeded,
    StepArgumentError,
    TraversalCancelled,
    TraversalTimeout,
    UnsupportedSyntax,
)
from gremlin_engine.graph import Graph, GraphConfig, GraphRegistry
from gremlin_engine.limits import CancelToken
from gremlin_engine.syntax import parse
from gremlin_engine.traversal.bulking import merge_traversers
from gremlin_engine.traversal.traverser import Context, Traverser


@pytest.fixture
def cycle() -> Iterator[Graph]:
    """marko -knows-> vadas -knows-> marko: two vertices, one cycle."""
    registry = GraphRegistry(evaluation_timeout_ms=30000)
    graph = registry.create(GraphConfig(name="hugegraph", backend="memory", schema_mode="auto"))
    graph.execute(
        "g.addV('person').property('name', 'marko').as('a')"
        ".addV('person').property('name', 'vadas').as('b')"
        ".addE('knows').from('a').to('b').addE('knows').from('b').to('a').iterate()"
    )
    yield graph
    registry.close_all()


def still_answers(graph: Graph) -> None:
    assert sorted(graph.execute("g.V().values('name')")) == ["marko", "vadas"]


# ---- the script's shape, bounded before a tree is built (grammar/__init__.py) --------------

SHAPES: list[tuple[str, str]] = [
    ("(" * 100_000 + "1" + ")" * 100_000, f"more than {grammar.MAX_BRACKET_DEPTH} open at once"),
    ("[" * 50_000 + "]" * 50_000, "nested too deeply"),
    ("[a:" * 50_000 + "1" + "]" * 50_000, "nested too deeply"),
    ("g.V()." + "where(__.out()." * 20_000 + "count()" + ")" * 20_000, "nested too deeply"),
    ("-" * 100_000 + "1", f"more than {grammar.MAX_UNARY_RUN} unary operators in a row"),
    ("!" * 100_000 + "true", "unary operators in a row"),
    ("1" + " + 1" * 200_000, f"more than {grammar.MAX_OPERATORS} operators in one expression"),
    ("x = 'a'" + " + 'a'" * 1_000, "operators in one expression"),
    ("g.V()" + ".out()" * 100_000, f"more than {grammar.MAX_CHAIN_LINKS} steps or members in one chain"),
]


@pytest.mark.parametrize(("script", "named"), SHAPES, ids=[s[:24] for s, _ in SHAPES])
def test_hostile_script_shapes_are_refused_by_the_lexer_pass(script: str, named: str) -> None:
    with pytest.raises(GremlinSyntaxError, match="script is too complex") as info:
        parse(script)
    assert named in str(info.value)
    assert info.value.line == 1 and info.value.column is not None


def test_shapes_within_the_bounds_still_parse_and_run(cycle: Graph) -> None:
    assert cycle.execute("(" * 150 + "1" + ")" * 150) == [1]
    assert cycle.execute("1" + " + 1" * 200) == [201]
    assert cycle.execute("--1") == [1]
    assert cycle.execute("g.V().has('name', 'marko')" + ".where(__.out()" * 60 + ")" * 60 + ".values('name')") == ["marko"]
    # the counts start again at each argument, statement and bracket
    assert cycle.execute("x = " + " + ".join(["1"] * 200) + "\ny = " + " + ".join(["1"] * 200) + "\nx + y") == [400]
    parse("g.V()" + ".out('knows')" * 3000)


def test_the_token_bound_names_itself(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(grammar, "MAX_SCRIPT_TOKENS", 1000)
    with pytest.raises(GremlinSyntaxError, match="more than 1,000 tokens"):
        parse("x = 1\n" * 300 + "x")


# ---- what a script computes itself (gremlin_engine/limits.py) ------------------------------

DOUBLING = "\n".join(["x = x + x"] * 40)

VALUE_BOMBS: list[tuple[str, str]] = [
    ("x = 'a'\n" + DOUBLING + "\nx", "MAX_VALUE_SIZE"),  # 2**40 characters
    ("x = [1]\n" + DOUBLING + "\nx", "MAX_VALUE_SIZE"),  # 2**40 list items
    ("x = 99999999999n\n" + "\n".join(["x = x * x"] * 40) + "\nx", "MAX_BIG"),  # the one 14,000-bit bound
    ("x = 'a' + 'a' + 'a' + 'a'\na = [x, x, x, x, x, x, x, x, x, x]\n"
     + "\n".join(f"{n} = [{', '.join([p] * 10)}]" for p, n in zip("abcdef", "bcdefg", strict=True)) + "\ng",
     "MAX_VALUE_SIZE"),  # shared references: small in memory, 10**7 items once written out
    ("x = 'aaaaaaaaaa'\n" + "\n".join(["x = x + x"] * 16) + "\ny = [x, x]\n'' + y", "MAX_VALUE_SIZE"),
    ("x = 'a'\n" + "\n".join(["x = x + x"] * 19) + "\n" + "\n".join(f"y{i} = x + 'b'" for i in range(50)),
     "MAX_SCRIPT_VALUE_BUDGET"),
]


@pytest.mark.parametrize(("script", "limit"), VALUE_BOMBS, ids=["string", "list", "bigint", "shared", "str+list", "budget"])
def test_script_value_bombs_end_with_a_named_limit(cycle: Graph, script: str, limit: str) -> None:
    with pytest.raises(LimitExceeded) as info:
        cycle.execute(script)
    assert limit in str(info.value)
    assert info.value.java_exception == "org.apache.hugegraph.exception.LimitExceedException"
    still_answers(cycle)


def test_the_value_bounds_are_the_settings_in_limits(cycle: Graph, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(limits, "MAX_VALUE_SIZE", 10)
    assert cycle.execute("'aaaaa' + 'bbbbb'") == ["aaaaabbbbb"]
    with pytest.raises(LimitExceeded, match=r"the value of the operator '\+' \(line 1, column 9\) is too large: 11"):
        cycle.execute("'aaaaa' + 'bbbbbb'")
    with pytest.raises(LimitExceeded, match="a list literal is too large: 11 characters and items"):
        cycle.execute("[1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11]")
    monkeypatch.setattr(limits, "MAX_VALUE_SIZE", 1000)
    monkeypatch.setattr(limits, "MAX_SCRIPT_VALUE_BUDGET", 100)
    with pytest.raises(LimitExceeded, match=r"MAX_SCRIPT_VALUE_BUDGET \(100 characters and items\)"):
        cycle.execute("x = 'aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa'\ny = x + x\nz = y + y")
    monkeypatch.setattr(limits, "MAX_BIGINT_BITS", 64)
    assert cycle.execute("4294967296n * 4294967295n") == [4294967296 * 4294967295]
    with pytest.raises(LimitExceeded, match=r"makes a number of 65 bits \(MAX_BIGINT_BITS is 64\)"):
        cycle.execute("4294967296n * 4294967296n")


def test_ordinary_script_arithmetic_is_unaffected(cycle: Graph) -> None:
    assert cycle.execute("x = 0\n" + "x = x + 1\n" * 300 + "x") == [300]
    assert cycle.execute("'a' + 1 + [1, 2]") == ["a1[1, 2]"]
    assert cycle.execute("[1] + [2, 3]") == [1, 2, 3]
    assert cycle.execute("2147483647 + 1") == [-2147483648]  # Groovy int arithmetic still wraps


def test_many_cheap_statements_end_at_the_deadline(cycle: Graph) -> None:
    script = "x = 1\n" + "y = x + x\n" * 3_000 + "y"
    with pytest.raises(TraversalTimeout, match="time limit of 1 ms"):
        cycle.execute(script, timeout_ms=1)
    still_answers(cycle)


# ---- regular expressions: RE2, linear time ----------------------------------------------------

#: shapes that backtrack exponentially or polynomially in Python's `re` and Java's regex, and
#: whether they match `a` * 3000 + `!` (two can match the empty text before the end)
EVIL_REGEX = [("(a+)+$", 0), ("(a*)*b", 0), ("(\\\\w+\\\\s?)+$", 0), ("([a-z]+)*$", 1), ("(?:x+)*y", 0),
              ("(a|a)*$", 1), ("(a|ab)+c", 0), ("(.*){1,20}x", 0), ("^(a?){9}(a?){9}(a?){9}a{14}$", 0),
              (".*.*.*x", 0)]


@pytest.mark.parametrize(("pattern", "matches"), EVIL_REGEX)
def test_a_backtracking_shape_answers_at_once(cycle: Graph, pattern: str, matches: int) -> None:
    script = "g.inject('" + "a" * 3000 + "!').filter(__.is(TextP.regex('" + pattern + "'))).count()"
    assert cycle.execute(script) == [matches]
    assert cycle.execute("g.inject('" + "a" * 20 + "b').filter(__.is(TextP.regex('^(a?){9}(a?){9}(a?){9}a{14}$')))") == []


@pytest.mark.parametrize(
    ("pattern", "names"),
    [("^mar", ["marko"]), ("(a|d)+s$", ["vadas"]), ("a{1,3}", ["marko", "vadas"]), ("^(\\\\w+)$", ["marko", "vadas"])],
)
def test_ordinary_regex_still_works(cycle: Graph, pattern: str, names: list[str]) -> None:
    got = cycle.execute("g.V().has('name', TextP.regex('" + pattern + "')).values('name')")
    assert sorted(got) == names


@pytest.mark.parametrize(
    ("pattern", "feature"),
    [("(a)\\\\1", "backreference \\1"), ("(?=a)a", "lookahead"), ("(?<!a)b", "negative lookbehind"),
     ("a*+", "possessive quantifier *+"), ("(?>ab)", "atomic group"), ("a\\\\Z", "\\Z (write \\z)")],
)
def test_a_java_regex_feature_re2_lacks_is_named(cycle: Graph, pattern: str, feature: str) -> None:
    with pytest.raises(StepArgumentError) as info:
        cycle.execute("g.V().has('name', TextP.regex('" + pattern + "'))")
    assert f"regex feature not supported: {feature}" in str(info.value)
    assert "RE2, linear time" in str(info.value)


def test_a_very_long_regex_is_refused(cycle: Graph) -> None:
    with pytest.raises(StepArgumentError, match="MAX_REGEX_CHARS is 1000"):
        cycle.execute("g.V().has('name', TextP.regex('" + "a" * 1001 + "'))")


# ---- traversals: the evaluation timeout and the memory bound --------------------------------

TIME_BOMBS = [
    "g.inject(1).repeat(identity()).times(1000000000)",
    "g.V().repeat(out())",
    "g.V().repeat(out()).emit().fold()",
    "g.inject(1).repeat(identity()).emit().fold()",
    "g.inject(1).repeat(identity()).emit().group().by(identity())",
    "g.inject(1).repeat(aggregate('a')).times(1000000000).cap('a')",
]


@pytest.mark.parametrize("script", TIME_BOMBS)
def test_time_bombs_end_with_the_evaluation_timeout(cycle: Graph, script: str) -> None:
    with pytest.raises(TraversalTimeout, match="time limit of 200 ms"):
        cycle.execute(script, timeout_ms=200)
    still_answers(cycle)


def test_a_growing_sack_ends_at_the_timeout_or_the_big_integer_bound(cycle: Graph) -> None:
    """Tripling a sack 10^9 times ends by whichever bound comes first: the 200 ms timeout, or
    the 14,000-bit BigInteger bound after ~8,800 rounds (which one depends on the host's speed)."""
    script = "g.withSack(2).inject(1).repeat(sack(Operator.mult).by(constant(3))).times(1000000000).sack()"
    with pytest.raises((TraversalTimeout, LimitExceeded)) as ended:
        cycle.execute(script, timeout_ms=200)
    assert "time limit of 200 ms" in str(ended.value) or "BigInteger" in str(ended.value)
    still_answers(cycle)


def test_merging_a_repeat_level_honours_the_runs_token() -> None:
    """Each repeat() level is merged before the next begins, every traverser keyed on its
    whole path when path() reads them: one merge of a deep level is seconds of work. It
    stops once the run is cancelled or past its deadline, instead of finishing the level
    (a script whose HTTP client left went on for seconds this way)."""
    token = CancelToken()
    token.cancel()
    ctx = Context(access=cast(Any, None), cancel=token, track_paths=True, full_paths=True)
    walks = (Traverser(n) for n in range(100_000))
    with pytest.raises(TraversalCancelled):
        merge_traversers(walks, ctx)


MEMORY_BOMBS = [
    "g.V().repeat(both()).emit().path().fold()",
    "g.V().repeat(both().aggregate(local, 'x')).emit().cap('x')",
    "g.inject('a').repeat(concat(__.identity())).emit().fold()",
]


@pytest.mark.parametrize("script", MEMORY_BOMBS)
def test_memory_bombs_end_with_the_memory_limit(cycle: Graph, monkeypatch: pytest.MonkeyPatch, script: str) -> None:
    monkeypatch.setattr(limits, "TRAVERSAL_MEMORY_BYTES", 64 * 1024 * 1024)
    monkeypatch.setattr(limits, "MEMORY_CHECK_INTERVAL_S", 0.0)
    with pytest.raises(LimitExceeded, match=r"memory limit: the process grew by [\d,]+ MiB .*HUGELITE_TRAVERSAL_MEMORY_MB is 64\)"):
        cycle.execute(script, timeout_ms=60_000)
    still_answers(cycle)


def test_the_memory_bound_reads_the_resident_size() -> None:
    rss = limits.resident_bytes()
    assert rss is None or rss > 1024 * 1024
    assert limits.TRAVERSAL_MEMORY_BYTES >= 0


# ---- what a result may carry out of the script --------------------------------------------


def test_shared_nested_results_are_bounded_as_written_out(cycle: Graph, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(limits, "MAX_RESULT_BYTES", 10_000)
    nested = "g.inject(1)" + ".union(identity(), identity()).fold()" * 12  # 4096 numbers written out: ~53 kB
    with pytest.raises(LimitExceeded, match=r"MAX_RESULT_BYTES \(10,000 bytes; HUGELITE_MAX_RESULT_MB\), counting a value shared N times N times"):
        cycle.execute(nested)
    small = "g.inject(1)" + ".union(identity(), identity()).fold()" * 3
    assert cycle.execute(small) == [[[[1, 1], [1, 1]], [[1, 1], [1, 1]]]]


@pytest.mark.parametrize(
    "script",
    [
        "g.inject(graph.schema())",
        "g.withSideEffect('a', graph.schema()).inject(1).select('a')",
        "g.withSack(graph.schema().propertyKey('x')).inject(1).sack()",
        "new SeedStrategy(seed: graph.schema())",
        "g.V().has('name', graph.schema())",
    ],
)
def test_host_handles_cannot_travel_into_a_traversal(cycle: Graph, script: str) -> None:
    with pytest.raises(UnsupportedSyntax, match=r"a (SchemaManager|PropertyKeyBuilder) cannot be passed as an argument"):
        cycle.execute(script)


def test_host_handles_in_results_show_only_their_class(cycle: Graph) -> None:
    # a default Python repr would show the module path and a heap address
    assert cycle.execute("graph.schema()") == ["SchemaManager"]
    assert cycle.execute("[graph.schema(), 1]") == ["SchemaManager", 1]
    assert cycle.execute("[a: graph.schema().propertyKey('x')]") == [{"a": "PropertyKeyBuilder"}]
    assert cycle.execute("x = graph.schema(); x.propertyKey('w').asText().ifNotExist().create(); 1") == [1]


def test_a_token_without_deadline_can_guard_memory(monkeypatch: pytest.MonkeyPatch) -> None:
    """Async jobs run with no deadline (`timeout_ms=0`) until cancelled: `guard_memory()`
    gives their token the memory bound all the same."""
    monkeypatch.setattr(limits, "TRAVERSAL_MEMORY_BYTES", 64 * 1024 * 1024)
    monkeypatch.setattr(limits, "MEMORY_CHECK_INTERVAL_S", 0.0)
    registry = GraphRegistry(evaluation_timeout_ms=None)
    graph = registry.create(GraphConfig(name="job", backend="memory", schema_mode="auto"))
    try:
        graph.execute("g.addV('p').as('a').addV('p').as('b').addE('k').from('a').to('b').addE('k').from('b').to('a').iterate()")
        token = limits.CancelToken().guard_memory()
        assert token.remaining_ms() is None
        with pytest.raises(LimitExceeded, match="HUGELITE_TRAVERSAL_MEMORY_MB is 64"):
            graph.execute("g.V().repeat(both()).emit().path().fold()", cancel=token)
        assert graph.execute("g.V().count()") == [2]
    finally:
        registry.close_all()


def test_traversal_big_integers_are_bounded(cycle: Graph) -> None:
    """`sack(mult).by(sack())` squares a BigInteger each round: uninterruptible past ~2**28
    bits, so the engine refuses a BigInteger past MAX_BIG_INTEGER_BITS."""
    from gremlin_engine.structure import numbers as num

    with pytest.raises(LimitExceeded, match=f"MAX_BIG_INTEGER_BITS is {num.MAX_BIG_INTEGER_BITS:,}"):
        cycle.execute("g.withSack(3n).inject(1).repeat(sack(Operator.mult).by(sack())).times(40).sack().count()")
    assert cycle.execute("g.withSack(3n).inject(1).repeat(sack(Operator.mult).by(sack())).times(3).sack()") == [3 ** 8]
    assert num.BigInt(1 << 1000).bit_length() == 1001
    still_answers(cycle)


def test_a_long_parse_polls_the_callers_deadline() -> None:
    """Parsing 100,000 tokens takes seconds: given the run's token, the parse polls it every
    `grammar.POLL_EVERY` tokens and ends by its deadline or cancel."""
    text = "x = 1\n" * 2000 + "x"  # 8,001 tokens: two polls
    expired = limits.CancelToken(0)
    with pytest.raises(TraversalTimeout, match="time limit of 0 ms"):
        parse(text, expired)
    cancelled = limits.CancelToken()
    cancelled.cancel()
    from gremlin_engine.errors import TraversalCancelled

    with pytest.raises(TraversalCancelled):
        parse(text + " ", cancelled)
    short = "x = 2\n" * 10 + "x"
    assert parse(short, expired) is parse(short)  # under POLL_EVERY tokens: never polled


def test_scripts_parsed_by_the_interpreter_poll_the_run_token(cycle: Graph) -> None:
    # tx sessions and hosts hand interpret() unparsed text: the run's token bounds the parse
    from gremlin_engine.runtime.tx_session import open_session
    from gremlin_engine.syntax import parser

    text = "y = 1\n" * 3000 + "y"
    held = parser.cache_info().chars
    session = open_session(cycle)
    try:
        with pytest.raises(TraversalTimeout):
            session.execute(text, timeout_ms=0.001)
    finally:
        session.close()
    assert parser.cache_info().chars == held  # the parse itself ended: nothing was remembered


def test_execute_script_parses_under_the_run_token(cycle: Graph) -> None:
    # runtime/api.execute_script parses before interpret(): that parse polls the run's token
    # too, so a long script's parse ends by the evaluation timeout rather than after it
    from gremlin_engine.syntax import parser

    text = "z = 1\n" * 3000 + "z"
    held = parser.cache_info().chars
    with pytest.raises(TraversalTimeout):
        cycle.execute(text, timeout_ms=0.001)
    assert parser.cache_info().chars == held
    assert cycle.execute("z = 1\n" * 3 + "z", timeout_ms=60_000) == [1]
