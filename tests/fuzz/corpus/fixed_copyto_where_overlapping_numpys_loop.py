"""small_tiles seed 38000148 (any setting): copyto(a9[::-3], a9[:334][::-1], where=a9[:334] < 1), a 1-d target and a source overlapping it with strides the same way, read the whole source first; NumPy's masked loop makes no copy first (as its plain assignment, fixed_overlapping_1d_assignment_numpys_loop.py), so a selected element takes a value written one step before"""
SETTING = 'small_tiles'
XFAIL = None
PROGRAM = """
a9 = np.asarray(data(40936191, (1000,), 'uint32', 0))
np.copyto(a9[::-3], a9[:334][::-1], where=a9[:334] < 1)  # check
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
