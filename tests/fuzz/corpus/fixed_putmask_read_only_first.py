"""Fuzz seed 310000856, setting small_tiles: exception at `np.putmask(a6, a6 > 0, [-4, 7])  # check`: NumPy raises ValueError: putmask: output array is read-only; ndtile OverflowError: Python integer -4 out of bounds for uint64"""
SETTING = 'small_tiles'
XFAIL = None
PROGRAM = """
a0 = np.asarray(data(143247937, (198327,), 'uint32', 0))
a3 = a0[...]
a4 = a3.astype('uint64')
a6 = np.broadcast_to(a4, (3, 3, 198327))
np.putmask(a6, a6 > 0, [-4, 7])  # check
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
