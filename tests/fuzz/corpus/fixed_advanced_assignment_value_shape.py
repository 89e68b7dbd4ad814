"""Fuzz seed 51175, setting default: exception at `a5 = a0[np.array([], dtype='int64'), [6]]`: ndtile raises IndexError: index 6 is out of bounds for axis 1 with size 6; NumPy does not"""
SETTING = 'default'
XFAIL = None  # fixed on main (issue 14 session)
PROGRAM = """
a0 = np.zeros((2, 6), dtype='float32')
a5 = a0[np.array([], dtype='int64'), [6]]
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
