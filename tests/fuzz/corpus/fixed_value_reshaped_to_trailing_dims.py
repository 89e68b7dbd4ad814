"""Fuzz seed 1410005092 (small_tiles): a value of more dimensions than the
indexing result is reshaped to its trailing ones by NumPy (sizes agree: an
empty value), so NumPy raised the index's IndexError, ndtile a ValueError."""
SETTING = 'small_tiles'
XFAIL = None  # fixed on main
PROGRAM = """
a0 = np.asarray(data(573273238, (2, 6, 4, 3), 'int32', 0))
a1 = a0[-1, 3:-3:-3, 1:0:-1, 1:-3:2]
a1[[0], -1, ::-1] = a1  # check
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
