"""Fixed seed 424342024, setting small_tiles: exception at `np.fill_diagonal(a4, -1)  # check`: NumPy raises OverflowError: Python integer -1 out of bounds for uint64; ndtile does not (an empty diagonal: NumPy converts the value all the same)"""
SETTING = 'small_tiles'
XFAIL = None  # fixed in session 30 (fuzz30)
PROGRAM = """
a4 = np.zeros((0, 3), dtype='uint64')
np.fill_diagonal(a4, -1)  # check
a5 = np.zeros((4, 3), dtype='uint8')
np.fill_diagonal(a5, [1, 300])  # check
np.fill_diagonal(a5.T, 7, wrap=True)  # check
"""

if __name__ == '__main__':
    import os
    import sys
    os.environ.update({})
    sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    import ndtile
    from fuzzlib import replay
    replay([ln for ln in PROGRAM.strip().splitlines() if ln.strip()], ndtile)
    print('ok')
