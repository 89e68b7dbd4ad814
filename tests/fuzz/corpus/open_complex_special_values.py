"""Fuzz seed 17000063, setting small_tiles: value at `a8 = np.unique(a5)`: a8: 1 of 23 elements differ, first at (22,): NumPy np.complex64(nan+infj), ndtile np.complex64(nan-infj)"""
SETTING = 'small_tiles'
XFAIL = 'complex special values'
PROGRAM = """
a5 = np.asarray(data(687614545, (2, 2, 1), 'complex64', 2))
a8 = np.unique(a5)
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
