"""Gremlin scripts in the shape of `grammar/gremlin.lark`, for the fuzz suites (issue 16).

Scripts are generated from the grammar's shape rather than as random text, so that they
parse and reach the interpreter and the engine: statements (`def x = ...`, `x = ...`,
expressions) whose expressions are chains of real step names on `g`, `__` and the graph,
with literal arguments of every kind the grammar has (integers with suffixes and radixes,
doubles, strings with escapes, lists, maps, sets, enum tokens, predicates, anonymous
traversals); `mutated()` drops, doubles or replaces one character of such a script, for
the parser's error paths.

Left out on purpose: `times(N)` beyond 20 (issue 16 item 1: the unrolled walk crashed the
process; the lead drops this when the bounded unrolling is merged).
"""

from __future__ import annotations

import re

from hypothesis import strategies as st

from tests.hostile.fuzzing import NASTY_STRINGS


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
regex_patterns = st.one_of(
    st.sampled_from(["^m.*", "a", "", "[", "(", "(a?){20}a{20}", "(a|aa)*b", ".*.*.*x", "\\\\", "(?i)MARKO",
                     "(?<=a)b", "(a)\\\\1", "\\\\p{L}+", "[[:alpha:]]"]).map(groovy_string),
    string_literals,
)
regexes = st.builds(lambda name, pattern: f"{name}({pattern})",
                          st.sampled_from(["TextP.regex", "TextP.notRegex", "regex"]), regex_patterns)

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
    st.one_of(int_literals, float_literals, string_literals, enum_tokens, variables, predicates, regexes,
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


