"""The record a bulk job (a load, a restore) keeps in the store while it holds a graph's
mode, and whether the process that wrote it still runs (`Graph.hold_mode`)."""

from __future__ import annotations

import json
import os
from typing import Any


def read_hold(text: str | None) -> dict[str, Any] | None:
    """The hold record `Graph.hold_mode` writes; None when there is none (or it is unreadable:
    a record we cannot read names no process to wait for)."""
    if not text:
        return None
    try:
        held = json.loads(text)
    except ValueError:
        return None
    return held if isinstance(held, dict) and isinstance(held.get("pid"), int) else None


def process_alive(pid: int) -> bool:
    """Whether a process with this id runs on this machine (a SQLite store is only ever
    shared by processes of one machine)."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True  # someone else's process: alive
    return True
