// expect: 4:3 unexpected ')'
g.V().
  out().
  )
