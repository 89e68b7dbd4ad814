"""cudahost_ranks2 seed 15209914 (fails with any setting): np.unique of a complex array with several NaN values kept the first NaN in sorted order (nan-infj); NumPy 2.4's unique without indices or counts hashes and keeps the first in the input's order (nan+infj)"""
SETTING = 'default'
XFAIL = None
PROGRAM = """
a0 = np.asarray(data(365081030, (2, 7, 6), 'complex64', 2))
a1 = np.sort(a0, axis=-1)
a13 = np.unique(a1)
a15 = a13.imag
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
