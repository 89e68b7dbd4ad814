"""Fuzz seed 17002469, setting small_tiles: exception at `a7 = a4.argmax(axis=-1, keepdims=True)`: NumPy raises ValueError: attempt to get argmax of an empty sequence; ndtile does not"""
SETTING = 'small_tiles'
XFAIL = None  # fixed on main (issue 14 session)
PROGRAM = """
a3 = np.asarray(data(979684687, (4, 0, 3), 'float32', 0))
a4 = a3[-2, 0::2, :4:-2]
a7 = a4.argmax(axis=-1, keepdims=True)
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
