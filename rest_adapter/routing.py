"""Request routing that does not try every route in turn.

Starlette's `Router` matches a request against its routes one regular expression at a
time. This server has close to 200 routes (every graph-scoped route is served under two
prefixes), so `GET /graphs/{g}/graph/vertices/{id}` was route 100 and spent ~115 µs in
matching alone, more than the engine's whole point lookup.

`IndexedRouter` keeps Starlette's routes and semantics and only narrows the search: a trie
over the literal path segments of the route templates gives, for a request path, the few
routes that could possibly match (a superset: `{param}` segments match any one segment,
`{param:path}` anything after it); those are then matched by Starlette itself, in their
original order. When none of them matches, the request falls back to Starlette's full scan,
so 404s, 405s and slash redirects behave exactly as before.
"""

from __future__ import annotations

from typing import Any

from starlette.routing import BaseRoute, Match, Router, get_route_path
from starlette.types import Receive, Scope, Send


class _Node:
    __slots__ = ("literal", "param", "rest", "end")

    def __init__(self) -> None:
        self.literal: dict[str, _Node] = {}
        self.param: _Node | None = None
        self.rest: list[int] = []  # routes whose template ends in {x:path} here
        self.end: list[int] = []  # routes whose template ends here


class IndexedRouter(Router):
    """A `Router` that matches only the routes a trie of their path templates allows."""

    def __init__(self, routes: list[BaseRoute], **kwargs: Any) -> None:
        super().__init__(routes, **kwargs)
        self._root = _Node()
        self._unindexed: list[int] = []  # routes without a plain path template: always tried
        for n, route in enumerate(self.routes):
            path = getattr(route, "path", None)
            if not isinstance(path, str) or not path.startswith("/") or getattr(route, "routes", None):
                self._unindexed.append(n)
                continue
            self._add(n, path[1:].split("/"))

    def _add(self, n: int, segments: list[str]) -> None:
        node = self._root
        for seg in segments:
            if "{" in seg:
                if ":path}" in seg:
                    node.rest.append(n)
                    return
                if node.param is None:
                    node.param = _Node()
                node = node.param
            else:
                node = node.literal.setdefault(seg, _Node())
        node.end.append(n)

    def candidates(self, path: str) -> list[BaseRoute]:
        """The routes that might match `path`, in their original order."""
        found: list[int] = list(self._unindexed)
        segments = path[1:].split("/") if path.startswith("/") else None
        if segments is None:
            return [self.routes[n] for n in sorted(found)]
        stack: list[tuple[_Node, int]] = [(self._root, 0)]
        last = len(segments)
        while stack:
            node, i = stack.pop()
            found += node.rest
            if i == last:
                found += node.end
                continue
            nxt = node.literal.get(segments[i])
            if nxt is not None:
                stack.append((nxt, i + 1))
            if node.param is not None and segments[i]:
                stack.append((node.param, i + 1))
        return [self.routes[n] for n in sorted(set(found))]

    async def app(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "lifespan":
            await super().app(scope, receive, send)
            return
        if "router" not in scope:
            scope["router"] = self
        partial = None
        partial_scope: dict[str, Any] = {}
        for route in self.candidates(get_route_path(scope)):
            match, child_scope = route.matches(scope)
            if match is Match.FULL:
                scope["route"] = route
                scope.update(child_scope)
                await route.handle(scope, receive, send)
                return
            if match is Match.PARTIAL and partial is None:
                partial, partial_scope = route, child_scope
        if partial is not None:
            scope["route"] = partial
            scope.update(partial_scope)
            await partial.handle(scope, receive, send)
            return
        await super().app(scope, receive, send)  # nothing here: Starlette's own 404/redirects
