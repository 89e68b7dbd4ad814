"""Hand-minimised (session 29, fuzz29's sweep of out= over an input):
`np.modf(a, out=(a, w))` and `np.frexp(a[::-1], out=(a, e))` computed the
second output from the first one's writes (w all 0, e all 0); NumPy's loop
reads each element before it writes either output. And `np.ptp(a, axis=0,
out=a[2])`: NumPy writes the max into out first and takes the min of the
array as that left it."""
SETTING = 'small_tiles'
XFAIL = None
PROGRAM = """
a0 = np.asarray(data(3, (3000,), 'float64', 0)) * 1.25
a1 = np.zeros((3000,), dtype='float64')
a2 = np.modf(a0, out=(a0, a1))  # check
a3 = np.asarray(data(4, (40, 40), 'float32', 0)) * 0.75
a4 = np.zeros((40, 40), dtype='int32')
a5 = np.frexp(a3[::-1], out=(a3, a4))  # check
a6 = np.asarray(data(5, (60, 10), 'int16', 0))
a7 = np.ptp(a6, axis=0, out=a6[2])  # check
a8 = np.ptp(a6.T, axis=0, out=a6[:, 7])  # check
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
