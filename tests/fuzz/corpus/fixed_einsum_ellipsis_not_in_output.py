"""Fuzz seed 6149, setting default: exception at `a1 = np.einsum('...i->i', a0)`: NumPy raises ValueError: output has more dimensions than subscripts given in einstein sum, but no '...' ellipsis provided; ndtile does not"""
SETTING = 'default'
XFAIL = None
PROGRAM = """
a0 = np.asarray(data(733, (2, 3), 'int64', 0))
a1 = np.einsum('...i->i', a0)
a2 = np.einsum('...i->i', a0[0])
a3 = np.einsum('...ij->j', a0)
a4 = np.einsum('...->', a0)
a5 = np.einsum('...i->i', a0, optimize=True)
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
