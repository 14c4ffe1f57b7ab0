"""The service registry behind `call()`: named procedures a traversal may call.

TinkerPop 3.6 added `call(name, params)` so that a provider can offer what Gremlin cannot
say (full-text search, graph algorithms) as a step. A service is either a *start* service
(`g.call('tinker.search', [search: 'mar'])`: it produces the traversal's first objects) or a
*streaming* one (`g.V().call('tinker.degree.centrality')`: it maps each incoming object to
zero or more results), or both. `g.call()` / `g.call('--list')` lists the registry
(`with('service', name)` filters, `with('verbose', true)` adds each service's parameters).

Two families exist, each a module of its own:

* `tinker`: TinkerGraph's two sample services (`tinker.search`, `tinker.degree.centrality`),
  which the TinkerPop corpus calls;
* `hugegraph`: every HugeGraph traverser and rank algorithm (`hugegraph.kout`,
  `hugegraph.shortestpath`, `hugegraph.personalrank`, ...), the very steps the REST
  `/traversers` routes run, so both doors give the same answer.

Which families a graph offers: `gremlin.services` in its configuration (a comma list), else
`tinker` for a TinkerGraph-like (`auto` schema) graph and `hugegraph` for a HugeGraph one.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from typing import Any

from gremlin_engine.services import hugegraph, tinker
from gremlin_engine.services.model import Runner, Service

__all__ = ["Runner", "Service", "family_names", "listing", "registry"]

def _families() -> dict[str, Callable[[], list[Service]]]:
    return {"tinker": tinker.services, "hugegraph": hugegraph.services}


_CACHE: dict[str, list[Service]] = {}


def family_names(access: Any) -> tuple[str, ...]:
    """The service families the graph behind `access` offers (see the module docstring)."""
    configured = getattr(access, "services", None)
    if configured:
        return tuple(n.strip() for n in str(configured).split(",") if n.strip())
    return ("tinker",) if getattr(access, "schema_mode", "strict") == "auto" else ("hugegraph",)


def registry(access: Any) -> dict[str, Service]:
    """name -> Service for the graph behind `access`, in listing order."""
    families = _families()
    out: dict[str, Service] = {}
    for fam in family_names(access):
        maker = families.get(fam)
        if maker is None:
            continue
        found = _CACHE.get(fam)
        if found is None:
            found = _CACHE[fam] = maker()
        out.update((s.name, s) for s in found)
    return out


def listing(services: Iterable[Service], params: Mapping[str, Any]) -> list[Any]:
    """What `call('--list')` answers: the names (or, `verbose`, name -> description maps)."""
    wanted = params.get("service")
    chosen = [s for s in services if wanted is None or s.name == wanted]
    if params.get("verbose"):
        return [{s.name: s.describe()} for s in chosen]
    return [s.name for s in chosen]
