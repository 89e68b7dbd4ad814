"""Fuzz seed 300003756, setting default: exception at `np.copyto(a11, a11, casting='same_kind', where=np.asarray(data(88180201, (1, 0), 'bool')))  # check`: ndtile raises ValueError: non-broadcastable output operand with shape (0,) doesn't match the broadcast shape (1,0); NumPy does not"""
SETTING = 'default'
XFAIL = None
PROGRAM = """
a0 = np.asarray(data(688975614, (1, 2), 'uint32', 0))
a5 = np.positive(a0, out=a0)  # check
a9 = a5[np.array([[False, False]])]
a11 = a9 + a9
np.copyto(a11, a11, casting='same_kind', where=np.asarray(data(88180201, (1, 0), 'bool')))  # check
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
