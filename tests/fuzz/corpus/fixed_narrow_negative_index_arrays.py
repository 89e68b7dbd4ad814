"""Hand-minimised (session 29, fuzz29's exploratory programs): an int8 or
int16 index array with negative values into an axis longer than its type's
range raised OverflowError: the negative indices were wrapped (-1 + n) in
the index's own dtype (`_indexing._index_arrays`, `ufunc.at`'s index)."""
SETTING = 'default'
XFAIL = None
PROGRAM = """
a0 = np.asarray(data(22, (700,), 'float64', 0))
a1 = a0[np.array([1, 0, 2], dtype='uint8')]
a2 = a0[np.array([-1, 0, 2], dtype='int8')]
a0[np.array([3, -3, 1], dtype='int8')] = 5  # check
a0[np.array([-1, 0, -1], dtype='int8')] += 1  # check
a3 = a0[np.array([[0, 1], [2, -1]], dtype='int8')]
a4 = a0.reshape(7, 100)[np.array([-1, 2], dtype='int8'), np.array([-1, 99], dtype='int8')]
a5 = a0.flat[np.array([-5, 3], dtype='int8')]
np.add.at(a0, np.array([-1, -1, 2], dtype='int8'), 1.5)  # check
a6 = np.zeros(40000)
a6[np.array([-1, 5, -32768], dtype='int16')] = 2  # check
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
