"""Fuzz seed 5225, setting default: exception at `np.copyto(a3, np.int64(-3), casting='no', where=...)`: NumPy raises ValueError: assignment destination is read-only; ndtile TypeError: Cannot cast array data from dtype('int64') to dtype('complex64') according to the rule 'no'"""
SETTING = 'default'
XFAIL = None
PROGRAM = """
a0 = np.asarray(data(12, (2,), 'complex64', 0))
a3 = np.broadcast_to(a0, (3, 2))
np.copyto(a3, np.int64(-3), casting='no', where=np.asarray(data(383305950, (1, 2), 'bool')))  # check
np.copyto(a3, np.ones(5), casting='same_kind')  # check
np.copyto(a0, a3[1], casting='no')  # check
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
