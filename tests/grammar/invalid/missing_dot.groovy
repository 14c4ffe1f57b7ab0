// expect: 2:7 unexpected 'out'
g.V() out()
