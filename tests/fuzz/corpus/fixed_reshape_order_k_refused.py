"""Fuzz seed 609051090, setting small_tiles: exception at `a6 = a2.reshape(-1, order='K')`: NumPy raises ValueError: order 'K' is not permitted for reshaping; ndtile does not"""
SETTING = 'small_tiles'
XFAIL = None  # fixed in session 30 (fuzz30)
PROGRAM = """
a0 = np.asarray(data(5, (4, 3), 'float32', 0))
a1 = a0.reshape(-1, order='K')
a2 = np.reshape(a0.T, (2, 6), order='K')
a3 = a0.reshape(3, 4, order='a')
"""

if __name__ == '__main__':
    import os
    import sys
    os.environ.update({})
    sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    import ndtile
    from fuzzlib import replay
    replay([ln for ln in PROGRAM.strip().splitlines() if ln.strip()], ndtile)
    print('ok')
