"""gpu18 seed 168468866: cos in place 1 ULP off NumPy, then astype(uint16): unchecked, not a mismatch"""
SETTING = 'small_tiles'
XFAIL = None
PROGRAM = """
a6 = np.asarray(data(469205560, (7, 5, 5, 7, 4), 'float32', 1))
a7 = np.cos(a6, out=a6)  # check
a8 = a6.astype('uint16')
a9 = a8.T
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
