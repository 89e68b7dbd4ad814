"""Fuzz seed 599051150, setting default: dtype at `a10 = np.unwrap(a1, period=6)`: NumPy int16, ndtile int64 (NumPy writes the corrected tail into a copy of its dtype)"""
SETTING = 'default'
XFAIL = None  # fixed in session 30 (fuzz30)
PROGRAM = """
a1 = np.asarray(data(965856145, (7, 3, 5, 1), 'int16', 0))
a10 = np.unwrap(a1, period=6)
a11 = np.unwrap(a1, period=7, axis=0)
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
