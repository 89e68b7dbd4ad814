"""Fuzz seed 10008076, setting default: ndtile raises OverflowError: Python int too large to convert to C long; NumPy does not"""
SETTING = 'default'
XFAIL = None  # fixed on main (open23 session)
PROGRAM = """
a10 = np.asarray(data(3, (4,), 'int64', 0))
a12 = np.select([a10 > 0, np.asarray(data(735725573, (), 'bool'))], [a10, 9223372036854775808], default=False)
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
