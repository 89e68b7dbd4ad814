"""Fuzz seed 7001158, setting default: value at `a4[...] = -1.5  # check`: a0: 2 of 5 elements differ, first at (0, 0): NumPy np.int16(-19605), ndtile np.int16(-1)"""
SETTING = 'default'
XFAIL = None   # fixed on main (merged 11:15); a regression test now
PROGRAM = """
a0 = np.asarray(data(561061612, (2, 1), 'int16', 2))
a2 = a0[2::-1]
a4 = np.ravel(a2)
a4[...] = -1.5  # check
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
