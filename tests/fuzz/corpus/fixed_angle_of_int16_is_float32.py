"""Fuzz seed 599051026, setting default: dtype at `a6 = np.angle(a3)`: NumPy float32, ndtile float64 (ndtile cast integers to float64 before arctan2)"""
SETTING = 'default'
XFAIL = None  # fixed in session 30 (fuzz30)
PROGRAM = """
a0 = np.asarray(data(186317001, (7,), 'int16', 0))
a1 = np.angle(a0)
a2 = np.angle(a0[::-1], deg=True)
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
