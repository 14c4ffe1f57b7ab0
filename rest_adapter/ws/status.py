"""Gremlin Server response status codes and the mapping from exceptions to them.

Engine errors map through the one table in `rest_adapter/errors.py` (its Gremlin column);
this module adds only what is particular to the WebSocket protocol: malformed frames (499),
results that cannot be serialised (599) and the error attributes Gremlin Server sends
(`exceptions`, `stackTrace`), so drivers that print them show the Java-style class name.
"""

from __future__ import annotations

import logging
from typing import Any

from rest_adapter.errors import classify, java_name, message_of
from rest_adapter.serializers.mime import MalformedRequest, SerializationError

log = logging.getLogger("hugelite.gremlin_ws")

SUCCESS = 200
NO_CONTENT = 204
PARTIAL_CONTENT = 206
UNAUTHORIZED = 401
FORBIDDEN = 403
AUTHENTICATE = 407
MALFORMED_REQUEST = 498
INVALID_REQUEST_ARGUMENTS = 499
SERVER_ERROR = 500
SCRIPT_EVALUATION_ERROR = 597
SERVER_ERROR_TIMEOUT = 598
SERVER_ERROR_SERIALIZATION = 599


class RequestError(Exception):
    """A protocol-level refusal with its own status code (bad op, unknown alias, auth...)."""

    def __init__(self, code: int, message: str) -> None:
        super().__init__(message)
        self.code = code


def error_status(exc: BaseException) -> tuple[int, str, dict[str, Any]]:
    """(status code, message, status attributes) for an exception raised serving a request."""
    if isinstance(exc, RequestError):
        return exc.code, str(exc), {}
    if isinstance(exc, MalformedRequest):
        return INVALID_REQUEST_ARGUMENTS, str(exc), {}
    if isinstance(exc, SerializationError):
        return SERVER_ERROR_SERIALIZATION, f"Error during serialization: {exc}", {}
    _http, code = classify(exc)
    message = message_of(exc) or java_name(exc)
    if code == SERVER_ERROR:
        log.exception("unexpected error serving a Gremlin request", exc_info=exc)
    return code, message, {"exceptions": [java_name(exc)], "stackTrace": ""}
