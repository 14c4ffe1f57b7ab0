"""Traversers and the per-run context they travel with.

A `Traverser` is one position of the traversal: the current object, its bulk, its path
(only when the compiled traversal needs paths or step labels), named loop counters for
`repeat` and its sack. Paths are persistent cons-lists (`PathNode`), so splitting a
traverser into many (a flat-map) shares the history instead of copying it.

`Context` holds everything that is per run rather than per traverser: the `GraphAccess`,
the cancel token, side-effects (`aggregate`, `store`, `withSideEffect`), the initial sack
and the batch size.
"""

from __future__ import annotations

import copy
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from typing import Any

from gremlin_engine.access import GraphAccess
from gremlin_engine.limits import CancelToken
from gremlin_engine.structure.elements import Element, Path
from gremlin_engine.traversal.seeded import JavaRandom

BATCH = 256  # traversers per GraphAccess call
CHECK_EVERY = 64  # items between cancel checks in tight loops


class PathNode:
    """One entry of a path: an object, the step labels it carries, and its predecessor.
    `key`: the whole path up to here as a merge key, made once (`bulking._whole_path_key`); a
    node is never changed after it is made, so the key stays its own."""

    __slots__ = ("obj", "labels", "parent", "key")

    def __init__(self, obj: Any, labels: frozenset[str], parent: PathNode | None) -> None:
        self.obj = obj
        self.labels = labels
        self.parent = parent
        self.key: Any = None

    def entries(self) -> list[PathNode]:
        out: list[PathNode] = []
        node: PathNode | None = self
        while node is not None:
            if node is not ROOT:
                out.append(node)
            node = node.parent
        out.reverse()
        return out


_NO_LABELS: frozenset[str] = frozenset()
ROOT = PathNode(None, _NO_LABELS, None)  # the empty path of a path-tracking traverser


class Traverser:
    __slots__ = ("obj", "bulk", "path", "loops", "sack")

    def __init__(
        self,
        obj: Any,
        bulk: int = 1,
        path: PathNode | None = None,
        loops: tuple[tuple[str | None, int], ...] = (),
        sack: Any = None,
    ) -> None:
        self.obj = obj
        self.bulk = bulk
        self.path = path  # None: paths are not tracked for this traversal
        self.loops = loops
        self.sack = sack

    def split(self, obj: Any, bulk: int | None = None) -> Traverser:
        """A traverser for a new object, extending the path when paths are tracked."""
        path = self.path
        if path is not None:
            path = PathNode(obj, _NO_LABELS, path)
        sack = self.sack
        if sack is not None:
            sack = _copy_sack(sack)
        return Traverser(obj, self.bulk if bulk is None else bulk, path, self.loops, sack)

    def replace(self, obj: Any) -> Traverser:
        """A traverser for a new object *without* a new path entry (used by `sack()`-style
        in-place changes and `local` bookkeeping)."""
        return Traverser(obj, self.bulk, self.path, self.loops, self.sack)

    def clone(self) -> Traverser:
        return Traverser(self.obj, self.bulk, self.path, self.loops, _copy_sack(self.sack))

    def with_bulk(self, bulk: int) -> Traverser:
        return Traverser(self.obj, bulk, self.path, self.loops, self.sack)

    def add_labels(self, labels: Iterable[str]) -> None:
        """`as(...)`: attaches labels to the current path head (creating it for a traverser
        whose path does not yet hold its object, e.g. after a reducing barrier)."""
        if self.path is None:
            return
        head = self.path
        if head is ROOT or head.obj is not self.obj:
            self.path = PathNode(self.obj, frozenset(labels), head)
        else:
            self.path = PathNode(head.obj, head.labels | frozenset(labels), head.parent)

    # ---- path queries --------------------------------------------------------------
    def path_entries(self) -> list[PathNode]:
        return [] if self.path is None else self.path.entries()

    def make_path(self) -> Path:
        entries = self.path_entries()
        return Path(tuple(e.labels for e in entries), tuple(e.obj for e in entries))

    def labelled(self, label: str) -> list[Any]:
        """Every object in the path carrying `label`, oldest first."""
        return [e.obj for e in self.path_entries() if label in e.labels]

    # ---- loops -------------------------------------------------------------------------
    def loop_count(self, name: str | None = None) -> int:
        if not self.loops:
            return 0
        if name is None:
            return self.loops[-1][1]
        for n, c in reversed(self.loops):
            if n == name:
                return c
        return 0

    def __repr__(self) -> str:
        return f"T({self.obj!r}, bulk={self.bulk})"


def _copy_sack(sack: Any) -> Any:
    if isinstance(sack, list | dict | set):
        return copy.copy(sack)
    return sack


@dataclass
class Context:
    """Per-run state shared by every step of one traversal and of its children."""

    access: GraphAccess
    cancel: CancelToken = field(default_factory=CancelToken)
    side_effects: dict[str, Any] = field(default_factory=dict)
    side_effect_ops: dict[str, Any] = field(default_factory=dict)  # withSideEffect(k, v, Operator)
    productive_by: bool = False  # ProductiveByStrategy: an unproductive by() yields null
    loop_state: dict[int, Any] | None = None  # state that lives across repeat() iterations
    full_paths: bool = False  # some step reads unlabelled path entries (bulk merging keys on them)
    sack_initial: Callable[[], Any] | None = None
    sack_merge: Any = None  # Operator for merging sacks in barrier()
    track_paths: bool = False
    batch_size: int = BATCH
    bulk: bool = True
    seed: int | None = None  # SeedStrategy(seed: n): coin/sample draw from java.util.Random
    rngs: dict[int, Any] | None = None  # seeded generators per step object, made on first draw

    def check(self) -> None:
        self.cancel.check()

    def load(self, objs: Iterable[Any]) -> None:
        """Loads the properties of every unloaded element in `objs` with one access call."""
        need = [o for o in objs if isinstance(o, Element) and not o.loaded]
        if need:
            self.access.load(need)

    def random_for(self, step: Any) -> Any:
        """The seeded `JavaRandom` of `step` for this run (TinkerPop re-seeds each random
        step with the strategy's seed), or None when no SeedStrategy is in force."""
        if self.seed is None:
            return None
        if self.rngs is None:
            self.rngs = {}
        rng = self.rngs.get(id(step))
        if rng is None:
            rng = self.rngs[id(step)] = JavaRandom(self.seed)
        return rng

    def new_traverser(self, obj: Any, bulk: int = 1) -> Traverser:
        """A fresh traverser (sources, reducing barriers): new path, initial sack."""
        path = PathNode(obj, frozenset(), ROOT) if self.track_paths else None
        sack = self.sack_initial() if self.sack_initial is not None else None
        return Traverser(obj, bulk, path, (), sack)


def batches(it: Iterable[Traverser], size: int, ctx: Context) -> Iterator[list[Traverser]]:
    """Cuts a traverser stream into lists of `size`, checking cancellation per batch."""
    batch: list[Traverser] = []
    for t in it:
        batch.append(t)
        if len(batch) >= size:
            ctx.check()
            yield batch
            batch = []
    if batch:
        ctx.check()
        yield batch


def checked(it: Iterable[Traverser], ctx: Context) -> Iterator[Traverser]:
    """Passes traversers through, checking cancellation every CHECK_EVERY items."""
    n = 0
    for t in it:
        n += 1
        if n >= CHECK_EVERY:
            ctx.check()
            n = 0
        yield t
