"""`call()`: a step that runs a named service of the graph's registry (`gremlin_engine/services`).

Forms (TinkerPop 3.6+): `call()` and `call('--list')` list the services; `call(name)`,
`call(name, map)`, `call(name, traversal)` and `call(name, map, traversal)` run one, its
parameters being the map, then the map the traversal produces, then every `with(key,
value)` (a traversal value is evaluated too). As the first step of a traversal the service
starts it (traversal parameters are evaluated against an empty traverser); elsewhere it runs
for every incoming traverser, one service call per batch.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any

from gremlin_engine.errors import IllegalArgument, StepArgumentError
from gremlin_engine.services import listing, registry
from gremlin_engine.traversal.executor import NOTHING, CompiledTraversal, first_result
from gremlin_engine.traversal.steps.base import Step
from gremlin_engine.traversal.traverser import Context, Traverser, batches

LIST = "--list"


class CallStep(Step):
    name = "call"

    def __init__(self, *args: Any) -> None:
        super().__init__(*args)
        self.service: str = LIST
        self.static: Mapping[str, Any] = {}
        self.dynamic: CompiledTraversal | None = None
        rest = list(args)
        if rest:
            self.service = rest.pop(0)
            if not isinstance(self.service, str):
                raise StepArgumentError(f"call() takes a service name first, not {self.service!r}")
        if rest and isinstance(rest[0], Mapping):
            self.static = rest.pop(0)
        if rest and isinstance(rest[0], CompiledTraversal):
            self.dynamic = rest.pop(0)
        if rest:
            raise StepArgumentError(f"call() takes (name, map?, traversal?), not {args!r}")
        self.options: list[tuple[str, Any]] = []

    def modulate(self, name: str, args: tuple[Any, ...]) -> None:
        if name != "with" or len(args) != 2 or not isinstance(args[0], str):
            super().modulate(name, args)
        self.options.append((args[0], args[1]))

    def children(self) -> list[CompiledTraversal]:
        kids = [self.dynamic] if self.dynamic is not None else []
        return kids + [v for _, v in self.options if isinstance(v, CompiledTraversal)]

    def _params(self, t: Traverser, ctx: Context) -> dict[str, Any]:
        params = dict(self.static)
        if self.dynamic is not None:
            found = first_result(self.dynamic, t, ctx)
            if found is not NOTHING:
                if not isinstance(found, Mapping):
                    raise IllegalArgument(f"call() parameters traversal must produce a map, not {found!r}")
                params.update(found)
        for key, value in self.options:
            if isinstance(value, CompiledTraversal):
                value = first_result(value, t, ctx)
                if value is NOTHING:
                    continue
            params[key] = value
        return params

    def process(self, it: Iterator[Traverser], ctx: Context) -> Iterator[Traverser]:
        services = registry(ctx.access)
        if self.service == LIST:
            yield from self._mid_or_start(it, ctx, lambda objs, params: [listing(services.values(), p) for p in params])
            return
        service = services.get(self.service)
        if service is None:
            raise IllegalArgument(f"The service {self.service!r} is not registered (g.call() lists the services)")
        if self.is_start and not service.start:
            raise IllegalArgument(f"The service {self.service} cannot start a traversal")
        if not self.is_start and not service.streaming:
            raise IllegalArgument(f"The service {self.service} can only start a traversal")
        yield from self._mid_or_start(it, ctx, lambda objs, params: service.run(ctx, objs, params))

    def _mid_or_start(self, it: Iterator[Traverser], ctx: Context, run: Any) -> Iterator[Traverser]:
        if self.is_start:
            seed = ctx.new_traverser(None)
            for obj in run(None, [self._params(seed, ctx)])[0]:
                yield ctx.new_traverser(obj)
            return
        for batch in batches(it, ctx.batch_size, ctx):
            answers = run([t.obj for t in batch], [self._params(t, ctx) for t in batch])
            for t, found in zip(batch, answers, strict=True):
                for obj in found:
                    yield t.split(obj)


STEPS = {"call": (CallStep, "|str|str map/trav|str map trav")}
