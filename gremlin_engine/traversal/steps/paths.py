"""Path filters: `simplePath()` and `cyclicPath()` (with `from()/to()` and `by()`), and the
path segment rule `path().from().to()` shares with them."""

from __future__ import annotations

from typing import Any

from gremlin_engine.traversal.compare import hashable
from gremlin_engine.traversal.executor import NOTHING
from gremlin_engine.traversal.steps.base import ByModulated, FilterStep
from gremlin_engine.traversal.traverser import Context, Traverser


class SimplePathStep(ByModulated, FilterStep):
    name = "simplePath"
    requires_path = True
    full_path = True

    def __init__(self, *args: Any) -> None:
        super().__init__(*args)
        self.from_label: str | None = None
        self.to_label: str | None = None
        self.bys = []

    def modulate(self, name: str, args: tuple[Any, ...]) -> None:
        if name in ("from", "to"):
            setattr(self, f"{name}_label", args[0])
        else:
            super().modulate(name, args)

    def _objs(self, t: Traverser, ctx: Context) -> list[Any] | None:
        entries = path_segment(t.path_entries(), self.from_label, self.to_label)
        objs = [e.obj for e in entries]
        if self.bys:
            objs = [self.by_at(0).value_of(o, ctx) for o in objs]
            if any(o is NOTHING for o in objs):
                return None  # an unproductive by() filters the traverser
        return [hashable(o) for o in objs]

    def keep(self, t: Traverser, ctx: Context) -> bool:
        objs = self._objs(t, ctx)
        return objs is not None and len(set(objs)) == len(objs)


class CyclicPathStep(SimplePathStep):
    name = "cyclicPath"

    def keep(self, t: Traverser, ctx: Context) -> bool:
        objs = self._objs(t, ctx)
        return objs is not None and len(set(objs)) != len(objs)


def path_segment(entries: list[Any], from_label: str | None, to_label: str | None) -> list[Any]:
    """The entries from the first one labelled `from_label` to the next one labelled
    `to_label` (both included), for `path()/simplePath()/cyclicPath()` with from()/to()."""
    if from_label is not None:
        idx = [i for i, e in enumerate(entries) if from_label in e.labels]
        entries = entries[idx[0]:] if idx else []
    if to_label is not None:
        idx = [i for i, e in enumerate(entries) if to_label in e.labels]
        entries = entries[: idx[0] + 1] if idx else entries
    return entries
