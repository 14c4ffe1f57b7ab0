"""Statement-shape helpers shared by the transaction families.

Hot paths do not build SQLAlchemy expressions per call: compiling a Core construct costs tens
of microseconds, more than the SQLite lookup it describes. Instead each family renders SQL
text once per *shape* (direction, number of label ids, whether a limit is present, a bucketed
parameter count) into an `lru_cache`, and runs it on the DBAPI connection that SQLAlchemy
checked out for the transaction. The driver then reuses its prepared statement for the same
text (see `engine.STATEMENT_CACHE`).

Two ways to pass a batch:

* integer row keys travel as **one JSON array parameter** read with ``json_each(?)``: a single
  statement shape for any batch size, no host-parameter limit, and ``json_each.key`` is the
  input position, which gives "ordered by position in the input" for free.
* public ids and index values (int, str *or bytes*, which JSON cannot carry) use
  ``IN (?, ?, ...)`` with the parameter count rounded up to a bucket (padding repeats the
  last value, harmless inside IN), and chunks of at most `CHUNK` values.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator, Sequence
from functools import lru_cache
from typing import Any

#: most host parameters put in one IN list (well below SQLite's 32766 and old 999 limits).
CHUNK = 900

_BUCKETS = (1, 2, 3, 4, 6, 8, 12, 16, 24, 32, 48, 64, 96, 128, 192, 256, 384, 512, 768, CHUNK)


def bucket(n: int) -> int:
    """The padded parameter count for `n` values (n <= CHUNK)."""
    for b in _BUCKETS:
        if n <= b:
            return b
    raise ValueError(f"more than {CHUNK} values in one chunk")


@lru_cache(maxsize=64)
def placeholders(n: int) -> str:
    return ",".join("?" * n)


def padded_chunks(values: Sequence[Any]) -> Iterator[tuple[int, list[Any]]]:
    """Yield (bucket size, values padded to it) for each chunk of `values`."""
    for start in range(0, len(values), CHUNK):
        part = list(values[start : start + CHUNK])
        size = bucket(len(part))
        if size > len(part):
            part.extend([part[-1]] * (size - len(part)))
        yield size, part


def unique(values: Iterable[Any]) -> list[Any]:
    """Distinct values in first-seen order (1 and True collapse, as they would in SQLite)."""
    return list(dict.fromkeys(values))


def json_keys(keys: Sequence[int]) -> str:
    """Encode integer row keys as the JSON array read by ``json_each(?)``."""
    return json.dumps([int(k) for k in keys])


def label_filter(column: str, label_ids: Sequence[int] | None) -> str:
    """An ``AND column IN (1,2)`` clause with the ids inlined (validated as ints).

    Inlining keeps the number of statement shapes small (label sets repeat) and lets the
    planner see the constants when it chooses the adjacency index."""
    if not label_ids:
        return ""
    ids = sorted({int(i) for i in label_ids})
    if len(ids) == 1:
        return f" AND {column} = {ids[0]}"
    return f" AND {column} IN ({','.join(map(str, ids))})"


def label_key(label_ids: Sequence[int] | None) -> tuple[int, ...]:
    """A hashable, normalised form of a label filter for statement caches."""
    return tuple(sorted({int(i) for i in label_ids})) if label_ids else ()
