"""Fuzz seed 5205, setting default: NumPy raises AxisError: axis 2 is out of bounds for array of dimension 1; ndtile TypeError: numpy boolean subtract"""
SETTING = 'default'
XFAIL = None  # fixed on main (open23 session)
PROGRAM = """
a6 = np.asarray(data(7, (4,), 'bool', 0))
a12 = np.nanpercentile(a6, 50, axis=2, method='weibull')
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
