"""`property_values`: one key of many elements without loading them, and the
`groupCount().by(key)` that rides on it."""

from __future__ import annotations

from gremlin_engine.graph import Graph
from gremlin_engine.runtime.access import StoreAccess
from gremlin_engine.structure.numbers import Long

MISSING = object()


def test_one_key_decoded_elements_stay_unloaded(modern: Graph) -> None:
    with modern.store.read() as tx:
        a = StoreAccess.for_graph(modern, tx)
        vs = list(a.vertices())
        got = a.property_values(vs, "city", MISSING)
        assert [x if x is not MISSING else None for x in got] == [
            "Beijing", "Hongkong", None, "Beijing", None, "Shanghai"]
        assert not any(v.loaded for v in vs)  # nothing but the one key was decoded
        assert a.property_values(vs, "age", MISSING)[0] == 29
        # loaded elements and edges answer from their properties
        a.load(vs[:1])
        assert a.property_values(vs[:1], "name", MISSING) == ["marko"]
        es = list(a.edges(labels=["knows"]))
        assert a.property_values(es, "weight", MISSING) == [0.5, 1.0]


def test_multi_properties_give_the_first_value(modern: Graph) -> None:
    modern.execute("g.V().has('name','marko').property(list,'tags','a').property(list,'tags','b')")
    with modern.store.read() as tx:
        a = StoreAccess.for_graph(modern, tx)
        vs = list(a.vertices(labels=["person"]))
        assert a.property_values(vs, "tags", MISSING)[0] == "a"
        a.load(vs)
        assert [v.value("name") for v in vs][0] == "marko"


def test_group_count_by_key(modern: Graph) -> None:
    assert modern.execute("g.V().groupCount().by('city')") == [
        {"Beijing": Long(2), "Hongkong": Long(1), "Shanghai": Long(1)}]
    assert modern.execute("g.V().out().groupCount().by('name')") == [
        {"vadas": Long(1), "josh": Long(1), "lop": Long(3), "ripple": Long(1)}]
    assert modern.execute("g.E().groupCount().by('weight')") == [
        {0.5: Long(1), 1.0: Long(2), 0.4: Long(2), 0.2: Long(1)}]
    # written in this very traversal: the new value is seen
    assert modern.execute("g.V().has('name','vadas').property('city','Rome').V().hasLabel('person')"
                          ".groupCount().by('city')") == [
        {"Beijing": Long(2), "Rome": Long(1), "Shanghai": Long(1)}]


def test_big_read_scans_do_not_keep_every_element(modern: Graph, monkeypatch) -> None:
    from gremlin_engine.runtime import reads

    monkeypatch.setattr(reads, "PAGE", 2)
    monkeypatch.setattr(reads, "SCAN_CACHE_LIMIT", 3)
    with modern.store.read() as tx:
        a = StoreAccess.for_graph(modern, tx)
        seen = []
        for v in a.vertices():
            seen.append(v)
            assert len(a._vertices) <= 4  # dropped between pages once past the limit
        assert [v.id for v in seen] == ["1:marko", "1:vadas", "2:lop", "1:josh", "2:ripple", "1:peter"]
        assert a.property_values(seen, "name", MISSING) == ["marko", "vadas", "lop", "josh", "ripple", "peter"]
        again = list(a.vertices(ids=["1:marko"]))
        assert again == seen[:1]  # equal by id, rebuilt from its row
    assert modern.execute("g.V().groupCount().by('city')") == [
        {"Beijing": Long(2), "Hongkong": Long(1), "Shanghai": Long(1)}]
    with modern.store.write() as tx:  # a write transaction keeps what it scanned
        a = StoreAccess.for_graph(modern, tx)
        assert len(list(a.vertices())) == 6
        assert len(a._vertices) == 6
