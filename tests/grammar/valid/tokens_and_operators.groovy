n = 1 + 2 * 3 - -4 % 3
s = 'a' + n
ok = !(n > 3) || n == 10 && s != 'x'
g.V().order().by(values, desc).by(T.id, Order.asc).select(Pop.all, 'a').count(Scope.local).
  property(Cardinality.single, 'age', Cardinality.set(n)).
  to(Direction.from).dateAdd(DT.day, 1).is(P.typeOf(GType.INT)).with(WithOptions.tokens, WithOptions.ids).
  barrier(Barrier.normSack).option(Pick.none, __.identity()).option(Merge.onCreate, [(T.label): 'x'])
