"""Fuzz campaign 6, setting default: exception at `a2 = np.max(a0, initial=-3, where=...)`: NumPy raises ValueError: input operand has more dimensions than allowed by the axis remapping; ndtile OverflowError: Python integer -3 out of bounds for uint8 (NumPy checks where='s shape before it converts initial=)"""
SETTING = 'default'
XFAIL = None  # fixed on main (issue 14, second session)
PROGRAM = """
a0 = np.asarray(data(237956336, (), 'uint8', 2))
a1 = np.asarray(data(195880344, (9,), 'uint8', 1))
a2 = np.max(a0, initial=-3, where=np.asarray(data(368350935, (1,), 'bool')))
a3 = a1.max(axis=0, initial=-3, where=np.asarray(data(631059315, (10,), 'bool')))
a4 = a1.min(axis=0, where=np.asarray(data(631059315, (10,), 'bool')))
a5 = a1.sum(initial=300, where=np.asarray(data(631059315, (10,), 'bool')))
"""

if __name__ == '__main__':
    import os
    import sys
    sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    import ndtile
    from fuzzlib import replay
    replay([ln for ln in PROGRAM.strip().splitlines() if ln.strip()], ndtile)
    print('ok')
