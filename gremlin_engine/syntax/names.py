"""The fixed vocabularies of the script language: which bare names and classes mean what.

Kept apart from the code that uses them so the accepted subset (grammar/README.md) and the
sandbox's deny lists can be read and reviewed in one place.
"""

from __future__ import annotations

import re

# fmt: off
# `X.member` is an enum token for these classes (GType and IO are GremlinLang enums that
# `traversal/tokens.py` may not hold yet; the interpreter reports them if missing).
ENUM_CLASSES = frozenset(
    {
        "T", "Direction", "Order", "Scope", "Column", "Pop", "Cardinality", "Operator", "Pick",
        "Merge", "DT", "Barrier", "WithOptions", "GType", "IO",
    }
)

PREDICATE_FAMILIES = frozenset({"P", "TextP"})

# Bare predicate calls (`has('age', gt(30))`, `within('a', 'b')`): static imports in Groovy.
P_NAMES = frozenset(
    {"eq", "neq", "lt", "lte", "gt", "gte", "inside", "outside", "between", "within", "without", "typeOf"}
)
TEXTP_NAMES = frozenset(
    {
        "containing", "notContaining", "startingWith", "notStartingWith", "endingWith",
        "notEndingWith", "regex", "notRegex",
    }
)

# Bare calls that build values rather than start an anonymous traversal. `not` is resolved
# at run time: `P.not` for a predicate argument, the `not()` step otherwise.
FUNCTIONS = frozenset({"datetime", "DateTime", "UUID", "not"})

# Methods of a traversal that iterate it (ScriptHost.run).
TERMINALS = frozenset({"toList", "toSet", "toBulkSet", "next", "tryNext", "hasNext", "iterate", "explain"})

# Methods of a traversal source that spawn a traversal, and those that configure the source.
SPAWNS = frozenset({"V", "E", "addV", "addE", "inject", "mergeV", "mergeE", "call", "union", "io"})
SOURCE_MODIFIERS = frozenset(
    {
        "withSideEffect", "withSack", "withBulk", "withPath", "withStrategies", "withoutStrategies",
        "with", "withComputer",
    }
)

# Groovy statements that look like a bare call with a trailing block: `if (x) { ... }`.
GROOVY_KEYWORDS = frozenset({"if", "else", "for", "while", "do", "switch", "try", "catch", "synchronized"})

STRATEGY_NAME = re.compile(r"^[A-Z][A-Za-z0-9]*Strategy$")

LITERAL_NAMES = {"true": True, "false": False, "null": None, "NaN": float("nan"), "Infinity": float("inf")}

# ---- the sandbox's deny lists -----------------------------------------------------------
# The real guard is structural (the interpreter only knows the subset, and every other call
# goes through ScriptHost.call_method's whitelist); these lists exist so that the classic
# escape attempts fail *before* any host call, with a message naming what was refused.

FORBIDDEN_NAMES = frozenset(
    {
        # Java / Groovy runtime access
        "System", "Runtime", "Class", "ClassLoader", "Thread", "Process", "ProcessBuilder",
        "File", "Files", "Paths", "URL", "URI", "Socket", "ServerSocket", "GroovyShell",
        "GroovySystem", "Eval", "Script", "Binding", "ScriptEngine", "ScriptEngineManager",
        "Lambda", "Method", "Field", "Constructor", "Unsafe", "MethodHandles", "Reflection",
        "this", "super", "binding", "metaClass", "evaluate", "println", "print", "printf", "sleep",
        # Python built-ins a Python implementation must never expose
        "__import__", "__builtins__", "__loader__", "__spec__", "open", "eval", "exec", "compile",
        "getattr", "setattr", "delattr", "globals", "locals", "vars", "input", "breakpoint",
        "os", "sys", "subprocess", "importlib", "builtins",
    }
)

FORBIDDEN_MEMBERS = frozenset(
    {
        "class", "getClass", "metaClass", "getMetaClass", "setMetaClass", "classLoader",
        "getClassLoader", "invokeMethod", "getProperty", "setProperty", "forName", "newInstance",
        "getRuntime", "exec", "execute", "exit", "halt", "eval", "evaluate", "getDeclaredMethods",
        "getDeclaredMethod", "getMethods", "getMethod", "getDeclaredFields", "getDeclaredField",
        "getFields", "getField", "getDeclaredConstructor", "getConstructor", "setAccessible",
        "loadClass", "defineClass", "invoke", "getText", "text", "toURL", "toURI", "newReader",
        "newWriter", "withReader", "withWriter", "eachLine", "readLines", "getBytes", "bytes",
        "consumeProcessOutput", "waitFor", "open", "system", "popen", "spawn",
    }
)

# fmt: on


def forbidden_name(name: str) -> bool:
    """A variable or function name the sandbox refuses: the lists above and Python dunders
    (`__class__`), while `__` (anonymous traversals) and `__g_<graph>` stay allowed."""
    return name in FORBIDDEN_NAMES or (name.startswith("__") and name.endswith("__") and name != "__")


def forbidden_member(name: str) -> bool:
    """A method or property name the sandbox refuses, including any `_private` name."""
    return name in FORBIDDEN_MEMBERS or name.startswith("_")
