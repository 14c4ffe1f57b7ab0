// expect: 2:4 ranges are not supported
[1..3]
