"""Session 26's API steps: matmul's out= cast error before any shape error (1135,
1622), round of complex values by parts (1964, 3332), gradient of one coordinate
(IndexError, 2814), ediff1d of bool (TypeError, 2900), integer power with where=
(only the selected exponents), complex interp bit for bit, pad's periodic modes."""
SETTING = 'small_tiles'
XFAIL = None
PROGRAM = """
a0 = np.asarray(data(1034547675, (1, 1), 'uint64', 0))
a11 = np.ones((2, 1), dtype='int64'); np.matmul(a0, np.asarray(data(846365250, (3,), 'complex64', 0)), out=a11)  # check
a1 = np.asarray(data(35959404, (2, 3), 'complex64', 0))
a2 = a1.round(1)
a3 = np.round(np.asarray(data(847084544, (3, 5, 3), 'complex128', 1)), 2)
a4 = np.gradient(np.arange(1, dtype='int32'), np.array([2.0]))
a5 = np.ediff1d(np.asarray(data(5, (4,), 'bool', 0)))
a6 = np.asarray(data(7, (5,), 'int64', 0))
a7 = np.ones((5,), dtype='int64'); np.power(a6, a6[::-1] - 2, out=a7, where=a6[::-1] > 1)  # check
a8 = np.interp(a6, [-1, 0, 2.5], np.array([3j, -1, 0.5 + 1j]))
a9 = np.pad(np.asarray(data(3, (5, 6, 3, 1, 30), 'float32', 0)), 3, mode='symmetric')
"""

if __name__ == '__main__':
    import os
    import sys
    os.environ.update({'NDTILE_TILE_BYTES': '4096'})
    sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    import ndtile
    from fuzzlib import replay
    replay([ln for ln in PROGRAM.strip().splitlines() if ln.strip()], ndtile)
    print('ok')
