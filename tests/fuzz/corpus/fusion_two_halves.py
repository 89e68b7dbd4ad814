"""Hand-written: two slice writes into one fresh array, then a fused chain
over it and views of it, at default tiles (3M elements: several 2 MiB
tiles, the deferred path and fusion). main c937d8b fixed the first write
being dropped as dead."""
SETTING = 'default'
XFAIL = None
PROGRAM = """
a0 = np.zeros((3000000,), dtype='float64')
a0[:1500000] = 1  # check
a0[1500000:] = 2
a1 = a0 * 2.0 + 1.0
a2 = a0[::-1]
a2 -= a1[::3].sum() / 1e6
a3 = (a1 - a2) * a0[::-1]
a4 = a3.reshape((1000, 3000)).T
a5 = a4.sum(axis=0, dtype='float64')
"""
