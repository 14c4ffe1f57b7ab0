"""`docs/scale-out.md`'s Citus layout checked against the PostgreSQL schema (issue 24).

The page's table names every table's Citus role (distributed by a column, or reference) and,
for each distributed table, the unique keys that do *not* include its distribution column
today. This test reads the schema and holds the page to it both ways: a unique key without
the distribution column that the page does not list fails (the schema drifted from the
rules), and one the page lists that the schema no longer has fails too (the page is stale).

Where the schema comes from: under `make test-postgres`, a real database initialised by
`storage` and read back through PostgreSQL's catalogue (SQLAlchemy's inspector); otherwise
storage's table metadata, which is what that DDL is compiled from, compiled here for the
PostgreSQL dialect to be sure it is the PostgreSQL form being checked.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from sqlalchemy import UniqueConstraint, create_engine, inspect
from sqlalchemy.dialects import postgresql
from sqlalchemy.schema import CreateIndex, CreateTable

from tests.backends import ON_POSTGRES, database_url, new_database_name

DOC = Path(__file__).resolve().parent.parent / "docs" / "scale-out.md"

#: one unique key: its columns, and the partial index condition (None when whole-table)
Key = tuple[tuple[str, ...], str | None]


def documented() -> dict[str, tuple[str, str | None, set[str]]]:
    """table -> (role, distribution column or None, the unique keys without it as written)."""
    text = DOC.read_text(encoding="utf-8")
    block = text.split("<!-- citus-layout")[1].split("<!-- /citus-layout -->")[0]
    rows = {}
    for line in block.splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) != 4 or not cells[0].startswith("`"):
            continue
        table, role, column, gaps = cells
        dist = column.strip("`") if column != "–" else None
        keys = set() if gaps in ("none", "–") else {g.strip().strip("`") for g in gaps.split(";")}
        rows[table.strip("`")] = (role, dist, keys)
    return rows


def _spelled(key: Key) -> str:
    cols, where = key  # `!=` (as SQLAlchemy compiles it) and `<>` (as PostgreSQL reports it) alike
    return f"({', '.join(cols)})" + (f" WHERE {where.replace('!=', '<>').strip()}" if where else "")


def _schema_from_metadata() -> dict[str, set[Key]]:
    from storage.tables import metadata

    dialect = postgresql.dialect()
    out: dict[str, set[Key]] = {}
    for table in metadata.sorted_tables:
        ddl = str(CreateTable(table).compile(dialect=dialect))
        keys: set[Key] = {(tuple(c.name for c in table.primary_key.columns), None)}
        keys |= {(tuple(c.name for c in u.columns), None) for u in table.constraints if isinstance(u, UniqueConstraint)}
        for index in table.indexes:
            if index.unique:
                where = index.dialect_options["postgresql"].get("where")
                text = str(CreateIndex(index).compile(dialect=dialect))
                cond = None
                if where is not None:
                    cond = re.sub(r"[()]|edges\.", "", text.split(" WHERE ", 1)[1])
                keys.add((tuple(c.name for c in index.columns), cond))
        assert "PRIMARY KEY" in ddl
        out[table.name] = keys
    return out


def _schema_from_database(url: str) -> dict[str, set[Key]]:
    engine = create_engine(url)
    try:
        found = inspect(engine)
        out: dict[str, set[Key]] = {}
        for name in found.get_table_names():
            keys: set[Key] = {(tuple(found.get_pk_constraint(name)["constrained_columns"]), None)}
            keys |= {(tuple(u["column_names"]), None) for u in found.get_unique_constraints(name)}
            for index in found.get_indexes(name):
                if index["unique"]:
                    where = index.get("dialect_options", {}).get("postgresql_where")
                    cond = None if where is None else re.sub(r"[()]", "", str(where))
                    keys.add((tuple(c for c in index["column_names"] if c), cond))
            out[name] = keys
        return out
    finally:
        engine.dispose()


@pytest.fixture(scope="module")
def schema() -> Iterator[dict[str, set[Key]]]:
    if not ON_POSTGRES:
        yield _schema_from_metadata()
        return
    import storage

    url = database_url(new_database_name("scaleout"))
    storage.ensure_database(url)
    store = storage.open_store(url)
    store.initialise()
    from storage import ensure_auth_tables

    with store.write() as tx:  # the auth tables exist in the store `auth.graph_store` names
        ensure_auth_tables(tx)
    store.close()
    yield _schema_from_database(url)
    storage.drop_database(url)


def test_every_table_has_a_documented_role(schema: dict[str, set[Key]]) -> None:
    assert set(documented()) == set(schema)


def test_distributed_tables_unique_keys_without_the_distribution_column_are_the_documented_ones(
        schema: dict[str, set[Key]]) -> None:
    for table, (role, column, gaps) in documented().items():
        if not role.startswith("distributed"):
            assert column is None, f"{table}: a reference table has no distribution column"
            continue
        keys = schema[table]
        assert column in _columns(table), f"{table} has no column {column}"
        missing = {_spelled(k) for k in keys if column not in k[0]}
        assert missing == gaps, (f"{table} (distributed by {column}): unique keys without it are {sorted(missing)}, "
                                 f"docs/scale-out.md says {sorted(gaps)}")


def test_edges_are_keyed_by_their_owner_vertex(schema: dict[str, set[Key]]) -> None:
    """The out-adjacency identity leads with the owner vertex, as HugeGraph's SQL layout
    keyed its out-edges: the key the page distributes `edges` by."""
    assert any(cols[0] == "out_key" and "in_key" in cols for cols, where in schema["edges"] if where is None)


def test_distributed_tables_are_co_located_by_key_type() -> None:
    """Co-location needs distribution columns of one type: all are the BIGINT storage keys."""
    from storage.tables import metadata

    dialect = postgresql.dialect()
    types = {t: str(metadata.tables[t].c[c].type.compile(dialect=dialect))
             for t, (role, c, _) in documented().items() if role.startswith("distributed") and c}
    assert set(types.values()) == {"BIGINT"}, types


def _columns(table: str) -> set[str]:
    from storage.tables import metadata

    return {c.name for c in metadata.tables[table].columns}
