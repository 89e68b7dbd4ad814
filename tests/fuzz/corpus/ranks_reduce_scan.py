"""Hand-written: reductions, scans, sort and matmul of arrays spread over
two ranks (tiles owned by different ranks)."""
SETTING = 'ranks2'
XFAIL = None
PROGRAM = """
a0 = np.asarray(data(3, (400, 700), 'float64', 0))
a1 = a0.sum(axis=0)
a2 = a0.sum(axis=1, keepdims=True)
a3 = np.cumsum(a0, axis=1)
a4 = np.sort(a0, axis=0)
a5 = a0[::-1, ::2] @ np.asarray(data(4, (350, 3), 'float64', 0))
a6 = a0.argmax(axis=1)
a0[::7] = a1[::2]  # check
a7 = a0.mean()
"""
