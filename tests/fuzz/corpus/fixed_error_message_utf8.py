"""Hand-written from a fuzz find (setting default): a whole array assigned to one
element. NumPy raises TypeError (complex target) or ValueError (float
target); ndtile raises UnicodeDecodeError, its message built from bytes
that are not UTF-8. UnicodeDecodeError is a ValueError, so only the complex
case shows as a mismatch; the check after the line also compares the
message class."""
SETTING = 'default'
XFAIL = None  # fixed on main (issue 14 session)
PROGRAM = """
a0 = np.arange(10, dtype='complex128')
a1 = np.arange(5, dtype='complex128')
a0[3] = a1  # check
"""

if __name__ == '__main__':
    import os
    import sys
    sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    import ndtile
    from fuzzlib import replay
    replay([ln for ln in PROGRAM.strip().splitlines() if ln.strip()], ndtile)
    print('ok')
