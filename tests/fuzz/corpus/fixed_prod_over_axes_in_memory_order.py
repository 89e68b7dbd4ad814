"""Fuzz seed 2150042876 (short_lookahead; the same at default settings):
prod over axes (0, 2) of a transposed array multiplied each result element's
factors in the view's C order; NumPy's iterator walks the reduced axes in
memory order, so its running product overflowed before the small factors
(inf) where ndtile's did not (2.3e213)."""
SETTING = 'default'
XFAIL = None  # fixed on main
PROGRAM = """
a0 = np.linspace(-4, 6, 228525).reshape((5, 33, 1385))
a3 = a0.T
a8 = a3.prod(axis=(0, 2))
"""

if __name__ == '__main__':
    import os
    import sys
    sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    import ndtile
    from fuzzlib import replay
    replay([ln for ln in PROGRAM.strip().splitlines() if ln.strip()], ndtile)
    print('ok')
