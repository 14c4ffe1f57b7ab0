"""The prepared-traversal cache: compiled, strategy-applied traversals, each with its slot binder.

Compiling a traversal and applying the strategies costs more than a point read itself, and a
server sees the same few shapes over and over with new ids and values: `g.V(vid).values('name')`
with `vid` bound, a REST `GET /vertices/{id}`, a bytecode point lookup. So every traversal is
prepared once per *shape* and kept here, keyed by

* the IR shape (`ir_shape`): the IR with its slot values left out (only their type class
  stays in the key; `slot_binder.py` says which positions are slots), for bytecode and REST;
* the script text plus how each of its names resolves now and the type class of each binding
  (`syntax/script_shape.py`), for scripts that are one traversal over bindings.

An entry (`Prepared`) holds the compiled template and its slot binder: binding a run's values
copies the few step objects that hold a slot and shares the rest (steps keep per-run state in
the `Context`). A script entry also holds what the interpreter needs to finish the script (its
graph and terminal), or, when its bindings cannot be slots, the script's IR with binding
positions, which then takes the IR door of this same cache.

One cache per `GraphRegistry` (`GraphRegistry.prepared`), cleared when a graph is opened,
created or dropped; nothing is module-global. Entries are schema-independent: the steps read
the schema when they run.
"""

from __future__ import annotations

import threading
import uuid
from collections import OrderedDict
from collections.abc import Callable
from enum import Enum
from typing import Any

from gremlin_engine.structure.numbers import Int, Long
from gremlin_engine.traversal.compiler import compile_ir
from gremlin_engine.traversal.executor import CompiledTraversal
from gremlin_engine.traversal.ir import Instruction, TraversalIR
from gremlin_engine.traversal.predicates import P
from gremlin_engine.traversal.slot_binder import (
    Unslottable,
    binder,
    make_plan,
    marker,
    slot_class,
    slot_kind,
    source_plan,
    with_markers,
)

#: entries kept (LRU)
CACHE_SIZE = 2048
#: script texts (the second item of a script key) kept, in characters, and the longest kept:
#: a script may be up to a million characters, its text is rarely sent twice, and clients that
#: inline values send a new text each time, so texts are bounded as the parse cache bounds them
CACHE_CHARS = 1_000_000
MAX_KEY_TEXT = 65_536
#: step classes that build state lazily on first run: never shared between runs
_UNSHAREABLE = frozenset({"MatchStep", "WhereTraversalStep"})
_ATOMS = (str, int, float, type(None), Enum, uuid.UUID)
_PLAIN = frozenset({str, int, Long, Int, bool, type(None)})
_SLOT = "$slot"


class NoKey(Exception):
    """An argument that is not a plain constant: the traversal is compiled afresh."""


def compile_traversal(ir: TraversalIR, *, strategies: bool = True) -> CompiledTraversal:
    """IR -> steps (+ strategies). The source options are attached as `.options`."""
    compiled = compile_ir(ir, strategies=strategies)
    traversal = compiled.traversal
    opts = traversal.options = compiled.options
    steps = traversal.steps
    # no side effects, sack, view strategies (which wrap the access) or `withBulk(false)`
    traversal.answers = (
        len(steps) == 1 and getattr(steps[0], "answer", None) is not None and not steps[0].labels
        and not opts.side_effects and opts.sack is None and not opts.strategies and opts.bulk
    )
    traversal.reads_once = traversal.answers and getattr(steps[0], "reads_once", False) is True
    return traversal


class Prepared:
    """A cache entry: a compiled traversal (with markers in its slots when `bind` is set),
    and `writes`, whether it may write (the IR door asks once).

    `bind(values)` gives a copy of `traversal` with `values` in its slots. Script entries also
    carry `graph` and `terminal` (name, args, pos), `names` (the binding supplying each slot,
    in slot order) and, when the script's bindings could not be slots, `ir` and `ir_slots`
    (the script's IR with None where each binding goes: step index -> ((arg index, name), ...))
    and no `traversal`."""

    __slots__ = ("traversal", "bind", "bind_source", "writes", "graph", "terminal", "names", "ir", "ir_slots")

    def __init__(
        self, traversal: CompiledTraversal | None, bind: Callable[[list[Any]], Any] | None = None,
        bind_source: Callable[[list[Any]], Any] | None = None,
    ) -> None:
        self.traversal = traversal
        self.bind = bind
        #: for a one-fused-step traversal whose slots all sit in the step's source: binds
        #: that source alone (`BoundAnswer`)
        self.bind_source = bind_source
        self.writes: bool | None = None  # whether the traversal may write, once asked
        self.graph: str | None = None
        self.terminal: tuple[str, tuple[Any, ...], Any] | None = None
        self.names: tuple[str, ...] = ()
        self.ir: TraversalIR | None = None
        self.ir_slots: tuple[tuple[int, tuple[tuple[int, str], ...]], ...] = ()

    def compiled(self, values: list[Any]) -> CompiledTraversal | BoundAnswer:
        """The traversal to run with `values` in its slots."""
        if self.bind is None:
            return self.traversal  # type: ignore[return-value]
        if self.bind_source is not None:
            return BoundAnswer(self, values)
        return self.bind(values)  # type: ignore[no-any-return]

    def script_ir(self, bindings: dict[str, Any], arg: Callable[[Any], Any]) -> TraversalIR:
        """A script entry's IR with `bindings` in place (`arg` turns a binding into a step
        argument as the interpreter does)."""
        ir = self.ir
        assert ir is not None
        if not self.ir_slots:
            return ir
        out = list(ir.steps)
        for index, positions in self.ir_slots:
            ins = out[index]
            args = list(ins.args)
            for arg_index, name in positions:
                args[arg_index] = arg(bindings[name])
            out[index] = Instruction(ins.name, tuple(args), ins.pos)
        return TraversalIR(ir.source, tuple(out), ir.anonymous)


class BoundAnswer:
    """A prepared one-fused-step traversal with a run's slot values, bound lazily.

    The runner (`traversal.run_compiled`) asks `answer(access)` first: the fused step gets a
    copy of its source step with the values in (one object; the traversal, its step list and
    the fused step itself stay the shared template's). Only when the step declines (None)
    does `whole()` bind the full traversal for the executor. Per run, that saves copying
    the four or five objects between the traversal and the source that hold the slot."""

    __slots__ = ("entry", "values", "reads_once")
    answers = True

    def __init__(self, entry: Prepared, values: list[Any]) -> None:
        self.entry = entry
        self.values = values
        self.reads_once: bool = entry.traversal.reads_once  # type: ignore[union-attr]

    def answer(self, access: Any, cancel: Any = None) -> list[Any] | None:
        entry = self.entry
        found: list[Any] | None = entry.traversal.steps[0].answer(  # type: ignore[union-attr]
            access, entry.bind_source(self.values), cancel)  # type: ignore[misc]
        return found

    def whole(self) -> CompiledTraversal:
        return self.entry.bind(self.values)  # type: ignore[misc, no-any-return]


#: an entry saying "this key cannot be prepared" (a shape whose slots cannot be rebound)
REFUSED: Any = object()


class PreparedCache:
    """An LRU of `Prepared` entries (and `REFUSED` marks), shared by every thread."""

    def __init__(self, size: int = CACHE_SIZE, max_chars: int = CACHE_CHARS) -> None:
        self.size = size
        self.max_chars = max_chars
        self._entries: OrderedDict[Any, Any] = OrderedDict()
        self._chars = 0
        self._lock = threading.Lock()

    def get(self, key: Any) -> Any:
        """The entry of `key` (marked most recently used), or None."""
        found = self._entries.get(key)  # a dict read is atomic; the recency update is best-effort
        if found is not None:
            try:
                self._entries.move_to_end(key)
            except KeyError:
                pass
        return found

    def put(self, key: Any, entry: Any) -> None:
        chars = _text_chars(key)
        if chars > MAX_KEY_TEXT:
            return
        with self._lock:
            if key in self._entries:
                self._chars -= chars
            self._entries[key] = entry
            self._chars += chars
            while len(self._entries) > self.size or self._chars > self.max_chars:
                old, _ = self._entries.popitem(last=False)
                self._chars -= _text_chars(old)

    def clear(self) -> None:
        with self._lock:
            self._entries.clear()
            self._chars = 0

    def __len__(self) -> int:
        return len(self._entries)

    def entries(self) -> list[tuple[Any, Any]]:
        """A snapshot of (key, entry) pairs, oldest first (for tests and diagnostics)."""
        with self._lock:
            return list(self._entries.items())

    def remembered(self, key: Any, make: Callable[[], Any]) -> Any:
        """`make()`, kept under `key` (what callers derive from a script text or a shape
        once: a script's write intent)."""
        found = self.get(key)
        if found is None:
            found = make()
            self.put(key, found)
        return found

    # ---- the IR door --------------------------------------------------------------------
    def compiled(self, ir: TraversalIR, strategies: bool) -> CompiledTraversal | BoundAnswer:
        """`compile_traversal`, shared through the cache when the IR allows it: by shape (its
        slot values bound into a copy of the prepared template) or else by literal IR."""
        return self.prepare(ir, strategies)[0]

    def prepare(
        self, ir: TraversalIR, strategies: bool, may_write: Callable[[TraversalIR], bool] | None = None,
    ) -> tuple[CompiledTraversal | BoundAnswer, bool | None]:
        """The compiled traversal of `ir`, and whether it may write (`may_write(ir)`, asked
        once per entry: the answer depends on step names only, never on slot values; None
        when `may_write` is not given)."""
        values: list[Any] = []
        try:
            key: Any = (strategies, ir_shape(ir, values))
        except NoKey:
            entry = None
        else:
            entry = self.get(key)
            if entry is None or entry is REFUSED:
                entry = self._new_entry(ir, strategies, values, key, entry)
        if entry is None:  # not a plain constant somewhere: compiled afresh
            return compile_traversal(ir, strategies=strategies), may_write(ir) if may_write is not None else None
        writes = entry.writes
        if writes is None and may_write is not None:
            writes = entry.writes = may_write(ir)
        return entry.compiled(values), writes

    def _new_entry(self, ir: TraversalIR, strategies: bool, values: list[Any], key: Any, found: Any) -> Prepared | None:
        """The entry of a shape not prepared yet (kept under `key`), or by literal IR for a
        shape whose slots cannot be rebound (`found` is `REFUSED`, or becomes it here)."""
        if found is REFUSED:
            return self._by_literal(ir, strategies)
        if not values:
            traversal = compile_traversal(ir, strategies=strategies)
            fresh = Prepared(traversal)
            if shareable(traversal):
                self.put(key, fresh)
            return fresh
        entry = prepare_slotted(ir, values, strategies, key)
        if entry is None:
            self.put(key, REFUSED)
            return self._by_literal(ir, strategies)
        self.put(key, entry)
        return entry

    def _by_literal(self, ir: TraversalIR, strategies: bool) -> Prepared | None:
        """The entry by literal IR, for shapes whose slots cannot be rebound."""
        try:
            key: Any = (strategies, "literal", ir_key(ir))
        except NoKey:
            return None
        found = self.get(key)
        if found is not None:
            return found  # type: ignore[no-any-return]
        entry = Prepared(compile_traversal(ir, strategies=strategies))
        if shareable(entry.traversal):  # type: ignore[arg-type]
            self.put(key, entry)
        return entry


def _text_chars(key: Any) -> int:
    """The characters of the script text a key holds (script keys: (kind, text, ...))."""
    return len(key[1]) if type(key) is tuple and len(key) > 1 and type(key[1]) is str else 0


def prepare_slotted(ir: TraversalIR, values: list[Any], strategies: bool, key: Any = None) -> Prepared | None:
    """The prepared template of `ir` whose slot values are `values` (in `ir_shape` order),
    or None when its slots cannot be rebound exactly."""
    markers = [marker(v, i) for i, v in enumerate(values)]
    if key is not None and has_atom(key, {(type(m), m) for m in markers if type(m) is not dict}):
        return None  # a marker value is written in the traversal itself (request maps: by identity)
    return template(with_markers(ir, markers), markers, strategies)


def template(marked: TraversalIR, markers: list[Any], strategies: bool) -> Prepared | None:
    """`marked` (a traversal whose slot values are `markers`) compiled once and planned for
    rebinding; None when it cannot be shared or its slots cannot be rebound exactly."""
    try:
        traversal = compile_traversal(marked, strategies=strategies)
    except Exception:  # the literal compile raises the real error
        return None
    if not shareable(traversal):
        return None
    try:
        plan = make_plan(traversal, markers)
    except Unslottable:
        return None
    source = source_plan(traversal, plan) if traversal.answers else None
    return Prepared(traversal, binder(plan), binder(source) if source is not None else None)


def shareable(traversal: CompiledTraversal) -> bool:
    """Whether one compiled traversal may serve many runs (and then its path flags are kept)."""
    if any(type(s).__name__ in _UNSHAREABLE for s in traversal.walk()):
        return False
    traversal.path_flags = path_flags(traversal)  # type: ignore[attr-defined]
    return True


def path_flags(traversal: CompiledTraversal) -> tuple[bool, bool]:
    """(track paths, full paths): walks every step, so a prepared traversal keeps them."""
    return traversal.needs_paths(), any(s.full_path for s in traversal.walk())


# ---- keys ---------------------------------------------------------------------------------
def _arg_key(a: Any) -> Any:
    if isinstance(a, TraversalIR):
        return ir_key(a)
    if isinstance(a, float):  # by bits: 0.0 == -0.0 but they print differently
        return (type(a), a.hex())
    if isinstance(a, _ATOMS):
        return (type(a), a)
    if type(a) is tuple:
        return (tuple, tuple(_arg_key(x) for x in a))
    if isinstance(a, P):  # predicates are never changed once built; their lists neither
        v = a.value
        vkey = (list, tuple(_arg_key(x) for x in v)) if type(v) is list else _arg_key(v)
        return (type(a), a.op, vkey)
    raise NoKey


def _ins_key(ins: Instruction) -> Any:
    return (ins.name, tuple(_arg_key(a) for a in ins.args))


def ir_key(ir: TraversalIR) -> Any:
    """The literal key of `ir` (every constant with its type: `1`, `1L`, `1.0`, `true` differ);
    raises `NoKey` for an argument that is not a plain constant."""
    return (ir.anonymous, tuple(_ins_key(i) for i in ir.source), tuple(_ins_key(i) for i in ir.steps))


def _shape_arg(a: Any, values: list[Any]) -> Any:
    t = type(a)
    if t in _PLAIN:  # the common case, ahead of the general key
        return (t, a)
    if t is TraversalIR:
        return ir_shape(a, values)
    if t is tuple:
        return (tuple, tuple(_shape_arg(x, values) for x in a))
    return _arg_key(a)


def ir_shape(ir: TraversalIR, values: list[Any]) -> Any:
    """`ir_key` with the slot values left out (their type class kept), appended to `values`."""
    out: list[tuple[Any, ...]] = []
    for n, ins in enumerate(ir.steps):
        name, args = ins.name, ins.args
        kind = slot_kind(ir, n, name, args) if args and (name == "has" or n == 0) else None
        if kind is None:
            out.append((name, tuple([_shape_arg(a, values) for a in args])))
        elif kind == "ids":
            values.extend(args)
            out.append((name, _SLOT, tuple(map(slot_class, args))))
        else:
            out.append((name, tuple([_arg_key(a) for a in args[:-1]]), _SLOT, slot_class(args[-1])))
            values.append(args[-1])
    return (ir.anonymous, tuple([_ins_key(i) for i in ir.source]) if ir.source else (), tuple(out))


def has_atom(key: Any, atoms: set[Any]) -> bool:
    """Whether a (type, value) pair of `atoms` occurs anywhere in a cache key."""
    if type(key) is not tuple:
        return False
    if len(key) == 2 and type(key[0]) is type:
        try:
            if key in atoms:
                return True
        except TypeError:
            pass
    return any(has_atom(k, atoms) for k in key)
