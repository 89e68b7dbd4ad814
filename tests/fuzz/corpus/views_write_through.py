"""Hand-written: writes through stepped, negative-step and transposed views
of a multi-tile array, in-place operators with an overlapping reversed
operand, out= into a view, and reductions of the base afterwards."""
SETTING = 'default'
XFAIL = None
PROGRAM = """
a0 = np.asarray(data(1, (1200, 900), 'float32', 0))
a1 = a0[::-2, 3::3].T
a1 += 1
a2 = a0[100:-100, ::-1]
a2 *= np.float32(2)
a3 = a0.ravel()
a3 -= a3[::-1]
np.multiply(a0[::2], 0.5, out=a0[1::2])
a4 = a0.sum(axis=0)
a5 = a0.max(axis=1, keepdims=True)
a6 = np.cumsum(a0[::-3], axis=1)
"""
