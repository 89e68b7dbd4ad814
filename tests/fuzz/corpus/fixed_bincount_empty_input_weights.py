"""Fuzz seed 20251, setting default: dtype at `a7 = np.bincount(np.abs(a5).ravel(), weights=np.asarray(data(413648277, (0,), 'int64', 0)))`: a7: NumPy int64, ndtile float64"""
SETTING = 'default'
XFAIL = None
PROGRAM = """
a5 = np.asarray(data(41, (3, 0), 'int16', 0))
a7 = np.bincount(np.abs(a5).ravel(), weights=np.asarray(data(413648277, (0,), 'float64', 0)))
a8 = np.bincount(a5.ravel(), weights=np.asarray(data(9, (2,), 'float64', 0)), minlength=3)
a9 = np.bincount(a5.ravel(), weights=np.asarray(data(9, (1,), 'complex128', 0)))
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
