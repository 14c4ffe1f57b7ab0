"""Rules every schema change checks, with HugeGraph's messages (rest-reference.md §4)."""

from __future__ import annotations

import datetime as dt
import re
from typing import Any

from gremlin_engine.errors import IllegalArgument

_ILLEGAL_NAME = re.compile(r".*\s+$|~.*", re.S)
_RESERVED_CHARS = ("#", ">", ":", "!")
#: control characters (C0, DEL, C1): a name with one cannot be read back, logged or typed safely
_CONTROL = re.compile(r"[\x00-\x1f\x7f-\x9f]")
CREATE_TIME = "~create_time"


def check_name(name: Any) -> str:
    """HugeGraph's schema name rules: not empty, < 256 UTF-8 bytes, no trailing whitespace,
    no leading `~` (hidden system schema), none of `#>:!`; and (hugelite) no control
    characters, which HugeGraph lets through into names no client can print or type."""
    if name is None or (isinstance(name, str) and not name):
        raise IllegalArgument("The name can't be empty.")
    if not isinstance(name, str):
        raise IllegalArgument(f"The name must be a string, but got '{name}'")
    if len(name.encode("utf-8")) >= 256:
        raise IllegalArgument("The length of name must less than 256 bytes.")
    if _ILLEGAL_NAME.fullmatch(name):
        raise IllegalArgument(f"Illegal schema name '{name}'")
    if _CONTROL.search(name):
        raise IllegalArgument(f"Illegal schema name {name!r}: it contains a control character")
    for ch in _RESERVED_CHARS:
        if ch in name:
            raise IllegalArgument(f"The name can't contain character '{ch}'.")
    return name


def now_text() -> str:
    """`yyyy-MM-dd HH:mm:ss.SSS` in server local time, as `~create_time` is written."""
    now = dt.datetime.now().astimezone()
    return now.strftime("%Y-%m-%d %H:%M:%S.") + f"{now.microsecond // 1000:03d}"


def check_user_data(user_data: Any) -> dict[str, Any]:
    if user_data is None:
        return {}
    if not isinstance(user_data, dict):
        raise IllegalArgument(f"The user_data must be a map, but got '{user_data}'")
    for value in user_data.values():
        if value is None:
            raise IllegalArgument("Not allowed to pass null userdata value when create or append schema")
    return dict(user_data)


def new_user_data(user_data: Any) -> dict[str, Any]:
    """User data of a new element: the given keys plus `~create_time` (a client-given
    `~create_time` is replaced, as HugeGraph does)."""
    out = check_user_data(user_data)
    out.pop(CREATE_TIME, None)
    out[CREATE_TIME] = now_text()
    return out
