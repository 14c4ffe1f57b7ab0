g.withStrategies(new SubgraphStrategy(vertices: __.has("name", P.within("josh", "lop")), checkAdjacentVertices: false),
                 ReadOnlyStrategy, SeedStrategy(seed: 99)).
  withoutStrategies(CountStrategy).withSideEffect("a", [1i, 2i], Operator.addAll).V()
