"""workers1 seed 73003012 (fails with any setting): a 1-d target assigned from a source that overlaps it with strides the same way (a[:, 3] = a[2]) read the whole source first; NumPy's loop copies element by element without a copy, so a[3, 3] takes the 12 that a[2, 3] got one step before (ndtile gave 13)"""
SETTING = 'default'
XFAIL = None
PROGRAM = """
a12 = np.arange(25, dtype='int8').reshape((5, 5))
a13 = a12[2]
a12[:, ..., -2] = a13  # check
a14 = np.arange(40, dtype='float32')
a14[3:31:2] = a14[::3]  # check
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
