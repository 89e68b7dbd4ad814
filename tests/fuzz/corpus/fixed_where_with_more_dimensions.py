"""Fuzz seed 7000690, setting default: exception at `a3 = a0.prod(where=np.asarray(data(201103973, (1,), 'bool')))`: NumPy raises ValueError: input operand has more dimensions than allowed by the axis remapping; ndtile does not"""
SETTING = 'default'
XFAIL = None  # fixed on main (issue 14 session)
PROGRAM = """
a0 = np.zeros((), dtype='bool')
a3 = a0.prod(where=np.asarray(data(201103973, (1,), 'bool')))
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
