"""Fuzz seed 7001747, setting default: exception at `a10 = np.where(a9 > 0, a9, 9223372036854775808)`: ndtile raises OverflowError: Python int too large to convert to C long; NumPy does not"""
SETTING = 'default'
XFAIL = None  # fixed on main (issue 14 session)
PROGRAM = """
a4 = np.asarray(data(1042736780, (2, 1, 2), 'int64', 2))
a5 = a4.astype('int64', copy=False)
a9 = a5[-2::-3, 3::2, -2]
a10 = np.where(a9 > 0, a9, 9223372036854775808)
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
