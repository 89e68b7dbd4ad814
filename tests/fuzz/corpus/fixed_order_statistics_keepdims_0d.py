"""Fuzz seed 6217, setting default: a9: NumPy gives an array, ndtile float64"""
SETTING = 'default'
XFAIL = None  # fixed on main (open23 session)
PROGRAM = """
a0 = np.asarray(data(358255360, (), 'uint16', 0))
a9 = np.nanmedian(a0, axis=None, keepdims=True)
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
