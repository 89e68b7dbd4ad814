"""Fuzz seed 690986136, setting small_tiles: `np.put(a2, [], [])` where a2 is `0-d + 0`, a NumPy scalar (as NumPy's result is): NumPy's put takes a scalar (into a temporary 0-d array), ndtile raised TypeError."""
SETTING = 'small_tiles'
XFAIL = None
PROGRAM = """
a2 = np.asarray(data(359278067, (), 'complex64', 0)) + 0
np.put(a2, [], [])  # check
np.put(a2, [0], [5])  # check
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
