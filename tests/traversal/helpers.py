"""Shared helper: run a builder traversal on an access, with or without strategies."""

from __future__ import annotations

from typing import Any

from gremlin_engine.traversal import run


def r(b: Any, access: Any, strategies: bool = True) -> list[Any]:
    return list(run(b.ir, access, strategies=strategies))


def names(b: Any, access: Any) -> list[str]:
    return sorted(r(b, access))
