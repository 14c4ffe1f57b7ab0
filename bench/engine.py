"""hugelite under test: the embedded engine over a SQLite file, queried with Gremlin text.

The graph is a strict-schema graph shaped as a HugeGraph user would declare it:

* property keys `name` (TEXT), `age` (INT), `city` (TEXT), `weight` (DOUBLE);
* vertex label `person` with **CUSTOMIZE_NUMBER** ids: workload vertex `i` gets id `i + 1`,
  the same number raw sqlite3 uses as its row key, so probe ids need no translation table
  and the `lookup_by_property` answer (an id) compares directly. (AUTOMATIC would give the
  same numbers here, but only by accident of insertion order; customised ids say it.)
* a SECONDARY index label `personByName` on `name`, which `has('person','name',x)` uses;
* edge label `knows` (person -> person) with `weight`.

Loading goes through the runtime's bulk write path (`api.write_access`, the one
`gremlin_engine/io` uses): the batched `add_vertices/add_edges` (one multi-row insert per
1,000 elements, each element validated by the single-element code) or, on a runtime without
them, `add_vertex/add_edge`; so validation, id codecs and index upkeep are the ones every
write pays. It commits in chunks, because one transaction
holding a million cached elements measures the element cache, not the store.

Every operation is one `graph.execute(script, bindings)` call with a constant script text
(parse-cached) and the probe in the bindings, as a Gremlin Server client would send it.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import storage
from bench.workload import Workload
from gremlin_engine import GraphConfig, GraphRegistry
from gremlin_engine.runtime import api
from gremlin_engine.structure.elements import Vertex
from gremlin_engine.structure.numbers import Long

#: elements written per write transaction while loading
LOAD_CHUNK = 50_000
#: elements per `add_vertices`/`add_edges` call (the REST batch size is 500)
WRITE_BATCH = 1_000

SCHEMA = (
    ("propertykey", {"name": "name", "data_type": "TEXT"}),
    ("propertykey", {"name": "age", "data_type": "INT"}),
    ("propertykey", {"name": "city", "data_type": "TEXT"}),
    ("propertykey", {"name": "weight", "data_type": "DOUBLE"}),
    ("vertexlabel", {"name": "person", "id_strategy": "CUSTOMIZE_NUMBER",
                     "properties": ["name", "age", "city"], "nullable_keys": ["age", "city"]}),
    ("edgelabel", {"name": "knows", "source_label": "person", "target_label": "person",
                   "properties": ["weight"], "nullable_keys": ["weight"]}),
    ("indexlabel", {"name": "personByName", "base_type": "VERTEX_LABEL", "base_value": "person",
                    "index_type": "SECONDARY", "fields": ["name"]}),
)

SCRIPTS = {
    "point_lookup": "g.V(vid).values('name')",
    "lookup_by_property": "g.V().has('person', 'name', name).id()",
    "one_hop": "g.V(vid).out('knows').id()",
    "two_hop_count": "g.V(vid).out().out().count()",
    "group_count_city": "g.V().groupCount().by('city')",
    "k_hop2": "g.V(vid).repeat(out()).times(2).count()",
    "k_hop3": "g.V(vid).repeat(out()).times(3).count()",
}


def _add_vertices(access: Any, specs: list[tuple[str, Any, list[tuple[str, Any]]]]) -> None:
    """The runtime's batched `add_vertices` when it has one (one multi-row insert per
    batch, the REST batch path), else one `add_vertex` per element."""
    batch = getattr(access, "add_vertices", None)
    if batch is None:
        for label, id_, props in specs:
            access.add_vertex(label, id_, props)
        return
    for start in range(0, len(specs), WRITE_BATCH):
        batch(specs[start : start + WRITE_BATCH])


def _add_edges(access: Any, specs: list[tuple[str, Vertex, Vertex, list[tuple[str, Any]]]]) -> None:
    batch = getattr(access, "add_edges", None)
    if batch is None:
        for label, out_v, in_v, props in specs:
            access.add_edge(label, out_v, in_v, None, props)
        return
    for start in range(0, len(specs), WRITE_BATCH):
        batch(specs[start : start + WRITE_BATCH])


def remove_store(path: Path) -> None:
    for suffix in ("", "-wal", "-shm", "-journal"):
        Path(f"{path}{suffix}").unlink(missing_ok=True)


class HugeliteEngine:
    name = "hugelite"

    def __init__(self, path: Path, fresh: bool = True, server_url: str | None = None,
                 schema_mode: str = "strict") -> None:
        """`fresh`: a new store with the schema; else the store a load phase left at `path`.
        `server_url` (a SQLAlchemy URL without a database): the store is the database
        `bench` of that PostgreSQL server instead (dropped first when `fresh`).
        `schema_mode`: the mode the store is made in and opened with (a store keeps its
        mode: `bench.traversers` serves it in auto mode, so it builds it so)."""
        if server_url is not None:
            self.name = "hugelite on PostgreSQL"
            self.cfg = GraphConfig(name="bench", backend="postgresql", store="bench", schema_mode=schema_mode,
                                   extra={"sqlalchemy.url": server_url})
            if fresh:
                storage.drop_database(str(self.cfg.location))
        else:
            if fresh:
                remove_store(path)
            self.cfg = GraphConfig(name="bench", backend="sqlite", store=str(path), schema_mode=schema_mode)
        if fresh:
            GraphRegistry.init_store(self.cfg)
        # no evaluation timeout: a benchmark must finish what it starts
        self.registry = GraphRegistry(evaluation_timeout_ms=0)
        self.graph = self.registry.open(self.cfg)
        if not fresh:
            return
        for kind, body in SCHEMA:
            _element, task_id = self.graph.schema.create(kind, body)
            if task_id:
                done = self.graph.tasks.wait(task_id, 60)
                if done["task_status"] != "success":
                    raise RuntimeError(f"schema task for {body['name']} ended {done['task_status']}")

    def load(self, w: Workload) -> None:
        self.load_vertices(w)
        self.load_edges(w)

    def load_vertices(self, w: Workload) -> None:
        vertices = w.vertices()
        for start in range(0, len(vertices), LOAD_CHUNK):
            with api.write_access(self.graph) as access:
                specs = [("person", Long(i + 1), [("name", name), ("age", age), ("city", city)])
                         for i, name, age, city in vertices[start : start + LOAD_CHUNK]]
                _add_vertices(access, specs)

    def load_edges(self, w: Workload) -> None:
        # the end vertices by id only: storage keys are resolved once per vertex, and no
        # vertex objects outlive their chunk's transaction
        ends: dict[int, Vertex] = {}
        edges = w.edges()
        for start in range(0, len(edges), LOAD_CHUNK):
            ends.clear()
            with api.write_access(self.graph) as access:
                specs = []
                for o, i, weight in edges[start : start + LOAD_CHUNK]:
                    out_v = ends.get(o) or ends.setdefault(o, Vertex(Long(o + 1), "person"))
                    in_v = ends.get(i) or ends.setdefault(i, Vertex(Long(i + 1), "person"))
                    specs.append(("knows", out_v, in_v, [("weight", weight)]))
                _add_edges(access, specs)

    def _run(self, op: str, **bindings: Any) -> list[Any]:
        return list(self.graph.execute(SCRIPTS[op], bindings=bindings))

    # --- the operations: same answers as bench/raw_sqlite.py -----------------------------
    def point_lookup(self, idx: int) -> str:
        return str(self._run("point_lookup", vid=idx + 1)[0])

    def lookup_by_property(self, idx: int) -> int:
        return int(self._run("lookup_by_property", name=f"p{idx}")[0]) - 1

    def one_hop(self, idx: int) -> int:
        return len(self._run("one_hop", vid=idx + 1))

    def two_hop_count(self, idx: int) -> int:
        return int(self._run("two_hop_count", vid=idx + 1)[0])

    def group_count_city(self) -> dict[str, int]:
        return {str(k): int(v) for k, v in self._run("group_count_city")[0].items()}

    def k_hop(self, idx: int, k: int) -> int:
        return int(self._run(f"k_hop{k}", vid=idx + 1)[0])

    def database_bytes(self) -> int:
        """The PostgreSQL database's size on its server (`pg_database_size`)."""
        import psycopg

        url = self.cfg.url
        with psycopg.connect(host=url.host, port=url.port, user=url.username, password=url.password,
                             dbname=url.database) as conn:
            row = conn.execute("SELECT pg_database_size(current_database())").fetchone()
            return int(row[0]) if row is not None else 0

    def close(self) -> None:
        self.registry.close_all()
