"""Fuzz seed 8009, setting default: NumPy raises TypeError: cannot accumulate on a scalar; ndtile does not"""
SETTING = 'default'
XFAIL = None  # fixed on main (open23 session)
PROGRAM = """
a0 = np.asarray(data(3, (), 'int16', 0))
a11 = np.multiply.accumulate(a0)
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
