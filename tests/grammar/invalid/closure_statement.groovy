// expect: 2:22 closures are not supported
g.V().each { println it }
