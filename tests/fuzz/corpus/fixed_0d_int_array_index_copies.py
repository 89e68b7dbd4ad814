"""Fuzz seed 17002664, setting small_tiles: value at `a0[...] = 1  # check`: a2: 3 of 3 elements differ, first at (0,): NumPy np.int32(-3), ndtile np.int32(1)"""
SETTING = 'small_tiles'
XFAIL = None   # fixed on main (merged 11:15); a regression test now
PROGRAM = """
a0 = np.arange(9, dtype='int32').reshape((3, 3))
a2 = a0[np.array(1)]
a0[...] = 1  # check
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
