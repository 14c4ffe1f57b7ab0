// expect: 2:17 unexpected end of script
g.V().has('name'
