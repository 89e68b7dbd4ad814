"""Fuzz seed 599618244, setting default: exception at `a14 = a13.clip(None, None)`: NumPy raises UFuncTypeError: ufunc 'positive' did not contain a loop with signature matching types BoolDType; ndtile does not"""
SETTING = 'default'
XFAIL = None  # fixed in session 30 (fuzz30)
PROGRAM = """
a7 = np.arange(14, dtype='uint64').reshape((7, 2))
a13 = np.logical_xor(a7, np.asarray(data(478195440, (), 'int64', 0)))
a14 = a13.clip(None, None)
a15 = a7.clip(None, None)
a16 = np.clip(a7, -1, 2 ** 64)
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
