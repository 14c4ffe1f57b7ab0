"""The engine's errors. They carry no HTTP knowledge: `rest_adapter/errors.py` maps each class
to an HTTP status, a HugeGraph JSON body and a Gremlin Server status code, in one table.

Every class has a `java_exception` name because HugeGraph clients switch on the
`exception` field of error bodies (see reference/hugegraph/errors-and-auth.md)."""

from __future__ import annotations


class HugeliteError(Exception):
    """Root of everything the engine raises on purpose."""

    java_exception = "org.apache.hugegraph.HugeException"


class IllegalArgument(HugeliteError):
    """Bad input a client can fix (400)."""

    java_exception = "java.lang.IllegalArgumentException"


class NotFound(HugeliteError):
    """A graph, schema element, vertex, edge, task or variable that does not exist (404)."""

    java_exception = "org.apache.hugegraph.exception.NotFoundException"


class NotSupported(HugeliteError):
    """A feature we knowingly do not offer; the message names it (400)."""

    java_exception = "org.apache.hugegraph.exception.NotSupportException"


class Forbidden(HugeliteError):
    java_exception = "jakarta.ws.rs.ForbiddenException"


class ExistedError(HugeliteError):
    java_exception = "org.apache.hugegraph.exception.ExistedException"


class LimitExceeded(HugeliteError):
    java_exception = "org.apache.hugegraph.exception.LimitExceedException"


class NoIndexError(HugeliteError):
    java_exception = "org.apache.hugegraph.exception.NoIndexException"


class StoreNotReady(HugeliteError):
    """The store is uninitialised or was initialised by another store version."""


class GremlinError(HugeliteError):
    """Root of errors raised while parsing or running a Gremlin script or traversal."""

    java_exception = "org.apache.tinkerpop.gremlin.process.traversal.GremlinException"


class GremlinSyntaxError(GremlinError):
    """Unparseable script text; carries line, column and a context snippet."""

    java_exception = "groovy.lang.MissingMethodException"

    def __init__(self, message: str, line: int | None = None, column: int | None = None, context: str = ""):
        where = f" at line {line}, column {column}" if line is not None else ""
        full = f"{message}{where}" + (f"\n{context}" if context else "")
        super().__init__(full)
        self.line = line
        self.column = column
        self.context = context


class UnsupportedSyntax(GremlinError):
    """A construct outside the Groovy subset (imports, Java classes, closures we don't run...)."""

    java_exception = "java.lang.SecurityException"


class UnsupportedStep(GremlinError):
    java_exception = "java.lang.IllegalArgumentException"


class StepArgumentError(GremlinError):
    java_exception = "java.lang.IllegalArgumentException"


class TraversalError(GremlinError):
    """A runtime failure inside a traversal (the `fail()` step, a bad cast, ...)."""

    java_exception = "java.lang.IllegalStateException"


class TraversalTimeout(GremlinError):
    java_exception = "java.util.concurrent.TimeoutException"


class TraversalCancelled(GremlinError):
    java_exception = "java.lang.InterruptedException"


class TransactionError(GremlinError):
    java_exception = "org.apache.tinkerpop.gremlin.structure.Transaction$TransactionException"
