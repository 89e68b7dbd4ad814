"""Fuzz seed 17000028, setting small_tiles: exception at `a7 /= a1[::-1]  # check`: NumPy raises UFuncTypeError: Cannot cast ufunc 'divide' output from dtype('float64') to dtype('int32') with casting rule 'same_kind'; ndtile ValueError: non-broadcastable output operand with shape (1,) doesn't match the broadcast shape (4,)"""
SETTING = 'small_tiles'
XFAIL = None  # fixed on main (issue 14 session)
PROGRAM = """
a0 = np.zeros((4,), dtype='int32')
a1 = a0.T
a7 = a0[[0]]
a7 /= a1[::-1]  # check
"""

if __name__ == '__main__':
    import os
    import sys
    os.environ.update({'NDTILE_TILE_BYTES': '4096'})
    sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    import ndtile
    from fuzzlib import replay
    replay([ln for ln in PROGRAM.strip().splitlines() if ln.strip()], ndtile)
    print('ok')
