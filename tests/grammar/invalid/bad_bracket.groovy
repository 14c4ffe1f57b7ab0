// expect: 2:11 unexpected ']'
g.V().out(]
