"""THE step table: Gremlin step name -> factory and accepted argument signatures.

This is the one place that says which steps exist and what they accept; the compiler
checks every call against it (`UnsupportedStep` / `StepArgumentError` naming the step) and
docs/tests can derive the support matrix from `REGISTRY`.

Signatures are tiny strings: space-separated argument kinds, each optionally suffixed
with `?` (optional) or `*` (any number); alternatives are separated by `|`.
Kinds: any, str, int, num, bool, trav, pred, key (str or T), map, list, none, and token
enum names (T, Scope, Order, Column, Pop, Cardinality, Direction, Pick, Operator, Merge,
DT, WithOptions, GType).
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

from gremlin_engine.errors import StepArgumentError
from gremlin_engine.structure.numbers import is_number
from gremlin_engine.traversal.executor import CompiledTraversal
from gremlin_engine.traversal.predicates import P
from gremlin_engine.traversal.steps import (
    barrier,
    branch,
    filter,
    flatmap,
    map,
    merge,
    mutation,
    paths,
    range,
    sideeffect,
    source,
)
from gremlin_engine.traversal.steps.base import IdentityStep
from gremlin_engine.traversal.tokens import TOKEN_ENUMS, T


@dataclass(frozen=True)
class StepSpec:
    factory: Callable[..., Any]
    signature: str
    family: str


_KINDS: dict[str, Callable[[Any], bool]] = {
    "any": lambda a: True,
    "str": lambda a: isinstance(a, str),
    "int": lambda a: is_number(a) and int(a) == a,
    "num": is_number,
    "bool": lambda a: isinstance(a, bool),
    "trav": lambda a: isinstance(a, CompiledTraversal),
    "pred": lambda a: isinstance(a, P),
    "key": lambda a: isinstance(a, str | T),
    "map": lambda a: isinstance(a, dict),
    "list": lambda a: isinstance(a, list | tuple | set),
    "none": lambda a: a is None,
}
def _instance_test(cls: type) -> Callable[[Any], bool]:
    return lambda a: isinstance(a, cls)


for _name, _cls in TOKEN_ENUMS.items():
    _KINDS[_name] = _instance_test(_cls)


def _parse(sig: str) -> list[list[tuple[list[str], str]]]:
    alts = []
    for alt in sig.split("|"):
        params = []
        for tok in alt.split():
            mod = tok[-1] if tok[-1] in "?*" else ""
            kinds = (tok[:-1] if mod else tok).split("/")
            params.append((kinds, mod))
        alts.append(params)
    return alts


def _match(params: list[tuple[list[str], str]], args: tuple[Any, ...]) -> bool:
    if not params:
        return not args
    (kinds, mod), rest = params[0], params[1:]
    if mod == "*" and not rest:
        # a trailing repeated parameter, checked in a loop rather than one recursion per
        # argument: a REST batch is `inject()` of 500 items
        return "any" in kinds or all(any(_KINDS[k](a) for k in kinds) for a in args)
    ok = bool(args) and any(_KINDS[k](args[0]) for k in kinds)
    if mod == "*":
        return _match(rest, args) or (ok and _match(params, args[1:]))
    if mod == "?":
        return (ok and _match(rest, args[1:])) or _match(rest, args)
    return ok and _match(rest, args[1:])


def check_args(name: str, spec: StepSpec, args: tuple[Any, ...]) -> None:
    if any(_match(alt, args) for alt in _parse(spec.signature)):
        return
    shown = ", ".join(repr(a) for a in args)
    raise StepArgumentError(f"{name}() does not accept ({shown}); expected {name}({spec.signature.replace('|', ' or ')})")


def _s(family: str, table: dict[str, tuple[Callable[..., Any], str]]) -> dict[str, StepSpec]:
    return {name: StepSpec(f, sig, family) for name, (f, sig) in table.items()}


class StepTable(dict[str, StepSpec]):
    """The step table, some of whose families are imported on first need.

    Why: a process that runs the everyday steps (a server answering reads, an embedded
    program) should not pay for modules it never runs. The string, list and conversion
    steps, `match()` and HugeGraph's algorithms are ~1 MiB of a querying process's peak
    RSS (`bench/memory_phases.py`). A name the loaded part lacks loads pending families in
    order until one holds it (all of them for an unknown name), and any walk over the whole
    table (`items()`, `sorted(REGISTRY)`, `len`) loads them all first, so every caller sees
    the complete table; a lookup of a loaded step costs what a plain dict's does."""

    def __init__(self, loaded: dict[str, StepSpec], pending: list[Callable[[], dict[str, StepSpec]]]) -> None:
        super().__init__(loaded)
        self._pending = pending
        self._lock = threading.Lock()

    def load_all(self) -> bool:
        """Imports every pending family; True if there was one (so a miss may now hit)."""
        return self._load_until(None)

    def _load_until(self, name: object) -> bool:
        """Imports pending families in order until one holds `name` (all of them for None
        or an unknown name); True if any was imported."""
        if not self._pending:
            return False
        with self._lock:
            while self._pending:
                self.update(self._pending[0]())
                del self._pending[0]
                if name is not None and dict.__contains__(self, name):
                    break
        return True

    def loaded_items(self) -> list[tuple[str, StepSpec]]:
        """The entries imported so far, loading nothing (for import-time scans)."""
        return list(dict.items(self))

    def get(self, name: str, default: Any = None) -> Any:
        spec = dict.get(self, name)
        if spec is None and self._load_until(name):
            spec = dict.get(self, name)
        return default if spec is None else spec

    def __missing__(self, name: str) -> StepSpec:
        if self._load_until(name):
            return dict.__getitem__(self, name)
        raise KeyError(name)

    def __contains__(self, name: object) -> bool:
        return dict.__contains__(self, name) or (self._load_until(name) and dict.__contains__(self, name))

    def __iter__(self) -> Iterator[str]:
        self.load_all()
        return dict.__iter__(self)

    def __len__(self) -> int:
        self.load_all()
        return dict.__len__(self)

    def keys(self) -> Any:
        self.load_all()
        return dict.keys(self)

    def values(self) -> Any:
        self.load_all()
        return dict.values(self)

    def items(self) -> Any:
        self.load_all()
        return dict.items(self)


def _text_steps() -> dict[str, StepSpec]:
    from gremlin_engine.traversal.steps import conversions, lists
    from gremlin_engine.traversal.steps import strings as text

    return {
        **_s("strings", dict(text.STEPS)),
        **_s("lists", dict(lists.STEPS)),
        **_s("conversions", dict(conversions.STEPS)),
    }


def _match_step() -> dict[str, StepSpec]:
    from gremlin_engine.traversal.steps import match

    return _s("branch", {"match": (match.MatchStep, "trav*")})


def _computer_steps() -> dict[str, StepSpec]:
    """`call()` (the service registry) and the VertexProgram steps (`pageRank`, ...): rare
    in a query, so loaded on first use like the families above."""
    from gremlin_engine.traversal.steps import call, computer

    return {**_s("map", dict(call.STEPS)), **_s("computer", dict(computer.STEPS))}


def _algorithm_steps() -> dict[str, StepSpec]:
    """HugeGraph traverser and rank algorithms (kout, paths, rank, shards, ...): engine steps
    of our own, the REST traversers' engine."""
    from gremlin_engine.algorithms import STEPS as ALGORITHM_STEPS

    return _s("algorithms", ALGORITHM_STEPS)


REGISTRY: StepTable = StepTable({
    **_s("source", {
        "V": (source.VStep, "any*"),
        "E": (source.EStep, "any*"),
        "inject": (source.InjectStep, "any*"),
        "addV": (source.AddVertexStep, "str/trav/none?"),
        "addE": (source.AddEdgeStep, "str/trav"),
        "mergeV": (merge.MergeVStep, "map/trav/none?"),
        "mergeE": (merge.MergeEStep, "map/trav/none?"),
        "io": (sideeffect.IoStep, "str"),
    }),
    **_s("filter", {
        "has": (filter.HasStep, "key/none|key/none any|str/none key/none any"),
        "hasLabel": (filter.has_label, "any any*"),
        "hasId": (filter.has_id, "any any*"),
        "hasKey": (filter.has_key, "any any*"),
        "hasValue": (filter.has_value, "any any*"),
        "hasNot": (filter.HasNotStep, "key"),
        "is": (filter.IsStep, "any"),
        "where": (filter.where_step, "trav|pred|str pred"),
        "not": (filter.NotStep, "trav"),
        "and": (filter.AndStep, "trav*"),
        "or": (filter.OrStep, "trav*"),
        "filter": (filter.TraversalFilterStep, "trav"),
        "dedup": (filter.DedupStep, "Scope? str*"),
        "range": (range.RangeStep, "Scope? int int"),
        "limit": (range.limit_step, "Scope? int"),
        "skip": (range.skip_step, "Scope? int"),
        "tail": (range.TailStep, "Scope? int?"),
        "sample": (range.SampleStep, "Scope? int"),
        "simplePath": (paths.SimplePathStep, ""),
        "cyclicPath": (paths.CyclicPathStep, ""),
        "coin": (filter.CoinStep, "num"),
        "discard": (filter.DiscardStep, ""),
        "none": (filter.none_step, "pred?"),
        "any": (filter.AnyStep, "pred"),
        "all": (filter.AllStep, "pred"),
        "identity": (IdentityStep, ""),
    }),
    **_s("flatmap", {
        "out": (flatmap.OutStep, "str/list*"),
        "in": (flatmap.InStep, "str/list*"),
        "both": (flatmap.BothStep, "str/list*"),
        "outE": (flatmap.OutEStep, "str/list*"),
        "inE": (flatmap.InEStep, "str/list*"),
        "bothE": (flatmap.BothEStep, "str/list*"),
        "outV": (flatmap.OutVStep, ""),
        "inV": (flatmap.InVStep, ""),
        "bothV": (flatmap.BothVStep, ""),
        "otherV": (flatmap.OtherVStep, ""),
        "unfold": (flatmap.UnfoldStep, ""),
        "flatMap": (flatmap.FlatMapTraversalStep, "trav"),
    }),
    **_s("map", {
        "id": (map.IdStep, ""),
        "label": (map.LabelStep, ""),
        "values": (map.ValuesStep, "str/none*"),
        "properties": (map.PropertiesStep, "str/none*"),
        "valueMap": (map.ValueMapStep, "bool? str/none*"),
        "propertyMap": (map.PropertyMapStep, "str/none*"),
        "elementMap": (map.ElementMapStep, "str/none*"),
        "key": (map.KeyStep, ""),
        "value": (map.ValueStep, ""),
        "constant": (map.ConstantStep, "any"),
        "map": (map.MapTraversalStep, "trav"),
        "path": (map.PathStep, ""),
        "select": (map.select_step, "Pop? str str*|Pop? trav|Column"),
        "project": (map.ProjectStep, "str str*"),
        "math": (map.MathStep, "str"),
        "loops": (map.LoopsStep, "str?"),
        "index": (map.IndexStep, ""),
        "sack": (sideeffect.SackStep, "Operator?"),
        "otherwise": (IdentityStep, ""),
    }),
    **_s("barrier", {
        "count": (barrier.CountStep, "Scope?"),
        "sum": (barrier.SumStep, "Scope?"),
        "min": (barrier.MinStep, "Scope?"),
        "max": (barrier.MaxStep, "Scope?"),
        "mean": (barrier.MeanStep, "Scope?"),
        "fold": (barrier.FoldStep, "|any Operator/str"),
        "order": (barrier.OrderStep, "Scope?"),
        "group": (barrier.GroupStep, "str?"),
        "groupCount": (barrier.GroupCountStep, "str?"),
        "tree": (barrier.TreeStep, "str?"),
        "barrier": (barrier.BarrierStep, "int?|Barrier"),
        "cap": (sideeffect.CapStep, "str str*"),
    }),
    **_s("sideeffect", {
        "aggregate": (sideeffect.AggregateStep, "Scope? str"),
        "store": (sideeffect.store_step, "str"),
        "sideEffect": (sideeffect.SideEffectTraversalStep, "trav"),
        "fail": (sideeffect.FailStep, "str?"),
        "subgraph": (sideeffect.SubgraphStep, "str"),
        "profile": (sideeffect.unsupported("profile"), "any*"),
        "property": (mutation.PropertyStep, "Cardinality? any any*|Cardinality? map"),
        "drop": (mutation.DropStep, ""),
    }),
    **_s("branch", {
        "repeat": (branch.RepeatStep, "str? trav"),
        "union": (branch.UnionStep, "trav*"),
        "choose": (branch.ChooseStep, "trav|T|trav trav trav?|pred trav trav?"),
        "branch": (branch.BranchStep, "trav"),
        "coalesce": (branch.CoalesceStep, "trav*"),
        "optional": (branch.OptionalStep, "trav"),
        "local": (branch.LocalStep, "trav"),
    }),
}, [_match_step, _text_steps, _algorithm_steps, _computer_steps])

# HugeGraph REST steps (batch upserts, append/eliminate, index rule, paging): their own package
from gremlin_engine.traversal.steps import hugegraph  # noqa: E402

REGISTRY.update(_s("hugegraph", hugegraph.STEPS))
