"""Request routing by table lookup instead of trying every route in turn.

Starlette's `Router` matches a request against its routes one regular expression at a
time. This server has close to 200 routes (every graph-scoped route is served under two
prefixes), so `GET /graphs/{g}/graph/vertices/{id}` was route 100 and spent ~115 µs in
matching alone, more than the engine's whole point lookup.

`IndexedRouter` keeps Starlette's routes and semantics and finds a request's routes with a
few dictionary lookups. Every route template made of whole segments (`literal`, `{name}`,
and a final `{name:path}`) belongs to a *shape*: where its `{name}` segments are, how many
segments it has (or, ending in `{name:path}`, how many come before that). A shape keeps a
table from the tuple of its literal segments to its routes. A request path is split once;
each shape of that segment count looks its literals up, and the parameters are read
straight from the segments: no regular expression, no per-route work. The hits are taken in
the routes' original order: the first whose methods allow the request answers (FULL);
otherwise the first hit answers 405 (PARTIAL), exactly as Starlette's scan would.

What the tables cannot decide exactly goes to Starlette itself: routes whose templates are
not whole segments (or are mounts) are matched by their own `matches()`, a path holding a
newline (Starlette's `$` and `.` treat it specially) is scanned as Starlette scans, and when
nothing matches, Starlette's router answers (404, slash redirects), as before.

A matched plain async endpoint is called directly with a `Request`; its exceptions go to
whoever handles them outside (the app's front door, `app.py`), which is what Starlette's
`request_response` wrapper would have done via the same exception table.
"""

from __future__ import annotations

import inspect
from collections.abc import Callable
from operator import itemgetter
from typing import Any

from starlette.requests import Request
from starlette.routing import BaseRoute, Match, Route, Router, WebSocketRoute, get_route_path
from starlette.types import Receive, Scope, Send

#: a route that matched: (index in `routes`, route, its path parameters)
Hit = tuple[int, BaseRoute, dict[str, str]]


class _Shape:
    """Templates with the same segment count and `{name}` positions (and the same tail)."""

    __slots__ = ("size", "key_of", "param_at", "tail", "table", "last_literal")

    def __init__(self, size: int, literal_at: tuple[int, ...], param_at: tuple[tuple[int, str], ...],
                 tail: str | None) -> None:
        self.size = size  # segments before the tail, or all of them
        # the last segment is a literal: the table key depends on it (never for a tail)
        self.last_literal = tail is None and bool(literal_at) and literal_at[-1] == size - 1
        # the request's literal segments as the table key, read in C (a str for one literal)
        self.key_of: Callable[[list[str]], Any] = itemgetter(*literal_at) if literal_at else _no_literals
        self.param_at = param_at
        self.tail = tail  # the {name:path} parameter's name
        self.table: dict[Any, list[tuple[int, BaseRoute]]] = {}

    def key(self, literals: tuple[str, ...]) -> Any:
        return literals[0] if len(literals) == 1 else literals

    def params(self, segments: list[str]) -> dict[str, str] | None:
        params: dict[str, str] = {}
        for i, name in self.param_at:
            value = segments[i]
            if not value:  # `{name}` is `[^/]+`: never empty
                return None
            params[name] = value
        if self.tail is not None:
            params[self.tail] = "/".join(segments[self.size:])
        return params


def _no_literals(_segments: list[str]) -> tuple[()]:
    return ()


class _HeadPlan:
    """The routes matching every path `<head>/<last>` whose `last` is not empty and not one
    of `volatile` (the literals some template has in that position), for one scope type.

    Such paths differ only in `last`, which lands in one parameter per matching shape
    (`{id}`, or the end of a `{id:path}` tail): the hits are fixed, the parameters are the
    fixed ones plus that one. Found once per head, a GET by id is then routed with one
    dictionary lookup and one small dict per request."""

    __slots__ = ("volatile", "templates", "order")

    def __init__(self, volatile: frozenset[str],
                 templates: list[tuple[dict[str, str], str, str, list[tuple[int, BaseRoute]]]]) -> None:
        self.volatile = volatile
        # per matching shape: (fixed params, name taking `last`, its prefix, table entries)
        self.templates = templates
        # the hits in route order: (index, route, template number)
        order = [(n, route, k) for k, t in enumerate(templates) for n, route in t[3]]
        order.sort(key=_index)
        self.order = order

    def hits(self, last: str) -> list[Hit]:
        templates = self.templates
        if len(templates) == 1:
            fixed, name, prefix, entries = templates[0]
            params = dict(fixed)
            params[name] = prefix + last if prefix else last
            return [(n, route, params) for n, route in entries]
        made = []
        for fixed, name, prefix, _entries in templates:
            params = dict(fixed)
            params[name] = prefix + last
            made.append(params)
        return [(n, route, made[k]) for n, route, k in self.order]


#: head plans kept per router (heads are graph-scoped collection paths: few; ids holding
#: a `/` make more, so the table stops growing here and such paths are matched uncached)
MAX_HEAD_PLANS = 4096


def _parse(path: str) -> tuple[int, tuple[int, ...], tuple[tuple[int, str], ...], str | None, tuple[str, ...]] | None:
    """(size, literal positions, param positions, tail name, literals) of a template, or None
    when it is not made of whole segments with str/path parameters only."""
    segments = path[1:].split("/")
    literal_at: list[int] = []
    param_at: list[tuple[int, str]] = []
    literals: list[str] = []
    for i, seg in enumerate(segments):
        if "{" not in seg and "}" not in seg:
            literal_at.append(i)
            literals.append(seg)
            continue
        if not (seg.startswith("{") and seg.endswith("}")) or seg.count("{") != 1:
            return None
        name, _, kind = seg[1:-1].partition(":")
        if kind == "path" and i == len(segments) - 1:
            return i, tuple(literal_at), tuple(param_at), name, tuple(literals)
        if kind not in ("", "str"):
            return None
        param_at.append((i, name))
    return len(segments), tuple(literal_at), tuple(param_at), None, tuple(literals)


def _index(hit: Hit) -> int:
    return hit[0]


def _plain(route: Route) -> bool:
    """True when the route's app is just Starlette's `request_response(endpoint)` (no route
    middleware, no body limit): calling the endpoint directly then changes nothing."""
    app = route.app
    return getattr(app, "__module__", None) == "starlette.routing" and \
        getattr(app, "__qualname__", None) == "request_response.<locals>.app"


class IndexedRouter(Router):
    """A `Router` that finds a request's routes by table lookup (see the module doc)."""

    def __init__(self, routes: list[BaseRoute], **kwargs: Any) -> None:
        super().__init__(routes, **kwargs)
        self._exact: dict[tuple[str, int], list[_Shape]] = {}  # (scope type, segments) -> shapes
        self._tailed: dict[str, list[_Shape]] = {}  # scope type -> shapes ending in {name:path}
        self._unindexed: list[int] = []  # always matched by route.matches()
        self._direct: dict[int, Any] = {}  # route index -> async endpoint(request) to call directly
        shapes: dict[tuple[Any, ...], _Shape] = {}
        for n, route in enumerate(self.routes):
            path = getattr(route, "path", None)
            parsed = _parse(path) if isinstance(path, str) and path.startswith("/") else None
            if parsed is None or type(route) not in (Route, WebSocketRoute):
                self._unindexed.append(n)
                continue
            size, literal_at, param_at, tail, literals = parsed
            kind = "http" if isinstance(route, Route) else "websocket"
            key = (kind, size, literal_at, param_at, tail)
            shape = shapes.get(key)
            if shape is None:
                shape = shapes[key] = _Shape(size, literal_at, param_at, tail)
                if tail is None:
                    self._exact.setdefault((kind, size), []).append(shape)
                else:
                    self._tailed.setdefault(kind, []).append(shape)
            shape.table.setdefault(shape.key(literals), []).append((n, route))
            endpoint = getattr(route, "endpoint", None)
            if isinstance(route, Route) and inspect.iscoroutinefunction(endpoint) and _plain(route):
                self._direct[n] = endpoint
        self._by_size: dict[tuple[str, int], list[_Shape]] = {}
        # (scope type, segments) -> the literals some template has as its last segment
        self._volatile: dict[tuple[str, int], frozenset[str]] = {}
        for (kind, size), exact in self._exact.items():
            last = {key if isinstance(key, str) else key[-1]
                    for shape in exact if shape.last_literal for key in shape.table}
            self._volatile[(kind, size)] = frozenset(last)
        self._heads: dict[tuple[str, str], _HeadPlan] = {}  # (scope type, head) -> plan
        # (scope type, path) -> the hits of a path whose last segment some template has as
        # a literal (never handed out: `lookup` copies the params)
        self._literal: dict[tuple[str, str], list[Hit]] = {}

    def _shapes(self, kind: str, size: int) -> list[_Shape]:
        shapes = self._by_size.get((kind, size))
        if shapes is None:
            shapes = self._exact.get((kind, size), []) + [s for s in self._tailed.get(kind, ()) if s.size < size]
            if size <= 64:
                self._by_size[(kind, size)] = shapes
        return shapes

    def lookup(self, path: str, kind: str) -> list[Hit] | None:
        """The indexed routes whose templates match `path` for a `kind` ('http' or
        'websocket') scope, in route order; None when the path must be scanned instead."""
        if not path.startswith("/") or "\n" in path:
            return None
        cut = path.rfind("/")
        last = path[cut + 1:]
        if last:
            plan = self._heads.get((kind, path[:cut]))
            if plan is None:
                plan = self._head_plan(kind, path, cut)
            if last not in plan.volatile:
                return plan.hits(last)
            # a literal last segment (`.../traversers/kout`, `.../vertices/batch`): the hits
            # of such a path are fixed, found once (each lookup still gets its own dicts)
            fixed = self._literal.get((kind, path))
            if fixed is None:
                fixed = self._match(path[1:].split("/"), kind)
                if len(self._literal) < MAX_HEAD_PLANS:
                    self._literal[(kind, path)] = fixed
                    fixed = [(n, route, dict(params)) for n, route, params in fixed]
                return fixed
            return [(n, route, dict(params)) for n, route, params in fixed]
        return self._match(path[1:].split("/"), kind)

    def _head_plan(self, kind: str, path: str, cut: int) -> _HeadPlan:
        """The plan of the paths `path[:cut]/<last>` (see `_HeadPlan`), kept when there is room."""
        segments: list[str] = path[1:cut].split("/") if cut > 0 else []
        last_at = len(segments)
        segments.append("")  # stands for `last`: read by no table key the plan uses
        templates = []
        for shape in self._shapes(kind, last_at + 1):
            if shape.last_literal:
                continue  # matches only when `last` is one of the volatile literals
            entries = shape.table.get(shape.key_of(segments))
            if entries is None:
                continue
            fixed: dict[str, str] = {}
            name, prefix = "", ""
            for i, param in shape.param_at:
                if i == last_at:
                    name = param
                elif not segments[i]:
                    break  # `{name}` never matches an empty segment
                else:
                    fixed[param] = segments[i]
            else:
                if shape.tail is not None:
                    name = shape.tail
                    prefix = "".join(s + "/" for s in segments[shape.size:last_at])
                templates.append((fixed, name, prefix, entries))
        plan = _HeadPlan(self._volatile.get((kind, last_at + 1), frozenset()), templates)
        if len(self._heads) < MAX_HEAD_PLANS:
            self._heads[(kind, path[:cut])] = plan
        return plan

    def _match(self, segments: list[str], kind: str) -> list[Hit]:
        """`lookup` for a split path, shape by shape."""
        found: list[Hit] = []
        several = False
        for shape in self._shapes(kind, len(segments)):
            entries = shape.table.get(shape.key_of(segments))
            if entries is None:
                continue
            params = shape.params(segments)
            if params is None:
                continue
            several = bool(found)
            found += [(n, route, params) for n, route in entries]
        if several:
            found.sort(key=_index)
        return found

    def candidates(self, path: str) -> list[BaseRoute]:
        """The routes that might match `path` (any scope type), in their original order."""
        hits = self.lookup(path, "http")
        if hits is None:
            return list(self.routes)
        ws = self.lookup(path, "websocket") or []
        order = sorted({n for n, _r, _p in hits + ws} | set(self._unindexed))
        return [self.routes[n] for n in order]

    async def app(self, scope: Scope, receive: Receive, send: Send) -> None:
        kind = scope["type"]
        if kind == "lifespan":
            await super().app(scope, receive, send)
            return
        if "router" not in scope:
            scope["router"] = self
        hits = self.lookup(get_route_path(scope) if scope.get("root_path") else scope["path"], kind)
        if hits is None:
            await super().app(scope, receive, send)  # Starlette's own scan
            return
        if self._unindexed:
            hits = self._with_unindexed(hits, scope)
        partial: Hit | None = None
        method = scope.get("method")
        for hit in hits:
            route = hit[1]
            if hit[0] < 0:  # an unindexed route, matched by Starlette (child scope in hit[2])
                match, child_scope = route.matches(scope)
                if match is Match.FULL:
                    scope["route"] = route
                    scope.update(child_scope)
                    await route.handle(scope, receive, send)
                    return
                if partial is None:
                    partial = hit
                continue
            methods = getattr(route, "methods", None)
            if kind == "http" and methods and method not in methods:
                if partial is None:
                    partial = hit
                continue
            endpoint = self._direct.get(hit[0])
            if endpoint is None:
                await self._handle(hit, scope, receive, send, direct=False)
                return
            # the everyday case, `_handle` inlined: a plain endpoint called with a Request
            given = scope.get("path_params")
            scope["route"] = route
            scope["endpoint"] = endpoint
            scope["path_params"] = {**given, **hit[2]} if given else hit[2]  # lookup's own dict
            response = await endpoint(Request(scope, receive, send))
            await response(scope, receive, send)
            return
        if partial is not None:
            await self._handle(partial, scope, receive, send, direct=False)  # 405
            return
        await super().app(scope, receive, send)  # nothing here: Starlette's own 404/redirects

    def _with_unindexed(self, hits: list[Hit], scope: Scope) -> list[Hit]:
        """Adds the unindexed routes that match at all (as index -1 - n), in route order."""
        extra: list[tuple[int, Hit]] = []
        for n in self._unindexed:
            route = self.routes[n]
            if route.matches(scope)[0] is not Match.NONE:
                extra.append((n, (-1 - n, route, {})))
        if not extra:
            return hits
        merged = [(h[0], h) for h in hits] + extra
        merged.sort(key=lambda x: x[0])
        return [h for _n, h in merged]

    async def _handle(self, hit: Hit, scope: Scope, receive: Receive, send: Send, direct: bool) -> None:
        n, route, params = hit
        if n < 0:
            scope["route"] = route
            scope.update(route.matches(scope)[1])
            await route.handle(scope, receive, send)
            return
        given = scope.get("path_params")
        scope["route"] = route
        scope["endpoint"] = route.endpoint  # type: ignore[attr-defined]
        scope["path_params"] = {**given, **params} if given else dict(params)
        endpoint = self._direct.get(n) if direct else None
        if endpoint is None:
            await route.handle(scope, receive, send)
            return
        response = await endpoint(Request(scope, receive, send))
        await response(scope, receive, send)
