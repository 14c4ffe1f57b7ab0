"""Write generations: counters in the store's `meta` table that say "this changed".

Several processes may serve one store (`hugelite serve --workers N`). Each keeps what it
reads on every request in memory (the schema snapshot), so each must learn cheaply that
another process changed it. A writer bumps the thing's generation in the transaction that
changes it; a reader compares the generation it loaded with the store's, read in the
transaction it is about to use anyway: one keyed read of a tiny table (~2 us on SQLite,
`bench/workers.py`), no transaction of its own, and it sees the same snapshot as the
request's statements, so what it loads is consistent with what the request reads.

The counters are plain `meta` rows (`gen.<name>`), so no table or store version changes, and
the SQL is the same in every dialect: a keyed read, and an upsert in a write transaction.
"""

from __future__ import annotations

from storage.tx import Tx

#: the meta key prefix of a generation
PREFIX = "gen."
#: the generation of the schema (`schema_items`): bumped by every schema write and by a clear
SCHEMA_GENERATION = "schema"

_READ = "SELECT value FROM meta WHERE key = ?"


def generation(tx: Tx, name: str) -> int:
    """The generation of `name` as `tx` sees it (0 when it was never bumped). Straight on
    the driver connection: it runs once per request of a multi-process server."""
    row = tx.raw.execute(_READ, (PREFIX + name,)).fetchone()
    return 0 if row is None else int(row[0])


def bump(tx: Tx, name: str) -> int:
    """Counts one more change of `name` in the write transaction `tx`; returns the new
    generation, which other transactions see once `tx` commits."""
    new = generation(tx, name) + 1
    tx.schema.meta_set(PREFIX + name, str(new))
    return new
