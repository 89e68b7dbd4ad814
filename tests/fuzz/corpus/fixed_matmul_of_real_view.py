"""Fuzz seed 47013700 (workers2), minimised by hand: matmul of the .real view
of a complex array reads real and imaginary parts interleaved
(NumPy [4.5 ...], ndtile [2.25 ...])."""
SETTING = 'default'
XFAIL = None  # fixed on main (issue 14 session)
PROGRAM = """
a0 = np.asarray(data(373947330, (4, 2), 'complex64', 2))
a0[...] = np.float64(1.5)  # check
a1 = a0.real
a2 = a1 @ np.asarray(data(262216569, (2,), 'float32', 0))
a3 = np.dot(a0.imag.T, np.asarray(data(5, (4, 3), 'float32', 0)))
a4 = np.asarray(data(6, (300, 40), 'complex128', 0)).real @ np.asarray(data(7, (40, 5), 'float64', 0))
"""

if __name__ == '__main__':
    import os
    import sys
    sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    import ndtile
    from fuzzlib import replay
    replay([ln for ln in PROGRAM.strip().splitlines() if ln.strip()], ndtile)
    print('ok')
