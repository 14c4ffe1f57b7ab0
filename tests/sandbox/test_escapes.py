"""A catalogue of sandbox escape attempts: each is refused before the host is touched.

Scripts run inside the server process, so the interpreter must never hand a script a Java,
Groovy or Python object it did not mean to (HugeGraph's own history: CVE-2024-27348, a
Gremlin RCE through Groovy reflection). Every attempt here must fail with a
GremlinSyntaxError/UnsupportedSyntax whose message names what was refused, and the
recording host must show that no traversal ran and no host method was called."""

from __future__ import annotations

import pytest
from recording_host import RecordingHost

from gremlin_engine.errors import GremlinSyntaxError, UnsupportedSyntax
from gremlin_engine.syntax import interpret

ESCAPES: list[tuple[str, str]] = [
    # Java runtime and reflection
    ("Runtime.getRuntime().exec('id')", "Runtime"),
    ("System.exit(0)", "System"),
    ("System.getenv()", "System"),
    ("java.lang.System.exit(0)", "exit"),  # `java` alone would be an unbound variable
    ("Class.forName('java.lang.Runtime')", "Class"),
    ("Thread.sleep(100000)", "Thread"),
    ("new ProcessBuilder('id').start()", "new ProcessBuilder"),
    ("new File('/etc/passwd').text", "new File"),
    ("new java.io.File('/etc/passwd')", "new java.io.File"),
    ("''.class", ".class"),
    ('"".class.forName("x")', ".class"),
    ("this.class.classLoader", "this"),
    ("this.binding.variables", "this"),
    ("super.toString()", "super"),
    ("g.getClass()", "getClass"),
    ("g.V().getClass().forName('x')", "getClass"),
    ("graph.metaClass", "metaClass"),
    ("graph.class.classLoader", ".class"),
    ("g.V().next().invokeMethod('x', null)", "invokeMethod"),
    ("Lambda.function('it.get()')", "Lambda"),
    ("GroovyShell.evaluate('1')", "GroovyShell"),
    ("Eval.me('1')", "Eval"),
    ("evaluate('1 + 1')", "evaluate"),
    ("println 'x'", "println"),
    # method calls on values
    ("'abc'.execute()", "execute"),
    ("'id'.execute().text", "execute"),
    ('"x".getClass()', "getClass"),
    ("'abc'.toUpperCase()", "string values"),
    ("1.toString()", "number values"),
    ("[].getClass()", "getClass"),
    ("[1, 2].size()", "list values"),
    ("[a: 1].keySet()", "map values"),
    ("{1}.size()", "set values"),
    ("x = 'abc'; x.toUpperCase()", "string values"),
    ("x = [1]; x.clear()", "list values"),
    ("('a' + 'b').length()", "computed values"),
    ("Order.desc.getDeclaringClass()", "getDeclaringClass"),
    # closures and Groovy-only syntax
    ("g.V().map{ it.get() }", "closures"),
    ("g.V().filter({ it -> true })", "closures"),
    ("g.V().sideEffect{ System.exit(0) }", "closures"),
    ("c = { x -> x }; c(1)", "closures"),
    ("g.V().each { println it }", "closures"),
    ("@Grab('org.x:y:1') import x.Y", "@Grab"),
    ("import java.io.File", "import"),
    ("import static java.lang.Runtime.*", "import"),
    ('g.V().has("name", "${Runtime.getRuntime()}")', "GString"),
    ("if (true) { g.V().drop() }", "'if' statements"),
    ("while (true) { }", "'while' statements"),
    ("for (i in [1]) { }", "'for' statements"),
    ("x = true ? 1 : 2", "ternary"),
    ("g?.V()", "?."),
    ("[1, 2]*.toString()", "*."),
    ("[1..10]", "ranges"),
    # Python-isms a Python implementation must never honour
    ("__import__('os').system('id')", "__import__"),
    ("open('/etc/passwd').read()", "open"),
    ("eval('1 + 1')", "eval"),
    ("exec('import os')", "exec"),
    ("getattr(g, 'V')", "getattr"),
    ("globals()", "globals"),
    ("g.__class__", "__class__"),
    ("g.V()._graph", "_graph"),
    ("g.__class__.__mro__", "__class__"),
    ("__builtins__", "__builtins__"),
    ("lambda x: x", "lambda"),
    # assignments that would shadow the language
    ("System = 1", "System"),
    ("true = 1", "true"),
]


@pytest.mark.parametrize(("script", "named"), ESCAPES, ids=[s for s, _ in ESCAPES])
def test_escape_attempt_is_refused_and_named(host: RecordingHost, script: str, named: str) -> None:
    with pytest.raises((GremlinSyntaxError, UnsupportedSyntax)) as info:
        interpret(script, host)
    assert named in str(info.value)
    assert not host.touched, (host.runs, host.calls, host.props)


@pytest.mark.parametrize(
    "script",
    [
        "g.addV('x').iterate(); System.exit(0)",
        "g.addV('x').iterate()\ng.V().map{ it.get() }",
        "graph.addVertex('name', 'x'); 'id'.execute()",
        "g.addV('x').iterate(); import os",
    ],
)
def test_nothing_runs_before_a_statically_refused_statement(host: RecordingHost, script: str) -> None:
    with pytest.raises(UnsupportedSyntax):
        interpret(script, host)
    assert not host.touched


def test_dynamic_value_calls_are_refused_before_the_call(host: RecordingHost) -> None:
    host.bindings["s"] = "a string binding"
    with pytest.raises(UnsupportedSyntax, match="string values"):
        interpret("s.execute2()", host)
    assert not host.touched


def test_predicates_expose_only_their_connectives(host: RecordingHost) -> None:
    with pytest.raises(UnsupportedSyntax, match="predicate method"):
        interpret("g.V().has('a', P.gt(1).test(2))", host)
    assert not host.runs


def test_traversal_properties_are_not_reachable(host: RecordingHost) -> None:
    with pytest.raises(UnsupportedSyntax, match="property access on traversal"):
        interpret("g.V().bytecode", host)
    with pytest.raises(UnsupportedSyntax, match="property access on traversal"):
        interpret("g.graph", host)


def test_refusals_carry_the_position(host: RecordingHost) -> None:
    with pytest.raises(UnsupportedSyntax) as info:
        interpret("x = 1\ng.V().out().getClass()", host)
    assert "line 2, column 13" in str(info.value)
    assert info.value.java_exception == "java.lang.SecurityException"
