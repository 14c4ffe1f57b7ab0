"""The one table from exceptions to HTTP status, HugeGraph error body and Gremlin status code.

Engine errors (`gremlin_engine.errors`) carry no HTTP knowledge; this module alone decides
how a client sees them. A REST error body is HugeGraph's:

    {"exception": "class <java class>", "message": "...", "cause": "..."}

(`class ` prefix, keys in that order, `application/json`, never gzipped: clients switch on
`exception`). `/gremlin` errors follow HugeGraph's Gremlin proxy instead (no `class `
prefix, status picked from the Java class name, see gremlin-and-tasks.md §1) and also carry
the TinkerPop envelope keys, so either kind of client finds what it reads.

Nothing maps to 500 on purpose: a 500 is a bug, logged with its traceback; its message
says so and never carries the Python exception's text (which names interpreter internals,
not anything the client can act on). A `MemoryError` is the request outgrowing the memory
the process could allocate: a 400 `LimitExceedException` naming the memory bounds.
"""

from __future__ import annotations

import logging
from typing import Any

import orjson
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import Response

from gremlin_engine import errors as E
from gremlin_engine.auth import AuthenticationFailed

log = logging.getLogger("hugelite.rest")

# Gremlin Server status codes (TinkerPop ResponseStatusCode)
UNAUTHORIZED = 401
AUTHENTICATE = 407
INVALID_REQUEST_ARGUMENTS = 499
SERVER_ERROR = 500
EVALUATION_ERROR = 597
TIMEOUT = 598

#: exception class -> (HTTP status, Gremlin status code). The most specific class wins
#: (lookup walks the MRO), so subclasses added later inherit their parent's row.
TABLE: dict[type[BaseException], tuple[int, int]] = {
    E.HugeliteError: (400, EVALUATION_ERROR),
    E.IllegalArgument: (400, EVALUATION_ERROR),
    E.NotFound: (404, EVALUATION_ERROR),
    E.NotSupported: (400, EVALUATION_ERROR),
    E.Forbidden: (403, UNAUTHORIZED),
    E.ExistedError: (400, EVALUATION_ERROR),
    E.LimitExceeded: (400, EVALUATION_ERROR),
    E.NoIndexError: (400, EVALUATION_ERROR),
    E.StoreNotReady: (503, SERVER_ERROR),
    E.GremlinError: (400, EVALUATION_ERROR),
    E.GremlinSyntaxError: (400, EVALUATION_ERROR),
    E.UnsupportedSyntax: (400, EVALUATION_ERROR),
    E.UnsupportedStep: (400, EVALUATION_ERROR),
    E.StepArgumentError: (400, EVALUATION_ERROR),
    E.TraversalError: (400, EVALUATION_ERROR),
    E.TraversalTimeout: (400, TIMEOUT),
    E.TraversalCancelled: (400, EVALUATION_ERROR),
    E.TransactionError: (400, EVALUATION_ERROR),
    MemoryError: (400, EVALUATION_ERROR),
    AuthenticationFailed: (401, UNAUTHORIZED),
}

INTERNAL_ERROR_MESSAGE = "Internal server error; the server log has the details"
MEMORY_ERROR_MESSAGE = (
    "The request needed more memory than the server could allocate; requests are bounded by "
    "HUGELITE_TRAVERSAL_MEMORY_MB per traversal and MAX_VALUE_SIZE per value: narrow it (limit(), fewer steps)"
)


class HttpError(Exception):
    """An error the REST layer itself raises (bad request syntax, unknown action, auth)."""

    def __init__(
        self,
        status: int,
        message: str,
        java: str = "jakarta.ws.rs.WebApplicationException",
        gremlin_code: int | None = None,
        headers: dict[str, str] | None = None,
    ) -> None:
        super().__init__(message)
        self.status = status
        self.message = message
        self.java_exception = java
        self.gremlin_code = gremlin_code if gremlin_code is not None else _default_gremlin_code(status)
        self.headers = headers or {}


def _default_gremlin_code(status: int) -> int:
    if status == 401:
        return UNAUTHORIZED
    if status == 403:
        return UNAUTHORIZED
    if status == 407:
        return AUTHENTICATE
    if status < 500:
        return INVALID_REQUEST_ARGUMENTS
    return SERVER_ERROR


def bad_request(message: str) -> HttpError:
    """400 for request syntax a client can fix (malformed JSON, wrong JSON type, bad param)."""
    return HttpError(400, message, "java.lang.IllegalArgumentException")


def unsupported_action(action: str | None) -> HttpError:
    return HttpError(415, f"Not support action '{action}'", "jakarta.ws.rs.NotSupportedException")


def unauthorized(message: str = "Authentication credentials are required", challenge: str = "") -> HttpError:
    headers = {"WWW-Authenticate": challenge} if challenge else {}
    return HttpError(401, message, "jakarta.ws.rs.NotAuthorizedException", UNAUTHORIZED, headers)


def classify(exc: BaseException) -> tuple[int, int]:
    """(HTTP status, Gremlin status code) for any exception; unknown ones are (500, 500)."""
    if isinstance(exc, HttpError):
        return exc.status, exc.gremlin_code
    if isinstance(exc, HTTPException):
        return exc.status_code, _default_gremlin_code(exc.status_code)
    for cls in type(exc).__mro__:
        row = TABLE.get(cls)  # type: ignore[arg-type]
        if row is not None:
            return row
    return 500, SERVER_ERROR


def java_name(exc: BaseException) -> str:
    if isinstance(exc, HTTPException):
        return {
            404: "jakarta.ws.rs.NotFoundException",
            405: "jakarta.ws.rs.NotAllowedException",
            415: "jakarta.ws.rs.NotSupportedException",
        }.get(exc.status_code, "jakarta.ws.rs.WebApplicationException")
    name = getattr(exc, "java_exception", None)
    if name:
        return str(name)
    if isinstance(exc, MemoryError):
        return E.LimitExceeded.java_exception
    return "java.lang.RuntimeException"


_HTTP_REASON = {404: "HTTP 404 Not Found", 405: "HTTP 405 Method Not Allowed", 415: "HTTP 415 Unsupported Media Type"}


def message_of(exc: BaseException) -> str:
    if isinstance(exc, HttpError):
        return exc.message
    if isinstance(exc, HTTPException):
        return _HTTP_REASON.get(exc.status_code, f"HTTP {exc.status_code} {exc.detail}")
    if isinstance(exc, MemoryError):
        return MEMORY_ERROR_MESSAGE
    if classify(exc)[0] >= 500 and not isinstance(exc, E.HugeliteError):
        return INTERNAL_ERROR_MESSAGE
    return str(exc)


def cause_of(exc: BaseException) -> str:
    """The cause's Java name and message when it is one of ours; nothing for a Python
    exception (its text names interpreter internals)."""
    cause = exc.__cause__
    if cause is None or not hasattr(cause, "java_exception"):
        return ""
    return f"{java_name(cause)}: {cause}"


def error_body(exc: BaseException) -> dict[str, Any]:
    """HugeGraph's REST error body."""
    return {"exception": f"class {java_name(exc)}", "message": message_of(exc), "cause": cause_of(exc)}


def json_error(status: int, body: dict[str, Any], headers: dict[str, str] | None = None) -> Response:
    return Response(orjson.dumps(body), status_code=status, media_type="application/json", headers=headers)


# ---- /gremlin -----------------------------------------------------------------------
_GREMLIN_400_PREFIXES = (
    "java.lang.IllegalArgumentException",
    "java.util.concurrent.TimeoutException",
    "groovy.",
    "org.codehaus.",
    "org.apache.hugegraph.",
)
_GREMLIN_403 = ("java.lang.SecurityException", "jakarta.ws.rs.ForbiddenException")


def gremlin_status(exc: BaseException) -> tuple[int, int]:
    """HugeGraph's Gremlin proxy picks the HTTP status from the Java class name; deliberate
    engine errors that no rule names stay client errors (400) rather than becoming 500."""
    status, code = classify(exc)
    if isinstance(exc, (HttpError, HTTPException)) or status >= 500 and not isinstance(exc, E.HugeliteError):
        return status, code
    if isinstance(exc, E.UnsupportedSyntax):
        # a construct outside the Groovy subset (which is also how the sandbox refuses
        # `System.exit`): 400, as the clone guidance of gremlin-and-tasks.md §1 says,
        # although its Java name (SecurityException) would give 403 by the rule below
        return 400, code
    name = java_name(exc)
    if name in _GREMLIN_403:
        return 403, code
    if name.startswith(_GREMLIN_400_PREFIXES):
        return 400, code
    return 400, code


def gremlin_error_body(exc: BaseException, request_id: str, code: int) -> dict[str, Any]:
    name = java_name(exc)
    message = message_of(exc)
    return {
        "exception": name,
        "message": message,
        "cause": f"[{name}]",
        "requestId": request_id,
        "status": {
            "message": message,
            "code": code,
            "attributes": {"exceptions": [name], "stackTrace": f"{name}: {message}"},
        },
        "result": {"data": None, "meta": {}},
    }


# ---- Starlette handlers -------------------------------------------------------------
async def handle_error(request: Request, exc: Exception) -> Response:
    status, _code = classify(exc)
    if status >= 500:
        log.error("%s %s failed", request.method, request.url.path, exc_info=exc)
    headers = exc.headers if isinstance(exc, HttpError) else None
    if isinstance(exc, HTTPException) and exc.headers:
        headers = dict(exc.headers)
    return json_error(status, error_body(exc), headers)


async def handle_bug(request: Request, exc: Exception) -> Response:
    """Last resort (ServerErrorMiddleware): the traceback is logged by the server too."""
    log.error("unhandled error in %s %s", request.method, request.url.path, exc_info=exc)
    return json_error(500, error_body(exc))


def exception_handlers() -> dict[Any, Any]:
    return {
        E.HugeliteError: handle_error,
        HttpError: handle_error,
        HTTPException: handle_error,
        Exception: handle_bug,
    }
