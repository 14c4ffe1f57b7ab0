g.inject(1, 2147483648, 9223372036854775808, 1b, -128b, 2s, 3i, 4l, 5L, 6n, 1.5, .5, 2f, 2.5d, 1.0m, 1e3, 0x1F, 010,
         'single', "double", '''triple
line''', "esc\t\u00e9\$", true, false, null, NaN, -Infinity,
         [], [1, [2, 3]], [:], [a: 1, 'b': 2, (k): 3, T.id: 4, (T.label): 'x'], {1, 2}, {})
