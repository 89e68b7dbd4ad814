"""Fuzz seed 420002072, setting workers1: exception at `a16 = np.take(a15, [2], axis=-1, mode='raise')`: ndtile raises IndexError: cannot do a non-empty take from an empty axes.; NumPy does not"""
SETTING = 'default'
XFAIL = None  # fixed on main (open23 session)
PROGRAM = """
a0 = np.asarray(data(829582156, (7, 4, 5, 7, 1), 'uint64', 2))
a1 = np.swapaxes(a0, 3, -1)
a2 = np.asarray(data(305383740, (7, 4, 5, 1, 7), 'uint8', 2)) ** a1
a4 = a2[3::3, 5:5:2, ::-1, None, :0, :-6:2]
a6 = np.nancumprod(a4[::-1], axis=-1)
a7 = a6.reshape((1, -1))
a12 = np.asarray(a7, dtype='uint32')
a15 = a12[2::3, ::-1]
a16 = np.take(a15, [2], axis=-1, mode='raise')
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
