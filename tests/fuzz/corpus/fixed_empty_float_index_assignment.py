"""Fuzz campaign 4, setting default: exception at `a3[np.array([])] = (1+2j)  # check`: NumPy raises IndexError: arrays used as indices must be of integer (or boolean) type; ndtile TypeError (the complex value was converted before the index's types were checked)"""
SETTING = 'default'
XFAIL = None  # fixed on main (issue 14, second session)
PROGRAM = """
a0 = np.zeros((6,), dtype='float64')
a3 = a0[::2]
a3[np.array([])] = (1+2j)  # check
a3[np.array([0.0])] = 'x'  # check
a3[[[0]], [1.5]] = 1j  # check
"""

if __name__ == '__main__':
    import os
    import sys
    sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    import ndtile
    from fuzzlib import replay
    replay([ln for ln in PROGRAM.strip().splitlines() if ln.strip()], ndtile)
    print('ok')
