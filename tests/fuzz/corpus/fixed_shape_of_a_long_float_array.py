"""Fuzz seed 689520807, setting sim2: `np.full(a5, -1)` with a 2-d array of 7,811 floats as the shape: NumPy checks the length first (ValueError), ndtile converted the elements first (TypeError)."""
SETTING = 'sim2'
XFAIL = None
PROGRAM = """
a2 = np.asarray(data(458618049, (1, 7812), 'uint32', 0))
a5 = np.cumsum(np.swapaxes(a2, 0, -1)[1:], axis=1, dtype='int64')  # check
a10 = np.full(a5, -1)
"""

if __name__ == '__main__':
    import os
    import sys
    os.environ.update({'NDTILE_DEVICES': 'sim:2,mem=4M', 'NDTILE_CHECK': 'abort'})
    sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    import ndtile
    from fuzzlib import replay
    replay([ln for ln in PROGRAM.strip().splitlines() if ln.strip()], ndtile)
    print('ok')
