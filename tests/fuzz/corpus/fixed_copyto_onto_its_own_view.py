"""Fuzz seed 632843619, setting default: exception at `np.copyto(a9, a8, casting='same_kind', where=np.asarray(data(680637615, (6, 2, 1, 0), 'bool')))  # check`: ndtile raises ValueError: could not broadcast where mask from shape (6,2,1,0) into shape (6,1,6,0); NumPy does not"""
SETTING = 'default'
XFAIL = None  # fixed on main (session 32)
PROGRAM = """
a6 = np.asarray(data(346839003, (1, 1, 1, 1), 'int64', 0))
a8 = a6[:, :, :, np.array([], dtype='uint16')]
a9 = np.swapaxes(a8, 3, -1)
np.copyto(a9, a8, casting='same_kind', where=np.asarray(data(680637615, (6, 2, 1, 0), 'bool')))  # check
"""

if __name__ == '__main__':
    import os
    import sys
    os.environ.update({'NDTILE_CHECK': 'abort'})
    sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    import ndtile
    from fuzzlib import replay
    replay([ln for ln in PROGRAM.strip().splitlines() if ln.strip()], ndtile)
    print('ok')
