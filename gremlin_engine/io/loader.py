"""Loads GraphSON records into a graph through the engine's own write path.

The loader writes only through a `GraphAccess` (`add_vertex`, `add_edge`), the same calls
`addV()`/`addE()` make, so schema rules, id handling and index upkeep apply to imported data
exactly as to data written by a traversal; there is no bulk side door into storage. Original
vertex and edge ids are kept, which needs a graph in `schema.mode=auto` (or a strict schema
whose labels use customized ids).

`read_into(access, path, import_dir)` is the hook behind `g.io(path).read()`: it refuses
any file outside the configured import folder (resolving `..` and symlinks first), since a
Gremlin script is untrusted input and must never name arbitrary server files.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from gremlin_engine.errors import Forbidden, IllegalArgument, NotFound
from gremlin_engine.io.graphson import GraphRecords, GraphSONError, read_graphson_lines
from gremlin_engine.traversal.tokens import T

#: file suffixes `g.io()` can read; anything else is refused with a message naming it
READABLE_SUFFIXES = (".json", ".graphson")


def load_records(access: Any, records: GraphRecords) -> tuple[int, int]:
    """Adds every vertex, then every edge; returns (vertices, edges) added."""
    added: dict[Any, Any] = {}
    # TinkerGraph keeps vertex property ids; the runtime takes a user-supplied one as T.id
    # in the meta map, which only auto-mode (TinkerGraph-like) graphs accept
    keep_vp_ids = getattr(access, "schema_mode", "strict") == "auto"
    for vr in records.vertices:
        props = []
        for p in vr.properties:
            meta: dict[Any, Any] = dict(p.meta)
            if keep_vp_ids and p.id is not None:
                meta[T.id] = p.id
            props.append((p.key, p.value, vr.cardinality(p.key), meta))
        added[vr.id] = access.add_vertex(vr.label, vr.id, props)
    n_edges = 0
    for er in records.edges:
        try:
            out_v, in_v = added[er.out_v], added[er.in_v]
        except KeyError as e:
            raise GraphSONError(f"edge {er.id!r} names vertex {e.args[0]!r}, which the file does not hold") from None
        access.add_edge(er.label, out_v, in_v, er.id, list(er.properties.items()))
        n_edges += 1
    return len(added), n_edges


def resolve_import_path(path: str | Path, import_dir: str | Path | None) -> Path:
    """The file `path` names inside `import_dir`, or an error: relative paths are taken
    relative to the folder, and the resolved file must lie inside it."""
    if import_dir is None:
        raise Forbidden("g.io() reads files only from the configured import folder, and none is configured")
    if any(ord(ch) < 0x20 or ch == "\x7f" for ch in str(path)):
        raise IllegalArgument(f"g.io(): a file name has no control characters (NUL, newline, ...); got {str(path)!r}")
    root = Path(import_dir).resolve()
    p = Path(path)
    target = (p if p.is_absolute() else root / p).resolve()
    if not target.is_relative_to(root):
        raise Forbidden(f"g.io() may only read files under the import folder {root}; refused {str(path)!r}")
    if not target.is_file():
        raise NotFound(f"g.io(): no such file {str(path)!r} in the import folder")
    if target.suffix.lower() not in READABLE_SUFFIXES:
        raise IllegalArgument(
            f"g.io(): only GraphSON 3.0 adjacency files ({', '.join(READABLE_SUFFIXES)}) can be read, "
            f"not {target.name!r}"
        )
    return target


def read_into(access: Any, path: str | Path, import_dir: str | Path | None) -> tuple[int, int]:
    """`g.io(path).read()`: checks the path, then loads the file through `access` (which the
    caller holds inside its write transaction). Returns (vertices, edges) added."""
    target = resolve_import_path(path, import_dir)
    return load_records(access, read_graphson_lines(target))


@contextlib.contextmanager
def write_access(graph: Any) -> Iterator[Any]:
    """A GraphAccess over one write transaction of `graph`; commits when the block ends
    normally, rolls back when it raises."""
    try:
        from gremlin_engine.runtime import api
    except ImportError:
        api = None  # type: ignore[assignment]
    opener = getattr(api, "write_access", None)
    if opener is not None:
        with opener(graph) as access:
            yield access
        return
    from gremlin_engine.runtime.access import StoreAccess

    with graph.store.write() as tx:
        yield StoreAccess.for_graph(graph, tx)


def load_graph_records(graph: Any, records: GraphRecords) -> tuple[int, int]:
    """Loads already-read records into `graph` in one write transaction."""
    with write_access(graph) as access:
        return load_records(access, records)


def load_graphson(graph: Any, path: str | Path) -> tuple[int, int]:
    """Loads a GraphSON 3.0 adjacency file into `graph` in one write transaction, keeping
    the file's vertex and edge ids. Not path-restricted: this is for trusted callers (tests,
    the CLI); scripts go through `read_into`."""
    return load_graph_records(graph, read_graphson_lines(path))
