// expect: 2:13 value 128b is out of range for byte
g.V().limit(128b)
