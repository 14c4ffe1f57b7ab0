"""Fuzz the script interpreter through `/gremlin` and `/jobs/gremlin`: no 5xx, every error a body.

Scripts are generated in the shape of `grammar/gremlin.lark` rather than as random text, so
that they parse and reach the interpreter and the engine: statements (`def x = ...`, `x = ...`,
expressions) whose expressions are chains of real step names on `g`, `__` and the graph,
with literal arguments of every kind the grammar has (integers with suffixes and radixes,
doubles, strings with escapes, lists, maps, sets, enum tokens, predicates, anonymous
traversals), plus a share of raw mutations of such a script (a character dropped or
doubled) for the parser's error paths.

Left out on purpose, each fixed by another change of issue 16 (the lead drops these
exclusions when that change is merged): `times(N)` beyond 20 (item 1: the unrolled walk
crashes the process) and generated regex patterns (item 5: backtracking freezes it); the
budget of a script is the server's 1 s evaluation timeout.
"""

from __future__ import annotations

from collections.abc import Iterator

import httpx
import pytest
from hypothesis import given
from hypothesis import strategies as st

from tests.conftest import RunningServer, ServerFactory
from tests.hostile.conftest import MODERN_GRAPH, gremlin
from tests.hostile.fuzzing import NASTY_STRINGS, check_rest, fuzz_settings, request_once_more


@pytest.fixture(scope="module")
def fuzz_server(server_factory: ServerFactory) -> Iterator[RunningServer]:
    running = server_factory.start(
        graphs={"hugegraph": "backend=sqlite\nstore=data/hugegraph.db\nschema.mode=auto\n", "modern": MODERN_GRAPH},
        server={"gremlinserver.evaluation_timeout_ms": "1000"},
    )
    with httpx.Client(base_url=running.base_url, timeout=30) as c:
        for graph in ("modern", "hugegraph"):
            loaded = gremlin(c, "g.io('tinkerpop-modern-v3.json').read().iterate()", graph=graph)
            assert loaded.status_code == 200, loaded.text
    yield running
    running.stop()


@pytest.fixture(scope="module")
def http(fuzz_server: RunningServer) -> Iterator[httpx.Client]:
    with httpx.Client(base_url=fuzz_server.base_url, timeout=60) as c:
        yield c


# ---- literals, in the grammar's NUMBER and STRING forms --------------------------------
def groovy_string(text: str) -> str:
    out = text.replace("\\", "\\\\").replace("'", "\\'").replace("\n", "\\n").replace("\r", "\\r")
    return "'" + out + "'"


int_literals = st.one_of(
    st.integers(min_value=-3, max_value=10).map(str),
    st.integers(min_value=-(2**70), max_value=2**70).map(str),
    st.sampled_from(["0x1F", "0b101", "017", "128b", "-128b", "1s", "70000s", "1i", "1l", "9223372036854775808L",
                     "1n", "99999999999999999999999999999N", "0xFFFFFFFFFFFFFFFFFFFF", "00", "08"]),
)
float_literals = st.one_of(
    st.floats(allow_nan=False, allow_infinity=False).map(repr).filter(lambda s: "e" not in s or "." in s),
    st.sampled_from(["1.5", ".5", "1e3", "1e999", "-1e-999", "1.5f", "3.4e39f", "2d", "1.0m", "3M", "NaN",
                     "Infinity", "-Infinity"]),
)
string_literals = st.one_of(
    st.sampled_from(NASTY_STRINGS[:40]).map(groovy_string),
    st.text(max_size=10).map(groovy_string),
    st.sampled_from(["'\\u0000'", "'\\udbab\\ude92'", "'\\ud800'", "'\\uZZZZ'", "'\\377'", "'\\q'", '"a$b"',
                     '"${x}"', "'''multi\nline'''", '"""x"""', "''", "'name'", "'marko'", "'knows'", "'person'",
                     "'age'", "'weight'", "'lang'", "'a'", "'x'"]),
)
enum_tokens = st.sampled_from([
    "T.id", "T.label", "T.key", "T.value", "Order.desc", "Order.asc", "Order.shuffle", "Scope.local",
    "Scope.global", "Column.keys", "Column.values", "Pop.all", "Pop.first", "Pop.last", "Cardinality.list",
    "Cardinality.set", "Cardinality.single", "Operator.sum", "Operator.assign", "Operator.and", "Pick.none",
    "Merge.onCreate", "Merge.onMatch", "Direction.OUT", "Direction.BOTH", "DT.day", "Barrier.normSack",
    "WithOptions.tokens", "desc", "local", "keys", "values", "OUT", "IN", "sum", "id", "label", "T.nope", "Foo.bar",
])
variables = st.sampled_from(["g", "x", "y", "graph", "modern", "hugegraph", "__g_modern", "undefinedName", "it",
                             "System", "this", "__", "P", "TextP"])
predicates = st.builds(
    lambda name, args: f"{name}({', '.join(args)})",
    st.sampled_from(["P.eq", "P.neq", "P.lt", "P.gte", "P.inside", "P.outside", "P.between", "P.within",
                     "P.without", "P.not", "P.typeOf", "TextP.containing", "TextP.startingWith",
                     "TextP.notEndingWith", "gt", "within", "without", "P.nope"]),
    st.lists(st.one_of(int_literals, string_literals, float_literals), max_size=3),
)
# generated patterns and invalid ones (`TextP.regex('[')` answers 500 today): issue 16 item 5
fixed_regexes = st.sampled_from(["TextP.regex('^m.*')", "TextP.notRegex('a')", "TextP.regex('')"])

STEPS = [
    "V", "E", "out", "in", "both", "outE", "inE", "bothE", "outV", "inV", "otherV", "bothV", "has", "hasLabel",
    "hasId", "hasKey", "hasValue", "hasNot", "is", "values", "valueMap", "elementMap", "properties", "property",
    "id", "label", "key", "value", "count", "sum", "min", "max", "mean", "fold", "unfold", "dedup", "limit",
    "range", "skip", "tail", "order", "by", "group", "groupCount", "select", "as", "project", "path",
    "simplePath", "cyclicPath", "where", "and", "or", "not", "filter", "map", "flatMap", "union", "choose",
    "coalesce", "optional", "repeat", "times", "until", "emit", "loops", "local", "constant", "inject",
    "identity", "aggregate", "store", "cap", "sideEffect", "barrier", "sample", "coin", "math", "sack",
    "addV", "addE", "from", "to", "drop", "mergeV", "mergeE", "option", "index", "concat", "asString",
    "toUpper", "length", "split", "substring", "format", "dateAdd", "asDate", "none", "discard", "element",
    "subgraph", "tree", "match", "math", "count", "nope", "getClass", "toString", "hashCode", "with", "profile",
    "explain", "next", "toList", "iterate", "hasNext", "tryNext", "toSet",
]


def chain(args: st.SearchStrategy[str]) -> st.SearchStrategy[str]:
    """A traversal: a start (a source step on `g` most of the time) and up to six steps."""
    def call(names: st.SearchStrategy[str]) -> st.SearchStrategy[str]:
        return st.builds(lambda step, a: f"{step}({', '.join(a)})", names, st.lists(args, max_size=3))

    starts = st.one_of(
        call(st.sampled_from(["V", "V", "V", "E", "inject", "addV", "addE", "mergeV", "union", "io", "nope"])).map(
            lambda c: "g." + c),
        st.sampled_from(["g.V()", "g.V(1)", "g.V().limit(3)", "__", "graph.traversal().V()", "g.E()",
                         "hugegraph.traversal().V()", "graph.schema()", "x", "[1, 2]", "'s'", "g"]),
    )
    return st.builds(lambda head, calls: head + "".join("." + c for c in calls),
                     starts, st.lists(call(st.sampled_from(STEPS)), max_size=6))


def _literal_args(inner: st.SearchStrategy[str]) -> st.SearchStrategy[str]:
    return st.one_of(
        inner.map(lambda s: f"[{s}]"),
        st.lists(inner, max_size=3).map(lambda xs: "[" + ", ".join(xs) + "]"),
        st.lists(st.tuples(st.one_of(string_literals, enum_tokens, st.sampled_from(["a", "(x)"])), inner),
                 max_size=3).map(lambda kv: "[" + (", ".join(f"{k}: {v}" for k, v in kv) or ":") + "]"),
        st.lists(inner, max_size=3).map(lambda xs: "{" + ", ".join(xs) + "}"),
        chain(inner).map(lambda c: c if c.startswith("__") else "__." + c.split(".", 1)[-1]),
        st.tuples(inner, st.sampled_from(["+", "-", "*", "/", "%", "==", "<", "&&", "||"]), inner).map(" ".join),
        inner.map(lambda s: f"-{s}"),
        inner.map(lambda s: f"({s})"),
    )


arguments = st.recursive(
    st.one_of(int_literals, float_literals, string_literals, enum_tokens, variables, predicates, fixed_regexes,
              st.sampled_from(["true", "false", "null", "[]", "[:]", "{}"])),
    _literal_args,
    max_leaves=8,
)
expressions = st.one_of(chain(arguments), chain(arguments), arguments)
statements = st.one_of(
    expressions,
    expressions,
    st.builds(lambda n, e: f"def {n} = {e}", st.sampled_from(["x", "y", "g", "z"]), expressions),
    st.builds(lambda n, e: f"{n} = {e}", st.sampled_from(["x", "y", "g"]), expressions),
    st.sampled_from(["import java.io.File", "@Grab('x')", "new File('/etc/passwd')", "System.exit(0)",
                     "g.V().map{ it.get() }", "{ x -> x }", "g.V().repeat(out()).times(3).count()",
                     "g.V().repeat(both()).until(loops().is(4)).count()"]),
)


def unbounded(script: str) -> bool:
    """`times(N)` past 20 (issue 16 item 1, h-bounds's change)."""
    import re

    return any(len(m) > 2 or int(m or 0) > 20 for m in re.findall(r"times\(\s*-?0*(\d*)", script)) or \
        "times(0x" in script or "times(0b" in script


scripts = st.lists(statements, min_size=1, max_size=3).map(lambda xs: "; ".join(xs)).filter(
    lambda s: not unbounded(s))


@st.composite
def mutated(draw: st.DrawFn) -> str:
    """A generated script with one character dropped, doubled or replaced."""
    script = draw(scripts)
    at = draw(st.integers(min_value=0, max_value=max(len(script) - 1, 0)))
    how = draw(st.sampled_from(["drop", "double", "replace"]))
    ch = draw(st.sampled_from(list("()[]{}.,;:'\"\\\n$-") + ["\x00", "é"]))
    if how == "drop":
        out = script[:at] + script[at + 1:]
    elif how == "double":
        out = script[:at] + script[at:at + 1] * 2 + script[at + 1:]
    else:
        out = script[:at] + ch + script[at + 1:]
    return out if not unbounded(out) else script


def post(http: httpx.Client, script: str, graph: str, bindings: dict[str, object]) -> None:
    body = {"gremlin": script, "bindings": bindings, "language": "gremlin-groovy",
            "aliases": {"g": f"__g_{graph}", "graph": graph}}
    response = request_once_more(http, "POST", "/gremlin", json=body)
    check_rest(response, f"POST /gremlin {body!r}")


bindings = st.dictionaries(st.sampled_from(["x", "y", "z"]), st.one_of(
    st.integers(), st.text(max_size=8), st.lists(st.integers(), max_size=3), st.none(), st.booleans(),
    st.dictionaries(st.text(max_size=4), st.integers(), max_size=2)), max_size=2)
graphs = st.sampled_from(["modern", "modern", "hugegraph"])


@fuzz_settings(300)
@given(script=scripts, graph=graphs, bindings=bindings)
def test_generated_scripts(http: httpx.Client, script: str, graph: str, bindings: dict[str, object]) -> None:
    post(http, script, graph, bindings)


@fuzz_settings(150)
@given(script=mutated(), graph=graphs)
def test_mutated_scripts(http: httpx.Client, script: str, graph: str) -> None:
    post(http, script, graph, {})


@fuzz_settings(30)
@given(script=scripts, graph=graphs)
def test_async_jobs(http: httpx.Client, script: str, graph: str) -> None:
    """`/jobs/gremlin` answers a task id or a 4xx body; the task itself never takes the server down."""
    response = request_once_more(http, "POST", f"/graphs/{graph}/jobs/gremlin", json={"gremlin": script})
    check_rest(response, f"POST /graphs/{graph}/jobs/gremlin {script!r}")


def test_the_server_is_still_up(http: httpx.Client, fuzz_server: RunningServer) -> None:
    assert fuzz_server.process.poll() is None
    answer = gremlin(http, "g.V().count()")
    assert answer.status_code == 200, answer.text
