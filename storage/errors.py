"""Errors raised by the storage layer.

They are plain exceptions with no HTTP or Gremlin knowledge; the engine maps them onto its own
error classes (`gremlin_engine.errors`). Every SQLite driver error that escapes a transaction is
wrapped in `StoreError` so callers never need to import `sqlite3` or SQLAlchemy to catch them.
"""

from __future__ import annotations


class StoreError(Exception):
    """Root of every error the storage layer raises on purpose."""


class StoreNotInitialised(StoreError):
    """The store has no tables yet; `hugelite init-store` creates them."""

    def __init__(self, path: str) -> None:
        self.path = path
        super().__init__(f"store at {path} is not initialised: run `hugelite init-store`")


class StoreVersionMismatch(StoreError):
    """The store was written by another physical layout version than this code expects."""

    def __init__(self, path: str, found: str, expected: str) -> None:
        self.path = path
        self.found = found
        self.expected = expected
        super().__init__(
            f"store at {path} has store version {found} but this hugelite needs store version "
            f"{expected}: export the data with the hugelite that wrote it, then run "
            f"`hugelite init-store` on a new path and import it there"
        )


class ReadOnlyTransaction(StoreError):
    """A write method was called on a transaction opened with `store.read()`."""


class StoreConflict(StoreError):
    """A uniqueness rule was broken: duplicate element id or duplicate schema name."""


class MissingEndpoint(StoreError):
    """An edge was inserted whose out or in vertex key does not exist."""


class StoreBusy(StoreError):
    """The write lock could not be taken in time (another writer holds it)."""


class StoreClosed(StoreError):
    """The store was closed; open a new one."""


class StoreNotHugelite(StoreError):
    """The store path holds a file that is not a hugelite store (another SQLite database, or
    not SQLite at all): hugelite neither writes into it nor deletes it."""

    def __init__(self, path: str, why: str) -> None:
        self.path = path
        super().__init__(f"store at {path} is not a hugelite database ({why}); it was left untouched")
