"""Fuzz seed 51260, setting default: value at `a0[None] = -3  # check`: a3: 1 of 1 elements differ, first at (): NumPy np.int32(3), ndtile np.int32(-3)"""
SETTING = 'default'
XFAIL = None  # fixed on main (issue 14 session)
PROGRAM = """
a0 = np.arange(1, dtype='int32').reshape(())
a3 = np.flip(a0)
a0[None] = -3  # check
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
