"""Script text straight to a direct plan: `g.V(vid).values('name')` with `vid` bound, in one
dict lookup, a type check of the bindings and one read.

Between a script and its fused read stand the parse cache, the template cache
(`syntax/templates.py`), the compiled-traversal cache and a `Session`: each cheap, together
several times the read. A script whose template compiles to a `Direct`
(`traversal/direct.py`) is remembered here as a `ScriptPlan`: which binding (or script
constant) fills each slot of the plan. The next call with bindings of the same kinds
builds the slot values from its bindings and runs the plan (`runtime/direct.py`).

Exactness. A plan is found under the script text, the default graph and the aliases
(`_key`), then under the *signature* of the bindings: for each name the script mentions,
the slot class of its binding (`slots.slot_class`: the Java type family, and for integers
whether they fit 32 bits) or that it is not bound. That is everything the template's
classification of names and the compiled shape depend on, except the set of graph names,
and the registry drops all plans whenever a graph is opened, created or dropped
(`GraphRegistry.direct_scripts`). A plan is learnt only after the ordinary path has run the
script successfully, and only when every binding the script uses lands in a slot
(checked by compiling with marker values: a marker anywhere else in the shape, say in
`values(key)` or `limit(n)`, refuses), so a binding can never change anything but a slot
value. Anything else (other terminals than `toList()`, several statements, a graph with
strategies off or auto schema, `templates.ENABLED` off) keeps running the ordinary way.
"""

from __future__ import annotations

from typing import Any

from gremlin_engine import traversal as engine
from gremlin_engine.runtime import direct, direct_fast
from gremlin_engine.structure.numbers import Int, Long
from gremlin_engine.syntax import templates
from gremlin_engine.traversal.slots import marker, slot_class

#: "this binding name is not bound" in a signature
_UNBOUND = "unbound"
#: `find()`: no plan known for these bindings yet; the ordinary run should `learn()` after
LEARN: Any = object()
#: entries kept per registry before the table is emptied (scripts are few in practice)
MAX_ENTRIES = 2048


class ScriptPlan:
    """A script's direct plan: the graph it reads and, per slot, a binding name (or None
    and the script's constant)."""

    __slots__ = ("graph", "direct", "recipe", "single", "fast", "timeless")

    def __init__(self, graph: Any, plan: Any, recipe: tuple[tuple[str | None, Any], ...]) -> None:
        self.graph = graph  # the Graph itself: the registry drops every plan when its graphs change
        self.direct = plan
        self.recipe = recipe
        #: the binding name when the plan's one slot is one binding (the usual probe)
        self.single = recipe[0][0] if len(recipe) == 1 else None
        #: `direct_fast.prepare`'s callable for a one-binding plan (None: always `direct.run`)
        self.fast = direct_fast.prepare(graph, plan) if self.single is not None else None
        #: the callable takes the value alone; else `(value, timeout_ms)` (`direct_fast.timeless`)
        self.timeless = direct_fast.timeless(plan)

    def run(self, bindings: dict[str, Any], timeout_ms: float | None, cancel: Any) -> Any:
        fast = self.fast
        if fast is not None and cancel is None:  # a token is checked by `direct.run`
            found = fast(bindings[self.single]) if self.timeless else fast(bindings[self.single], timeout_ms)
            if found is not direct_fast.SLOW:
                return found
        return self.general(bindings, timeout_ms, cancel)

    def general(self, bindings: dict[str, Any], timeout_ms: float | None, cancel: Any) -> Any:
        """`run` without the prepared callable: `direct.run` with its own fall-backs."""
        graph = self.graph
        if not direct.usable(graph):
            return direct.FALLBACK
        single = self.single
        values = [bindings[single]] if single is not None else [c if n is None else bindings[n] for n, c in self.recipe]
        return direct.run(graph, self.direct, values, timeout_ms, cancel)


class _Entry:
    """Everything known about one (script, default graph, aliases): the names the script
    mentions and a plan (or None: does not qualify) per binding signature."""

    __slots__ = ("names", "plans")

    def __init__(self, names: tuple[str, ...]) -> None:
        self.names = names
        self.plans: dict[tuple[Any, ...], ScriptPlan | None] = {}


def _key(script: str, graph_name: str | None, aliases: Any) -> tuple[Any, ...]:
    return (script, graph_name, tuple(aliases.items()) if aliases else ())


def _signature(names: tuple[str, ...], bindings: Any) -> tuple[Any, ...]:
    return tuple([_class_of(bindings[n]) if n in bindings else _UNBOUND for n in names])


_INTS = (int, Int, Long)


def _class_of(value: Any) -> Any:
    """`slot_class`, with the common cases (an int or a string id) answered inline."""
    t = type(value)
    if t in _INTS:
        if -9_223_372_036_854_775_808 <= value < 9_223_372_036_854_775_808:
            return (t, -2_147_483_648 <= value < 2_147_483_648)
        return None
    if t is str:
        return str
    return slot_class(value)


def find(registry: Any, graph_name: str | None, script: str, bindings: Any, aliases: Any) -> Any:
    """The `ScriptPlan` for this call, None when it must run the ordinary way, or `LEARN`
    when nothing is known yet (run it the ordinary way, then `learn`). A script mentioning
    one name (the usual probe) gets its signature inline: this runs on every call."""
    table = getattr(registry, "direct_scripts", None)
    if table is None or not templates.ENABLED:
        return None
    entry = table.get((script, graph_name, tuple(aliases.items()) if aliases else ()))
    if entry is None:
        return LEARN
    names = entry.names
    if len(names) == 1:
        name = names[0]
        if bindings and name in bindings:
            value = bindings[name]
            return entry.plans.get((str,) if type(value) is str else (_class_of(value),), LEARN)
        return entry.plans.get(_UNBOUND_SIG, LEARN)
    if not names:
        return None
    if len(names) == 2 and bindings:  # `g` and one binding: the usual probe, unrolled
        a, b = names
        return entry.plans.get((
            (str if type(bindings[a]) is str else _class_of(bindings[a])) if a in bindings else _UNBOUND,
            (str if type(bindings[b]) is str else _class_of(bindings[b])) if b in bindings else _UNBOUND,
        ), LEARN)
    return entry.plans.get(_signature(names, bindings or {}), LEARN)


_UNBOUND_SIG = (_UNBOUND,)


def learn(registry: Any, graph_name: str | None, script: str, bindings: Any, aliases: Any) -> None:
    """Records whether the script, with bindings of these kinds, has a direct plan. Called
    after the ordinary run of it succeeded; never raises."""
    table = getattr(registry, "direct_scripts", None)
    if table is None:
        return
    bindings = bindings or {}
    key = _key(script, graph_name, aliases)
    names = templates.script_names(script)
    if len(table) >= MAX_ENTRIES:
        table.clear()
    entry = table.get(key)
    if entry is None:
        entry = table[key] = _Entry(names or ())
    if not entry.names:
        return
    sig = _signature(entry.names, bindings)
    try:
        plan = None if None in sig else _plan(registry, graph_name, script, bindings, aliases, entry.names)
    except Exception:
        plan = None
    entry.plans[sig] = plan


def _plan(registry: Any, graph_name: str | None, script: str, bindings: dict[str, Any], aliases: Any,
          names: tuple[str, ...]) -> ScriptPlan | None:
    from gremlin_engine.runtime.host import RuntimeHost

    host = RuntimeHost(None, graph_name, registry.names(), bindings, aliases)  # type: ignore[arg-type]
    template = templates.template_for(script, host)
    if template is None:
        return None
    if template.terminal is not None and (template.terminal[0] != "toList" or template.terminal[1]):
        return None
    graph = registry._graphs.get(template.graph)
    if graph is None or not direct.usable(graph):
        return None
    bound = [n for n in names if n in bindings]
    markers = {n: marker(bindings[n], 1_000 + i) for i, n in enumerate(bound)}
    marked = template.traversal({**bindings, **markers}).ir
    found = engine.shape_of(marked)
    if found is None:
        return None
    shape, slot_values = found
    by_atom = {(type(m), m): n for n, m in markers.items()}
    if engine.has_atom(shape, set(by_atom)):
        return None  # a binding outside a slot: its value is part of the shape
    recipe = tuple((by_atom.get((type(v), v)), v) for v in slot_values)
    if {n for n, _c in recipe if n is not None} != set(bound):
        return None
    real = template.traversal(bindings).ir
    again = engine.shape_of(real)
    if again is None or again[0] != shape:
        return None
    plan = engine.direct_plan(real)
    if plan is None:
        return None
    return ScriptPlan(graph, plan[0], tuple((n, None if n is not None else c) for n, c in recipe))
