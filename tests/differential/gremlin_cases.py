"""The Gremlin cases, each written once in gremlinpython's syntax: evaluated as Python it is a
bytecode traversal, and `as_script` turns it into the Groovy script that Gremlin Server and
hugelite evaluate (the step names differ only by Python's trailing underscores).

`ordered` marks cases whose result order the traversal defines; the others compare as
multisets (a graph's iteration order is not specified).
"""

from __future__ import annotations

import re
from dataclasses import dataclass


@dataclass(frozen=True)
class Case:
    id: str
    graph: str
    expr: str
    ordered: bool = False


def as_script(expr: str) -> str:
    """gremlinpython syntax -> Groovy: `as_(` -> `as(`, None/True/False -> null/true/false."""
    script = re.sub(r"\b(as|in|is|not|and|or|from|with|min|max|sum|range|filter|map|id|all|any)_\(",
                    r"\1(", expr)
    return re.sub(r"\bNone\b", "null", script).replace("True", "true").replace("False", "false")


_M = "modern"
CASES = [
    Case("v-all", _M, "g.V()"),
    Case("e-all", _M, "g.E()"),
    Case("v-count", _M, "g.V().count()"),
    Case("e-count", _M, "g.E().count()"),
    Case("v-id", _M, "g.V(1)"),
    Case("v-ids", _M, "g.V(1, 2, 3).values('name')"),
    Case("v-missing", _M, "g.V(99)"),
    Case("has-name", _M, "g.V().has('name', 'marko')"),
    Case("has-label", _M, "g.V().hasLabel('software').values('name')"),
    Case("has-gt", _M, "g.V().has('age', P.gt(30)).values('name')"),
    Case("has-within", _M, "g.V().has('name', P.within('josh', 'vadas')).values('age')"),
    Case("has-not", _M, "g.V().hasNot('age').values('name')"),
    Case("out", _M, "g.V(1).out().values('name')"),
    Case("out-label", _M, "g.V(1).out('knows').values('name')"),
    Case("in", _M, "g.V(3).in_('created').values('name')"),
    Case("both", _M, "g.V(4).both().values('name')"),
    Case("outE", _M, "g.V(1).outE()"),
    Case("inV", _M, "g.V(1).outE('knows').inV().values('name')"),
    Case("edge-weight", _M, "g.E().values('weight')"),
    Case("values-all", _M, "g.V(1).values()"),
    Case("properties", _M, "g.V(1).properties()"),
    Case("properties-name", _M, "g.V().properties('name').value()"),
    Case("valueMap", _M, "g.V(1).valueMap()"),
    Case("valueMap-keys", _M, "g.V().valueMap('name', 'age')"),
    Case("valueMap-tokens", _M, "g.V(1).valueMap().with_('~tinkerpop.valueMap.tokens')"),
    Case("elementMap", _M, "g.V(1).elementMap()"),
    Case("elementMap-edge", _M, "g.E().hasLabel('knows').elementMap()"),
    Case("id", _M, "g.V().id_()"),
    Case("label", _M, "g.V().label()"),
    Case("e-id", _M, "g.E().id_()"),
    Case("count-local", _M, "g.V(1).out().fold().count(Scope.local)"),
    Case("sum", _M, "g.V().values('age').sum_()"),
    Case("mean", _M, "g.V().values('age').mean()"),
    Case("min", _M, "g.V().values('age').min_()"),
    Case("max", _M, "g.V().values('age').max_()"),
    Case("sum-double", _M, "g.E().values('weight').sum_()"),
    Case("fold", _M, "g.V().values('name').order().fold()", True),
    Case("unfold", _M, "g.V(1).out().fold().unfold().values('name')"),
    Case("order-asc", _M, "g.V().values('name').order()", True),
    Case("order-desc", _M, "g.V().hasLabel('person').order().by('age', Order.desc).values('name')", True),
    Case("limit", _M, "g.V().hasLabel('person').order().by('name').limit(2).values('name')", True),
    Case("range", _M, "g.V().order().by('name').range_(1, 3).values('name')", True),
    Case("tail", _M, "g.V().values('name').order().tail(2)", True),
    Case("skip", _M, "g.V().values('name').order().skip(4)", True),
    Case("dedup", _M, "g.V().both().dedup().values('name')"),
    Case("groupCount", _M, "g.V().groupCount().by(T.label)"),
    Case("groupCount-out", _M, "g.V().out().groupCount().by('name')"),
    Case("group", _M, "g.V().group().by(T.label).by('name')"),
    Case("group-count", _M, "g.V().group().by('age').by(__.count())"),
    Case("path", _M, "g.V(1).out().out().path()"),
    Case("path-by", _M, "g.V(1).out().out().path().by('name')"),
    Case("path-count-local", _M, "g.V(1).repeat(__.out()).times(2).path().count(Scope.local)"),
    Case("path-sum-local", _M, "g.V(1).out('knows').path().by('age').sum_(Scope.local)"),
    Case("simplePath", _M, "g.V(1).both().both().simplePath().path().by('name')"),
    Case("as-select", _M, "g.V().as_('a').out('created').as_('b').select('a', 'b').by('name')"),
    Case("select-one", _M, "g.V(1).as_('a').out().select('a').values('name')"),
    Case("project", _M, "g.V().hasLabel('person').project('n', 'c').by('name').by(__.outE().count())"),
    Case("repeat-times", _M, "g.V(1).repeat(__.out()).times(2).values('name')"),
    Case("repeat-until", _M, "g.V(1).repeat(__.out()).until(__.hasLabel('software')).values('name')"),
    Case("repeat-emit", _M, "g.V(1).repeat(__.out()).emit().values('name')"),
    Case("where", _M, "g.V().where(__.out('created').count().is_(P.gt(1))).values('name')"),
    Case("where-pred", _M, "g.V(1).as_('a').out('knows').where(P.neq('a')).values('name')"),
    Case("not", _M, "g.V().not_(__.hasLabel('person')).values('name')"),
    Case("and", _M, "g.V().and_(__.has('age'), __.out('knows')).values('name')"),
    Case("or", _M, "g.V().or_(__.has('lang'), __.has('age', 27)).values('name')"),
    Case("union", _M, "g.V(1).union(__.out('knows'), __.out('created')).values('name')"),
    Case("coalesce", _M, "g.V().coalesce(__.values('lang'), __.constant('none'))"),
    Case("choose", _M, "g.V().choose(__.hasLabel('person'), __.values('age'), __.values('lang'))"),
    Case("optional", _M, "g.V(2).optional(__.out()).values('name')"),
    Case("constant", _M, "g.V().constant(1)"),
    Case("inject", _M, "g.inject(1, 2, 3)", True),
    Case("inject-str", _M, "g.inject('a', 'b').fold()", True),
    Case("math", _M, "g.V().values('age').math('_ * 2')"),
    Case("is", _M, "g.V().values('age').is_(P.lt(30))"),
    Case("text-startingWith", _M, "g.V().has('name', TextP.startingWith('m')).values('name')"),
    Case("text-containing", _M, "g.V().has('name', TextP.containing('o')).values('name')"),
    Case("tree", _M, "g.V(1).out().out().tree().by('name')"),
    Case("cap-store", _M, "g.V().store('x').by('name').cap('x')"),
    Case("aggregate", _M, "g.V().aggregate('x').by('age').cap('x')"),
    Case("sideEffect-count", _M, "g.V().out().count().is_(6)"),
    Case("local", _M, "g.V().hasLabel('person').local(__.outE().order().by('weight').limit(1)).id_()"),
    Case("sample-count", _M, "g.V().sample(2).count()"),
    Case("bothE-otherV", _M, "g.V(4).bothE().otherV().values('name')"),
    Case("where-by", _M, "g.V().hasLabel('person').as_('a').out('created').in_('created').where(P.neq('a')).values('name')"),
    Case("select-keys", _M, "g.V().groupCount().by('name').select(Column.keys)"),
    Case("unfold-map", _M, "g.V(1).valueMap('name').unfold()"),
    Case("order-map", _M, "g.V().groupCount().by(T.label).order(Scope.local).by(Column.values, Order.desc)", True),
    Case("cyclicPath", _M, "g.V(1).both().both().cyclicPath().count()"),
    Case("explain-none", _M, "g.V().has('age', P.between(28, 33)).values('name')"),
    Case("crew-props", "crew", "g.V().hasLabel('person').properties('location').value()"),
    Case("crew-meta", "crew", "g.V(1).properties('location').valueMap()"),
    Case("crew-has-prop", "crew", "g.V().has('location', 'santa fe').values('name')"),
    Case("grateful-count", "grateful", "g.V().count()"),
    Case("grateful-group", "grateful", "g.V().groupCount().by(T.label)"),
    Case("grateful-top", "grateful", "g.V().hasLabel('song').order().by(__.inE('followedBy').count(), Order.desc).limit(3).values('name')", True),
    Case("grateful-sungBy", "grateful", "g.V().has('name', 'Garcia').in_('sungBy').count()"),
]

#: scripts that must fail; compared on their status code only (messages are free text)
ERROR_CASES = [
    Case("err-syntax", _M, "g.V(", True),
    Case("err-unknown-step", _M, "g.V().foo()", True),
    Case("err-unknown-name", _M, "x.V()", True),
    Case("err-div-zero", _M, "1/0", True),
    Case("err-next-empty", _M, "g.V(99).next()", True),
]
