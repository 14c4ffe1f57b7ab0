"""Task records: statuses and the JSON map HugeGraph's task API returns.

HugeGraph builds a task's JSON in a `java.util.HashMap`, so clients see its keys in the JDK's
hash-bucket order, which depends on the key set (`task_dependencies` present makes 13 keys
and doubles the table). `java_hashmap_order` reproduces that order from the key names alone
(String.hashCode, `h ^ (h >>> 16)`, bucket `h & (n - 1)`, resize past 12 keys), which gives
exactly the orders of ids-and-formats.md §13 for every key combination instead of a table of
three hand-copied cases.
"""

from __future__ import annotations

from typing import Any

from gremlin_engine.errors import IllegalArgument

# TaskStatus, in code order (status only moves forward until completed)
STATUSES = (
    "unknown", "new", "scheduling", "scheduled", "queued", "restoring", "running",
    "success", "cancelling", "cancelled", "failed", "hanging", "deleting",
)
COMPLETED = frozenset({"success", "cancelled", "failed"})
PENDING = frozenset({"new", "scheduling", "scheduled", "queued", "restoring", "running"})
SERVER_ID = "server-1"

# HugeTask.asMap insertion order (ties inside one hash bucket keep it)
_INSERTION = (
    "id", "task_type", "task_name", "task_callable", "task_status", "task_progress", "task_create",
    "task_retries", "task_description", "task_update", "task_dependencies", "task_input",
    "task_result", "task_server",
)
# storage column -> API key
_COLUMNS = {
    "type": "task_type", "name": "task_name", "callable": "task_callable", "status": "task_status",
    "progress": "task_progress", "create_ms": "task_create", "retries": "task_retries",
    "description": "task_description", "update_ms": "task_update", "dependencies": "task_dependencies",
    "input": "task_input", "result": "task_result", "server": "task_server",
}
_DETAILS = frozenset({"task_callable", "task_input", "task_result"})


def _java_string_hash(s: str) -> int:
    h = 0
    for unit in s.encode("utf-16-be").hex(" ", 2).split():
        h = (31 * h + int(unit, 16)) & 0xFFFFFFFF
    return h


def java_hashmap_order(keys: list[str]) -> list[str]:
    """The iteration order of a JDK 8+ HashMap holding `keys` (inserted in list order)."""
    size = 16
    while len(keys) > size * 3 // 4:
        size *= 2
    buckets: dict[int, list[str]] = {}
    for k in keys:
        h = _java_string_hash(k)
        h ^= h >> 16
        buckets.setdefault(h & (size - 1), []).append(k)
    return [k for b in sorted(buckets) for k in buckets[b]]


def status_name(value: str) -> str:
    """Checks a `status` query value (any case) the way HugeGraph's TaskAPI does."""
    low = value.strip().lower()
    if low not in STATUSES:
        names = ", ".join(s.upper() for s in STATUSES)

        raise IllegalArgument(f"Status value must be in [{names}], but got '{value}'")
    return low


def task_json(record: dict[str, Any], details: bool = True) -> dict[str, Any]:
    """A stored task record as HugeGraph's task map (`asMap(details)`)."""
    values: dict[str, Any] = {"id": int(record["id"])}
    for column, key in _COLUMNS.items():
        value = record.get(column)
        if key in _DETAILS and not details:
            continue
        if key in ("task_progress", "task_retries"):
            value = int(value or 0)
        if value is None or (key == "task_dependencies" and not value):
            continue
        if key == "task_create" or key == "task_update":
            value = int(value)
        values[key] = value
    order = java_hashmap_order([k for k in _INSERTION if k in values])
    return {k: values[k] for k in order}


def first_line(script: str, limit: int = 256) -> str:
    """A gremlin task's name: the script's first line, at most `limit` UTF-8 bytes."""
    line = script.strip().splitlines()[0] if script.strip() else ""
    raw = line.encode("utf-8")[:limit]
    return raw.decode("utf-8", errors="ignore")
