"""Fuzz seed 24100050, setting default: exception at `a0.flat[1] = -1  # check`: NumPy raises ValueError: Error setting single item of array.; ndtile OverflowError: Python integer -1 out of bounds for uint64. With the flat iterator's cyclic values (NumPy takes a value's elements in C order over the selection, whatever its shape; ndtile broadcast them: ValueError)."""
SETTING = 'default'
XFAIL = None
PROGRAM = """
a0 = np.arange(2, dtype='uint64').reshape((2,))
a0.flat[1] = -1  # check
a1 = np.arange(6, dtype='int16').reshape((2, 3))
a1.flat[::2] = [5, 6]  # check
a1.T.flat[1:] = np.arange(8).reshape((2, 4))  # check
a1.flat[[0, 0, 4]] = [7, 8]  # check
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
