"""The SQL of the adjacency reads (`tx_adjacency.Adjacency`): one builder per statement
shape, each remembered per shape (`lru_cache`), and the column tables they are built from.

Split out of `tx_adjacency.py` (which keeps the readers that bind and run these
statements) so each module stays one concern: what a read asks SQLite, and how the
readers call it.
"""

from __future__ import annotations

from functools import lru_cache

from storage._sql import label_filter
from storage.tables import IN_SIDE_IDS

E_COLS = ("key", "id", "label_id", "out_key", "in_key", "sort_values", "props")
# direction -> (column matching the input key, column holding the other end)
SIDES = {"out": (("out_key", "in_key"),), "in": (("in_key", "out_key"),),
          "both": (("out_key", "in_key"), ("in_key", "out_key"))}


#: the column ending each adjacency index, which breaks ties of (label, sort values, other end)
TIE = {"out_key": "dup", "in_key": "key"}
#: the column of each side's adjacency index holding the other end's public id (layout v3);
#: None where the index does not cover it (`tables.IN_SIDE_IDS`): the id is then joined in
OTHER_ID: dict[str, str | None] = {"out_key": "in_id", "in_key": "out_id" if IN_SIDE_IDS else None}


def tie(alias: str, this: str) -> str:
    """The ORDER BY columns after (label, sort values, other end) that the walk of `this`
    side's adjacency index yields: ``dup`` on the out side; on the in side the key (the
    rowid), preceded by ``out_id`` when ``ix_edges_in`` holds it between ``out_key`` and
    the rowid (`tables.IN_SIDE_IDS`). ``out_id`` is a function of ``out_key``, so naming
    it changes no order; leaving it out would make SQLite sort what the index gives."""
    if this == "out_key":
        return f"{alias}.dup"
    return f"{alias}.out_id, {alias}.key" if IN_SIDE_IDS else f"{alias}.key"


def side_sql(select: str, this: str, other: str, labels: tuple[int, ...], limited: bool, tail: str) -> str:
    """One direction of the batch query. CROSS JOIN pins json_each as the outer loop, so
    each key costs one range of the adjacency index."""
    head = f"SELECT {select}{tail} FROM json_each(?) AS k CROSS JOIN edges AS e ON "
    if not limited:
        return f"{head}e.{this} = k.value{label_filter('e.label_id', labels)}"
    return (
        f"{head}e.key IN (SELECT x.key FROM edges AS x WHERE x.{this} = k.value"
        f"{label_filter('x.label_id', labels)} ORDER BY x.label_id, x.sort_values, x.{other}, {tie('x', this)} LIMIT ?)"
    )


@lru_cache(maxsize=512)
def adjacent_sql(direction: str, labels: tuple[int, ...], limited: bool, keys_only: bool, pg: bool = False) -> str:
    """The statement for one shape. A single direction selects exactly the result columns
    (rows map straight onto EdgeRow / pairs); 'both' is a compound select, whose ORDER BY may
    only name result columns, so it carries the sort columns after them (see `WIDTH`).
    `pg`: for PostgreSQL, whose planner keeps no loop order, the ORDER BY always stays."""
    sides = SIDES[direction]
    parts = []
    for dir_no, (this, other) in enumerate(sides):
        select = f"k.value, e.{other}" if keys_only else ", ".join(f"e.{c}" for c in E_COLS)
        if len(sides) == 1:
            sql = side_sql(select, this, other, labels, limited, "")
            if loop_ordered(labels, limited) and not pg:
                return sql
            return f"{sql} ORDER BY k.key, e.label_id, e.sort_values, e.{other}, {tie('e', this)}"
        tail = (
            f", k.key AS pos, {dir_no} AS d, e.label_id AS o_label, e.sort_values AS o_sort, "
            f"e.{other} AS other, e.{TIE[this]} AS o_key"
        )
        parts.append(side_sql(select, this, other, labels, limited, tail))
    return " UNION ALL ".join(parts) + " ORDER BY pos, d, o_label, o_sort, other, o_key"


def loop_ordered(labels: tuple[int, ...], limited: bool) -> bool:
    """Whether the nested loop of `side_sql` already yields the adjacency order, so the
    ORDER BY can go: json_each walks the keys in input order (CROSS JOIN keeps it outer) and
    each key is one range of the adjacency index, whose columns *are* the sort key, searched
    by equality (no label, or one). SQLite cannot see that through the virtual table and
    would sort the whole answer in a temp B-tree (half the cost of a 100-vertex frontier).
    Not with several labels (an IN list may be walked another way) nor with a per-vertex
    LIMIT (the sub-select's keys come back in key order)."""
    return len(labels) <= 1 and not limited


WIDTH = {True: 2, False: len(E_COLS)}  # result columns before the sort columns


@lru_cache(maxsize=128)
def one_key_sql(direction: str, labels: tuple[int, ...], keys_only: bool) -> str:
    """`adjacent_sql` of one direction for a single key, bound as a plain parameter: one
    equality range of the adjacency index, without json_each (a frontier of one, every
    k-out's first layer: ~14 us instead of ~21 at ten edges). The planner sees the index
    here, so the ORDER BY (the index's own order) costs no sort."""
    this, other = SIDES[direction][0]
    select = f"e.{this}, e.{other}" if keys_only else ", ".join(f"e.{c}" for c in E_COLS)
    return (f"SELECT {select} FROM edges AS e WHERE e.{this} = ?{label_filter('e.label_id', labels)} "
            f"ORDER BY e.label_id, e.sort_values, e.{other}, {tie('e', this)}")


@lru_cache(maxsize=128)
def one_target_sql(direction: str, labels: tuple[int, ...]) -> str:
    """`targets_sql` of one direction, no per-vertex limit, for a single key (see
    `one_key_sql`)."""
    this, other = SIDES[direction][0]
    return json_list(f"SELECT e.{other} AS t FROM edges AS e WHERE e.{this} = ?{label_filter('e.label_id', labels)}")


@lru_cache(maxsize=128)
def to_keys_sql(direction: str, labels: tuple[int, ...], one_key: bool) -> str:
    """The other ends of `adjacent_sql` (or `one_key_sql`) of one direction in their
    order, as one JSON array; only for the shapes whose order is the nested loop's own
    (`loop_ordered`: one label or none, no per-vertex limit), so no ORDER BY sits in the
    subquery: the rows reach `json_group_array` in the order the loop walks the index."""
    this, other = SIDES[direction][0]
    where = f"e.{this} = ?" if one_key else f"e.{this} = k.value"
    src = "edges AS e WHERE " if one_key else "json_each(?) AS k CROSS JOIN edges AS e ON "
    return json_list(f"SELECT e.{other} AS t FROM {src}{where}{label_filter('e.label_id', labels)}")


@lru_cache(maxsize=128)
def per_key_sql(direction: str, labels: tuple[int, ...]) -> str:
    """One row per input key (json_each order) holding, as one JSON array, that key's first
    ``?1`` other ends in adjacency order: a per-vertex limit read inside the covering index. `adjacent_sql`'s limited form
    fetches each edge by rowid (``e.key IN (... LIMIT ?)``, the table's rows) and then sorts
    the whole answer; this one walks each key's index range up to the limit and no more."""
    this, other = SIDES[direction][0]
    inner = (f"FROM edges AS e WHERE e.{this} = k.value{label_filter('e.label_id', labels)} "
             f"ORDER BY e.label_id, e.sort_values, e.{other}, {tie('e', this)} LIMIT ?1")
    return f"SELECT (SELECT json_group_array(t) FROM (SELECT e.{other} AS t {inner})) FROM json_each(?2) AS k"


def json_list(sql: str) -> str:
    """`sql` (one column named t) as one row holding a JSON array of its values: the
    driver hands back a single string that orjson turns into a list of ints, where ~100
    one-column rows cost a tuple each and a Python loop to flatten (a k-out's second
    layer: ~40 us instead of ~75)."""
    return f"SELECT json_group_array(t) FROM ({sql})"


@lru_cache(maxsize=128)
def count_sql(direction: str, labels: tuple[int, ...]) -> str:
    """Per input key, the number of incident edges: one correlated ``count(*)`` per side,
    each a range of the covering adjacency index. No ORDER BY (nothing to sort) and no
    edge or vertex row is read."""
    subs = [
        f"(SELECT count(*) FROM edges AS e WHERE e.{this} = k.value{label_filter('e.label_id', labels)})"
        for this, _other in SIDES[direction]
    ]
    return f"SELECT k.value, {' + '.join(subs)} FROM json_each(?) AS k"


@lru_cache(maxsize=128)
def heads_sql(direction: str, labels: tuple[int, ...], pg: bool = False) -> str:
    this, other = SIDES[direction][0]
    return (
        f"SELECT k.value, e.{other}, v.id, v.label_id FROM json_each(?) AS k CROSS JOIN edges AS e "
        f"ON e.{this} = k.value{label_filter('e.label_id', labels)} CROSS JOIN vertices AS v ON v.key = e.{other}"
        + ("" if loop_ordered(labels, False) and not pg else f" ORDER BY k.key, e.label_id, e.sort_values, e.{other}, {tie('e', this)}")
    )


@lru_cache(maxsize=128)
def joining_sql(this: str, other: str, labels: tuple[int, ...], pg: bool = False) -> str:
    """Per (this, other) key pair, the first joining edge in adjacency order: one range of
    the adjacency index per pair, `this` vertex's edges of the label(s), scanned for the
    other key (it comes after `sort_values` in the index), so a hub's pair costs its degree.

    With one label, an edge of empty sort values (every edge of a label without sort keys)
    is found first by the whole index prefix (this, label, '', other), a single probe: ''
    is the least text, so when such an edge exists it is the first in adjacency order; the
    range scan runs only when there is none (`coalesce` evaluates lazily)."""
    cols = ", ".join(f"e.{c}" for c in E_COLS)
    pair = f"x.{this} = json_extract(p.value, '$[0]') AND x.{other} = json_extract(p.value, '$[1]')"
    pairs = "json_each(?) AS p"
    if pg:  # the pairs as JSON arrays of two ints, their position from 0
        pair = f"x.{this} = (p.value ->> 0)::bigint AND x.{other} = (p.value ->> 1)::bigint"
        pairs = ("(SELECT value, n - 1 AS key FROM json_array_elements(CAST(? AS json)) "
                 "WITH ORDINALITY AS j(value, n)) AS p")
    scan = (f"SELECT x.key FROM edges AS x WHERE {pair}{label_filter('x.label_id', labels)} "
            f"ORDER BY x.label_id, x.sort_values, {tie('x', this)} LIMIT 1")
    if len(labels) == 1:
        probe = (f"SELECT x.key FROM edges AS x WHERE {pair}{label_filter('x.label_id', labels)} "
                 f"AND x.sort_values = '' ORDER BY {tie('x', this)} LIMIT 1")
        scan = f"SELECT coalesce(({probe}), ({scan}))"
    return f"SELECT p.key, {cols} FROM {pairs} CROSS JOIN edges AS e ON e.key = ({scan})"


@lru_cache(maxsize=128)
def targets_sql(direction: str, labels: tuple[int, ...], limited: bool) -> str:
    """`adjacent_sql` without its ORDER BY (the sort is most of its cost on a big frontier)
    and with the other end only."""
    parts = [side_sql(f"e.{other} AS t", this, other, labels, limited, "") for this, other in SIDES[direction]]
    return json_list(" UNION ALL ".join(parts))


IDS_OF_KEYS_SQL = "SELECT k.value, v.id FROM json_each(?) AS k CROSS JOIN vertices AS v ON v.key = k.value"


@lru_cache(maxsize=128)
def to_key_ids_sql(direction: str, labels: tuple[int, ...]) -> str:
    """`to_keys_sql` of many keys with the far ends' stored ids beside them, read from the
    covering adjacency index (`OTHER_ID`): one row of two JSON arrays, in the loop's order
    (only for a side whose index holds the far id, one label or none)."""
    this, other = SIDES[direction][0]
    return (f"SELECT json_group_array(t), json_group_array(i) FROM (SELECT e.{other} AS t, e.{OTHER_ID[this]} AS i "
            f"FROM json_each(?) AS k CROSS JOIN edges AS e ON e.{this} = k.value{label_filter('e.label_id', labels)})")


def far_id(this: str, other: str) -> tuple[str, str]:
    """(the select expression of the other end's id, the join that gives it): the adjacency
    index's own copy where it holds one (layout v3: covering, no row of `edges` or
    `vertices` read), else a primary-key probe of `vertices` per edge."""
    col = OTHER_ID[this]
    if col is not None:
        return f"e.{col}", ""
    return "v.id", f" CROSS JOIN vertices AS v ON v.key = e.{other}"


@lru_cache(maxsize=128)
def neighbour_ids_sql(direction: str, labels: tuple[int, ...]) -> str:
    """`neighbour_ids`' statement: one start vertex by public id; the CROSS JOINs pin the
    loop order (id index probe, then one range of the adjacency index, then the other
    end's id: `far_id`)."""
    sides = SIDES[direction]
    parts = []
    for dir_no, (this, other) in enumerate(sides):
        far, join = far_id(this, other)
        head = (
            f"SELECT s.key, {far}{{tail}} FROM vertices AS s CROSS JOIN edges AS e ON e.{this} = s.key"
            f"{label_filter('e.label_id', labels)}{join} WHERE s.id = ?"
        )
        if len(sides) == 1:
            return head.format(tail="") + f" ORDER BY e.label_id, e.sort_values, e.{other}, {tie('e', this)}"
        tail = f", {dir_no} AS d, e.label_id AS o_label, e.sort_values AS o_sort, e.{other} AS other, e.{TIE[this]} AS o_key"
        parts.append(head.format(tail=tail))
    return " UNION ALL ".join(parts) + " ORDER BY d, o_label, o_sort, other, o_key"
