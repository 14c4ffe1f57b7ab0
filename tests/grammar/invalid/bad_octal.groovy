// expect: 2:13 invalid octal literal
g.inject(1, 08)
