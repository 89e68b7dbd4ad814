"""Fuzz seed 1400001287 (default): NumPy's quicksort on x86 writes every NaN
as the quiet NaN (sign clear); ndtile kept each NaN's bits, so signbit of the
sorted array differed (NumPy False, ndtile True)."""
SETTING = 'default'
XFAIL = None  # fixed on main
PROGRAM = """
a0 = np.asarray(data(117555065, (1, 2, 3, 3, 1), 'float64', 1))
a0 **= a0  # check
a3 = np.sort(a0.ravel()); a2 = np.searchsorted(a3, np.asarray(data(472324009, (1, 1, 1, 1, 1), 'int8', 1)), side='right')
a8 = np.signbit(a3)
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
