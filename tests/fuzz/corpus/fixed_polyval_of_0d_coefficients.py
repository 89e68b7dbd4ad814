"""Fuzz seed 609619072, setting small_tiles: exception at `a3 = np.polyval(a0, a0)`: NumPy raises TypeError: iteration over a 0-d array; ndtile IndexError: tuple index out of range"""
SETTING = 'small_tiles'
XFAIL = None  # fixed in session 30 (fuzz30)
PROGRAM = """
a0 = np.full((), -7.75, dtype='uint16')
a3 = np.polyval(a0, a0)
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
