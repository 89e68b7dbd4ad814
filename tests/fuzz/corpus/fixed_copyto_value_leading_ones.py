"""Fuzz seed 300003150, setting default: exception at `np.copyto(a3, np.asarray(data(14213621, (1, 1, 2, 300), 'bool', 0)), casting='unsafe', where=np.asarray(data(92752915, (2, 300), 'bool')))  # check`: ndtile raises ValueError: non-broadcastable output operand with shape (2,300) doesn't match the broadcast shape (1,1,2,300); NumPy does """
SETTING = 'default'
XFAIL = None
PROGRAM = """
a0 = np.full((2, 2), np.int32(-3), dtype='int32')
a3 = np.dot(a0, np.asarray(data(549970396, (2, 300), 'int32', 0)))
np.copyto(a3, np.asarray(data(14213621, (1, 1, 2, 300), 'bool', 0)), casting='unsafe', where=np.asarray(data(92752915, (2, 300), 'bool')))  # check
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
