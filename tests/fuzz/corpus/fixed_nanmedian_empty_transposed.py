"""Fuzz seed 934039, setting default: exception at `np.nanmedian`: ndtile raises ValueError: cannot reshape array of size 0 into shape (0,newaxis); NumPy does not"""
SETTING = 'default'
XFAIL = None  # fixed on main (open23 session)
PROGRAM = """
a0 = np.zeros((2, 0, 3), dtype='int64')
a1 = np.transpose(a0)
a2 = np.nanmedian(a1, axis=(0, 2))
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
