"""Fuzz seed 50322, setting default: exception at `a5[-1] = a6  # check`: NumPy raises TypeError: only 0-dimensional arrays can be converted to Python scalars; ndtile UnicodeDecodeError: 'utf-8' codec can't decode byte 0xb3 in position 61: invalid start byte"""
SETTING = 'default'
XFAIL = None  # fixed on main (issue 14 session)
PROGRAM = """
a5 = np.full((5,), 0, dtype='complex128')
a6 = np.roll(a5, 2)
a5[-1] = a6  # check
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
