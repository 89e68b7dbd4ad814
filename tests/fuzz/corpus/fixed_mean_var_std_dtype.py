"""Fuzz seed 17000050, setting small_tiles: type at `a2 = a0.mean(axis=None, dtype='uint8')`: a2: NumPy gives uint8, ndtile float64"""
SETTING = 'small_tiles'
XFAIL = None  # fixed on main (issue 14 session)
PROGRAM = """
a0 = np.arange(1, dtype='uint16').reshape(())
a2 = a0.mean(axis=None, dtype='uint8')
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
