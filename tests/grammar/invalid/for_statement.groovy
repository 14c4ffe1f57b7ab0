// expect: 2:8 'for' statements are not supported
for (i in [1, 2]) { g.V() }
