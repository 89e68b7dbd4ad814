"""Fuzz seed 609618985, setting small_tiles: exception at `a1 = np.average(a0, axis=(0, 2, 3, 4), keepdims=True)`: NumPy raises ZeroDivisionError: division by zero; ndtile does not"""
SETTING = 'small_tiles'
XFAIL = None  # fixed in session 30 (fuzz30)
PROGRAM = """
a0 = np.asarray(data(273303826, (1, 0, 7, 5, 7), 'bool', 0))
a1 = np.average(a0, axis=(0, 2, 3, 4), keepdims=True)
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
