"""Fuzz seed 7732, setting default: NumPy raises OverflowError: Python integer -2 out of bounds for uint8; ndtile does not"""
SETTING = 'default'
XFAIL = None  # fixed on main (open23 session)
PROGRAM = """
a13 = np.asarray(data(5, (3,), 'uint8', 0))
a14 = np.divmod(a13, -2)[1]
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
