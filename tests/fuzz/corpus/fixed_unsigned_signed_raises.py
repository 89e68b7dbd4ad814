"""Fuzz seed 7000607, setting default: exception at `a9 **= -2  # check`: ndtile raises ValueError: Integers to negative integer powers are not allowed.; NumPy does not"""
SETTING = 'default'
XFAIL = None  # fixed on main (issue 14 session)
PROGRAM = """
a0 = np.eye(6, 0, 2, dtype='int64')
a6 = a0[:, 1:]
a9 = np.concatenate([a6, a0], axis=1)
a9 **= -2  # check
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
