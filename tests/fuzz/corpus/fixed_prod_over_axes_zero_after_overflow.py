"""Fuzz seed 1410009371 (small_tiles): prod(int16, axis=-2, dtype='float32')
multiplied per-tile partials: a zero met after the running product overflowed
gave 0 (NumPy: inf * 0 = NaN)."""
SETTING = 'small_tiles'
XFAIL = None  # fixed on main
PROGRAM = """
a14 = np.asarray(data(570871821, (64, 644), 'int16', 0))
a16 = a14.prod(axis=-2, dtype='float32')
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
