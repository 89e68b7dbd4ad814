"""Hand-written: integer arithmetic on small arrays with the inline path off
(every op deferred): wrap-around, floor division and remainder by zero and
negatives, shifts, comparisons, boolean masks read and written."""
SETTING = 'inline0'
XFAIL = None
PROGRAM = """
a0 = np.asarray(data(7, (5, 6), 'int16', 1))
a1 = np.asarray(data(8, (6,), 'int16', 0))
a2 = a0 // a1
a3 = a0 % a1
a4 = (a0 << 3) >> 1
a5 = a0 * a0 + np.int16(30000)
a6 = a0[a0 > 0]
a0[a0 < 0] = -1  # check
a7 = np.where(a0 > 2, a2, a3)
a8 = a7.sum(axis=1, dtype='int8')
"""
