"""Fuzz seed 17000149, setting small_tiles: dtype at `a0[::-1, -6] = a2  # check`: a2: NumPy bool, ndtile int64"""
SETTING = 'small_tiles'
XFAIL = None  # fixed on main (issue 14 session)
PROGRAM = """
a0 = np.eye(4, 8, -1, dtype='bool')
a2 = a0.max(axis=1, initial=5)
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
