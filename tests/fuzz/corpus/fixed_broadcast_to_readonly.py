"""Fuzz seed 7000754, setting default: exception at `a8 |= a8  # check`: NumPy raises ValueError: output array is read-only; ndtile does not"""
SETTING = 'default'
XFAIL = None   # fixed on main (merged 11:15); a regression test now
PROGRAM = """
a0 = np.arange(1, dtype='uint32').reshape(())
a8 = np.broadcast_to(a0, ())
a8 |= a8  # check
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
