"""The error table's rows for what no request can be made to raise on purpose: a
`MemoryError` (the process could not allocate) and a bug. Neither may show Python's text."""

from __future__ import annotations

from gremlin_engine.errors import IllegalArgument
from rest_adapter.errors import error_body, gremlin_error_body, gremlin_status
from rest_adapter.ws.status import error_status


def test_a_memory_error_is_a_400_naming_the_memory_bounds() -> None:
    exc = MemoryError()
    assert gremlin_status(exc) == (400, 597)
    body = error_body(exc)
    assert body["exception"] == "class org.apache.hugegraph.exception.LimitExceedException"
    assert "more memory than the server could allocate" in body["message"]
    assert "HUGELITE_TRAVERSAL_MEMORY_MB" in body["message"]
    code, message, attributes = error_status(exc)
    assert code == 597 and message == body["message"]
    assert attributes["exceptions"] == ["org.apache.hugegraph.exception.LimitExceedException"]


def test_a_bug_says_so_without_the_python_text() -> None:
    try:
        {}[[1]] = 2  # type: ignore[index]
    except TypeError as bug:
        exc = bug
    assert gremlin_status(exc) == (500, 500)
    body = error_body(exc)
    assert body == {"exception": "class java.lang.RuntimeException",
                    "message": "Internal server error; the server log has the details", "cause": ""}
    assert gremlin_error_body(exc, "r1", 500)["message"] == body["message"]
    assert error_status(exc)[1] == body["message"]


def test_a_python_cause_is_not_shown() -> None:
    try:
        try:
            int("x")
        except ValueError as inner:
            raise IllegalArgument("The value must be a number") from inner
    except IllegalArgument as exc:
        assert error_body(exc) == {"exception": "class java.lang.IllegalArgumentException",
                                   "message": "The value must be a number", "cause": ""}
