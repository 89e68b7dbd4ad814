"""Fuzz seeds 260000719 and 260000928 (default), 1355, 1668, 280000923 (small_tiles,
workers1; session 26's API steps): np.asarray(a.flat) is a view of a C-contiguous a
and a read-only copy of any other (ndtile copied, writable); a.flat[slice] is a new
C-contiguous array (its ravel a view); fill checks a read-only destination before it
converts the value; flat[True] = v writes element 0."""
SETTING = 'default'
XFAIL = None
PROGRAM = """
a0 = np.zeros((), dtype='complex128')
a5 = np.asarray(a0.flat)
a5[0] = np.asarray(data(402897923, (), 'float64', 0))  # check
a1 = np.asarray(data(328756619, (3,), 'uint16', 2))
a2 = np.asarray(a1.flat)
a1.fill(np.uint64(5))  # check
a3 = np.asarray(data(347583448, (5, 2), 'uint32', 2))
a4 = np.asarray(a3[::-1].flat)
a4[...] = 7  # check
a6 = np.broadcast_to(a3, (2, 5, 2))
a6[..., 1:].fill(np.inf)  # check
a7 = a3.T.flat[-3::-2]
a8 = np.ravel(a7)
a8[:1] = 4  # check
a3.flat[np.array(True)] = 9  # check
a3.flat[1:] = np.uint8(200)  # check
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
