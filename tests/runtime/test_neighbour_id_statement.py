"""`tx_point.neighbour_ids_statement` (the prepared reader's SQL for `V(id).out(l).id()`,
`runtime/direct_fast.py`): its id column lists exactly what `Tx.neighbour_ids` lists, in
the same order, for every direction and label filter, parallel sort-keyed edges and a
self-loop included; one-sided hops select the id alone."""

from __future__ import annotations

from typing import Any

import pytest

from gremlin_engine.graph import Graph
from gremlin_engine.runtime.access import StoreAccess
from storage import tx_point
from storage.tables import IN_SIDE_IDS


def _more_edges(graph: Graph) -> None:
    """`met` (MULTIPLE, sort key `date`): parallel edges ordered by date, not insertion;
    and a self-loop."""
    ids = {v.value("name"): v.id for v in graph.execute("g.V().hasLabel('person')")}
    graph.execute(
        "g.V(a).as('a').V(b).as('b')"
        ".addE('met').from('a').to('b').property('date', '2020').iterate();"
        "g.V(a).as('a').V(b).as('b').addE('met').from('a').to('b').property('date', '2010').iterate();"
        "g.V(a).as('a').V(c).as('c').addE('met').from('a').to('c').property('date', '2015').iterate();"
        "g.V(b).as('b').addE('knows').from('b').to('b').iterate()",
        bindings={"a": ids["marko"], "b": ids["vadas"], "c": ids["josh"]},
    )
    # by sort key first: 2010 (vadas), 2015 (josh), 2020 (vadas)
    assert graph.execute("g.V(a).out('met').values('name')", bindings={"a": ids["marko"]}) == ["vadas", "josh", "vadas"]


@pytest.mark.parametrize("direction", ["out", "in", "both"])
@pytest.mark.parametrize("labels", [None, ["knows"], ["met"], ["knows", "met", "created"]])
def test_statement_ids_equal_neighbour_ids(modern: Graph, direction: str, labels: Any) -> None:
    _more_edges(modern)
    bridge_ids = None
    with modern.store.read() as tx:
        access = StoreAccess.for_graph(modern, tx)
        if labels is not None:
            bridge_ids = access._edge_label_filter(labels)
        starts = [r[0] for r in tx.raw.execute("SELECT id FROM vertices ORDER BY key").fetchall()]
        sql, repeat, col = tx_point.neighbour_ids_statement(direction, bridge_ids)
        if direction != "both":  # layout v3: the far end's id from the out-adjacency index
            far = "e.in_id" if direction == "out" else ("e.out_id" if IN_SIDE_IDS else "v.id")
            assert (repeat, col) == (1, 0) and sql.startswith(f"SELECT {far} FROM")
        id_of = dict(tx.raw.execute("SELECT key, id FROM vertices").fetchall())
        seen = 0
        for sid in starts:
            want = [r[1] for r in tx.neighbour_ids(sid, direction, bridge_ids)]
            got = [r[col] for r in tx.raw.execute(sql, (sid,) * repeat).fetchall()]
            assert got == want, (sid, direction, labels)
            # and both are the ids of the vertices the keys-only adjacency read reaches, in its order
            key = tx.vertex_key(sid)
            assert want == [id_of[to] for _, to in tx.adjacent_keys([key], direction, bridge_ids)]
            seen += len(got)
        assert seen > 0
