g.V().where(out('created').count().is(gt(1))).
  local(aggregate('a').by('name')).
  has('name', within('a', 'b')).
  has('age', P.gt(1).and(P.lt(50)).or(P.eq(99))).
  filter(not(__.out())).
  is(not(P.eq(3))).
  has('name', TextP.startingWith('m')).
  has('name', notStartingWith('x'))
