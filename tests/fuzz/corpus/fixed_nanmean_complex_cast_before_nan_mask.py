"""Fuzz seed 400004300, setting default: value at `a20 = np.nanmean(a2, axis=(0,), dtype='float64')`: a20: 2 of 84 elements differ, first at (0, 5, 0): NumPy np.float64(-12449636.0), ndtile np.float64(inf)"""
SETTING = 'default'
XFAIL = None  # fixed on main (open23 session)
PROGRAM = """
a2 = np.asarray(data(131287656, (3, 2, 6, 7), 'complex64', 2))
np.multiply(a2, np.asarray(data(449259732, (1, 2, 6, 1), 'int32', 2)), out=a2)  # check
a20 = np.nanmean(a2, axis=(0,), dtype='float64')
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
