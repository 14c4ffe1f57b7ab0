// expect: 2:10 the ternary operator is not supported
x = true ? 1 : 2
