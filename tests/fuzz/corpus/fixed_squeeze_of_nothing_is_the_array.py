"""Fuzz seed 611685073, setting small_tiles: exception at `a2 += a2  # check`: NumPy raises ValueError: output array is read-only; ndtile does not (NumPy's squeeze of nothing is the array itself, so setflags on it reaches the array)"""
SETTING = 'small_tiles'
XFAIL = None  # fixed in session 30 (fuzz30)
PROGRAM = """
a2 = np.ones((), dtype='float32')
a3 = a2.squeeze()
a3.setflags(write=False)
a2 += a2  # check
a4 = np.arange(6).reshape(2, 3)
a5 = np.squeeze(a4, axis=())
a5.setflags(write=False)
a4[0] = 1  # check
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
