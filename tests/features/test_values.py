"""The corpus value notation and the type-aware result comparison."""

from __future__ import annotations

import datetime
import decimal
import math
import uuid

import pytest

from gremlin_engine.structure.elements import Edge, Path, Property, Vertex, VertexProperty
from gremlin_engine.structure.numbers import BigInt, Byte, Float, Int, Long, Short
from gremlin_engine.traversal.tokens import Direction, Merge, T

from .results import canon, compare_of, compare_ordered, compare_unordered
from .runner import _entries, parse_tree
from .values import Unsupported, decode, split_top


class ToyWorld:
    """Name look-ups over a fixed set of elements (what `ElementWorld` does for a graph)."""

    def __init__(self) -> None:
        self.v = {n: Vertex(Int(i), "person") for i, n in enumerate(["marko", "vadas", "lop", "josh"], 1)}
        self.e = {("marko", "knows", "vadas"): Edge(Int(7), "knows", self.v["marko"], self.v["vadas"])}

    def vertex(self, name: str) -> Vertex:
        return self.v[name]

    def edge(self, a: str, label: str, b: str) -> Edge:
        return self.e[(a, label, b)]


W = ToyWorld()


@pytest.mark.parametrize(
    ("text", "cls", "value"),
    [
        ("d[1].b", Byte, 1),
        ("d[1].s", Short, 1),
        ("d[29].i", Int, 29),
        ("d[29].l", Long, 29),
        ("d[12345678901234567890].n", BigInt, 12345678901234567890),
        ("d[0.5].f", Float, 0.5),
        ("d[0.5].d", float, 0.5),
        ("d[1.25].m", decimal.Decimal, decimal.Decimal("1.25")),
        ("d[-3].i", Int, -3),
    ],
)
def test_typed_numbers(text: str, cls: type, value: object) -> None:
    got = decode(text, None)
    assert type(got) is cls and got == value


def test_special_floats_and_scalars() -> None:
    assert math.isnan(decode("d[NaN]", None))
    assert decode("d[Infinity]", None) == math.inf
    assert decode("d[-Infinity]", None) == -math.inf
    assert decode("null", None) is None
    assert decode("true", None) is True and decode("false", None) is False
    assert decode("marko", None) == "marko"
    assert decode("str[  vadas]", None) == "  vadas"
    assert decode("str[v[1]]", None) == "v[1]"
    assert decode("dt[2023-08-08T00:00:00Z]", None) == datetime.datetime(2023, 8, 8, tzinfo=datetime.UTC)
    u = "f47af10b-58cc-4372-a567-0f02b2f3d479"
    assert decode(f"uuid[{u}]", None) == uuid.UUID(u)


def test_tokens() -> None:
    assert decode("t[label]", None) is T.label
    assert decode("t[id]", None) is T.id
    assert decode("D[OUT]", None) is Direction.OUT
    assert decode("M[outV]", None) is Merge.outV


def test_elements_and_ids() -> None:
    assert decode("v[marko]", W) is W.v["marko"]
    assert decode("v[marko].id", W) == 1
    assert decode("v[marko].sid", W) == "1"
    assert decode("e[marko-knows->vadas]", W).id == 7
    assert decode("e[marko-knows->vadas].id", W) == 7
    vp = decode("vp[name->marko]", W)
    assert isinstance(vp, VertexProperty) and (vp.key, vp.value) == ("name", "marko")
    vp2 = decode("vp[vadas-age->d[27].i]", W)
    assert (vp2.key, vp2.value, type(vp2.value), vp2.vertex) == ("age", 27, Int, W.v["vadas"])
    with pytest.raises(ValueError, match="needs a graph"):
        decode("v[marko]", None)


def test_collections_nest() -> None:
    assert split_top("a,l[b,c],m[{\"x\":1,\"y\":2}],d") == ["a", "l[b,c]", 'm[{"x":1,"y":2}]', "d"]
    assert split_top("") == []
    lst = decode("l[d[1].i,l[a,b],null]", W)
    assert lst == [1, ["a", "b"], None] and type(lst[0]) is Int
    assert decode("l[]", W) == [] and decode("s[]", W) == set()
    assert decode("s[a,b,a]", W) == {"a", "b"}
    m = decode('m[{"t[label]": "person", "D[OUT]": "v[marko].id", "age": 29, "w": 0.5, "l": ["lop"]}]', W)
    assert m == {T.label: "person", Direction.OUT: 1, "age": 29, "w": 0.5, "l": ["lop"]}
    assert type(m["age"]) is Int and type(m["w"]) is float
    p = decode("p[v[marko],v[vadas],d[1].l]", W)
    assert isinstance(p, Path) and p.objects == (W.v["marko"], W.v["vadas"], 1)


def test_lambdas_are_unsupported() -> None:
    with pytest.raises(Unsupported):
        decode("c[it.get().value('name')]", W)


# ---- comparison ---------------------------------------------------------------------------


def test_java_types_must_match() -> None:
    assert compare_unordered([Int(29)], [decode("d[29].i", None)]) is None
    assert compare_unordered([Int(29)], [decode("d[29].l", None)]) is not None
    assert compare_unordered([29], [decode("d[29].i", None)]) is None  # plain int means Integer
    assert compare_unordered([2**40], [decode(f"d[{2**40}].l", None)]) is None
    assert compare_unordered([1.0], [decode("d[1].d", None)]) is None
    assert compare_unordered([1.0], [decode("d[1].f", None)]) is not None
    # Float compares at 32-bit precision however the engine kept it
    assert compare_unordered([Float(0.4)], [decode("d[0.4].f", None)]) is None
    assert compare_unordered([decimal.Decimal("1.0")], [decode("d[1].m", None)]) is None
    assert compare_unordered([True], [decode("d[1].i", None)]) is not None
    assert compare_unordered([math.nan], [decode("d[NaN]", None)]) is None


def test_unordered_is_a_multiset_and_ordered_is_a_sequence() -> None:
    a, b = W.v["marko"], W.v["vadas"]
    assert compare_unordered([a, b, a], [b, a, a]) is None
    msg = compare_unordered([a, b], [a, a])
    assert msg is not None and "missing [v[1i]]" in msg and "unexpected [v[2i]]" in msg
    assert compare_ordered([a, b], [a, b]) is None
    assert compare_ordered([a, b], [b, a]) is not None
    assert compare_of([a, a], [a, b]) is None
    assert compare_of([W.v["lop"]], [a, b]) is not None


def test_maps_sets_paths_and_elements() -> None:
    # map and set order does not matter; list order does
    assert compare_unordered([{"b": Long(2), "a": Long(1)}], [decode('m[{"a":"d[1].l","b":"d[2].l"}]', W)]) is None
    assert compare_unordered([{"a": [Int(1), Int(2)]}], [{"a": [Int(2), Int(1)]}]) is not None
    assert compare_unordered([{"x", "y"}], [decode("s[y,x]", W)]) is None
    path = Path(labels=(frozenset({"a"}), frozenset()), objects=(W.v["marko"], "x"))
    assert compare_unordered([path], [decode("p[v[marko],x]", W)]) is None
    # elements compare by id, not by how they were obtained
    assert compare_unordered([Vertex(Int(1), "person")], [decode("v[marko]", W)]) is None
    assert compare_unordered([Vertex(Long(1), "person")], [decode("v[marko]", W)]) is not None
    vp = VertexProperty(id=Long(5), key="name", value="marko", vertex=W.v["marko"])
    assert compare_unordered([vp], [decode("vp[name->marko]", W)]) is None
    assert compare_unordered([Property("weight", 0.5)], [Property("weight", 0.5)]) is None
    assert compare_unordered([T.label, Direction.from_], [decode("t[label]", W), decode("D[OUT]", W)]) is None
    assert canon(datetime.datetime(2023, 8, 8)) == canon(decode("dt[2023-08-08T00:00:00Z]", W))


def test_next_results_become_rows_and_trees_parse() -> None:
    assert _entries([1, 2]) == [1, 2]
    assert _entries({"a": 1, "b": 2}) == [{"a": 1}, {"b": 2}]
    assert _entries("x") == ["x"]
    tree = parse_tree("|--v[marko]\n   |--v[josh]\n      |--v[lop]\n      |--d[32].i\n|--vadas\n", W)
    assert tree == {W.v["marko"]: {W.v["josh"]: {W.v["lop"]: {}, 32: {}}}, "vadas": {}}
    assert type(next(iter(tree[W.v["marko"]][W.v["josh"]].keys() - {W.v["lop"]}))) is Int
