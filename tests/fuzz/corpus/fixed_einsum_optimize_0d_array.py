"""Fuzz seed 612718054 (--gaps), setting default: type at `<end of program>`: a6: NumPy gives an array, ndtile float32 (einsum's optimize= path returns a 0-d array; session 31)"""
SETTING = 'default'
XFAIL = None  # fixed in session 31 (fuzz31)
PROGRAM = """
a6 = np.einsum('i,i,i->', np.asarray(data(39618789, (6,), 'float32', 0)), np.asarray(data(1057792406, (6,), 'float32', 0)), np.asarray(data(260513843, (6,), 'float32', 0)), optimize='optimal')
a7 = np.einsum('i,j->', np.asarray(data(5, (3,), 'int64', 0)), np.asarray(data(6, (4,), 'int64', 0)), optimize=True)
a8 = np.einsum('ii', np.asarray(data(7, (3, 3), 'int64', 0)), optimize='greedy')
a9 = np.einsum('i,i', np.asarray(data(8, (5,), 'int64', 0)), np.asarray(data(9, (5,), 'int64', 0)), optimize=True)
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
