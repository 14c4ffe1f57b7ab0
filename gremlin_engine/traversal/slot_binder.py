"""The slot binder the prepared-traversal cache holds (`prepared.py`): one compiled traversal
per IR *shape*, whatever ids and values it carries.

`g.V(1).values('name')` and `g.V(2).values('name')` compile to the same steps apart from the
id. A REST `GET /vertices/{id}`, a bytecode point lookup and a script whose probe arrives in
its bindings all differ only there, so a cache keyed by the literal IR misses on every call
and pays the compiler and the strategies (about 100 us) each time. Here a few argument
positions are *slots*: their values are left out of the cache key (only their type stays in
it) and put back into a cached template for each run.

Slot positions (conservative: the value must flow into the steps untouched):

* the ids of a root traversal's first step `V(id, ...)` / `E(id, ...)`;
* the value of `has(key, value)` and `has(label, key, value)` with string key and label;
* the request map of a root `inject(<map>).hg_<algorithm>()`, the whole traversal of a REST
  traverser call (`rest_adapter/resources/traversers.py`): the map is data the algorithm
  step reads at run time, so a shape per algorithm serves every request. Only a plain
  `dict` in exactly that two-step shape is slotted; its marker is a fresh dict found again
  by identity (never by content), and a copy of it anywhere in the steps refuses the shape.

Apart from request maps, a slot value must be a `str`, a `uuid.UUID` or an `int` / `Int` / `Long` within 64 bits
(the key also keeps whether it fits 32 bits, which decides Integer against Long). Nothing
else (floats, lists, elements, predicates, tokens) is ever slotted.

How a template is made: the IR is compiled with a *marker* in each slot (a value of the same
type no one would write: `"\\x00hugelite slot 0\\x00"`, `2000000000`, ...). Then the
compiled steps are walked and every place holding a marker is recorded in a *plan*: which
containers and step objects lead to it. Binding a run's values copies just those objects
(shallowly; everything else is shared with the template, as cached traversals already are:
steps keep per-run state in the `Context`) and puts the values in. For `V(id)` that is the
traversal, its step list, one step and its id list: a few microseconds.

A shape is refused, and compiled per literal as before, whenever the walk cannot prove the
rebinding exact: a marker missing from the compiled steps (transformed by a step or
strategy), found with another type, inside a set or as a dict key, or embedded in a longer
string (text derived from it), or a marker value already present elsewhere in the IR.
"""

from __future__ import annotations

import uuid
from collections.abc import Callable
from enum import Enum
from typing import Any

from gremlin_engine.structure.numbers import Int, Long
from gremlin_engine.traversal.executor import CompiledTraversal
from gremlin_engine.traversal.ir import Instruction, TraversalIR

#: the types a slot may hold (besides a request map's dict, see `slot_kind`)
SLOT_TYPES = frozenset({str, int, Int, Long, uuid.UUID})
_INT_TYPES = frozenset({int, Int, Long})
_STR_MARK = "\x00hugelite slot "
_INT32_MARK = 2_000_000_000
_INT64_MARK = 0x5EED_0000_0000_0000
_UUID_MARK = 0x5EED << 64


class Unslottable(Exception):
    """The compiled steps cannot be rebound exactly: compile this shape per literal."""


def slot_class(value: Any) -> Any:
    """The part of a slot value that stays in the cache key (None: not slottable). A dict
    is keyed by its type alone: only `_request_slot` ever makes one a slot."""
    return dict if type(value) is dict else _scalar_class(value)


def _scalar_class(value: Any) -> Any:
    t = type(value)
    if t not in SLOT_TYPES:
        return None
    if t in _INT_TYPES:
        if not -(2**63) <= value < 2**63:
            return None
        return (t, -(2**31) <= value < 2**31)
    return t


def marker(value: Any, index: int) -> Any:
    """A value of `value`'s type and size class that stands for slot `index` while compiling."""
    t = type(value)
    if t is dict:  # a fresh object, found by identity; its key trips the copied-text check
        return {f"{_STR_MARK}{index}\x00": None}
    if t is str:
        return f"{_STR_MARK}{index}\x00"
    if t is uuid.UUID:
        return uuid.UUID(int=_UUID_MARK + index)
    base = _INT32_MARK if -(2**31) <= value < 2**31 else _INT64_MARK
    return t(base + index)


def with_markers(ir: TraversalIR, markers: list[Any]) -> TraversalIR:
    """`ir` with the slot values replaced by `markers`, in the order `shape` found them."""
    it = iter(markers)
    return _replace_ir(ir, it)


def _replace_ir(ir: TraversalIR, it: Any) -> TraversalIR:
    steps = []
    for n, ins in enumerate(ir.steps):
        name, args = ins.name, ins.args
        kind = slot_kind(ir, n, name, args)
        if kind == "ids":
            args = tuple(next(it) for _ in args)
        elif kind == "has":
            args = (*(_replace_arg(a, it) for a in args[:-1]), next(it))
        else:
            args = tuple(_replace_arg(a, it) for a in args)
        steps.append(Instruction(name, args, ins.pos))
    return TraversalIR(ir.source, tuple(steps), ir.anonymous)


def _replace_arg(a: Any, it: Any) -> Any:
    if isinstance(a, TraversalIR):
        return _replace_ir(a, it)
    if type(a) is tuple:
        return tuple(_replace_arg(x, it) for x in a)
    return a


def slot_kind(ir: TraversalIR, n: int, name: str, args: tuple[Any, ...]) -> str | None:
    """"ids" when every argument of instruction `n` is a slot, "has" when its last one is."""
    if name == "has":
        if len(args) == 2:
            ok = type(args[0]) is str
        elif len(args) == 3:
            ok = type(args[0]) is str and type(args[1]) is str
        else:
            return None
        return "has" if ok and _scalar_class(args[-1]) is not None else None
    if n == 0 and name in ("V", "E") and args and not ir.anonymous:
        for a in args:
            if _scalar_class(a) is None:
                return None
        return "ids"
    if n == 0 and name == "inject" and _request_slot(ir, args):
        return "ids"
    return None


def _request_slot(ir: TraversalIR, args: tuple[Any, ...]) -> bool:
    """`inject(<dict>).hg_<algorithm>()` as a whole root traversal: the request map is a slot.

    Kept to this one shape on purpose: an algorithm step takes no arguments and reads the
    map only when it runs, so no compiler decision or strategy can depend on its content."""
    if ir.anonymous or ir.source or len(ir.steps) != 2 or len(args) != 1 or type(args[0]) is not dict:
        return False
    last = ir.steps[1]
    return last.name.startswith("hg_") and not last.args


# ---- plans: where the markers ended up ---------------------------------------------------
# A plan node is ("slot", index) or (kind, original object, [(position, child plan)...]) with
# kind "list", "tuple", "dict" or "obj" (position: index, key or attribute name); "obj" nodes
# also list the object's __slots__ names to copy.


def make_plan(traversal: CompiledTraversal, markers: list[Any]) -> Any:
    """The plan that rebinds `traversal`'s markers; raises `Unslottable`."""
    index: dict[Any, int] = {}
    for i, m in enumerate(markers):
        # request maps by identity (an int key cannot collide with a (type, value) pair)
        index[id(m) if type(m) is dict else (type(m), m)] = i
    found: set[int] = set()
    plan = _plan(traversal, index, found, {}, set())  # `markers` keeps the dicts (and ids) alive
    if len(found) != len(markers) or plan is None:
        raise Unslottable("a slot value did not reach the compiled steps unchanged")
    return plan


def source_plan(traversal: CompiledTraversal, plan: Any) -> Any:
    """The part of `plan` inside the source step of a one-fused-step traversal (the step's
    `answer_source` attribute names it; "" the step itself), when every slot sits there;
    else None. A `prepared.BoundAnswer` binds that part alone."""
    if plan[0] != "obj" or plan[1] is not traversal or [p[0] for p in plan[2]] != ["steps"]:
        return None
    steps_plan = plan[2][0][1]
    if steps_plan[0] != "list" or [p[0] for p in steps_plan[2]] != [0]:
        return None
    step_plan = steps_plan[2][0][1]
    attr = getattr(traversal.steps[0], "answer_source", None)
    if attr is None or step_plan[0] != "obj":
        return None
    if attr == "":
        return step_plan
    parts = step_plan[2]
    if len(parts) != 1 or parts[0][0] != attr or parts[0][1][0] != "obj":
        return None
    return parts[0][1]


def _walkable(obj: Any) -> bool:
    t = type(obj)
    return (t.__module__ or "").startswith("gremlin_engine.") and not isinstance(obj, Enum | type)


def _plan(obj: Any, index: dict[Any, int], found: set[int], memo: dict[int, Any], busy: set[int]) -> Any:
    t = type(obj)
    if t in SLOT_TYPES:
        i = index.get((t, obj))
        if i is not None:
            found.add(i)
            return ("slot", i)
        if t is str:
            if _STR_MARK in obj:
                raise Unslottable("a slot value was copied into other text")
        elif any(type(k) is tuple and obj == k[1] and k[0] is not t for k in index):
            raise Unslottable("a slot value changed type")
        return None
    if obj is None or t in (bool, float) or isinstance(obj, Enum):
        return None
    oid = id(obj)
    if t is dict and oid in index:
        found.add(index[oid])
        return ("slot", index[oid])
    if oid in memo:
        return memo[oid]
    if oid in busy:
        raise Unslottable("the compiled steps refer back to themselves")
    busy.add(oid)
    try:
        plan = _plan_container(obj, t, index, found, memo, busy)
    finally:
        busy.discard(oid)
    memo[oid] = plan
    return plan


def _plan_container(obj: Any, t: type, index: dict[Any, int], found: set[int], memo: dict[int, Any], busy: set[int]) -> Any:
    parts: list[tuple[Any, Any]] = []
    if t is list or t is tuple:
        for i, x in enumerate(obj):
            sub = _plan(x, index, found, memo, busy)
            if sub is not None:
                parts.append((i, sub))
        kind = "list" if t is list else "tuple"
    elif t is dict:
        for k, x in obj.items():
            if _plan(k, index, found, memo, busy) is not None:
                raise Unslottable("a slot value became a map key")
            sub = _plan(x, index, found, memo, busy)
            if sub is not None:
                parts.append((k, sub))
        kind = "dict"
    elif isinstance(obj, set | frozenset):
        for x in obj:
            if _plan(x, index, found, memo, busy) is not None:
                raise Unslottable("a slot value went into a set")
        return None
    elif isinstance(obj, list | tuple | dict):
        for x in (obj.values() if isinstance(obj, dict) else obj):
            if _plan(x, index, found, memo, busy) is not None:
                raise Unslottable(f"a slot value went into a {t.__name__}")
        return None
    elif _walkable(obj):
        slot_names = _slot_names(t)
        for name, x in [*getattr(obj, "__dict__", {}).items(), *((n, getattr(obj, n)) for n in slot_names if hasattr(obj, n))]:
            sub = _plan(x, index, found, memo, busy)
            if sub is not None:
                parts.append((name, sub))
        return ("obj", obj, parts, tuple(n for n in slot_names if hasattr(obj, n))) if parts else None
    else:
        return None
    return (kind, obj, parts) if parts else None


def _slot_names(cls: type) -> list[str]:
    return [n for c in cls.__mro__ for n in getattr(c, "__slots__", ()) if n not in ("__dict__", "__weakref__")]


# ---- binding ------------------------------------------------------------------------------
# A plan is turned once into nested closures, so binding a run's values is a handful of
# shallow copies with no plan interpretation (it runs on every cache hit).

Binder = Callable[[list[Any]], Any]


def binder(plan: Any) -> Binder:
    """The function that copies the planned template with a run's values in its slots."""
    seen: dict[int, int] = {}
    _count(plan, seen)
    shared = {pid for pid, n in seen.items() if n > 1}
    make = _maker(plan, shared, {})
    if not shared:  # no object reached twice: no memo to keep (every maker's memo defaults to None)
        return make  # type: ignore[no-any-return]

    def bind(values: list[Any]) -> Any:
        return make(values, {})

    return bind


def bind(plan: Any, values: list[Any]) -> Any:
    """A copy of the planned template with `values` in its slots (builds a binder each call:
    callers that bind often keep `binder(plan)`)."""
    return binder(plan)(values)


def _count(plan: Any, seen: dict[int, int]) -> None:
    if plan[0] == "slot":
        return
    pid = id(plan)
    seen[pid] = seen.get(pid, 0) + 1
    if seen[pid] == 1:
        for _pos, sub in plan[2]:
            _count(sub, seen)


def _maker(plan: Any, shared: set[int], made: dict[int, Any]) -> Any:
    pid = id(plan)
    if pid in made:
        return made[pid]
    kind, orig = plan[0], plan[1]
    parts = tuple((pos, sub[1], None) if sub[0] == "slot" else (pos, -1, _maker(sub, shared, made)) for pos, sub in plan[2])
    memoised = pid in shared
    make: Any

    if kind == "obj":
        cls = type(orig)
        state = getattr(orig, "__dict__", None)
        slot_names = plan[3]
        if state is not None and not slot_names and not memoised:
            new_obj = object.__new__

            def make(values: list[Any], memo: Any = None) -> Any:  # the common case: a plain object
                new = new_obj(cls)
                d = new.__dict__
                d.update(state)
                for name, i, fn in parts:
                    d[name] = values[i] if fn is None else fn(values, memo)
                return new
        elif state is None and not memoised:
            # a slotted object (a predicate `P`): the slots no part fills copied from the
            # template once each, then the parts; none is set twice
            filled = {name for name, _i, _fn in parts}
            fixed = tuple((name, getattr(orig, name)) for name in slot_names if name not in filled)
            new_obj, set_slot = object.__new__, object.__setattr__

            def make(values: list[Any], memo: Any = None) -> Any:
                new = new_obj(cls)
                for name, value in fixed:
                    set_slot(new, name, value)
                for name, i, fn in parts:
                    set_slot(new, name, values[i] if fn is None else fn(values, memo))
                return new
        else:
            def make(values: list[Any], memo: Any = None) -> Any:
                if memoised and pid in memo:
                    return memo[pid]
                new = object.__new__(cls)
                if state is not None:
                    new.__dict__.update(state)
                for name in slot_names:
                    object.__setattr__(new, name, getattr(orig, name))
                if memoised:
                    memo[pid] = new  # before the children: a back reference finds the copy
                for name, i, fn in parts:
                    object.__setattr__(new, name, values[i] if fn is None else fn(values, memo))
                return new
    else:
        rebuild = tuple if kind == "tuple" else None
        copy_of = dict if kind == "dict" else list
        if len(parts) == 1 and parts[0][2] is None and len(orig) == 1 and not memoised and kind != "dict":
            slot = parts[0][1]  # a one-item list or tuple holding one slot: `[id]`, `(id,)`
            if rebuild is None:
                def make(values: list[Any], memo: Any = None) -> Any:
                    return [values[slot]]
            else:
                def make(values: list[Any], memo: Any = None) -> Any:
                    return (values[slot],)
        else:
            def make(values: list[Any], memo: Any = None) -> Any:
                if memoised and pid in memo:
                    return memo[pid]
                filled = copy_of(orig)
                for pos, i, fn in parts:
                    filled[pos] = values[i] if fn is None else fn(values, memo)
                new = filled if rebuild is None else rebuild(filled)
                if memoised:
                    memo[pid] = new
                return new

    made[pid] = make
    return make

