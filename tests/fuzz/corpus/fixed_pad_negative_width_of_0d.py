"""Fuzz seed 300001566, setting default: exception at `a3 = np.pad(a0, -1, mode='constant', constant_values=3)`: NumPy raises ValueError: index can't contain negative values; ndtile does not"""
SETTING = 'default'
XFAIL = None
PROGRAM = """
a0 = np.asarray(data(75534667, (), 'uint8', 2))
a3 = np.pad(a0, -1, mode='constant', constant_values=3)
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
