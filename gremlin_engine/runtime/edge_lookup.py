"""Edge rows by public edge id, in either schema mode: the engine's one way to ask storage
"which stored edge has this id".

Why it exists: storage layout v2 (`storage/tables.py`) keeps no index on the text id of a
HugeGraph-mode (strict) edge, because that id is derived from the edge's parts (out vertex
id, label id, sort values, in vertex id; codec in `structure/ids.py`) and indexing it cost a
random B-tree insert per edge. Such an edge is found by its parts instead: the id is parsed,
its two vertex ids become keys with one `Lookup.VERTEX_HEADS_BY_IDS`, and `Lookup.EDGES_BY_PARTS` probes
the unique out-adjacency index. Auto-mode (TinkerPop) edges keep user ids and are found by
id (`Lookup.EDGES_BY_IDS`, a partial index).

The answer is the one a lookup by edge id gave in layout v1: rows in order of first occurrence
of each distinct id, unknown ids skipped. A strict-mode row counts only when its stored id
*is* the id asked for (the parts of `S1>2>3>>S2` and `S1>9>3>>S2` lead to the same row: the
label part is the parent label); ids that do not parse as edge ids, and non-string ids, are
looked up by id, which finds what v1 found for them (nothing, or a row copied from a v1
store, which keeps its id index entry).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from gremlin_engine.errors import NotFound
from gremlin_engine.structure import ids as idc
from storage import Lookup, Tx


def edge_rows(tx: Tx, ids: Sequence[Any], auto: bool) -> list[Any]:
    """`EdgeRow`s of the edges whose stored ids are `ids` (storage forms, as given to
    `Lookup.EDGES_BY_IDS`); `auto` is the graph's schema mode."""
    if auto:
        return tx.elements.find(Lookup.EDGES_BY_IDS, ids)
    wanted = list(dict.fromkeys(ids))
    parsed: dict[str, idc.EdgeId] = {}
    by_id: list[Any] = []
    for ident in wanted:
        if type(ident) is str:
            try:
                parsed[ident] = idc.parse_edge_id(ident)
                continue
            except NotFound:
                pass
        by_id.append(ident)
    found: dict[Any, Any] = {}
    if len(parsed) == 1 and not by_id:  # one id: one statement
        (ident, e), = parsed.items()
        ends = (idc.to_storage(e.source), e.sub_label_id, e.sort_values, idc.to_storage(e.target))
        rows = tx.elements.find(Lookup.EDGES_BY_END_IDS, [ends])
        return [r for r in rows if r.id == ident][:1]
    if parsed:
        for row in tx.elements.find(Lookup.EDGES_BY_PARTS, _parts(tx, parsed.values())):
            if row.id in parsed:
                found.setdefault(row.id, row)
    if by_id:
        for row in tx.elements.find(Lookup.EDGES_BY_IDS, by_id):
            found.setdefault(row.id, row)
    return [found[i] for i in wanted if i in found]


def _parts(tx: Tx, eids: Any) -> list[tuple[int, int, str, int]]:
    """(out key, label id, sort values, in key) per parsed id whose two vertices exist; the
    row's label is the id's sub-label part (equal to the label part unless it is a sub-label)."""
    eids = list(eids)
    ends = {idc.to_storage(v) for e in eids for v in (e.source, e.target)}
    key_of = {sid: key for key, sid, _label in tx.elements.find(Lookup.VERTEX_HEADS_BY_IDS, list(ends))}
    parts = []
    for e in eids:
        out_key = key_of.get(idc.to_storage(e.source))
        in_key = key_of.get(idc.to_storage(e.target))
        if out_key is not None and in_key is not None:
            parts.append((out_key, e.sub_label_id, e.sort_values, in_key))
    return parts
