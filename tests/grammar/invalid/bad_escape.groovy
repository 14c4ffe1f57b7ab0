// expect: 2:12 invalid escape sequence
g.V(1).has('\q')
